//! Request counters like `apiserver_request_total{verb, resource, code}`, plus what the server
//! serialised: the figures behind the cost panel.

use super::request::Verb;
use crate::kernel::SmallMap;

/// Request counters like `apiserver_request_total{verb, resource, code}`, plus what the
/// server serialised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    pub requests: SmallMap<(Verb, String, u16), u64>,
    /// Objects sent in list responses and watch events.
    pub objects_sent: u64,
    pub bytes_sent: u64,
}

impl Metrics {
    /// Requests with this verb, any code.
    pub fn requests_by_verb(&self, verb: Verb) -> u64 {
        self.requests.iter().filter(|((v, _, _), _)| *v == verb).map(|(_, n)| n).sum()
    }

    pub(super) fn record(&mut self, verb: Verb, resource: &str, code: u16) {
        *self.requests.or_insert_with((verb, resource.into(), code), || 0) += 1;
    }

    pub(super) fn sent(&mut self, objects: u64, bytes: usize) {
        self.objects_sent += objects;
        self.bytes_sent += bytes as u64;
    }
}
