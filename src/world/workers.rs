//! The world's controller half: the workqueue, reconcile workers and their round trips to the
//! API server, the kubelet and the polling controller (semantics §5–§6).

use super::informers::InformerStack;
use super::message::Msg;
use super::outcome::{Outcome, Read, Requeue};
use super::{Hop, World};
use crate::cluster::{ApiObject, Kind, Status, UserInfo};
use crate::controller::cache_reader::{self, CacheList, ReadError};
use crate::controller::reconciler::{Cache, Plan, PlanOp, ReconcileResult, Write};
use crate::sim::{Millis, Stage, TraceKind};
use std::collections::BTreeMap;

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
        written: BTreeMap<String, i64>,
    },
}

/// The controller's reads go to the informers' caches.
struct WorldCache<'a> {
    informers: &'a mut [InformerStack],
}

impl Cache for WorldCache<'_> {
    fn get(&mut self, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, ReadError> {
        let stack = self.informers.iter().find(|s| s.config.reflector.kind == kind).ok_or_else(|| not_cached(kind))?;
        cache_reader::get(&stack.informer.indexer, &stack.config.reflector, namespace, name)
    }

    fn list(&mut self, kind: Kind, opts: &CacheList) -> Result<Vec<ApiObject>, ReadError> {
        let stack =
            self.informers.iter_mut().find(|s| s.config.reflector.kind == kind).ok_or_else(|| not_cached(kind))?;
        cache_reader::list(&mut stack.informer.indexer, &stack.config.reflector, opts)
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

    /// controller-runtime's `Start`: once every source has synced (its informer, and in eras
    /// that wait for them its handler too), "Starting workers".
    pub(super) fn start_workers_once_synced(&mut self) {
        if self.workers_started || self.workers_starting {
            return;
        }
        let handlers = self.config.era.workers_wait_for_handlers();
        let synced = self.informers.iter().all(|s| {
            s.informer.has_synced()
                && (!handlers || (0..s.informer.listeners.len()).all(|l| s.informer.handler_has_synced(l)))
        });
        if synced {
            self.workers_starting = true;
            self.later(0, Msg::StartWorkers);
        }
    }

    pub(super) fn schedule_workers(&mut self) {
        if !self.workers_started {
            return;
        }
        let pending = self.worker_pending.iter().filter(|p| **p).count();
        let mut available = self.queue.len().saturating_sub(pending);
        for w in 0..self.workers.len() {
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

    pub(super) fn deliver_workqueue_add(&mut self, key: String, priority: i32) -> Hop {
        let outcome = self.queue.add_with_priority(&key, priority);
        self.schedule_workers();
        let priority = self.queue.is_prioritised().then_some(priority);
        let outcome = Outcome::WorkqueueAdd { added: outcome, priority };
        Hop::new(Stage::Handler, Stage::Workqueue, TraceKind::WorkqueueAdd, &key, 0, outcome)
    }

    pub(super) fn deliver_workqueue_ready(&mut self, key: String, at: Millis) -> Hop {
        let outcome = self.queue.ready(&key, at);
        self.schedule_workers();
        Hop::new(Stage::Workqueue, Stage::Workqueue, TraceKind::WorkqueueAdd, &key, 0, Outcome::WorkqueueReady(outcome))
    }

    pub(super) fn deliver_worker_get(&mut self, w: usize) -> Hop {
        self.worker_pending[w] = false;
        let Some(key) = self.queue.get() else {
            return Hop::plain(Stage::Workqueue, Stage::Reconciler, TraceKind::WorkqueueGet, Outcome::NothingQueued);
        };
        let mut cache = WorldCache { informers: &mut self.informers };
        let plan = self.reconciler.plan(&key, &mut cache, &mut self.rng);
        let decisions = plan.decisions.clone();
        self.workers[w] =
            Worker::Reconciling { key: key.clone(), since: self.now, plan, failed: None, written: BTreeMap::new() };
        let think = self.config.controller.reconcile_ms;
        let reads = self.advance(w, think);
        let outcome = Outcome::ReconcileStarts { worker: w, decisions, reads };
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
                for op in plan.ops.drain(..) {
                    if let PlanOp::Write(write) = op {
                        self.reconciler.write_failed(key, write.op());
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
                self.reconciler.write_failed(&key.clone(), op);
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
        self.reconciles += 1;
        let then = match &result {
            ReconcileResult::Success => {
                self.queue.forget(&key);
                Requeue::Forget
            }
            ReconcileResult::Error(_) => {
                self.requeues += 1;
                let priority = self.queue.priority_of(&key);
                let (delay_ms, ready) = self.queue.add_rate_limited(&key, self.now, priority);
                if let Some(at) = ready {
                    self.schedule_at(at, Msg::WorkqueueReady(key.clone(), at));
                }
                Requeue::RateLimited { delay_ms, requeues: self.queue.num_requeues(&key) }
            }
            ReconcileResult::RequeueAfter(d) => {
                self.requeues += 1;
                self.queue.forget(&key);
                let priority = self.queue.priority_of(&key);
                if let Some(at) = self.queue.add_after(&key, *d, self.now, priority) {
                    self.schedule_at(at, Msg::WorkqueueReady(key.clone(), at));
                }
                Requeue::After { delay_ms: *d }
            }
            ReconcileResult::Terminal(_) => Requeue::Not,
        };
        self.later(0, Msg::WorkqueueDone(w));
        let outcome = Outcome::ReconcileEnds { result, then };
        Hop::new(Stage::Reconciler, Stage::Workqueue, TraceKind::ReconcileEnd, &key, 0, outcome)
    }

    pub(super) fn deliver_workqueue_done(&mut self, w: usize) -> Hop {
        let Worker::Reconciling { key, .. } = std::mem::replace(&mut self.workers[w], Worker::Idle) else {
            return Hop::plain(Stage::Reconciler, Stage::Workqueue, TraceKind::WorkqueueDone, Outcome::WorkerIdle);
        };
        let again = self.queue.done(&key);
        self.schedule_workers();
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
