//! The faults a person injects (ARCHITECTURE.md: "faults do what upstream does"), applied at the current step: disconnecting the
//! reflectors' watches, compacting etcd, restarting the API server, revoking and granting the
//! controller's RBAC verbs, losing the next handler notification, and network latency.

use super::message::{Fault, Msg};
use super::outcome::FaultEffect;
use super::{World, CONTROLLER_ROLE};
use crate::cluster::Verb;

impl World {
    /// Applies a fault; returns what it did.
    pub(super) fn inject(&mut self, fault: Fault) -> FaultEffect {
        use FaultEffect;
        match fault {
            Fault::DisconnectWatch => {
                let mut ids = Vec::new();
                for i in 0..self.informers.len() {
                    if let Some(id) = self.informers[i].pipeline.reflector.current_watch() {
                        self.api.stop_watch(id);
                        self.informers[i].abandon(id);
                        self.later(0, Msg::WatchEnded(i, id));
                        ids.push(id);
                    }
                }
                if ids.is_empty() {
                    FaultEffect::NoWatchOpen
                } else {
                    FaultEffect::WatchesCut { ids }
                }
            }
            Fault::CompactStore => {
                let revision = self.api.store().revision();
                match self.api.compact(revision) {
                    Ok(()) => FaultEffect::Compacted { revision },
                    Err(e) => FaultEffect::CompactFailed { message: e.grpc_message() },
                }
            }
            Fault::RestartApiServer => {
                for i in 0..self.informers.len() {
                    for id in std::mem::take(&mut self.informers[i].open_watches) {
                        self.send_on_stream(i, id, Msg::WatchEnded(i, id));
                    }
                }
                self.api.restart();
                self.start_kubelet();
                FaultEffect::ApiServerRestarted
            }
            Fault::Revoke(verb) => {
                self.set_verb(verb, false);
                FaultEffect::Revoked { verb, user: self.user.name.clone() }
            }
            Fault::Grant(verb) => {
                self.set_verb(verb, true);
                FaultEffect::Granted { verb, user: self.user.name.clone() }
            }
            Fault::DropNextEvent => {
                self.drop_next_notification = true;
                FaultEffect::NextNotificationLost
            }
            Fault::Latency(ms) => {
                self.config.latency_ms = ms;
                FaultEffect::Latency { ms }
            }
        }
    }

    fn set_verb(&mut self, verb: Verb, granted: bool) {
        if let Some(role) = self.api.rbac_mut().role_mut("", CONTROLLER_ROLE) {
            for rule in &mut role.rules {
                rule.verbs.retain(|v| v != verb.rbac());
                if granted {
                    rule.verbs.push(verb.rbac().to_string());
                }
            }
        }
    }
}
