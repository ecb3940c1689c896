//! The Deployment controller (kube-controller-manager `pkg/controller/deployment`), semantics
//! §6: a Deployment owns ReplicaSets, which own Pods.
//!
//! One sync of a Deployment, from its informers' caches:
//! - the ReplicaSets it controls (controllerRef with its UID, selected by its selector);
//! - the *new* ReplicaSet is the one whose `pod-template-hash` label is the hash of the
//!   Deployment's Pod template; with none, it creates `<name>-<hash>` (the template and the
//!   selector extended with that label, owned by the Deployment) at `spec.replicas`;
//! - it scales the new ReplicaSet to `spec.replicas` and every old one to 0;
//! - it writes `status`: replicas, ready, updated and available replicas summed from its
//!   ReplicaSets' statuses, and `observedGeneration`.
//!
//! The ReplicaSet controller (`Replicas` in `reconciler.rs`) then makes the Pods.
//!
//! Left out: rolling updates (`maxSurge`/`maxUnavailable`: a template change here scales the
//! new ReplicaSet up and the old ones down at once, as the `Recreate` strategy does),
//! `minReadySeconds`, revision history and rollback, pausing, progress deadlines, hash
//! collisions. The hash is FNV-32a over the template's JSON (upstream hashes Go's `spew` dump
//! of the struct), encoded as upstream encodes it (`rand.SafeEncodeString`), so its value
//! differs from a real cluster's for the same template.

use super::cache_reader::CacheList;
use super::plan::{controller_of, Cache, Decision, Plan, PlanOp, ReconcileResult, Write};
use crate::cluster::api_object::OwnerReference;
use crate::cluster::selector::LabelSelector;
use crate::cluster::{ApiObject, Kind};
use serde_json::{json, Value};
use std::collections::{BTreeMap, VecDeque};

/// The label that ties a ReplicaSet (and its Pods) to one Pod template.
pub const POD_TEMPLATE_HASH: &str = "pod-template-hash";

/// `rand.SafeEncodeString`'s alphabet: no vowels, no look-alike digits.
const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// The `pod-template-hash` of a Pod template.
pub fn pod_template_hash(template: &Value) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in template.to_string().bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash.to_string().bytes().map(|d| ALPHANUMS[usize::from(d) % ALPHANUMS.len()] as char).collect()
}

fn replicas(obj: &ApiObject) -> i64 {
    obj.spec().and_then(|s| s.get("replicas")).and_then(Value::as_i64).unwrap_or(1)
}

fn status_count(obj: &ApiObject, field: &str) -> i64 {
    obj.status().and_then(|s| s.get(field)).and_then(Value::as_i64).unwrap_or(0)
}

/// The new ReplicaSet for `deployment`'s template at `hash`.
fn new_replica_set(deployment: &ApiObject, hash: &str, want: i64) -> ApiObject {
    let spec = deployment.spec().cloned().unwrap_or_default();
    let mut template = spec.get("template").cloned().unwrap_or_else(|| json!({}));
    template["metadata"]["labels"][POD_TEMPLATE_HASH] = json!(hash);
    let mut selector = spec.get("selector").cloned().unwrap_or_else(|| json!({}));
    selector["matchLabels"][POD_TEMPLATE_HASH] = json!(hash);
    let name = format!("{}-{hash}", deployment.metadata.name);
    let mut rs = ApiObject::new(Kind::ReplicaSet, &deployment.metadata.namespace, &name)
        .with("spec", json!({"replicas": want, "selector": selector, "template": template}));
    rs.metadata.labels = serde_json::from_value(template["metadata"]["labels"].clone()).unwrap_or_default();
    rs.metadata.owner_references = vec![OwnerReference {
        api_version: Kind::Deployment.api_version().into(),
        kind: Kind::Deployment.name().into(),
        name: deployment.metadata.name.clone(),
        uid: deployment.metadata.uid.clone(),
        controller: Some(true),
    }];
    rs
}

/// One sync of the Deployment `namespace/name`.
pub fn plan(namespace: &str, name: &str, cache: &mut dyn Cache) -> Plan {
    let deployment = match cache.get(Kind::Deployment, namespace, name) {
        Ok(d) => d,
        Err(e) if e.is_not_found() => return Plan::not_found(e),
        Err(e) => return Plan::read_failed(false, e),
    };
    let spec = deployment.spec().cloned().unwrap_or_default();
    let want = replicas(&deployment);
    let match_labels: BTreeMap<String, String> =
        serde_json::from_value(spec["selector"]["matchLabels"].clone()).unwrap_or_default();
    let opts = CacheList {
        namespace: Some(namespace.into()),
        labels: LabelSelector::from_labels(&match_labels),
        field: None,
        ..Default::default()
    };
    let owned: Vec<ApiObject> = match cache.list(Kind::ReplicaSet, &opts) {
        Ok(all) => {
            all.into_iter().filter(|rs| controller_of(rs).is_some_and(|r| r.uid == deployment.metadata.uid)).collect()
        }
        Err(e) => return Plan::read_failed(true, e),
    };
    let hash = pod_template_hash(&spec["template"]);
    let (new, old): (Vec<ApiObject>, Vec<ApiObject>) =
        owned.iter().cloned().partition(|rs| rs.metadata.labels.get(POD_TEMPLATE_HASH) == Some(&hash));
    let mut ops = VecDeque::new();
    let mut decisions = Vec::new();
    match new.first() {
        None => {
            let rs = new_replica_set(&deployment, &hash, want);
            decisions.push(Decision::NewReplicaSet { name: rs.metadata.name.clone(), replicas: want });
            ops.push_back(PlanOp::Write(Write::Create(rs)));
        }
        Some(rs) if replicas(rs) != want => {
            decisions.push(Decision::ScaleReplicaSet { name: rs.metadata.name.clone(), from: replicas(rs), to: want });
            let mut scaled = rs.clone();
            scaled.body.insert("spec".into(), {
                let mut s = rs.spec().cloned().unwrap_or_default();
                s["replicas"] = json!(want);
                s
            });
            ops.push_back(PlanOp::Write(Write::Update(scaled)));
        }
        Some(_) => {}
    }
    for rs in old.iter().filter(|rs| replicas(rs) > 0) {
        decisions.push(Decision::ScaleReplicaSet { name: rs.metadata.name.clone(), from: replicas(rs), to: 0 });
        let mut scaled = rs.clone();
        if let Some(s) = scaled.body.get_mut("spec") {
            s["replicas"] = json!(0);
        }
        ops.push_back(PlanOp::Write(Write::Update(scaled)));
    }
    let sum = |field: &str| owned.iter().map(|rs| status_count(rs, field)).sum::<i64>();
    let ready = sum("readyReplicas");
    let updated = new.first().map_or(0, |rs| status_count(rs, "replicas"));
    let status = json!({
        "observedGeneration": deployment.metadata.generation,
        "replicas": sum("replicas"),
        "updatedReplicas": updated,
        "readyReplicas": ready,
        "availableReplicas": ready,
    });
    if deployment.status() != Some(&status) {
        let mut updated = deployment.clone();
        updated.body.insert("status".into(), status);
        ops.push_back(PlanOp::Write(Write::UpdateStatus(updated)));
    }
    if decisions.is_empty() {
        decisions.push(Decision::Found { rv: deployment.resource_version() });
    }
    Plan { ops, decisions, result: ReconcileResult::Success }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_6_the_pod_template_hash_names_the_template_in_safe_characters() {
        let a = pod_template_hash(&json!({"metadata": {"labels": {"app": "web"}}}));
        let b = pod_template_hash(&json!({"metadata": {"labels": {"app": "api"}}}));
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| ALPHANUMS.contains(&c)), "{a}");
        assert_eq!(a, pod_template_hash(&json!({"metadata": {"labels": {"app": "web"}}})), "stable");
    }
}
