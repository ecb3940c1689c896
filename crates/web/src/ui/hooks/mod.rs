//! The page's custom hooks, one concern each (the shape of Yew's `function_todomvc`): what
//! an action may do inside an embed's range (`send`), Play (`play`), the keyboard (`keys`),
//! the parts drawn a task each (`staged`), the document's language and theme (`document`),
//! the address bar (`address`), the host-page API (`host`), the token's motion (`motion`)
//! and the work left for idle time (`idle`).

mod address;
mod document;
mod host;
mod idle;
mod keys;
mod motion;
mod play;
mod send;
mod staged;

pub use address::use_address;
pub use document::{use_remembered_language, use_theme};
pub use host::{use_embed_height, use_host_api, use_host_reports};
pub use idle::use_idle_settle;
pub use keys::{use_shortcuts, Dialog, Shortcut};
pub use motion::use_motion;
pub use play::use_play;
pub use send::{needs_console, use_send};
pub use staged::use_staged_parts;
