//! The event log: the newest steps touching a stage, one line each.

use super::*;

/// One line of the event log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub step: u64,
    pub time: String,
    pub from: Stage,
    pub to: Stage,
    pub kind: TraceKind,
    pub summary: String,
}

impl LogLine {
    pub fn of(e: &TraceEvent, lang: Lang) -> Self {
        LogLine {
            step: e.step,
            time: i18n::seconds(e.time_ms),
            from: e.from,
            to: e.to,
            kind: e.kind,
            summary: i18n::summary(e, lang),
        }
    }
}

/// The newest `n` steps touching `filter` (all stages when `None`), newest first.
pub fn log(session: &Session, filter: Option<Stage>, n: usize) -> Vec<LogLine> {
    session
        .visible_trace()
        .iter()
        .rev()
        .filter(|e| filter.is_none_or(|s| e.from == s || e.to == s))
        .take(n)
        .map(|e| LogLine::of(e, session.lang()))
        .collect()
}
