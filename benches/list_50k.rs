//! LIST of 50,000 Pods through Reflector → DeltaFIFO → Indexer (and on to the handler,
//! workqueue and reconciler), natively. Prints the time of each phase; no assertions.
//! `make bench` runs it in release mode. `BENCH_PODS` changes the count.

use informer_playground::cluster::{ApiObject, Kind};
use informer_playground::sim::TraceKind;
use informer_playground::world::{World, WorldConfig};
use serde_json::json;
use std::time::Instant;

fn pod(i: usize) -> ApiObject {
    ApiObject::new(Kind::Pod, &format!("ns-{}", i % 50), &format!("pod-{i:05}"))
        .with_label("app", &format!("app-{}", i % 100))
        .with(
            "spec",
            json!({"nodeName": format!("node-{}", i % 500), "containers": [{"name": "main", "image": "nginx:1.27"}]}),
        )
}

fn main() {
    let n: usize = std::env::var("BENCH_PODS").ok().and_then(|s| s.parse().ok()).unwrap_or(50_000);
    let t = Instant::now();
    let mut world = World::new(WorldConfig::new(Kind::Pod), (0..n).map(pod).collect()).expect("world");
    let build = t.elapsed();

    let t = Instant::now();
    let trace = world.run_until(1_000_000, |e, _| e.kind == TraceKind::Replace);
    let list = t.elapsed();
    assert!(trace.last().is_some_and(|e| e.kind == TraceKind::Replace));

    let t = Instant::now();
    let trace = world.run_until(10_000_000, |_, w| w.informer().indexer.len() == n && w.informer().fifo.is_empty());
    let index = t.elapsed();
    let index_steps = trace.len();

    let t = Instant::now();
    let rest = world.run_until_idle(10_000_000);
    let drain = t.elapsed();

    let per_step = |d: std::time::Duration, steps: usize| d.as_secs_f64() * 1e6 / steps.max(1) as f64;
    println!("bench list_50k: {n} Pods");
    println!("  create {n} objects in the API server   {:>9.1} ms", build.as_secs_f64() * 1e3);
    println!("  LIST (rv=0, watch cache) → Replace      {:>9.1} ms", list.as_secs_f64() * 1e3);
    println!(
        "  Pop → indexer for all {n}               {:>9.1} ms  ({index_steps} steps, {:.2} µs/step)",
        index.as_secs_f64() * 1e3,
        per_step(index, index_steps)
    );
    println!(
        "  handlers → workqueue → reconcile       {:>9.1} ms  ({} steps, {:.2} µs/step)",
        drain.as_secs_f64() * 1e3,
        rest.len(),
        per_step(drain, rest.len())
    );
    println!("  reconciles: {}, indexer objects: {}", world.reconciles(), world.informer().indexer.len());
}
