//! The controller workqueue (client-go `util/workqueue`: `queue.go`, `delaying_queue.go`,
//! `rate_limiting_queue.go`), semantics §5, and controller-runtime's priority queue
//! (`pkg/controller/priorityqueue`, opt-in from v0.20, the default from v0.23).
//!
//! Three sets make it safe for reconcilers: the ready line (what waits, in order), `dirty`
//! (what needs processing) and `processing` (what a worker holds). Adding an item that is
//! already dirty does nothing — five updates become one reconcile. Adding an item a worker
//! holds only marks it dirty; `Done` puts it back in line, so it runs again but never twice at
//! once. `AddAfter` parks an item until a ready time (a second `AddAfter` can only move it
//! earlier); `AddRateLimited` asks the rate limiter how long. `Forget` resets the item's
//! failures. `ShutDownWithDrain` refuses new items and waits until those being processed are
//! done.
//!
//! The priority queue orders the line by priority, then by when an item was added: the
//! handlers give initial-list adds and unchanged updates (a resync) `LowPriority` (-100), so
//! real changes overtake them; adding a waiting item with a higher priority raises it (and
//! stamps it as newly added); adding a parked item makes it ready at once; a requeue keeps the
//! priority the item was taken with. Its default rate limiter is the exponential one alone.

use super::rate_limiter::RateLimiter;
use crate::kernel::{Millis, SmallMap};
use std::collections::{BTreeMap, BTreeSet};

/// What `Add` did with an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AddOutcome {
    Queued,
    /// Already waiting in the queue: deduplicated.
    AlreadyQueued,
    /// Already waiting, with a lower priority: moved up to the new one.
    PriorityRaised,
    /// A worker holds it: it is marked dirty and runs again after `Done`.
    WhileProcessing,
    /// A worker holds it and it is already marked to run again: nothing changes.
    AlreadyDirty,
    ShuttingDown,
}

/// Where an item stands in the ready line: higher priority first, then first added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    neg_priority: i64,
    added: u64,
}

#[derive(Clone, Debug)]
pub struct Workqueue {
    /// The ready line, in hand-out order.
    line: BTreeSet<(Place, String)>,
    /// Each dirty item's place (in the line, or the one it takes when `Done`).
    places: BTreeMap<String, Place>,
    dirty: BTreeSet<String>,
    /// What workers hold, and the priority each was taken with.
    processing: SmallMap<String, i32>,
    /// Items parked by `AddAfter`, with their ready time and priority.
    waiting: BTreeMap<String, (Millis, i32)>,
    added: u64,
    /// controller-runtime's priority queue (false: client-go's FIFO workqueue).
    prioritised: bool,
    shutting_down: bool,
    limiter: RateLimiter,
}

impl Default for Workqueue {
    fn default() -> Self {
        Self::new(RateLimiter::default_controller())
    }
}

impl Workqueue {
    /// client-go's rate-limiting workqueue.
    pub fn new(limiter: RateLimiter) -> Self {
        Workqueue {
            line: BTreeSet::new(),
            places: BTreeMap::new(),
            dirty: BTreeSet::new(),
            processing: SmallMap::new(),
            waiting: BTreeMap::new(),
            added: 0,
            prioritised: false,
            shutting_down: false,
            limiter,
        }
    }

    /// controller-runtime's priority queue with its default limiter (exponential, 5 ms to
    /// 1000 s).
    pub fn priority() -> Self {
        Workqueue { prioritised: true, ..Self::new(RateLimiter::item_exponential(5.0, 1_000_000.0)) }
    }

    pub fn is_prioritised(&self) -> bool {
        self.prioritised
    }

    fn place(&mut self, priority: i32) -> Place {
        self.added += 1;
        let priority = if self.prioritised { priority } else { 0 };
        Place { neg_priority: -i64::from(priority), added: self.added }
    }

    fn enqueue(&mut self, item: &str, priority: i32) {
        let place = self.place(priority);
        self.places.insert(item.to_string(), place);
        self.line.insert((place, item.to_string()));
    }

    /// `Add` (priority 0).
    pub fn add(&mut self, item: &str) -> AddOutcome {
        self.add_with_priority(item, 0)
    }

    /// What the queue promises for `item` and as a whole after an operation (checked in debug
    /// builds, client-go's `queue.go` rules): a dirty item has a place, and waits in the line
    /// unless a worker holds it; an item a worker holds is never in the line; nothing waits in
    /// the line that is not dirty.
    fn debug_check(&self, item: &str) {
        if cfg!(debug_assertions) {
            assert_eq!(self.places.len(), self.dirty.len(), "workqueue: places and dirty disagree");
            assert!(self.line.len() <= self.dirty.len(), "workqueue: more in line than dirty");
            let in_line = self.places.get(item).is_some_and(|p| self.line.contains(&(*p, item.to_string())));
            let held = self.processing.contains_key(item);
            let dirty = self.dirty.contains(item);
            assert!(!(held && in_line), "workqueue: {item} is both held and in line");
            assert_eq!(dirty && !held, in_line, "workqueue: {item} dirty={dirty} held={held} in line={in_line}");
        }
    }

    /// `AddWithOpts{Priority}`; a FIFO workqueue ignores the priority.
    pub fn add_with_priority(&mut self, item: &str, priority: i32) -> AddOutcome {
        let outcome = self.add_unchecked(item, priority);
        self.debug_check(item);
        outcome
    }

    fn add_unchecked(&mut self, item: &str, priority: i32) -> AddOutcome {
        if self.shutting_down {
            return AddOutcome::ShuttingDown;
        }
        if self.prioritised {
            // A parked item becomes ready now.
            self.waiting.remove(item);
        }
        if self.dirty.contains(item) {
            if self.processing.contains_key(item) {
                if let Some(place) = self.places.get_mut(item) {
                    place.neg_priority = place.neg_priority.min(-i64::from(priority));
                }
                return AddOutcome::AlreadyDirty;
            }
            let old = self.places.get(item).copied();
            if self.prioritised && old.is_some_and(|p| -p.neg_priority < i64::from(priority)) {
                if let Some(old) = old {
                    self.line.remove(&(old, item.to_string()));
                }
                self.enqueue(item, priority);
                return AddOutcome::PriorityRaised;
            }
            return AddOutcome::AlreadyQueued;
        }
        self.dirty.insert(item.to_string());
        if self.processing.contains_key(item) {
            let place = self.place(priority);
            self.places.insert(item.to_string(), place);
            return AddOutcome::WhileProcessing;
        }
        self.enqueue(item, priority);
        AddOutcome::Queued
    }

    /// The next item for a worker, or `None` when nothing waits.
    pub fn get(&mut self) -> Option<String> {
        let (place, item) = self.line.pop_first()?;
        self.dirty.remove(&item);
        self.places.remove(&item);
        self.processing.insert(item.clone(), -place.neg_priority as i32);
        self.debug_check(&item);
        Some(item)
    }

    /// The priority a worker took `item` with.
    pub fn priority_of(&self, item: &str) -> i32 {
        self.processing.get(item).copied().unwrap_or(0)
    }

    /// The worker is finished with `item`; returns true when it was re-added meanwhile and
    /// is queued again.
    pub fn done(&mut self, item: &str) -> bool {
        self.processing.remove(item);
        let again = self.dirty.contains(item);
        if again {
            let priority = self.places.get(item).map_or(0, |p| -p.neg_priority as i32);
            self.enqueue(item, priority);
        }
        self.debug_check(item);
        again
    }

    /// Parks `item` until `now + delay`; returns the ready time to set a timer for, or
    /// `None` when it was added at once, ignored, or already due earlier.
    pub fn add_after(&mut self, item: &str, delay: Millis, now: Millis, priority: i32) -> Option<Millis> {
        if self.shutting_down {
            return None;
        }
        if delay == 0 {
            self.add_with_priority(item, priority);
            return None;
        }
        let ready = now + delay;
        match self.waiting.get(item) {
            Some((at, _)) if *at <= ready => None,
            _ => {
                self.waiting.insert(item.to_string(), (ready, priority));
                Some(ready)
            }
        }
    }

    /// A ready timer fired: the item is added if this timer is still its ready time.
    pub fn ready(&mut self, item: &str, at: Millis) -> Option<AddOutcome> {
        let (ready_at, priority) = *self.waiting.get(item)?;
        if ready_at != at {
            return None;
        }
        self.waiting.remove(item);
        Some(self.add_with_priority(item, priority))
    }

    /// `AddRateLimited`, keeping `priority`: returns the delay and the ready time to set a
    /// timer for.
    pub fn add_rate_limited(&mut self, item: &str, now: Millis, priority: i32) -> (Millis, Option<Millis>) {
        let delay = self.limiter.when(item, now);
        (delay, self.add_after(item, delay, now, priority))
    }

    pub fn forget(&mut self, item: &str) {
        self.limiter.forget(item);
    }

    pub fn num_requeues(&self, item: &str) -> u32 {
        self.limiter.num_requeues(item)
    }

    /// Items waiting for a worker (dirty items a worker holds are not counted).
    pub fn len(&self) -> usize {
        self.line.len()
    }

    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    pub fn shut_down(&mut self) {
        self.shutting_down = true;
    }

    /// `ShutDownWithDrain`: no new items; the shutdown completes once nothing is processing
    /// (returns whether it has).
    pub fn shut_down_with_drain(&mut self) -> bool {
        self.shutting_down = true;
        self.processing.is_empty()
    }

    /// Whether a draining shutdown has completed.
    pub fn drained(&self) -> bool {
        self.shutting_down && self.processing.is_empty()
    }

    /// The ready line in hand-out order, with each item's priority.
    pub fn queued(&self) -> impl Iterator<Item = (&String, i32)> {
        self.line.iter().map(|(p, item)| (item, -p.neg_priority as i32))
    }

    pub fn dirty(&self) -> impl Iterator<Item = &String> {
        self.dirty.iter()
    }

    pub fn processing(&self) -> impl Iterator<Item = &String> {
        self.processing.keys()
    }

    pub fn waiting(&self) -> impl Iterator<Item = (&String, &Millis)> {
        self.waiting.iter().map(|(item, (at, _))| (item, at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// controller-runtime `handler.LowPriority` (`controller::handler::LOW_PRIORITY`).
    const LOW_PRIORITY: i32 = -100;

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
        assert_eq!(q.add_after("a", 1000, 0, 0), Some(1000));
        assert_eq!(q.add_after("a", 5000, 0, 0), None, "a later time does not postpone");
        assert_eq!(q.add_after("a", 200, 100, 0), Some(300));
        assert_eq!(q.ready("a", 1000), None, "the superseded timer does nothing");
        assert_eq!(q.ready("a", 300), Some(AddOutcome::Queued));
        q.shut_down();
        assert_eq!(q.add("b"), AddOutcome::ShuttingDown);
        assert_eq!(q.get().as_deref(), Some("a"), "items queued before ShutDown are still handed out");
    }

    #[test]
    fn semantics_5_add_rate_limited_and_forget() {
        let mut q = Workqueue::default();
        assert_eq!(q.add_rate_limited("a", 0, 0), (5, Some(5)));
        assert_eq!(q.add_rate_limited("a", 0, 0).0, 10);
        assert_eq!(q.num_requeues("a"), 2);
        q.forget("a");
        assert_eq!(q.num_requeues("a"), 0);
    }

    #[test]
    fn semantics_5_the_priority_queue_hands_real_changes_out_before_the_initial_list() {
        let mut q = Workqueue::priority();
        for key in ["a", "b", "c"] {
            q.add_with_priority(key, LOW_PRIORITY);
        }
        assert_eq!(q.add_with_priority("c", 0), AddOutcome::PriorityRaised, "a change to c raises it");
        q.add_with_priority("d", 0);
        let order: Vec<String> = std::iter::from_fn(|| q.get()).collect();
        assert_eq!(order, vec!["c", "d", "a", "b"]);
        let mut fifo = Workqueue::default();
        for key in ["a", "b", "c"] {
            fifo.add_with_priority(key, LOW_PRIORITY);
        }
        assert_eq!(fifo.add_with_priority("c", 0), AddOutcome::AlreadyQueued, "client-go's queue knows no priority");
        assert_eq!(std::iter::from_fn(|| fifo.get()).collect::<Vec<_>>(), vec!["a", "b", "c"]);
    }

    #[test]
    fn semantics_5_the_priority_queue_makes_a_parked_item_ready_and_requeues_keep_priority() {
        let mut q = Workqueue::priority();
        assert_eq!(q.add_after("a", 1_000, 0, 0), Some(1_000));
        assert_eq!(q.add("a"), AddOutcome::Queued, "an Add makes the parked item ready now");
        assert_eq!(q.ready("a", 1_000), None, "its timer finds nothing to do");
        q.add_with_priority("low", LOW_PRIORITY);
        assert_eq!(q.get().as_deref(), Some("a"));
        let low = q.get().unwrap();
        assert_eq!(q.priority_of(&low), LOW_PRIORITY);
        let (delay, at) = q.add_rate_limited(&low, 0, q.priority_of(&low));
        assert_eq!(delay, 5, "the priority queue's limiter is the exponential one alone");
        q.done(&low);
        q.ready(&low, at.unwrap());
        assert_eq!(q.queued().collect::<Vec<_>>(), vec![(&"low".to_string(), LOW_PRIORITY)]);
    }

    #[test]
    fn semantics_5_shut_down_with_drain_waits_for_items_in_processing() {
        let mut q = Workqueue::default();
        q.add("a");
        q.add("b");
        let a = q.get().unwrap();
        assert!(!q.shut_down_with_drain(), "a is still being processed");
        assert_eq!(q.add("c"), AddOutcome::ShuttingDown);
        assert!(!q.drained());
        q.done(&a);
        assert!(q.drained(), "drained once a is done; b, never handed out, is dropped with the queue");
    }
}
