//! `docs/semantics.md` is the specification the code cites: every `§N` or `§N.M` in a comment
//! and every test named `semantics_N_M_…` names a section it has, and every top-level section
//! is checked by at least one test. §0, the release matrix, is checked here against `Era`.

use informer_sim::era::{Era, FifoKind};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn specification() -> String {
    std::fs::read_to_string(root().join("docs/semantics.md")).expect("docs/semantics.md exists")
}

/// The section numbers of the document's `## N.` and `### N.M` headings.
fn sections(document: &str) -> BTreeSet<String> {
    document
        .lines()
        .filter_map(|l| l.strip_prefix("### ").or_else(|| l.strip_prefix("## ")))
        .filter_map(|title| {
            let number: String = title.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            let number = number.trim_end_matches('.');
            (!number.is_empty()).then(|| number.to_string())
        })
        .collect()
}

/// The sections a text cites: `§N`, `§N.M` (both ends of `§a–§b`), and test names
/// `semantics_N_M_…` (`semantics_3_and_6_…` cites §3 and §6).
fn citations(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut signs = BTreeSet::new();
    for (at, _) in text.match_indices('§') {
        let number: String =
            text[at + '§'.len_utf8()..].chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        let number = number.trim_end_matches('.');
        if !number.is_empty() {
            signs.insert(number.to_string());
        }
    }
    let mut tests = BTreeSet::new();
    for (at, _) in text.match_indices("fn semantics_") {
        let words = text[at + "fn semantics_".len()..].split(['_', '(']);
        let mut current: Option<String> = None;
        for word in words {
            match (word.parse::<u32>(), &mut current) {
                (Ok(n), None) => current = Some(n.to_string()),
                (Ok(n), Some(section)) if !section.contains('.') => section.push_str(&format!(".{n}")),
                (_, _) if word == "and" => tests.extend(current.take()),
                _ => break,
            }
        }
        tests.extend(current);
    }
    (signs, tests)
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.map(|e| e.unwrap().path()) {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust file of the three crates, with its text.
fn code() -> Vec<(PathBuf, String)> {
    let mut paths = Vec::new();
    for dir in [
        "crates/sim/src",
        "crates/sim/tests",
        "crates/sim/benches",
        "crates/web/src",
        "crates/web/tests",
        "src",
        "tests",
    ] {
        sources(&root().join(dir), &mut paths);
    }
    paths.into_iter().map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap())).collect()
}

#[test]
fn every_section_the_code_cites_is_in_the_specification() {
    let known = sections(&specification());
    assert!(known.len() >= 20, "the document's sections: {known:?}");
    let mut missing = Vec::new();
    for (path, text) in code() {
        let (signs, tests) = citations(&text);
        for number in signs.union(&tests).filter(|n| !known.contains(*n)) {
            missing.push(format!("{}: §{number}", path.strip_prefix(root()).unwrap_or(&path).display()));
        }
    }
    assert!(missing.is_empty(), "cited but not in docs/semantics.md:\n{}", missing.join("\n"));
}

#[test]
fn every_top_level_section_is_checked_by_a_test() {
    let tested: BTreeSet<String> = code()
        .iter()
        .flat_map(|(_, text)| citations(text).1)
        .map(|n| n.split('.').next().unwrap().to_string())
        .collect();
    let untested: Vec<String> =
        sections(&specification()).into_iter().filter(|n| !n.contains('.') && !tested.contains(n)).collect();
    assert!(untested.is_empty(), "top-level sections no test names: {untested:?}");
}

#[test]
fn citations_are_read_from_signs_ranges_and_test_names() {
    let (signs, tests) = citations(
        "// §2.4 and §1–§4.\nfn semantics_1_6_and_4_resync() {}\nfn semantics_7_8_a_resumed() {}\nfn semantics_3_and_6_x() {}",
    );
    assert_eq!(signs, ["1", "2.4", "4"].map(String::from).into());
    assert_eq!(tests, ["1.6", "3", "4", "6", "7.8"].map(String::from).into());
    assert_eq!(sections("## 0. Matrix\n### 2.4 RealFIFO\n## Sources\n"), ["0", "2.4"].map(String::from).into());
}

/// The cells of §0's row whose first cell is `behaviour`, one per release (1.30, 1.33, 1.37).
fn matrix_row(document: &str, behaviour: &str) -> Vec<String> {
    let row = document
        .lines()
        .find(|l| l.starts_with(&format!("| {behaviour} |")))
        .unwrap_or_else(|| panic!("§0 has a row {behaviour:?}"));
    row.trim_matches('|').split('|').skip(1).take(3).map(|c| c.trim().to_string()).collect()
}

#[test]
fn semantics_0_each_release_takes_its_side_of_the_release_matrix() {
    let document = specification();
    let fifo = matrix_row(&document, "informer FIFO");
    let first_sync = matrix_row(&document, "reflector's first sync");
    let queue = matrix_row(&document, "controller-runtime queue");
    let delete = matrix_row(&document, "`kubectl delete` names the namespace");
    for (i, era) in Era::ALL.into_iter().enumerate() {
        let expected_fifo = match era.fifo() {
            FifoKind::DeltaFifo => "DeltaFIFO",
            FifoKind::RealFifo => "RealFIFO",
            FifoKind::AtomicRealFifo => "atomic RealFIFO with `PopBatch`",
        };
        assert_eq!(fifo[i], expected_fifo, "{era}");
        assert_eq!(first_sync[i].starts_with("WATCH"), era.watch_list_client(), "{era}: {}", first_sync[i]);
        assert_eq!(queue[i] == "priority queue", era.priority_queue(), "{era}: {}", queue[i]);
        assert_eq!(delete[i] == "yes", era.kubectl_delete_names_namespace(), "{era}: {}", delete[i]);
    }
}
