//! The simulation's layers, held: every `crate::…` path in `src/` names a module of its own
//! layer or of one that ARCHITECTURE.md's "may import" column allows. Between crates Cargo
//! holds the layering (the page and the command line depend on this crate, never the reverse);
//! inside it, this test does.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A layer of ARCHITECTURE.md's simulation table: its modules and the layers it may import.
#[derive(Debug)]
struct Layer {
    name: String,
    modules: Vec<String>,
    may_import: BTreeSet<String>,
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The cells of a Markdown table row.
fn cells(line: &str) -> Vec<String> {
    line.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect()
}

/// The table under "## Layers of the simulation", in order from the top layer down. "X and
/// below" in the last column means X and every layer under it.
fn layers(architecture: &str) -> Vec<Layer> {
    let section = format!("\n{architecture}");
    let section = section
        .split("\n## ")
        .find(|s| s.starts_with("Layers of the simulation"))
        .expect("ARCHITECTURE.md has a section \"Layers of the simulation\"");
    let rows: Vec<Vec<String>> = section.lines().filter(|l| l.starts_with('|')).skip(2).map(cells).collect();
    let names: Vec<String> = rows.iter().map(|r| r[0].clone()).collect();
    rows.iter()
        .map(|row| {
            let modules = row[1].split(',').map(|m| m.trim().trim_matches('`').to_string()).collect();
            let mut may_import = BTreeSet::new();
            let text = row.last().unwrap().replace('`', "");
            for part in text.split(',').map(str::trim).filter(|p| !p.is_empty() && *p != "nothing") {
                match part.strip_suffix(" and below") {
                    Some(lowest) => {
                        let at =
                            names.iter().position(|n| n == lowest).unwrap_or_else(|| panic!("no layer {lowest:?}"));
                        may_import.extend(names[at..].iter().cloned());
                    }
                    None => {
                        assert!(names.iter().any(|n| n == part), "{}: no layer {part:?}", row[0]);
                        may_import.insert(part.to_string());
                    }
                }
            }
            Layer { name: row[0].clone(), modules, may_import }
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's code without its comments (line comments and doc comments).
fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// Every path a file's code names from `crate` or `super`, written out whole: `use` groups
/// (`use crate::{a, b::{c, d}}`) are expanded, and a macro of the crate's keeps its `!`
/// (`crate::tr!`). Each comes with the inline modules it is written in (`mod tests { … }`),
/// from which its `super` counts.
fn paths(text: &str) -> Vec<(Vec<String>, String)> {
    let code = code(text);
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    // Inline modules open at a brace depth: (depth, name).
    let (mut depth, mut inline): (usize, Vec<(usize, String)>) = (0, Vec::new());
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let joined = at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'_' | b'$' | b':'));
        if !joined && rest.starts_with("mod ") {
            let name: String = rest[4..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if rest[4 + name.len()..].trim_start().starts_with('{') {
                inline.push((depth + 1, name));
            }
        }
        match rest.as_bytes()[0] {
            b'{' => depth += 1,
            b'}' => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        if !joined && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            let len = path_len(rest);
            let mut written = Vec::new();
            expand("", &rest[..len], &mut written);
            let within: Vec<String> = inline.iter().map(|(_, n)| n.clone()).collect();
            found.extend(written.into_iter().map(|p| (within.clone(), p)));
            // Braces of a use group are its own, not blocks.
            at += len.max(1);
            continue;
        }
        at += rest.chars().next().map_or(1, char::len_utf8);
    }
    found
}

/// The length of the path at the start of `text`, its braces included.
fn path_len(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            c if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' => {}
            '!' => return i + 1,
            _ => return i,
        }
        if depth == 0 && c == '}' {
            return i + 1;
        }
    }
    text.len()
}

/// Writes out a path with `{…}` groups as the paths it names.
fn expand(prefix: &str, path: &str, out: &mut Vec<String>) {
    let path = path.trim();
    let Some(open) = path.find('{') else {
        out.push(format!("{prefix}{path}").trim_end_matches("::").to_string());
        return;
    };
    let head = format!("{prefix}{}", &path[..open]);
    let inner = &path[open + 1..path.rfind('}').unwrap_or(path.len())];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&head, &inner[start..i], out);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner[start..].trim().is_empty() {
        expand(&head, &inner[start..], out);
    }
}

/// The module a file is (`client/queue.rs` → `client::queue`, `world/mod.rs` → `world`).
fn module_of(file: &str) -> Vec<String> {
    let trimmed = file.trim_end_matches(".rs").trim_end_matches("/mod");
    trimmed.split('/').filter(|p| *p != "lib").map(String::from).collect()
}

/// The segments a path names from the crate's root, `super` resolved from the module it is
/// written in (`file`'s, and the inline modules `within` it).
fn absolute(file: &str, within: &[String], path: &str) -> Vec<String> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base = module_of(file);
    base.extend(within.iter().cloned());
    if segments.first() == Some(&"crate") {
        base.clear();
        segments.remove(0);
    }
    while segments.first() == Some(&"super") {
        base.pop();
        segments.remove(0);
    }
    base.extend(segments.into_iter().map(String::from));
    base
}

/// The top-level modules a file's code names (`world`, `tr!`, …).
fn imports(file: &str, text: &str) -> BTreeSet<String> {
    paths(text)
        .iter()
        .filter_map(|(within, p)| absolute(file, within, p).into_iter().next())
        .filter(|m| m != "self")
        .collect()
}

/// Every import that crosses layers against the column, as "file: layer imports module (layer)".
fn breaches(layers: &[Layer], files: &[(String, String)]) -> Vec<String> {
    let layer_of: BTreeMap<&str, &Layer> =
        layers.iter().flat_map(|l| l.modules.iter().map(move |m| (m.as_str(), l))).collect();
    let mut found = Vec::new();
    for (file, text) in files {
        let top = file.split('/').next().unwrap().trim_end_matches(".rs");
        if top == "lib" {
            continue;
        }
        let own = layer_of.get(top).unwrap_or_else(|| panic!("{file}: module {top} is in no layer of ARCHITECTURE.md"));
        for module in imports(file, text) {
            let Some(other) = layer_of.get(module.as_str()) else { panic!("{file}: crate::{module} is in no layer") };
            if other.name != own.name && !own.may_import.contains(&other.name) {
                found.push(format!("{file}: {} imports {module} ({})", own.name, other.name));
            }
        }
    }
    found
}

fn sources() -> Vec<(String, String)> {
    let src = root().join("crates/sim/src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let name = p.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect()
}

/// The file modules of the crate (`client::queue`, `world`, …) and, for each, the others its
/// code names — siblings and cousins only: a module and its own parent or child are one unit.
fn module_graph(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(f, _)| module_of(f)).collect();
    let mut graph = BTreeMap::new();
    for (file, text) in files {
        let own = module_of(file);
        let mut uses = BTreeSet::new();
        for (within, path) in paths(text) {
            let target = absolute(file, &within, &path);
            // The longest module the path starts with.
            let Some(named) = (1..=target.len()).rev().map(|n| target[..n].to_vec()).find(|m| modules.contains(m))
            else {
                continue;
            };
            let related = named.starts_with(&own) || own.starts_with(&named);
            if !related {
                uses.insert(named.join("::"));
            }
        }
        graph.insert(own.join("::"), uses);
    }
    graph
}

/// Every circle of imports between modules, each as its modules in order.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn reach(
        graph: &BTreeMap<String, BTreeSet<String>>,
        from: &str,
        to: &str,
        seen: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> bool {
        for next in graph.get(from).into_iter().flatten() {
            if next == to {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if reach(graph, next, to, seen, path) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    for start in graph.keys() {
        let mut path = vec![start.clone()];
        if reach(graph, start, start, &mut BTreeSet::new(), &mut path) {
            let mut circle = path.clone();
            let least = circle.iter().enumerate().min_by_key(|(_, m)| (*m).clone()).map_or(0, |(i, _)| i);
            circle.rotate_left(least);
            if !found.contains(&circle) {
                found.push(circle);
            }
        }
    }
    found
}

#[test]
fn no_two_modules_of_the_simulation_import_each_other_even_in_one_layer() {
    let found = circles(&module_graph(&sources()));
    let shown: Vec<String> = found.iter().map(|c| format!("{} → {}", c.join(" → "), c[0])).collect();
    assert!(found.is_empty(), "import circles:\n{}", shown.join("\n"));
}

#[test]
fn a_circle_between_two_sibling_modules_is_found_and_a_parent_and_child_are_not_one() {
    let file = |name: &str, text: &str| (name.to_string(), text.to_string());
    let circle = [
        file("client/queue.rs", "fn f() -> Box<dyn Queue> { Box::new(super::delta_fifo::DeltaFifo::new()) }"),
        file("client/delta_fifo.rs", "use super::queue::{entry, Queue};"),
        file("client/mod.rs", "pub use queue::Queue;"),
    ];
    let found = circles(&module_graph(&circle));
    assert_eq!(found, [vec!["client::delta_fifo".to_string(), "client::queue".to_string()]]);
    let family = [
        file("world/mod.rs", "pub use crate::world::informers::Stack;"),
        file("world/informers.rs", "use super::{Hop, World};\nuse crate::{kernel::Rng, cluster::{Kind, Status}};"),
        file("kernel/mod.rs", ""),
        file("cluster/mod.rs", ""),
    ];
    assert!(circles(&module_graph(&family)).is_empty());
}

#[test]
fn a_use_group_names_each_module_it_imports() {
    let text =
        "use crate::{kernel::Rng, cluster::{Kind, Status}};\nlet t = crate::tr!(lang, \"x\");\n// crate::views\n";
    let named = imports("world/informers.rs", text);
    assert_eq!(named, ["cluster", "kernel", "tr!"].into_iter().map(String::from).collect());
}

#[test]
fn every_import_in_the_simulation_follows_the_may_import_column() {
    let architecture = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let layers = layers(&architecture);
    assert!(layers.len() >= 10, "the table lists the simulation's layers: {layers:?}");
    let files = sources();
    let found = breaches(&layers, &files);
    assert!(found.is_empty(), "imports the layering does not allow:\n{}", found.join("\n"));
}

#[test]
fn every_module_of_the_simulation_is_in_exactly_one_layer() {
    let architecture = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut listed: Vec<String> =
        layers(&architecture).into_iter().flat_map(|l| l.modules).filter(|m| !m.ends_with('!')).collect();
    listed.sort();
    let lib = std::fs::read_to_string(root().join("crates/sim/src/lib.rs")).unwrap();
    let mut declared: Vec<String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").and_then(|m| m.strip_suffix(';')))
        .map(String::from)
        .collect();
    declared.sort();
    assert_eq!(listed, declared);
}

#[test]
fn a_downward_import_passes_and_an_upward_one_is_named() {
    let table = "## Layers of the simulation\n\n| layer | modules | holds | may import |\n|---|---|---|---|\n\
                 | session | `session` | … | world and below |\n| world | `world` | … | kernel |\n\
                 | kernel | `kernel` | … | nothing |\n";
    let layers = layers(table);
    let down = ("session/mod.rs".to_string(), "use crate::world::World;\nuse crate::kernel::Rng;".to_string());
    let up = ("world/mod.rs".to_string(), "// crate::session in a comment\nuse crate::session::Session;".to_string());
    let side = ("kernel/mod.rs".to_string(), "let x = informer_crate::session;".to_string());
    let group = ("session/travel.rs".to_string(), "use crate::{world::History, kernel::{Rng, Stage}};".to_string());
    assert!(breaches(&layers, &[down, side, group]).is_empty());
    assert_eq!(breaches(&layers, &[up]), ["world/mod.rs: world imports session (session)"]);
}
