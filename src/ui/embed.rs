//! The page inside another (`embed=1`): it tells the page around it its height after each
//! render, as `{"type": "informer-playground:height", "height": N}` (a JSON string posted to
//! the parent; `www/embed.js` sizes the frame from it), and offers the same state in the
//! full playground. Only the height leaves the frame, so it is posted to any origin.

use crate::link::Link;

/// Posts the document's height to the parent page.
pub fn report_height() {
    let Some(window) = web_sys::window() else { return };
    let height = window.document().and_then(|d| d.document_element()).map_or(0, |e| e.scroll_height());
    if let Ok(Some(parent)) = window.parent() {
        let message = serde_json::json!({"type": "informer-playground:height", "height": height}).to_string();
        let _ = parent.post_message(&wasm_bindgen::JsValue::from_str(&message), "*");
    }
}

/// This page's address without the embed's own parameters: the same lesson, step and
/// actions in the full playground.
pub fn full_playground_href() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return String::new() };
    let (mut link, _) = Link::parse(&location.search().unwrap_or_default());
    (link.embed, link.from, link.to) = (false, None, None);
    link.hosts.clear();
    format!("{}{}", location.pathname().unwrap_or_default(), link.to_query())
}
