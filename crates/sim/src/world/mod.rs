//! The world: one cluster (store + API server) and one controller process — an informer per
//! watched kind (Reflector → FIFO → informer → indexer → handlers) shared by its controllers,
//! each with its own workqueue and reconcile workers — plus an optional kubelet and polling
//! client, wired by a single routing
//! loop over a scheduler in virtual time (ARCHITECTURE.md's principles: sans-IO
//! components, one step = one delivered message = one trace event; semantics §9).
//!
//! Network latency separates clients from the API server (each way). Hops inside a client
//! take no virtual time but are still one step each, in the order they were sent. Timers
//! (watch timeouts, resync checks, bookmarks, polls) are background: a world whose only
//! pending messages are timers is idle.

mod actions;
mod basic;
mod config;
mod console_watches;
mod costs;
pub mod fast_forward;
mod faults;
mod history;
mod informer_cache;
mod informers;
mod kubelet;
mod message;
pub mod outcome;
mod outside;
mod workers;

pub use crate::controller::handler::Enqueue;
pub use basic::{bare, basic, built_in, scale, scale_with_load, BARE_ACCOUNTS};
pub use config::{ControllerConfig, HandlerConfig, InformerConfig, PollConfig, WorldConfig, DEFAULT_SYNC_PERIOD_MS};
pub use console_watches::ConsoleEvent;
pub use costs::{Costs, StatusClock};
pub use history::{History, MAX_SNAPSHOTS};
pub use informers::InformerStack;
pub use message::{Fault, Intervention};
pub use outcome::{Outcome, Tag, TraceEvent};
#[cfg(not(feature = "linked"))]
pub use outside::install_outside_server;
pub use outside::{OutsideAnswer, OutsideCall, OutsideRequest, ServedChange, ServedEntry, ServedInput, ServedResult};
pub use outside::{OutsideServer, OUTSIDE_SERVER};
pub use workers::{Controller, Worker};

use crate::client::reflector::Reflector;
use crate::client::shared_informer::SharedInformer;
use crate::cluster::api_errors::TooLongWords;
use crate::cluster::cacher::PROGRESS_NOTIFY_INTERVAL_MS;
use crate::cluster::rbac::{PolicyRule, Role, RoleBinding, Subject};
use crate::cluster::registry::WriteRules;
use crate::cluster::storage::ContinueKey;
use crate::cluster::{ApiObject, ApiServer, ApiServerConfig, Kind, Status, UserInfo};
use crate::controller::kubelet::Kubelet;
use crate::controller::poller::Poller;
use crate::kernel::{sort, Millis, Rng, Scheduler, Stage, TraceKind};
use console_watches::ConsoleWatches;
use message::Msg;

/// controller-runtime's `calculateResyncPeriod`: SyncPeriod · [0.9, 1.1), per informer.
fn resync_period(sync_period_ms: Millis, rng: &mut Rng) -> Millis {
    if sync_period_ms == 0 {
        0
    } else {
        (sync_period_ms as f64 * (rng.float64() / 5.0 + 0.9)) as Millis
    }
}

/// The name of the ClusterRole (and binding) that grants the controller its verbs.
pub const CONTROLLER_ROLE: &str = "playground-controller";

/// What one delivered message did: the trace event's content.
pub struct Hop {
    from: Stage,
    to: Stage,
    kind: TraceKind,
    key: String,
    rv: i64,
    outcome: Outcome,
}

impl Hop {
    /// A hop about no object in particular.
    fn plain(from: Stage, to: Stage, kind: TraceKind, outcome: Outcome) -> Self {
        Hop::new(from, to, kind, "", 0, outcome)
    }

    fn new(from: Stage, to: Stage, kind: TraceKind, key: &str, rv: i64, outcome: Outcome) -> Self {
        Hop { from, to, kind, key: key.to_string(), rv, outcome }
    }
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
    pub informers: Vec<InformerStack>,
    /// The controllers; their workers are numbered across all of them in `workers`.
    pub controllers: Vec<Controller>,
    pub workers: Vec<Worker>,
    worker_pending: Vec<bool>,
    kubelet: Option<Kubelet>,
    poller: Option<Poller>,
    /// Watches the console (`kubectl get -w`) prints, and what they delivered.
    console: ConsoleWatches,
    drop_next_notification: bool,
    user: UserInfo,
    status_clock: StatusClock,
    /// When the cacher's bookmark timer is set to fire next.
    bookmark_tick: Option<Millis>,
    /// Cache reads waiting for their informer to sync, answered or not, in the order made.
    waiting_reads: Vec<informer_cache::WaitingRead>,
    /// The answer to the outside request served at the last step, until it is taken.
    outside_answer: Option<Result<OutsideAnswer, Status>>,
}

impl World {
    /// A world at time 0 with `objects` already in the cluster; the reflectors start at once.
    pub fn new(config: WorldConfig, objects: Vec<ApiObject>) -> Result<Self, Status> {
        // The era decides what the API server accepts.
        let api_config = ApiServerConfig {
            watch_list: config.era.watch_list_server(),
            list_from_cache_snapshot: config.era.list_from_cache_snapshot(),
            cache_delegator: config.era.cache_delegator(),
            write_rules: WriteRules {
                pod_generation: config.era.pod_generation(),
                generated_name_attempts: config.era.generated_name_attempts(),
                too_long_words: match config.era.too_long_may_not_be_more() {
                    true => TooLongWords::MayNotBeMoreThan,
                    false => TooLongWords::MustHaveAtMost,
                },
                uid_immutable_twice: config.era.uid_immutable_twice(),
            },
            future_revision_too_large: config.era.future_revision_too_large(),
            etcd_continue_key: match config.era.etcd_continue_key_with_slash() {
                true => ContinueKey::WithSlash,
                false => ContinueKey::AfterSlash,
            },
            ..config.api.clone()
        };
        let mut api = ApiServer::new(api_config);
        for obj in objects {
            // The cluster has every namespace the world's objects are in.
            if !obj.metadata.namespace.is_empty() {
                api.ensure_namespace(&obj.metadata.namespace);
            }
            api.create(&UserInfo::admin(), obj)?;
        }
        // The run's costs start now, not with the cluster's set-up.
        api.reset_metrics();
        let user = UserInfo::service_account(&config.controller_namespace, &config.controller_name);
        let verbs: Vec<&str> = config.granted_verbs.iter().map(|v| v.rbac()).collect();
        let mut kinds: Vec<Kind> = config.informers.iter().map(|i| i.reflector.kind).collect();
        kinds.extend(config.poll.iter().map(|p| p.kind));
        kinds.extend(&config.granted_kinds);
        sort::sort(&mut kinds);
        kinds.dedup();
        let rules = kinds
            .iter()
            .map(|k| PolicyRule::new(&verbs, &[k.group()], &[k.resource(), &format!("{}/status", k.resource())]))
            .collect();
        api.rbac_mut().put_role(Role { namespace: String::new(), name: CONTROLLER_ROLE.into(), rules });
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
        let mut rng = Rng::new(config.seed);
        let informers: Vec<InformerStack> = config
            .informers
            .iter()
            .map(|c| InformerStack::new(c.clone(), resync_period(config.sync_period_ms, &mut rng), config.era, 0))
            .collect();
        let mut controllers = Vec::new();
        for (c, cc) in config.controllers.iter().enumerate() {
            let first = controllers.last().map_or(0, |c: &Controller| c.workers.end);
            let sources = (0..config.informers.len())
                .filter(|i| config.informers[*i].handlers.iter().any(|h| h.controller == c))
                .collect();
            controllers.push(Controller::new(cc, config.era, first, sources));
        }
        let workers = controllers.last().map_or(0, |c| c.workers.end);
        let mut world = World {
            rng,
            sched: Scheduler::default(),
            foreground: 0,
            now: 0,
            steps: 0,
            api,
            informers,
            controllers,
            workers: vec![Worker::Idle; workers],
            worker_pending: vec![false; workers],
            kubelet: config.kubelet.then(Kubelet::default),
            poller: config.poll.as_ref().map(|p| Poller { kind: p.kind, every_ms: p.every_ms }),
            console: ConsoleWatches::default(),
            drop_next_notification: false,
            user,
            status_clock: StatusClock::default(),
            bookmark_tick: None,
            waiting_reads: Vec::new(),
            outside_answer: None,
            config,
        };
        for i in 0..world.informers.len() {
            world.schedule_at(world.config.cache_start_ms, Msg::ReflectorStart(i));
        }
        world.schedule_at(PROGRESS_NOTIFY_INTERVAL_MS, Msg::ProgressNotify);
        if world.poller.is_some() {
            world.schedule_at(0, Msg::PollTick);
        }
        world.start_kubelet();
        world.flush_kubelet();
        world.start_workers_once_synced();
        Ok(world)
    }

    pub fn now(&self) -> Millis {
        self.now
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Roughly how many objects a copy of this world keeps track of: stored keys, and
    /// everything queued in the informers. Asked for every snapshot, so it counts without
    /// reading the objects.
    pub fn footprint(&self) -> usize {
        self.api.stored_keys()
            + self
                .informers
                .iter()
                .map(|s| s.pipeline.informer.fifo.len() + s.pipeline.informer.indexer.len())
                .sum::<usize>()
    }

    /// The first informer (the controller's own kind).
    pub fn informer(&self) -> &SharedInformer {
        &self.informers[0].pipeline.informer
    }

    pub fn reflector(&self) -> &Reflector {
        &self.informers[0].pipeline.reflector
    }

    /// The informer watching `kind`, if any.
    pub fn informer_for(&self, kind: Kind) -> Option<&InformerStack> {
        self.informers.iter().find(|s| s.config.reflector.kind == kind)
    }

    /// Schedules a user action or fault to happen now: it is the next step taken. A served
    /// change is made at once, without a step.
    pub fn act(&mut self, action: Intervention) {
        match action {
            Intervention::Served(change) => self.served_change(change),
            action => {
                self.foreground += 1;
                self.sched.schedule_first(self.now, Msg::User(action));
            }
        }
    }

    /// Schedules a user action or fault at a later virtual time (a served change is made at once).
    pub fn act_at(&mut self, at: Millis, action: Intervention) {
        match action {
            Intervention::Served(change) => self.served_change(change),
            action => self.schedule_at(at.max(self.now), Msg::User(action)),
        }
    }

    /// Makes a served change through the outside server (only a served world has them).
    fn served_change(&mut self, change: ServedChange) {
        if let Some(server) = outside::outside_server() {
            (server.change)(self, change);
        }
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

    fn later(&mut self, delay: Millis, msg: Msg) {
        self.schedule_at(self.now + delay, msg);
    }

    /// What the console's watches delivered: (step, time, kind, event).
    pub fn console_events(&self) -> &[ConsoleEvent] {
        self.console.events()
    }

    /// When the next pending message is due.
    pub fn next_time(&self) -> Option<Millis> {
        self.sched.peek_time()
    }

    /// Pending messages (for inspectors), earliest first.
    pub fn pending(&self) -> Vec<(Millis, String)> {
        let mut all: Vec<_> = self.sched.pending().map(|(t, m)| (t, m.describe())).collect();
        sort::sort(&mut all);
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
        let hop = self.deliver(msg);
        Some(self.trace_event(hop))
    }

    /// The trace event of the step just taken.
    fn trace_event(&self, hop: Hop) -> TraceEvent {
        TraceEvent {
            step: self.steps,
            time_ms: self.now,
            from: hop.from,
            to: hop.to,
            kind: hop.kind,
            key: hop.key,
            rv: hop.rv,
            outcome: hop.outcome,
        }
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

    fn deliver(&mut self, msg: Msg) -> Hop {
        match msg {
            Msg::ReflectorStart(i) => self.deliver_reflector_start(i),
            Msg::ListRequest(i, options) => self.deliver_list_request(i, options),
            Msg::ListResponse(i, result) => self.deliver_list_response(i, result),
            Msg::WatchRequest(i, options) => self.deliver_watch_request(i, options),
            Msg::WatchOpened(i, result) => self.deliver_watch_opened(i, result),
            Msg::WatchEvent(i, id, event) => self.deliver_watch_event(i, id, event),
            Msg::WatchTimeout(i, id) => self.deliver_watch_timeout(i, id),
            Msg::WatchEnded(i, id) => self.deliver_watch_ended(i, id),
            Msg::BackoffElapsed(i, generation) => self.deliver_backoff(i, generation),
            Msg::ResyncTick(i, generation) => self.deliver_resync(i, generation),
            Msg::Fifo(i, op) => self.deliver_fifo(i, op),
            Msg::Pop(i) => self.deliver_pop(i),
            Msg::ProcessDelta(i) => self.deliver_process_delta(i),
            Msg::ListenerRun(i, l) => self.deliver_listener(i, l),
            Msg::WorkqueueAdd(c, key, priority) => self.deliver_workqueue_add(c, key, priority),
            Msg::WorkqueueReady(c, key, at) => self.deliver_workqueue_ready(c, key, at),
            Msg::WorkerGet(w) => self.deliver_worker_get(w),
            Msg::ApiRequest(w, write) => self.deliver_api_request(w, write),
            Msg::ApiResponse(w, result) => self.deliver_api_response(w, result),
            Msg::ReconcileEnd(w) => self.deliver_reconcile_end(w),
            Msg::WorkqueueDone(w) => self.deliver_workqueue_done(w),
            Msg::KubeletStatus { namespace, name, phase } => self.deliver_kubelet(namespace, name, phase),
            Msg::PollTick => self.deliver_poll(),
            Msg::BookmarkTick => {
                self.bookmark_tick = None;
                let watchers = self.api.send_due_bookmarks();
                self.flush_watch_events();
                self.set_bookmark_timer();
                let rv = self.api.store().revision();
                Hop::new(
                    Stage::ApiServer,
                    Stage::ApiServer,
                    TraceKind::Bookmark,
                    "",
                    rv,
                    Outcome::BookmarksSent { watchers },
                )
            }
            Msg::StartWorkers(c) => self.deliver_start_workers(c),
            Msg::CacheReadAnswer(n) => self.deliver_cache_read_answer(n),
            Msg::ProgressNotify => {
                self.later(PROGRESS_NOTIFY_INTERVAL_MS, Msg::ProgressNotify);
                self.api.progress_notify();
                let rv = self.api.store().revision();
                Hop::new(Stage::Store, Stage::ApiServer, TraceKind::Bookmark, "", rv, Outcome::ProgressNotified)
            }
            Msg::User(action) => self.deliver_action(action),
        }
    }

    /// The identity the controller's requests carry.
    pub fn controller_user(&self) -> &UserInfo {
        &self.user
    }

    /// Every reflector's log, one klog line each, in time order.
    pub fn log_lines(&self) -> Vec<String> {
        let mut lines: Vec<_> = self.informers.iter().flat_map(|s| s.pipeline.reflector.log.iter()).collect();
        sort::sort_by_key(&mut lines, |l| l.time_ms);
        lines.into_iter().map(ToString::to_string).collect()
    }
}
