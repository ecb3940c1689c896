//! Every check a lesson file must pass before it is played, in one place: `validate` on the
//! command line, a lesson opened in the page from a file or a link, and the tests of the
//! bundled lessons all call [`verify`], so each refuses what the others refuse, for the same
//! reasons.
//!
//! Beyond reading it ([`Scenario::parse`]: every field by its path, the cluster built in every
//! release), the lesson is run to its end in every release it declares: its expectations and
//! the claims its texts make must hold of that release's trace, every note and question must
//! come up (the notes in the file's order, each on a step of its own) and every explanation
//! must point at a step; and every challenge must be solved by its solution and not by the
//! lesson alone. All the reasons are given, not only the first.

use super::challenge_problems;
use crate::limits::MAX_LESSON_BYTES;
use crate::scenario::{find, judge_claims, library, run, Scenario, ScenarioError, Verdict};

/// Checks a lesson from outside ([`verify`]) and takes it into the library under its id
/// ([`library::adopt`]): the lesson, or every reason, as `validate` words it.
pub fn open_lesson(file: &str, text: &str, source: library::Source) -> Result<&'static Scenario, Vec<String>> {
    let lesson = verify(file, text).map_err(|problems| problems.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    library::adopt(file, text, lesson, source).map_err(|e| vec![e.to_string()])
}

/// The lesson in `text` (named `file` in every reason), or every reason it cannot be played.
pub fn verify(file: &str, text: &str) -> Result<Scenario, Vec<ScenarioError>> {
    if text.len() > MAX_LESSON_BYTES {
        return Err(vec![too_long(file, text.len())]);
    }
    let lesson = Scenario::parse(file, text).map_err(|e| vec![e])?;
    let mut problems = Vec::new();
    for era in lesson.declared_eras() {
        let Some(told) = lesson.in_era(era) else { continue };
        let at = |path: String, what: String| {
            ScenarioError::at(file, in_file(&lesson, era, &path), format!("in {era}: {what}"))
        };
        let (world, trace, verdicts) = match run(&told) {
            Ok(ran) => ran,
            Err(e) => {
                problems.push(at(e.path, e.what));
                continue;
            }
        };
        let unmet = |v: &Verdict| format!("not met: {} ({})", v.expectation, v.detail);
        for (i, v) in verdicts.iter().enumerate().filter(|(_, v)| !v.met) {
            problems.push(at(format!("expect[{i}]"), unmet(v)));
        }
        for v in judge_claims(&told, &world, &trace).iter().filter(|v| !v.met) {
            // A claim's verdict is named by its text's place first (`narration[2]: …`).
            let place = v.expectation.split(':').next().unwrap_or_default().to_string();
            problems.push(at(place, format!("a claim is {}", unmet(v))));
        }
        let mut previous: Option<u64> = None;
        for (i, note) in told.narration.iter().enumerate() {
            let path = format!("narration[{i}].match");
            match find(&note.when, &trace) {
                None => problems.push(at(path, "no step of the run matches it: the note never shows".into())),
                Some(step) if previous.is_some_and(|p| step <= p) => problems.push(at(
                    path,
                    format!(
                        "it matches step {step}, not after the note before it (step {}): one of them would never be read",
                        previous.unwrap_or(0)
                    ),
                )),
                Some(step) => previous = Some(step),
            }
        }
        for (i, q) in told.questions.iter().enumerate() {
            if find(&q.when, &trace).is_none() {
                problems.push(at(
                    format!("questions[{i}].match"),
                    "no step of the run matches it: the question is never asked".into(),
                ));
            }
            match &q.explain_at {
                None => problems.push(at(
                    format!("questions[{i}]"),
                    "expected `explain_at`, the step its explanation points at".into(),
                )),
                Some(step) if find(step, &trace).is_none() => {
                    problems.push(at(format!("questions[{i}].explain_at"), "no step of the run matches it".into()))
                }
                Some(_) => {}
            }
        }
    }
    problems.extend(challenge_problems(&lesson).into_iter().map(|why| ScenarioError::at(file, "challenges", why)));
    match problems.is_empty() {
        true => Ok(lesson),
        false => Err(problems),
    }
}

/// A lesson file of `bytes` bytes, over the bound.
pub fn too_long(file: &str, bytes: usize) -> ScenarioError {
    ScenarioError::at(file, "", format!("the file is {bytes} bytes; a lesson is at most {MAX_LESSON_BYTES}"))
}

/// Where a part of the lesson as told in `era` (`Scenario::in_era`: the release's own notes
/// first, its questions and expectations after the shared ones) is in the file.
fn in_file(lesson: &Scenario, era: crate::era::Era, path: &str) -> String {
    let Some(part) = lesson.eras.get(&era) else { return path.into() };
    let (head, tail) = path.find('.').map_or((path, ""), |dot| path.split_at(dot));
    if head == "recap" && part.recap.is_some() {
        return format!("eras.{era}.{path}");
    }
    let Some((name, index)) = head.strip_suffix(']').and_then(|h| h.split_once('[')) else { return path.into() };
    let Ok(i) = index.parse::<usize>() else { return path.into() };
    let (own, shared) = match name {
        "narration" => (part.narration.len(), 0),
        "questions" => (part.questions.len(), lesson.questions.len()),
        "expect" => (part.expect.len(), lesson.expect.len()),
        _ => return path.into(),
    };
    // The release's notes come before the shared ones; its questions and expectations after.
    let (in_part, j) = match name {
        "narration" if i < own => (true, i),
        "narration" => (false, i - own),
        _ if i >= shared => (true, i - shared),
        _ => (false, i),
    };
    match in_part {
        true => format!("eras.{era}.{name}[{j}]{tail}"),
        false => format!("{name}[{j}]{tail}"),
    }
}
