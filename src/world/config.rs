//! How a world is set up: the informer's resource and handlers, latency, seed, RBAC.

use crate::client::reflector::ReflectorConfig;
use crate::cluster::{ApiServerConfig, Kind};
use crate::sim::Millis;

/// One event handler registered on the informer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerConfig {
    pub name: String,
    /// Requested resync period (0: none).
    pub resync_ms: Millis,
    /// Whether the handler adds the object's key to the controller's workqueue.
    pub enqueue: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldConfig {
    pub seed: u64,
    /// Client ↔ API server latency, each way.
    pub latency_ms: Millis,
    pub api: ApiServerConfig,
    pub reflector: ReflectorConfig,
    /// The informer's default resync period (0: none).
    pub resync_ms: Millis,
    pub handlers: Vec<HandlerConfig>,
    /// How long one reconcile takes.
    pub reconcile_ms: Millis,
    /// How often the API server sends bookmarks (0: never).
    pub bookmark_interval_ms: Millis,
    /// The controller's service account.
    pub controller_namespace: String,
    pub controller_name: String,
    /// RBAC verbs the controller has on the informer's resource.
    pub granted_verbs: Vec<String>,
}

impl WorldConfig {
    /// One informer on `kind` with one handler feeding the controller's workqueue.
    pub fn new(kind: Kind) -> Self {
        WorldConfig {
            seed: 1,
            latency_ms: 5,
            api: ApiServerConfig::default(),
            reflector: ReflectorConfig::new(kind),
            resync_ms: 0,
            handlers: vec![HandlerConfig { name: "controller".into(), resync_ms: 0, enqueue: true }],
            reconcile_ms: 10,
            bookmark_interval_ms: 60_000,
            controller_namespace: "default".into(),
            controller_name: "playground-controller".into(),
            granted_verbs: ["get", "list", "watch"].map(String::from).to_vec(),
        }
    }
}
