//! The address is the state: kept in step in place (no reload, no history entry), written once
//! the state has rested for a moment and left alone during Play, so a step's frame never pays
//! for a same-document navigation.

use yew::prelude::*;

/// How long the state rests before the address bar follows it (a step or a scrub in between
/// restarts the wait).
const ADDRESS_REST_MS: u32 = 200;

#[hook]
pub fn use_address(query: String, playing: bool) {
    use_effect_with((query, playing), |(query, playing)| {
        let write = (!*playing).then(|| {
            let query = query.clone();
            gloo::timers::callback::Timeout::new(ADDRESS_REST_MS, move || {
                if let Some(window) = web_sys::window() {
                    let url = format!("{}{query}", window.location().pathname().unwrap_or_default());
                    if let Ok(history) = window.history() {
                        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
                    }
                }
            })
        });
        move || drop(write)
    });
}
