//! The world's controller half: each controller's workqueue, its reconcile workers and their
//! round trips to the API server (semantics §5–§6).

use super::informers::InformerStack;
use super::message::Msg;
use super::outcome::{Outcome, Read, Requeue};
use super::{Hop, World};
use crate::client::workqueue::Workqueue;
use crate::cluster::{ApiObject, Kind, Status, UserInfo};
use crate::controller::cache_reader::{self, CacheList, ReadError};
use crate::controller::reconciler::{Cache, Plan, PlanOp, ReconcileResult, Reconciler, Write};
use crate::era::Era;
use crate::kernel::{Millis, SmallMap, Stage, TraceKind};
use std::ops::Range;

/// One controller (controller-runtime's `Controller`, or one of kube-controller-manager's): a
/// reconciler, its workqueue and its workers, fed by the handlers that name it.
#[derive(Clone, Debug)]
pub struct Controller {
    pub name: String,
    pub reconciler: Reconciler,
    pub queue: Workqueue,
    /// Its workers' numbers in `World::workers`.
    pub workers: Range<usize>,
    /// The informers it has handlers on: what it waits for before its workers start.
    pub sources: Vec<usize>,
    /// Time a reconcile spends thinking before its first write or its result.
    pub reconcile_ms: Millis,
    /// Its workers take keys (its sources have synced), or are about to.
    started: bool,
    starting: bool,
    pub reconciles: u64,
    pub requeues: u64,
}

impl Controller {
    pub(super) fn new(config: &super::ControllerConfig, era: Era, first_worker: usize, sources: Vec<usize>) -> Self {
        Controller {
            name: config.name.clone(),
            reconciler: Reconciler::new(config.reconciler.clone()),
            queue: if era.priority_queue() { Workqueue::priority() } else { Workqueue::default() },
            workers: first_worker..first_worker + config.max_concurrent.max(1),
            sources,
            reconcile_ms: config.reconcile_ms,
            started: false,
            starting: false,
            reconciles: 0,
            requeues: 0,
        }
    }

    pub fn started(&self) -> bool {
        self.started
    }
}

/// What one worker is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum Worker {
    Idle,
    Reconciling {
        key: String,
        since: Millis,
        plan: Plan,
        failed: Option<String>,
        /// The resourceVersion each of this reconcile's own writes produced, by key: a cache
        /// read that returns another one is stale.
        written: SmallMap<String, i64>,
    },
}

/// The controller's reads go to the informers' caches, as they are: a reconcile runs once its
/// sources have synced, and a lesson's read waits for its informer (`informer_cache`).
struct WorldCache<'a> {
    informers: &'a mut [InformerStack],
}

impl Cache for WorldCache<'_> {
    fn get(&mut self, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, ReadError> {
        let stack = self.informers.iter().find(|s| s.config.reflector.kind == kind).ok_or_else(|| not_cached(kind))?;
        cache_reader::get(&stack.pipeline.informer.indexer, &stack.config.reflector, namespace, name)
    }

    fn list(&mut self, kind: Kind, opts: &CacheList) -> Result<Vec<ApiObject>, ReadError> {
        let stack =
            self.informers.iter_mut().find(|s| s.config.reflector.kind == kind).ok_or_else(|| not_cached(kind))?;
        cache_reader::list(&mut stack.pipeline.informer.indexer, &stack.config.reflector, opts)
    }
}

/// A kind no informer watches (controller-runtime's `ErrResourceNotCached`).
fn not_cached(kind: Kind) -> ReadError {
    ReadError::NotCached(kind)
}

impl World {
    /// A controller-runtime `Get` from the cache, as a reconciler would make it.
    pub fn cache_get(&mut self, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, ReadError> {
        WorldCache { informers: &mut self.informers }.get(kind, namespace, name)
    }

    /// A controller-runtime `List` from the cache; the informer's indexer counts what it read.
    pub fn cache_list(&mut self, kind: Kind, opts: &CacheList) -> Result<Vec<ApiObject>, ReadError> {
        WorldCache { informers: &mut self.informers }.list(kind, opts)
    }

    /// Reconciles run so far, by every controller.
    pub fn reconciles(&self) -> u64 {
        self.controllers.iter().map(|c| c.reconciles).sum()
    }

    /// Requeues so far, by every controller.
    pub fn requeues(&self) -> u64 {
        self.controllers.iter().map(|c| c.requeues).sum()
    }

    /// The controller worker `w` belongs to.
    fn controller_of_worker(&self, w: usize) -> usize {
        self.controllers.iter().position(|c| c.workers.contains(&w)).unwrap_or(0)
    }

    /// controller-runtime's `Start`, per controller: once each of its sources has synced (its
    /// informer, and in eras that wait for them its handlers too), "Starting workers".
    pub(super) fn start_workers_once_synced(&mut self) {
        let handlers = self.config.era.workers_wait_for_handlers();
        for c in 0..self.controllers.len() {
            let controller = &self.controllers[c];
            if controller.started || controller.starting {
                continue;
            }
            let synced = controller.sources.iter().all(|&i| {
                let stack = &self.informers[i];
                stack.pipeline.informer.has_synced()
                    && (!handlers
                        || stack
                            .config
                            .handlers
                            .iter()
                            .enumerate()
                            .filter(|(_, h)| h.controller == c)
                            .all(|(l, _)| stack.pipeline.informer.handler_has_synced(l)))
            });
            if synced {
                self.controllers[c].starting = true;
                self.later(0, Msg::StartWorkers(c));
            }
        }
    }

    pub(super) fn deliver_start_workers(&mut self, c: usize) -> Hop {
        self.controllers[c].started = true;
        self.schedule_workers(c);
        let controller = &self.controllers[c];
        let outcome = Outcome::WorkersStarted {
            controller: controller.name.clone(),
            workers: controller.workers.len(),
            queued: controller.queue.len(),
        };
        Hop::plain(Stage::Reconciler, Stage::Workqueue, TraceKind::WorkersStart, outcome)
    }

    /// Hands queued keys of controller `c` to its idle workers.
    pub(super) fn schedule_workers(&mut self, c: usize) {
        let controller = &self.controllers[c];
        if !controller.started {
            return;
        }
        let workers = controller.workers.clone();
        let pending = workers.clone().filter(|w| self.worker_pending[*w]).count();
        let mut available = controller.queue.len().saturating_sub(pending);
        for w in workers {
            if available == 0 {
                break;
            }
            if self.workers[w] == Worker::Idle && !self.worker_pending[w] {
                self.worker_pending[w] = true;
                available -= 1;
                self.later(0, Msg::WorkerGet(w));
            }
        }
    }

    pub(super) fn deliver_workqueue_add(&mut self, c: usize, key: String, priority: i32) -> Hop {
        let queue = &mut self.controllers[c].queue;
        let added = queue.add_with_priority(&key, priority);
        let priority = queue.is_prioritised().then_some(priority);
        self.schedule_workers(c);
        let outcome = Outcome::WorkqueueAdd { added, priority };
        Hop::new(Stage::Handler, Stage::Workqueue, TraceKind::WorkqueueAdd, &key, 0, outcome)
    }

    pub(super) fn deliver_workqueue_ready(&mut self, c: usize, key: String, at: Millis) -> Hop {
        let outcome = self.controllers[c].queue.ready(&key, at);
        self.schedule_workers(c);
        Hop::new(Stage::Workqueue, Stage::Workqueue, TraceKind::WorkqueueAdd, &key, 0, Outcome::WorkqueueReady(outcome))
    }

    pub(super) fn deliver_worker_get(&mut self, w: usize) -> Hop {
        self.worker_pending[w] = false;
        let c = self.controller_of_worker(w);
        let Some(key) = self.controllers[c].queue.get() else {
            return Hop::plain(Stage::Workqueue, Stage::Reconciler, TraceKind::WorkqueueGet, Outcome::NothingQueued);
        };
        let mut cache = WorldCache { informers: &mut self.informers };
        let plan = self.controllers[c].reconciler.plan(&key, &mut cache, &mut self.rng);
        let decisions = plan.decisions.clone();
        self.workers[w] =
            Worker::Reconciling { key: key.clone(), since: self.now, plan, failed: None, written: SmallMap::new() };
        let think = self.controllers[c].reconcile_ms;
        let reads = self.advance(w, think);
        let outcome =
            Outcome::ReconcileStarts { controller: self.controllers[c].name.clone(), worker: w, decisions, reads };
        Hop::new(Stage::Workqueue, Stage::Reconciler, TraceKind::WorkqueueGet, &key, 0, outcome)
    }

    /// Runs the plan's reads up to its next write, which is sent after `delay`; with no write
    /// left, the reconcile ends after `delay`. Returns the reads made.
    fn advance(&mut self, w: usize, delay: Millis) -> Vec<Read> {
        let mut reads = Vec::new();
        loop {
            let Worker::Reconciling { key, plan, failed, .. } = &mut self.workers[w] else { return reads };
            if failed.is_some() {
                // After a failed write the rest is skipped; what was skipped is not expected.
                let c = self.controllers.iter().position(|c| c.workers.contains(&w)).unwrap_or(0);
                for op in plan.ops.drain(..) {
                    if let PlanOp::Write(write) = op {
                        self.controllers[c].reconciler.write_failed(key, write.op());
                    }
                }
            }
            match plan.ops.pop_front() {
                Some(PlanOp::Write(write)) => {
                    self.later(delay + self.config.latency_ms, Msg::ApiRequest(w, write));
                    return reads;
                }
                Some(PlanOp::CacheGet { kind, namespace, name }) => {
                    let mut cache = WorldCache { informers: &mut self.informers };
                    let result = cache.get(kind, &namespace, &name).map(|o| o.resource_version());
                    let key = format!("{namespace}/{name}");
                    let written = match &self.workers[w] {
                        Worker::Reconciling { written, .. } => written.get(&key).copied(),
                        Worker::Idle => None,
                    };
                    // resourceVersions are opaque: only equality says anything.
                    let stale = written.filter(|rv| result.as_ref().is_ok_and(|cached| cached != rv));
                    reads.push(Read::CacheGet { result: result.map_err(|e| e.to_string()), stale });
                }
                Some(PlanOp::ApiGet { kind, namespace, name }) => {
                    let user = self.user.clone();
                    let answer = self.api.get(&user, kind, &namespace, &name, "").map(|o| o.resource_version());
                    reads.push(Read::ApiGet { answer });
                }
                None => {
                    self.later(delay, Msg::ReconcileEnd(w));
                    return reads;
                }
            }
        }
    }

    pub(super) fn deliver_api_request(&mut self, w: usize, write: Write) -> Hop {
        let user = self.user.clone();
        let (op, kind, sent, sent_rv) = (write.op(), write.kind(), write.key(), write.sent_rv());
        let result = self.controller_write(&user, write);
        if result.is_err() {
            if let Worker::Reconciling { key, .. } = &self.workers[w] {
                let c = self.controller_of_worker(w);
                self.controllers[c].reconciler.write_failed(&key.clone(), op);
            }
        }
        let key = result.as_ref().map(ApiObject::key).unwrap_or(sent);
        let answer = result.as_ref().map(ApiObject::resource_version).map_err(Clone::clone);
        let rv = *answer.as_ref().unwrap_or(&0);
        self.later(self.config.latency_ms, Msg::ApiResponse(w, result));
        self.flush_watch_events();
        Hop::new(
            Stage::Reconciler,
            Stage::ApiServer,
            TraceKind::ApiWrite,
            &key,
            rv,
            Outcome::ApiWrite { op, kind, sent_rv, answer },
        )
    }

    fn controller_write(&mut self, user: &UserInfo, write: Write) -> Result<ApiObject, Status> {
        let result = match write {
            Write::Create(o) => self.api.create(user, o),
            Write::Update(o) => self.api.update(user, o),
            Write::UpdateStatus(o) => self.api.update_status(user, o),
            Write::Delete { kind, namespace, name } => self.api.delete(user, kind, &namespace, &name),
        };
        if let Ok(obj) = &result {
            self.status_clock.status_written(obj, self.now);
        }
        result
    }

    pub(super) fn deliver_api_response(&mut self, w: usize, result: Result<ApiObject, Status>) -> Hop {
        let (key, kind) = match &result {
            Ok(o) => (o.key(), o.kind()),
            Err(_) => (String::new(), None),
        };
        let answer = result.as_ref().map(ApiObject::resource_version).map_err(Clone::clone);
        if let Worker::Reconciling { failed, written, .. } = &mut self.workers[w] {
            match &result {
                // A delete's answer carries the last state, not a new version.
                Ok(o) if o.resource_version() > 0 => {
                    written.insert(o.key(), o.resource_version());
                }
                Ok(_) => {}
                Err(status) if status.code != 404 => *failed = Some(status.to_string()),
                Err(_) => {}
            }
        }
        let rv = *answer.as_ref().unwrap_or(&0);
        let reads = self.advance(w, 0);
        let outcome = Outcome::ApiAnswer { kind, answer, reads };
        Hop::new(Stage::ApiServer, Stage::Reconciler, TraceKind::ApiResponse, &key, rv, outcome)
    }

    pub(super) fn deliver_reconcile_end(&mut self, w: usize) -> Hop {
        let Worker::Reconciling { key, plan, failed, .. } = &self.workers[w] else {
            return Hop::plain(Stage::Reconciler, Stage::Workqueue, TraceKind::ReconcileEnd, Outcome::WorkerIdle);
        };
        let key = key.clone();
        let result = match failed {
            Some(err) => ReconcileResult::Error(err.clone()),
            None => plan.result.clone(),
        };
        let c = self.controller_of_worker(w);
        let now = self.now;
        let controller = &mut self.controllers[c];
        controller.reconciles += 1;
        let queue = &mut controller.queue;
        let priority = queue.priority_of(&key);
        let (then, ready) = match &result {
            ReconcileResult::Success => {
                queue.forget(&key);
                (Requeue::Forget, None)
            }
            ReconcileResult::Error(_) | ReconcileResult::Requeue => {
                controller.requeues += 1;
                let (delay_ms, ready) = queue.add_rate_limited(&key, now, priority);
                (Requeue::RateLimited { delay_ms, requeues: queue.num_requeues(&key) }, ready)
            }
            ReconcileResult::RequeueAfter(d) => {
                controller.requeues += 1;
                queue.forget(&key);
                (Requeue::After { delay_ms: *d }, queue.add_after(&key, *d, now, priority))
            }
            ReconcileResult::Terminal(_) => (Requeue::Not, None),
        };
        if let Some(at) = ready {
            self.schedule_at(at, Msg::WorkqueueReady(c, key.clone(), at));
        }
        self.later(0, Msg::WorkqueueDone(w));
        let outcome = Outcome::ReconcileEnds { result, then };
        Hop::new(Stage::Reconciler, Stage::Workqueue, TraceKind::ReconcileEnd, &key, 0, outcome)
    }

    pub(super) fn deliver_workqueue_done(&mut self, w: usize) -> Hop {
        let Worker::Reconciling { key, .. } = std::mem::replace(&mut self.workers[w], Worker::Idle) else {
            return Hop::plain(Stage::Reconciler, Stage::Workqueue, TraceKind::WorkqueueDone, Outcome::WorkerIdle);
        };
        let c = self.controller_of_worker(w);
        let again = self.controllers[c].queue.done(&key);
        self.schedule_workers(c);
        Hop::new(
            Stage::Reconciler,
            Stage::Workqueue,
            TraceKind::WorkqueueDone,
            &key,
            0,
            Outcome::WorkqueueDone { again },
        )
    }
}
