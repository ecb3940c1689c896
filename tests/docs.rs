//! The documents a reader follows: every relative link in README.md, ARCHITECTURE.md and
//! `docs/` names a file of the repository, and every `#anchor` a heading of that file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The documents read by people: README.md, ARCHITECTURE.md and every Markdown page of docs/.
fn documents() -> Vec<PathBuf> {
    let mut found = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The targets of a Markdown text's inline links and images, `[text](target)`, outside code
/// blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans hold examples, not links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            found.push(after[..end].trim().to_string());
            rest = &after[end..];
        }
    }
    found
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut found = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.insert(slug(line.trim_start_matches('#')));
        }
    }
    found
}

/// Every relative link of `document` that names no file, or no heading of its file.
fn broken_links(document: &Path, text: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for target in link_targets(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let path = if file.is_empty() { document.to_path_buf() } else { document.parent().unwrap().join(file) };
        if !path.exists() {
            broken.push(format!("{}: {target} names no file", document.display()));
            continue;
        }
        if !anchor.is_empty() && path.extension().is_some_and(|e| e == "md") {
            let headings = anchors(&std::fs::read_to_string(&path).unwrap());
            if !headings.contains(anchor) {
                broken.push(format!("{}: {target} names no heading of {}", document.display(), path.display()));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_in_the_documents_names_a_file_and_a_heading_that_exist() {
    let mut broken = Vec::new();
    for document in documents() {
        broken.extend(broken_links(&document, &std::fs::read_to_string(&document).unwrap()));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_link_to_a_missing_file_or_heading_is_found() {
    let readme = root().join("README.md");
    let text = "[a](docs/no-such-page.md) [b](docs/using.md#no-such-heading) [c](docs/using.md#the-page) \
                `[d](docs/not-a-link.md)` [e](https://example.com/x)";
    let broken = broken_links(&readme, text);
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("docs/no-such-page.md names no file"));
    assert!(broken[1].contains("#no-such-heading names no heading"));
}

#[test]
fn the_readme_is_a_newcomers_first_read_and_names_every_readers_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.lines().count() <= 200, "README.md has {} lines", readme.lines().count());
    for page in ["using", "workshops", "embedding", "real-clients", "writing-lessons", "performance", "developing"] {
        assert!(readme.contains(&format!("(docs/{page}.md)")), "README.md links no docs/{page}.md");
    }
    for command in ["make serve", "make test"] {
        assert!(readme.contains(command), "README.md lacks {command}");
    }
}
