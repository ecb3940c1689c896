//! Workqueue rate limiters (client-go `util/workqueue/default_rate_limiters.go`), semantics §5.
//!
//! - per-item exponential: the k-th failure of an item (k from 0) waits `base · 2^k`, capped;
//! - token bucket (`golang.org/x/time/rate`): tokens refill at `qps` up to `burst`, start
//!   full; each `When` reserves one token, even when that means waiting;
//! - fast-slow (`NewItemFastSlowRateLimiter`): the first `max_fast` failures of an item wait
//!   `fast`, every later one `slow`;
//! - max-of: the longest wait of its limiters — `DefaultControllerRateLimiter()` is
//!   max-of(exponential 5 ms … 1000 s, bucket 10 qps / burst 100). controller-runtime's
//!   priority queue uses the exponential one alone (`pkg/controller/controller.go`, from v0.20 when chosen, the default from v0.23).

use crate::kernel::{Millis, SmallMap};

#[derive(Clone, Debug, PartialEq)]
pub enum RateLimiter {
    ItemExponential { base_ms: f64, max_ms: f64, failures: SmallMap<String, u32> },
    Bucket { qps: f64, burst: f64, tokens: f64, last_ms: Millis },
    FastSlow { fast_ms: Millis, slow_ms: Millis, max_fast: u32, failures: SmallMap<String, u32> },
    MaxOf(Vec<RateLimiter>),
}

impl RateLimiter {
    pub fn item_exponential(base_ms: f64, max_ms: f64) -> Self {
        RateLimiter::ItemExponential { base_ms, max_ms, failures: SmallMap::new() }
    }

    pub fn bucket(qps: f64, burst: u32) -> Self {
        RateLimiter::Bucket { qps, burst: f64::from(burst), tokens: f64::from(burst), last_ms: 0 }
    }

    pub fn fast_slow(fast_ms: Millis, slow_ms: Millis, max_fast: u32) -> Self {
        RateLimiter::FastSlow { fast_ms, slow_ms, max_fast, failures: SmallMap::new() }
    }

    /// `DefaultControllerRateLimiter()` (unchanged from client-go v0.20 to today).
    pub fn default_controller() -> Self {
        RateLimiter::MaxOf(vec![Self::item_exponential(5.0, 1_000_000.0), Self::bucket(10.0, 100)])
    }

    /// How long `item` should wait before it is retried; counts one more requeue.
    pub fn when(&mut self, item: &str, now: Millis) -> Millis {
        match self {
            RateLimiter::ItemExponential { base_ms, max_ms, failures } => {
                let exp = failures.or_insert_with(item.to_string(), || 0);
                let backoff = *base_ms * 2f64.powi(*exp as i32);
                *exp += 1;
                if !backoff.is_finite() || backoff > *max_ms {
                    *max_ms as Millis
                } else {
                    backoff as Millis
                }
            }
            RateLimiter::Bucket { qps, burst, tokens, last_ms } => {
                let elapsed = now.saturating_sub(*last_ms) as f64 / 1000.0;
                *tokens = (*tokens + elapsed * *qps).min(*burst) - 1.0;
                *last_ms = now.max(*last_ms);
                if *tokens >= 0.0 {
                    0
                } else {
                    (-*tokens / *qps * 1000.0).ceil() as Millis
                }
            }
            RateLimiter::FastSlow { fast_ms, slow_ms, max_fast, failures } => {
                let n = failures.or_insert_with(item.to_string(), || 0);
                *n += 1;
                if *n <= *max_fast {
                    *fast_ms
                } else {
                    *slow_ms
                }
            }
            RateLimiter::MaxOf(limiters) => limiters.iter_mut().map(|l| l.when(item, now)).max().unwrap_or(0),
        }
    }

    /// Stops tracking `item` (its next failure starts again at the base delay).
    pub fn forget(&mut self, item: &str) {
        match self {
            RateLimiter::ItemExponential { failures, .. } | RateLimiter::FastSlow { failures, .. } => {
                failures.remove(item);
            }
            RateLimiter::Bucket { .. } => {}
            RateLimiter::MaxOf(limiters) => limiters.iter_mut().for_each(|l| l.forget(item)),
        }
    }

    pub fn num_requeues(&self, item: &str) -> u32 {
        match self {
            RateLimiter::ItemExponential { failures, .. } | RateLimiter::FastSlow { failures, .. } => {
                failures.get(item).copied().unwrap_or(0)
            }
            RateLimiter::Bucket { .. } => 0,
            RateLimiter::MaxOf(limiters) => limiters.iter().map(|l| l.num_requeues(item)).max().unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_5_exponential_doubles_from_5ms_to_1000s() {
        let mut l = RateLimiter::item_exponential(5.0, 1_000_000.0);
        let waits: Vec<Millis> = (0..20).map(|_| l.when("x", 0)).collect();
        assert_eq!(&waits[..4], &[5, 10, 20, 40]);
        assert_eq!(waits[17], 655_360, "k = 17 waits 655.36 s");
        assert_eq!(waits[18], 1_000_000, "k ≥ 18 waits the 1000 s cap");
        assert_eq!(l.num_requeues("x"), 20);
        assert_eq!(l.when("y", 0), 5, "items are counted apart");
        l.forget("x");
        assert_eq!(l.when("x", 0), 5);
    }

    #[test]
    fn semantics_5_bucket_has_burst_100_then_10_per_second() {
        let mut l = RateLimiter::bucket(10.0, 100);
        let waits: Vec<Millis> = (0..102).map(|i| l.when(&i.to_string(), 0)).collect();
        assert!(waits[..100].iter().all(|w| *w == 0));
        assert_eq!(&waits[100..], &[100, 200], "each token beyond the burst waits 100 ms more");
        assert_eq!(l.when("soon", 100), 200, "100 ms refills one token against the 2 owed");
        assert_eq!(l.when("later", 1_300), 0, "by 1.3 s the bucket is ahead again");
        assert_eq!(l.num_requeues("0"), 0);
    }

    #[test]
    fn semantics_5_default_controller_limiter_is_the_max_of_both() {
        let mut l = RateLimiter::default_controller();
        assert_eq!(l.when("a", 0), 5);
        assert_eq!(l.when("a", 0), 10);
        assert_eq!(l.num_requeues("a"), 2);
        for i in 0..98 {
            l.when(&format!("b{i}"), 0);
        }
        assert_eq!(l.when("c", 0), 100, "the bucket dominates once the burst is spent");
    }

    #[test]
    fn semantics_5_fast_slow_waits_fast_then_slow() {
        let mut l = RateLimiter::fast_slow(5, 10_000, 3);
        let waits: Vec<Millis> = (0..5).map(|_| l.when("x", 0)).collect();
        assert_eq!(waits, vec![5, 5, 5, 10_000, 10_000]);
        assert_eq!(l.num_requeues("x"), 5);
        l.forget("x");
        assert_eq!(l.when("x", 0), 5);
    }
}
