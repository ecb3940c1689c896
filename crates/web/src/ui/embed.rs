//! The page inside another (`embed=1`): it tells the page around it its height after each
//! render (posted to any origin: only the height leaves the frame), obeys the host-page API
//! ([`informer_sim::views::host`]) from its own origin and the origins its link lists, tells those origins
//! each step, and offers the same state in the full playground.

use super::state::PageState;
use gloo::events::EventListener;
use informer_sim::session::link::Link;
use informer_sim::session::Action;
use informer_sim::views::host::{self, Command, Event};
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// Whether the page runs in another page's frame.
pub fn framed() -> bool {
    let Some(window) = web_sys::window() else { return false };
    matches!(window.parent(), Ok(Some(parent)) if !js_sys::Object::is(&parent, &window))
}

/// Posts the document's height to the parent page.
pub fn report_height() {
    let Some(window) = web_sys::window() else { return };
    let height = window.document().and_then(|d| d.document_element()).map_or(0, |e| e.scroll_height());
    if let Ok(Some(parent)) = window.parent() {
        let message = serde_json::json!({"type": host::HEIGHT, "height": height}).to_string();
        let _ = parent.post_message(&JsValue::from_str(&message), "*");
    }
}

/// Tells the parent page an event, if it is this page's origin or one of `hosts` (the browser
/// delivers a message only to the origin it names).
fn tell(event: &Event, hosts: &[String]) {
    if !framed() {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let Ok(Some(parent)) = window.parent() else { return };
    let message = JsValue::from_str(&event.to_json());
    let own = window.location().origin().unwrap_or_default();
    for origin in std::iter::once(own.as_str()).chain(hosts.iter().map(String::as_str)) {
        let _ = parent.post_message(&message, origin.trim_end_matches('/'));
    }
}

/// The host-page API's module, which only a page in another page's frame loads: the reader of
/// the host page's commands (JSON), serving them, and what the page tells the hosts.
pub struct HostModule {
    /// Says the page is ready and serves the hosts' commands, for as long as the listener lives.
    pub serve: fn(Driven) -> Option<EventListener>,
    /// Tells the hosts an event.
    pub tell: fn(&Event, &[String]),
}

super::modules::split_point!(host, host_module, HostModule, HostModule { serve, tell });

/// What the hosts' commands drive: the page's state, Play and the theme.
pub struct Driven {
    pub state: UseReducerHandle<PageState>,
    pub send: Callback<Action>,
    pub playing: UseStateHandle<bool>,
    /// The origins besides the page's own that may drive it (the link's `host`s).
    pub hosts: Vec<String>,
    pub set_theme: Callback<informer_sim::session::link::Theme>,
}

/// Says the page is ready and listens for the hosts' commands.
fn serve(driven: Driven) -> Option<EventListener> {
    let Driven { state, send, playing, hosts, set_theme } = driven;
    let scenario = state.read().link().scenario.unwrap_or_default();
    tell(&Event::Ready { scenario, step: state.read().world().steps() }, &hosts);
    listen(hosts, move |command| match command {
        Command::Load { scenario, step } => {
            let state = state.clone();
            super::lessons::ensure(&scenario.clone(), move |_| {
                state.dispatch(Action::LoadScenario(scenario));
                if let Some(step) = step {
                    state.dispatch(Action::JumpTo(step));
                }
            });
        }
        Command::GoTo(step) => send.emit(Action::JumpTo(step)),
        Command::Play => playing.set(true),
        Command::Pause => playing.set(false),
        Command::Lang(lang) => send.emit(Action::SetLang(lang)),
        Command::Theme(theme) => set_theme.emit(theme),
    })
}

/// Listens for the host page's commands: messages from origins that may not drive the frame
/// are ignored; a malformed command is answered with a `refused` event naming what was wrong.
fn listen(hosts: Vec<String>, on_command: impl Fn(Command) + 'static) -> Option<EventListener> {
    let window = web_sys::window()?;
    let own = window.location().origin().ok()?;
    Some(EventListener::new(&window, "message", move |e| {
        let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else { return };
        if !host::allowed(&e.origin(), &own, &hosts) {
            return;
        }
        let data = e.data();
        let text = match data.as_string() {
            Some(text) => text,
            None => js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string()).unwrap_or_default(),
        };
        match host::parse(&text) {
            Ok(command) => on_command(command),
            Err(refusal) if refusal.answered() => tell(&Event::Refused { why: refusal.describe() }, &hosts),
            Err(_) => {}
        }
    }))
}

/// The shown state's address without the embed's own parameters: the same lesson, step and
/// actions in the full playground.
pub fn full_playground_href(shown: &Link) -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return String::new() };
    let mut link = shown.clone();
    (link.embed, link.from, link.to) = (false, None, None);
    link.hosts.clear();
    format!("{}{}", location.pathname().unwrap_or_default(), link.to_query())
}
