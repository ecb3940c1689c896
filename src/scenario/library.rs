//! The bundled scenario library: every file of `static/scenarios/`, built into the program
//! (without the whitespace between tokens, by `build.rs`).

use super::{Scenario, ScenarioError};

/// (file name, contents) of every bundled scenario, in teaching order.
pub const FILES: &[(&str, &str)] = &[
    ("01-list-then-watch.json", include_str!(concat!(env!("OUT_DIR"), "/01-list-then-watch.json"))),
    ("02-polling-vs-watch.json", include_str!(concat!(env!("OUT_DIR"), "/02-polling-vs-watch.json"))),
    ("03-global-resource-version.json", include_str!(concat!(env!("OUT_DIR"), "/03-global-resource-version.json"))),
    ("04-spec-and-status.json", include_str!(concat!(env!("OUT_DIR"), "/04-spec-and-status.json"))),
    ("05-disconnect-and-resume.json", include_str!(concat!(env!("OUT_DIR"), "/05-disconnect-and-resume.json"))),
    ("06-compaction-410-relist.json", include_str!(concat!(env!("OUT_DIR"), "/06-compaction-410-relist.json"))),
    ("07-bookmarks.json", include_str!(concat!(env!("OUT_DIR"), "/07-bookmarks.json"))),
    ("08-rbac-without-list-watch.json", include_str!(concat!(env!("OUT_DIR"), "/08-rbac-without-list-watch.json"))),
    ("09-stale-read.json", include_str!(concat!(env!("OUT_DIR"), "/09-stale-read.json"))),
    ("10-delta-fifo-grouping.json", include_str!(concat!(env!("OUT_DIR"), "/10-delta-fifo-grouping.json"))),
    ("11-workqueue-dedup.json", include_str!(concat!(env!("OUT_DIR"), "/11-workqueue-dedup.json"))),
    ("12-rate-limited-retries.json", include_str!(concat!(env!("OUT_DIR"), "/12-rate-limited-retries.json"))),
    ("13-level-vs-edge.json", include_str!(concat!(env!("OUT_DIR"), "/13-level-vs-edge.json"))),
    ("14-resync.json", include_str!(concat!(env!("OUT_DIR"), "/14-resync.json"))),
    ("15-field-index.json", include_str!(concat!(env!("OUT_DIR"), "/15-field-index.json"))),
    ("16-cache-scope.json", include_str!(concat!(env!("OUT_DIR"), "/16-cache-scope.json"))),
    ("17-optimistic-concurrency.json", include_str!(concat!(env!("OUT_DIR"), "/17-optimistic-concurrency.json"))),
    ("18-sandbox.json", include_str!(concat!(env!("OUT_DIR"), "/18-sandbox.json"))),
];

/// Every bundled scenario, parsed once.
pub fn all() -> Result<&'static [Scenario], ScenarioError> {
    static PARSED: std::sync::OnceLock<Result<Vec<Scenario>, ScenarioError>> = std::sync::OnceLock::new();
    PARSED
        .get_or_init(|| FILES.iter().map(|(file, text)| Scenario::read(file, text)).collect())
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// A bundled scenario by id.
pub fn find(id: &str) -> Option<&'static Scenario> {
    all().ok()?.iter().find(|s| s.id == id)
}
