//! The room's wire, in the page: the room's events (an `EventSource`, which reconnects by
//! itself and is sent the whole room again each time), requests by POST, the attendee's id
//! kept on the device, and the facilitator's key kept for the tab (the address stops showing
//! it). Part of the room's module: a page without `?room=` never loads it.

use gloo::events::EventListener;
use informer_sim::room::{Refusal, Request, RoomView};
use informer_sim::session::link::RoomLink;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::Callback;

const ATTENDEE: &str = "informer-playground.room-attendee";

/// Who this page is in the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    Facilitator { key: String },
    Projector,
    Attendee { id: String },
}

impl Who {
    pub fn of(room: &RoomLink) -> Who {
        if room.projector {
            return Who::Projector;
        }
        match super::in_room::facilitator_key(room) {
            Some(key) => Who::Facilitator { key },
            None => Who::Attendee { id: attendee_id() },
        }
    }

    /// The events' and the view's query for this page.
    fn query(&self) -> String {
        match self {
            Who::Facilitator { key } => format!("key={key}"),
            Who::Projector => "view=projector".into(),
            Who::Attendee { id } => format!("attendee={id}"),
        }
    }

    pub fn key(&self) -> Option<&str> {
        match self {
            Who::Facilitator { key } => Some(key),
            _ => None,
        }
    }
}

fn storage(local: bool) -> Option<web_sys::Storage> {
    let window = web_sys::window()?;
    match local {
        true => window.local_storage().ok().flatten(),
        false => window.session_storage().ok().flatten(),
    }
}

/// The attendee's id: made at random the first time, then kept on this device.
fn attendee_id() -> String {
    let kept = storage(true).and_then(|s| s.get_item(ATTENDEE).ok().flatten());
    if let Some(id) = kept.filter(|id| id.len() == 24 && id.bytes().all(|b| b.is_ascii_hexdigit())) {
        return id;
    }
    let mut bytes = [0u8; 12];
    if let Some(crypto) = web_sys::window().and_then(|w| w.crypto().ok()) {
        let _ = crypto.get_random_values_with_u8_array(&mut bytes);
    }
    let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    if let Some(s) = storage(true) {
        let _ = s.set_item(ATTENDEE, &id);
    }
    id
}

/// What the room's stream says.
pub enum Heard {
    /// The room as this page sees it (on every change, and whole at each connection).
    View(Box<RoomView>),
    /// The stream broke: the browser tries again by itself, unless `closed` (the room refused
    /// the stream, or the server is gone).
    Lost { closed: bool },
}

/// The room's event stream, closed when dropped.
pub struct Events {
    source: web_sys::EventSource,
    _listeners: [EventListener; 2],
}

impl Events {
    pub fn open(code: &str, who: &Who, on: Callback<Heard>) -> Option<Events> {
        let source = web_sys::EventSource::new(&format!("room/{code}/events?{}", who.query())).ok()?;
        let heard = on.clone();
        let view = EventListener::new(&source, "room", move |event| {
            let data = event.dyn_ref::<web_sys::MessageEvent>().and_then(|m| m.data().as_string());
            if let Some(view) = data.and_then(|d| serde_json::from_str::<RoomView>(&d).ok()) {
                heard.emit(Heard::View(Box::new(view)));
            }
        });
        let watched = source.clone();
        let error = EventListener::new(&source, "error", move |_| {
            on.emit(Heard::Lost { closed: watched.ready_state() == web_sys::EventSource::CLOSED });
        });
        Some(Events { source, _listeners: [view, error] })
    }
}

impl Drop for Events {
    fn drop(&mut self) {
        self.source.close();
    }
}

/// Why a request did not reach the room or was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum Failed {
    Refused(Refusal),
    Unreachable,
}

/// Sends `request` to room `code` (with the facilitator's key when given).
pub async fn send(code: &str, request: &Request, key: Option<&str>) -> Result<(), Failed> {
    let window = web_sys::window().ok_or(Failed::Unreachable)?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&serde_json::to_string(request).unwrap_or_default().into());
    let headers = web_sys::Headers::new().map_err(|_| Failed::Unreachable)?;
    let _ = headers.set("content-type", "application/json");
    if let Some(key) = key {
        let _ = headers.set("authorization", &format!("Bearer {key}"));
    }
    init.set_headers(&headers);
    let answer = JsFuture::from(window.fetch_with_str_and_init(&format!("room/{code}/requests"), &init))
        .await
        .map_err(|_| Failed::Unreachable)?;
    let response: web_sys::Response = answer.dyn_into().map_err(|_| Failed::Unreachable)?;
    if response.ok() {
        return Ok(());
    }
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise).await.ok().and_then(|t| t.as_string()).unwrap_or_default(),
        Err(_) => String::new(),
    };
    Err(serde_json::from_str::<Refusal>(&text).map(Failed::Refused).unwrap_or(Failed::Unreachable))
}

/// The file of the lesson `id` the facilitator brought to room `code` from outside.
pub async fn lesson(code: &str, id: &str) -> Result<String, Failed> {
    super::lessons::fetch_text(&format!("room/{code}/lesson?id={id}")).await.map_err(|_| Failed::Unreachable)
}
