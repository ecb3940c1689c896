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
//! Simplification: the window has a fixed capacity (upstream starts at 100 and doubles or
//! halves with the age of its oldest event); the scenario picks the capacity.

use super::api_errors::Status;
use super::api_object::ApiObject;
use super::mvcc_store::Revision;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

/// One change of one object, as the cache and every watcher see it: the object before and
/// after (`None` when it did not exist / was deleted) and the revision of the change.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectChange {
    pub revision: Revision,
    pub key: String,
    pub prev: Option<ApiObject>,
    pub cur: Option<ApiObject>,
}

/// Upstream's default initial capacity of the event window.
pub const DEFAULT_CAPACITY: usize = 100;

#[derive(Clone, Debug)]
pub struct WatchCache {
    capacity: usize,
    /// The revision of the LIST the cache (re)started from.
    list_rv: Revision,
    /// Whether an event has been evicted from the window since that LIST.
    evicted: bool,
    /// The newest revision the cache has applied.
    revision: Revision,
    events: VecDeque<ObjectChange>,
    /// Current objects by storage key (shared with copies of the cache: they never change
    /// in place, a change replaces them).
    objects: BTreeMap<String, Rc<ApiObject>>,
}

impl WatchCache {
    /// A cache initialised from a LIST of `objects` at revision `list_rv`.
    pub fn new(capacity: usize, list_rv: Revision, objects: BTreeMap<String, ApiObject>) -> Self {
        let objects = objects.into_iter().map(|(k, o)| (k, Rc::new(o))).collect();
        WatchCache {
            capacity: capacity.max(1),
            list_rv,
            evicted: false,
            revision: list_rv,
            events: VecDeque::new(),
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

    /// Applies one change from etcd and remembers it in the window.
    pub fn apply(&mut self, change: ObjectChange) {
        match &change.cur {
            Some(obj) => self.objects.insert(change.key.clone(), Rc::new(obj.clone())),
            None => self.objects.remove(&change.key),
        };
        self.revision = self.revision.max(change.revision);
        self.events.push_back(change);
        if self.events.len() > self.capacity {
            self.events.pop_front();
            self.evicted = true;
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

    pub fn get_prev(&self, key: &str) -> Option<ApiObject> {
        self.objects.get(key).map(|o| (**o).clone())
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
        Ok(self.events.range(start..).cloned().collect())
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
        ObjectChange { revision: rev, key: format!("/registry/configmaps/ns/{name}"), prev: None, cur: Some(obj) }
    }

    #[test]
    fn semantics_8_window_starts_at_the_list_revision() {
        let mut cache = WatchCache::new(3, 10, BTreeMap::new());
        assert_eq!(cache.oldest_servable(), 10);
        assert!(cache.events_since(10).unwrap().is_empty());
        assert_eq!(cache.events_since(9).unwrap_err().message, "too old resource version: 9 (10)");
        for rev in 11..=13 {
            cache.apply(change(rev, &format!("c{rev}")));
        }
        assert_eq!(cache.events_since(11).unwrap().len(), 2);
        assert_eq!(cache.events_since(10).unwrap().len(), 3, "nothing evicted yet: list_rv still servable");
    }

    #[test]
    fn semantics_8_eviction_moves_the_window() {
        let mut cache = WatchCache::new(2, 10, BTreeMap::new());
        for rev in 11..=14 {
            cache.apply(change(rev, "c"));
        }
        assert_eq!(cache.oldest_servable(), 12);
        let err = cache.events_since(11).unwrap_err();
        assert_eq!((err.code, err.reason, err.message.as_str()), (410, "Expired", "too old resource version: 11 (12)"));
        assert_eq!(cache.events_since(12).unwrap().len(), 2);
        assert_eq!(cache.len(), 1);
    }
}
