//! DeltaFIFO (client-go `tools/cache/delta_fifo.go`), semantics §2.
//!
//! A producer-consumer queue between the Reflector and the informer. You want it when:
//! - you process every object at most once at a time, but see *everything* that happened to
//!   it since you last looked (its `Deltas`, oldest first);
//! - a key that already waits keeps its place in line: changes never make it jump ahead;
//! - deletions of objects you were told about are not lost, even when the Reflector only
//!   learns of them from a relist: `Replace` emits `DeletedFinalStateUnknown` tombstones for
//!   keys the list no longer has (queued keys and keys of the known objects, the indexer);
//! - periodic resyncs replay known objects as `Sync` deltas, but never for keys that still
//!   have changes queued (the resync would carry an older value).
//!
//! Only two consecutive `Deleted` deltas merge (keeping the older unless it is a tombstone);
//! two `Updated` in a row are both kept. `HasSynced` turns true once everything the first
//! `Replace` queued has been popped. This is the classic FIFO of client-go ≤ 1.32 informers
//! (and of a bare DeltaFIFO in every release); newer informers use the RealFIFO (§2.4).

pub use super::delta::{Delta, DeltaObject, DeltaType, KnownObjects};
use super::queue::{entry, Popped, Queue, QueueView, Queued};
use crate::cluster::Shared;
use crate::kernel::sort;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

#[derive(Clone, Debug)]
pub struct DeltaFifo {
    items: BTreeMap<String, Vec<Delta>>,
    queue: VecDeque<String>,
    populated: bool,
    initial_population_count: usize,
    /// `EmitDeltaTypeReplaced`: informers set it; a bare DeltaFIFO queues `Sync` on Replace.
    emit_replaced: bool,
}

impl Default for DeltaFifo {
    fn default() -> Self {
        Self::new()
    }
}

impl DeltaFifo {
    /// The DeltaFIFO an informer makes (`EmitDeltaTypeReplaced: true`).
    pub fn new() -> Self {
        DeltaFifo {
            items: BTreeMap::new(),
            queue: VecDeque::new(),
            populated: false,
            initial_population_count: 0,
            emit_replaced: true,
        }
    }

    /// A bare `NewDeltaFIFOWithOptions` without `EmitDeltaTypeReplaced`: a relist's objects
    /// are queued as `Sync`, kept only for backwards compatibility upstream.
    pub fn bare() -> Self {
        DeltaFifo { emit_replaced: false, ..Self::new() }
    }

    /// `queueActionLocked`: append, dedup, and queue the key if it was not waiting.
    fn queue_action(&mut self, kind: DeltaType, object: DeltaObject) {
        self.queue_keyed(kind, object.key(), object);
    }

    /// `queueActionLocked` for an object whose key is known.
    fn queue_keyed(&mut self, kind: DeltaType, key: String, object: DeltaObject) {
        let deltas = self.items.entry(key.clone()).or_default();
        let was_waiting = !deltas.is_empty();
        deltas.push(Delta { kind, object });
        dedup_deltas(deltas);
        if !was_waiting {
            self.queue.push_back(key);
        }
        self.debug_check();
    }

    /// What the FIFO promises after every operation (checked in debug builds): each key waits
    /// once, with its deltas; a key's deltas never end in two `Deleted`s; the initial list's
    /// count never exceeds what waits.
    fn debug_check(&self) {
        debug_assert_eq!(self.queue.len(), self.items.len(), "DeltaFIFO: the queue and the items disagree");
        debug_assert!(self.initial_population_count <= self.queue.len(), "DeltaFIFO: initial count above what waits");
        debug_assert!(self.populated || self.initial_population_count == 0);
    }

    /// The whole check, over every key: each queued key has deltas, once (debug builds).
    fn debug_check_all(&self) {
        if cfg!(debug_assertions) {
            let queued: BTreeSet<&String> = self.queue.iter().collect();
            assert_eq!(queued.len(), self.queue.len(), "DeltaFIFO: a key queued twice");
            for (key, deltas) in &self.items {
                assert!(!deltas.is_empty() && queued.contains(key), "DeltaFIFO: {key} has no place in the queue");
                let tail = &deltas[deltas.len().saturating_sub(2)..];
                assert!(
                    !(tail.len() == 2 && tail.iter().all(|d| d.kind == DeltaType::Deleted)),
                    "DeltaFIFO: {key} ends in two Deleted deltas"
                );
            }
        }
    }

    pub fn initial_population_count(&self) -> usize {
        self.initial_population_count
    }
}

/// `dedupDeltas` / `isDeletionDup`: two trailing `Deleted` deltas become one — the older,
/// unless the older is a tombstone, then the newer.
fn dedup_deltas(deltas: &mut Vec<Delta>) {
    let n = deltas.len();
    if n < 2 || deltas[n - 1].kind != DeltaType::Deleted || deltas[n - 2].kind != DeltaType::Deleted {
        return;
    }
    let newest = deltas.pop().unwrap_or_else(|| unreachable!());
    if deltas[n - 2].object.is_tombstone() {
        deltas[n - 2] = newest;
    }
}

impl Queue for DeltaFifo {
    fn name(&self) -> &'static str {
        "DeltaFIFO"
    }

    fn add(&mut self, obj: Shared) {
        self.populated = true;
        self.queue_action(DeltaType::Added, DeltaObject::Object(obj));
    }

    fn update(&mut self, obj: Shared) {
        self.populated = true;
        self.queue_action(DeltaType::Updated, DeltaObject::Object(obj));
    }

    fn delete(&mut self, obj: Shared, known: &dyn KnownObjects) -> bool {
        self.populated = true;
        let key = obj.key();
        if known.get_by_key(&key).is_none() && !self.items.contains_key(&key) {
            return false;
        }
        self.queue_action(DeltaType::Deleted, DeltaObject::Object(obj));
        true
    }

    fn replace(&mut self, list: Vec<Shared>, _resource_version: i64, known: &dyn KnownObjects) -> Queued {
        let keyed: Vec<(String, Shared)> = list.into_iter().map(|o| (o.key(), o)).collect();
        // The listed keys as a set, needed only to tell them from keys queued before (with an
        // empty queue, the usual case, every queued key is a listed one).
        let listed = (!self.items.is_empty()).then(|| sort::set_of(keyed.iter().map(|(key, _)| key.clone())));
        let kind = if self.emit_replaced { DeltaType::Replaced } else { DeltaType::Sync };
        for (key, obj) in keyed {
            self.queue_keyed(kind, key, DeltaObject::Object(obj));
        }
        let listed_count = listed.as_ref().map_or(self.items.len(), BTreeSet::len);
        // Queued keys the list no longer has (Go iterates a map here: we sort, §9.1).
        let mut queued_deletions = 0;
        let gone: Vec<(String, Option<Shared>)> = match &listed {
            None => Vec::new(),
            Some(listed) => self
                .items
                .iter()
                .filter(|(k, _)| !listed.contains(*k))
                .map(|(k, deltas)| (k.clone(), deltas.last().and_then(|d| d.object.shared().cloned())))
                .collect(),
        };
        for (key, obj) in gone {
            queued_deletions += 1;
            self.queue_action(DeltaType::Deleted, DeltaObject::Tombstone { key, obj });
        }
        // Known keys neither listed nor queued (a listed key is queued now, so one look at
        // the queue answers both of Go's checks).
        for key in known.list_keys() {
            if self.items.get(&key).is_some_and(|d| !d.is_empty()) {
                continue;
            }
            queued_deletions += 1;
            let obj = known.get_by_key(&key).cloned();
            self.queue_action(DeltaType::Deleted, DeltaObject::Tombstone { key, obj });
        }
        if !self.populated {
            self.populated = true;
            self.initial_population_count = listed_count + queued_deletions;
        }
        self.debug_check_all();
        Queued::Deltas(listed_count + queued_deletions)
    }

    fn resync(&mut self, known: &dyn KnownObjects) -> Queued {
        let mut queued = 0;
        for key in known.list_keys() {
            if self.items.get(&key).is_some_and(|d| !d.is_empty()) {
                continue;
            }
            if let Some(obj) = known.get_by_key(&key).cloned() {
                self.queue_action(DeltaType::Sync, DeltaObject::Object(obj));
                queued += 1;
            }
        }
        self.debug_check_all();
        Queued::Deltas(queued)
    }

    fn pop(&mut self) -> Option<Popped> {
        let key = self.queue.pop_front()?;
        let is_in_initial_list = !self.has_synced();
        self.initial_population_count = self.initial_population_count.saturating_sub(1);
        let deltas = self.items.remove(&key).unwrap_or_default();
        debug_assert!(!deltas.is_empty(), "DeltaFIFO: {key} popped without deltas");
        self.debug_check();
        Some(Popped { key, deltas, is_in_initial_list, keys: 1 })
    }

    fn has_synced(&self) -> bool {
        self.populated && self.initial_population_count == 0
    }

    fn len(&self) -> usize {
        self.queue.len()
    }

    fn waiting(&self, key: &str) -> usize {
        self.items.get(key).map_or(0, Vec::len)
    }

    fn view(&self, limit: usize) -> QueueView {
        let entries = self.queue.iter().take(limit).map(|k| entry(k, self.items.get(k).map_or(&[], Vec::as_slice)));
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

    fn kinds(p: &Popped) -> Vec<DeltaType> {
        p.deltas.iter().map(|d| d.kind).collect()
    }

    #[test]
    fn semantics_2_3_keys_keep_their_place_and_pop_with_all_deltas() {
        let mut f = DeltaFifo::new();
        f.add(obj("a", 1));
        f.add(obj("b", 2));
        f.update(obj("a", 3));
        f.update(obj("a", 4));
        assert_eq!(f.len(), 2);
        let a = f.pop().unwrap();
        assert_eq!(a.key, "ns/a");
        assert_eq!(
            kinds(&a),
            vec![DeltaType::Added, DeltaType::Updated, DeltaType::Updated],
            "two Updated are both kept"
        );
        assert_eq!(f.pop().unwrap().key, "ns/b");
        assert!(f.pop().is_none());
    }

    #[test]
    fn semantics_2_3_only_consecutive_deletes_merge() {
        let mut f = DeltaFifo::new();
        let known = Known([("ns/a".to_string(), obj("a", 1))].into());
        assert!(f.delete(obj("a", 5), &known));
        assert!(f.delete(obj("a", 6), &known));
        let p = f.pop().unwrap();
        assert_eq!(p.deltas.len(), 1);
        assert_eq!(p.deltas[0].object.resource_version(), 5, "the older delete is kept");
        assert!(!f.delete(obj("zzz", 7), &known), "a delete of an unknown object is ignored");
        assert!(f.is_empty());
    }

    #[test]
    fn semantics_2_3_a_tombstone_gives_way_to_a_newer_delete() {
        let mut f = DeltaFifo::new();
        let known = Known([("ns/a".to_string(), obj("a", 1))].into());
        f.replace(vec![], 0, &known);
        f.delete(obj("a", 9), &known);
        let p = f.pop().unwrap();
        assert_eq!(p.deltas.len(), 1);
        assert!(!p.deltas[0].object.is_tombstone(), "the newer, real delete replaces the tombstone");
    }

    #[test]
    fn semantics_2_3_replace_emits_replaced_and_tombstones() {
        let mut f = DeltaFifo::new();
        let known = Known([("ns/gone".to_string(), obj("gone", 1)), ("ns/kept".to_string(), obj("kept", 1))].into());
        f.update(obj("queued", 2));
        f.replace(vec![obj("kept", 3), obj("new", 4)], 5, &known);
        assert!(f.has_synced(), "an Update before the first Replace already populated the FIFO");
        let order: Vec<_> = std::iter::from_fn(|| f.pop()).collect();
        let keys: Vec<_> = order.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, vec!["ns/queued", "ns/kept", "ns/new", "ns/gone"]);
        assert_eq!(kinds(&order[0]), vec![DeltaType::Updated, DeltaType::Deleted]);
        assert!(order[0].deltas[1].object.is_tombstone());
        assert_eq!(order[0].deltas[1].object.resource_version(), 2, "the tombstone carries the newest queued object");
        assert_eq!(kinds(&order[1]), vec![DeltaType::Replaced]);
        let DeltaObject::Tombstone { key, obj: Some(last) } = &order[3].deltas[0].object else { panic!() };
        assert_eq!((key.as_str(), last.resource_version()), ("ns/gone", 1));
        assert!(order.iter().all(|p| !p.is_in_initial_list));

        let mut first = DeltaFifo::new();
        first.replace(vec![obj("kept", 3), obj("new", 4)], 5, &known);
        assert_eq!(first.initial_population_count(), 3, "2 listed + 1 tombstone");
        assert!(!first.has_synced());
        assert!(std::iter::from_fn(|| first.pop()).all(|p| p.is_in_initial_list));
        assert!(first.has_synced());
    }

    #[test]
    fn semantics_2_1_a_bare_delta_fifo_queues_sync_on_replace() {
        let mut f = DeltaFifo::bare();
        f.replace(vec![obj("a", 1)], 1, &Known::default());
        assert_eq!(kinds(&f.pop().unwrap()), vec![DeltaType::Sync], "informers set EmitDeltaTypeReplaced instead");
    }

    #[test]
    fn semantics_2_3_has_synced_after_the_first_replace_is_popped() {
        let mut f = DeltaFifo::new();
        assert!(!f.has_synced());
        f.replace(vec![], 0, &Known::default());
        assert!(f.has_synced(), "Replace([]) syncs at once");
        let mut g = DeltaFifo::new();
        g.replace(vec![obj("a", 1)], 1, &Known::default());
        g.add(obj("b", 2));
        assert!(g.pop().unwrap().is_in_initial_list);
        assert!(g.has_synced());
        assert!(!g.pop().unwrap().is_in_initial_list);
    }

    #[test]
    fn semantics_2_3_resync_skips_keys_with_queued_deltas() {
        let mut f = DeltaFifo::new();
        let known = Known([("ns/a".to_string(), obj("a", 1)), ("ns/b".to_string(), obj("b", 1))].into());
        f.update(obj("a", 2));
        assert_eq!(f.resync(&known), Queued::Deltas(1));
        let a = f.pop().unwrap();
        assert_eq!(kinds(&a), vec![DeltaType::Updated]);
        assert_eq!(kinds(&f.pop().unwrap()), vec![DeltaType::Sync]);
    }
}
