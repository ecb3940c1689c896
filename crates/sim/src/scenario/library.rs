//! The bundled scenario library: every file of `static/scenarios/`. With the `bundled` feature
//! (the command line, the tests) they are all built in (without the whitespace between tokens, by `build.rs`); the page builds
//! in only their [`index`] and loads a lesson's file when it is opened ([`provide`]), so the
//! first screen does not wait for eighteen lessons.

use super::{Scenario, ScenarioError};
use crate::era::Era;
use crate::scenario::format::Text;

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

/// A bundled scenario by id (in the page: once its file is loaded), or one opened from outside.
#[cfg(feature = "bundled")]
pub fn find(id: &str) -> Option<&'static Scenario> {
    all().ok()?.iter().find(|s| s.id == id).or_else(|| outside(id))
}

/// Where a lesson that is not bundled was opened from: what a link carries to open it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file at an address (`https://…`), fetched by the page.
    Address(String),
    /// The file itself, in the link: its JSON compressed (raw DEFLATE) and in base64url.
    Carried(String),
    /// A file the person opened on their machine: nothing a link could carry but the file.
    Local,
}

/// A lesson opened from outside: the lesson, where it came from, and its file's text (what the
/// builder copies) with its [`digest`] (what a room compares).
struct Outside {
    lesson: &'static Scenario,
    source: Source,
    text: std::rc::Rc<str>,
    digest: String,
}

thread_local! {
    /// The lessons opened from outside; one per id, the latest.
    static OUTSIDE: std::cell::RefCell<Vec<Outside>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn opened<T>(id: &str, read: impl FnOnce(&Outside) -> T) -> Option<T> {
    OUTSIDE.with(|o| o.borrow().iter().find(|x| x.lesson.id == id).map(read))
}

fn outside(id: &str) -> Option<&'static Scenario> {
    opened(id, |x| x.lesson)
}

/// Where the lesson `id` was opened from, when it is not bundled.
pub fn source_of(id: &str) -> Option<Source> {
    opened(id, |x| x.source.clone())
}

/// The file's text of the lesson `id` opened from outside.
pub fn text_of(id: &str) -> Option<std::rc::Rc<str>> {
    opened(id, |x| x.text.clone())
}

/// The [`digest`] of the file of the lesson `id` opened from outside.
pub fn digest_of(id: &str) -> Option<String> {
    opened(id, |x| x.digest.clone())
}

/// A lesson file's digest (FNV-1a, 64 bits, in hex): which version of a lesson a page has.
pub fn digest(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

/// Takes a lesson opened from outside (checked by [`super::verify`], `text` its file) into the library under
/// its id, in place of one opened before with the same id; a bundled lesson's id is refused,
/// so that a link naming it always opens the bundled one.
pub fn adopt(file: &str, text: &str, lesson: Scenario, source: Source) -> Result<&'static Scenario, ScenarioError> {
    if let Some(bundled) = file_of(&lesson.id) {
        return Err(ScenarioError::at(
            file,
            "id",
            format!("expected an id of the lesson's own: {:?} is the bundled lesson {bundled}'s", lesson.id),
        ));
    }
    let lesson: &'static Scenario = Box::leak(Box::new(lesson));
    OUTSIDE.with(|o| {
        let mut outside = o.borrow_mut();
        outside.retain(|x| x.lesson.id != lesson.id);
        outside.push(Outside { lesson, source, text: text.into(), digest: digest(text) });
    });
    Ok(lesson)
}

/// A bundled lesson's head: what the picker shows and what opening it needs, built in as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonHead {
    pub file: &'static str,
    pub id: &'static str,
    /// (Korean, English).
    pub title: (&'static str, &'static str),
    /// The title it has in a release where the lesson's would be false, by the release's name.
    pub titles: &'static [(&'static str, (&'static str, &'static str))],
    /// The release it is told in (empty: the current one).
    pub era: &'static str,
    /// The other releases it runs in, by name.
    pub eras: &'static [&'static str],
    /// Beyond the two articles.
    pub extra: bool,
}

impl LessonHead {
    /// Its title as told in `era`.
    pub fn title_in(&self, era: Era) -> Text {
        let (ko, en) = self.titles.iter().find(|(name, _)| *name == era.name()).map_or(self.title, |(_, t)| *t);
        Text { ko: ko.into(), en: en.into() }
    }

    /// The release it is told in.
    pub fn era(&self) -> Era {
        Era::parse(self.era).unwrap_or(Era::CURRENT)
    }

    /// Every release it runs in, in order.
    pub fn declared_eras(&self) -> Vec<Era> {
        let mut eras: Vec<Era> = self.eras.iter().filter_map(|e| Era::parse(e)).collect();
        if !eras.contains(&self.era()) {
            eras.push(self.era());
        }
        crate::kernel::sort::sort(&mut eras);
        eras
    }
}

include!(concat!(env!("OUT_DIR"), "/index.rs"));

/// Every bundled lesson's head, in teaching order.
pub fn index() -> &'static [LessonHead] {
    INDEX
}

/// The file a bundled lesson is in.
pub fn file_of(id: &str) -> Option<&'static str> {
    INDEX.iter().find(|head| head.id == id).map(|head| head.file)
}

#[cfg(not(feature = "bundled"))]
thread_local! {
    static LOADED: std::cell::RefCell<Vec<&'static Scenario>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A bundled scenario by id, once its file is loaded ([`provide`]).
#[cfg(not(feature = "bundled"))]
pub fn find(id: &str) -> Option<&'static Scenario> {
    LOADED.with(|loaded| loaded.borrow().iter().copied().find(|s| s.id == id)).or_else(|| outside(id))
}

/// Reads a bundled lesson's compact form (fetched by the page, `scenario::compact`) into the
/// library; at most once per lesson.
#[cfg(not(feature = "bundled"))]
pub fn provide(file: &str, bytes: &[u8]) -> Result<&'static Scenario, ScenarioError> {
    let scenario = super::compact::lesson(bytes).map_err(|e| ScenarioError::at(file, "", e.to_string()))?;
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
        assert_eq!(index().len(), lessons.len());
        for (head, (name, _)) in index().iter().zip(FILES) {
            assert_eq!(head.file, *name);
            let lesson = find(head.id).unwrap();
            assert_eq!((head.era(), head.declared_eras()), (lesson.era, lesson.declared_eras()));
            for era in lesson.declared_eras() {
                assert_eq!(&head.title_in(era), lesson.title_in(era), "{} in {era}", head.id);
            }
            assert_eq!(head.extra, lesson.extra);
            assert_eq!(file_of(head.id), Some(*name));
        }
    }

    #[test]
    fn every_bundled_lesson_reads_the_same_from_its_compact_form_as_from_its_json() {
        for (file, text) in FILES {
            let json: serde_json::Value = serde_json::from_str(text).unwrap();
            let read = Scenario::read(file, text).unwrap();
            let compact = super::super::compact::lesson(&super::super::compact::from_json(&json)).unwrap();
            assert_eq!(compact, read, "{file}");
        }
    }

    #[test]
    fn a_lesson_opened_from_outside_keeps_its_file_and_the_latest_of_an_id_wins() {
        let (file, text) = FILES[0];
        let mut lesson = Scenario::read(file, text).unwrap();
        let bundled = lesson.id.clone();
        assert!(adopt("mine.json", text, lesson.clone(), Source::Local).is_err(), "a bundled lesson's id is refused");
        lesson.id = "mine".into();
        adopt("mine.json", "first", lesson.clone(), Source::Local).unwrap();
        adopt("mine.json", "second", lesson, Source::Carried("x".into())).unwrap();
        assert_eq!(text_of("mine").as_deref(), Some("second"));
        assert_eq!(digest_of("mine"), Some(digest("second")));
        assert_eq!(source_of("mine"), Some(Source::Carried("x".into())));
        assert_eq!(find("mine").map(|s| s.id.as_str()), Some("mine"));
        assert_eq!(text_of(&bundled), None, "a bundled lesson's file is not kept as opened");
    }
}
