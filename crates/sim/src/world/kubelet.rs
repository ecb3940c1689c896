//! The world's kubelet and polling client: the hops between them and the API server.

use super::message::Msg;
use super::outcome::{Listed, Outcome};
use super::{Hop, World};
use crate::cluster::{Kind, UserInfo, WatchOptions};
use crate::controller::kubelet::{Kubelet, PodPhase};
use crate::kernel::{Stage, TraceKind};

impl World {
    /// The kubelet's view of new Pods: a server-side watch on Pods, read without delay.
    pub(super) fn start_kubelet(&mut self) {
        if let Some(kubelet) = &mut self.kubelet {
            kubelet.watch = self.api.watch(&UserInfo::admin(), Kind::Pod, &WatchOptions::default()).ok();
        }
    }

    /// Hands the kubelet what its watch delivered and schedules the reports it makes.
    pub(super) fn flush_kubelet(&mut self) {
        let Some(id) = self.kubelet.as_ref().and_then(|k| k.watch) else { return };
        let latency = self.config.latency_ms;
        for event in self.api.take_events(id) {
            let reports = self.kubelet.as_ref().map(|k| k.observe(&event, latency)).unwrap_or_default();
            for r in reports {
                self.later(r.after_ms, Msg::KubeletStatus { namespace: r.namespace, name: r.name, phase: r.phase });
            }
        }
    }

    pub(super) fn deliver_kubelet(&mut self, namespace: String, name: String, phase: PodPhase) -> Hop {
        let key = format!("{namespace}/{name}");
        let admin = UserInfo::admin();
        let answer = self.api.get(&admin, Kind::Pod, &namespace, &name, "").and_then(|mut pod| {
            pod.body.insert("status".into(), Kubelet::status(&pod, phase, self.now));
            self.api.update_status(&admin, pod)
        });
        let gone = answer.as_ref().is_err_and(|s| s.code == 404);
        let answer = answer.map(|p| p.resource_version());
        let rv = *answer.as_ref().unwrap_or(&0);
        self.flush_watch_events();
        let outcome = Outcome::KubeletReport { phase, answer, gone };
        Hop::new(Stage::Kubelet, Stage::ApiServer, TraceKind::ApiWrite, &key, rv, outcome)
    }

    pub(super) fn deliver_poll(&mut self) -> Hop {
        let Some(poller) = self.poller else {
            return Hop::plain(Stage::Poller, Stage::ApiServer, TraceKind::ListRequest, Outcome::NothingQueued);
        };
        self.later(poller.every_ms, Msg::PollTick);
        let user = self.user.clone();
        let answer = self
            .api
            .list(&user, poller.kind, &poller.request())
            .map(|l| Listed { items: l.items.len(), resource_version: l.resource_version });
        let rv = answer.as_ref().map_or(0, |l| l.resource_version);
        let outcome = Outcome::Polled { kind: poller.kind, answer };
        Hop::new(Stage::Poller, Stage::ApiServer, TraceKind::ListRequest, "", rv, outcome)
    }
}
