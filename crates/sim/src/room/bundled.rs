//! The lessons a room knows: the bundled ones, as the page plays them.

use super::{Lessons, Place, VoteKey};
use crate::scenario::format::{Challenge, Question};
use crate::scenario::library;
use crate::session::{Action, Session};
use std::cell::RefCell;

/// The bundled lessons, and the run last asked about: a facilitator's next place is mostly
/// the same run a step on, which that run reaches by moving its step rather than by playing
/// the lesson again from its start (a second a place deep in a long lesson).
#[derive(Default)]
pub struct Bundled {
    last: RefCell<Option<Session>>,
}

impl Lessons for Bundled {
    fn adopt(&self, text: &str) -> Result<String, Vec<String>> {
        let lesson = crate::session::open_lesson("lesson.json", text, library::Source::Local)?;
        // A run kept of the lesson this one replaces would answer for the old file.
        self.last.borrow_mut().take_if(|session| session.scenario().is_some_and(|s| s.id == lesson.id));
        Ok(lesson.id.clone())
    }

    fn asked(&self, place: &Place) -> Option<Vec<usize>> {
        let mut last = self.last.borrow_mut();
        match last.as_mut().filter(|session| Place::of(session).same_run(place)) {
            Some(session) => session.apply(Action::JumpTo(place.step)),
            None => {
                let session = Session::from_query(&place.query());
                if !session.notices().is_empty() {
                    return None;
                }
                *last = Some(session);
            }
        }
        let session = last.as_ref().expect("kept just above");
        Some(session.questions().into_iter().map(|(index, _, _)| index).collect())
    }

    fn question(&self, key: &VoteKey) -> Option<Question> {
        library::find(&key.lesson)?.in_era(key.era)?.questions.get(key.question).cloned()
    }

    fn challenge(&self, lesson: &str, index: usize) -> Option<Challenge> {
        library::find(lesson)?.challenges.get(index).cloned()
    }
}
