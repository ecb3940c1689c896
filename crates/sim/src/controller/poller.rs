//! A client that polls instead of watching: `kubectl get pods` every second, the first
//! article's example of what list-watch saves. Each tick is a full LIST from etcd (no
//! resourceVersion: the most recent state), whatever changed or not.

use crate::cluster::api_server::ListOptions;
use crate::cluster::Kind;
use crate::kernel::Millis;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poller {
    pub kind: Kind,
    pub every_ms: Millis,
}

impl Poller {
    /// The LIST each tick sends.
    pub fn request(&self) -> ListOptions {
        ListOptions::default()
    }
}
