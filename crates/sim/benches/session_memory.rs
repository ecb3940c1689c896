//! The memory time travel costs at the largest load a link may ask for: a session with
//! `limits::MAX_LOAD` extra Pods, scrubbed to step 10,000 and back, with its snapshots.
//! Prints the process's resident memory (Linux) and what one snapshot adds; no assertions.

use informer_sim::session::{Action, Session};

fn resident_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

fn main() {
    let load: usize =
        std::env::var("BENCH_LOAD").ok().and_then(|s| s.parse().ok()).unwrap_or(informer_sim::limits::MAX_LOAD);
    let start = resident_mib();
    let mut s = Session::with_load(1, load, informer_sim::era::Era::CURRENT);
    let built = resident_mib();
    s.apply(Action::JumpTo(10_000));
    s.apply(Action::JumpTo(5_000));
    s.apply(Action::JumpTo(9_990));
    let scrubbed = resident_mib();
    let copies: Vec<_> = (0..10).map(|_| s.world().clone()).collect();
    let per_copy = (resident_mib() - scrubbed) / copies.len() as f64;
    println!(
        "bench session_memory: {load} extra Pods: {:.0} MiB to build, {:.0} MiB after scrubbing to step 10000 and back ({} snapshots, {per_copy:.1} MiB each)",
        built - start,
        scrubbed - start,
        s.history().snapshot_count()
    );
}
