//! The informer's local cache: a thread-safe store with indexes (client-go
//! `tools/cache/store.go`, `thread_safe_store.go`, `index.go`), semantics §3.
//!
//! Objects are kept under `namespace/name`. Each named index maps an index function's values
//! to the set of keys whose objects produce them, so `ByIndex` reads one set instead of
//! scanning every object; a value whose set empties is removed. `List` scans everything. The
//! indexer counts the objects each read examines, so a scan and an index lookup can be
//! compared in numbers.

use super::delta_fifo::KnownObjects;
use crate::cluster::{ApiObject, Shared};
use crate::kernel::{SharedMap, SmallMap};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// `NamespaceIndex`: the name of the namespace index.
pub const NAMESPACE_INDEX: &str = "namespace";

/// What an index computes from an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexFunc {
    /// `MetaNamespaceIndexFunc`: the object's namespace.
    Namespace,
    /// A label's value (no value when the label is absent).
    Label(String),
    /// controller-runtime's `IndexField` (semantics §6): for the value v at a field path,
    /// `<namespace>/v` and `__all_namespaces/v`.
    Field(String),
    /// Several values per object: the UID of every owner (what the ReplicaSet controller's
    /// `controllerUIDIndex` and many operators index by).
    OwnerUids,
    /// Several values per object: `key=value` for every label.
    LabelPairs,
    /// controller-runtime's `IndexField` over a computed value: the name of the owner of this
    /// kind that controls the object (`metav1.GetControllerOf`), filed as `Field`'s are.
    ControllerOf(crate::cluster::Kind),
}

impl IndexFunc {
    pub fn values(&self, obj: &ApiObject) -> Vec<String> {
        match self {
            IndexFunc::Namespace => vec![obj.metadata.namespace.clone()],
            IndexFunc::Label(key) => obj.metadata.labels.get(key).cloned().into_iter().collect(),
            IndexFunc::Field(path) => field_values(obj, obj.field(path)),
            IndexFunc::ControllerOf(kind) => {
                let owner = obj.metadata.owner_references.iter().find(|r| r.controller == Some(true));
                field_values(obj, owner.filter(|r| r.kind == kind.name()).map(|r| r.name.clone()))
            }
            IndexFunc::OwnerUids => obj.metadata.owner_references.iter().map(|r| r.uid.clone()).collect(),
            IndexFunc::LabelPairs => obj.metadata.labels.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        }
    }
}

/// `IndexField`'s filing of an extracted value: under `<namespace>/v` and `__all_namespaces/v`.
fn field_values(obj: &ApiObject, value: Option<String>) -> Vec<String> {
    match value {
        Some(v) => vec![format!("{}/{v}", obj.metadata.namespace), format!("__all_namespaces/{v}")],
        None => vec![],
    }
}

#[derive(Clone, Debug, Default)]
pub struct Indexer {
    /// Objects by key, shared with copies of the indexer (a write replaces, never mutates).
    items: SharedMap<String, Rc<ApiObject>>,
    indexers: SmallMap<String, IndexFunc>,
    /// Index name → value → keys; the key sets are shared with copies until written.
    indices: SmallMap<String, BTreeMap<String, Rc<BTreeSet<String>>>>,
    /// `LastStoreSyncResourceVersion`: the newest resourceVersion written.
    last_rv: i64,
    /// Objects examined by the last read, and by all reads so far.
    pub last_scanned: usize,
    pub total_scanned: u64,
}

impl Indexer {
    /// An indexer with the namespace index, as informers make it.
    pub fn new() -> Self {
        let mut indexer = Indexer::default();
        indexer.indexers.insert(NAMESPACE_INDEX.into(), IndexFunc::Namespace);
        indexer.indices.insert(NAMESPACE_INDEX.into(), BTreeMap::new());
        indexer
    }

    /// `Add` and `Update` are the same: store, then move the key between index sets.
    pub fn update(&mut self, obj: impl Into<Shared>) {
        let obj: Shared = obj.into();
        let key = obj.key();
        self.last_rv = self.last_rv.max(obj.resource_version());
        let old = self.items.insert(key.clone(), obj.clone());
        self.update_indices(old.as_deref(), Some(&obj), &key);
    }

    pub fn delete(&mut self, key: &str) -> Option<Shared> {
        let old = self.items.remove(key)?;
        self.update_indices(Some(&old), None, key);
        Some(old)
    }

    /// `Replace`: a new map, every index rebuilt.
    pub fn replace(&mut self, list: Vec<Shared>, rv: i64) {
        self.items = list.into_iter().map(|o| (o.key(), o)).collect();
        for index in self.indices.values_mut() {
            index.clear();
        }
        let keys: Vec<String> = self.items.keys().cloned().collect();
        for key in keys {
            let obj = self.items.get(&key).cloned();
            self.update_indices(None, obj.as_deref(), &key);
        }
        self.last_rv = rv;
    }

    fn update_indices(&mut self, old: Option<&ApiObject>, new: Option<&ApiObject>, key: &str) {
        for (name, func) in &self.indexers {
            let old_values = old.map(|o| func.values(o)).unwrap_or_default();
            let new_values = new.map(|o| func.values(o)).unwrap_or_default();
            if old_values.len() == 1 && old_values == new_values {
                continue;
            }
            // Every index name has its map from the start (`new`, `add_indexers`): no key to copy.
            let Some(index) = self.indices.get_mut(name) else { continue };
            for value in &old_values {
                if let Some(set) = index.get_mut(value) {
                    Rc::make_mut(set).remove(key);
                    if set.is_empty() {
                        index.remove(value);
                    }
                }
            }
            for value in new_values {
                Rc::make_mut(index.entry(value).or_default()).insert(key.to_string());
            }
        }
    }

    /// What a caller does that changes the object `Get` handed it (a lister's, or
    /// controller-runtime's with `UnsafeDisableDeepCopy`): the store's own object changes and
    /// its indices do not (`thread_safe_store.go`: "you must not modify anything returned by
    /// Get or List as it will break the indexing feature"). The next update of the key reads
    /// the changed object as the old one, and moves index entries by its values. Returns whether
    /// the key was there.
    pub fn mutate_in_place(&mut self, key: &str, change: impl FnOnce(&mut ApiObject)) -> bool {
        let Some(obj) = self.items.get(key) else { return false };
        let mut changed = (**obj).clone();
        change(&mut changed);
        // A copy of the indexer (time travel) keeps the object it had: the map is shared.
        self.items.insert(key.to_string(), Rc::new(changed));
        true
    }

    pub fn get_by_key(&self, key: &str) -> Option<&ApiObject> {
        self.items.get(key).map(|o| &**o)
    }

    /// The shared object at a key.
    pub fn get_shared(&self, key: &str) -> Option<&Shared> {
        self.items.get(key)
    }

    /// Every object: a full scan.
    pub fn list(&mut self) -> Vec<&ApiObject> {
        self.count_scan(self.items.len());
        self.items.values().map(|o| &**o).collect()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// The cached objects' size as JSON: what the cache costs in memory. Measured when asked
    /// (each object once: its size is kept with it), so storing costs no serialisation.
    pub fn bytes(&self) -> usize {
        self.items.values().map(ApiObject::json_len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.items.keys()
    }

    pub fn objects(&self) -> impl Iterator<Item = &ApiObject> {
        self.items.values().map(|o| &**o)
    }

    /// Every object, shared.
    pub fn shared(&self) -> impl Iterator<Item = &Shared> {
        self.items.values()
    }

    fn count_scan(&mut self, n: usize) {
        self.last_scanned = n;
        self.total_scanned += n as u64;
    }

    /// An index by name; the error is the missing index's name (`Index with name <name>
    /// does not exist`).
    fn index(&self, name: &str) -> Result<&BTreeMap<String, Rc<BTreeSet<String>>>, String> {
        self.indices.get(name).ok_or_else(|| name.to_string())
    }

    /// Objects whose index `name` has `value`: reads one set.
    pub fn by_index(&mut self, name: &str, value: &str) -> Result<Vec<&ApiObject>, String> {
        let keys: Vec<String> = self.index(name)?.get(value).into_iter().flat_map(|set| set.iter()).cloned().collect();
        self.count_scan(keys.len());
        Ok(keys.iter().filter_map(|k| self.items.get(k)).map(|o| &**o).collect())
    }

    /// The keys with `value` in index `name`, sorted.
    pub fn index_keys(&self, name: &str, value: &str) -> Result<Vec<String>, String> {
        Ok(self.index(name)?.get(value).into_iter().flat_map(|set| set.iter()).cloned().collect())
    }

    /// The values of index `name` that have at least one key.
    pub fn list_index_func_values(&self, name: &str) -> Vec<String> {
        self.indices.get(name).map(|i| i.keys().cloned().collect()).unwrap_or_default()
    }

    /// What the indexes hold beside the objects: their entries (a key under a value) and the
    /// bytes of their values and keys — each index keeps its own copy of every key it lists.
    pub fn index_size(&self) -> (usize, usize) {
        let mut size = (0, 0);
        for (value, keys) in self.indices.values().flatten() {
            size.0 += keys.len();
            size.1 += value.len() + keys.iter().map(String::len).sum::<usize>();
        }
        size
    }

    /// The index names and their functions.
    pub fn indexers(&self) -> impl Iterator<Item = (&String, &IndexFunc)> {
        self.indexers.iter()
    }

    /// `AddIndexers` (client-go ≥ 0.30: allowed on a non-empty store, indexes what is there);
    /// a name already taken is `indexer conflict: [name]`.
    pub fn add_indexers(&mut self, new: Vec<(String, IndexFunc)>) -> Result<(), String> {
        let clash: Vec<&str> =
            new.iter().filter(|(n, _)| self.indexers.contains_key(n)).map(|(n, _)| n.as_str()).collect();
        if !clash.is_empty() {
            return Err(format!("indexer conflict: [{}]", clash.join(" ")));
        }
        for (name, func) in new {
            let mut index: BTreeMap<String, Rc<BTreeSet<String>>> = BTreeMap::new();
            for (key, obj) in self.items.iter() {
                for value in func.values(obj) {
                    Rc::make_mut(index.entry(value).or_default()).insert(key.clone());
                }
            }
            self.indices.insert(name.clone(), index);
            self.indexers.insert(name, func);
        }
        Ok(())
    }

    pub fn last_store_sync_resource_version(&self) -> i64 {
        self.last_rv
    }

    /// `Bookmark` (client-go ≥ 1.36, atomic RealFIFO): the store has seen up to `rv`.
    pub fn bookmark(&mut self, rv: i64) {
        self.last_rv = self.last_rv.max(rv);
    }
}

impl KnownObjects for Indexer {
    fn list_keys(&self) -> Vec<String> {
        self.items.keys().cloned().collect()
    }

    fn get_by_key(&self, key: &str) -> Option<&Shared> {
        self.items.get(key)
    }
}

/// `SplitMetaNamespaceKey`: `name` or `namespace/name`.
pub fn split_meta_namespace_key(key: &str) -> Result<(&str, &str), String> {
    let parts: Vec<&str> = key.split('/').collect();
    match parts[..] {
        [name] => Ok(("", name)),
        [ns, name] => Ok((ns, name)),
        _ => Err(format!("unexpected key format: {key:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Kind;
    use serde_json::json;

    fn pod(ns: &str, name: &str, node: &str) -> ApiObject {
        ApiObject::new(Kind::Pod, ns, name).with("spec", json!({"nodeName": node}))
    }

    #[test]
    fn semantics_3_namespace_index_and_by_index() {
        let mut ix = Indexer::new();
        ix.update(pod("a", "p1", "n1"));
        ix.update(pod("a", "p2", "n2"));
        ix.update(pod("b", "p3", "n1"));
        assert_eq!(ix.by_index(NAMESPACE_INDEX, "a").unwrap().len(), 2);
        assert_eq!(ix.last_scanned, 2);
        assert_eq!(ix.index_keys(NAMESPACE_INDEX, "a").unwrap(), vec!["a/p1", "a/p2"]);
        assert_eq!(ix.by_index("nope", "x").unwrap_err(), "nope", "the error names the missing index");
        ix.list();
        assert_eq!(ix.last_scanned, 3);
    }

    #[test]
    fn semantics_6_an_index_over_the_controlling_owner_files_only_objects_it_controls() {
        let owned = |name: &str, kind: &str, controller: Option<bool>| {
            let mut p = pod("a", name, "n1");
            p.metadata.owner_references.push(crate::cluster::api_object::OwnerReference {
                api_version: "apps/v1".into(),
                kind: kind.into(),
                name: "web-5d8f".into(),
                uid: "u".into(),
                controller,
            });
            p
        };
        let by = IndexFunc::ControllerOf(Kind::ReplicaSet);
        assert_eq!(by.values(&owned("p1", "ReplicaSet", Some(true))), ["a/web-5d8f", "__all_namespaces/web-5d8f"]);
        assert!(by.values(&owned("p2", "ReplicaSet", None)).is_empty(), "an owner that does not control it");
        assert!(by.values(&owned("p3", "StatefulSet", Some(true))).is_empty(), "a controller of another kind");
        assert!(by.values(&pod("a", "p4", "n1")).is_empty());
    }

    #[test]
    fn semantics_3_an_index_function_may_give_several_values_per_object() {
        let mut ix = Indexer::new();
        ix.add_indexers(vec![("owner".into(), IndexFunc::OwnerUids), ("labels".into(), IndexFunc::LabelPairs)])
            .unwrap();
        let mut p = pod("a", "p1", "n1").with_label("app", "web").with_label("tier", "front");
        for (name, uid) in [("rs-1", "u1"), ("rs-2", "u2")] {
            p.metadata.owner_references.push(crate::cluster::api_object::OwnerReference {
                api_version: "apps/v1".into(),
                kind: "ReplicaSet".into(),
                name: name.into(),
                uid: uid.into(),
                controller: None,
            });
        }
        ix.update(p.clone());
        assert_eq!(ix.index_keys("owner", "u1").unwrap(), vec!["a/p1"]);
        assert_eq!(ix.index_keys("owner", "u2").unwrap(), vec!["a/p1"]);
        assert_eq!(ix.list_index_func_values("labels"), vec!["app=web", "tier=front"]);
        p.metadata.owner_references.pop();
        p.metadata.labels.remove("tier");
        ix.update(p);
        assert!(ix.index_keys("owner", "u2").unwrap().is_empty(), "a value the object no longer gives is dropped");
        assert_eq!(ix.list_index_func_values("labels"), vec!["app=web"]);
    }

    #[test]
    fn semantics_3_empty_index_sets_are_removed() {
        let mut ix = Indexer::new();
        ix.update(pod("a", "p1", "n1"));
        ix.update(pod("b", "p2", "n1"));
        assert_eq!(ix.list_index_func_values(NAMESPACE_INDEX), vec!["a", "b"]);
        let one = ix.bytes();
        ix.delete("b/p2");
        assert_eq!(ix.list_index_func_values(NAMESPACE_INDEX), vec!["a"]);
        assert_eq!(ix.bytes() * 2, one, "two objects of the same size, one left");
    }

    #[test]
    fn semantics_3_and_6_field_indexes_follow_updates() {
        let mut ix = Indexer::new();
        ix.update(pod("a", "p1", "n1"));
        ix.add_indexers(vec![("field:spec.nodeName".into(), IndexFunc::Field("spec.nodeName".into()))]).unwrap();
        assert_eq!(ix.index_keys("field:spec.nodeName", "a/n1").unwrap(), vec!["a/p1"]);
        ix.update(pod("a", "p1", "n2"));
        assert!(ix.index_keys("field:spec.nodeName", "__all_namespaces/n1").unwrap().is_empty());
        assert_eq!(ix.index_keys("field:spec.nodeName", "__all_namespaces/n2").unwrap(), vec!["a/p1"]);
        let err = ix.add_indexers(vec![(NAMESPACE_INDEX.into(), IndexFunc::Namespace)]).unwrap_err();
        assert_eq!(err, "indexer conflict: [namespace]");
    }

    #[test]
    fn semantics_3_replace_rebuilds_indices_and_keys_split() {
        let mut ix = Indexer::new();
        ix.update(pod("a", "p1", "n1"));
        ix.replace(vec![Rc::new(pod("b", "p2", "n1"))], 42);
        assert!(ix.get_by_key("a/p1").is_none());
        assert_eq!(ix.list_index_func_values(NAMESPACE_INDEX), vec!["b"]);
        assert_eq!(ix.last_store_sync_resource_version(), 42);
        assert_eq!(split_meta_namespace_key("ns/n").unwrap(), ("ns", "n"));
        assert_eq!(split_meta_namespace_key("n").unwrap(), ("", "n"));
        assert_eq!(split_meta_namespace_key("a/b/c").unwrap_err(), r#"unexpected key format: "a/b/c""#);
    }
}
