//! The bundled scenario library: every file of `static/scenarios/`. With the `bundled` feature
//! (the command line, the tests) they are all built in (without the whitespace between tokens, by `build.rs`); the page builds
//! in only their [`index`] and loads a lesson's file when it is opened ([`provide`]), so the
//! first screen does not wait for eighteen lessons.

use super::{Scenario, ScenarioError};

// `FILES`: (file name, contents) of every bundled scenario, in teaching order, written by
// `build.rs` from the folder, so a lesson is listed only by its file.
#[cfg(feature = "bundled")]
include!(concat!(env!("OUT_DIR"), "/files.rs"));

/// Every bundled scenario, parsed once.
#[cfg(feature = "bundled")]
pub fn all() -> Result<&'static [Scenario], ScenarioError> {
    static PARSED: std::sync::OnceLock<Result<Vec<Scenario>, ScenarioError>> = std::sync::OnceLock::new();
    PARSED
        .get_or_init(|| FILES.iter().map(|(file, text)| Scenario::read(file, text)).collect())
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// A bundled scenario by id (in the page: once its file is loaded).
#[cfg(feature = "bundled")]
pub fn find(id: &str) -> Option<&'static Scenario> {
    all().ok()?.iter().find(|s| s.id == id)
}

/// Every bundled lesson's file and head — its id, title, release and releases — in teaching
/// order (natively, the whole lessons).
pub fn index() -> &'static [(String, Scenario)] {
    static INDEX: std::sync::OnceLock<Vec<(String, Scenario)>> = std::sync::OnceLock::new();
    INDEX
        .get_or_init(|| serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/index.json"))).unwrap_or_default())
}

/// The file a bundled lesson is in.
pub fn file_of(id: &str) -> Option<&'static str> {
    index().iter().find(|(_, head)| head.id == id).map(|(file, _)| file.as_str())
}

#[cfg(not(feature = "bundled"))]
thread_local! {
    static LOADED: std::cell::RefCell<Vec<&'static Scenario>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A bundled scenario by id, once its file is loaded ([`provide`]).
#[cfg(not(feature = "bundled"))]
pub fn find(id: &str) -> Option<&'static Scenario> {
    LOADED.with(|loaded| loaded.borrow().iter().copied().find(|s| s.id == id))
}

/// Reads a lesson's file (fetched by the page) into the library; at most once per lesson.
#[cfg(not(feature = "bundled"))]
pub fn provide(file: &str, text: &str) -> Result<&'static Scenario, ScenarioError> {
    let scenario = Scenario::read(file, text)?;
    if let Some(known) = find(&scenario.id) {
        return Ok(known);
    }
    let scenario: &'static Scenario = Box::leak(Box::new(scenario));
    LOADED.with(|loaded| loaded.borrow_mut().push(scenario));
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_names_every_lesson_with_its_file_title_and_releases() {
        let lessons = all().unwrap();
        let parsed: Result<Vec<(String, Scenario)>, _> =
            serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/index.json")));
        assert!(parsed.is_ok(), "{parsed:?}");
        assert_eq!(index().len(), lessons.len());
        for ((file, head), (name, _)) in index().iter().zip(FILES) {
            assert_eq!(file, name);
            let lesson = find(&head.id).unwrap();
            assert_eq!(
                (&head.title, head.era, head.declared_eras()),
                (&lesson.title, lesson.era, lesson.declared_eras())
            );
            assert_eq!(file_of(&head.id), Some(*name));
        }
    }
}
