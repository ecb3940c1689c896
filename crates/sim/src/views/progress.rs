//! What a person has done, kept on their device: the lessons they finished (the run ended with
//! every question answered) and how many of each lesson's questions they answered. The page
//! stores it as text (`progress.write()`) and reads it back leniently: a part it cannot read
//! is left out, never an error, since the text is the page's own and a stale one is harmless.

use super::LessonView;
use std::collections::BTreeMap;

/// Lessons finished and questions answered, by lesson id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    lessons: BTreeMap<String, Mark>,
}

/// One lesson's progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    pub answered: usize,
    pub finished: bool,
}

impl Progress {
    /// Reads `id=answered` or `id=answered+` (finished) entries separated by spaces.
    pub fn read(text: &str) -> Progress {
        let lessons = text
            .split_whitespace()
            .filter_map(|entry| {
                let (id, mark) = entry.split_once('=')?;
                if id.is_empty() || !id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
                    return None;
                }
                let (count, finished) = mark.strip_suffix('+').map_or((mark, false), |c| (c, true));
                Some((id.to_string(), Mark { answered: count.parse().ok()?, finished }))
            })
            .collect();
        Progress { lessons }
    }

    pub fn write(&self) -> String {
        let entries =
            self.lessons.iter().map(|(id, m)| format!("{id}={}{}", m.answered, if m.finished { "+" } else { "" }));
        entries.collect::<Vec<_>>().join(" ")
    }

    /// Notes what the lesson view shows done; whether anything new was.
    pub fn record(&mut self, view: &LessonView) -> bool {
        let Some(id) = &view.current else { return false };
        let answered = view.questions.iter().filter(|q| q.given.is_some()).count();
        let finished = view.closing.is_some();
        let before = self.mark(id);
        let after = Mark { answered: before.answered.max(answered), finished: before.finished || finished };
        if after == before {
            return false;
        }
        self.lessons.insert(id.clone(), after);
        true
    }

    pub fn mark(&self, id: &str) -> Mark {
        self.lessons.get(id).copied().unwrap_or_default()
    }

    pub fn is_empty(&self) -> bool {
        self.lessons.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Action, Session};
    use crate::views::lesson;

    #[test]
    fn a_lesson_counts_as_finished_once_its_run_ended_with_every_question_answered() {
        let mut s = Session::with_scenario("resync").unwrap();
        let mut progress = Progress::default();
        assert!(!progress.record(&lesson(&s)), "nothing done yet");
        let end = crate::scenario::run(s.scenario().unwrap()).unwrap().1.len() as u64;
        s.apply(Action::JumpTo(end));
        assert!(!progress.record(&lesson(&s)), "the end alone is not done: the question is open");
        s.apply(Action::Answer(0, 1));
        assert!(progress.record(&lesson(&s)));
        assert_eq!(progress.mark("resync"), Mark { answered: 1, finished: true });
        s.apply(Action::JumpTo(0));
        assert!(!progress.record(&lesson(&s)), "going back forgets nothing");
        assert_eq!(Progress::read(&progress.write()), progress);
    }

    #[test]
    fn stored_text_is_read_leniently() {
        let read = Progress::read("resync=1+ stale-read=2 Bad_Id=1 nothing broken=x =3");
        assert_eq!(read.mark("resync"), Mark { answered: 1, finished: true });
        assert_eq!(read.mark("stale-read"), Mark { answered: 2, finished: false });
        assert_eq!(read.write(), "resync=1+ stale-read=2");
        assert!(Progress::read("").is_empty());
    }
}
