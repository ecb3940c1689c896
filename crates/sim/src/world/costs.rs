//! What a run costs: API requests by verb, bytes and objects sent, what the caches hold, how
//! many reconciles and requeues, and how long each spec write took to show in a status that
//! observed it.

use super::World;
use crate::cluster::storage::prefix;
use crate::cluster::Verb;
use crate::cluster::{ApiObject, KeyRange, Kind};
use crate::kernel::{Millis, SmallMap};
use serde_json::Value;

/// What a run costs: the figures of the cost panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Costs {
    /// API requests by verb (`LIST`, `WATCH`, `GET`, `POST`, `PUT`, `DELETE`).
    pub requests: SmallMap<Verb, u64>,
    pub bytes_sent: u64,
    pub objects_sent: u64,
    /// Per informer: the kind, objects cached and their bytes as JSON.
    pub cached: Vec<(Kind, usize, usize)>,
    /// Every informer's index entries (a key under a value) and their bytes.
    pub index_entries: (usize, usize),
    /// Per informer whose cache is scoped (a namespace, a label or field selector): the kind,
    /// and the objects of that kind etcd holds with their bytes — what the scope keeps out.
    pub in_cluster: Vec<(Kind, usize, usize)>,
    /// When an informer has a transform or caches metadata alone: the bytes every cache would
    /// hold with its objects whole (each as the API server holds it now).
    pub whole_bytes: Option<usize>,
    pub reconciles: u64,
    pub requeues: u64,
    /// For each spec write by a user, the time until the controller wrote a status that
    /// observed its generation.
    pub status_latency_ms: Vec<Millis>,
}

/// Times each spec write by a person until the controller writes a status that observed its
/// generation (`status.observedGeneration`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatusClock {
    /// (key, generation) → when the spec was written.
    pending: SmallMap<(String, i64), Millis>,
    latencies: Vec<Millis>,
}

impl StatusClock {
    pub fn spec_written(&mut self, obj: &ApiObject, now: Millis) {
        self.pending.insert((obj.key(), obj.metadata.generation), now);
    }

    /// A status write: stops the clock of the generation it observed.
    pub fn status_written(&mut self, obj: &ApiObject, now: Millis) {
        let observed = obj.status().and_then(|s| s.get("observedGeneration")).and_then(Value::as_i64);
        if let Some(at) = observed.and_then(|g| self.pending.remove(&(obj.key(), g))) {
            self.latencies.push(now - at);
        }
    }

    pub fn latencies(&self) -> &[Millis] {
        &self.latencies
    }
}

impl World {
    /// The run's cost figures.
    pub fn costs(&self) -> Costs {
        let metrics = self.api.metrics();
        let mut requests = SmallMap::new();
        for ((verb, _, _), n) in metrics.requests.iter() {
            *requests.or_insert_with(*verb, || 0) += n;
        }
        let cached = self
            .informers
            .iter()
            .map(|s| {
                let (objects, bytes) = s.cache_size();
                (s.config.reflector.kind, objects, bytes)
            })
            .collect();
        let in_cluster = self
            .informers
            .iter()
            .map(|s| &s.config.reflector)
            .filter(|r| r.namespace.is_some() || !r.label_selector.is_empty() || !r.field_selector.is_empty())
            .map(|r| {
                let (objects, bytes) = self.api.store().usage(&KeyRange::prefix(prefix(r.kind, None)));
                (r.kind, objects, bytes)
            })
            .collect();
        let cut = |s: &super::InformerStack| !s.pipeline.transform.is_none() || s.config.reflector.metadata_only;
        let whole_bytes = self
            .informers
            .iter()
            .any(cut)
            .then(|| self.informers.iter().map(|s| if cut(s) { self.in_full(s) } else { s.cache_size().1 }).sum());
        let index_entries = self
            .informers
            .iter()
            .map(|s| s.pipeline.informer.indexer.index_size())
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        Costs {
            requests,
            index_entries,
            in_cluster,
            whole_bytes,
            bytes_sent: metrics.bytes_sent,
            objects_sent: metrics.objects_sent,
            cached,
            reconciles: self.reconciles(),
            requeues: self.requeues(),
            status_latency_ms: self.status_clock.latencies().to_vec(),
        }
    }

    /// The bytes of the objects an informer caches, as the API server holds them now.
    fn in_full(&self, informer: &super::InformerStack) -> usize {
        let kind = informer.config.reflector.kind;
        let admin = crate::cluster::UserInfo::admin();
        informer
            .pipeline
            .informer
            .indexer
            .objects()
            .filter_map(|o| self.api.peek_get(&admin, kind, &o.metadata.namespace, &o.metadata.name).ok())
            .map(|o| o.to_json().len())
            .sum()
    }
}
