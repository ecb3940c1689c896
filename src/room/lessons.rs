//! The lessons the room's server asks about. A run of a lesson (a `Session`) lives on one
//! thread, so the facilitator's run is kept on a thread of its own (`Bundled` keeps it from
//! one place to the next); the server's threads ask it which questions a place asks.

use informer_sim::room::{Bundled, Lessons, Place, VoteKey};
use informer_sim::scenario::format::{Challenge, Question};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

type Ask = (Place, Sender<Option<Vec<usize>>>);

pub struct LessonsThread {
    ask: Mutex<Sender<Ask>>,
}

impl LessonsThread {
    /// Starts the thread; it ends when this is dropped.
    pub fn start() -> LessonsThread {
        let (ask, asked) = channel::<Ask>();
        std::thread::spawn(move || {
            let lessons = Bundled::default();
            for (place, answer) in asked {
                let _ = answer.send(lessons.asked(&place));
            }
        });
        LessonsThread { ask: Mutex::new(ask) }
    }
}

impl Lessons for LessonsThread {
    fn asked(&self, place: &Place) -> Option<Vec<usize>> {
        let (answer, answered) = channel();
        let ask = self.ask.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        ask.send((place.clone(), answer)).ok()?;
        drop(ask);
        answered.recv().ok()?
    }

    fn question(&self, key: &VoteKey) -> Option<Question> {
        Bundled::default().question(key)
    }

    fn challenge(&self, lesson: &str, index: usize) -> Option<Challenge> {
        Bundled::default().challenge(lesson, index)
    }
}
