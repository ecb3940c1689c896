//! Swarm testing, in the spirit of FoundationDB's simulator and TigerBeetle's VOPR: each seed
//! derives a world (controller, watch cache, window, latency, resync, bookmarks, objects) and
//! a schedule of writes and every fault — disconnects, compaction, API server restarts, RBAC
//! revoked and granted, dropped notifications, latency — then heals (every verb granted,
//! latency back to normal) and runs until only timers are left.
//!
//! Invariants are checked at every step: nothing panics; the store's revision and every
//! reflector's `lastSyncResourceVersion` never go back; no informer cache holds an object the
//! store never had at that resourceVersion. At the end: every cache equals the store for its
//! scope, and every queue has drained. A failure names its seed
//! (`informer-playground swarm --seed N`) and the smallest schedule that still fails.

use crate::cluster::storage::{decode, prefix};
use crate::cluster::Verb;
use crate::cluster::{ApiObject, Kind};
use crate::controller::reconciler::ReconcilerKind;
use crate::era::Era;
use crate::kernel::{Millis, Rng};
use crate::world::{Fault, Intervention, World, WorldConfig};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};

/// When the schedule ends and healing begins.
const SCHEDULE_MS: Millis = 30_000;
/// Steps a run may take before it is called stuck.
const STEP_BUDGET: u64 = 60_000;

/// One scheduled thing.
#[derive(Clone, Debug, PartialEq)]
pub struct Scheduled {
    pub at: Millis,
    pub action: Intervention,
}

/// A kind of scheduled event the swarm draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EventKind {
    Create,
    Patch,
    Delete,
    Scale,
    Disconnect,
    Compact,
    Restart,
    Revoke,
    Grant,
    DropNextEvent,
    Latency,
    DeleteFirst,
}

impl EventKind {
    pub const ALL: [EventKind; 12] = [
        EventKind::Create,
        EventKind::Patch,
        EventKind::Delete,
        EventKind::Scale,
        EventKind::Disconnect,
        EventKind::Compact,
        EventKind::Restart,
        EventKind::Revoke,
        EventKind::Grant,
        EventKind::DropNextEvent,
        EventKind::Latency,
        EventKind::DeleteFirst,
    ];
}

/// How often each kind of event is drawn for one seed. Swarm testing (Groce et al.; the
/// VOPR's per-seed fault weights): each seed leaves some kinds out and favours others, so a
/// seed heavy in compactions and free of restarts gets runs of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights(pub BTreeMap<EventKind, u64>);

impl Weights {
    /// Each kind left out with probability ½, else weighted 1–4; never all left out.
    fn draw(rng: &mut Rng) -> Weights {
        let mut weights: BTreeMap<EventKind, u64> =
            EventKind::ALL.iter().map(|k| (*k, if chance(rng, 0.5) { 0 } else { 1 + rng.next_u64() % 4 })).collect();
        if weights.values().all(|w| *w == 0) {
            weights.insert(EventKind::Create, 1);
        }
        Weights(weights)
    }

    fn pick(&self, rng: &mut Rng) -> EventKind {
        let total: u64 = self.0.values().sum();
        let mut at = rng.next_u64() % total;
        for (kind, weight) in &self.0 {
            if at < *weight {
                return *kind;
            }
            at -= weight;
        }
        unreachable!("the draw falls within the total")
    }
}

/// A seed's world and schedule.
#[derive(Clone, Debug)]
pub struct Plan {
    pub seed: u64,
    pub config: WorldConfig,
    pub objects: Vec<ApiObject>,
    pub weights: Weights,
    pub schedule: Vec<Scheduled>,
}

/// What went wrong, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub step: u64,
    pub what: String,
}

fn pick<T: Clone>(rng: &mut Rng, items: &[T]) -> T {
    items[(rng.next_u64() % items.len() as u64) as usize].clone()
}

fn chance(rng: &mut Rng, p: f64) -> bool {
    rng.float64() < p
}

fn config_map(name: &str, value: u64) -> ApiObject {
    ApiObject::new(Kind::ConfigMap, "default", name)
        .with_label("app", "swarm")
        .with("data", json!({"v": value.to_string()}))
}

fn owner(kind: Kind, replicas: i64) -> ApiObject {
    ApiObject::new(kind, "default", "web").with_label("app", "web").with(
        "spec",
        json!({
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}
        }),
    )
}

impl Plan {
    /// The world and schedule a seed derives.
    pub fn from_seed(seed: u64) -> Plan {
        // (The salt changed when the event weights became the seed's own: older seed numbers
        // name other plans.)
        let mut rng = Rng::new(seed ^ 0x5357_4152_4D00_0001);
        let shape = rng.next_u64() % 4;
        let mut config = match shape {
            0 => WorldConfig::new(Kind::ConfigMap),
            1 => WorldConfig::replicas(pick(&mut rng, &[Kind::Deployment, Kind::ReplicaSet]), false),
            2 => WorldConfig::stamp(),
            _ => {
                let mut c = WorldConfig::new(Kind::ConfigMap);
                c.controllers[0].reconciler = ReconcilerKind::Failing { failures: 2, terminal: false };
                c
            }
        };
        config.seed = seed;
        config.latency_ms = pick(&mut rng, &[0, 5, 5, 50, 300]);
        config.api.watch_cache = chance(&mut rng, 0.75);
        config.api.watch_cache_capacity = pick(&mut rng, &[3, 8, 20, 100]);
        config.api.bookmark_frequency_ms = pick(&mut rng, &[0, 5_000, 60_000]);
        config.era = pick(&mut rng, &Era::ALL);
        config.sync_period_ms = pick(&mut rng, &[0, 0, 7_000, 20_000, config.sync_period_ms]);
        let workers = 1 + (rng.next_u64() % 3) as usize;
        for controller in &mut config.controllers {
            controller.max_concurrent = workers;
        }
        let replicas = shape == 1;
        let mut objects: Vec<ApiObject> = (0..rng.next_u64() % 6).map(|i| config_map(&format!("c{i}"), i)).collect();
        if replicas {
            let kind = config.informers[0].reflector.kind;
            objects.push(owner(kind, 1 + (rng.next_u64() % 4) as i64));
        }
        let mut schedule = Vec::new();
        let mut names: BTreeSet<String> =
            objects.iter().filter(|o| o.kind == "ConfigMap").map(|o| o.metadata.name.clone()).collect();
        let mut revoked: Vec<Verb> = Vec::new();
        let weights = Weights::draw(&mut rng);
        let events = 5 + rng.next_u64() % 30;
        for _ in 0..events {
            let at = rng.next_u64() % SCHEDULE_MS;
            let action = match weights.pick(&mut rng) {
                EventKind::Create => {
                    let name = format!("c{}", rng.next_u64() % 10);
                    names.insert(name.clone());
                    Intervention::Create(config_map(&name, rng.next_u64() % 100))
                }
                EventKind::Patch => match names.iter().next().cloned() {
                    Some(name) => Intervention::Patch {
                        kind: Kind::ConfigMap,
                        namespace: "default".into(),
                        name,
                        set: [("data".to_string(), json!({"v": (rng.next_u64() % 100).to_string()}))]
                            .into_iter()
                            .collect(),
                        labels: Default::default(),
                    },
                    None => Intervention::Fault(Fault::DisconnectWatch),
                },
                EventKind::Delete => {
                    let known: Vec<String> = names.iter().cloned().collect();
                    let name = if known.is_empty() { "c0".to_string() } else { pick(&mut rng, &known) };
                    Intervention::Delete { kind: Kind::ConfigMap, namespace: "default".into(), name }
                }
                EventKind::Scale if replicas => Intervention::Scale {
                    kind: config.informers[0].reflector.kind,
                    namespace: "default".into(),
                    name: "web".into(),
                    replicas: (rng.next_u64() % 6) as i64,
                },
                EventKind::Scale | EventKind::DropNextEvent => Intervention::Fault(Fault::DropNextEvent),
                EventKind::Disconnect => Intervention::Fault(Fault::DisconnectWatch),
                EventKind::Compact => Intervention::Fault(Fault::CompactStore),
                EventKind::Restart => Intervention::Fault(Fault::RestartApiServer),
                EventKind::Revoke => {
                    let verb = pick(&mut rng, &[Verb::List, Verb::Watch]);
                    revoked.push(verb);
                    Intervention::Fault(Fault::Revoke(verb))
                }
                EventKind::Grant => match revoked.pop() {
                    Some(verb) => Intervention::Fault(Fault::Grant(verb)),
                    None => Intervention::Fault(Fault::CompactStore),
                },
                EventKind::Latency => Intervention::Fault(Fault::Latency(pick(&mut rng, &[0, 20, 500, 3_000]))),
                EventKind::DeleteFirst => Intervention::DeleteFirst {
                    kind: Kind::Pod,
                    namespace: "default".into(),
                    selector: "app=web".into(),
                },
            };
            schedule.push(Scheduled { at, action });
        }
        schedule.sort_by_key(|s| s.at);
        Plan { seed, config, objects, weights, schedule }
    }

    /// The healing at the end: every verb granted, latency back.
    fn heal(&self) -> Vec<Scheduled> {
        let at = SCHEDULE_MS;
        let mut heal: Vec<Scheduled> = [Verb::Get, Verb::List, Verb::Watch]
            .into_iter()
            .map(|v| Scheduled { at, action: Intervention::Fault(Fault::Grant(v)) })
            .collect();
        heal.push(Scheduled { at, action: Intervention::Fault(Fault::Latency(self.config.latency_ms)) });
        heal
    }

    /// Runs the plan and checks every invariant; the first failure, if any.
    pub fn run(&self) -> Result<u64, Failure> {
        self.run_traced(|_| {})
    }

    /// Runs the plan, handing every step to `each`.
    pub fn run_traced(&self, each: impl FnMut(&crate::world::TraceEvent)) -> Result<u64, Failure> {
        let world = self.world().map_err(|e| Failure { step: 0, what: format!("the world does not build: {e}") })?;
        Checker::new(world).run(each)
    }

    /// The plan's world, its schedule and the healing after it queued as timed actions.
    pub fn world(&self) -> Result<World, crate::cluster::Status> {
        let mut world = World::new(self.config.clone(), self.objects.clone())?;
        for s in self.schedule.iter().chain(self.heal().iter()) {
            world.act_at(s.at, s.action.clone());
        }
        Ok(world)
    }

    /// The plan without the faults that happen inside a client (a lost notification, network
    /// latency): the script a real client beside `serve-api` can share.
    pub fn server_side(mut self) -> Plan {
        self.schedule.retain(|s| !matches!(s.action, Intervention::Fault(Fault::DropNextEvent | Fault::Latency(_))));
        self.config.latency_ms = 0;
        self
    }

    /// When the schedule and its healing are over (virtual ms).
    pub fn ends_at(&self) -> Millis {
        SCHEDULE_MS
    }

    /// The smallest schedule (by removing events one at a time) that still fails.
    pub fn shrink(&self) -> Plan {
        let mut plan = self.clone();
        let mut i = 0;
        while i < plan.schedule.len() {
            let mut smaller = plan.clone();
            smaller.schedule.remove(i);
            if smaller.run().is_err() {
                plan = smaller;
            } else {
                i += 1;
            }
        }
        plan
    }
}

/// Watches a run step by step.
struct Checker {
    world: World,
    /// (storage key, revision) → the object the store held there, as JSON.
    written: BTreeMap<(String, i64), String>,
    seen_revision: i64,
    last_sync: Vec<i64>,
}

impl Checker {
    fn new(world: World) -> Self {
        let last_sync = vec![0; world.informers.len()];
        let mut c = Checker { world, written: BTreeMap::new(), seen_revision: 0, last_sync };
        c.record_writes();
        c
    }

    /// Remembers every revision the store has written since the last look.
    fn record_writes(&mut self) {
        let store = self.world.api.store();
        let mut fresh = Vec::new();
        for (rev, event) in store.history().rev() {
            if rev <= self.seen_revision {
                break;
            }
            if let crate::cluster::mvcc_store::Event::Put(kv) = event {
                let mut obj = decode(&kv);
                obj.metadata.resource_version.clear();
                fresh.push(((kv.key.clone(), rev), obj.to_json()));
            }
        }
        self.written.extend(fresh);
        self.seen_revision = store.revision();
    }

    fn fail(&self, what: String) -> Failure {
        Failure { step: self.world.steps(), what }
    }

    fn check_step(&mut self) -> Result<(), Failure> {
        let revision = self.world.api.store().revision();
        if revision < self.seen_revision {
            return Err(self.fail(format!("the store's revision went back: {} → {revision}", self.seen_revision)));
        }
        self.record_writes();
        for (i, stack) in self.world.informers.iter().enumerate() {
            let rv: i64 = stack.pipeline.reflector.last_sync_resource_version.parse().unwrap_or(0);
            if rv < self.last_sync[i] {
                return Err(self.fail(format!(
                    "{} reflector's lastSyncResourceVersion went back: {} → {rv}",
                    stack.config.reflector.kind, self.last_sync[i]
                )));
            }
            self.last_sync[i] = rv;
            let kind = stack.config.reflector.kind;
            for obj in stack.pipeline.informer.indexer.objects() {
                let key = format!("{}{}", prefix(kind, Some(&obj.metadata.namespace)), obj.metadata.name);
                let mut stored = obj.clone();
                stored.metadata.resource_version.clear();
                match self.written.get(&(key.clone(), obj.resource_version())) {
                    Some(json) if *json == stored.to_json() => {}
                    Some(_) => {
                        return Err(self.fail(format!(
                            "the cache holds {key} at rv {} with other content than the store wrote",
                            obj.resource_version()
                        )))
                    }
                    None => {
                        return Err(self.fail(format!(
                            "the cache holds {key} at rv {}, which the store never wrote",
                            obj.resource_version()
                        )))
                    }
                }
            }
        }
        Ok(())
    }

    fn check_end(&mut self) -> Result<(), Failure> {
        for (i, stack) in self.world.informers.iter().enumerate() {
            let kind = stack.config.reflector.kind;
            let both = self.world.cache_vs_store(i).map_err(|e| self.fail(e.to_string()))?;
            if !both.equal() {
                return Err(self.fail(format!(
                    "the {kind} cache does not equal the store: store {:?}, cache {:?}",
                    both.stored, both.cached
                )));
            }
            if !stack.pipeline.informer.fifo.is_empty() {
                return Err(self.fail(format!("the {} FIFO did not drain", kind)));
            }
            if stack.pipeline.informer.listeners.iter().any(|l| !l.buffer.is_empty()) {
                return Err(self.fail(format!("a {} handler's buffer did not drain", kind)));
            }
        }
        for c in &self.world.controllers {
            if !c.queue.is_empty() || c.queue.processing().next().is_some() {
                return Err(self.fail(format!("the {} workqueue did not drain", c.name)));
            }
        }
        Ok(())
    }

    fn run(&mut self, mut each: impl FnMut(&crate::world::TraceEvent)) -> Result<u64, Failure> {
        loop {
            if self.world.steps() >= STEP_BUDGET {
                return Err(self.fail(format!("not quiet after {STEP_BUDGET} steps")));
            }
            let past_schedule = self.world.now() > SCHEDULE_MS;
            if past_schedule && self.world.is_idle() {
                break;
            }
            let stepped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.world.step()));
            match stepped {
                Err(panic) => {
                    let what = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    return Err(self.fail(format!("panic: {what}")));
                }
                Ok(None) => break,
                Ok(Some(event)) => {
                    each(&event);
                    self.check_step()?;
                }
            }
        }
        self.check_end()?;
        Ok(self.world.steps())
    }
}

/// Runs seeds `from..from + count`; returns (seeds run, steps, failures as (seed, failure)).
pub fn run_seeds(from: u64, count: u64) -> (u64, u64, Vec<(u64, Failure)>) {
    let mut steps = 0;
    let mut failures = Vec::new();
    for seed in from..from + count {
        match Plan::from_seed(seed).run() {
            Ok(n) => steps += n,
            Err(f) => failures.push((seed, f)),
        }
    }
    (count, steps, failures)
}

impl Scheduled {
    /// One line of a plan: `at 1200 ms: create ConfigMap default/c3`.
    pub fn describe(&self) -> String {
        let what = match &self.action {
            Intervention::Create(o) => format!("create {} {}", o.kind, o.key()),
            Intervention::Update(o) => format!("update {} {}", o.kind, o.key()),
            Intervention::UpdateStatus(o) => format!("update the status of {} {}", o.kind, o.key()),
            Intervention::ApiCreate(o) => format!("the controller creates {} {}", o.kind, o.key()),
            Intervention::Delete { kind, namespace, name } => format!("delete {kind} {namespace}/{name}"),
            Intervention::Scale { kind, namespace, name, replicas } => {
                format!("scale {kind} {namespace}/{name} to {replicas}")
            }
            Intervention::Patch { kind, namespace, name, set, .. } => {
                format!("patch {kind} {namespace}/{name} {}", serde_json::Value::Object(set.clone()))
            }
            Intervention::PatchStatus { kind, namespace, name, status } => {
                format!("patch the status of {kind} {namespace}/{name} to {status}")
            }
            Intervention::DeleteFirst { kind, namespace, selector } => {
                format!("delete the first {kind} in {namespace} matching {selector}")
            }
            Intervention::ConsoleWatch { kind, .. } => format!("kubectl get {kind} -w"),
            Intervention::Fault(Fault::Latency(ms)) => format!("latency {ms} ms"),
            Intervention::Fault(Fault::Revoke(verb)) => format!("revoke {verb}"),
            Intervention::Fault(Fault::Grant(verb)) => format!("grant {verb}"),
            Intervention::Fault(fault) => format!("{fault:?}"),
            Intervention::CacheRead(read) | Intervention::ApiRead(read) => format!("{read:?}"),
            Intervention::CacheMutate { kind, namespace, name, labels } => {
                format!("get {kind} {namespace}/{name} from the cache and set labels {labels:?} on it")
            }
            Intervention::Outside(request) => format!("{} sends {:?}", request.user.name, request.call),
            Intervention::Served(change) => format!("{change:?}"),
        };
        format!("at {} ms: {what}", self.at)
    }
}

/// A seed's plan as a person reads it: the world, the event weights, the objects and the
/// schedule (`informer-playground swarm --seed N --plan`).
impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.config;
        let controller = c.controllers.first().map(|c| format!("{:?}", c.reconciler)).unwrap_or_default();
        writeln!(f, "seed {}: Kubernetes {}, controller {controller}", self.seed, c.era)?;
        writeln!(
            f,
            "  workers {}, latency {} ms, watch cache {} (window {}), bookmarks every {} ms, resync every {} ms",
            c.controllers.first().map_or(0, |c| c.max_concurrent),
            c.latency_ms,
            if c.api.watch_cache { "on" } else { "off" },
            c.api.watch_cache_capacity,
            c.api.bookmark_frequency_ms,
            c.sync_period_ms
        )?;
        let weights: Vec<String> =
            self.weights.0.iter().filter(|(_, w)| **w > 0).map(|(k, w)| format!("{k:?} {w}")).collect();
        writeln!(f, "  event weights: {}", weights.join(", "))?;
        let objects: Vec<String> = self.objects.iter().map(|o| format!("{} {}", o.kind, o.key())).collect();
        writeln!(f, "  objects: {}", if objects.is_empty() { "none".into() } else { objects.join(", ") })?;
        writeln!(
            f,
            "  schedule ({} events, then every verb granted and latency back at {SCHEDULE_MS} ms):",
            self.schedule.len()
        )?;
        for s in &self.schedule {
            writeln!(f, "    {}", s.describe())?;
        }
        Ok(())
    }
}

/// A failure as the report prints it: the seed to reproduce and the shrunk schedule.
pub fn report(seed: u64, failure: &Failure) -> String {
    let shrunk = Plan::from_seed(seed).shrink();
    let schedule: Vec<String> = shrunk.schedule.iter().map(|s| format!("  {}", s.describe())).collect();
    format!(
        "seed {seed}: step {}: {}\nreproduce with: informer-playground swarm --seed {seed}\nshrunk schedule ({} of {} events):\n{}",
        failure.step,
        failure.what,
        shrunk.schedule.len(),
        Plan::from_seed(seed).schedule.len(),
        schedule.join("\n")
    )
}
