//! The client side of a LIST, as a bench: `DeltaFIFO.Replace` of `n` Pods, then every key
//! popped into an indexer with the namespace index — the work client-go's in-memory peer
//! (`tests/realclients/pipeline-bench`) times. One body for the native bench
//! (`benches/list_50k.rs`) and its run in the browser (`tests/web_bench.rs`), each with its
//! own clock.

use crate::client::delta::{DeltaObject, DeltaType};
use crate::client::indexer::Indexer;
use crate::client::queue;
use crate::cluster::{ApiObject, Kind, Shared};
use crate::era::Era;
use serde_json::json;

/// Pod `i` of the bench: 50 namespaces, 100 apps, 500 nodes.
pub fn pod(i: usize) -> ApiObject {
    ApiObject::new(Kind::Pod, &format!("ns-{}", i % 50), &format!("pod-{i:05}"))
        .with_label("app", &format!("app-{}", i % 100))
        .with(
            "spec",
            json!({"nodeName": format!("node-{}", i % 500), "containers": [{"name": "main", "image": "nginx:1.27"}]}),
        )
}

/// What one run measured, in milliseconds by the given clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClientSide {
    pub replace_ms: f64,
    pub pop_ms: f64,
    /// Objects in the indexer at the end (every Pod).
    pub indexed: usize,
}

impl ClientSide {
    /// One line for scripts: `{"bench":"client-side","target":…,"pods":…,"replace_ms":…,"pop_ms":…}`.
    pub fn json_line(&self, target: &str, pods: usize) -> String {
        json!({"bench": "client-side", "target": target, "pods": pods, "replace_ms": self.replace_ms, "pop_ms": self.pop_ms})
            .to_string()
    }
}

/// Replace, then Pop → indexer, of `n` Pods; `now` reads a clock in milliseconds.
pub fn client_side(n: usize, now: &dyn Fn() -> f64) -> ClientSide {
    let list: Vec<Shared> = (0..n)
        .map(|i| {
            let mut p = pod(i);
            p.metadata.resource_version = (i + 2).to_string();
            Shared::new(p)
        })
        .collect();
    let mut indexer = Indexer::new();
    let mut fifo = queue::for_era(Era::V1_30);
    let t = now();
    fifo.replace(list, n as i64 + 1, &indexer);
    let replace_ms = now() - t;
    let t = now();
    while let Some(popped) = fifo.pop() {
        for delta in popped.deltas {
            match (delta.kind, delta.object) {
                (DeltaType::Deleted, _) => drop(indexer.delete(&popped.key)),
                (_, DeltaObject::Object(obj)) => indexer.update(obj),
                _ => {}
            }
        }
    }
    ClientSide { replace_ms, pop_ms: now() - t, indexed: indexer.len() }
}
