//! The Reflector's backoff (apimachinery `pkg/util/wait`: `Backoff.Step`, `Jitter`,
//! `exponentialBackoffManagerImpl`, `Backoff.DelayWithReset`), semantics §1.1.
//!
//! 800 ms doubling to a 30 s cap with jitter 1.0, so delays fall in [0.8, 1.6), [1.6, 3.2),
//! … [25.6, 51.2) s, then [30, 60) s. When the sequence starts over depends on the release:
//! - up to client-go v0.35 (`NewExponentialBackoffManager`): when more than 2 minutes passed
//!   since the previous backoff, i.e. after a quiet spell;
//! - from v0.36 (`DelayWithReset`, whose manager moves `lastStart` only when it resets): when
//!   more than 2 minutes passed since the last reset, so a reflector failing without pause
//!   drops back to 800 ms every two minutes or so.

use crate::era::BackoffReset;
use crate::kernel::{Millis, Rng};

pub const INITIAL_MS: f64 = 800.0;
pub const CAP_MS: f64 = 30_000.0;
pub const RESET_AFTER_MS: Millis = 120_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Backoff {
    duration_ms: f64,
    /// Steps left before the duration stops growing (`math.MaxInt32` upstream; 0 once capped).
    steps: u32,
    /// The last backoff (`AfterQuiet`) or the last reset (`Periodic`).
    last_start: Millis,
    reset: BackoffReset,
}

impl Backoff {
    /// A manager created at `now` (its reset clock starts then).
    pub fn new(now: Millis, reset: BackoffReset) -> Self {
        Backoff { duration_ms: INITIAL_MS, steps: u32::MAX, last_start: now, reset }
    }

    /// The next delay: reset if the rule says so, then `Step`.
    pub fn next(&mut self, now: Millis, rng: &mut Rng) -> Millis {
        if now.saturating_sub(self.last_start) > RESET_AFTER_MS {
            self.steps = u32::MAX;
            self.duration_ms = INITIAL_MS;
            self.last_start = now;
        }
        if self.reset == BackoffReset::AfterQuiet {
            self.last_start = now;
        }
        let base = self.duration_ms;
        if self.steps > 0 {
            self.steps -= 1;
            self.duration_ms = base * 2.0;
            if self.duration_ms > CAP_MS {
                self.duration_ms = CAP_MS;
                self.steps = 0;
            }
        }
        // `wait.Jitter(d, 1.0) = d + rand·d`.
        (base + rng.float64() * base) as Millis
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_1_1_delays_double_to_the_cap_then_stay_in_30_to_60s() {
        let mut rng = Rng::new(1);
        let mut b = Backoff::new(0, BackoffReset::AfterQuiet);
        let bounds = [
            (800, 1600),
            (1600, 3200),
            (3200, 6400),
            (6400, 12800),
            (12800, 25600),
            (25600, 51200),
            (30000, 60000),
            (30000, 60000),
        ];
        for (i, (lo, hi)) in bounds.iter().enumerate() {
            let d = b.next(i as Millis * 1000, &mut rng);
            assert!((*lo..*hi).contains(&d), "delay {i}: {d} not in [{lo}, {hi})");
        }
    }

    #[test]
    fn semantics_1_1_resets_after_two_quiet_minutes() {
        let mut rng = Rng::new(2);
        let mut b = Backoff::new(0, BackoffReset::AfterQuiet);
        for t in 0..5 {
            b.next(t * 10_000, &mut rng);
        }
        assert!(b.next(40_000 + RESET_AFTER_MS, &mut rng) >= 25_600, "exactly 2 min: no reset yet");
        let d = b.next(40_000 + 2 * RESET_AFTER_MS + 1, &mut rng);
        assert!((800..1600).contains(&d), "after more than 2 min the sequence restarts: {d}");
    }

    #[test]
    fn semantics_1_1_from_v0_36_the_backoff_resets_every_two_minutes_even_while_failing() {
        let (mut quiet, mut periodic) =
            (Backoff::new(0, BackoffReset::AfterQuiet), Backoff::new(0, BackoffReset::Periodic));
        let (mut rng_a, mut rng_b) = (Rng::new(5), Rng::new(5));
        // Fail without pause: each retry right after the previous delay.
        let (mut t_a, mut t_b) = (0, 0);
        let mut reset_seen = false;
        for _ in 0..12 {
            let a = quiet.next(t_a, &mut rng_a);
            let b = periodic.next(t_b, &mut rng_b);
            t_a += a;
            t_b += b;
            assert!(t_a < 130_000 || a >= 30_000, "the old manager never resets while failing: {a} at {t_a}");
            reset_seen |= t_b > RESET_AFTER_MS && b < 1_600;
        }
        assert!(reset_seen, "DelayWithReset starts over about two minutes after its last reset");
    }
}
