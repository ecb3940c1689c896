//! What a person has done, kept on their device: the lessons they finished (the run ended with
//! every question answered) and how many of each lesson's questions they answered. The page
//! stores it as text (`progress.write()`) and reads it back leniently: a part it cannot read
//! is left out, never an error, since the text is the page's own and a stale one is harmless.

use super::LessonView;

/// Lessons finished and questions answered, by lesson id (in id order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    lessons: Vec<(String, Mark)>,
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
        let mut lessons: Vec<(String, Mark)> = text
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
        lessons.sort_by(|a, b| a.0.cmp(&b.0));
        lessons.dedup_by(|a, b| a.0 == b.0);
        Progress { lessons }
    }

    pub fn write(&self) -> String {
        let entries =
            self.lessons.iter().map(|(id, m)| format!("{id}={}{}", m.answered, if m.finished { "+" } else { "" }));
        entries.collect::<Vec<_>>().join(" ")
    }

    /// Notes what a lesson view shows done ([`done`]); whether anything new was.
    pub fn record(&mut self, (id, done): (&str, Mark)) -> bool {
        let before = self.mark(id);
        let after = Mark { answered: before.answered.max(done.answered), finished: before.finished || done.finished };
        if after == before {
            return false;
        }
        match self.lessons.binary_search_by(|(known, _)| known.as_str().cmp(id)) {
            Ok(at) => self.lessons[at].1 = after,
            Err(at) => self.lessons.insert(at, (id.to_string(), after)),
        }
        true
    }

    pub fn mark(&self, id: &str) -> Mark {
        self.lessons.iter().find(|(known, _)| known == id).map(|(_, m)| *m).unwrap_or_default()
    }

    pub fn is_empty(&self) -> bool {
        self.lessons.is_empty()
    }
}

/// What a lesson view shows done: the lesson, its questions answered, and whether it is
/// finished (the run ended with every question answered).
pub fn done(view: &LessonView) -> Option<(&str, Mark)> {
    let answered = view.questions.iter().filter(|q| q.given.is_some()).count();
    Some((view.current.as_deref()?, Mark { answered, finished: view.closing.is_some() }))
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
        let record = |progress: &mut Progress, s: &Session| progress.record(done(&lesson(s)).unwrap());
        assert!(!record(&mut progress, &s), "nothing done yet");
        let end = crate::scenario::run(s.scenario().unwrap()).unwrap().1.len() as u64;
        s.apply(Action::JumpTo(end));
        assert!(!record(&mut progress, &s), "the end alone is not done: the question is open");
        s.apply(Action::Answer(0, 1));
        assert!(record(&mut progress, &s));
        assert_eq!(progress.mark("resync"), Mark { answered: 1, finished: true });
        s.apply(Action::JumpTo(0));
        assert!(!record(&mut progress, &s), "going back forgets nothing");
        assert_eq!(Progress::read(&progress.write()), progress);
    }

    #[test]
    fn stored_text_is_read_leniently() {
        let read = Progress::read("stale-read=2 resync=1+ Bad_Id=1 nothing broken=x =3 resync=0");
        assert_eq!(read.mark("resync"), Mark { answered: 1, finished: true });
        assert_eq!(read.mark("stale-read"), Mark { answered: 2, finished: false });
        assert_eq!(read.write(), "resync=1+ stale-read=2");
        assert!(Progress::read("").is_empty());
    }
}
