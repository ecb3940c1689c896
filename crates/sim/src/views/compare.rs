//! Two Kubernetes releases side by side: the same lesson and the same actions, each world in
//! its own era, kept at the same virtual time — a step on one side runs the other up to the
//! same instant. What differs is found by matching steps: a step has a counterpart when the
//! other side has a step between the same stages, of the same kind, about the same object
//! (and, for a Pop, with the same deltas) at the same virtual time. Steps without one are the
//! differences: one Pop of `[Updated, Updated, Deleted]` against three Pops, tombstones before
//! `Replaced` deltas, a LIST against a WATCH with initial events.

use super::LogLine;
use crate::kernel::{Millis, Stage, TraceKind};
use crate::session::Session;
use crate::world::outcome::Outcome;
use crate::world::TraceEvent;
use std::collections::BTreeMap;

/// What two steps must share to count as the same step in two releases.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Signature {
    time_ms: Millis,
    from: Stage,
    to: Stage,
    kind: TraceKind,
    key: String,
    deltas: Vec<&'static str>,
}

fn signature(e: &TraceEvent) -> Signature {
    let deltas = match &e.outcome {
        Outcome::Popped { deltas, .. } => deltas.iter().map(|d| d.name()).collect(),
        _ => Vec::new(),
    };
    Signature { time_ms: e.time_ms, from: e.from, to: e.to, kind: e.kind, key: e.key.clone(), deltas }
}

/// For each step of `left` and of `right`: whether it has no counterpart on the other side.
pub fn differences(left: &[TraceEvent], right: &[TraceEvent]) -> (Vec<bool>, Vec<bool>) {
    let mut count: BTreeMap<Signature, i64> = BTreeMap::new();
    for e in right {
        *count.entry(signature(e)).or_default() += 1;
    }
    let mut matched_right: BTreeMap<Signature, i64> = BTreeMap::new();
    let left_differs = left
        .iter()
        .map(|e| {
            let sig = signature(e);
            let available = count.get(&sig).copied().unwrap_or(0);
            let used = matched_right.entry(sig).or_default();
            if *used < available {
                *used += 1;
                false
            } else {
                true
            }
        })
        .collect();
    let mut remaining = matched_right;
    let right_differs = right
        .iter()
        .map(|e| match remaining.get_mut(&signature(e)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect();
    (left_differs, right_differs)
}

/// Two releases side by side: each column's newest steps (newest first), each marked when
/// the other release has no such step at that time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareView {
    pub left: CompareColumn,
    pub right: CompareColumn,
}

/// One release's column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareColumn {
    pub era: crate::era::Era,
    pub lines: Vec<ComparedLine>,
}

/// A step of one column, and whether the other release has no such step at that time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComparedLine {
    pub line: LogLine,
    pub unmatched: bool,
}

/// The compare view, when the session shows a second release.
pub fn view(session: &Session, n: usize) -> Option<CompareView> {
    let other = session.compared()?;
    let (left, right) = (session.visible_trace(), other.visible_trace());
    // Only the recent past is shown: compare from where the older of the two windows starts.
    let window = |t: &[TraceEvent]| t.len().saturating_sub(n * 4);
    let since = left.get(window(left)).map_or(0, |e| e.time_ms).min(right.get(window(right)).map_or(0, |e| e.time_ms));
    let recent = |t: &'_ [TraceEvent]| t.len() - t.iter().rev().take_while(|e| e.time_ms >= since).count();
    let (l, r) = (&left[recent(left)..], &right[recent(right)..]);
    let (ld, rd) = crate::views::compare::differences(l, r);
    let column = |era, trace: &[TraceEvent], differs: Vec<bool>| CompareColumn {
        era,
        lines: trace
            .iter()
            .zip(differs)
            .rev()
            .take(n)
            .map(|(e, unmatched)| ComparedLine { line: LogLine::of(e, session.lang()), unmatched })
            .collect(),
    };
    Some(CompareView { left: column(session.era(), l, ld), right: column(other.era(), r, rd) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{ApiObject, Kind};
    use crate::era::Era;
    use crate::world::{Intervention, World, WorldConfig};
    use serde_json::json;

    fn run(era: Era) -> Vec<TraceEvent> {
        let mut config = WorldConfig::new(Kind::ConfigMap);
        config.era = era;
        let cm = ApiObject::new(Kind::ConfigMap, "default", "a").with("data", json!({"v": "0"}));
        let mut w = World::new(config, vec![cm]).unwrap();
        let mut trace = w.run_until_idle(500);
        w.act(Intervention::Delete { kind: Kind::ConfigMap, namespace: "default".into(), name: "a".into() });
        trace.extend(w.run_until_idle(100));
        trace
    }

    #[test]
    fn the_same_release_has_no_differences_and_another_one_shows_where_it_differs() {
        let (a, b) = (run(Era::V1_30), run(Era::V1_30));
        let (left, right) = differences(&a, &b);
        assert!(left.iter().chain(&right).all(|d| !d), "a release against itself");
        let modern = run(Era::V1_37);
        let (left, right) = differences(&a, &modern);
        let first_left = a.iter().zip(&left).find(|(_, d)| **d).map(|(e, _)| e.kind);
        let first_right = modern.iter().zip(&right).find(|(_, d)| **d).map(|(e, _)| e.kind);
        assert_eq!(first_left, Some(TraceKind::ListRequest), "1.30 LISTs");
        assert_eq!(first_right, Some(TraceKind::WatchRequest), "1.37 opens a watch-list");
        let shared_write = a.iter().zip(&left).any(|(e, d)| e.kind == TraceKind::ApiWrite && !d);
        assert!(shared_write, "the user's delete is the same step in both");
    }
}
