//! Swarm testing (semantics §1–§9 under every fault): `SWARM_SEEDS` seeds (500 by default;
//! `make swarm` runs 20,000), each a random world and schedule of writes and faults, checked
//! at every step and at the end. A failure prints the seed to reproduce and a shrunk schedule.

use informer_sim::testing::swarm;
use std::time::Instant;

#[test]
fn swarm_every_seed_keeps_every_invariant() {
    let seeds: u64 = std::env::var("SWARM_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(500);
    let from: u64 = std::env::var("SWARM_FROM").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let started = Instant::now();
    let (run, steps, failures) = swarm::run_seeds(from, seeds);
    println!(
        "swarm: {run} seeds, {steps} steps, {} failures ({:.1} s)",
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some((seed, failure)) = failures.first() {
        panic!("{}\n({} seeds failed in all)", swarm::report(*seed, failure), failures.len());
    }
}
