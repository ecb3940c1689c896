//! The messages the world's scheduler carries, and the actions people (and scenarios) take.

use crate::client::pipeline::FifoOp;
use crate::cluster::api_server::{ListOptions, ListResponse, WatchOptions};
use crate::cluster::watch::{ApiWatchId, WatchEvent};
use crate::cluster::{ApiObject, Kind, Status, Verb};
use crate::controller::reconciler::Write;
use crate::kernel::{Millis, Stage};

/// What reaches the world from outside its scheduler: a person's or a lesson's write, a fault,
/// the console's watch, or a controller's read or write a lesson makes it do. (What a person
/// does on the page is a `session::Action`; the session turns it into these.)
#[derive(Clone, Debug, PartialEq)]
pub enum Intervention {
    Create(ApiObject),
    Update(ApiObject),
    UpdateStatus(ApiObject),
    Delete {
        kind: Kind,
        namespace: String,
        name: String,
    },
    /// `kubectl scale`: read the object as it is now, set `spec.replicas`, update it.
    Scale {
        kind: Kind,
        namespace: String,
        name: String,
        replicas: i64,
    },
    /// Set top-level fields (`spec`, `data`, …) and labels of the object as it is then.
    Patch {
        kind: Kind,
        namespace: String,
        name: String,
        set: serde_json::Map<String, serde_json::Value>,
        labels: std::collections::BTreeMap<String, String>,
    },
    /// Replace the object's status through its status subresource, as it is then.
    PatchStatus {
        kind: Kind,
        namespace: String,
        name: String,
        status: serde_json::Value,
    },
    /// Delete the first object (in key order) matching a label selector.
    DeleteFirst {
        kind: Kind,
        namespace: String,
        selector: String,
    },
    /// `kubectl get -w`: a watch the console prints as changes happen.
    ConsoleWatch {
        kind: Kind,
        namespace: Option<String>,
    },
    Fault(Fault),
    /// A controller reads its cache.
    CacheRead(crate::controller::cache_reader::ClientRead),
    /// A controller gets an object from its cache and sets labels on what it got, without
    /// writing it: a deep copy unless the cache hands out its own objects.
    CacheMutate {
        kind: Kind,
        namespace: String,
        name: String,
        labels: std::collections::BTreeMap<String, String>,
    },
    /// A controller reads through the APIReader, from the API server.
    ApiRead(crate::controller::cache_reader::ClientRead),
    /// A controller creates an object through its client, with its own credentials.
    ApiCreate(ApiObject),
    /// A request of a client outside the simulation (through `serve-api`), served as a step.
    Outside(Box<super::OutsideRequest>),
    /// What a served world does between requests, made at once (never scheduled, no step).
    Served(super::ServedChange),
}

/// The faults a person injects (ARCHITECTURE.md: "faults do what upstream does").
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "fault", content = "arg", rename_all = "kebab-case")]
pub enum Fault {
    /// The watch connection drops: the reflector re-watches from its last RV (§1.2).
    DisconnectWatch,
    /// etcd compacts at its current revision (§7).
    CompactStore,
    /// Every watch closes and the watch cache re-initialises (§8).
    RestartApiServer,
    /// Remove an RBAC verb (`list`, `watch`, …) from the controller's role.
    Revoke(Verb),
    Grant(Verb),
    /// A what-if: the next notification is lost between the informer and a handler.
    DropNextEvent,
    /// Network latency between client and API server, each way.
    Latency(Millis),
}

impl Fault {
    /// The names a lesson's timeline, the served world's standard input and its admin
    /// endpoint give the faults.
    pub const NAMES: [&'static str; 8] = [
        "disconnect-watch",
        "compact-store",
        "restart-api-server",
        "revoke-list",
        "revoke-watch",
        "grant-list",
        "grant-watch",
        "drop-next-event",
    ];

    /// The fault as serve-api's standard input and controls take it (`compact-store`, `latency 500`).
    pub fn command(&self) -> String {
        match self {
            Fault::Latency(ms) => format!("latency {ms}"),
            fault => {
                Fault::NAMES.into_iter().find(|n| Fault::named(n).as_ref() == Some(fault)).unwrap_or_default().into()
            }
        }
    }

    /// The fault a name names (`latency N` is given apart, with its milliseconds).
    pub fn named(name: &str) -> Option<Fault> {
        Some(match name {
            "disconnect-watch" => Fault::DisconnectWatch,
            "compact-store" => Fault::CompactStore,
            "restart-api-server" => Fault::RestartApiServer,
            "revoke-list" => Fault::Revoke(Verb::List),
            "revoke-watch" => Fault::Revoke(Verb::Watch),
            "grant-list" => Fault::Grant(Verb::List),
            "grant-watch" => Fault::Grant(Verb::Watch),
            "drop-next-event" => Fault::DropNextEvent,
            _ => return None,
        })
    }

    /// The stage a fault hits, for the trace.
    pub fn stage(&self) -> Stage {
        match self {
            Fault::DisconnectWatch => Stage::Reflector,
            Fault::DropNextEvent => Stage::Handler,
            Fault::CompactStore => Stage::Store,
            Fault::RestartApiServer | Fault::Revoke(_) | Fault::Grant(_) | Fault::Latency(_) => Stage::ApiServer,
        }
    }
}

/// One scheduled message. `usize` fields name an informer (by index) or a worker.
#[derive(Clone, Debug)]
pub(super) enum Msg {
    ReflectorStart(usize),
    ListRequest(usize, ListOptions),
    ListResponse(usize, Result<ListResponse, Status>),
    WatchRequest(usize, WatchOptions),
    WatchOpened(usize, Result<ApiWatchId, Status>),
    WatchEvent(usize, ApiWatchId, WatchEvent),
    /// Server-side: the watch reached its timeout.
    WatchTimeout(usize, ApiWatchId),
    /// Client-side: the watch stream ended.
    WatchEnded(usize, ApiWatchId),
    BackoffElapsed(usize, u64),
    ResyncTick(usize, u64),
    Fifo(usize, FifoOp),
    Pop(usize),
    ProcessDelta(usize),
    /// An informer's handler (listener) takes its next notification.
    ListenerRun(usize, usize),
    /// A handler adds a key to controller `usize`'s queue, with the priority
    /// controller-runtime's handlers give it.
    WorkqueueAdd(usize, String, i32),
    WorkqueueReady(usize, String, Millis),
    WorkerGet(usize),
    /// A reconcile's write reaches the API server.
    ApiRequest(usize, Write),
    /// Its answer reaches the worker.
    ApiResponse(usize, Result<ApiObject, Status>),
    ReconcileEnd(usize),
    WorkqueueDone(usize),
    /// The kubelet reports a Pod's new phase.
    KubeletStatus {
        namespace: String,
        name: String,
        phase: crate::controller::kubelet::PodPhase,
    },
    PollTick,
    /// Every source of controller `usize` has synced: it starts its workers.
    StartWorkers(usize),
    /// Waiting cache read `usize` sees its informer synced at `WaitForCacheSync`'s poll.
    CacheReadAnswer(usize),
    /// The cacher's bookmark timer: watchers whose bookmark is due get one.
    BookmarkTick,
    /// etcd's progress notification to the watch caches' etcd watches (every 10 minutes).
    ProgressNotify,
    User(Intervention),
}

impl Msg {
    /// Timers that keep firing in a quiet world.
    pub(super) fn is_background(&self) -> bool {
        matches!(
            self,
            Msg::WatchTimeout(..) | Msg::ResyncTick(..) | Msg::BookmarkTick | Msg::ProgressNotify | Msg::PollTick
        )
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Msg::ReflectorStart(_) => "reflector starts".into(),
            Msg::ListRequest(..) => "LIST request in flight".into(),
            Msg::ListResponse(..) => "LIST response in flight".into(),
            Msg::WatchRequest { .. } => "WATCH request in flight".into(),
            Msg::WatchOpened(..) => "WATCH response in flight".into(),
            Msg::WatchEvent(_, id, e) => format!("{} in flight on watch #{id}", e.type_name()),
            Msg::WatchTimeout(_, id) => format!("watch #{id} timeout"),
            Msg::WatchEnded(_, id) => format!("watch #{id} end in flight"),
            Msg::BackoffElapsed(..) => "backoff timer".into(),
            Msg::ResyncTick(..) => "resync timer".into(),
            Msg::Fifo(..) => "FIFO operation".into(),
            Msg::Pop(_) => "Pop".into(),
            Msg::ProcessDelta(_) => "process delta".into(),
            Msg::ListenerRun(_, l) => format!("handler {l} run"),
            Msg::WorkqueueAdd(_, k, _) => format!("workqueue add {k}"),
            Msg::WorkqueueReady(_, k, _) => format!("{k} ready (AddAfter)"),
            Msg::WorkerGet(w) => format!("worker {w} get"),
            Msg::ApiRequest(_, w) => format!("{} in flight", w.describe()),
            Msg::ApiResponse(..) => "API response in flight".into(),
            Msg::ReconcileEnd(w) => format!("worker {w} reconcile end"),
            Msg::WorkqueueDone(w) => format!("worker {w} done"),
            Msg::KubeletStatus { namespace, name, phase } => format!("kubelet: {namespace}/{name} → {phase:?}"),
            Msg::PollTick => "poll timer".into(),
            Msg::BookmarkTick => "bookmark timer".into(),
            Msg::ProgressNotify => "etcd progress notification".into(),
            Msg::StartWorkers(_) => "workers start".into(),
            Msg::CacheReadAnswer(_) => "cache read answer (informer synced)".into(),
            Msg::User(a) => format!("user action {a:?}"),
        }
    }
}
