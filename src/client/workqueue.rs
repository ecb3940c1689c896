//! The controller workqueue (client-go `util/workqueue`: `queue.go`, `delaying_queue.go`,
//! `rate_limiting_queue.go`), semantics §5.
//!
//! Three sets make it safe for reconcilers: `queue` (what waits, in order), `dirty` (what
//! needs processing) and `processing` (what a worker holds). Adding an item that is already
//! dirty does nothing — five updates become one reconcile. Adding an item a worker holds only
//! marks it dirty; `Done` puts it back in line, so it runs again but never twice at once.
//! `AddAfter` parks an item until a ready time (a second `AddAfter` can only move it earlier);
//! `AddRateLimited` asks the rate limiter how long. `Forget` resets the item's failures.

use super::rate_limiter::RateLimiter;
use crate::sim::Millis;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What `Add` did with an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AddOutcome {
    Queued,
    /// Already waiting in the queue: deduplicated.
    AlreadyQueued,
    /// A worker holds it: it is marked dirty and runs again after `Done`.
    WhileProcessing,
    /// A worker holds it and it is already marked to run again: nothing changes.
    AlreadyDirty,
    ShuttingDown,
}

#[derive(Clone, Debug)]
pub struct Workqueue {
    queue: VecDeque<String>,
    dirty: BTreeSet<String>,
    processing: BTreeSet<String>,
    /// Items parked by `AddAfter`, with their ready time.
    waiting: BTreeMap<String, Millis>,
    shutting_down: bool,
    limiter: RateLimiter,
}

impl Default for Workqueue {
    fn default() -> Self {
        Self::new(RateLimiter::default_controller())
    }
}

impl Workqueue {
    pub fn new(limiter: RateLimiter) -> Self {
        Workqueue {
            queue: VecDeque::new(),
            dirty: BTreeSet::new(),
            processing: BTreeSet::new(),
            waiting: BTreeMap::new(),
            shutting_down: false,
            limiter,
        }
    }

    pub fn add(&mut self, item: &str) -> AddOutcome {
        if self.shutting_down {
            return AddOutcome::ShuttingDown;
        }
        if self.dirty.contains(item) {
            return if self.processing.contains(item) { AddOutcome::AlreadyDirty } else { AddOutcome::AlreadyQueued };
        }
        self.dirty.insert(item.to_string());
        if self.processing.contains(item) {
            return AddOutcome::WhileProcessing;
        }
        self.queue.push_back(item.to_string());
        AddOutcome::Queued
    }

    /// The next item for a worker, or `None` when nothing waits.
    pub fn get(&mut self) -> Option<String> {
        let item = self.queue.pop_front()?;
        self.dirty.remove(&item);
        self.processing.insert(item.clone());
        Some(item)
    }

    /// The worker is finished with `item`; returns true when it was re-added meanwhile and
    /// is queued again.
    pub fn done(&mut self, item: &str) -> bool {
        self.processing.remove(item);
        if self.dirty.contains(item) {
            self.queue.push_back(item.to_string());
            return true;
        }
        false
    }

    /// Parks `item` until `now + delay`; returns the ready time to set a timer for, or
    /// `None` when it was added at once, ignored, or already due earlier.
    pub fn add_after(&mut self, item: &str, delay: Millis, now: Millis) -> Option<Millis> {
        if self.shutting_down {
            return None;
        }
        if delay == 0 {
            self.add(item);
            return None;
        }
        let ready = now + delay;
        match self.waiting.get(item) {
            Some(at) if *at <= ready => None,
            _ => {
                self.waiting.insert(item.to_string(), ready);
                Some(ready)
            }
        }
    }

    /// A ready timer fired: the item is added if this timer is still its ready time.
    pub fn ready(&mut self, item: &str, at: Millis) -> Option<AddOutcome> {
        if self.waiting.get(item) != Some(&at) {
            return None;
        }
        self.waiting.remove(item);
        Some(self.add(item))
    }

    pub fn add_rate_limited(&mut self, item: &str, now: Millis) -> (Millis, Option<Millis>) {
        let delay = self.limiter.when(item, now);
        (delay, self.add_after(item, delay, now))
    }

    pub fn forget(&mut self, item: &str) {
        self.limiter.forget(item);
    }

    pub fn num_requeues(&self, item: &str) -> u32 {
        self.limiter.num_requeues(item)
    }

    /// Items waiting for a worker (dirty items a worker holds are not counted).
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn shut_down(&mut self) {
        self.shutting_down = true;
    }

    pub fn queued(&self) -> impl Iterator<Item = &String> {
        self.queue.iter()
    }

    pub fn dirty(&self) -> impl Iterator<Item = &String> {
        self.dirty.iter()
    }

    pub fn processing(&self) -> impl Iterator<Item = &String> {
        self.processing.iter()
    }

    pub fn waiting(&self) -> impl Iterator<Item = (&String, &Millis)> {
        self.waiting.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_5_adds_deduplicate_while_waiting() {
        let mut q = Workqueue::default();
        assert_eq!(q.add("a"), AddOutcome::Queued);
        for _ in 0..4 {
            assert_eq!(q.add("a"), AddOutcome::AlreadyQueued);
        }
        assert_eq!(q.len(), 1);
        assert_eq!(q.get().as_deref(), Some("a"));
        assert!(q.get().is_none());
    }

    #[test]
    fn semantics_5_re_add_while_processing_runs_again_after_done() {
        let mut q = Workqueue::default();
        q.add("a");
        let a = q.get().unwrap();
        assert_eq!(q.add("a"), AddOutcome::WhileProcessing);
        assert_eq!(q.add("a"), AddOutcome::AlreadyDirty, "dirty while processing is not 'already queued'");
        assert_eq!(q.len(), 0, "not handed to a second worker");
        assert!(q.get().is_none());
        assert!(q.done(&a));
        assert_eq!(q.get().as_deref(), Some("a"));
        assert!(!q.done("a"));
    }

    #[test]
    fn semantics_5_add_after_keeps_the_earlier_ready_time() {
        let mut q = Workqueue::default();
        assert_eq!(q.add_after("a", 1000, 0), Some(1000));
        assert_eq!(q.add_after("a", 5000, 0), None, "a later time does not postpone");
        assert_eq!(q.add_after("a", 200, 100), Some(300));
        assert_eq!(q.ready("a", 1000), None, "the superseded timer does nothing");
        assert_eq!(q.ready("a", 300), Some(AddOutcome::Queued));
        q.shut_down();
        assert_eq!(q.add("b"), AddOutcome::ShuttingDown);
        assert_eq!(q.get().as_deref(), Some("a"), "items queued before ShutDown are still handed out");
    }

    #[test]
    fn semantics_5_add_rate_limited_and_forget() {
        let mut q = Workqueue::default();
        assert_eq!(q.add_rate_limited("a", 0), (5, Some(5)));
        assert_eq!(q.add_rate_limited("a", 0).0, 10);
        assert_eq!(q.num_requeues("a"), 2);
        q.forget("a");
        assert_eq!(q.num_requeues("a"), 0);
    }
}
