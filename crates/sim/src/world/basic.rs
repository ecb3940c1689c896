//! The built-in `basic` run: three Pods and a ConfigMap, one Pod informer with one
//! controller, and writes over a few seconds (including one to another resource, which moves
//! the global resourceVersion without an event for the Pod informer).

use super::{Intervention, World, WorldConfig};
use crate::cluster::{storage, ApiObject, Kind, Status};
use crate::era::Era;
use serde_json::json;

fn pod(name: &str) -> ApiObject {
    ApiObject::new(Kind::Pod, "default", name)
        .with_label("app", "web")
        .with("spec", json!({"nodeName": "node-1", "containers": [{"name": "web", "image": "nginx:1.27"}]}))
}

/// The world and the writes scheduled in it (already scheduled: just step it).
pub fn basic(seed: u64, era: Era) -> Result<World, Status> {
    let mut config = WorldConfig::new(Kind::Pod);
    config.seed = seed;
    config.era = era;
    let objects = vec![
        pod("web-1"),
        pod("web-2"),
        pod("web-3"),
        ApiObject::new(Kind::ConfigMap, "default", "settings").with("data", json!({"mode": "blue"})),
    ];
    let mut world = World::new(config, objects)?;
    let stored = |w: &World, name: &str| {
        let kv = storage::current(w.api.store(), &storage::storage_key(Kind::Pod, "default", name))?;
        Some(storage::decode(&kv))
    };
    world.act_at(2_000, Intervention::Create(pod("web-4")));
    if let Some(web1) = stored(&world, "web-1") {
        world.act_at(3_000, Intervention::Update(web1.with_label("tier", "frontend")));
    }
    world.act_at(4_000, Intervention::Delete { kind: Kind::Pod, namespace: "default".into(), name: "web-2".into() });
    world.act_at(
        5_000,
        Intervention::Create(
            ApiObject::new(Kind::ConfigMap, "default", "feature-flags").with("data", json!({"beta": "on"})),
        ),
    );
    if let Some(web3) = stored(&world, "web-3") {
        world.act_at(6_000, Intervention::UpdateStatus(web3.with("status", json!({"phase": "Running"}))));
    }
    Ok(world)
}

fn deployment(replicas: i64) -> ApiObject {
    ApiObject::new(Kind::Deployment, "default", "web").with_label("app", "web").with(
        "spec",
        json!({
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}
        }),
    )
}

/// The `scale` run (see the module comment).
pub fn scale(seed: u64, era: Era) -> Result<World, Status> {
    scale_with_load(seed, 0, era)
}

/// The `scale` run in a bigger cluster: `load` more Pods (in namespace `load`, owned by
/// nobody) that every cache holds and the kubelet runs.
pub fn scale_with_load(seed: u64, load: usize, era: Era) -> Result<World, Status> {
    let mut config = WorldConfig::replicas(Kind::Deployment, false);
    config.seed = seed;
    config.era = era;
    let mut objects = vec![deployment(3)];
    objects.extend((0..load).map(|i| {
        ApiObject::new(Kind::Pod, "load", &format!("load-{i:05}")).with_label("app", "load").with(
            "spec",
            json!({"nodeName": format!("node-{}", i % 100), "containers": [{"name": "main", "image": "busybox:1.36"}]}),
        )
    }));
    let mut world = World::new(config, objects)?;
    for (at, replicas) in [(5_000, 5), (10_000, 2)] {
        let (namespace, name) = ("default".into(), "web".into());
        world.act_at(at, Intervention::Scale { kind: Kind::Deployment, namespace, name, replicas });
    }
    Ok(world)
}

/// The service accounts of the `bare` run (namespace `judge`) and the verbs each has on
/// ConfigMaps, Pods and Secrets everywhere: one may read, one may watch but not list, one may
/// do nothing (no role at all: a role must grant a verb).
pub const BARE_ACCOUNTS: [(&str, &[&str]); 3] =
    [("reader", &["get", "list", "watch"]), ("watcher", &["watch"]), ("nobody", &[])];

/// The built-in runs by name (`basic`, `scale`, `bare`): what serve-api and `run` make, and a
/// live page makes again; `None` for any other name.
pub fn built_in(name: &str, seed: u64, era: Era) -> Option<Result<World, Status>> {
    match name {
        "basic" => Some(basic(seed, era)),
        "scale" => Some(scale(seed, era)),
        "bare" => Some(bare(seed, era)),
        _ => None,
    }
}

/// The `bare` run: an API server alone, as a kube-apiserver with no controller manager, no
/// scheduler and no kubelet is — no informer, controller or kubelet, an empty store, and the
/// `BARE_ACCOUNTS` bound by ClusterRoles of their names. What the server judge compares with
/// a real kube-apiserver.
pub fn bare(seed: u64, era: Era) -> Result<World, Status> {
    use crate::cluster::rbac::{PolicyRule, Role, RoleBinding, Subject};
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.seed = seed;
    config.era = era;
    config.informers.clear();
    config.controllers.clear();
    let mut world = World::new(config, Vec::new())?;
    // An account without verbs is bound to a role without rules: it may do nothing, as on a
    // real server where it is bound to nothing, and serve-api's kubeconfig still names it.
    for (name, verbs) in BARE_ACCOUNTS {
        let rules = match verbs.is_empty() {
            true => Vec::new(),
            false => vec![PolicyRule::new(verbs, &[""], &["configmaps", "pods", "secrets"])],
        };
        let role = format!("judge-{name}");
        world.api.rbac_mut().put_role(Role { namespace: String::new(), name: role.clone(), rules });
        world.api.rbac_mut().put_binding(RoleBinding {
            namespace: String::new(),
            name: role.clone(),
            role_is_cluster_role: true,
            role_name: role,
            subjects: vec![Subject::ServiceAccount { namespace: "judge".into(), name: (*name).into() }],
        });
    }
    Ok(world)
}
