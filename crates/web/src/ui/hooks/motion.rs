//! The token's motion: a step forward by one travels (faster as Play speeds up, parked when
//! too fast to follow); a jump, a step back or a scrub shows it parked. A render that does not
//! change the step keeps the motion it started with.

use super::super::parts::Motion;
use informer_sim::session::Session;
use yew::prelude::*;

/// How long a step forward's token travels, in ms (0: parked).
fn travel_ms(step: u64, (before, motion): (u64, u32), playing: bool, speed: u32) -> u32 {
    match (step, playing) {
        _ if step == before => motion,
        _ if step != before + 1 => 0,
        (_, false) => 450,
        (_, true) => Some(1_800 / speed).filter(|ms| *ms >= 80).map_or(0, |ms| ms.min(600)),
    }
}

#[hook]
pub fn use_motion(session: &Session, playing: bool, speed: u32) -> Motion {
    let last_step = use_mut_ref(|| (0u64, 0u32));
    let step = session.world().steps();
    let travel_ms = travel_ms(step, *last_step.borrow(), playing, speed);
    *last_step.borrow_mut() = (step, travel_ms);
    // During Play the steps a travelling token passes over are drawn on the way.
    let travelling = if playing && travel_ms > 0 {
        let trace = session.visible_trace();
        let shown = (travel_ms * speed / 1_000 + 1) as usize;
        trace[trace.len().saturating_sub(shown)..trace.len().saturating_sub(1)].to_vec()
    } else {
        Vec::new()
    };
    Motion { travelling, travel_ms }
}
