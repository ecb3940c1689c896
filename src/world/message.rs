//! The messages the world's scheduler carries, and the actions people (and scenarios) take.

use crate::cluster::api_server::{ListOptions, ListResponse, WatchOptions};
use crate::cluster::watch::{ApiWatchId, WatchEvent};
use crate::cluster::{ApiObject, Kind, Status};
use crate::sim::{Millis, Stage};

/// A write by a person, or a fault injected into the pipeline.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Create(ApiObject),
    Update(ApiObject),
    UpdateStatus(ApiObject),
    Delete { kind: Kind, namespace: String, name: String },
    Fault(Fault),
}

/// The faults of DESIGN's fault table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The watch connection drops: the reflector re-watches from its last RV (§1.2).
    DisconnectWatch,
    /// etcd compacts at its current revision (§7).
    CompactStore,
    /// Every watch closes and the watch cache re-initialises (§8).
    RestartApiServer,
    /// Remove an RBAC verb (`list`, `watch`, …) from the controller's role.
    Revoke(String),
    Grant(String),
    /// A what-if: the next watch event is lost between the API server and the reflector.
    DropNextEvent,
    /// Network latency between client and API server, each way.
    Latency(Millis),
}

impl Fault {
    /// The stage a fault hits, for the trace.
    pub fn stage(&self) -> Stage {
        match self {
            Fault::DisconnectWatch | Fault::DropNextEvent => Stage::Reflector,
            Fault::CompactStore => Stage::Store,
            Fault::RestartApiServer | Fault::Revoke(_) | Fault::Grant(_) | Fault::Latency(_) => Stage::ApiServer,
        }
    }
}

/// A FIFO operation the reflector sent.
#[derive(Clone, Debug)]
pub(super) enum FifoOp {
    Replace(Vec<ApiObject>, i64),
    Add(ApiObject),
    Update(ApiObject),
    Delete(ApiObject),
}

/// One scheduled message.
#[derive(Clone, Debug)]
pub(super) enum Msg {
    ReflectorStart,
    ListRequest(ListOptions),
    ListResponse(Result<ListResponse, Status>),
    WatchRequest {
        options: WatchOptions,
        timeout_secs: u64,
    },
    WatchOpened(Result<ApiWatchId, Status>),
    WatchEvent(ApiWatchId, WatchEvent),
    /// Server-side: the watch reached its timeout.
    WatchTimeout(ApiWatchId),
    /// Client-side: the watch stream ended.
    WatchEnded(ApiWatchId),
    BackoffElapsed(u64),
    ResyncTick(u64),
    Fifo(FifoOp),
    Pop,
    ProcessDelta,
    ListenerRun(usize),
    WorkqueueAdd(String),
    WorkerGet,
    ReconcileEnd(String),
    WorkqueueDone(String),
    BookmarkTick,
    User(Action),
}

impl Msg {
    /// Timers that keep firing in a quiet world.
    pub(super) fn is_background(&self) -> bool {
        matches!(self, Msg::WatchTimeout(_) | Msg::ResyncTick(_) | Msg::BookmarkTick)
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Msg::ReflectorStart => "reflector starts".into(),
            Msg::ListRequest(_) => "LIST request in flight".into(),
            Msg::ListResponse(_) => "LIST response in flight".into(),
            Msg::WatchRequest { .. } => "WATCH request in flight".into(),
            Msg::WatchOpened(_) => "WATCH response in flight".into(),
            Msg::WatchEvent(id, e) => format!("{} in flight on watch #{id}", e.type_name()),
            Msg::WatchTimeout(id) => format!("watch #{id} timeout"),
            Msg::WatchEnded(id) => format!("watch #{id} end in flight"),
            Msg::BackoffElapsed(_) => "backoff timer".into(),
            Msg::ResyncTick(_) => "resync timer".into(),
            Msg::Fifo(_) => "FIFO operation".into(),
            Msg::Pop => "Pop".into(),
            Msg::ProcessDelta => "process delta".into(),
            Msg::ListenerRun(i) => format!("handler {i} run"),
            Msg::WorkqueueAdd(k) => format!("workqueue add {k}"),
            Msg::WorkerGet => "worker get".into(),
            Msg::ReconcileEnd(k) => format!("reconcile {k}"),
            Msg::WorkqueueDone(k) => format!("done {k}"),
            Msg::BookmarkTick => "bookmark timer".into(),
            Msg::User(a) => format!("user action {a:?}"),
        }
    }
}
