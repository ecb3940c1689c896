//! RealFIFO (client-go `tools/cache/the_real_fifo.go`), semantics §2.4: the informers' FIFO
//! from client-go v0.33 on (`InOrderInformers`, beta and on by default since 1.33).
//!
//! Where the DeltaFIFO keeps one entry per key and hands out all of a key's deltas at once,
//! the RealFIFO is a plain list of deltas in arrival order: every event is popped on its own,
//! in the order it happened, so handlers see changes of different objects interleaved as
//! they were. Nothing merges; a delete is queued even for an object nobody knew about.
//! `Replace` queues tombstones first (for queued and known keys the list no longer has), then
//! one `Replaced` per listed object. `Resync` skips keys that have deltas waiting.
//!
//! Two forms, as the eras have them:
//! - v0.33 ([`RealFifo::new`]): one delta per pop; the initial-list count drops as an item is
//!   popped.
//! - v0.37 ([`RealFifo::atomic`], `AtomicFIFO` beta and on since 1.36, with
//!   `InOrderInformersBatchProcess` and `UnlockWhileProcessingFIFO`): `Replace` queues one
//!   `ReplacedAll` and `Resync` one `SyncAll`; bookmarks are queued as `Bookmark` deltas; the
//!   FIFO knows no objects of its own; `PopBatch` hands out up to 1,000 deltas of distinct keys
//!   at once; and `HasSynced` turns true only once the last initial item has been *processed*.
//!
//! Left out: transformers, metrics, the slow-handler trace.

use super::delta::{Delta, DeltaObject, DeltaType, KnownObjects};
use super::queue::{entry, Popped, Queue, QueueView, Queued};
use crate::cluster::Shared;
use crate::kernel::sort;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// `defaultBatchSize`.
pub const BATCH_SIZE: usize = 1000;

#[derive(Clone, Debug, Default)]
pub struct RealFifo {
    items: VecDeque<Delta>,
    populated: bool,
    initial_population_count: usize,
    /// The synced latch (`syncedClosed`).
    synced: bool,
    atomic: bool,
    /// Initial items popped whose processing has not finished yet (atomic form only).
    in_flight_initial: usize,
}

impl RealFifo {
    /// The RealFIFO of client-go v0.33.
    pub fn new() -> Self {
        Self::default()
    }

    /// The atomic RealFIFO of client-go v0.37.
    pub fn atomic() -> Self {
        RealFifo { atomic: true, ..Self::default() }
    }

    fn push(&mut self, kind: DeltaType, object: DeltaObject) {
        debug_assert!(
            self.atomic || !matches!(kind, DeltaType::ReplacedAll | DeltaType::SyncAll | DeltaType::Bookmark),
            "RealFIFO: an atomic delta in the per-delta queue"
        );
        self.items.push_back(Delta { kind, object });
        self.debug_check();
    }

    /// What the FIFO promises after every operation (checked in debug builds): synced only
    /// once the initial list is through; only the atomic form holds initial items in flight,
    /// and never more than the initial list had; the count never exceeds what is queued or in
    /// flight.
    fn debug_check(&self) {
        debug_assert!(!self.synced || (self.populated && self.initial_population_count == 0), "RealFIFO: synced early");
        debug_assert!(self.atomic || self.in_flight_initial == 0, "RealFIFO: in flight outside the atomic form");
        debug_assert!(
            self.initial_population_count <= self.items.len() + self.in_flight_initial,
            "RealFIFO: initial count above what waits"
        );
    }

    /// `checkSynced_locked`.
    fn check_synced(&mut self) {
        if self.populated && self.initial_population_count == 0 {
            self.synced = true;
        }
    }

    /// Takes the first `n` deltas off the list, counting them against the initial list.
    fn take(&mut self, n: usize) -> Vec<Delta> {
        let taken: Vec<Delta> = self.items.drain(..n).collect();
        let initial = taken.len().min(self.initial_population_count);
        if self.atomic {
            // Deferred until processing is complete (`Pop`'s deferred decrement).
            self.in_flight_initial += initial;
        } else {
            self.initial_population_count -= initial;
            self.check_synced();
        }
        debug_assert!(self.in_flight_initial <= self.initial_population_count, "RealFIFO: more in flight than listed");
        self.debug_check();
        taken
    }

    /// `reconcileReplacement`: tombstones for queued and known keys the list no longer has,
    /// then a `Replaced` per listed object.
    fn replace_one_by_one(&mut self, list: Vec<Shared>, known: &dyn KnownObjects) -> usize {
        let before = self.items.len();
        let new_keys = sort::set_of(list.iter().map(|o| o.key()));
        let mut queued_order = Vec::new();
        let mut last_queued: BTreeMap<String, &Delta> = BTreeMap::new();
        for d in &self.items {
            let key = d.object.key();
            if last_queued.insert(key.clone(), d).is_none() {
                queued_order.push(key);
            }
        }
        let mut tombstones = Vec::new();
        for key in &queued_order {
            let last = last_queued[key];
            if new_keys.contains(key) || last.kind == DeltaType::Deleted {
                continue;
            }
            tombstones.push(DeltaObject::Tombstone { key: key.clone(), obj: last.object.shared().cloned() });
        }
        // Go lists the known keys from a map; we sort them (§9.1).
        let mut known_keys = known.list_keys();
        sort::sort(&mut known_keys);
        for key in known_keys {
            if new_keys.contains(&key) || last_queued.contains_key(&key) {
                continue;
            }
            let obj = known.get_by_key(&key).cloned();
            tombstones.push(DeltaObject::Tombstone { key, obj });
        }
        for t in tombstones {
            self.push(DeltaType::Deleted, t);
        }
        for obj in list {
            self.push(DeltaType::Replaced, DeltaObject::Object(obj));
        }
        self.items.len() - before
    }
}

impl Queue for RealFifo {
    fn name(&self) -> &'static str {
        "RealFIFO"
    }

    fn add(&mut self, obj: Shared) {
        self.populated = true;
        self.push(DeltaType::Added, DeltaObject::Object(obj));
    }

    fn update(&mut self, obj: Shared) {
        self.populated = true;
        self.push(DeltaType::Updated, DeltaObject::Object(obj));
    }

    fn delete(&mut self, obj: Shared, _known: &dyn KnownObjects) -> bool {
        self.populated = true;
        self.push(DeltaType::Deleted, DeltaObject::Object(obj));
        true
    }

    fn replace(&mut self, list: Vec<Shared>, resource_version: i64, known: &dyn KnownObjects) -> Queued {
        let queued = if self.atomic {
            self.push(DeltaType::ReplacedAll, DeltaObject::All { objects: list, resource_version });
            Queued::Atomic
        } else {
            Queued::Deltas(self.replace_one_by_one(list, known))
        };
        if !self.populated {
            self.populated = true;
            self.initial_population_count = self.items.len();
            self.check_synced();
        }
        self.debug_check();
        queued
    }

    fn resync(&mut self, known: &dyn KnownObjects) -> Queued {
        if self.atomic {
            self.push(DeltaType::SyncAll, DeltaObject::Marker { resource_version: 0 });
            return Queued::Atomic;
        }
        let waiting = sort::set_of(self.items.iter().map(|d| d.object.key()));
        let mut keys = known.list_keys();
        sort::sort(&mut keys);
        let mut queued = 0;
        for key in keys {
            if waiting.contains(&key) {
                continue;
            }
            if let Some(obj) = known.get_by_key(&key).cloned() {
                self.push(DeltaType::Sync, DeltaObject::Object(obj));
                queued += 1;
            }
        }
        Queued::Deltas(queued)
    }

    fn bookmark(&mut self, resource_version: i64) -> bool {
        if self.atomic {
            self.push(DeltaType::Bookmark, DeltaObject::Marker { resource_version });
        }
        self.atomic
    }

    fn pop(&mut self) -> Option<Popped> {
        if self.items.is_empty() {
            return None;
        }
        let is_in_initial_list = !self.has_synced();
        let deltas = self.take(1);
        Some(Popped { key: deltas[0].object.key(), deltas, is_in_initial_list, keys: 1 })
    }

    /// `PopBatch`: distinct keys in arrival order, up to `max`, never past the end of the
    /// initial list, closed by an unbatchable delta or a key seen twice.
    fn pop_batch(&mut self, max: usize) -> Option<Popped> {
        if !self.atomic {
            return self.pop();
        }
        let first = self.items.front()?;
        if !first.is_batchable() {
            return self.pop();
        }
        let is_in_initial_list = !self.has_synced();
        let mut seen = BTreeSet::new();
        let mut n = 0;
        for d in self.items.iter().take(max) {
            if self.initial_population_count > 0 && n >= self.initial_population_count {
                break;
            }
            if !d.is_batchable() || !seen.insert(d.object.key()) {
                break;
            }
            n += 1;
        }
        let deltas = self.take(n);
        Some(Popped { key: deltas[0].object.key(), deltas, is_in_initial_list, keys: n })
    }

    fn processed(&mut self) {
        if self.in_flight_initial > 0 {
            self.initial_population_count = self.initial_population_count.saturating_sub(self.in_flight_initial);
            self.in_flight_initial = 0;
            self.check_synced();
        }
        self.debug_check();
    }

    fn has_synced(&self) -> bool {
        self.synced
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn waiting(&self, key: &str) -> usize {
        self.items.iter().filter(|d| d.object.key() == key).count()
    }

    fn view(&self, limit: usize) -> QueueView {
        let entries = self.items.iter().take(limit).map(|d| entry(&d.object.key(), std::slice::from_ref(d)));
        QueueView { name: self.name(), len: self.len(), has_synced: self.has_synced(), entries: entries.collect() }
    }

    fn box_clone(&self) -> Box<dyn Queue> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::queue::fixture::{obj, Known};

    fn popped(f: &mut RealFifo) -> Vec<(String, DeltaType)> {
        std::iter::from_fn(|| f.pop()).flat_map(|p| p.deltas).map(|d| (d.object.key(), d.kind)).collect()
    }

    #[test]
    fn semantics_2_4_every_event_pops_on_its_own_in_arrival_order() {
        let mut f = RealFifo::new();
        f.add(obj("a", 1));
        f.update(obj("b", 2));
        f.update(obj("a", 3));
        f.delete(obj("a", 4), &Known::default());
        assert_eq!(f.len(), 4);
        let order = popped(&mut f);
        assert_eq!(
            order,
            vec![
                ("ns/a".into(), DeltaType::Added),
                ("ns/b".into(), DeltaType::Updated),
                ("ns/a".into(), DeltaType::Updated),
                ("ns/a".into(), DeltaType::Deleted),
            ],
            "a DeltaFIFO would pop ns/a once with three deltas, before ns/b"
        );
    }

    #[test]
    fn semantics_2_4_a_delete_of_an_unknown_object_is_still_queued() {
        let mut f = RealFifo::new();
        assert!(f.delete(obj("never-seen", 1), &Known::default()));
        assert_eq!(f.len(), 1);
    }

    #[test]
    fn semantics_2_4_replace_queues_tombstones_before_replaced() {
        let mut f = RealFifo::new();
        let known = Known([("ns/gone".to_string(), obj("gone", 1)), ("ns/kept".to_string(), obj("kept", 1))].into());
        f.update(obj("queued", 2));
        assert_eq!(f.replace(vec![obj("kept", 3), obj("new", 4)], 5, &known), Queued::Deltas(4));
        let order = popped(&mut f);
        assert_eq!(
            order,
            vec![
                ("ns/queued".into(), DeltaType::Updated),
                ("ns/queued".into(), DeltaType::Deleted),
                ("ns/gone".into(), DeltaType::Deleted),
                ("ns/kept".into(), DeltaType::Replaced),
                ("ns/new".into(), DeltaType::Replaced),
            ]
        );
    }

    #[test]
    fn semantics_2_4_initial_list_is_every_queued_delta_at_the_first_replace() {
        let mut f = RealFifo::new();
        f.replace(vec![obj("a", 1), obj("b", 2)], 2, &Known::default());
        f.add(obj("c", 3));
        assert!(f.pop().unwrap().is_in_initial_list);
        assert!(!f.has_synced());
        assert!(f.pop().unwrap().is_in_initial_list);
        assert!(f.has_synced(), "v0.33 counts an item as soon as it is popped");
        assert!(!f.pop().unwrap().is_in_initial_list);
    }

    #[test]
    fn semantics_2_4_atomic_replace_and_resync_are_one_delta_each() {
        let mut f = RealFifo::atomic();
        let known = Known([("ns/a".to_string(), obj("a", 1))].into());
        assert_eq!(f.replace(vec![obj("a", 2), obj("b", 3)], 9, &known), Queued::Atomic);
        assert_eq!(f.resync(&known), Queued::Atomic);
        assert!(f.bookmark(12));
        // Each pop is processed before the next, as the informer's loop does.
        let pop = |f: &mut RealFifo| {
            let popped = f.pop();
            f.processed();
            popped
        };
        let kinds: Vec<_> = std::iter::from_fn(|| pop(&mut f))
            .map(|p| (p.deltas[0].kind, p.deltas[0].object.resource_version()))
            .collect();
        assert_eq!(kinds, vec![(DeltaType::ReplacedAll, 9), (DeltaType::SyncAll, 0), (DeltaType::Bookmark, 12)]);
        assert!(!RealFifo::new().bookmark(12), "v0.33 queues nothing for a bookmark");
    }

    #[test]
    fn semantics_2_4_atomic_has_synced_waits_for_processing_to_finish() {
        let mut f = RealFifo::atomic();
        f.replace(vec![obj("a", 1)], 1, &Known::default());
        let p = f.pop().unwrap();
        assert!(p.is_in_initial_list);
        assert!(!f.has_synced(), "popped but not processed");
        f.processed();
        assert!(f.has_synced());
    }

    #[test]
    fn semantics_2_4_pop_batch_takes_distinct_keys_and_stops_at_a_repeat() {
        let mut f = RealFifo::atomic();
        f.replace(vec![], 1, &Known::default());
        f.pop();
        f.processed();
        for (name, rv) in [("a", 2), ("b", 3), ("c", 4), ("a", 5), ("d", 6)] {
            f.update(obj(name, rv));
        }
        let batch = f.pop_batch(BATCH_SIZE).unwrap();
        assert_eq!(batch.keys, 3);
        assert_eq!(batch.deltas.iter().map(|d| d.object.resource_version()).collect::<Vec<_>>(), vec![2, 3, 4]);
        assert_eq!(f.pop_batch(BATCH_SIZE).unwrap().keys, 2, "ns/a again, then ns/d");
        f.update(obj("e", 7));
        f.resync(&Known::default());
        f.update(obj("f", 8));
        assert_eq!(f.pop_batch(BATCH_SIZE).unwrap().keys, 1, "closed by the unbatchable SyncAll");
        assert_eq!(f.pop_batch(BATCH_SIZE).unwrap().deltas[0].kind, DeltaType::SyncAll, "popped alone");
    }
}
