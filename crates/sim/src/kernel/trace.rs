//! The trace's vocabulary: the stages of the pipeline and the coarse kinds of step. Each step's
//! own record (`world::TraceEvent`) carries a typed outcome besides these.

use serde::Serialize;
use std::fmt;

/// A stage of the pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    User,
    Store,
    ApiServer,
    Reflector,
    /// The informer's FIFO: a DeltaFIFO or a RealFIFO, by era.
    #[serde(alias = "delta-fifo")]
    Fifo,
    Informer,
    Indexer,
    Handler,
    Workqueue,
    Reconciler,
    Kubelet,
    /// A client that LISTs everything on a timer instead of watching (lesson 2's poller).
    Poller,
}

impl Stage {
    /// Every stage, in the order an event meets them.
    pub const ALL: [Stage; 12] = [
        Stage::User,
        Stage::Kubelet,
        Stage::Poller,
        Stage::Store,
        Stage::ApiServer,
        Stage::Reflector,
        Stage::Fifo,
        Stage::Informer,
        Stage::Indexer,
        Stage::Handler,
        Stage::Workqueue,
        Stage::Reconciler,
    ];

    /// A stage by its name in the trace (`delta-fifo` is still read as `fifo`).
    pub fn named(name: &str) -> Option<Stage> {
        let name = if name == "delta-fifo" { "fifo" } else { name };
        Stage::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::User => "user",
            Stage::Store => "store",
            Stage::ApiServer => "api-server",
            Stage::Reflector => "reflector",
            Stage::Fifo => "fifo",
            Stage::Informer => "informer",
            Stage::Indexer => "indexer",
            Stage::Handler => "handler",
            Stage::Workqueue => "workqueue",
            Stage::Reconciler => "reconciler",
            Stage::Kubelet => "kubelet",
            Stage::Poller => "poller",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What happened in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
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
    /// The controller's caches have synced: its workers start.
    WorkersStart,
    /// A controller reads its cache (controller-runtime's client `Get` / `List`).
    CacheRead,
    /// A controller's read through the APIReader (reconciler → API server).
    ApiRead,
}

impl TraceKind {
    /// Every kind of step.
    pub const ALL: [TraceKind; 29] = [
        TraceKind::ListRequest,
        TraceKind::ListResponse,
        TraceKind::WatchRequest,
        TraceKind::WatchStarted,
        TraceKind::Added,
        TraceKind::Modified,
        TraceKind::Deleted,
        TraceKind::Bookmark,
        TraceKind::WatchError,
        TraceKind::WatchClosed,
        TraceKind::RequestFailed,
        TraceKind::EventLost,
        TraceKind::Backoff,
        TraceKind::DeltaQueued,
        TraceKind::Replace,
        TraceKind::Resync,
        TraceKind::Pop,
        TraceKind::IndexerWrite,
        TraceKind::HandlerCall,
        TraceKind::WorkqueueAdd,
        TraceKind::WorkqueueGet,
        TraceKind::WorkqueueDone,
        TraceKind::ApiResponse,
        TraceKind::ReconcileEnd,
        TraceKind::ApiWrite,
        TraceKind::Fault,
        TraceKind::WorkersStart,
        TraceKind::CacheRead,
        TraceKind::ApiRead,
    ];

    /// A kind by its name in the event log (`Pop`, `ERROR`, `LIST response`, …), any case.
    pub fn named(name: &str) -> Option<TraceKind> {
        TraceKind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(name))
    }

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
            TraceKind::CacheRead => "cache read",
            TraceKind::ApiRead => "API read",
            TraceKind::Fault => "fault",
            TraceKind::WorkersStart => "workers start",
        }
    }
}
