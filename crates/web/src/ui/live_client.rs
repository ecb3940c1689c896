//! Live mode's wire, in the page: serve-api's live feed (an `EventSource` on the page port that
//! served the page, which reconnects by itself and is sent everything from the start each
//! time), its controls by POST with this start's token, and the token kept for the tab (the
//! address stops showing it). Part of the live module: a page without `?live=` never loads it.

use gloo::events::EventListener;
use informer_sim::session::link::LiveLink;
use informer_sim::session::live::Origin;
use informer_sim::world::ServedEntry;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::Callback;

const TOKEN: &str = "informer-playground.live-token";

/// This start's token: the one the address carried (kept for the tab), or the one kept.
pub fn token(live: &LiveLink) -> Option<String> {
    let tab = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    match &live.token {
        Some(token) => {
            if let Some(s) = &tab {
                let _ = s.set_item(TOKEN, token);
            }
            Some(token.clone())
        }
        None => tab.and_then(|s| s.get_item(TOKEN).ok().flatten()),
    }
}

/// What the feed says.
pub enum Heard {
    /// What the world was made from (first, at each connection).
    World(Origin),
    Entry(Box<ServedEntry>),
    Status {
        steps: u64,
        paused: bool,
        speed: f64,
    },
    /// A frame this page cannot read (a page of another build than the server's): what it said.
    Unreadable(String),
    /// The feed broke: the browser tries again by itself unless `closed` (refused, or gone).
    Lost {
        closed: bool,
    },
}

/// The feed, closed when dropped.
pub struct Feed {
    source: web_sys::EventSource,
    _listeners: [EventListener; 4],
}

fn data(event: &web_sys::Event) -> Option<serde_json::Value> {
    let text = event.dyn_ref::<web_sys::MessageEvent>()?.data().as_string()?;
    serde_json::from_str(&text).ok()
}

impl Feed {
    pub fn open(token: &str, on: Callback<Heard>) -> Option<Feed> {
        let source = web_sys::EventSource::new(&format!("playground/live?token={token}")).ok()?;
        let heard = on.clone();
        let world = EventListener::new(&source, "world", move |event| {
            if let Some(origin) = data(event).and_then(|d| serde_json::from_value(d).ok()) {
                heard.emit(Heard::World(origin));
            }
        });
        let heard = on.clone();
        let entry = EventListener::new(&source, "entry", move |event| {
            let read = data(event).map(serde_json::from_value::<ServedEntry>);
            match read {
                Some(Ok(entry)) => heard.emit(Heard::Entry(Box::new(entry))),
                Some(Err(why)) => heard.emit(Heard::Unreadable(why.to_string())),
                None => heard.emit(Heard::Unreadable("not JSON".into())),
            }
        });
        let heard = on.clone();
        let status = EventListener::new(&source, "status", move |event| {
            if let Some(d) = data(event) {
                let steps = d["steps"].as_u64().unwrap_or(0);
                let paused = d["paused"].as_bool().unwrap_or(false);
                heard.emit(Heard::Status { steps, paused, speed: d["speed"].as_f64().unwrap_or(1.0) });
            }
        });
        let watched = source.clone();
        let error = EventListener::new(&source, "error", move |_| {
            on.emit(Heard::Lost { closed: watched.ready_state() == web_sys::EventSource::CLOSED });
        });
        Some(Feed { source, _listeners: [world, entry, status, error] })
    }
}

impl Drop for Feed {
    fn drop(&mut self) {
        self.source.close();
    }
}

/// Sends a control (`{"do": "pause"}`, …); the server's reason when it refuses, or `None` when
/// it cannot be reached.
pub async fn control(token: &str, body: serde_json::Value) -> Result<(), Option<String>> {
    let window = web_sys::window().ok_or(None)?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&body.to_string().into());
    let headers = web_sys::Headers::new().map_err(|_| None)?;
    let _ = headers.set("content-type", "application/json");
    let _ = headers.set("authorization", &format!("Bearer {token}"));
    init.set_headers(&headers);
    let answer =
        JsFuture::from(window.fetch_with_str_and_init("playground/live/control", &init)).await.map_err(|_| None)?;
    let response: web_sys::Response = answer.dyn_into().map_err(|_| None)?;
    if response.ok() {
        return Ok(());
    }
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise).await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
        Err(_) => String::new(),
    };
    let reason =
        serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v["reason"].as_str().map(String::from));
    Err(Some(reason.unwrap_or(text)))
}
