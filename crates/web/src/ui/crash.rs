//! When the page panics: the message goes to the console (`console_error_panic_hook`) and a
//! panel appears in the page, in its language, with what happened and a link that reopens
//! the same state (lesson, era, seed, step, the person's actions) — the thing to report. The
//! panel is built with the DOM's own calls (text nodes, never markup), because after a panic
//! the Yew app no longer runs.

use informer_sim::i18n::Lang;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

thread_local! {
    /// The page's link and language as of the last render.
    static STATE: RefCell<(String, Lang)> = const { RefCell::new((String::new(), Lang::En)) };
}

/// Remembers the link that restores what the page shows now.
pub fn remember(query: &str, lang: Lang) {
    STATE.with(|s| *s.borrow_mut() = (query.to_string(), lang));
}

/// Installs the hook (before the app mounts; Yew's renderer would otherwise install its own).
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let message = match info.payload().downcast_ref::<String>() {
            Some(s) => s.clone(),
            None => info.payload().downcast_ref::<&str>().map(|s| s.to_string()).unwrap_or_default(),
        };
        let place = info.location().map(|l| format!(" ({}:{})", l.file(), l.line())).unwrap_or_default();
        show(&format!("{message}{place}"));
    }));
}

/// The panel, built from text nodes.
pub fn show(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let (query, lang) = STATE.with(|s| s.borrow().clone());
    let href = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .map(|path| format!("{path}{query}"))
        .unwrap_or_else(|| query.clone());
    let element = |tag: &str, text: &str| {
        let e = document.create_element(tag).ok()?;
        e.set_text_content(Some(text));
        Some(e)
    };
    let Some(panel) = document.create_element("section").ok() else { return };
    panel.set_class_name("crash");
    let _ = panel.set_attribute("role", "alert");
    let _ = panel.set_attribute("lang", lang.code());
    let parts = [
        element("h2", tr!(lang, "The playground stopped: this is a bug")),
        element("p", tr!(lang, "Reload at this state to go on, and report the link and the message below.")),
        element("pre", message),
    ];
    for part in parts.into_iter().flatten() {
        let _ = panel.append_child(&part);
    }
    if let Some(link) = element("a", tr!(lang, "Reload at this state")) {
        let _ = link.set_attribute("href", &href);
        let _ = panel.append_child(&link);
    }
    if let Some(text) = element("pre", &href) {
        text.set_class_name("crash-link");
        let _ = panel.append_child(&text);
    }
    super::first_screen::reveal();
    let root = document.get_element_by_id("playground").map(|e| e.unchecked_into::<web_sys::Node>());
    let parent = root.or_else(|| document.body().map(|b| b.unchecked_into()));
    if let Some(parent) = parent {
        let _ = parent.insert_before(&panel, parent.first_child().as_ref());
    }
}
