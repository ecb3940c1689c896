//! What a page in a workshop room tells its lesson panel (given only there): whether
//! the lesson's questions are voted on in the room rather than answered alone, and where a
//! challenge's opened hints and played solutions are counted.

use informer_sim::room::ChallengeMark;
use informer_sim::session::link::RoomLink;
use yew::prelude::*;

#[derive(Clone, PartialEq)]
pub struct InRoom {
    /// An attendee's or the projector's page: the room votes, the lesson panel only asks.
    pub votes: bool,
    pub on_challenge: Callback<(usize, ChallengeMark)>,
}

/// The facilitator's key: the link's (then kept for this tab: the address stops showing it),
/// or the one this tab kept.
pub fn facilitator_key(room: &RoomLink) -> Option<String> {
    let name = format!("informer-playground.room-key.{}", room.code);
    let tab = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    match &room.key {
        Some(key) => {
            if let Some(s) = &tab {
                let _ = s.set_item(&name, key);
            }
            Some(key.clone())
        }
        None => tab.and_then(|s| s.get_item(&name).ok().flatten()),
    }
}

/// What the page's panels are told in `room`.
pub fn context(room: &RoomLink) -> InRoom {
    let votes = room.projector || facilitator_key(room).is_none();
    let on_challenge = Callback::from(|(challenge, mark)| {
        if let Some(room) = super::modules::room() {
            (room.challenge)(challenge, mark)
        }
    });
    InRoom { votes, on_challenge }
}
