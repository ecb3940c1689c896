//! The facilitator's guide, one source for the page and the docs: `static/guide.json` holds
//! the workshop's order in parts (each lesson with its minutes and a line to say, the
//! article's own sentence where there is one), how to prepare, the closing discussion and
//! the glossary of Korean terms. The page fetches it when the guide opens; the command line
//! writes it as `docs/facilitator-guide.md` (`informer-playground guide`), with each lesson's
//! title and recap from the lesson itself.

use crate::scenario::Text;
use serde::Deserialize;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guide {
    pub title: Text,
    pub intro: Text,
    pub prepare: Vec<Text>,
    pub parts: Vec<Part>,
    /// A 90-minute session: the lessons to play, by id, between an introduction, a break and
    /// the discussion.
    pub short_track: Track,
    pub closing: Text,
    /// Live mode's exercises: the learners' own controllers falling into the traps, on the stage.
    pub own_controller: OwnController,
    pub glossary: Vec<Term>,
    /// The printable one-page summary (the command line writes it; the page passes over it).
    #[cfg_attr(not(feature = "bundled"), serde(deserialize_with = "super::format::unread"))]
    pub handout: Handout,
}

/// The learners' own controllers in live mode: how to start, and the exercises.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnController {
    pub title: Text,
    pub intro: Text,
    pub exercises: Vec<Text>,
}

/// The handout's own parts: the pipeline per release and the numbers that matter, with their
/// sources (the errata come from the lessons' notes that correct the articles, the glossary and
/// the lessons from the guide).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handout {
    pub title: Text,
    pub pipelines: Vec<Pipeline>,
    pub numbers: Vec<Number>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pipeline {
    pub era: crate::era::Era,
    pub ko: String,
    pub en: String,
}

/// A number worth remembering, what it is, and where upstream sets it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Number {
    pub value: String,
    pub ko: String,
    pub en: String,
    pub source: String,
}

/// A shorter session than the parts' full order: blocks in time order, and what it leaves out.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Track {
    pub title: Text,
    pub blocks: Vec<Block>,
    /// The lessons it leaves out, and how to mention them.
    pub left_out: Text,
}

/// A block of a track: talk for `minutes` (an introduction, a break, the discussion), or lessons
/// played back to back, each for the minutes its entry in the parts gives.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    #[serde(default)]
    pub minutes: u32,
    #[serde(default)]
    pub lessons: Vec<String>,
    pub say: Text,
}

/// A part of the workshop: its lessons in the order to teach them.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub title: Text,
    /// Lessons beyond the two articles the playground teaches (`docs/semantics.md`, "Sources
    /// outside the code"), optional in a workshop.
    #[serde(default)]
    pub extra: bool,
    pub lessons: Vec<Entry>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The lesson's id.
    pub id: String,
    pub minutes: u32,
    /// What to say while it runs.
    pub say: Text,
}

/// One concept's Korean term, and the words not to use for it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    pub english: String,
    pub korean: String,
    pub avoid: Vec<String>,
}

impl Guide {
    pub fn parse(text: &str) -> Result<Guide, String> {
        serde_json::from_str(text).map_err(|e| format!("guide.json: {e}"))
    }

    /// Minutes of the parts that are not extra.
    pub fn minutes(&self) -> u32 {
        self.parts.iter().filter(|p| !p.extra).flat_map(|p| &p.lessons).map(|e| e.minutes).sum()
    }

    /// A lesson's minutes, as its entry in the parts gives them.
    pub fn lesson_minutes(&self, id: &str) -> Option<u32> {
        self.parts.iter().flat_map(|p| &p.lessons).find(|e| e.id == id).map(|e| e.minutes)
    }

    /// A block's minutes: its own, or its lessons'.
    pub fn block_minutes(&self, block: &Block) -> u32 {
        block.minutes + block.lessons.iter().filter_map(|id| self.lesson_minutes(id)).sum::<u32>()
    }

    /// The short track's minutes: (all of it, its lessons).
    pub fn track_minutes(&self) -> (u32, u32) {
        let blocks = &self.short_track.blocks;
        let lessons = blocks.iter().flat_map(|b| &b.lessons).filter_map(|id| self.lesson_minutes(id)).sum();
        (blocks.iter().map(|b| self.block_minutes(b)).sum(), lessons)
    }
}

#[cfg(feature = "bundled")]
pub use native::*;

#[cfg(feature = "bundled")]
mod native {
    use super::*;
    use crate::i18n::Lang;
    use crate::scenario::marked::{self, escape};
    use crate::scenario::{library, Scenario};

    /// The guide as the command line and the docs have it.
    pub fn bundled() -> Result<Guide, String> {
        Guide::parse(include_str!("../../../../static/guide.json"))
    }

    /// A lesson's number (its place in teaching order, from 1) and the lesson.
    fn lesson(id: &str) -> Option<(usize, &'static Scenario)> {
        let lessons = library::all().ok()?;
        lessons.iter().enumerate().find(|(_, s)| s.id == id).map(|(i, s)| (i + 1, s))
    }

    /// What is wrong with the guide: a lesson it names that does not exist, a bundled lesson
    /// it leaves out or names twice, an extra lesson in a part of the articles (or the
    /// reverse), a lesson without minutes.
    pub fn problems(guide: &Guide) -> Vec<String> {
        let mut problems = Vec::new();
        let mut named: Vec<&str> = Vec::new();
        for part in &guide.parts {
            for entry in &part.lessons {
                match lesson(&entry.id) {
                    None => problems.push(format!("{}: no such lesson", entry.id)),
                    Some((_, s)) if s.extra != part.extra => problems.push(format!(
                        "{}: the lesson is {}extra, its part is {}extra",
                        entry.id,
                        if s.extra { "" } else { "not " },
                        if part.extra { "" } else { "not " }
                    )),
                    Some(_) => {}
                }
                if entry.minutes == 0 {
                    problems.push(format!("{}: no minutes", entry.id));
                }
                if named.contains(&entry.id.as_str()) {
                    problems.push(format!("{}: named twice", entry.id));
                }
                named.push(&entry.id);
            }
        }
        for s in library::all().unwrap_or_default() {
            if !named.contains(&s.id.as_str()) {
                problems.push(format!("{}: not in the guide", s.id));
            }
        }
        let mut played: Vec<&str> = Vec::new();
        for block in &guide.short_track.blocks {
            if block.lessons.is_empty() == (block.minutes == 0) {
                problems
                    .push(format!("short track: a block is talk with minutes or lessons without: {:?}", block.say.en));
            }
            for id in &block.lessons {
                if !named.contains(&id.as_str()) || played.contains(&id.as_str()) {
                    problems.push(format!("short track: {id}: not a lesson of the parts, or played twice"));
                }
                played.push(id);
            }
        }
        let (all, lessons) = guide.track_minutes();
        if all != 90 || !(60..=70).contains(&lessons) {
            problems.push(format!("short track: {all} minutes with {lessons} of lessons, expected 90 with about 65"));
        }
        problems
    }

    /// The guide as Markdown: Korean, then English.
    pub fn markdown(guide: &Guide) -> String {
        let mut out = format!(
            "# {} · {}\n\n<!-- Written by `informer-playground guide` from static/guide.json and the lessons' recaps: edit those. -->\n",
            guide.title.ko, guide.title.en
        );
        for lang in [Lang::Ko, Lang::En] {
            section(&mut out, guide, lang);
        }
        out
    }

    /// The printable handout (`www/handout.html`): per language, the pipeline per release, the
    /// numbers with their sources, what the articles say that a release does otherwise (from
    /// the lessons' marked notes), the lessons with QR codes of their links (drawn by
    /// `handout.js`); then the glossary.
    pub fn handout(guide: &Guide) -> String {
        let h = &guide.handout;
        let mut out = format!(
            "<!doctype html>\n<!-- Written by `informer-playground handout` from static/guide.json and the lessons: edit those. -->\n<html lang=\"ko\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{} · {}</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"handout.css\">\n<script src=\"qrcode.js\" defer></script>\n<script src=\"handout.js\" defer></script>\n</head>\n<body>\n",
            escape(&h.title.ko),
            escape(&h.title.en)
        );
        for lang in [Lang::Ko, Lang::En] {
            let words = |ko: &'static str, en: &'static str| if lang == Lang::Ko { ko } else { en };
            out.push_str(&format!("<section lang=\"{}\">\n<h1>{}</h1>\n", lang.code(), escape(h.title.get(lang))));
            out.push_str(&format!("<h2>{}</h2>\n<table>\n", words("릴리스별 파이프라인", "The pipeline per release")));
            for p in &h.pipelines {
                let text = if lang == Lang::Ko { &p.ko } else { &p.en };
                out.push_str(&format!("<tr><th scope=\"row\">{}</th><td>{}</td></tr>\n", p.era, marked::html(text)));
            }
            out.push_str(&format!("</table>\n<h2>{}</h2>\n<table>\n", words("기억할 숫자", "The numbers that matter")));
            for n in &h.numbers {
                let text = if lang == Lang::Ko { &n.ko } else { &n.en };
                out.push_str(&format!(
                    "<tr><th scope=\"row\">{}</th><td>{}</td><td class=\"source\">{}</td></tr>\n",
                    escape(&n.value),
                    marked::html(text),
                    escape(&n.source)
                ));
            }
            // The first page: the pipelines, the numbers and the lessons; the errata on the next.
            out.push_str(&format!("</table>\n<h2>{}</h2>\n<ol class=\"lessons\">\n", words("레슨", "The lessons")));
            for (n, s) in library::all().unwrap_or_default().iter().enumerate() {
                // Beside its code a lesson is named by its title's head (before the colon), so
                // the codes keep to the first page; the code's own text is the whole title.
                let title = s.title_in(s.era).get(lang);
                let head = title.split(": ").next().unwrap_or(title);
                out.push_str(&format!(
                    "<li><img data-link=\"./?scenario={}&amp;lang={}\" alt=\"{}\" width=\"72\" height=\"72\"><span>{}. {}</span></li>\n",
                    s.id,
                    lang.code(),
                    escape(&format!("QR: {title}")),
                    n + 1,
                    escape(head),
                ));
            }
            out.push_str(&format!(
                "</ol>\n<h2 class=\"errata-heading\">{}</h2>\n<ul class=\"errata\">\n",
                words("글과 다른 점", "Where the articles are wrong or out of date")
            ));
            for (eras, title, text) in errata(lang) {
                out.push_str(&format!(
                    "<li><strong>{} ({eras})</strong> {}</li>\n",
                    escape(&title),
                    marked::html(&text)
                ));
            }
            out.push_str("</ul>\n</section>\n");
        }
        out.push_str("<section class=\"glossary\">\n<h2>용어집 · Glossary</h2>\n<table>\n");
        for term in &guide.glossary {
            out.push_str(&format!(
                "<tr><th scope=\"row\">{}</th><td lang=\"ko\">{}</td><td lang=\"ko\" class=\"source\">{}</td></tr>\n",
                escape(&term.english),
                escape(&term.korean),
                escape(&term.avoid.join(", "))
            ));
        }
        out.push_str("</table>\n</section>\n</body>\n</html>\n");
        out
    }

    /// What the lessons' marked notes set right, with the releases each holds in (the same
    /// words in several releases listed once).
    fn errata(lang: Lang) -> Vec<(String, String, String)> {
        let mut found: Vec<(Vec<String>, String, String)> = Vec::new();
        for lesson in library::all().unwrap_or_default() {
            for era in lesson.declared_eras() {
                let Some(told) = lesson.in_era(era) else { continue };
                for note in told.narration.iter().filter(|n| n.corrects_article) {
                    let (title, text) = (told.title.get(lang).to_string(), note.text.get(lang).to_string());
                    match found.iter_mut().find(|(_, t, x)| *t == title && *x == text) {
                        Some((eras, _, _)) => eras.push(era.to_string()),
                        None => found.push((vec![era.to_string()], title, text)),
                    }
                }
            }
        }
        found.into_iter().map(|(eras, title, text)| (eras.join(", "), title, text)).collect()
    }

    fn section(out: &mut String, guide: &Guide, lang: Lang) {
        let words = |ko: &'static str, en: &'static str| if lang == Lang::Ko { ko } else { en };
        out.push_str(&format!("\n## {}\n\n{}\n", words("한국어", "English"), guide.intro.get(lang)));
        out.push_str(&format!("\n### {}\n\n", words("준비", "Before you start")));
        for tip in &guide.prepare {
            out.push_str(&format!("- {}\n", tip.get(lang)));
        }
        let minutes = guide.minutes();
        out.push_str(&format!(
            "\n### {} ({})\n",
            words("권장 순서", "A recommended order"),
            match lang {
                Lang::Ko => format!("두 부분, 약 {minutes}분"),
                Lang::En => format!("two parts, about {minutes} minutes"),
            }
        ));
        for part in &guide.parts {
            out.push_str(&format!("\n**{}**\n\n", part.title.get(lang)));
            out.push_str(words(
                "| 레슨 | 시간 | 이렇게 말하세요 | 마무리 |\n|---|---|---|---|\n",
                "| Lesson | Time | What to say | Recap |\n|---|---|---|---|\n",
            ));
            for entry in &part.lessons {
                let Some((n, s)) = lesson(&entry.id) else { continue };
                let recap = s.recap.as_ref().map_or("", |r| r.get(lang));
                let time = match lang {
                    Lang::Ko => format!("{}분", entry.minutes),
                    Lang::En => format!("{} min", entry.minutes),
                };
                out.push_str(&format!("| {n}. {} | {time} | {} | {recap} |\n", s.title.get(lang), entry.say.get(lang)));
            }
            // The part's challenges: what the room can do with the console and the fault buttons.
            for entry in &part.lessons {
                let Some((n, s)) = lesson(&entry.id) else { continue };
                for c in &s.challenges {
                    out.push_str(&format!(
                        "\n**{} {n}** {}\n",
                        words("도전 과제 · 레슨", "Challenge · lesson"),
                        c.task.get(lang)
                    ));
                }
            }
        }
        let track = &guide.short_track;
        let (all, played) = guide.track_minutes();
        out.push_str(&format!(
            "\n### {} ({})\n\n",
            track.title.get(lang),
            match lang {
                Lang::Ko => format!("{all}분, 레슨 {played}분"),
                Lang::En => format!("{all} minutes, {played} of lessons"),
            }
        ));
        out.push_str(words("| 시간 | 무엇을 | 레슨 |\n|---|---|---|\n", "| Time | What | Lessons |\n|---|---|---|\n"));
        for block in &track.blocks {
            let time = match lang {
                Lang::Ko => format!("{}분", guide.block_minutes(block)),
                Lang::En => format!("{} min", guide.block_minutes(block)),
            };
            let lessons: Vec<String> = block
                .lessons
                .iter()
                .filter_map(|id| lesson(id).map(|(n, s)| format!("{n}. {}", s.title_in(s.era).get(lang))))
                .collect();
            out.push_str(&format!("| {time} | {} | {} |\n", block.say.get(lang), lessons.join(" → ")));
        }
        out.push_str(&format!("\n{}\n", track.left_out.get(lang)));
        out.push_str(&format!("\n{}\n", guide.closing.get(lang)));
        let own = &guide.own_controller;
        out.push_str(&format!("\n### {}\n\n{}\n\n", own.title.get(lang), own.intro.get(lang)));
        for (i, exercise) in own.exercises.iter().enumerate() {
            out.push_str(&format!("{}. {}\n", i + 1, exercise.get(lang)));
        }
        out.push_str(&format!("\n### {}\n\n", words("용어집", "Glossary")));
        out.push_str(words(
            "| 영어 | 이 playground에서 | 쓰지 않는 말 |\n|---|---|---|\n",
            "| English | Korean, as the page says it | Korean words not used |\n|---|---|---|\n",
        ));
        for term in &guide.glossary {
            out.push_str(&format!("| {} | {} | {} |\n", term.english, term.korean, term.avoid.join(", ")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_guide_is_refused_naming_the_field_and_what_was_expected() {
        let good = include_str!("../../../../static/guide.json");
        assert!(Guide::parse(good).is_ok());
        let cases = [
            (
                good.replacen("\"minutes\": 8", "\"minutes\": \"eight\"", 1),
                "invalid type: string \"eight\", expected u32",
            ),
            (good.replacen("\"title\"", "\"titel\"", 1), "unknown field `titel`, expected one of `title`"),
            (good.replacen("\"avoid\": [", "\"avoid\": [1, ", 1), "invalid type: integer `1`, expected a string"),
            (good.replacen("\"ko\": \"진행자 안내\",", "", 1), "missing field `ko`"),
            ("[]".to_string(), "expected struct Guide"),
        ];
        for (text, error) in cases {
            let e = Guide::parse(&text).unwrap_err();
            assert!(e.starts_with("guide.json: ") && e.contains(error), "{e}");
        }
    }

    #[cfg(feature = "bundled")]
    #[test]
    fn the_short_track_takes_ninety_minutes_with_about_sixty_five_of_lessons_of_the_parts() {
        let mut guide = bundled().unwrap();
        assert_eq!(problems(&guide), Vec::<String>::new());
        assert_eq!(guide.track_minutes(), (90, 63));
        guide.short_track.blocks[1].lessons.push("no-such-lesson".into());
        guide.short_track.blocks[0].minutes += 5;
        let found = problems(&guide);
        assert!(found.iter().any(|p| p.contains("no-such-lesson: not a lesson of the parts")), "{found:?}");
        assert!(found.iter().any(|p| p.contains("95 minutes")), "{found:?}");
    }
}
