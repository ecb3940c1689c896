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

/// The top-level modules a file's code (not its comments) names as `crate::module`, and the
/// crate's own macros as `crate::name!`.
fn imports(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (at, _) in line.match_indices("crate::") {
            let before = line[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let rest = &line[at + "crate::".len()..];
            let mut name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if rest[name.len()..].starts_with('!') {
                name.push('!');
            }
            found.insert(name);
        }
    }
    found
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
        for module in imports(text) {
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
    assert!(breaches(&layers, &[down, side]).is_empty());
    assert_eq!(breaches(&layers, &[up]), ["world/mod.rs: world imports session (session)"]);
}
