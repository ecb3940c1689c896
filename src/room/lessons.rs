//! The lessons the room's server asks about. A run of a lesson (a `Session`) and the lessons
//! the facilitator brought from outside live on one thread, so they are kept on a thread of
//! their own (`Bundled` keeps the facilitator's run from one place to the next); the server's
//! threads ask it.

use informer_sim::room::{Bundled, Lessons, Place, VoteKey};
use informer_sim::scenario::format::{Challenge, Question};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

/// A question for the lessons' thread, answered by running `ask` there.
type Ask = Box<dyn FnOnce(&Bundled) + Send>;

pub struct LessonsThread {
    ask: Mutex<Sender<Ask>>,
}

impl LessonsThread {
    /// Starts the thread; it ends when this is dropped.
    pub fn start() -> LessonsThread {
        let (ask, asked) = channel::<Ask>();
        std::thread::spawn(move || {
            let lessons = Bundled::default();
            for ask in asked {
                // A question that panics is answered by no one (its asker hears `None`); the
                // thread goes on for the next.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ask(&lessons)));
            }
        });
        LessonsThread { ask: Mutex::new(ask) }
    }

    /// `ask`'s answer, from the lessons' thread (`None` when the thread is gone).
    fn ask<T: Send + 'static>(&self, ask: impl FnOnce(&Bundled) -> T + Send + 'static) -> Option<T> {
        let (answer, answered) = channel();
        let sender = self.ask.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        sender.send(Box::new(move |lessons: &Bundled| drop(answer.send(ask(lessons))))).ok()?;
        drop(sender);
        answered.recv().ok()
    }
}

impl Lessons for LessonsThread {
    fn adopt(&self, text: &str) -> Result<String, Vec<String>> {
        let text = text.to_string();
        self.ask(move |lessons| lessons.adopt(&text))
            .unwrap_or_else(|| Err(vec!["the room's lessons cannot be reached".into()]))
    }

    fn asked(&self, place: &Place) -> Option<Vec<usize>> {
        let place = place.clone();
        self.ask(move |lessons| lessons.asked(&place)).flatten()
    }

    fn question(&self, key: &VoteKey) -> Option<Question> {
        let key = key.clone();
        self.ask(move |lessons| lessons.question(&key)).flatten()
    }

    fn challenge(&self, lesson: &str, index: usize) -> Option<Challenge> {
        let lesson = lesson.to_string();
        self.ask(move |lessons| lessons.challenge(&lesson, index)).flatten()
    }
}
