//! The page (wasm32 only): Yew components that show a [`Session`](crate::session::Session)
//! and send it actions. Components never change the world themselves.

mod app;
mod compare_panel;
mod console;
mod controls;
mod cost_panel;
pub mod crash;
mod embed;
mod event_log;
mod faults;
mod inspector;
mod lesson_panel;
mod metrics_panel;
mod object_form;
mod objects_table;
mod pipeline_diagram;
mod revision_ruler;
mod revision_timeline;
mod share_dialog;
mod state;

pub use app::App;
pub use state::PageState;

/// Mounts the playground on the page's `<div id="playground">` (or the body).
pub fn start() {
    crash::install();
    let document = web_sys::window().and_then(|w| w.document());
    match document.and_then(|d| d.get_element_by_id("playground")) {
        Some(root) => yew::Renderer::<App>::with_root(root).render(),
        None => yew::Renderer::<App>::new().render(),
    };
}
