//! How long copying a world with many objects takes (a time-travel snapshot, a step back).
//! Prints the time; no assertions. `BENCH_PODS` changes the count.

use std::time::Instant;

fn main() {
    let n: usize = std::env::var("BENCH_PODS").ok().and_then(|s| s.parse().ok()).unwrap_or(5_000);
    let mut world = informer_sim::world::scale_with_load(1, n, informer_sim::era::Era::CURRENT).expect("world");
    world.run_until(1_000_000, |_, w| w.is_idle());
    let t = Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        std::hint::black_box(world.clone());
    }
    println!("bench world_clone: {n} Pods, {:.2} ms per copy", t.elapsed().as_secs_f64() * 1e3 / rounds as f64);
    let t = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(world.api.clone());
    }
    println!("  API server and store: {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / rounds as f64);
    let t = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(world.informers.clone());
    }
    println!("  informers (FIFO, indexer): {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / rounds as f64);
    let t = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(world.controllers.clone());
    }
    println!("  controllers: {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / rounds as f64);
}
