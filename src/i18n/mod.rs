//! Words for people, in Korean and English: each step's summary rendered from its typed
//! outcome (`en.rs`, `ko.rs`: one place per language) and the page's own words (`page.rs`).
//! Upstream texts — log lines, API errors, kubectl output, YAML — stay as Kubernetes prints
//! them in every language; nothing in the program decides by reading these words.

mod en;
mod ko;
pub mod page;

use crate::world::outcome::{ListParams, Next};
use crate::world::TraceEvent;
use serde::Serialize;

/// The languages of the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Lang {
    Ko,
    #[default]
    En,
}

impl Lang {
    /// The BCP 47 code: `ko`, `en`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

/// A step's one-line summary.
pub fn summary(event: &TraceEvent, lang: Lang) -> String {
    match lang {
        Lang::En => en::summary(event),
        Lang::Ko => ko::summary(event),
    }
}

/// The command line's line for a step:
/// `#12   1.205s reflector → delta-fifo  delta queued  default/a rv=7  Added default/a`.
pub fn line(event: &TraceEvent) -> String {
    let secs = seconds(event.time_ms);
    let route = format!("{} → {}", event.from, event.to);
    let mut out = format!("#{:<5} {:>10} {:<26} {:<16}", event.step, secs, route, event.kind.name());
    if !event.key.is_empty() {
        out.push(' ');
        out.push_str(&event.key);
    }
    if event.rv > 0 {
        out.push_str(&format!(" rv={}", event.rv));
    }
    out.push_str("  ");
    out.push_str(&summary(event, Lang::En));
    out
}

/// Virtual milliseconds as seconds: `1.205s`.
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// A LIST's query as client-go sends it: `resourceVersion="0"&limit=500`.
pub fn list_query(p: &ListParams) -> String {
    let mut parts = vec![format!("resourceVersion={:?}", p.resource_version)];
    if p.limit > 0 {
        parts.push(format!("limit={}", p.limit));
    }
    if p.continued {
        parts.push("continue=…".into());
    }
    if !p.label_selector.is_empty() {
        parts.push(format!("labelSelector={}", p.label_selector));
    }
    parts.join("&")
}

/// The reflector's next moves in request form, the same in every language:
/// `LIST resourceVersion="0"&limit=500`, `WATCH from rv="7"`, `backoff 1.205s`.
fn next_moves(next: &[Next], backoff_word: &str) -> Vec<String> {
    next.iter()
        .map(|n| match n {
            Next::List(p) => format!("LIST {}", list_query(p)),
            Next::Watch { resource_version, send_initial_events: false } => {
                format!("WATCH from rv={resource_version:?}")
            }
            Next::Watch { resource_version, send_initial_events: true } => {
                format!("WATCH from rv={resource_version:?} sendInitialEvents=true")
            }
            Next::Backoff { ms } => format!("{backoff_word} {}", seconds(*ms)),
        })
        .collect()
}

/// `head; next1; next2`.
fn join(head: String, tail: Vec<String>) -> String {
    std::iter::once(head).chain(tail).filter(|s| !s.is_empty()).collect::<Vec<_>>().join("; ")
}
