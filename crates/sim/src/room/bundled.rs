//! The lessons a room knows: the bundled ones, as the page plays them.

use super::{Lessons, Place, VoteKey};
use crate::scenario::format::{Challenge, Question};
use crate::scenario::library;
use crate::session::Session;

/// The bundled lessons.
pub struct Bundled;

impl Lessons for Bundled {
    fn asked(&self, place: &Place) -> Option<Vec<usize>> {
        let session = Session::from_query(&place.query());
        if !session.notices().is_empty() {
            return None;
        }
        Some(session.questions().into_iter().map(|(index, _, _)| index).collect())
    }

    fn question(&self, key: &VoteKey) -> Option<Question> {
        library::find(&key.lesson)?.in_era(key.era)?.questions.get(key.question).cloned()
    }

    fn challenge(&self, lesson: &str, index: usize) -> Option<Challenge> {
        library::find(lesson)?.challenges.get(index).cloned()
    }
}
