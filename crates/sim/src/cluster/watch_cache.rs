//! The API server's watch cache for one resource (apiserver `pkg/storage/cacher`,
//! `watch_cache.go`, `watch_cache_history.go`), semantics §8.
//!
//! The cache is itself an etcd watcher: it starts from a LIST at the store's current revision
//! (`list_rv`), then applies every change of its key prefix, keeping the current objects and a
//! bounded window of recent events. A watch from resourceVersion N is served from the window:
//! when N is older than the window (`N < oldest - 1`, where `oldest` is `list_rv + 1` while
//! nothing has been evicted since the list, else the oldest buffered event's RV) the watch
//! gets the in-stream error `410 Expired: too old resource version: N (oldest - 1)`.
//!
//! The window's capacity follows the age of its events (`watch_cache.go: resizeCacheLocked`,
//! v1.30 and v1.37 alike): when a new event finds it full and its oldest event is younger
//! than 75 s (`eventFreshDuration`), it doubles, up to 102,400; when it is full and the event
//! a quarter from the newest end is older than 75 s, it halves, never below its starting
//! capacity (100 upstream; a lesson may start smaller). A burst of events therefore grows the
//! window instead of evicting; only old events fall out. As upstream, halving drops the oldest
//! events without marking the window as evicted since the list.

use super::api_errors::Status;
use super::api_object::ApiObject;
use super::mvcc_store::Revision;
use crate::kernel::{sort, SharedDeque, SharedMap};
use std::collections::BTreeMap;
use std::rc::Rc;

/// One change of one object, as the cache and every watcher see it: the object before and
/// after (`None` when it did not exist / was deleted) and the revision of the change.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectChange {
    pub revision: Revision,
    pub key: String,
    /// Shared with the cache's current objects: a window of thousands of changes copies
    /// pointers when the world is copied for a snapshot, not objects.
    pub prev: Option<Rc<ApiObject>>,
    pub cur: Option<Rc<ApiObject>>,
}

/// Upstream's default initial capacity of the event window (`defaultLowerBoundCapacity`).
pub const DEFAULT_CAPACITY: usize = 100;
/// `defaultUpperBoundCapacity`.
pub const UPPER_BOUND_CAPACITY: usize = 100 * 1024;
/// `eventFreshDuration`: events younger than this keep the window growing.
pub const EVENT_FRESH_MS: u64 = 75_000;

#[derive(Clone, Debug)]
pub struct WatchCache {
    capacity: usize,
    /// The capacity it starts with and never shrinks below.
    lower_bound: usize,
    /// The revision of the LIST the cache (re)started from.
    list_rv: Revision,
    /// Whether an event has been evicted from the window since that LIST.
    evicted: bool,
    /// The newest revision the cache has applied.
    revision: Revision,
    /// Shared with copies of the cache, a chunk at a time (a window of thousands of events
    /// must not make a snapshot of the world slow).
    events: SharedDeque<ObjectChange>,
    /// When each buffered event was recorded (virtual ms), in step with `events`.
    recorded: SharedDeque<u64>,
    /// Current objects by storage key (shared with copies of the cache: they never change
    /// in place, a change replaces them).
    objects: SharedMap<String, Rc<ApiObject>>,
}

impl WatchCache {
    /// A cache initialised from a LIST of `objects` at revision `list_rv`.
    pub fn new(capacity: usize, list_rv: Revision, objects: BTreeMap<String, ApiObject>) -> Self {
        let objects = objects.into_iter().map(|(k, o)| (k, Rc::new(o))).collect();
        WatchCache {
            capacity: capacity.max(1),
            lower_bound: capacity.max(1),
            list_rv,
            evicted: false,
            revision: list_rv,
            events: SharedDeque::new(),
            recorded: SharedDeque::new(),
            objects,
        }
    }

    pub fn revision(&self) -> Revision {
        self.revision
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The oldest resourceVersion a watch may start from without a 410.
    pub fn oldest_servable(&self) -> Revision {
        let oldest = match (self.evicted, self.events.front()) {
            (true, Some(e)) => e.revision,
            (true, None) => self.revision + 1,
            (false, _) => self.list_rv + 1,
        };
        oldest - 1
    }

    /// Applies one change from etcd, recorded at `now`, and remembers it in the window.
    pub fn apply(&mut self, change: ObjectChange, now: u64) {
        match &change.cur {
            Some(obj) => self.objects.insert(change.key.clone(), Rc::clone(obj)),
            None => self.objects.remove(&change.key),
        };
        self.revision = self.revision.max(change.revision);
        self.resize(now);
        if self.events.len() >= self.capacity {
            self.events.drop_front(1);
            self.recorded.drop_front(1);
            self.evicted = true;
        }
        self.events.push_back(change);
        self.recorded.push_back(now);
    }

    /// `resizeCacheLocked`: double while a full window's oldest event is fresh, halve when a
    /// full window's newest quarter reaches back past the fresh duration.
    fn resize(&mut self, now: u64) {
        if self.events.len() < self.capacity {
            return;
        }
        let age = |i: usize| now.saturating_sub(self.recorded.get(i).copied().unwrap_or(now));
        if age(0) < EVENT_FRESH_MS {
            self.capacity = (self.capacity * 2).min(UPPER_BOUND_CAPACITY.max(self.lower_bound));
        } else if age(self.events.len() - self.capacity / 4 - 1) > EVENT_FRESH_MS {
            let smaller = (self.capacity / 2).max(self.lower_bound);
            let drop = self.events.len().saturating_sub(smaller);
            self.events.drop_front(drop);
            self.recorded.drop_front(drop);
            self.capacity = smaller;
        }
    }

    /// etcd reported progress up to `rev`: the cache is current up to it even without events.
    pub fn observe_progress(&mut self, rev: Revision) {
        self.revision = self.revision.max(rev);
    }

    /// The current object at a storage key.
    pub fn get(&self, key: &str) -> Option<&ApiObject> {
        self.objects.get(key).map(|o| &**o)
    }

    pub fn get_prev(&self, key: &str) -> Option<Rc<ApiObject>> {
        self.objects.get(key).cloned()
    }

    /// Current objects whose storage key starts with `prefix`, in key order, shared.
    pub fn list_shared<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a Rc<ApiObject>> + 'a {
        self.objects.range(prefix.to_string()..).take_while(move |(k, _)| k.starts_with(prefix)).map(|(_, o)| o)
    }

    /// Current objects whose storage key starts with `prefix`, in key order.
    pub fn list<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a ApiObject> + 'a {
        self.objects.range(prefix.to_string()..).take_while(move |(k, _)| k.starts_with(prefix)).map(|(_, o)| &**o)
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The buffered events after `rv`, or 410 Expired when `rv` is older than the window.
    pub fn events_since(&self, rv: Revision) -> Result<Vec<ObjectChange>, Status> {
        let oldest = self.oldest_servable();
        if rv < oldest {
            return Err(Status::too_old_resource_version(rv, oldest));
        }
        let start = self.events.partition_point(|e| e.revision <= rv);
        Ok(self.events.iter_from(start).cloned().collect())
    }

    /// The objects under `prefix` as they were at `rv`, by storage key: the current ones with
    /// the window's later changes undone (apiserver's `ListFromCacheSnapshot`, from 1.34: a
    /// snapshot per event in the window). `None` when `rv` is older than the window.
    pub fn snapshot_at(&self, prefix: &str, rv: Revision) -> Option<BTreeMap<String, Rc<ApiObject>>> {
        if rv < self.oldest_servable() || rv > self.revision {
            return None;
        }
        let mut state = sort::map_of(
            self.objects
                .range(prefix.to_string()..)
                .take_while(|(k, _)| k.starts_with(prefix))
                .map(|(k, o)| (k.clone(), o.clone())),
        );
        let start = self.events.partition_point(|e| e.revision <= rv);
        let later: Vec<&ObjectChange> = self.events.iter_from(start).filter(|c| c.key.starts_with(prefix)).collect();
        for change in later.into_iter().rev() {
            match &change.prev {
                Some(prev) => state.insert(change.key.clone(), prev.clone()),
                None => state.remove(&change.key),
            };
        }
        Some(state)
    }

    /// The buffered window, oldest first (for inspectors).
    pub fn window(&self) -> impl Iterator<Item = &ObjectChange> {
        self.events.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::api_object::Kind;

    fn change(rev: Revision, name: &str) -> ObjectChange {
        let obj = ApiObject::new(Kind::ConfigMap, "ns", name);
        ObjectChange {
            revision: rev,
            key: format!("/registry/configmaps/ns/{name}"),
            prev: None,
            cur: Some(Rc::new(obj)),
        }
    }

    #[test]
    fn semantics_8_window_starts_at_the_list_revision() {
        let mut cache = WatchCache::new(3, 10, BTreeMap::new());
        assert_eq!(cache.oldest_servable(), 10);
        assert!(cache.events_since(10).unwrap().is_empty());
        assert_eq!(cache.events_since(9).unwrap_err().message, "too old resource version: 9 (10)");
        for rev in 11..=13 {
            cache.apply(change(rev, &format!("c{rev}")), 0);
        }
        assert_eq!(cache.events_since(11).unwrap().len(), 2);
        assert_eq!(cache.events_since(10).unwrap().len(), 3, "nothing evicted yet: list_rv still servable");
    }

    #[test]
    fn semantics_8_eviction_moves_the_window() {
        let mut cache = WatchCache::new(2, 10, BTreeMap::new());
        for rev in 11..=14 {
            // Events a minute and a half apart: too old to grow the window.
            cache.apply(change(rev, "c"), rev as u64 * 90_000);
        }
        assert_eq!(cache.oldest_servable(), 12);
        let err = cache.events_since(11).unwrap_err();
        assert_eq!((err.code, err.reason, err.message.as_str()), (410, "Expired", "too old resource version: 11 (12)"));
        assert_eq!(cache.events_since(12).unwrap().len(), 2);
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn semantics_8_a_burst_grows_the_window_instead_of_evicting() {
        let mut cache = WatchCache::new(100, 10, BTreeMap::new());
        for rev in 11..=410 {
            cache.apply(change(rev, "c"), 1_000 + rev as u64);
        }
        assert_eq!(cache.capacity(), 400, "100 → 200 → 400 while the oldest event is under 75 s old");
        assert_eq!(cache.oldest_servable(), 10, "nothing evicted: a watch from the list still resumes");
        // Two minutes later every event is stale: the next one halves the window.
        cache.apply(change(411, "c"), 200_000);
        assert_eq!(cache.capacity(), 200);
        assert_eq!(cache.window().count(), 200);
    }

    #[test]
    fn semantics_8_the_window_stops_growing_at_102400() {
        let mut cache = WatchCache::new(100, 0, BTreeMap::new());
        for rev in 1..=110_000 {
            cache.apply(change(rev, "c"), 5);
        }
        assert_eq!(cache.capacity(), UPPER_BOUND_CAPACITY);
        assert_eq!(cache.window().count(), UPPER_BOUND_CAPACITY);
    }
}
