//! The kubelet, as far as the playground needs it: it watches Pods, and moves each new
//! `Pending` Pod to `ContainerCreating` (with its containers waiting) and then to `Running`
//! (ready, with a start time), each a `status` write through the API server. Sans-IO: it says
//! which reports to make and what status they write; the world sends them.
//!
//! Left out: scheduling (Pods are bound by their manifest's `spec.nodeName`, or not at all),
//! probes, restarts, images, and everything a real node does.

use crate::cluster::watch::ApiWatchId;
use crate::cluster::{ApiObject, WatchEvent};
use crate::kernel::Millis;
use serde::Serialize;
use serde_json::{json, Value};

/// A phase the kubelet reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum PodPhase {
    ContainerCreating,
    Running,
}

impl PodPhase {
    pub fn name(self) -> &'static str {
        match self {
            PodPhase::ContainerCreating => "ContainerCreating",
            PodPhase::Running => "Running",
        }
    }
}

/// A status report to make after a delay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub namespace: String,
    pub name: String,
    pub phase: PodPhase,
    pub after_ms: Millis,
}

/// How long a new Pod waits before its containers are being created, and then before they run.
pub const START_MS: Millis = 500;
pub const RUN_MS: Millis = 1_000;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kubelet {
    /// Its watch on Pods.
    pub watch: Option<ApiWatchId>,
}

fn is_new(pod: &ApiObject) -> bool {
    let status = pod.status();
    status.and_then(|s| s.get("phase")).and_then(Value::as_str) == Some("Pending")
        && status.is_none_or(|s| s.get("containerStatuses").is_none())
}

impl Kubelet {
    /// The reports a Pod event sets off, `latency` away from the API server.
    pub fn observe(&self, event: &WatchEvent, latency: Millis) -> Vec<Report> {
        let WatchEvent::Added(pod) = event else { return Vec::new() };
        if !is_new(pod) {
            return Vec::new();
        }
        let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
        let start = latency + START_MS;
        vec![
            Report {
                namespace: namespace.clone(),
                name: name.clone(),
                phase: PodPhase::ContainerCreating,
                after_ms: start,
            },
            Report { namespace, name, phase: PodPhase::Running, after_ms: start + RUN_MS },
        ]
    }

    /// The status a report writes onto the Pod at `now`.
    pub fn status(pod: &ApiObject, phase: PodPhase, now: Millis) -> Value {
        let containers: Vec<String> = pod
            .spec()
            .and_then(|s| s.get("containers"))
            .and_then(Value::as_array)
            .map(|cs| cs.iter().filter_map(|c| c["name"].as_str().map(String::from)).collect())
            .unwrap_or_default();
        match phase {
            PodPhase::Running => {
                let started = crate::cluster::api_object::timestamp(now);
                json!({
                    "phase": "Running",
                    "conditions": [{"type": "Ready", "status": "True"}],
                    "containerStatuses": containers.iter().map(|c| json!({"name": c, "ready": true, "state": {"running": {"startedAt": started}}})).collect::<Vec<_>>(),
                })
            }
            PodPhase::ContainerCreating => json!({
                "phase": "Pending",
                "containerStatuses": containers.iter().map(|c| json!({"name": c, "ready": false, "state": {"waiting": {"reason": "ContainerCreating"}}})).collect::<Vec<_>>(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Kind;

    #[test]
    fn a_new_pending_pod_is_started_then_runs() {
        let mut pod = ApiObject::new(Kind::Pod, "default", "p")
            .with("spec", json!({"containers": [{"name": "web"}]}))
            .with("status", json!({"phase": "Pending"}));
        let reports = Kubelet::default().observe(&WatchEvent::Added(pod.clone().into()), 5);
        assert_eq!(
            reports.iter().map(|r| (r.phase, r.after_ms)).collect::<Vec<_>>(),
            [(PodPhase::ContainerCreating, 505), (PodPhase::Running, 1505)]
        );
        assert!(Kubelet::default().observe(&WatchEvent::Modified(pod.clone().into()), 5).is_empty());
        pod.body.insert("status".into(), Kubelet::status(&pod, PodPhase::Running, 0));
        assert!(
            Kubelet::default().observe(&WatchEvent::Added(pod.clone().into()), 5).is_empty(),
            "a started Pod is not new"
        );
        assert_eq!(pod.status().unwrap()["containerStatuses"][0]["ready"], true);
    }
}
