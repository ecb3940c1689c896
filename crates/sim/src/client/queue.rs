//! The informer's FIFO as a trait (client-go `tools/cache/fifo.go: Queue`, `QueueWithBatch`),
//! semantics §2: the classic `DeltaFifo` and the `RealFifo` of newer releases are two
//! implementations the informer owns behind it — the era picks one when the pipeline is made
//! (`pipeline::queue_for`).
//!
//! What the trait carries for the eras: `Replace` and `Resync` may queue one atomic delta
//! (`ReplacedAll`, `SyncAll`) instead of one per object; `bookmark` queues a `Bookmark` delta
//! where the FIFO wants it; `pop_batch` hands out several keys at once (`PopBatch`); and every
//! queue gives an inspector the same view of what it holds.

use super::delta::{Delta, DeltaType, KnownObjects};
use crate::cluster::Shared;

/// What `Replace` or `Resync` queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queued {
    /// This many deltas, one per object (and tombstone).
    Deltas(usize),
    /// One atomic delta (`ReplacedAll` or `SyncAll`).
    Atomic,
}

/// What a pop hands to the informer: deltas (oldest first) of one key, or of several unique
/// keys for a batch, and whether they belong to the first list (`isInInitialList`).
#[derive(Clone, Debug, PartialEq)]
pub struct Popped {
    /// The (first) key popped.
    pub key: String,
    pub deltas: Vec<Delta>,
    pub is_in_initial_list: bool,
    /// How many keys the pop took (more than one only for `PopBatch`).
    pub keys: usize,
}

/// One entry of a queue as an inspector shows it: a key and its waiting deltas (type and
/// resourceVersion). A DeltaFIFO has one entry per key; a RealFIFO one per delta.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueEntry {
    pub key: String,
    pub deltas: Vec<(DeltaType, i64)>,
}

/// What any queue shows of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueView {
    /// `DeltaFIFO` or `RealFIFO`.
    pub name: &'static str,
    /// Entries waiting (keys or deltas).
    pub len: usize,
    pub has_synced: bool,
    /// The first entries, in pop order.
    pub entries: Vec<QueueEntry>,
}

/// The FIFO between the Reflector and the informer.
pub trait Queue: std::fmt::Debug {
    /// The FIFO's name: `DeltaFIFO` or `RealFIFO`.
    fn name(&self) -> &'static str;
    fn add(&mut self, obj: Shared);
    fn update(&mut self, obj: Shared);
    /// Returns false when the delete was ignored (an object nobody knew about).
    fn delete(&mut self, obj: Shared, known: &dyn KnownObjects) -> bool;
    /// A relist's items at `resource_version`: replaces what the informer knows.
    fn replace(&mut self, list: Vec<Shared>, resource_version: i64, known: &dyn KnownObjects) -> Queued;
    fn resync(&mut self, known: &dyn KnownObjects) -> Queued;
    /// A watch bookmark; true when the FIFO queued a delta for it.
    fn bookmark(&mut self, _resource_version: i64) -> bool {
        false
    }
    fn pop(&mut self) -> Option<Popped>;
    /// `PopBatch`: up to `max` unique keys in one go. Queues that cannot batch pop one.
    fn pop_batch(&mut self, _max: usize) -> Option<Popped> {
        self.pop()
    }
    /// The informer finished processing what it popped last (an atomic RealFIFO counts the
    /// initial list only then).
    fn processed(&mut self) {}
    fn has_synced(&self) -> bool;
    /// Entries waiting: keys (DeltaFIFO) or deltas (RealFIFO).
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Deltas waiting for a key.
    fn waiting(&self, key: &str) -> usize;
    /// The first `limit` entries and the queue's state, for inspectors.
    fn view(&self, limit: usize) -> QueueView;
    fn box_clone(&self) -> Box<dyn Queue>;
}

impl Clone for Box<dyn Queue> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

/// An inspector entry for a key and its deltas.
pub fn entry(key: &str, deltas: &[Delta]) -> QueueEntry {
    QueueEntry { key: key.to_string(), deltas: deltas.iter().map(|d| (d.kind, d.object.resource_version())).collect() }
}

/// What the FIFOs' tests share: an indexer stand-in and ConfigMaps at a resourceVersion.
#[cfg(test)]
pub(crate) mod fixture {
    use super::KnownObjects;
    use crate::cluster::{ApiObject, Kind, Shared};
    use std::collections::BTreeMap;

    #[derive(Default)]
    pub struct Known(pub BTreeMap<String, Shared>);

    impl KnownObjects for Known {
        fn list_keys(&self) -> Vec<String> {
            self.0.keys().cloned().collect()
        }
        fn get_by_key(&self, key: &str) -> Option<&Shared> {
            self.0.get(key)
        }
    }

    pub fn obj(name: &str, rv: i64) -> Shared {
        let mut o = ApiObject::new(Kind::ConfigMap, "ns", name);
        o.metadata.resource_version = rv.to_string();
        Shared::new(o)
    }
}
