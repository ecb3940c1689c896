//! How a world is set up: the informers (one per watched kind, shared by the controllers as a
//! shared informer factory or a manager's cache shares them), their handlers and indexes,
//! the controllers (each a reconciler with its own workqueue and workers), the kubelet,
//! latency, seed, RBAC.

use crate::client::indexer::IndexFunc;
use crate::client::reflector::ReflectorConfig;
use crate::client::transform::Transform;
use crate::cluster::selector::LabelSelector;
use crate::cluster::{ApiServerConfig, Kind, Verb};
use crate::controller::handler::Enqueue;
use crate::controller::predicate::Predicate;
use crate::controller::reconciler::ReconcilerKind;
use crate::era::Era;
use crate::kernel::Millis;

/// controller-runtime's default `SyncPeriod`: 10 hours, jittered per informer in [0.9, 1.1).
pub const DEFAULT_SYNC_PERIOD_MS: Millis = 10 * 3600 * 1000;

/// One event handler registered on an informer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerConfig {
    pub name: String,
    /// Requested resync period; `None`: the informer's default.
    pub resync_ms: Option<Millis>,
    pub route: Enqueue,
    /// The controller (by index) whose workqueue it feeds.
    pub controller: usize,
    /// A `FilteringResourceEventHandler`'s filter: the handler sees only objects whose labels
    /// it selects (an update across the line becomes an add or a delete).
    pub filter: Option<LabelSelector>,
    /// controller-runtime predicates between the informer and the controller's handler.
    pub predicates: Vec<Predicate>,
}

impl HandlerConfig {
    /// A handler feeding the first controller.
    pub fn new(name: &str, route: Enqueue) -> Self {
        HandlerConfig { name: name.into(), resync_ms: None, route, controller: 0, filter: None, predicates: Vec::new() }
    }

    /// A handler feeding controller `controller`.
    pub fn feeding(name: &str, route: Enqueue, controller: usize) -> Self {
        HandlerConfig { controller, ..Self::new(name, route) }
    }
}

/// One informer: what it lists and watches (its cache scope), its handlers and indexes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InformerConfig {
    pub reflector: ReflectorConfig,
    pub handlers: Vec<HandlerConfig>,
    /// Extra indexes, e.g. `("field:spec.nodeName", IndexFunc::Field("spec.nodeName"))`.
    pub indexes: Vec<(String, IndexFunc)>,
    /// What each object passes through before the queue (controller-runtime's `Transform`).
    pub transform: Transform,
}

impl InformerConfig {
    pub fn new(kind: Kind, route: Enqueue) -> Self {
        InformerConfig {
            reflector: ReflectorConfig::new(kind),
            handlers: vec![HandlerConfig::new("controller", route)],
            indexes: Vec::new(),
            transform: Transform::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControllerConfig {
    /// Its name in logs and the page (`replicaset-controller`).
    pub name: String,
    pub reconciler: ReconcilerKind,
    /// `MaxConcurrentReconciles` (default 1).
    pub max_concurrent: usize,
    /// Time a reconcile spends thinking before its first write or its result.
    pub reconcile_ms: Millis,
}

impl ControllerConfig {
    pub fn new(name: &str, reconciler: ReconcilerKind) -> Self {
        ControllerConfig { name: name.into(), reconciler, max_concurrent: 1, reconcile_ms: 10 }
    }
}

/// A periodic LIST instead of a watch: the polling controller of the cost comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PollConfig {
    pub kind: Kind,
    pub every_ms: Millis,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldConfig {
    /// The Kubernetes release whose behaviour the world has.
    pub era: Era,
    pub seed: u64,
    /// Client ↔ API server latency, each way.
    pub latency_ms: Millis,
    pub api: ApiServerConfig,
    pub informers: Vec<InformerConfig>,
    /// The informers' default resync (`SyncPeriod`), jittered per informer; 0: none.
    pub sync_period_ms: Millis,
    /// The controllers, each fed by the handlers that name it.
    pub controllers: Vec<ControllerConfig>,
    /// Run a kubelet that moves new Pods to ContainerCreating, then Running.
    pub kubelet: bool,
    pub poll: Option<PollConfig>,
    /// The controller's service account.
    pub controller_namespace: String,
    pub controller_name: String,
    /// RBAC verbs the controller has on every resource it uses.
    pub granted_verbs: Vec<Verb>,
    /// Kinds the controller's role covers beyond those its informers watch: kinds it reads
    /// without an informer at the start.
    pub granted_kinds: Vec<Kind>,
    /// controller-runtime's `cache.Options.ReaderFailOnMissingInformer` (v0.16 on): a cache
    /// read of a kind no informer watches is `ErrResourceNotCached` instead of starting one.
    pub reader_fail_on_missing_informer: bool,
    /// controller-runtime's `UnsafeDisableDeepCopy` (cache options, per object or by default):
    /// reads hand out the cache's own objects instead of deep copies.
    pub unsafe_disable_deep_copy: bool,
    /// controller-runtime's `client.Options.Cache.DisableFor`: kinds the manager's client never
    /// reads from the cache; each read is a GET or LIST on the API server.
    pub disable_for: Vec<Kind>,
    /// When the manager's `Start` starts the cache and its informers (0: at once). A cache
    /// read before then fails (`ErrCacheNotStarted`); the APIReader reads as ever.
    pub cache_start_ms: Millis,
}

impl WorldConfig {
    /// One informer on `kind` whose handler feeds a controller that observes each object.
    pub fn new(kind: Kind) -> Self {
        WorldConfig {
            era: Era::CURRENT,
            seed: 1,
            latency_ms: 5,
            api: ApiServerConfig::default(),
            informers: vec![InformerConfig::new(kind, Enqueue::Object)],
            sync_period_ms: 0,
            controllers: vec![ControllerConfig::new("controller", ReconcilerKind::Observe(kind))],
            kubelet: false,
            poll: None,
            controller_namespace: "default".into(),
            controller_name: "playground-controller".into(),
            granted_verbs: vec![Verb::Get, Verb::List, Verb::Watch],
            granted_kinds: Vec::new(),
            reader_fail_on_missing_informer: false,
            unsafe_disable_deep_copy: false,
            disable_for: Vec::new(),
            cache_start_ms: 0,
        }
    }

    /// Workloads and their Pods, with a kubelet: for a ReplicaSet, the ReplicaSet controller;
    /// for a Deployment, the Deployment controller (Deployments → ReplicaSets) and the
    /// ReplicaSet controller (ReplicaSets → Pods), sharing the ReplicaSet informer.
    pub fn replicas(owner: Kind, edge_triggered: bool) -> Self {
        let replica_sets = ReconcilerKind::Replicas { owner: Kind::ReplicaSet, edge_triggered };
        let mut config = WorldConfig::new(owner);
        if owner == Kind::Deployment {
            config.informers[0].handlers = vec![HandlerConfig::feeding("deployment-controller", Enqueue::Object, 0)];
            let mut sets = InformerConfig::new(Kind::ReplicaSet, Enqueue::Owner);
            sets.handlers = vec![
                HandlerConfig::feeding("deployment-controller", Enqueue::Owner, 0),
                HandlerConfig::feeding("replicaset-controller", Enqueue::Object, 1),
            ];
            let mut pods = InformerConfig::new(Kind::Pod, Enqueue::Owner);
            pods.handlers = vec![HandlerConfig::feeding("replicaset-controller", Enqueue::Owner, 1)];
            config.informers.extend([sets, pods]);
            config.controllers = vec![
                ControllerConfig::new("deployment-controller", ReconcilerKind::Deployment),
                ControllerConfig::new("replicaset-controller", replica_sets),
            ];
        } else {
            config.informers.push(InformerConfig::new(Kind::Pod, Enqueue::Owner));
            config.controllers[0].reconciler = replica_sets;
        }
        config.kubelet = true;
        config.sync_period_ms = DEFAULT_SYNC_PERIOD_MS;
        config.granted_verbs = vec![Verb::Get, Verb::List, Verb::Watch, Verb::Create, Verb::Update, Verb::Delete];
        config
    }

    /// No informer at all: a client that LISTs `kind` every `every_ms` (the cost comparison).
    pub fn polling(kind: Kind, every_ms: Millis) -> Self {
        let mut config = WorldConfig::new(kind);
        config.informers.clear();
        config.poll = Some(PollConfig { kind, every_ms });
        config
    }

    /// The stale-read ConfigMap reconciler.
    pub fn stamp() -> Self {
        let mut config = WorldConfig::new(Kind::ConfigMap);
        config.controllers[0].reconciler = ReconcilerKind::StampConfigMap;
        config.sync_period_ms = DEFAULT_SYNC_PERIOD_MS;
        config.granted_verbs = vec![Verb::Get, Verb::List, Verb::Watch, Verb::Update];
        config
    }
}
