//! An ordered map kept as one sorted `Vec`, for the maps that hold a handful of entries (an
//! informer's open watches, the cacher's caches by kind, requests by verb): a `BTreeMap`'s
//! order and look-ups in a fraction of its code. Every `BTreeMap` of new key and value types
//! adds its nodes' balancing to the page's wasm (a few KB each); this adds a binary search and
//! a `Vec`'s shifts.
//!
//! Insert and remove move the entries after them: a map written a key at a time (a
//! controller's beliefs or failures by key) stays cheap per step into the thousands of keys,
//! but the maps a LIST fills or drains in bulk (the stored objects, the queues) are
//! [`SharedMap`](super::SharedMap)s and `BTreeMap`s.

use std::borrow::Borrow;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallMap<K, V> {
    /// Sorted by key, each key once.
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap { entries: Vec::new() }
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    pub const fn new() -> Self {
        SmallMap { entries: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key`'s value; the value it had, if any.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// `key`'s value, made by `make` first when there is none (a `BTreeMap`'s
    /// `entry(key).or_insert_with(make)`).
    pub fn or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    /// In key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.into_iter()
    }

    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&K, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K: Ord, V> IntoIterator for SmallMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    /// In key order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a, K: Ord, V> IntoIterator for &'a SmallMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    /// In key order.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SmallMap<K, V> {
    type Output = V;

    /// Panics when `key` is not in the map, as a `BTreeMap` does.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("a key in the map")
    }
}

/// An ordered set kept as one sorted `Vec`: [`SmallMap`]'s keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallSet<T>(SmallMap<T, ()>);

impl<T> Default for SmallSet<T> {
    fn default() -> Self {
        SmallSet(SmallMap::default())
    }
}

impl<T: Ord> SmallSet<T> {
    pub const fn new() -> Self {
        SmallSet(SmallMap::new())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `value` was not in the set.
    pub fn insert(&mut self, value: T) -> bool {
        self.0.insert(value, ()).is_none()
    }

    /// Whether `value` was in the set.
    pub fn remove<Q: Ord + ?Sized>(&mut self, value: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.0.remove(value).is_some()
    }

    pub fn contains<Q: Ord + ?Sized>(&self, value: &Q) -> bool
    where
        T: Borrow<Q>,
    {
        self.0.contains_key(value)
    }

    /// In order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator {
        self.0.keys()
    }
}

impl<T: Ord> IntoIterator for SmallSet<T> {
    type Item = T;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(T, ())>, fn((T, ())) -> T>;

    /// In order.
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter().map(|(value, ())| value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use std::collections::{BTreeMap, BTreeSet};

    /// Random inserts, removes, look-ups and in-place changes on a map and a set give what a
    /// `BTreeMap` and a `BTreeSet` give, in the same order.
    #[test]
    fn behaves_as_a_btreemap_and_a_btreeset() {
        for seed in 0..12 {
            let mut rng = Rng::new(seed);
            let (mut ours, mut model) = (SmallMap::new(), BTreeMap::new());
            let (mut set, mut set_model) = (SmallSet::new(), BTreeSet::new());
            for _ in 0..600 {
                let key = (rng.next_u64() % 40) as u32;
                let value = (rng.next_u64() % 1000) as u32;
                match rng.next_u64() % 6 {
                    0 | 1 => assert_eq!(ours.insert(key, value), model.insert(key, value), "insert {key}"),
                    2 => assert_eq!(ours.remove(&key), model.remove(&key), "remove {key}"),
                    3 => {
                        *ours.or_insert_with(key, || 7) += 1;
                        *model.entry(key).or_insert_with(|| 7) += 1;
                    }
                    4 => {
                        ours.retain(|k, v| !(k + *v).is_multiple_of(5));
                        model.retain(|k, v| !(k + *v).is_multiple_of(5));
                    }
                    _ => assert_eq!(set.insert(key), set_model.insert(key), "set insert {key}"),
                }
                if rng.next_u64().is_multiple_of(3) {
                    assert_eq!(set.remove(&key), set_model.remove(&key), "set remove {key}");
                }
                assert_eq!(ours.get(&key), model.get(&key), "get {key}");
                assert_eq!(ours.contains_key(&key), model.contains_key(&key));
                assert_eq!(set.contains(&key), set_model.contains(&key));
            }
            assert!(ours.iter().eq(model.iter()), "the map's order, seed {seed}");
            assert!(set.iter().eq(set_model.iter()), "the set's order, seed {seed}");
            assert_eq!((ours.len(), set.len()), (model.len(), set_model.len()));
        }
    }
}
