//! The cost panel: what the run has cost the API server, with a chart cut at fixed steps.

use super::*;

/// The cost panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostsView {
    pub requests: Vec<(crate::cluster::Verb, u64)>,
    pub bytes_sent: u64,
    pub cached_objects: usize,
    pub cached_bytes: usize,
    /// The indexes' entries and their bytes.
    pub index_entries: (usize, usize),
    /// Objects and bytes of the cached kinds in etcd, when a scope keeps some out.
    pub in_cluster: Option<(usize, usize)>,
    /// What the caches would hold with their objects whole, when one has a transform or
    /// caches metadata alone.
    pub whole_bytes: Option<usize>,
    pub reconciles: u64,
    /// The chart's bars, oldest first, over the last `window` steps.
    pub bars: Vec<Bar>,
    pub window: usize,
    /// How many bars the chart has room for; the newest stands at the right end.
    pub room: usize,
}

/// One bar of the cost chart: the API requests and watch events of the steps
/// `at * steps .. (at + 1) * steps` of the run. Bars are cut at fixed steps, so taking a step
/// changes only the newest bar: the ones before keep their place (`at`) and their counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bar {
    pub at: usize,
    pub requests: usize,
    pub events: usize,
}

pub(super) fn is_request(e: &TraceEvent) -> bool {
    matches!(
        e.kind,
        TraceKind::ListRequest
            | TraceKind::WatchRequest
            | TraceKind::ApiWrite
            | TraceKind::ApiRead
            | TraceKind::RequestFailed
    ) && e.to == Stage::ApiServer
}

pub(super) fn is_event(e: &TraceEvent) -> bool {
    matches!(e.kind, TraceKind::Added | TraceKind::Modified | TraceKind::Deleted | TraceKind::Bookmark)
}

/// What the run costs, with a chart of about the last `window` steps in at most `room` bars.
pub fn costs(session: &Session, window: usize, room: usize) -> CostsView {
    let costs = session.world().costs();
    let trace = session.visible_trace();
    let room = room.max(1);
    let per_bar = trace.len().min(window).div_ceil(room).max(1);
    let end = trace.len().div_ceil(per_bar);
    let first = end.saturating_sub(room);
    CostsView {
        requests: costs.requests.into_iter().collect(),
        bytes_sent: costs.bytes_sent,
        cached_objects: costs.cached.iter().map(|(_, n, _)| n).sum(),
        cached_bytes: costs.cached.iter().map(|(_, _, b)| b).sum(),
        index_entries: costs.index_entries,
        in_cluster: (!costs.in_cluster.is_empty())
            .then(|| costs.in_cluster.iter().fold((0, 0), |(n, b), (_, objects, bytes)| (n + objects, b + bytes))),
        whole_bytes: costs.whole_bytes,
        reconciles: costs.reconciles,
        bars: trace[first * per_bar..]
            .chunks(per_bar)
            .zip(first..)
            .map(|(c, at)| Bar {
                at,
                requests: c.iter().filter(|e| is_request(e)).count(),
                events: c.iter().filter(|e| is_event(e)).count(),
            })
            .collect(),
        window: trace.len() - first * per_bar,
        room,
    }
}
