//! LIST of 50,000 Pods through Reflector → DeltaFIFO → Indexer (and on to the handler,
//! workqueue and reconciler), natively. Prints the time of each phase; no assertions.
//! `make bench` runs it in release mode (and `tests/realclients/pipeline-bench`, real client-go
//! doing the client-side part in memory, beside it). `BENCH_PODS` changes the count.
//!
//! The client-side part alone — `DeltaFIFO.Replace` of the list, then every key popped into
//! an indexer with the namespace index — is timed first, as client-go's is.

use informer_sim::cluster::Kind;
use informer_sim::kernel::TraceKind;
use informer_sim::testing::bench::{client_side_runs, pod};
use informer_sim::world::{World, WorldConfig};
use std::time::{Duration, Instant};

/// Real client-go's figures for the same work (the Go peer `make test` builds), and ours
/// relative to them.
fn client_go_beside(n: usize, warm_runs: usize, replace: std::time::Duration, pop: std::time::Duration) {
    let peer = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/realclients/pipeline-bench");
    let Ok(out) = std::process::Command::new(&peer)
        .args(["-json", "-pods", &n.to_string(), "-runs", &(warm_runs + 1).to_string()])
        .output()
    else {
        println!("  (client-go's figures: build the Go peers first, with make test)");
        return;
    };
    let figures: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let (Some(go_replace), Some(go_pop)) = (figures["replace_ms"].as_f64(), figures["pop_ms"].as_f64()) else {
        println!("  (client-go's bench printed no figures)");
        return;
    };
    let ours = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!(
        "  client-go v0.37, same work in memory:   Replace {go_replace:.1} ms, Pop → indexer {go_pop:.1} ms; \
         ours / client-go: {:.2}× and {:.2}×",
        ours(replace) / go_replace,
        ours(pop) / go_pop
    );
}

fn main() {
    let n: usize = std::env::var("BENCH_PODS").ok().and_then(|s| s.parse().ok()).unwrap_or(50_000);
    let warm_runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let start = Instant::now();
    let runs = client_side_runs(n, warm_runs, &|| start.elapsed().as_secs_f64() * 1e3);
    let run = runs.warm;
    let (replace, pop, indexed) =
        (Duration::from_secs_f64(run.replace_ms / 1e3), Duration::from_secs_f64(run.pop_ms / 1e3), run.indexed);
    println!("bench list_50k, the client side alone: {n} Pods, median of {} runs after a first one", runs.warm_runs);
    println!("  DeltaFIFO.Replace                      {:>9.1} ms", replace.as_secs_f64() * 1e3);
    println!(
        "  Pop → indexer for all {n}            {:>9.1} ms  ({:.2} µs/Pop; {indexed} objects)",
        pop.as_secs_f64() * 1e3,
        pop.as_secs_f64() * 1e6 / n as f64
    );
    println!("  the first run: Replace {:.1} ms, Pop → indexer {:.1} ms", runs.first.replace_ms, runs.first.pop_ms);
    client_go_beside(n, warm_runs, replace, pop);
    println!("{}", runs.json_line("native", n));

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
