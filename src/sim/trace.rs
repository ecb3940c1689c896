//! The trace: one event per delivered message, naming the stages it moved between. The page
//! animates trace events, the tests assert on them and the command line prints them.

use super::Millis;
use serde::Serialize;
use std::fmt;

/// A stage of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    User,
    Store,
    ApiServer,
    Reflector,
    DeltaFifo,
    Informer,
    Indexer,
    Handler,
    Workqueue,
    Reconciler,
    Kubelet,
}

impl Stage {
    /// Every stage, in the order an event meets them.
    pub const ALL: [Stage; 11] = [
        Stage::User,
        Stage::Kubelet,
        Stage::Store,
        Stage::ApiServer,
        Stage::Reflector,
        Stage::DeltaFifo,
        Stage::Informer,
        Stage::Indexer,
        Stage::Handler,
        Stage::Workqueue,
        Stage::Reconciler,
    ];

    /// A stage by its name in the trace.
    pub fn named(name: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::User => "user",
            Stage::Store => "store",
            Stage::ApiServer => "api-server",
            Stage::Reflector => "reflector",
            Stage::DeltaFifo => "delta-fifo",
            Stage::Informer => "informer",
            Stage::Indexer => "indexer",
            Stage::Handler => "handler",
            Stage::Workqueue => "workqueue",
            Stage::Reconciler => "reconciler",
            Stage::Kubelet => "kubelet",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What happened in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraceKind {
    ListRequest,
    ListResponse,
    WatchRequest,
    WatchStarted,
    Added,
    Modified,
    Deleted,
    Bookmark,
    WatchError,
    WatchClosed,
    RequestFailed,
    EventLost,
    Backoff,
    DeltaQueued,
    Replace,
    Resync,
    Pop,
    IndexerWrite,
    HandlerCall,
    WorkqueueAdd,
    WorkqueueGet,
    WorkqueueDone,
    ApiResponse,
    ReconcileEnd,
    ApiWrite,
    Fault,
}

impl TraceKind {
    pub fn name(self) -> &'static str {
        match self {
            TraceKind::ListRequest => "LIST request",
            TraceKind::ListResponse => "LIST response",
            TraceKind::WatchRequest => "WATCH request",
            TraceKind::WatchStarted => "WATCH started",
            TraceKind::Added => "ADDED",
            TraceKind::Modified => "MODIFIED",
            TraceKind::Deleted => "DELETED",
            TraceKind::Bookmark => "BOOKMARK",
            TraceKind::WatchError => "ERROR",
            TraceKind::WatchClosed => "watch closed",
            TraceKind::RequestFailed => "request failed",
            TraceKind::EventLost => "event lost",
            TraceKind::Backoff => "backoff",
            TraceKind::DeltaQueued => "delta queued",
            TraceKind::Replace => "Replace",
            TraceKind::Resync => "Resync",
            TraceKind::Pop => "Pop",
            TraceKind::IndexerWrite => "indexer write",
            TraceKind::HandlerCall => "handler call",
            TraceKind::WorkqueueAdd => "workqueue add",
            TraceKind::WorkqueueGet => "workqueue get",
            TraceKind::WorkqueueDone => "workqueue done",
            TraceKind::ApiResponse => "API response",
            TraceKind::ReconcileEnd => "reconcile end",
            TraceKind::ApiWrite => "API write",
            TraceKind::Fault => "fault",
        }
    }
}

/// One step of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceEvent {
    pub step: u64,
    pub time_ms: Millis,
    pub from: Stage,
    pub to: Stage,
    pub kind: TraceKind,
    /// `namespace/name`, or empty when the step is not about one object.
    pub key: String,
    /// The resourceVersion the step carries (0 when none).
    pub rv: i64,
    pub summary: String,
}

impl fmt::Display for TraceEvent {
    /// `#12   1.205s reflector → delta-fifo  delta queued  default/a rv=7  Added default/a`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = format!("{}.{:03}s", self.time_ms / 1000, self.time_ms % 1000);
        let route = format!("{} → {}", self.from, self.to);
        write!(f, "#{:<5} {:>10} {:<26} {:<16}", self.step, secs, route, self.kind.name())?;
        if !self.key.is_empty() {
            write!(f, " {}", self.key)?;
        }
        if self.rv > 0 {
            write!(f, " rv={}", self.rv)?;
        }
        write!(f, "  {}", self.summary)
    }
}
