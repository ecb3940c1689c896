//! What each step did, as typed values: the message delivered, the decision taken, the error
//! as a `Status`. Everything that acts on a run — the session, lesson triggers, expectations,
//! the stale-read check — reads these values; the sentences people see are rendered from them
//! at the edge (`crate::i18n`), once per language. Rewording a sentence never changes
//! behaviour.
//!
//! An outcome also names the notable facts it carries as [`Tag`]s (`deduplicated`,
//! `tombstone`, `stale-read`, …), so a lesson can say "the second step where the workqueue
//! deduplicates" without reading text.

use crate::client::delta_fifo::DeltaType;
use crate::client::pipeline::Fed;
pub use crate::client::shared_informer::{Calls, HandlerFn, IndexerWrite};
use crate::client::workqueue::AddOutcome;
use crate::cluster::watch::ApiWatchId;
use crate::cluster::{Kind, Status, Verb};
use crate::controller::cache_reader::ReadError;
pub use crate::controller::handler::CallNote;
pub use crate::controller::kubelet::PodPhase;
use crate::controller::reconciler::{Decision, ReconcileResult, WriteOp};
use crate::kernel::{sort, Millis, Stage, TraceKind};
use serde::Serialize;

use super::message::Fault;

/// The parameters of a LIST as the trace shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListParams {
    pub resource_version: String,
    /// 0: no limit.
    pub limit: usize,
    /// A continuation page (`continue=<token>`).
    pub continued: bool,
    pub label_selector: String,
    pub field_selector: String,
    /// Metadata alone (`Accept: …;as=PartialObjectMetadataList`).
    pub metadata_only: bool,
}

/// What the reflector does next, as its commands say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "next", rename_all = "kebab-case")]
pub enum Next {
    List(ListParams),
    Watch { resource_version: String, send_initial_events: bool, field_selector: String, metadata_only: bool },
    Backoff { ms: Millis },
}

/// A watch event's type on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EventType {
    Added,
    Modified,
    Deleted,
    Bookmark,
    Error,
}

impl EventType {
    pub fn name(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
            EventType::Bookmark => "BOOKMARK",
            EventType::Error => "ERROR",
        }
    }
}

/// A request's answer: the items and revision of a list, or the status of a refusal.
pub type Answer<T> = Result<T, Status>;

/// A successful LIST: how many items, at which resourceVersion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Listed {
    pub items: usize,
    pub resource_version: i64,
}

/// What the resync timer found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "resync", rename_all = "kebab-case")]
pub enum ResyncOutcome {
    /// The timer belongs to an earlier ListAndWatch.
    Stopped,
    /// No handler is due.
    NotDue,
    /// `Sync` deltas queued for known objects without queued changes.
    Queued { deltas: usize },
    /// The atomic RealFIFO's single `SyncAll` delta.
    SyncAll,
}

/// A read a reconcile makes between its writes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "read", rename_all = "kebab-case")]
pub enum Read {
    /// From the cache again; `stale` holds the resourceVersion this reconcile's own write
    /// produced for this object when the cache still holds an older one.
    CacheGet { result: Result<i64, String>, stale: Option<i64> },
    /// `GetAPIReader()`: straight from the API server.
    ApiGet { answer: Answer<i64> },
}

/// What happens to a key after its reconcile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "then", rename_all = "kebab-case")]
pub enum Requeue {
    Forget,
    RateLimited { delay_ms: Millis, requeues: u32 },
    After { delay_ms: Millis },
    Not,
}

/// What a fault did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum FaultEffect {
    WatchesCut { ids: Vec<ApiWatchId> },
    NoWatchOpen,
    Compacted { revision: i64 },
    CompactFailed { message: String },
    ApiServerRestarted,
    Revoked { verb: Verb, user: String },
    Granted { verb: Verb, user: String },
    NextNotificationLost,
    Latency { ms: Millis },
}

/// A write a person (or a scenario's timeline) makes as the cluster administrator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UserVerb {
    Create,
    Update,
    UpdateStatus,
    Delete,
    Scale,
    Patch,
}

/// What kind of step an outside client's request is.
pub fn outside_trace_kind(verb: Verb) -> TraceKind {
    match verb {
        Verb::Get | Verb::List => TraceKind::ListRequest,
        Verb::Watch => TraceKind::WatchRequest,
        _ => TraceKind::ApiWrite,
    }
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Outcome {
    /// `Run`: the first ListAndWatch.
    ListAndWatchStarts {
        next: Vec<Next>,
    },
    /// The API server answers a LIST.
    ListServed {
        request: ListParams,
        answer: Answer<Listed>,
    },
    /// The LIST's answer reaches the reflector.
    ListReceived {
        answer: Answer<Listed>,
        next: Vec<Next>,
    },
    /// The API server opens (or refuses) a WATCH.
    WatchServed {
        resource_version: String,
        timeout_secs: u64,
        send_initial_events: bool,
        answer: Answer<ApiWatchId>,
    },
    /// The WATCH's answer reaches the reflector.
    WatchOpened {
        answer: Answer<ApiWatchId>,
        next: Vec<Next>,
    },
    /// A watch event reaches the reflector.
    WatchEvent {
        watch: ApiWatchId,
        event: EventType,
        initial_events_end: bool,
        next: Vec<Next>,
    },
    /// An in-stream error (`ERROR` event) reaches the reflector.
    WatchError {
        watch: ApiWatchId,
        status: Status,
        next: Vec<Next>,
    },
    /// An event of a stream the client no longer reads is lost.
    EventLost {
        watch: ApiWatchId,
        event: EventType,
    },
    /// The server-side watch timeout.
    WatchTimedOut {
        watch: ApiWatchId,
        already_closed: bool,
    },
    /// The end of a stream reaches the client (`read`: the reflector still reads it).
    WatchEnded {
        watch: ApiWatchId,
        read: bool,
        /// It lasted under a second with no events (client-go's "very short watch").
        very_short: bool,
        next: Vec<Next>,
    },
    /// The reflector's backoff timer (`stale`: superseded by a later one).
    BackoffElapsed {
        stale: bool,
        next: Vec<Next>,
    },
    Resync(ResyncOutcome),
    /// A FIFO operation from the reflector; `waiting`: deltas now queued for the key.
    Queued {
        op: Fed,
        waiting: usize,
    },
    /// `Pop` (or `PopBatch`): a key and its deltas, oldest first.
    Popped {
        deltas: Vec<DeltaType>,
        initial_list: bool,
        batch: usize,
    },
    PopEmpty,
    /// `processDeltas` applied one delta and notified `notified` of `listeners` handlers.
    Processed {
        delta: DeltaType,
        /// Several keys' deltas applied as one transaction (`processDeltasInBatch`).
        batch: bool,
        write: IndexerWrite,
        call: Option<HandlerFn>,
        /// Every handler call the apply made (several for `ReplacedAll`, `SyncAll`, batches).
        calls: Calls,
        tombstone: bool,
        notified: usize,
        listeners: usize,
    },
    NothingToProcess,
    /// A handler ran (or its notification was lost, an injected what-if).
    HandlerCalled {
        handler: String,
        call: HandlerFn,
        note: CallNote,
        enqueued: Option<String>,
        lost: bool,
    },
    NothingBuffered,
    /// `Add` (with the priority given, where the queue is a priority queue).
    WorkqueueAdd {
        added: AddOutcome,
        priority: Option<i32>,
    },
    /// An `AddAfter` timer fired (`None`: superseded by an earlier one).
    WorkqueueReady(Option<AddOutcome>),
    /// A worker takes a key and plans its reconcile.
    ReconcileStarts {
        /// The controller whose worker took the key.
        controller: String,
        worker: usize,
        decisions: Vec<Decision>,
        reads: Vec<Read>,
    },
    NothingQueued,
    /// A reconcile's write reaches the API server (`sent_rv`: an update's precondition).
    ApiWrite {
        op: WriteOp,
        kind: Kind,
        sent_rv: Option<i64>,
        answer: Answer<i64>,
    },
    /// Its answer reaches the worker, then the reads up to the next write.
    ApiAnswer {
        kind: Option<Kind>,
        answer: Answer<i64>,
        reads: Vec<Read>,
    },
    ReconcileEnds {
        result: ReconcileResult,
        then: Requeue,
    },
    WorkqueueDone {
        again: bool,
    },
    WorkerIdle,
    KubeletReport {
        phase: PodPhase,
        answer: Answer<i64>,
        gone: bool,
    },
    Polled {
        kind: Kind,
        answer: Answer<Listed>,
    },
    /// The cacher's bookmark timer: this many watchers were due a bookmark.
    BookmarksSent {
        watchers: usize,
    },
    /// etcd told the watch caches its current revision.
    ProgressNotified,
    /// A request from a client outside the simulation (through `serve-api`): who, what, and
    /// the error code if it failed.
    Outside {
        user: String,
        verb: Verb,
        kind: Kind,
        code: Option<u16>,
        /// `dryRun=All`: answered, nothing stored.
        dry_run: bool,
    },
    /// `Starting workers`: every source's cache (and, where the era waits for them, every
    /// handler) has synced; the workers take keys from now on.
    WorkersStarted {
        controller: String,
        workers: usize,
        queued: usize,
    },
    UserWrite {
        verb: UserVerb,
        kind: Option<Kind>,
        answer: Answer<i64>,
        no_match: Option<String>,
    },
    ConsoleWatch {
        kind: Kind,
        answer: Answer<ApiWatchId>,
    },
    Fault {
        fault: Fault,
        effect: FaultEffect,
    },
    /// A controller read its cache: what it asked and what came back, after `waited_ms` for
    /// its informer to sync.
    CacheRead {
        read: crate::controller::cache_reader::ClientRead,
        answer: Result<crate::controller::cache_reader::CacheAnswer, crate::controller::cache_reader::ReadError>,
        waited_ms: Millis,
    },
    /// A controller changed the labels of an object it got from its cache, without writing
    /// it; `shared`: the object was the cache's own (`UnsafeDisableDeepCopy`), so the cache
    /// changed; otherwise a deep copy did. `found`: the cache held the key.
    CacheMutated {
        kind: Kind,
        labels: std::collections::BTreeMap<String, String>,
        found: bool,
        shared: bool,
    },
    /// A controller's cache read waits for its kind's informer to sync; `started`: the read
    /// started that informer (a lazy informer).
    CacheReadWaits {
        read: crate::controller::cache_reader::ClientRead,
        started: bool,
    },
    /// A controller read the API server: what it asked and what the API server sent;
    /// `uncached`: through the manager's client, for a kind `DisableFor` keeps out of the cache
    /// (otherwise through the APIReader).
    ApiRead {
        read: crate::controller::cache_reader::ClientRead,
        answer: Result<crate::controller::api_reader::ApiAnswer, Status>,
        uncached: bool,
    },
}

/// Declares [`Tag`] and its list of every variant (`Tag::ALL`), so the list cannot fall behind.
macro_rules! tags {
    ($($(#[$doc:meta])* $tag:ident,)*) => {
        /// A notable fact a step carries, for lesson triggers and expectations.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "kebab-case")]
        pub enum Tag {
            $($(#[$doc])* $tag,)*
        }

        impl Tag {
            /// Every tag, in declaration order.
            pub const ALL: &'static [Tag] = &[$(Tag::$tag,)*];
        }
    };
}

tags! {
    /// A request or write answered with an error status.
    Failed,
    /// The reflector's next move is a LIST after an earlier one (a relist).
    Relist,
    /// The reflector re-watches without listing.
    Rewatch,
    /// The reflector backs off.
    Backoff,
    /// A watch that ended in under a second with no events.
    VeryShortWatch,
    /// A streaming list (`sendInitialEvents=true`).
    WatchList,
    /// The bookmark that ends a streaming list's initial events.
    InitialEventsEnd,
    /// An event lost: its stream was closed, or an injected what-if.
    Lost,
    /// A delete of an object nobody knew: ignored.
    Ignored,
    /// More than one delta waits for the key.
    Grouped,
    /// A `DeletedFinalStateUnknown` tombstone.
    Tombstone,
    /// Part of the first list (`isInInitialList`).
    InitialList,
    /// A resync: `Sync` deltas, or an update with the same resourceVersion.
    Resync,
    /// A sync that reached only some handlers.
    Partial,
    /// A whole relist as one delta (`ReplacedAll`).
    ReplacedAll,
    /// Several keys popped as one batch.
    Batch,
    Queued,
    /// Added while already waiting in the queue.
    Deduplicated,
    /// Added while a worker holds it: it runs again after `Done`.
    WhileProcessing,
    /// Added again while a worker holds it and it is already marked to run again.
    AlreadyDirty,
    /// `Done` found it re-added meanwhile.
    Requeued,
    Superseded,
    Success,
    Error,
    /// `Result{Requeue: true}`.
    Requeue,
    /// A filtering handler dropped or turned the call.
    Filtered,
    RequeueAfter,
    Terminal,
    NothingToDo,
    Create,
    Delete,
    WaitingExpectations,
    /// The cache still holds an older version than this reconcile's own write.
    StaleRead,
    /// A read through `GetAPIReader()`.
    ApiReader,
    NotFound,
    NotCached,
    /// A cache read of a kind no informer watched started one.
    LazyInformer,
    /// A cache read waits, or waited, for its informer to sync.
    WaitedForSync,
    /// A change made to an object the cache handed out reached the cache's own object.
    SharedObject,
    Conflict,
    Forbidden,
    Expired,
    Fault,
}

impl Tag {
    /// The name a scenario file uses.
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
    }
}

/// What an error status says, by its code.
fn status_tags(code: u16, tags: &mut Vec<Tag>) {
    tags.push(Tag::Failed);
    match code {
        403 => tags.push(Tag::Forbidden),
        404 => tags.push(Tag::NotFound),
        409 => tags.push(Tag::Conflict),
        410 => tags.push(Tag::Expired),
        _ => {}
    }
}

fn next_tags(next: &[Next], tags: &mut Vec<Tag>) {
    for n in next {
        tags.push(match n {
            Next::List(_) => Tag::Relist,
            Next::Watch { send_initial_events: true, .. } => Tag::WatchList,
            Next::Watch { .. } => Tag::Rewatch,
            Next::Backoff { .. } => Tag::Backoff,
        });
    }
}

fn read_tags(reads: &[Read], tags: &mut Vec<Tag>) {
    for r in reads {
        match r {
            Read::CacheGet { stale: Some(_), .. } => tags.push(Tag::StaleRead),
            Read::CacheGet { result: Err(_), .. } => tags.push(Tag::Failed),
            Read::CacheGet { .. } => {}
            Read::ApiGet { .. } => tags.push(Tag::ApiReader),
        }
    }
}

impl Outcome {
    /// The notable facts of this step.
    pub fn tags(&self) -> Vec<Tag> {
        let mut tags = Vec::new();
        match self {
            Outcome::ListAndWatchStarts { next } => next_tags(next, &mut tags),
            Outcome::ListServed { .. } | Outcome::Polled { .. } => {}
            // The first list's own LIST is not a relist: only a failed list's retry is.
            Outcome::ListReceived { next, .. } | Outcome::WatchOpened { next, .. } => next_tags(next, &mut tags),
            Outcome::WatchServed { send_initial_events, .. } => {
                if *send_initial_events {
                    tags.push(Tag::WatchList);
                }
            }
            Outcome::WatchEvent { initial_events_end, next, .. } => {
                if *initial_events_end {
                    tags.push(Tag::InitialEventsEnd);
                }
                next_tags(next, &mut tags);
            }
            Outcome::WatchError { next, .. } => next_tags(next, &mut tags),
            Outcome::EventLost { .. } => tags.push(Tag::Lost),
            Outcome::WatchTimedOut { .. } | Outcome::PopEmpty | Outcome::NothingToProcess => {}
            Outcome::WatchEnded { next, very_short, .. } => {
                if *very_short {
                    tags.push(Tag::VeryShortWatch);
                }
                next_tags(next, &mut tags);
            }
            Outcome::BackoffElapsed { next, .. } => next_tags(next, &mut tags),
            Outcome::Resync(r) => {
                if matches!(r, ResyncOutcome::Queued { .. } | ResyncOutcome::SyncAll) {
                    tags.push(Tag::Resync);
                }
            }
            Outcome::Queued { op, waiting } => {
                match op {
                    Fed::Deleted { ignored: true } => tags.push(Tag::Ignored),
                    Fed::ReplacedAll { .. } => tags.push(Tag::ReplacedAll),
                    _ => {}
                }
                if *waiting > 1 {
                    tags.push(Tag::Grouped);
                }
            }
            Outcome::Popped { deltas, initial_list, batch } => {
                if deltas.len() > 1 {
                    tags.push(Tag::Grouped);
                }
                if *initial_list {
                    tags.push(Tag::InitialList);
                }
                if *batch > 1 {
                    tags.push(Tag::Batch);
                }
                if deltas.contains(&DeltaType::ReplacedAll) {
                    tags.push(Tag::ReplacedAll);
                }
            }
            Outcome::Processed { delta, tombstone, notified, listeners, .. } => {
                if *tombstone {
                    tags.push(Tag::Tombstone);
                }
                if matches!(delta, DeltaType::Sync | DeltaType::SyncAll) {
                    tags.push(Tag::Resync);
                }
                if notified < listeners {
                    tags.push(Tag::Partial);
                }
            }
            Outcome::HandlerCalled { note, lost, .. } => {
                match note {
                    CallNote::InitialList => tags.push(Tag::InitialList),
                    CallNote::ResyncSameRv => tags.push(Tag::Resync),
                    CallNote::Tombstone => tags.push(Tag::Tombstone),
                    CallNote::FilteredOut | CallNote::FilterTurned { .. } | CallNote::PredicateFalse { .. } => {
                        tags.push(Tag::Filtered)
                    }
                    CallNote::None => {}
                }
                if *lost {
                    tags.push(Tag::Lost);
                }
            }
            Outcome::NothingBuffered
            | Outcome::NothingQueued
            | Outcome::WorkerIdle
            | Outcome::BookmarksSent { .. }
            | Outcome::ProgressNotified
            | Outcome::Outside { .. }
            | Outcome::WorkersStarted { .. } => {}
            Outcome::WorkqueueAdd { added: add, .. } | Outcome::WorkqueueReady(Some(add)) => tags.push(add_tag(*add)),
            Outcome::WorkqueueReady(None) => tags.push(Tag::Superseded),
            Outcome::ReconcileStarts { decisions, reads, .. } => {
                for d in decisions {
                    tags.extend(decision_tag(d));
                }
                read_tags(reads, &mut tags);
            }
            Outcome::ApiWrite { .. } | Outcome::KubeletReport { .. } => {}
            Outcome::ApiAnswer { reads, .. } => read_tags(reads, &mut tags),
            Outcome::ReconcileEnds { result, .. } => tags.push(match result {
                ReconcileResult::Success => Tag::Success,
                ReconcileResult::Error(_) => Tag::Error,
                ReconcileResult::Requeue => Tag::Requeue,
                ReconcileResult::RequeueAfter(_) => Tag::RequeueAfter,
                ReconcileResult::Terminal(_) => Tag::Terminal,
            }),
            Outcome::WorkqueueDone { again } => {
                if *again {
                    tags.push(Tag::Requeued);
                }
            }
            Outcome::UserWrite { no_match, .. } => {
                if no_match.is_some() {
                    tags.push(Tag::Failed);
                }
            }
            Outcome::ConsoleWatch { .. } | Outcome::ApiRead { .. } => {}
            Outcome::Fault { .. } => tags.push(Tag::Fault),
            Outcome::CacheRead { answer, waited_ms, .. } => {
                if matches!(answer, Err(e) if !matches!(e, crate::controller::cache_reader::ReadError::Status(_))) {
                    tags.push(Tag::Failed);
                }
                if matches!(answer, Err(crate::controller::cache_reader::ReadError::NotCached(_))) {
                    tags.push(Tag::NotCached);
                }
                if *waited_ms > 0 {
                    tags.push(Tag::WaitedForSync);
                }
            }
            Outcome::CacheMutated { found, shared, .. } => {
                if !found {
                    tags.push(Tag::NotFound);
                }
                if *shared && *found {
                    tags.push(Tag::SharedObject);
                }
            }
            Outcome::CacheReadWaits { started, .. } => {
                tags.push(Tag::WaitedForSync);
                if *started {
                    tags.push(Tag::LazyInformer);
                }
            }
        }
        // Every error status the step carries, its own and its reads', by the same rule.
        for code in self.codes() {
            status_tags(code, &mut tags);
        }
        sort::sort(&mut tags);
        tags.dedup();
        tags
    }

    /// The error status of the step's own request or read, if it failed.
    pub fn status(&self) -> Option<&Status> {
        use crate::controller::cache_reader::ReadError;
        match self {
            Outcome::ListServed { answer: Err(s), .. }
            | Outcome::ListReceived { answer: Err(s), .. }
            | Outcome::Polled { answer: Err(s), .. }
            | Outcome::WatchServed { answer: Err(s), .. }
            | Outcome::WatchOpened { answer: Err(s), .. }
            | Outcome::ConsoleWatch { answer: Err(s), .. }
            | Outcome::WatchError { status: s, .. }
            | Outcome::ApiWrite { answer: Err(s), .. }
            | Outcome::ApiAnswer { answer: Err(s), .. }
            | Outcome::KubeletReport { answer: Err(s), .. }
            | Outcome::UserWrite { answer: Err(s), .. }
            | Outcome::ApiRead { answer: Err(s), .. }
            | Outcome::CacheRead { answer: Err(ReadError::Status(s)), .. } => Some(s),
            _ => None,
        }
    }

    /// The HTTP status code of the step's own failed request (an outside client's included).
    pub fn code(&self) -> Option<u16> {
        match self {
            Outcome::Outside { code, .. } => *code,
            _ => self.status().map(|s| s.code),
        }
    }

    /// Every error code the step carries: its own request's, then its reads' (a reconcile's
    /// reads through the APIReader).
    pub fn codes(&self) -> Vec<u16> {
        let reads = match self {
            Outcome::ReconcileStarts { reads, .. } | Outcome::ApiAnswer { reads, .. } => reads.as_slice(),
            _ => &[],
        };
        let read_codes = reads.iter().filter_map(|r| match r {
            Read::ApiGet { answer: Err(s) } => Some(s.code),
            _ => None,
        });
        self.code().into_iter().chain(read_codes).collect()
    }
}

fn decision_tag(d: &Decision) -> Option<Tag> {
    Some(match d {
        Decision::ReadFailed { error: ReadError::NotCached(_), .. } => Tag::NotCached,
        Decision::ReadFailed { error, .. } if error.is_not_found() => Tag::NotFound,
        Decision::ReadFailed { .. } => Tag::Failed,
        Decision::WaitingExpectations { .. } => Tag::WaitingExpectations,
        Decision::WillCreate { .. } => Tag::Create,
        Decision::WillDelete { .. } => Tag::Delete,
        Decision::AlreadyStamped { .. } => Tag::NothingToDo,
        Decision::Counted { want, have, .. } if want == have => Tag::NothingToDo,
        _ => return None,
    })
}

fn add_tag(add: AddOutcome) -> Tag {
    match add {
        AddOutcome::Queued => Tag::Queued,
        AddOutcome::AlreadyQueued | AddOutcome::PriorityRaised => Tag::Deduplicated,
        AddOutcome::WhileProcessing => Tag::WhileProcessing,
        AddOutcome::AlreadyDirty => Tag::AlreadyDirty,
        AddOutcome::ShuttingDown => Tag::Ignored,
    }
}

/// One step of a run: where its message went, what kind of step it was, the object it was
/// about, and its typed outcome. The page animates these, tests and lessons assert on them,
/// the command line prints them (rendered by `crate::i18n`).
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    pub outcome: Outcome,
}

/// The event of step n is made by the world at step n - 1: a new branch from that step
/// forgets it.
impl crate::kernel::AtStep for TraceEvent {
    fn at_step(&self) -> u64 {
        self.step - 1
    }
}

impl TraceEvent {
    pub fn has(&self, tag: Tag) -> bool {
        self.outcome.tags().contains(&tag)
    }
}
