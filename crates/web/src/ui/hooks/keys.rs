//! The keyboard: each [`Shortcut`] and the key that gives it, and the dialogs one key closes.

use gloo::events::{EventListener, EventListenerOptions};
use informer_sim::i18n::Phrase;
use informer_sim::session::Action;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What a key does on the page (unless the person is typing in a field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    PlayPause,
    Forward,
    Back,
    Reset,
    NextNote,
    FastForward,
    Help,
    Close,
}

impl Shortcut {
    /// In the order the help overlay lists them.
    pub const ALL: [Shortcut; 8] = [
        Shortcut::PlayPause,
        Shortcut::Forward,
        Shortcut::Back,
        Shortcut::Reset,
        Shortcut::NextNote,
        Shortcut::FastForward,
        Shortcut::Help,
        Shortcut::Close,
    ];

    /// The key's value (`KeyboardEvent.key`) for a shortcut; presentation clickers send
    /// PageDown and PageUp.
    fn of_key(key: &str) -> Option<Shortcut> {
        Some(match key {
            " " => Shortcut::PlayPause,
            "ArrowRight" | "PageDown" => Shortcut::Forward,
            "ArrowLeft" | "PageUp" => Shortcut::Back,
            "Home" => Shortcut::Reset,
            "n" | "N" => Shortcut::NextNote,
            "f" | "F" => Shortcut::FastForward,
            "?" => Shortcut::Help,
            "Escape" => Shortcut::Close,
            _ => return None,
        })
    }

    /// The keys as the help overlay names them.
    pub fn keys(self) -> &'static str {
        match self {
            Shortcut::PlayPause => "Space",
            Shortcut::Forward => "→ / PageDown",
            Shortcut::Back => "← / PageUp",
            Shortcut::Reset => "Home",
            Shortcut::NextNote => "N",
            Shortcut::FastForward => "F",
            Shortcut::Help => "?",
            Shortcut::Close => "Esc",
        }
    }

    /// What it does, in the page's words.
    pub fn does(self) -> Phrase {
        match self {
            Shortcut::PlayPause => phrase!("Play or pause"),
            Shortcut::Forward => phrase!("Step forward"),
            Shortcut::Back => phrase!("Step back"),
            Shortcut::Reset => phrase!("Reset"),
            Shortcut::NextNote => phrase!("Next note"),
            Shortcut::FastForward => phrase!("Fast-forward"),
            Shortcut::Help => phrase!("Keyboard shortcuts"),
            Shortcut::Close => phrase!("Close"),
        }
    }

    /// The action a shortcut sends to the session, if it is one.
    fn action(self) -> Option<Action> {
        match self {
            Shortcut::Forward => Some(Action::StepForward),
            Shortcut::Back => Some(Action::StepBack),
            Shortcut::Reset => Some(Action::Reset),
            Shortcut::NextNote => Some(Action::NextNote),
            Shortcut::FastForward => Some(Action::FastForward),
            Shortcut::PlayPause | Shortcut::Help | Shortcut::Close => None,
        }
    }
}

/// The page's dialogs: at most one is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialog {
    Help,
    Guide,
    Share,
    Open,
    /// The lesson builder (a panel beside the stage, not a modal dialog).
    Build,
}

/// The shortcut a key press gives, unless the person is typing in a field or holds a
/// modifier.
fn shortcut(event: &KeyboardEvent) -> Option<Shortcut> {
    let typing = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    if typing || event.ctrl_key() || event.meta_key() || event.alt_key() {
        return None;
    }
    Shortcut::of_key(&event.key())
}

/// The document's key presses, as shortcuts: actions go to `send`, Space plays or pauses, `?`
/// opens or closes the help, Esc closes the open dialog.
#[hook]
pub fn use_shortcuts(send: Callback<Action>, playing: UseStateHandle<bool>, dialog: UseStateHandle<Option<Dialog>>) {
    use_effect_with((), move |_| {
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|d| {
            EventListener::new_with_options(&d, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                // (While the first screen covers the page, its own steps answer the keys.)
                if super::super::first_screen::covering() {
                    return;
                }
                let Some(shortcut) = shortcut(e) else { return };
                match (shortcut, shortcut.action()) {
                    (_, Some(action)) => send.emit(action),
                    (Shortcut::PlayPause, _) => playing.set(!*playing),
                    (Shortcut::Help, _) => dialog.set((*dialog != Some(Dialog::Help)).then_some(Dialog::Help)),
                    (Shortcut::Close, _) if dialog.is_some() => dialog.set(None),
                    _ => return,
                }
                e.prevent_default();
            })
        });
        move || drop(listener)
    });
}
