//! What a person has done, kept on their device: the lessons they finished (the run ended with
//! every question answered), how many of each lesson's questions they answered and which
//! challenges they solved. The page
//! stores it as text (`progress.write()`) and reads it back leniently: a part it cannot read
//! is left out, never an error, since the text is the page's own and a stale one is harmless.

use super::LessonView;
use crate::kernel::sort;
use crate::scenario::format::is_id;

/// Lessons finished and questions answered, by lesson id (in id order), and the challenges
/// solved (`lesson/challenge`, in order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    lessons: Vec<(String, Mark)>,
    solved: Vec<String>,
}

/// How a solved challenge is written: `solved:lesson/challenge`.
const SOLVED: &str = "solved:";

/// One lesson's progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    pub answered: usize,
    pub finished: bool,
}

impl Progress {
    /// Reads `id=answered` or `id=answered+` (finished) entries, and `solved:lesson/challenge`
    /// ones, separated by spaces.
    pub fn read(text: &str) -> Progress {
        let mut solved: Vec<String> = text
            .split_whitespace()
            .filter_map(|entry| entry.strip_prefix(SOLVED))
            .filter(|pair| pair.split_once('/').is_some_and(|(l, c)| is_id(l) && is_id(c)))
            .map(String::from)
            .collect();
        sort::sort(&mut solved);
        solved.dedup();
        let mut lessons: Vec<(String, Mark)> = text
            .split_whitespace()
            .filter_map(|entry| {
                let (id, mark) = entry.split_once('=')?;
                if !is_id(id) {
                    return None;
                }
                let (count, finished) = mark.strip_suffix('+').map_or((mark, false), |c| (c, true));
                Some((id.to_string(), Mark { answered: count.parse().ok()?, finished }))
            })
            .collect();
        sort::sort_by(&mut lessons, |a, b| a.0.cmp(&b.0));
        lessons.dedup_by(|a, b| a.0 == b.0);
        Progress { lessons, solved }
    }

    pub fn write(&self) -> String {
        let entries =
            self.lessons.iter().map(|(id, m)| format!("{id}={}{}", m.answered, if m.finished { "+" } else { "" }));
        let solved = self.solved.iter().map(|pair| format!("{SOLVED}{pair}"));
        entries.chain(solved).collect::<Vec<_>>().join(" ")
    }

    /// Notes the challenges a lesson view shows met; whether any was new.
    pub fn record_solved(&mut self, lesson: &str, challenges: &[String]) -> bool {
        let mut new = false;
        for challenge in challenges {
            let pair = format!("{lesson}/{challenge}");
            if let Err(at) = self.solved.binary_search(&pair) {
                self.solved.insert(at, pair);
                new = true;
            }
        }
        new
    }

    /// How many of a lesson's challenges were solved.
    pub fn solved_in(&self, lesson: &str) -> usize {
        self.solved.iter().filter(|pair| pair.split_once('/').is_some_and(|(l, _)| l == lesson)).count()
    }

    /// Whether a lesson's challenge was solved.
    pub fn is_solved(&self, lesson: &str, challenge: &str) -> bool {
        self.solved.binary_search(&format!("{lesson}/{challenge}")).is_ok()
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
        self.lessons.is_empty() && self.solved.is_empty()
    }
}

/// What a lesson view shows done: the lesson, its questions answered, and whether it is
/// finished (the run ended with every question answered).
pub fn done(view: &LessonView) -> Option<(&str, Mark)> {
    let answered = view.questions.iter().filter(|q| q.given.is_some()).count();
    Some((view.current.as_deref()?, Mark { answered, finished: view.closing.is_some() }))
}

/// The challenges a lesson view shows met by the learner's own moves, by id (a solution played
/// solves nothing).
pub fn met(view: &LessonView) -> Vec<String> {
    let own = view.challenges.iter().filter(|c| c.met && !view.solution_played);
    own.map(|c| c.id.clone()).collect()
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
    fn a_challenge_counts_as_solved_once_the_learners_own_moves_meet_its_goal() {
        let mut s = Session::with_scenario("sandbox").unwrap();
        assert!(met(&lesson(&s)).is_empty(), "nothing done yet");
        s.apply(Action::JumpTo(2_000));
        assert!(met(&lesson(&s)).is_empty(), "the lesson alone meets no goal");
        s.apply(Action::Reset);
        s.apply(Action::PlaySolution(0));
        assert!(lesson(&s).challenges[0].met, "the solution, played, meets the goal");
        assert!(met(&lesson(&s)).is_empty(), "but solves nothing for the learner");
        assert!(!s.link().actions.is_empty(), "and the link carries its moves");
        let reopened = Session::from_query(&s.link().to_query());
        let solved = met(&lesson(&reopened));
        assert_eq!(solved, ["make-a-410"], "moves opened from a link are the learner's own");
        let mut progress = Progress::default();
        assert!(progress.record_solved("sandbox", &solved));
        assert!(!progress.record_solved("sandbox", &solved), "once");
        assert_eq!(progress.solved_in("sandbox"), 1);
        assert!(progress.is_solved("sandbox", "make-a-410"));
        assert_eq!(Progress::read(&progress.write()), progress);
    }

    #[test]
    fn stored_text_is_read_leniently() {
        let read = Progress::read("stale-read=2 resync=1+ Bad_Id=1 nothing broken=x =3 resync=0");
        assert_eq!(read.mark("resync"), Mark { answered: 1, finished: true });
        assert_eq!(read.mark("stale-read"), Mark { answered: 2, finished: false });
        assert_eq!(read.write(), "resync=1+ stale-read=2");
        let solved = Progress::read("solved:sandbox/make-a-410 solved:Bad/x solved:nothing solved:sandbox/make-a-410");
        assert_eq!(solved.write(), "solved:sandbox/make-a-410");
        assert!(Progress::read("").is_empty());
    }
}
