//! The first screen before the wasm arrives: `scripts/prerender.mjs` writes the default view
//! (English, no link parameters, step 0) into `index.html` at build time, marked
//! `data-first-screen` and `inert`, and `first-screen.js` hides it when the link or a
//! remembered language asks for another view. For the default view and a lesson's link,
//! `first-screen.js` then shows the view's first steps as the page drew them at build time:
//! Step forward and Step back go through them (nothing else answers yet), and the step shown
//! is marked on the screen (`data-step`).
//! The page never hydrates it: while it shows, the page renders into a hidden element beside
//! it, in parts (a task each, so the browser answers input between them), and then takes its
//! place in one task, at the step the reader is on, so no frame shows the page empty or half
//! drawn and a difference between the two can never break the page.

use wasm_bindgen::JsCast;
use web_sys::Element;

const FIRST_SCREEN: &str = "data-first-screen";
/// Set on `<html>` by `first-screen.js` where the first screen is hidden (a link with
/// parameters, a remembered Korean page).
const FRESH: &str = "data-fresh";
/// Set on `<html>` once the page has rendered and answers input (the end-to-end suite waits
/// for it; the prerendered heading is there before).
const LIVE: &str = "data-live";
/// Set on `<html>` when the page cannot start (also by the loader when the wasm cannot load):
/// `www/index.html`'s notice shows, with a way to reload.
const START_FAILED: &str = "data-start-failed";

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// The build-time first screen's element, while it is on the page.
fn first_screen() -> Option<Element> {
    document().and_then(|d| d.get_element_by_id("playground")).filter(|root| root.has_attribute(FIRST_SCREEN))
}

/// The live page's element while it draws itself beside the first screen (`first-screen.js`
/// leaves it in place as it shows the steps).
const LIVE_PAGE: &str = "data-live-page";
/// The step the first screen shows, set by `first-screen.js`.
const STEP: &str = "data-step";
/// The stepping buttons, whose focus passes from the first screen to the live page.
const STEPPING: [&str; 2] = ["step-forward", "step-back"];

/// Where the page renders into `root`: a hidden element after a first screen that shows, or
/// `root` itself (cleared of a first screen that is hidden).
pub fn mount_point(root: Element) -> Element {
    if !root.has_attribute(FIRST_SCREEN) {
        return root;
    }
    let shown = document().and_then(|d| d.document_element()).is_some_and(|html| !html.has_attribute(FRESH));
    if shown {
        if let Some(live) = document().and_then(|d| d.create_element("div").ok()) {
            let _ = live.set_attribute("hidden", "");
            let _ = live.set_attribute(LIVE_PAGE, "");
            let _ = root.append_child(&live);
            return live;
        }
    }
    root.set_text_content(None);
    drop_marks(&root);
    root
}

/// Whether a first screen covers the page while it renders.
pub fn covering() -> bool {
    first_screen().is_some()
}

/// The step the first screen shows, while it covers the page.
pub fn step() -> Option<u64> {
    first_screen().and_then(|root| root.get_attribute(STEP)).and_then(|step| step.parse().ok())
}

/// Puts the rendered page in the first screen's place: removes what was drawn at build time
/// and shows the page. A stepping button focused on the first screen passes its focus to the
/// live page's.
pub fn reveal() {
    let Some(root) = first_screen() else { return };
    let focused = document()
        .and_then(|d| d.active_element())
        .filter(|focused| root.contains(Some(focused.unchecked_ref())))
        .and_then(|focused| {
            STEPPING.into_iter().find(|class| focused.class_name().split_whitespace().any(|c| c == *class))
        });
    let live = root.query_selector(&format!(":scope > [{LIVE_PAGE}]")).ok().flatten();
    while let Some(child) = root.first_child() {
        if live.as_ref().is_some_and(|live| child.is_same_node(Some(live.unchecked_ref()))) {
            break;
        }
        let _ = root.remove_child(&child);
    }
    if let Some(live) = live {
        let _ = live.remove_attribute("hidden");
        let _ = live.remove_attribute(LIVE_PAGE);
        let button = focused.and_then(|class| live.query_selector(&format!(".controls .{class}")).ok().flatten());
        if let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = button.focus();
        }
    }
    drop_marks(&root);
}

fn drop_marks(root: &Element) {
    let _ = root.remove_attribute(FIRST_SCREEN);
    let _ = root.remove_attribute("inert");
    let _ = root.remove_attribute(STEP);
}

/// Marks the page live, once it is drawn in full.
pub fn mark_live() {
    mark(LIVE);
}

/// Marks the page as one that could not start.
pub fn mark_start_failed() {
    mark(START_FAILED);
}

fn mark(attribute: &str) {
    if let Some(html) = document().and_then(|d| d.document_element()) {
        let _ = html.set_attribute(attribute, "");
    }
}
