//! The page's own words come through the phrasebook: no English literal reaches a view as a
//! text node or an accessible name without `tr!`/`trf!`, so a Korean page shows none of them.
//! Upstream's names (client-go's field names, kubectl, units) are the only literals a view
//! shows as they are.

use std::path::{Path, PathBuf};

/// Literals a view may show as they are: upstream's names and the languages' own names.
const AS_UPSTREAM_NAMES_THEM: &[&str] = &[
    "informer-playground",
    "kubectl",
    "English",
    "한국어",
    "RV",
    "ms",
    "queue",
    "dirty",
    "processing",
    "waiting",
    // A file format's name.
    "JSON",
    // The test-only crash button (feature `crash-button`), never in the page.
    "crash",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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

/// The literals of a line shown to a person: text nodes (`{ "…" }`) and accessible names or
/// hints (`aria-label="…"`, `title="…"`, `placeholder="…"`, `alt="…"`).
fn shown_literals(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find('"') {
        let before = rest[..at].trim_end();
        let after = &rest[at + 1..];
        let Some(end) = after.find('"') else { break };
        let literal = &after[..end];
        let closes = after[end + 1..].trim_start().starts_with('}');
        let text_node = before.ends_with('{') && closes;
        let named = ["aria-label=", "title=", "placeholder=", "alt="].iter().any(|a| before.ends_with(a));
        if text_node || named {
            found.push(literal.to_string());
        }
        rest = &after[end + 1..];
    }
    found
}

/// Whether a literal holds words of the page's own: letters, and not one of upstream's names.
fn is_own_words(literal: &str) -> bool {
    literal.chars().any(|c| c.is_ascii_alphabetic()) && !AS_UPSTREAM_NAMES_THEM.contains(&literal)
}

fn unphrased(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .flat_map(|(n, line)| shown_literals(line).into_iter().filter(|l| is_own_words(l)).map(move |l| (n + 1, l)))
        .collect()
}

#[test]
fn no_english_literal_reaches_a_view_without_the_phrasebook() {
    let mut files = Vec::new();
    rust_files(&root().join("crates/web/src/ui"), &mut files);
    rust_files(&root().join("crates/sim/src/views"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, literal) in unphrased(&text) {
            found.push(format!("{}:{line}: {literal:?}", file.strip_prefix(root()).unwrap().display()));
        }
    }
    assert!(found.is_empty(), "English shown without tr!/trf!:\n{}", found.join("\n"));
}

#[test]
fn an_unphrased_literal_is_found_and_a_phrased_one_is_not() {
    let view = r#"
        <p>{ "Step forward" }</p>
        <button aria-label="Close the dialog">{ tr!(lang, "Close") }</button>
        <th>{ "RV" }</th>
        <span class="a b">{ "→" }</span>
        // <p>{ "a comment" }</p>
    "#;
    let found: Vec<String> = unphrased(view).into_iter().map(|(_, l)| l).collect();
    assert_eq!(found, ["Step forward", "Close the dialog"]);
}
