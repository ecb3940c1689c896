//! What each panel of the page shows, computed from the session as plain values that compare
//! equal when nothing shown changed — so a panel re-renders only when its own view moves, and
//! what the page shows can be tested without a browser. The page (`ui/`) renders these.
//!
//! One file per panel, as the page has: the event log (`log`), two releases side by side
//! (`compare`), the revision ruler (`ruler`), the costs (`costs`), the inspector
//! (`inspector`), the objects table (`objects`), the lesson panel (`lesson`); and the
//! pipeline's drawing (`diagram`, `glance`), the exports (`export`) and the host-page API
//! (`host`).

pub mod compare;
mod costs;
pub mod diagram;
pub mod export;
pub mod glance;
pub mod host;
mod inspector;
mod lesson;
mod log;
mod objects;
pub mod poster;
pub mod progress;
mod ruler;
#[cfg(test)]
mod tests;

pub use compare::{view as compare, CompareColumn, CompareView, ComparedLine};
pub use costs::*;
pub use inspector::*;
pub use lesson::*;
pub use log::*;
pub use objects::*;
pub use ruler::*;

/// The page's tagline: the pipeline an event goes through, with the release's FIFO.
pub fn tagline(era: crate::era::Era, lang: Lang) -> String {
    let fifo = i18n::tr(lang, diagram::label(Stage::Fifo, era));
    trf!(
        lang,
        "Every event, one step at a time: etcd → API server → Reflector → {fifo} → Indexer → handlers → workqueue → reconcile.",
        &[("fifo", &fifo)],
    )
}

use crate::client::reflector::Phase;
use crate::cluster::mvcc_store::Event;
use crate::cluster::Kind;
use crate::i18n::{self, Lang, Phrase};
use crate::kernel::{Stage, TraceKind};
use crate::session::Session;
use crate::world::{TraceEvent, Worker};

/// Rows any list shows at most; the rest are counted.
pub const SHOWN: usize = 40;
