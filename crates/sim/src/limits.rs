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
/// The largest lesson file the playground reads (the largest bundled one is 42 KB).
pub const MAX_LESSON_BYTES: usize = 256 * 1024;
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

/// What a person asked for beyond the playground's own limits: typed, so the page words it in
/// its language when it shows it (`i18n::exceeded`); its `Display` is the English the command
/// line and a lesson's errors print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exceeded {
    /// `spec.replicas` of a manifest, or `kubectl scale --replicas` (`field` names which).
    Replicas { field: &'static str, asked: i64 },
    /// The network latency a person set, each way.
    Latency { ms: u64 },
    /// A manifest's size in bytes.
    ManifestBytes { bytes: usize },
    /// A manifest's nesting.
    ManifestDepth,
    /// A console entry's size in bytes.
    ConsoleBytes { bytes: usize },
}

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let beyond = |f: &mut std::fmt::Formatter<'_>,
                      what: &str,
                      value: &dyn std::fmt::Display,
                      max: &dyn std::fmt::Display| {
            write!(
                f,
                "{what} {value} is more than the playground runs (at most {max}; kube-apiserver itself allows more)"
            )
        };
        match self {
            Exceeded::Replicas { field, asked } => beyond(f, field, asked, &MAX_REPLICAS),
            Exceeded::Latency { ms } => beyond(f, "network latency (ms)", ms, &MAX_LATENCY_MS),
            Exceeded::ManifestBytes { bytes } => {
                write!(f, "the manifest is {bytes} bytes; the playground takes at most {MAX_MANIFEST_BYTES}")
            }
            Exceeded::ManifestDepth => write!(f, "the manifest nests deeper than {MAX_DEPTH} levels"),
            Exceeded::ConsoleBytes { bytes } => {
                write!(f, "the entry is {bytes} bytes; the console takes at most {MAX_CONSOLE_BYTES}")
            }
        }
    }
}

/// Whether an object asks for more than the playground runs.
pub fn check_object(obj: &ApiObject) -> Result<(), Exceeded> {
    match obj.spec().and_then(|s| s.get("replicas")).and_then(Value::as_i64) {
        Some(asked) if asked > MAX_REPLICAS => Err(Exceeded::Replicas { field: "spec.replicas", asked }),
        _ => Ok(()),
    }
}

/// Whether a manifest's text is small enough to read.
pub fn check_bytes(bytes: usize) -> Result<(), Exceeded> {
    if bytes > MAX_MANIFEST_BYTES {
        return Err(Exceeded::ManifestBytes { bytes });
    }
    Ok(())
}

/// Whether a parsed manifest is small and shallow enough.
pub fn check_value(value: &Value, bytes: usize) -> Result<(), Exceeded> {
    check_bytes(bytes)?;
    if crate::cluster::validation::depth(value) > MAX_DEPTH {
        return Err(Exceeded::ManifestDepth);
    }
    Ok(())
}
