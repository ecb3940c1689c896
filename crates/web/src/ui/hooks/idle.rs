//! Once the step is drawn and the page is idle, the session does what the step put off and
//! works out the steps on either side (`Session::settle`); a browser without idle callbacks has
//! the snapshot made at the next step, and steps as before.

use super::super::state::PageState;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[hook]
pub fn use_idle_settle(state: UseReducerHandle<PageState>, step: u64, paused: bool) {
    use_effect_with((step, paused), move |&(_, paused)| {
        let settle = wasm_bindgen::closure::Closure::once_into_js(move || state.settle(paused));
        if let Some(window) = web_sys::window() {
            let _ = window.request_idle_callback(settle.unchecked_ref());
        }
    });
}
