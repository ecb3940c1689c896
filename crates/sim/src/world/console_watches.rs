//! The console's `kubectl get -w` watches: server-side watches read without delay, whose
//! events the console prints as they arrive (an onlooker: they never count in the run's
//! costs beyond the WATCH request itself).

use crate::cluster::watch::ApiWatchId;
use crate::cluster::{ApiServer, Kind, WatchEvent};
use crate::kernel::Millis;

/// One event a console watch delivered: (step, time, kind, event).
pub type ConsoleEvent = (u64, Millis, Kind, WatchEvent);

#[derive(Clone, Debug, Default)]
pub struct ConsoleWatches {
    watches: Vec<(ApiWatchId, Kind)>,
    events: Vec<ConsoleEvent>,
}

impl ConsoleWatches {
    pub fn watch(&mut self, id: ApiWatchId, kind: Kind) {
        self.watches.push((id, kind));
    }

    /// Takes what the API server queued on every console watch.
    pub fn collect(&mut self, api: &mut ApiServer, step: u64, now: Millis) {
        for (id, kind) in &self.watches {
            for event in api.take_events(*id) {
                self.events.push((step, now, *kind, event));
            }
        }
    }

    pub fn events(&self) -> &[ConsoleEvent] {
        &self.events
    }
}
