//! The playground's own limits on what a lesson, the console, the page or a link may ask
//! for. kube-apiserver accepts any int32 of replicas and objects of up to 3 MiB; a playground
//! that runs in a browser tab stops earlier, and says that the limit is its own.

use crate::cluster::ApiObject;
use serde_json::Value;

/// Replicas one Deployment or ReplicaSet may ask for.
pub const MAX_REPLICAS: i64 = 1_000;
/// Extra objects a link or a lesson may load.
pub const MAX_LOAD: usize = 50_000;
/// Network latency, each way.
pub const MAX_LATENCY_MS: u64 = 60_000;
/// A manifest's size and nesting.
pub const MAX_MANIFEST_BYTES: usize = 256 * 1024;
pub const MAX_DEPTH: usize = 64;
/// A console entry's length.
pub const MAX_CONSOLE_BYTES: usize = 64 * 1024;
/// A run's virtual length and steps.
pub const MAX_RUN_MS: u64 = 7 * 24 * 3600 * 1000;
pub const MAX_STEPS: u64 = 1_000_000;
/// Reconcile workers.
pub const MAX_WORKERS: usize = 64;
/// The shortest polling period.
pub const MIN_POLL_MS: u64 = 100;
/// The watch cache's largest window (upstream's cap).
pub const MAX_WATCH_CACHE: usize = 102_400;
/// Timeline entries of a lesson.
pub const MAX_TIMELINE: usize = 10_000;
/// The longest a reconcile may think, and the longest resync period.
pub const MAX_RECONCILE_MS: u64 = 3_600_000;
pub const MAX_RESYNC_SECONDS: u64 = 30 * 24 * 3600;

/// A number out of the playground's range, worded for the person who typed it.
pub fn out_of_range(what: &str, value: impl std::fmt::Display, max: impl std::fmt::Display) -> String {
    format!("{what} {value} is more than the playground runs (at most {max}; kube-apiserver itself allows more)")
}

/// Whether an object asks for more than the playground runs.
pub fn check_object(obj: &ApiObject) -> Result<(), String> {
    if let Some(n) = obj.spec().and_then(|s| s.get("replicas")).and_then(Value::as_i64) {
        if n > MAX_REPLICAS {
            return Err(out_of_range("spec.replicas", n, MAX_REPLICAS));
        }
    }
    Ok(())
}

/// Whether a parsed manifest is small and shallow enough.
pub fn check_value(value: &Value, bytes: usize) -> Result<(), String> {
    if bytes > MAX_MANIFEST_BYTES {
        return Err(format!("the manifest is {bytes} bytes; the playground takes at most {MAX_MANIFEST_BYTES}"));
    }
    if crate::cluster::validation::depth(value) > MAX_DEPTH {
        return Err(format!("the manifest nests deeper than {MAX_DEPTH} levels"));
    }
    Ok(())
}
