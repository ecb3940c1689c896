//! Play: one tick per interval at the chosen speed, stopped by a question that waits for an
//! answer and, once, by the end of a lesson.

use super::super::state::PageState;
use gloo::timers::callback::Interval;
use informer_sim::session::Action;
use yew::prelude::*;

#[hook]
pub fn use_play(state: UseReducerHandle<PageState>, playing: UseStateHandle<bool>, speed: u32) {
    {
        // The interval goes away with Pause or a new speed.
        let state = state.clone();
        use_effect_with((*playing, speed), move |(on, speed)| {
            let interval = on.then(|| Interval::new(1000 / *speed, move || state.dispatch(Action::PlayTick)));
            move || drop(interval)
        });
    }
    let (waiting, ended) = {
        let session = state.read();
        (session.questions().iter().any(|(_, _, answer)| answer.is_none()), session.lesson_ended())
    };
    {
        let playing = playing.clone();
        use_effect_with(waiting, move |waiting| {
            if *waiting {
                playing.set(false);
            }
        });
    }
    // (Play goes on past the end when asked again.)
    use_effect_with(ended, move |ended| {
        if *ended {
            playing.set(false);
        }
    });
}
