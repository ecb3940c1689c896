//! The world: one cluster (store + API server) and one client (Reflector → DeltaFIFO →
//! informer → indexer → handlers → workqueue → reconciler), wired by a single routing loop
//! over a scheduler in virtual time (DESIGN: sans-IO components, one step = one delivered
//! message = one trace event; semantics §9).
//!
//! Network latency separates the client from the API server (each way). Hops inside the
//! client take no virtual time but are still one step each, in the order they were sent.
//! Timers (watch timeouts, resync checks, bookmarks) are background: a world whose only
//! pending messages are timers is idle.

mod basic;
mod config;
mod history;
mod message;

pub use basic::basic;
pub use config::{HandlerConfig, WorldConfig};
pub use history::History;
pub use message::{Action, Fault};

use crate::client::delta_fifo::{Delta, DeltaType, Queue};
use crate::client::reflector::{self, Command, Reflector};
use crate::client::shared_informer::{Notification, SharedInformer};
use crate::client::workqueue::{AddOutcome, Workqueue};
use crate::cluster::api_server::ListOptions;
use crate::cluster::rbac::{PolicyRule, Role, RoleBinding, Subject};
use crate::cluster::watch::{ApiWatchId, WatchEvent};
use crate::cluster::{ApiObject, ApiServer, Status, UserInfo};
use crate::sim::{Millis, Rng, Scheduler, Stage, TraceEvent, TraceKind};
use message::{FifoOp, Msg};
use std::collections::{BTreeSet, VecDeque};

/// The name of the ClusterRole (and binding) that grants the controller its verbs.
pub const CONTROLLER_ROLE: &str = "playground-controller";

/// What the reconciler is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Worker {
    Idle,
    Reconciling { key: String, since: Millis },
}

#[derive(Clone, Debug)]
pub struct World {
    pub config: WorldConfig,
    now: Millis,
    steps: u64,
    rng: Rng,
    sched: Scheduler<Msg>,
    /// Pending messages that are not timers: zero means idle.
    foreground: usize,
    pub api: ApiServer,
    pub reflector: Reflector,
    pub informer: SharedInformer,
    pub queue: Workqueue,
    pub worker: Worker,
    /// The deltas of the item being processed, and its `isInInitialList`.
    popping: Option<(VecDeque<Delta>, bool)>,
    pop_pending: bool,
    listener_pending: Vec<bool>,
    worker_pending: bool,
    /// Watches the client stopped reading: what is still in flight for them is lost.
    abandoned: BTreeSet<ApiWatchId>,
    /// Server-side watches whose events the world forwards to the reflector.
    open_watches: BTreeSet<ApiWatchId>,
    resync_generation: u64,
    backoff_generation: u64,
    drop_next_event: bool,
    user: UserInfo,
    pub reconciles: u64,
    pub last_reconciled: Option<(String, String)>,
}

impl World {
    /// A world at time 0 with `objects` already in the cluster; the reflector starts at once.
    pub fn new(config: WorldConfig, objects: Vec<ApiObject>) -> Result<Self, Status> {
        let mut api = ApiServer::new(config.api.clone());
        for obj in objects {
            api.create(&UserInfo::admin(), obj)?;
        }
        let user = UserInfo::service_account(&config.controller_namespace, &config.controller_name);
        let kind = config.reflector.kind;
        let resource = kind.resource();
        api.rbac_mut().put_role(Role {
            namespace: String::new(),
            name: CONTROLLER_ROLE.into(),
            rules: vec![PolicyRule::new(
                &config.granted_verbs.iter().map(String::as_str).collect::<Vec<_>>(),
                &[kind.group()],
                &[resource],
            )],
        });
        api.rbac_mut().put_binding(RoleBinding {
            namespace: String::new(),
            name: CONTROLLER_ROLE.into(),
            role_is_cluster_role: true,
            role_name: CONTROLLER_ROLE.into(),
            subjects: vec![Subject::ServiceAccount {
                namespace: config.controller_namespace.clone(),
                name: config.controller_name.clone(),
            }],
        });
        let mut informer = SharedInformer::new(config.resync_ms);
        for h in &config.handlers {
            informer.add_event_handler(&h.name, h.resync_ms, 0);
        }
        informer.start(0);
        let listener_pending = vec![false; informer.listeners.len()];
        let mut world = World {
            rng: Rng::new(config.seed),
            reflector: Reflector::new(config.reflector.clone(), 0),
            queue: Workqueue::default(),
            config,
            now: 0,
            steps: 0,
            sched: Scheduler::default(),
            foreground: 0,
            api,
            informer,
            worker: Worker::Idle,
            popping: None,
            pop_pending: false,
            listener_pending,
            worker_pending: false,
            abandoned: BTreeSet::new(),
            open_watches: BTreeSet::new(),
            resync_generation: 0,
            backoff_generation: 0,
            drop_next_event: false,
            user,
            reconciles: 0,
            last_reconciled: None,
        };
        world.schedule_at(0, Msg::ReflectorStart);
        if world.config.bookmark_interval_ms > 0 {
            world.schedule_at(world.config.bookmark_interval_ms, Msg::BookmarkTick);
        }
        Ok(world)
    }

    pub fn now(&self) -> Millis {
        self.now
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Schedules a user action or fault to happen now (it is the next step taken).
    pub fn act(&mut self, action: Action) {
        self.schedule_at(self.now, Msg::User(action));
    }

    /// Schedules a user action or fault at a later virtual time.
    pub fn act_at(&mut self, at: Millis, action: Action) {
        self.schedule_at(at.max(self.now), Msg::User(action));
    }

    /// Whether only timers are pending: the pipeline has drained.
    pub fn is_idle(&self) -> bool {
        self.foreground == 0
    }

    fn schedule_at(&mut self, at: Millis, msg: Msg) {
        if !msg.is_background() {
            self.foreground += 1;
        }
        self.sched.schedule(at, msg);
    }

    /// Pending messages (for inspectors), earliest first.
    pub fn pending(&self) -> Vec<(Millis, String)> {
        let mut all: Vec<_> = self.sched.pending().map(|(t, m)| (t, m.describe())).collect();
        all.sort();
        all
    }

    /// Delivers exactly one message and returns its trace event.
    pub fn step(&mut self) -> Option<TraceEvent> {
        let (at, msg) = self.sched.pop()?;
        if !msg.is_background() {
            self.foreground -= 1;
        }
        self.now = self.now.max(at);
        self.api.set_time(self.now);
        self.steps += 1;
        let (from, to, kind, key, rv, summary) = self.deliver(msg);
        Some(TraceEvent { step: self.steps, time_ms: self.now, from, to, kind, key, rv, summary })
    }

    /// Steps until `stop` holds for a trace event (included) or `max_steps` were taken.
    pub fn run_until(&mut self, max_steps: u64, mut stop: impl FnMut(&TraceEvent, &World) -> bool) -> Vec<TraceEvent> {
        let mut trace = Vec::new();
        for _ in 0..max_steps {
            let Some(event) = self.step() else { break };
            let done = stop(&event, self);
            trace.push(event);
            if done {
                break;
            }
        }
        trace
    }

    /// Steps until only timers are pending (or `max_steps`).
    pub fn run_until_idle(&mut self, max_steps: u64) -> Vec<TraceEvent> {
        let mut trace = Vec::new();
        while !self.is_idle() && (trace.len() as u64) < max_steps {
            match self.step() {
                Some(event) => trace.push(event),
                None => break,
            }
        }
        trace
    }

    fn later(&mut self, delay: Millis, msg: Msg) {
        self.schedule_at(self.now + delay, msg);
    }

    fn send_over_network(&mut self, msg: Msg) {
        self.later(self.config.latency_ms, msg);
    }

    /// Forwards what the API server queued on the reflector's watch streams.
    fn flush_watch_events(&mut self) {
        for id in self.open_watches.clone() {
            for event in self.api.take_events(id) {
                self.later(self.config.latency_ms, Msg::WatchEvent(id, event));
            }
            if !self.api.watch_is_open(id) {
                self.open_watches.remove(&id);
            }
        }
    }

    fn run_reflector(&mut self, input: reflector::Input) -> String {
        let commands = self.reflector.handle(input, self.now, &mut self.rng);
        let notes: Vec<String> = commands.into_iter().filter_map(|c| self.carry_out(c)).collect();
        notes.join("; ")
    }

    /// Carries out one reflector command; returns a note for the trace summary.
    fn carry_out(&mut self, command: Command) -> Option<String> {
        match command {
            Command::List(options) => {
                let note = format!("LIST {}", describe_list(&options));
                self.send_over_network(Msg::ListRequest(options));
                Some(note)
            }
            Command::Watch { options, timeout_secs } => {
                let note = format!("WATCH from rv={:?}", options.resource_version);
                self.send_over_network(Msg::WatchRequest { options, timeout_secs });
                Some(note)
            }
            Command::StopWatch(id) => {
                self.api.stop_watch(id);
                self.open_watches.remove(&id);
                self.abandoned.insert(id);
                None
            }
            Command::Replace { items, resource_version } => {
                self.later(0, Msg::Fifo(FifoOp::Replace(items, resource_version)));
                None
            }
            Command::Add(o) => {
                self.later(0, Msg::Fifo(FifoOp::Add(o)));
                None
            }
            Command::Update(o) => {
                self.later(0, Msg::Fifo(FifoOp::Update(o)));
                None
            }
            Command::Delete(o) => {
                self.later(0, Msg::Fifo(FifoOp::Delete(o)));
                None
            }
            Command::Backoff(delay) => {
                self.backoff_generation += 1;
                self.later(delay, Msg::BackoffElapsed(self.backoff_generation));
                Some(format!("backoff {}", seconds(delay)))
            }
            Command::StartResync => {
                self.resync_generation += 1;
                let period = self.informer.resync_check_period();
                if period > 0 {
                    self.later(period, Msg::ResyncTick(self.resync_generation));
                }
                None
            }
            Command::StopResync => {
                self.resync_generation += 1;
                None
            }
        }
    }

    fn schedule_pop(&mut self) {
        if !self.pop_pending && self.popping.is_none() && !self.informer.fifo.is_empty() {
            self.pop_pending = true;
            self.later(0, Msg::Pop);
        }
    }

    fn schedule_worker(&mut self) {
        if !self.worker_pending && self.worker == Worker::Idle && !self.queue.is_empty() {
            self.worker_pending = true;
            self.later(0, Msg::WorkerGet);
        }
    }

    fn deliver(&mut self, msg: Msg) -> (Stage, Stage, TraceKind, String, i64, String) {
        use Stage::*;
        match msg {
            Msg::ReflectorStart => {
                let note = self.run_reflector(reflector::Input::Start);
                (Reflector, Reflector, TraceKind::ListRequest, String::new(), 0, format!("ListAndWatch starts: {note}"))
            }
            Msg::ListRequest(options) => {
                let result = self.api.list(&self.user, self.config.reflector.kind, &options);
                let (kind, summary, rv) = match &result {
                    Ok(list) => (
                        TraceKind::ListRequest,
                        format!(
                            "{} → {} items at rv {}",
                            describe_list(&options),
                            list.items.len(),
                            list.resource_version
                        ),
                        list.resource_version,
                    ),
                    Err(s) => {
                        (TraceKind::RequestFailed, format!("{} → {} {}", describe_list(&options), s.code, s.reason), 0)
                    }
                };
                self.send_over_network(Msg::ListResponse(result));
                (Reflector, ApiServer, kind, String::new(), rv, summary)
            }
            Msg::ListResponse(result) => {
                let (kind, rv, head) = match &result {
                    Ok(list) => (
                        TraceKind::ListResponse,
                        list.resource_version,
                        format!("{} items at rv {}", list.items.len(), list.resource_version),
                    ),
                    Err(s) => (TraceKind::RequestFailed, 0, s.to_string()),
                };
                let note = self.run_reflector(reflector::Input::ListResponse(result));
                (ApiServer, Reflector, kind, String::new(), rv, join(head, note))
            }
            Msg::WatchRequest { options, timeout_secs } => {
                let result = self.api.watch(&self.user, self.config.reflector.kind, &options);
                let summary = match &result {
                    Ok(id) => {
                        self.open_watches.insert(*id);
                        self.schedule_at(self.now + timeout_secs * 1000, Msg::WatchTimeout(*id));
                        format!("watch #{id} from rv={:?}, timeoutSeconds={timeout_secs}", options.resource_version)
                    }
                    Err(s) => format!("{} {}", s.code, s.reason),
                };
                self.send_over_network(Msg::WatchOpened(result));
                self.flush_watch_events();
                (
                    Reflector,
                    ApiServer,
                    TraceKind::WatchRequest,
                    String::new(),
                    options.resource_version.parse().unwrap_or(0),
                    summary,
                )
            }
            Msg::WatchOpened(result) => {
                let (kind, head) = match &result {
                    Ok(id) => (TraceKind::WatchStarted, format!("watch #{id} streaming")),
                    Err(s) => (TraceKind::RequestFailed, s.to_string()),
                };
                let note = self.run_reflector(reflector::Input::WatchOpened(result));
                (ApiServer, Reflector, kind, String::new(), 0, join(head, note))
            }
            Msg::WatchEvent(id, event) => self.deliver_watch_event(id, event),
            Msg::WatchTimeout(id) => {
                if !self.api.watch_is_open(id) {
                    return (
                        ApiServer,
                        ApiServer,
                        TraceKind::WatchClosed,
                        String::new(),
                        0,
                        format!("watch #{id} already closed"),
                    );
                }
                self.api.stop_watch(id);
                self.open_watches.remove(&id);
                self.send_over_network(Msg::WatchEnded(id));
                (
                    ApiServer,
                    ApiServer,
                    TraceKind::WatchClosed,
                    String::new(),
                    0,
                    format!("watch #{id} reached its timeout: the server ends the stream"),
                )
            }
            Msg::WatchEnded(id) => {
                if self.reflector.current_watch() != Some(id) {
                    return (
                        ApiServer,
                        Reflector,
                        TraceKind::WatchClosed,
                        String::new(),
                        0,
                        format!("watch #{id} ended (no longer read)"),
                    );
                }
                let note = self.run_reflector(reflector::Input::WatchEnded);
                let rv = self.reflector.last_sync_resource_version.parse().unwrap_or(0);
                (
                    ApiServer,
                    Reflector,
                    TraceKind::WatchClosed,
                    String::new(),
                    rv,
                    join(format!("watch #{id} ended"), note),
                )
            }
            Msg::BackoffElapsed(generation) => {
                if generation != self.backoff_generation {
                    return (Reflector, Reflector, TraceKind::Backoff, String::new(), 0, "stale backoff timer".into());
                }
                let note = self.run_reflector(reflector::Input::BackoffElapsed);
                (Reflector, Reflector, TraceKind::Backoff, String::new(), 0, join("backoff elapsed".into(), note))
            }
            Msg::ResyncTick(generation) => {
                if generation != self.resync_generation {
                    return (Reflector, Reflector, TraceKind::Resync, String::new(), 0, "resync timer stopped".into());
                }
                let period = self.informer.resync_check_period();
                self.later(period, Msg::ResyncTick(generation));
                if !self.informer.should_resync(self.now) {
                    return (
                        Reflector,
                        Reflector,
                        TraceKind::Resync,
                        String::new(),
                        0,
                        "resync check: no handler due".into(),
                    );
                }
                let SharedInformer { fifo, indexer, .. } = &mut self.informer;
                let queued = fifo.resync(indexer);
                self.schedule_pop();
                (
                    Reflector,
                    DeltaFifo,
                    TraceKind::Resync,
                    String::new(),
                    0,
                    format!("Resync: {queued} Sync deltas for known objects"),
                )
            }
            Msg::Fifo(op) => self.deliver_fifo(op),
            Msg::Pop => {
                self.pop_pending = false;
                let Some(popped) = self.informer.fifo.pop() else {
                    return (DeltaFifo, Informer, TraceKind::Pop, String::new(), 0, "queue empty".into());
                };
                let types: Vec<&str> = popped.deltas.iter().map(|d| d.kind.name()).collect();
                let rv = popped.deltas.last().map_or(0, |d| d.object.resource_version());
                let summary = format!(
                    "Pop {} [{}]{}",
                    popped.key,
                    types.join(", "),
                    if popped.is_in_initial_list { " (initial list)" } else { "" }
                );
                self.popping = Some((popped.deltas.into(), popped.is_in_initial_list));
                self.later(0, Msg::ProcessDelta);
                (DeltaFifo, Informer, TraceKind::Pop, popped.key, rv, summary)
            }
            Msg::ProcessDelta => self.deliver_process_delta(),
            Msg::ListenerRun(i) => self.deliver_listener(i),
            Msg::WorkqueueAdd(key) => {
                let outcome = self.queue.add(&key);
                self.schedule_worker();
                let what = match outcome {
                    AddOutcome::Queued => "queued".to_string(),
                    AddOutcome::AlreadyQueued => "already queued: deduplicated".into(),
                    AddOutcome::WhileProcessing => "being reconciled: runs again after Done".into(),
                    AddOutcome::ShuttingDown => "shutting down: ignored".into(),
                };
                (Handler, Workqueue, TraceKind::WorkqueueAdd, key.clone(), 0, format!("Add({key}): {what}"))
            }
            Msg::WorkerGet => {
                self.worker_pending = false;
                let Some(key) = self.queue.get() else {
                    return (Workqueue, Reconciler, TraceKind::WorkqueueGet, String::new(), 0, "nothing to do".into());
                };
                self.worker = Worker::Reconciling { key: key.clone(), since: self.now };
                self.later(self.config.reconcile_ms, Msg::ReconcileEnd(key.clone()));
                (
                    Workqueue,
                    Reconciler,
                    TraceKind::WorkqueueGet,
                    key.clone(),
                    0,
                    format!("Get() → {key}: reconcile starts"),
                )
            }
            Msg::ReconcileEnd(key) => {
                self.reconciles += 1;
                let (seen, rv) = match self.informer.indexer.get_by_key(&key) {
                    Some(obj) => {
                        (format!("found in the cache at rv {}", obj.metadata.resource_version), obj.resource_version())
                    }
                    None => ("not in the cache: deleted".to_string(), 0),
                };
                self.last_reconciled = Some((key.clone(), seen.clone()));
                self.later(0, Msg::WorkqueueDone(key.clone()));
                (
                    Reconciler,
                    Workqueue,
                    TraceKind::ReconcileEnd,
                    key.clone(),
                    rv,
                    format!("reconcile {key}: {seen}; success"),
                )
            }
            Msg::WorkqueueDone(key) => {
                self.queue.forget(&key);
                let again = self.queue.done(&key);
                self.worker = Worker::Idle;
                self.schedule_worker();
                let note = if again { "re-added meanwhile: queued again" } else { "done" };
                (
                    Reconciler,
                    Workqueue,
                    TraceKind::WorkqueueDone,
                    key.clone(),
                    0,
                    format!("Forget + Done({key}): {note}"),
                )
            }
            Msg::BookmarkTick => {
                self.later(self.config.bookmark_interval_ms, Msg::BookmarkTick);
                self.api.send_bookmarks();
                self.flush_watch_events();
                (
                    ApiServer,
                    ApiServer,
                    TraceKind::Bookmark,
                    String::new(),
                    self.api.store().revision(),
                    "bookmark sent to watchers that allow them".into(),
                )
            }
            Msg::User(action) => self.deliver_action(action),
        }
    }

    fn deliver_watch_event(
        &mut self,
        id: ApiWatchId,
        event: WatchEvent,
    ) -> (Stage, Stage, TraceKind, String, i64, String) {
        let kind = match &event {
            WatchEvent::Added(_) => TraceKind::Added,
            WatchEvent::Modified(_) => TraceKind::Modified,
            WatchEvent::Deleted(_) => TraceKind::Deleted,
            WatchEvent::Bookmark(_) => TraceKind::Bookmark,
            WatchEvent::Error(_) => TraceKind::WatchError,
        };
        let key = event.object().map(ApiObject::key).unwrap_or_default();
        let rv = event.resource_version();
        if self.abandoned.contains(&id) || self.reflector.current_watch() != Some(id) {
            let summary = format!("{} on watch #{id} lost: the stream was closed", event.type_name());
            return (Stage::ApiServer, Stage::Reflector, TraceKind::EventLost, key, rv, summary);
        }
        if self.drop_next_event && kind != TraceKind::Bookmark {
            self.drop_next_event = false;
            let summary = format!("{} dropped (injected fault)", event.type_name());
            return (Stage::ApiServer, Stage::Reflector, TraceKind::EventLost, key, rv, summary);
        }
        let head = match &event {
            WatchEvent::Error(s) => s.to_string(),
            other => format!("{} {key}", other.type_name()),
        };
        let note = self.run_reflector(reflector::Input::Event(event));
        (Stage::ApiServer, Stage::Reflector, kind, key, rv, join(head, note))
    }

    fn deliver_fifo(&mut self, op: FifoOp) -> (Stage, Stage, TraceKind, String, i64, String) {
        let SharedInformer { fifo, indexer, .. } = &mut self.informer;
        let result = match op {
            FifoOp::Replace(items, rv) => {
                let n = items.len();
                fifo.replace(items, indexer);
                (
                    TraceKind::Replace,
                    String::new(),
                    rv,
                    format!("Replace({n} objects, rv {rv}): {} keys queued", fifo.len()),
                )
            }
            FifoOp::Add(o) => {
                let (key, rv) = (o.key(), o.resource_version());
                fifo.add(o);
                (TraceKind::DeltaQueued, key.clone(), rv, format!("Added {key}"))
            }
            FifoOp::Update(o) => {
                let (key, rv) = (o.key(), o.resource_version());
                fifo.update(o);
                (TraceKind::DeltaQueued, key.clone(), rv, format!("Updated {key}"))
            }
            FifoOp::Delete(o) => {
                let (key, rv) = (o.key(), o.resource_version());
                let queued = fifo.delete(o, indexer);
                let note = if queued { "" } else { " ignored: not known" };
                (TraceKind::DeltaQueued, key.clone(), rv, format!("Deleted {key}{note}"))
            }
        };
        self.schedule_pop();
        let (kind, key, rv, summary) = result;
        let waiting = self.informer.fifo.deltas(&key).map_or(0, <[Delta]>::len);
        let summary = if waiting > 1 { format!("{summary} ({waiting} deltas waiting)") } else { summary };
        (Stage::Reflector, Stage::DeltaFifo, kind, key, rv, summary)
    }

    fn deliver_process_delta(&mut self) -> (Stage, Stage, TraceKind, String, i64, String) {
        let Some((mut deltas, initial)) = self.popping.take() else {
            return (
                Stage::Informer,
                Stage::Indexer,
                TraceKind::IndexerWrite,
                String::new(),
                0,
                "nothing to process".into(),
            );
        };
        let Some(delta) = deltas.pop_front() else {
            self.schedule_pop();
            return (
                Stage::Informer,
                Stage::Indexer,
                TraceKind::IndexerWrite,
                String::new(),
                0,
                "nothing to process".into(),
            );
        };
        let kind = delta.kind;
        let tombstone = delta.object.is_tombstone();
        let applied = self.informer.process_delta(delta, initial);
        for (i, was_idle) in &applied.notified {
            if *was_idle && !self.listener_pending[*i] {
                self.listener_pending[*i] = true;
                self.later(0, Msg::ListenerRun(*i));
            }
        }
        if deltas.is_empty() {
            self.schedule_pop_after_processing();
        } else {
            self.popping = Some((deltas, initial));
            self.later(0, Msg::ProcessDelta);
        }
        let what = if tombstone { " (DeletedFinalStateUnknown)" } else { "" };
        let sync = if matches!(kind, DeltaType::Sync | DeltaType::Replaced)
            && applied.notified.len() < self.informer.listeners.len()
        {
            format!(", {} of {} handlers notified", applied.notified.len(), self.informer.listeners.len())
        } else {
            String::new()
        };
        let summary = format!(
            "{} {}: indexer {} → {}{what}{sync}",
            kind.name(),
            applied.key,
            applied.write,
            applied.notification
        );
        (Stage::Informer, Stage::Indexer, TraceKind::IndexerWrite, applied.key, applied.rv, summary)
    }

    fn schedule_pop_after_processing(&mut self) {
        self.popping = None;
        self.schedule_pop();
    }

    fn deliver_listener(&mut self, i: usize) -> (Stage, Stage, TraceKind, String, i64, String) {
        self.listener_pending[i] = false;
        let Some(n) = self.informer.next_notification(i) else {
            return (
                Stage::Informer,
                Stage::Handler,
                TraceKind::HandlerCall,
                String::new(),
                0,
                "nothing buffered".into(),
            );
        };
        if !self.informer.listeners[i].buffer.is_empty() {
            self.listener_pending[i] = true;
            self.later(0, Msg::ListenerRun(i));
        }
        let handler = self.config.handlers[i].clone();
        let (key, rv) = (n.key(), n.resource_version());
        let detail = match &n {
            Notification::Add { is_in_initial_list: true, .. } => " (isInInitialList)",
            Notification::Update { old, new } if old.metadata.resource_version == new.metadata.resource_version => {
                " (resync: same rv)"
            }
            Notification::Delete(d) if d.is_tombstone() => " (DeletedFinalStateUnknown)",
            _ => "",
        };
        let mut summary = format!("{}.{}({key}){detail}", handler.name, n.name());
        if handler.enqueue {
            self.later(0, Msg::WorkqueueAdd(key.clone()));
            summary.push_str(" → queue.Add");
        }
        (Stage::Informer, Stage::Handler, TraceKind::HandlerCall, key, rv, summary)
    }

    fn deliver_action(&mut self, action: Action) -> (Stage, Stage, TraceKind, String, i64, String) {
        let admin = UserInfo::admin();
        let mut to = Stage::ApiServer;
        let (kind, key, rv, summary) = match action {
            Action::Create(obj) => write_summary("create", obj.key(), self.api.create(&admin, obj)),
            Action::Update(obj) => write_summary("update", obj.key(), self.api.update(&admin, obj)),
            Action::UpdateStatus(obj) => write_summary("update status", obj.key(), self.api.update_status(&admin, obj)),
            Action::Delete { kind, namespace, name } => {
                let key = format!("{namespace}/{name}");
                write_summary("delete", key, self.api.delete(&admin, kind, &namespace, &name))
            }
            Action::Fault(fault) => {
                let (stage, summary) = self.inject(fault);
                to = stage;
                (TraceKind::Fault, String::new(), 0, summary)
            }
        };
        self.flush_watch_events();
        (Stage::User, to, kind, key, rv, summary)
    }

    /// Applies a fault; returns the stage it hits and what happened.
    fn inject(&mut self, fault: Fault) -> (Stage, String) {
        let stage = fault.stage();
        let summary = match fault {
            Fault::DisconnectWatch => match self.reflector.current_watch() {
                Some(id) => {
                    self.api.stop_watch(id);
                    self.open_watches.remove(&id);
                    self.abandoned.insert(id);
                    self.later(0, Msg::WatchEnded(id));
                    format!("watch #{id} disconnected: events in flight are lost")
                }
                None => "no watch open to disconnect".into(),
            },
            Fault::CompactStore => {
                let rev = self.api.store().revision();
                match self.api.compact(rev) {
                    Ok(()) => format!("etcd compacted at revision {rev}"),
                    Err(e) => format!("compaction failed: {}", e.grpc_message()),
                }
            }
            Fault::RestartApiServer => {
                for id in std::mem::take(&mut self.open_watches) {
                    self.later(self.config.latency_ms, Msg::WatchEnded(id));
                }
                self.api.restart();
                "API server restarted: watches closed, watch cache re-initialised from a LIST".into()
            }
            Fault::Revoke(verb) => {
                self.set_verb(&verb, false);
                format!("RBAC: {verb} revoked from {}", self.user.name)
            }
            Fault::Grant(verb) => {
                self.set_verb(&verb, true);
                format!("RBAC: {verb} granted to {}", self.user.name)
            }
            Fault::DropNextEvent => {
                self.drop_next_event = true;
                "the next watch event will be dropped (what-if)".into()
            }
            Fault::Latency(ms) => {
                self.config.latency_ms = ms;
                format!("network latency set to {ms} ms")
            }
        };
        (stage, summary)
    }

    fn set_verb(&mut self, verb: &str, granted: bool) {
        if let Some(role) = self.api.rbac_mut().role_mut("", CONTROLLER_ROLE) {
            for rule in &mut role.rules {
                rule.verbs.retain(|v| v != verb);
                if granted {
                    rule.verbs.push(verb.to_string());
                }
            }
        }
    }

    /// The identity the controller's requests carry.
    pub fn controller_user(&self) -> &UserInfo {
        &self.user
    }

    /// The reflector's log, one klog line each.
    pub fn log_lines(&self) -> Vec<String> {
        self.reflector.log.iter().map(ToString::to_string).collect()
    }
}

fn write_summary(verb: &str, key: String, result: Result<ApiObject, Status>) -> (TraceKind, String, i64, String) {
    match result {
        Ok(obj) => {
            let rv = obj.resource_version();
            let rv = if verb == "delete" { 0 } else { rv };
            (TraceKind::ApiWrite, key.clone(), rv, format!("{verb} {} {key}", obj.kind))
        }
        Err(s) => (TraceKind::ApiWrite, key, 0, format!("{verb} failed: {s}")),
    }
}

fn describe_list(o: &ListOptions) -> String {
    let mut parts = vec![format!("resourceVersion={:?}", o.resource_version)];
    if o.limit > 0 {
        parts.push(format!("limit={}", o.limit));
    }
    if !o.continue_token.is_empty() {
        parts.push("continue=…".into());
    }
    parts.join("&")
}

fn seconds(ms: Millis) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

fn join(head: String, note: String) -> String {
    if note.is_empty() {
        head
    } else {
        format!("{head}; {note}")
    }
}
