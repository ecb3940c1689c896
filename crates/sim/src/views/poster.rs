//! An embed's poster: what a documentation page shows of a lesson until the reader starts it
//! — the stage's drawing at a step, made by the diagram's own code
//! ([`crate::views::export::diagram_svg`]), in a language and a theme — and the lessons' index
//! the embed loader reads their titles (and the summaries of lessons that ask no questions) from. `informer-playground posters` writes
//! every lesson's opening poster and the index (`www/posters/`); `poster` makes one of another
//! step.

use crate::i18n::Lang;
use crate::scenario::library;
use crate::session::link::{Link, Theme};
use crate::session::Session;
use crate::views::diagram::Palette;
use serde_json::{json, Map, Value};

/// The name of the index the loader reads (beside the posters).
pub const INDEX: &str = "lessons.js";

/// The drawing of `lesson` at `step` (its opening before the first step when `None`).
pub fn poster(lesson: &str, step: Option<u64>, lang: Lang, theme: Theme) -> Result<String, String> {
    if library::find(lesson).is_none() {
        let known: Vec<&str> = library::index().iter().map(|head| head.id).collect();
        return Err(format!("no lesson {lesson:?}; the lessons are {}", known.join(", ")));
    }
    let link = Link { scenario: Some(lesson.into()), step, lang: Some(lang), ..Default::default() };
    let session = Session::from_link(&link, Vec::new());
    let palette = if theme == Theme::Dark { Palette::DARK } else { Palette::LIGHT };
    Ok(crate::views::export::diagram_svg(&session, &palette))
}

/// A poster's file name: `stale-read-ko-dark.svg`.
pub fn file_name(lesson: &str, lang: Lang, theme: Theme) -> String {
    format!("{lesson}-{}-{}.svg", lang.code(), theme.name())
}

/// Every lesson's opening poster in each language and theme, with its file name, and the
/// index: what `posters` writes.
pub fn openings() -> Result<Vec<(String, String)>, String> {
    let mut files = Vec::new();
    for head in library::index() {
        for lang in [Lang::Ko, Lang::En] {
            for theme in Theme::ALL {
                files.push((file_name(head.id, lang, theme), poster(head.id, None, lang, theme)?));
            }
        }
    }
    files.push((INDEX.into(), index()));
    Ok(files)
}

/// The lessons' numbers and titles in both languages, and the summaries of those that ask no
/// questions (a summary gives their answers away), as a script that hands them
/// to the loader (a script, not JSON: a page on another origin may load it without CORS).
pub fn index() -> String {
    let mut lessons = Map::new();
    for (n, head) in library::index().iter().enumerate() {
        // The index the page builds in holds titles only; the lesson itself its summary.
        let Some(lesson) = library::find(head.id) else { continue };
        let title = lesson.title_in(lesson.era);
        let mut told = json!({ "n": n + 1, "title": { "ko": title.ko, "en": title.en } });
        // A summary tells what happens: where the lesson asks the reader to predict it, the
        // poster keeps it back, as the page does until every question is answered.
        let asks = !lesson.questions.is_empty() || lesson.eras.values().any(|part| !part.questions.is_empty());
        if !asks {
            let plain = crate::scenario::marked::plain;
            told["summary"] = json!({ "ko": plain(&lesson.summary.ko), "en": plain(&lesson.summary.en) });
        }
        lessons.insert(lesson.id.clone(), told);
    }
    format!(
        "// Written by `informer-playground posters`: the lessons an embed's poster names.\nwindow.informerPlaygroundLessons = {};\n",
        Value::Object(lessons)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poster_draws_the_lesson_in_its_language_and_theme() {
        let light = poster("stale-read", None, Lang::En, Theme::Light).unwrap();
        let dark = poster("stale-read", None, Lang::Ko, Theme::Dark).unwrap();
        assert!(light.contains(Palette::LIGHT.background) && !light.contains(Palette::DARK.background));
        assert!(dark.contains(Palette::DARK.background) && dark.contains(">사용자</text>"), "Korean, dark");
        let later = poster("stale-read", Some(12), Lang::En, Theme::Light).unwrap();
        assert_ne!(later, light, "another step, another drawing");
        assert!(poster("nope", None, Lang::En, Theme::Light).unwrap_err().contains("stale-read"));
        assert_eq!(file_name("stale-read", Lang::Ko, Theme::Dark), "stale-read-ko-dark.svg");
        assert!(index().contains("\"stale-read\":{\"n\":9,\"title\":"), "no summary: it gives the answers away");
        assert!(index().contains("\"sandbox\":{\"n\":18,\"summary\":{\"en\":\"An empty cluster"), "{}", index());
    }
}
