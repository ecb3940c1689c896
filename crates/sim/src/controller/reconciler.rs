//! Reconcilers (controller-runtime `pkg/reconcile`, `pkg/internal/controller`), semantics §5–§6.
//!
//! A reconcile reads from the cache, decides, and writes to the API server; its writes come
//! back later as watch events. Here a reconcile is planned when a worker takes its key: the
//! decisions are made from the cache at that moment and become a list of [`PlanOp`]s — writes,
//! each a round trip to the API server, and reads that happen between them — followed by a
//! [`ReconcileResult`]:
//! - `Success` → `Forget`; `Error` → rate-limited requeue; `Requeue` (`Result{Requeue:
//!   true}`) → rate-limited requeue without an error; `RequeueAfter(d)` → `Forget` +
//!   `AddAfter(d)`; `Terminal` → no requeue, no `Forget` (§6).
//!
//! Kinds:
//! - `Observe`: reads its object, of the kind it watches, and succeeds (the basic controller);
//! - `Replicas`: a ReplicaSet-style controller (ReplicaSet or Deployment → Pods it owns by
//!   ownerReference and selector): creates or deletes Pods to match `spec.replicas`, then
//!   writes `status` (replicas, readyReplicas, observedGeneration). Like the ReplicaSet
//!   controller it keeps *expectations* — creates and deletes it has made but not yet seen in
//!   its cache — and makes no new ones until they are observed. Level-triggered it counts
//!   Pods in the cache; edge-triggered it keeps a count from the events it was handed, so a
//!   lost event leaves it wrong for good. Deployments reach their Pods through the
//!   Deployment controller (`deployment.rs`), which owns ReplicaSets, and this one.
//! - `StampConfigMap`: the stale-read example — Get, set `data.updated="true"`, Update, Get
//!   again from the cache (still the old object), then from the API reader (the new one).
//!   It is idempotent, so its own update's event triggers a reconcile that changes nothing.
//! - `Failing`: fails a number of times per key (or terminally), to show requeue backoff.
//! - `RequeueAfter`: succeeds and asks to come back after a delay.

use super::cache_reader::CacheList;
pub use super::plan::{controller_of, Cache, Decision, Plan, PlanOp, ReconcileResult, Write, WriteOp};
use crate::cluster::api_object::OwnerReference;
use crate::cluster::selector::LabelSelector;
use crate::cluster::{ApiObject, Kind};
use crate::kernel::{sort, Millis, Rng, SmallMap};
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReconcilerKind {
    /// Reads the object of the kind it watches, and succeeds.
    Observe(Kind),
    /// The Deployment controller: Deployments own ReplicaSets (`deployment.rs`).
    Deployment,
    Replicas {
        owner: Kind,
        edge_triggered: bool,
    },
    StampConfigMap,
    Failing {
        failures: u32,
        terminal: bool,
    },
    RequeueAfter(Millis),
    /// Asks to be requeued (`Requeue: true`) this many times per key, then succeeds.
    Requeue(u32),
}

/// The ReplicaSet controller's `burstReplicas`: creates or deletes one sync makes at most.
pub const BURST_REPLICAS: i64 = 500;

/// Creates and deletes made but not yet observed, per owner (`ControllerExpectations`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Expectations {
    adds: i64,
    dels: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Reconciler {
    pub kind: ReconcilerKind,
    expectations: SmallMap<String, Expectations>,
    /// Edge-triggered Pod counts per owner, kept from events alone.
    beliefs: SmallMap<String, i64>,
    failures: SmallMap<String, u32>,
}

fn generated_name(base: &str, rng: &mut Rng) -> String {
    // `names.SimpleNameGenerator`: five characters from an alphabet without vowels.
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let suffix: String = (0..5).map(|_| ALPHABET[(rng.next_u64() % ALPHABET.len() as u64) as usize] as char).collect();
    format!("{base}-{suffix}")
}

fn phase(pod: &ApiObject) -> &str {
    pod.status().and_then(|s| s.get("phase")).and_then(Value::as_str).unwrap_or("")
}

impl Reconciler {
    pub fn new(kind: ReconcilerKind) -> Self {
        Reconciler { kind, expectations: SmallMap::new(), beliefs: SmallMap::new(), failures: SmallMap::new() }
    }

    /// The kind whose keys fill the workqueue.
    pub fn primary(&self) -> Kind {
        match self.kind {
            ReconcilerKind::Observe(kind) => kind,
            ReconcilerKind::Deployment => Kind::Deployment,
            ReconcilerKind::Replicas { owner, .. } => owner,
            ReconcilerKind::StampConfigMap => Kind::ConfigMap,
            _ => Kind::Pod,
        }
    }

    /// A Pod event reached the owner's handler: expectations and edge beliefs learn of it.
    pub fn observe_owned(&mut self, owner_key: &str, added: bool, deleted: bool) {
        let e = self.expectations.or_insert_with(owner_key.to_string(), Expectations::default);
        let belief = self.beliefs.or_insert_with(owner_key.to_string(), || 0);
        if added {
            e.adds -= 1;
            *belief += 1;
        }
        if deleted {
            e.dels -= 1;
            *belief -= 1;
        }
    }

    /// A planned create or delete failed: the informer will never observe it, so it is no
    /// longer expected (`CreationObserved` / `DeletionObserved` on failure).
    pub fn write_failed(&mut self, owner_key: &str, op: WriteOp) {
        if let Some(e) = self.expectations.get_mut(owner_key) {
            match op {
                WriteOp::Create => e.adds -= 1,
                WriteOp::Delete => e.dels -= 1,
                WriteOp::Update | WriteOp::UpdateStatus => {}
            }
        }
    }

    /// The edge-triggered controller's Pod count for an owner.
    pub fn belief(&self, owner_key: &str) -> i64 {
        self.beliefs.get(owner_key).copied().unwrap_or(0)
    }

    /// Plans one reconcile of `key` (`namespace/name`).
    pub fn plan(&mut self, key: &str, cache: &mut dyn Cache, rng: &mut Rng) -> Plan {
        let (namespace, name) = key.split_once('/').unwrap_or(("", key));
        match self.kind.clone() {
            ReconcilerKind::Observe(kind) => match cache.get(kind, namespace, name) {
                Ok(o) => Plan::done(Decision::Found { rv: o.resource_version() }, ReconcileResult::Success),
                Err(e) => Plan::not_found(e),
            },
            ReconcilerKind::Failing { failures, terminal } => {
                let n = self.failures.or_insert_with(key.to_string(), || 0);
                *n += 1;
                let n = *n;
                if terminal {
                    Plan::done(Decision::TerminalFailure, ReconcileResult::Terminal("invalid configuration".into()))
                } else if n <= failures {
                    let error = format!("simulated failure {n} of {failures}");
                    Plan::done(Decision::Attempt { n, failures }, ReconcileResult::Error(error))
                } else {
                    Plan::done(Decision::Attempt { n, failures }, ReconcileResult::Success)
                }
            }
            ReconcilerKind::Requeue(times) => {
                let n = self.failures.or_insert_with(key.to_string(), || 0);
                *n += 1;
                let result = if *n <= times { ReconcileResult::Requeue } else { ReconcileResult::Success };
                Plan::done(Decision::Attempt { n: *n, failures: times }, result)
            }
            ReconcilerKind::RequeueAfter(d) => {
                Plan::done(Decision::CheckAgainIn { ms: d }, ReconcileResult::RequeueAfter(d))
            }
            ReconcilerKind::StampConfigMap => self.plan_stamp(namespace, name, cache),
            ReconcilerKind::Deployment => super::deployment::plan(namespace, name, cache),
            ReconcilerKind::Replicas { owner, edge_triggered } => {
                self.plan_replicas(owner, edge_triggered, key, namespace, name, cache, rng)
            }
        }
    }

    fn plan_stamp(&self, namespace: &str, name: &str, cache: &mut dyn Cache) -> Plan {
        let mut cm = match cache.get(Kind::ConfigMap, namespace, name) {
            Ok(cm) => cm,
            Err(e) if e.is_not_found() => return Plan::not_found(e),
            Err(e) => return Plan::read_failed(false, e),
        };
        let rv = cm.resource_version();
        if cm.body.get("data").and_then(|d| d.get("updated")).and_then(Value::as_str) == Some("true") {
            return Plan::done(Decision::AlreadyStamped { rv }, ReconcileResult::Success);
        }
        let data = cm.body.entry("data").or_insert_with(|| json!({}));
        if let Some(map) = data.as_object_mut() {
            map.insert("updated".into(), json!("true"));
        }
        let (kind, namespace, name) = (Kind::ConfigMap, namespace.to_string(), name.to_string());
        let ops = VecDeque::from([
            PlanOp::Write(Write::Update(cm)),
            PlanOp::CacheGet { kind, namespace: namespace.clone(), name: name.clone() },
            PlanOp::ApiGet { kind, namespace, name },
        ]);
        Plan { ops, decisions: vec![Decision::Stamp { rv }], result: ReconcileResult::Success }
    }

    #[allow(clippy::too_many_arguments)]
    fn plan_replicas(
        &mut self,
        owner_kind: Kind,
        edge: bool,
        key: &str,
        namespace: &str,
        name: &str,
        cache: &mut dyn Cache,
        rng: &mut Rng,
    ) -> Plan {
        let owner = match cache.get(owner_kind, namespace, name) {
            Ok(o) => o,
            Err(e) if e.is_not_found() => {
                self.expectations.remove(key);
                return Plan::not_found(e);
            }
            Err(e) => return Plan::read_failed(false, e),
        };
        let spec = owner.spec().cloned().unwrap_or_default();
        let want = spec.get("replicas").and_then(Value::as_i64).unwrap_or(1);
        let match_labels: BTreeMap<String, String> =
            serde_json::from_value(spec["selector"]["matchLabels"].clone()).unwrap_or_default();
        let opts = CacheList {
            namespace: Some(namespace.into()),
            labels: LabelSelector::from_labels(&match_labels),
            ..CacheList::default()
        };
        let mut pods: Vec<ApiObject> = match cache.list(Kind::Pod, &opts) {
            Ok(pods) => {
                pods.into_iter().filter(|p| controller_of(p).is_some_and(|r| r.uid == owner.metadata.uid)).collect()
            }
            Err(e) => return Plan::read_failed(true, e),
        };
        let have = if edge { self.belief(key) } else { pods.len() as i64 };
        let mut decisions = vec![Decision::Counted { owner: owner_kind, want, have, from_events: edge }];
        let mut ops = VecDeque::new();
        let expectations = self.expectations.or_insert_with(key.to_string(), Expectations::default);
        if expectations.adds > 0 || expectations.dels > 0 {
            decisions
                .push(Decision::WaitingExpectations { adds: expectations.adds.max(0), dels: expectations.dels.max(0) });
        } else if want > have {
            // At most `burstReplicas` creates per sync; the rest wait for the next one.
            let count = (want - have).min(BURST_REPLICAS);
            let template = &spec["template"];
            for _ in 0..count {
                let mut pod = ApiObject::new(Kind::Pod, namespace, &generated_name(name, rng));
                pod.metadata.labels =
                    serde_json::from_value(template["metadata"]["labels"].clone()).unwrap_or_default();
                pod.metadata.owner_references = vec![OwnerReference {
                    api_version: owner_kind.api_version().into(),
                    kind: owner_kind.name().into(),
                    name: name.into(),
                    uid: owner.metadata.uid.clone(),
                    controller: Some(true),
                }];
                pod.body.insert("spec".into(), template.get("spec").cloned().unwrap_or_else(|| json!({})));
                ops.push_back(PlanOp::Write(Write::Create(pod)));
            }
            expectations.adds = count;
            decisions.push(Decision::WillCreate { count });
        } else if want < have {
            // Like the ReplicaSet controller, delete the least useful first: not running, then newest.
            sort::sort_by(&mut pods, |a, b| {
                (phase(a) == "Running", &b.metadata.creation_timestamp, &b.metadata.name).cmp(&(
                    phase(b) == "Running",
                    &a.metadata.creation_timestamp,
                    &a.metadata.name,
                ))
            });
            let doomed = (have - want).min(pods.len() as i64).min(BURST_REPLICAS);
            for pod in pods.iter().take(doomed as usize) {
                let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
                ops.push_back(PlanOp::Write(Write::Delete { kind: Kind::Pod, namespace, name }));
            }
            expectations.dels = doomed;
            decisions.push(Decision::WillDelete { count: doomed });
        }
        let ready = pods.iter().filter(|p| phase(p) == "Running").count();
        let status = json!({
            "replicas": pods.len(),
            "readyReplicas": ready,
            "observedGeneration": owner.metadata.generation,
        });
        if owner.status() != Some(&status) {
            let mut updated = owner.clone();
            updated.body.insert("status".into(), status);
            ops.push_back(PlanOp::Write(Write::UpdateStatus(updated)));
        }
        Plan { ops, decisions, result: ReconcileResult::Success }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::indexer::Indexer;
    use crate::client::reflector::ReflectorConfig;
    use crate::controller::cache_reader;
    use crate::controller::cache_reader::ReadError;

    struct TestCache {
        owners: Indexer,
        pods: Indexer,
    }

    impl Cache for TestCache {
        fn get(&mut self, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, ReadError> {
            let ix = if kind == Kind::Pod { &self.pods } else { &self.owners };
            cache_reader::get(ix, &ReflectorConfig::new(kind), namespace, name)
        }
        fn list(&mut self, kind: Kind, opts: &CacheList) -> Result<Vec<ApiObject>, ReadError> {
            let ix = if kind == Kind::Pod { &mut self.pods } else { &mut self.owners };
            cache_reader::list(ix, &ReflectorConfig::new(kind), opts)
        }
    }

    fn replica_set(replicas: i64) -> ApiObject {
        let mut rs = ApiObject::new(Kind::ReplicaSet, "default", "web").with(
            "spec",
            json!({"replicas": replicas, "selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": []}}}),
        );
        rs.metadata.uid = "uid-web".into();
        rs.metadata.generation = 1;
        rs
    }

    fn writes(plan: &Plan) -> Vec<String> {
        plan.ops.iter().filter_map(|op| if let PlanOp::Write(w) = op { Some(w.describe()) } else { None }).collect()
    }

    #[test]
    fn semantics_6_replicas_create_then_wait_for_expectations() {
        let mut owners = Indexer::new();
        owners.update(replica_set(3));
        let mut cache = TestCache { owners, pods: Indexer::new() };
        let mut r = Reconciler::new(ReconcilerKind::Replicas { owner: Kind::ReplicaSet, edge_triggered: false });
        let mut rng = Rng::new(1);
        let plan = r.plan("default/web", &mut cache, &mut rng);
        let w = writes(&plan);
        assert_eq!(w.iter().filter(|w| w.starts_with("Create Pod default/web-")).count(), 3);
        assert!(w.last().unwrap().starts_with("Status().Update ReplicaSet default/web"));
        let again = r.plan("default/web", &mut cache, &mut rng);
        assert!(
            writes(&again).iter().all(|w| !w.starts_with("Create")),
            "expectations hold back a second round of creates"
        );
        for op in plan.ops {
            if let PlanOp::Write(Write::Create(p)) = op {
                cache.pods.update(p);
                r.observe_owned("default/web", true, false);
            }
        }
        assert!(writes(&r.plan("default/web", &mut cache, &mut rng)).iter().all(|w| !w.starts_with("Create")));
    }

    #[test]
    fn semantics_6_stamp_is_idempotent() {
        let mut owners = Indexer::new();
        owners.update(ApiObject::new(Kind::ConfigMap, "default", "cfg").with("data", json!({})));
        let mut cache = TestCache { owners, pods: Indexer::new() };
        let mut r = Reconciler::new(ReconcilerKind::StampConfigMap);
        let plan = r.plan("default/cfg", &mut cache, &mut Rng::new(1));
        assert_eq!(plan.ops.len(), 3);
        let PlanOp::Write(Write::Update(stamped)) = &plan.ops[0] else { panic!() };
        cache.owners.update(stamped.clone());
        let again = r.plan("default/cfg", &mut cache, &mut Rng::new(1));
        assert!(again.ops.is_empty());
        assert!(matches!(again.decisions[..], [Decision::AlreadyStamped { .. }]));
    }

    #[test]
    fn semantics_6_failing_then_success_and_terminal() {
        let mut cache = TestCache { owners: Indexer::new(), pods: Indexer::new() };
        let mut r = Reconciler::new(ReconcilerKind::Failing { failures: 2, terminal: false });
        let results: Vec<ReconcileResult> =
            (0..3).map(|_| r.plan("default/x", &mut cache, &mut Rng::new(1)).result).collect();
        assert!(matches!(results[0], ReconcileResult::Error(_)));
        assert!(matches!(results[1], ReconcileResult::Error(_)));
        assert_eq!(results[2], ReconcileResult::Success);
        let mut t = Reconciler::new(ReconcilerKind::Failing { failures: 0, terminal: true });
        assert!(matches!(t.plan("default/x", &mut cache, &mut Rng::new(1)).result, ReconcileResult::Terminal(_)));
    }
}
