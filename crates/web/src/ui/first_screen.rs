//! The first screen before the wasm arrives: `scripts/prerender.mjs` writes the default view
//! (English, no link parameters, step 0) into `index.html` at build time, marked
//! `data-first-screen` and `inert` (its controls do nothing until the page is live), and
//! `first-screen.js` hides it when the link or a remembered language asks for another view.
//! The page never hydrates it: while it shows, the page renders into a hidden element beside
//! it, in parts (a task each, so the browser answers input between them), and then takes its
//! place in one task, so no frame shows the page empty or half drawn and a difference between
//! the two can never break the page.

use wasm_bindgen::JsCast;
use web_sys::Element;

const FIRST_SCREEN: &str = "data-first-screen";
/// Set on `<html>` by `first-screen.js` where the first screen is hidden (a link with
/// parameters, a remembered Korean page).
const FRESH: &str = "data-fresh";
/// Set on `<html>` once the page has rendered and answers input (the end-to-end suite waits
/// for it; the prerendered heading is there before).
const LIVE: &str = "data-live";

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// The build-time first screen's element, while it is on the page.
fn first_screen() -> Option<Element> {
    document().and_then(|d| d.get_element_by_id("playground")).filter(|root| root.has_attribute(FIRST_SCREEN))
}

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

/// Puts the rendered page in the first screen's place: removes what was drawn at build time
/// and shows the page.
pub fn reveal() {
    let Some(root) = first_screen() else { return };
    let live = root.last_element_child();
    while let Some(child) = root.first_child() {
        if live.as_ref().is_some_and(|live| child.is_same_node(Some(live.unchecked_ref()))) {
            break;
        }
        let _ = root.remove_child(&child);
    }
    if let Some(live) = live {
        let _ = live.remove_attribute("hidden");
    }
    drop_marks(&root);
}

fn drop_marks(root: &Element) {
    let _ = root.remove_attribute(FIRST_SCREEN);
    let _ = root.remove_attribute("inert");
}

/// Marks the page live, once it is drawn in full.
pub fn mark_live() {
    if let Some(html) = document().and_then(|d| d.document_element()) {
        let _ = html.set_attribute(LIVE, "");
    }
}
