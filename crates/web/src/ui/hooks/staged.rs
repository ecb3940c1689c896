//! While the build-time first screen covers the page, the page is drawn in parts, a task each
//! (`Part`), then shown in its place and marked live.

use super::super::parts::Part;
use yew::prelude::*;

/// The parts drawn so far: all of them at once when no first screen covers the page.
#[hook]
pub fn use_staged_parts() -> Part {
    let drawn = use_state(|| if super::super::first_screen::covering() { Part::Shell } else { Part::Write });
    {
        let drawn = drawn.clone();
        use_effect_with(*drawn, move |part| {
            if let Some(next) = part.next() {
                super::super::later(move || drawn.set(next));
            } else {
                super::super::first_screen::reveal();
                super::super::first_screen::mark_live();
            }
        });
    }
    *drawn
}
