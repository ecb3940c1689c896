//! The client side of a LIST, as a bench: `DeltaFIFO.Replace` of `n` Pods, then every key
//! popped into an indexer with the namespace index — the work client-go's in-memory peer
//! (`tests/realclients/pipeline-bench`) times. One body for the native bench
//! (`benches/list_50k.rs`) and its run in the browser (`tests/web_bench.rs`), each with its
//! own clock.
//!
//! The work is done several times on fresh structures: the first run is reported apart (it
//! pays for cold caches and the allocator's first growth, and in a browser for compiling the
//! wasm and its first, unoptimised tier), and the median of the others is the figure compared.

use crate::client::delta::{DeltaObject, DeltaType};
use crate::client::indexer::Indexer;
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

/// The first run of the bench and the median of the runs after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Runs {
    pub first: ClientSide,
    /// Each figure the median over the runs after the first.
    pub warm: ClientSide,
    /// How many runs after the first.
    pub warm_runs: usize,
}

impl Runs {
    /// One line for scripts: `{"bench":"client-side","target":…,"pods":…,"replace_ms":…,"pop_ms":…,
    /// "first_replace_ms":…,"first_pop_ms":…,"runs":…}`, the plain figures being the warm medians.
    pub fn json_line(&self, target: &str, pods: usize) -> String {
        json!({
            "bench": "client-side", "target": target, "pods": pods,
            "replace_ms": self.warm.replace_ms, "pop_ms": self.warm.pop_ms,
            "first_replace_ms": self.first.replace_ms, "first_pop_ms": self.first.pop_ms,
            "runs": self.warm_runs + 1,
        })
        .to_string()
    }
}

/// `1 + warm_runs` runs of [`client_side`], each on a fresh list, queue and indexer.
pub fn client_side_runs(n: usize, warm_runs: usize, now: &dyn Fn() -> f64) -> Runs {
    let first = client_side(n, now);
    let rest: Vec<ClientSide> = (0..warm_runs.max(1)).map(|_| client_side(n, now)).collect();
    let median = |figure: fn(&ClientSide) -> f64| {
        let mut xs: Vec<f64> = rest.iter().map(figure).collect();
        xs.sort_by(f64::total_cmp);
        let mid = xs.len() / 2;
        if xs.len() % 2 == 1 {
            xs[mid]
        } else {
            (xs[mid - 1] + xs[mid]) / 2.0
        }
    };
    let warm = ClientSide {
        replace_ms: median(|r| r.replace_ms),
        pop_ms: median(|r| r.pop_ms),
        indexed: rest.iter().map(|r| r.indexed).min().unwrap_or(0),
    };
    Runs { first, warm, warm_runs: rest.len() }
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
    let mut fifo = crate::client::pipeline::queue_for(Era::V1_30);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A clock that reads out the given instants in turn (four per run: before and after
    /// Replace, before and after the Pops).
    fn clock(runs: &[(f64, f64)]) -> impl Fn() -> f64 {
        let instants: RefCell<Vec<f64>> =
            RefCell::new(runs.iter().rev().flat_map(|&(replace, pop)| [pop, 0.0, replace, 0.0]).collect());
        move || instants.borrow_mut().pop().expect("a reading for each instant")
    }

    #[test]
    fn the_first_run_is_reported_apart_and_the_rest_by_their_median() {
        let now = clock(&[(90.0, 80.0), (3.0, 7.0), (1.0, 9.0), (2.0, 8.0)]);
        let runs = client_side_runs(20, 3, &now);
        assert_eq!((runs.first.replace_ms, runs.first.pop_ms), (90.0, 80.0));
        assert_eq!((runs.warm.replace_ms, runs.warm.pop_ms), (2.0, 8.0));
        assert_eq!((runs.warm.indexed, runs.warm_runs), (20, 3));
        let line: serde_json::Value = serde_json::from_str(&runs.json_line("native", 20)).unwrap();
        assert_eq!(
            (line["replace_ms"].as_f64(), line["first_pop_ms"].as_f64(), line["runs"].as_u64()),
            (Some(2.0), Some(80.0), Some(4))
        );
    }

    #[test]
    fn an_even_number_of_warm_runs_takes_the_mean_of_the_middle_two() {
        let now = clock(&[(50.0, 50.0), (4.0, 1.0), (2.0, 3.0)]);
        let runs = client_side_runs(5, 2, &now);
        assert_eq!((runs.warm.replace_ms, runs.warm.pop_ms), (3.0, 2.0));
    }
}
