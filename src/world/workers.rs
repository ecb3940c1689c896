//! The world's controller half: the workqueue, reconcile workers and their round trips to the
//! API server, the kubelet and the polling controller (semantics §5–§6).

use super::informers::InformerStack;
use super::message::Msg;
use super::{Hop, World};
use crate::client::workqueue::AddOutcome;
use crate::cluster::{ApiObject, Kind, Status, UserInfo, WatchOptions};
use crate::controller::cache_reader::{self, CacheList, ReadError};
use crate::controller::reconciler::{Cache, Plan, PlanOp, ReconcileResult, Write};
use crate::sim::{Millis, Stage, TraceKind};
use serde_json::{json, Value};

/// What one worker is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum Worker {
    Idle,
    Reconciling { key: String, since: Millis, plan: Plan, failed: Option<String> },
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

/// A kind no informer watches (controller-runtime would start one lazily and block).
fn not_cached(kind: Kind) -> ReadError {
    ReadError::Plain(format!("{} is not cached", kind.type_description()))
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

    pub(super) fn schedule_workers(&mut self) {
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

    pub(super) fn deliver_workqueue_add(&mut self, key: String) -> Hop {
        let outcome = self.queue.add(&key);
        self.schedule_workers();
        let what = match outcome {
            AddOutcome::Queued => "queued",
            AddOutcome::AlreadyQueued => "already queued: deduplicated",
            AddOutcome::WhileProcessing => "being reconciled: runs again after Done",
            AddOutcome::ShuttingDown => "shutting down: ignored",
        };
        Hop::new(Stage::Handler, Stage::Workqueue, TraceKind::WorkqueueAdd, &key, 0, format!("Add({key}): {what}"))
    }

    pub(super) fn deliver_workqueue_ready(&mut self, key: String, at: Millis) -> Hop {
        let summary = match self.queue.ready(&key, at) {
            Some(outcome) => format!("{key} is due after its delay: {outcome:?}"),
            None => format!("{key}: timer superseded"),
        };
        self.schedule_workers();
        Hop::new(Stage::Workqueue, Stage::Workqueue, TraceKind::WorkqueueAdd, &key, 0, summary)
    }

    pub(super) fn deliver_worker_get(&mut self, w: usize) -> Hop {
        self.worker_pending[w] = false;
        let Some(key) = self.queue.get() else {
            return Hop::plain(Stage::Workqueue, Stage::Reconciler, TraceKind::WorkqueueGet, "nothing to do".into());
        };
        let mut cache = WorldCache { informers: &mut self.informers };
        let plan = self.reconciler.plan(&key, &mut cache, &mut self.rng);
        let notes = plan.notes.join("; ");
        self.workers[w] = Worker::Reconciling { key: key.clone(), since: self.now, plan, failed: None };
        let think = self.config.controller.reconcile_ms;
        let more = self.advance(w, think);
        let summary = format!("worker {w}: Get() → {key}: {notes}{more}");
        Hop::new(Stage::Workqueue, Stage::Reconciler, TraceKind::WorkqueueGet, &key, 0, summary)
    }

    /// Runs the plan's reads up to its next write, which is sent after `delay`; with no write
    /// left, the reconcile ends after `delay`. Returns notes for the trace.
    fn advance(&mut self, w: usize, delay: Millis) -> String {
        let mut notes = String::new();
        loop {
            let Worker::Reconciling { key, plan, failed, .. } = &mut self.workers[w] else { return notes };
            let key = key.clone();
            if failed.is_some() {
                plan.ops.clear();
            }
            match plan.ops.pop_front() {
                Some(PlanOp::Write(write)) => {
                    self.later(delay + self.config.latency_ms, Msg::ApiRequest(w, write));
                    return notes;
                }
                Some(PlanOp::CacheGet { kind, namespace, name }) => {
                    let mut cache = WorldCache { informers: &mut self.informers };
                    let note = match cache.get(kind, &namespace, &name) {
                        Ok(o) => format!("; cache Get again: rv {}", o.metadata.resource_version),
                        Err(e) => format!("; cache Get again: {e}"),
                    };
                    let stale =
                        self.last_write_rv.filter(|rv| note.contains("rv ") && !note.ends_with(&format!("rv {rv}")));
                    notes.push_str(&note);
                    if let Some(rv) = stale {
                        notes.push_str(&format!(
                            " — stale: the Update wrote rv {rv}, its watch event has not reached the cache"
                        ));
                    }
                }
                Some(PlanOp::ApiGet { kind, namespace, name }) => {
                    let user = self.user.clone();
                    match self.api.get(&user, kind, &namespace, &name, "") {
                        Ok(o) => notes.push_str(&format!(
                            "; APIReader Get: rv {} (fresh from the API server)",
                            o.metadata.resource_version
                        )),
                        Err(e) => notes.push_str(&format!("; APIReader Get: {e}")),
                    }
                }
                None => {
                    let _ = key;
                    self.later(delay, Msg::ReconcileEnd(w));
                    return notes;
                }
            }
        }
    }

    pub(super) fn deliver_api_request(&mut self, w: usize, write: Write) -> Hop {
        let user = self.user.clone();
        let described = write.describe();
        let result = self.controller_write(&user, write);
        let (key, rv) = result.as_ref().map(|o| (o.key(), o.resource_version())).unwrap_or_default();
        let outcome = match &result {
            Ok(o) => format!("ok, rv {}", o.metadata.resource_version),
            Err(s) => format!("{} {}", s.code, s.reason),
        };
        self.later(self.config.latency_ms, Msg::ApiResponse(w, result));
        self.flush_watch_events();
        Hop::new(Stage::Reconciler, Stage::ApiServer, TraceKind::ApiWrite, &key, rv, format!("{described} → {outcome}"))
    }

    fn controller_write(&mut self, user: &UserInfo, write: Write) -> Result<ApiObject, Status> {
        let result = match write {
            Write::Create(o) => self.api.create(user, o),
            Write::Update(o) => self.api.update(user, o),
            Write::UpdateStatus(o) => self.api.update_status(user, o),
            Write::Delete { kind, namespace, name } => self.api.delete(user, kind, &namespace, &name),
        };
        if let Ok(obj) = &result {
            self.observe_status_write(obj);
        }
        result
    }

    /// Time from a user's spec write to the controller's status write that observed it.
    fn observe_status_write(&mut self, obj: &ApiObject) {
        let observed = obj.status().and_then(|s| s.get("observedGeneration")).and_then(Value::as_i64);
        if let Some(generation) = observed {
            if let Some(at) = self.spec_writes.remove(&(obj.key(), generation)) {
                self.status_latencies.push(self.now - at);
            }
        }
    }

    pub(super) fn deliver_api_response(&mut self, w: usize, result: Result<ApiObject, Status>) -> Hop {
        let (key, rv, head) = match &result {
            Ok(o) => (
                o.key(),
                o.resource_version(),
                format!("{} {} written at rv {}", o.kind, o.key(), o.metadata.resource_version),
            ),
            Err(s) => (String::new(), 0, s.to_string()),
        };
        self.last_write_rv = result.as_ref().ok().map(ApiObject::resource_version);
        if let (Err(status), Worker::Reconciling { failed, .. }) = (&result, &mut self.workers[w]) {
            if status.code != 404 {
                *failed = Some(status.to_string());
            }
        }
        let more = self.advance(w, 0);
        Hop::new(Stage::ApiServer, Stage::Reconciler, TraceKind::ApiResponse, &key, rv, format!("{head}{more}"))
    }

    pub(super) fn deliver_reconcile_end(&mut self, w: usize) -> Hop {
        let Worker::Reconciling { key, plan, failed, .. } = &self.workers[w] else {
            return Hop::plain(Stage::Reconciler, Stage::Workqueue, TraceKind::ReconcileEnd, "idle".into());
        };
        let key = key.clone();
        let result = match failed {
            Some(err) => ReconcileResult::Error(err.clone()),
            None => plan.result.clone(),
        };
        self.reconciles += 1;
        let summary = match &result {
            ReconcileResult::Success => {
                self.queue.forget(&key);
                "success → Forget".to_string()
            }
            ReconcileResult::Error(err) => {
                self.requeues += 1;
                let (delay, ready) = self.queue.add_rate_limited(&key, self.now);
                if let Some(at) = ready {
                    self.schedule_at(at, Msg::WorkqueueReady(key.clone(), at));
                }
                format!(
                    "error: {err} → AddRateLimited: retry in {delay} ms (requeues {})",
                    self.queue.num_requeues(&key)
                )
            }
            ReconcileResult::RequeueAfter(d) => {
                self.requeues += 1;
                self.queue.forget(&key);
                if let Some(at) = self.queue.add_after(&key, *d, self.now) {
                    self.schedule_at(at, Msg::WorkqueueReady(key.clone(), at));
                }
                format!("RequeueAfter {d} ms → Forget + AddAfter")
            }
            ReconcileResult::Terminal(err) => format!("terminal error: {err} → not requeued"),
        };
        self.later(0, Msg::WorkqueueDone(w));
        Hop::new(
            Stage::Reconciler,
            Stage::Workqueue,
            TraceKind::ReconcileEnd,
            &key,
            0,
            format!("reconcile {key}: {summary}"),
        )
    }

    pub(super) fn deliver_workqueue_done(&mut self, w: usize) -> Hop {
        let Worker::Reconciling { key, .. } = std::mem::replace(&mut self.workers[w], Worker::Idle) else {
            return Hop::plain(Stage::Reconciler, Stage::Workqueue, TraceKind::WorkqueueDone, "idle".into());
        };
        let again = self.queue.done(&key);
        self.schedule_workers();
        let note = if again { "re-added meanwhile: queued again" } else { "done" };
        Hop::new(Stage::Reconciler, Stage::Workqueue, TraceKind::WorkqueueDone, &key, 0, format!("Done({key}): {note}"))
    }

    /// The kubelet's view of new Pods: a server-side watch on Pods, read without delay.
    pub(super) fn start_kubelet(&mut self) {
        let opts = WatchOptions::default();
        self.kubelet_watch = self.api.watch(&UserInfo::admin(), Kind::Pod, &opts).ok();
    }

    pub(super) fn flush_kubelet(&mut self) {
        let Some(id) = self.kubelet_watch else { return };
        for event in self.api.take_events(id) {
            let crate::cluster::WatchEvent::Added(pod) = event else { continue };
            let phase = pod.status().and_then(|s| s.get("phase")).and_then(Value::as_str);
            if phase != Some("Pending") || pod.status().is_some_and(|s| s.get("containerStatuses").is_some()) {
                continue;
            }
            let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
            let start = self.config.latency_ms + 500;
            self.later(
                start,
                Msg::KubeletStatus { namespace: namespace.clone(), name: name.clone(), phase: "ContainerCreating" },
            );
            self.later(start + 1_000, Msg::KubeletStatus { namespace, name, phase: "Running" });
        }
    }

    pub(super) fn deliver_kubelet(&mut self, namespace: String, name: String, phase: &'static str) -> Hop {
        let key = format!("{namespace}/{name}");
        let admin = UserInfo::admin();
        let Ok(mut pod) = self.api.get(&admin, Kind::Pod, &namespace, &name, "") else {
            return Hop::new(
                Stage::Kubelet,
                Stage::ApiServer,
                TraceKind::ApiWrite,
                &key,
                0,
                format!("kubelet: {key} is gone"),
            );
        };
        let containers: Vec<String> = pod
            .spec()
            .and_then(|s| s.get("containers"))
            .and_then(Value::as_array)
            .map(|cs| cs.iter().filter_map(|c| c["name"].as_str().map(String::from)).collect())
            .unwrap_or_default();
        let status = if phase == "Running" {
            let started = crate::cluster::api_object::timestamp(self.now);
            json!({
                "phase": "Running",
                "conditions": [{"type": "Ready", "status": "True"}],
                "containerStatuses": containers.iter().map(|c| json!({"name": c, "ready": true, "state": {"running": {"startedAt": started}}})).collect::<Vec<_>>(),
            })
        } else {
            json!({
                "phase": "Pending",
                "containerStatuses": containers.iter().map(|c| json!({"name": c, "ready": false, "state": {"waiting": {"reason": "ContainerCreating"}}})).collect::<Vec<_>>(),
            })
        };
        pod.body.insert("status".into(), status);
        let summary = match self.api.update_status(&admin, pod) {
            Ok(p) => format!("kubelet: {key} → {phase} (rv {})", p.metadata.resource_version),
            Err(e) => format!("kubelet: {key} → {phase} failed: {e}"),
        };
        self.flush_watch_events();
        Hop::new(Stage::Kubelet, Stage::ApiServer, TraceKind::ApiWrite, &key, 0, summary)
    }

    pub(super) fn deliver_poll(&mut self) -> Hop {
        let Some(poll) = self.config.poll.clone() else {
            return Hop::plain(Stage::Reconciler, Stage::ApiServer, TraceKind::ListRequest, "no poller".into());
        };
        self.later(poll.every_ms, Msg::PollTick);
        let user = self.user.clone();
        let summary = match self.api.list(&user, poll.kind, &Default::default()) {
            Ok(list) => format!(
                "polling LIST {} → {} items at rv {}",
                poll.kind.resource(),
                list.items.len(),
                list.resource_version
            ),
            Err(e) => format!("polling LIST {} → {e}", poll.kind.resource()),
        };
        Hop::new(Stage::Reconciler, Stage::ApiServer, TraceKind::ListRequest, "", 0, summary)
    }
}
