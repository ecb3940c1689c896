//! While the build-time first screen covers the page, the page is drawn in parts, a task each
//! (`Part`), then shown in its place, at the step the first screen shows, and marked live.

use super::super::first_screen;
use super::super::parts::Part;
use informer_sim::session::Action;
use yew::prelude::*;

/// The parts drawn so far: all of them at once when no first screen covers the page. The page
/// is at `step`; it goes (by `send`) to the step the reader took the first screen to.
#[hook]
pub fn use_staged_parts(step: u64, send: Callback<Action>) -> Part {
    let drawn = use_state(|| if first_screen::covering() { Part::Shell } else { Part::Write });
    {
        let drawn = drawn.clone();
        use_effect_with(*drawn, move |part| {
            if let Some(next) = part.next() {
                super::super::later(move || drawn.set(next));
            } else {
                if let Some(shown) = first_screen::step().filter(|shown| *shown != step) {
                    send.emit(Action::JumpTo(shown));
                }
                first_screen::reveal();
                first_screen::mark_live();
                super::super::modules::page_live();
            }
        });
    }
    *drawn
}
