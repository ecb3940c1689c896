//! One stable sort for every element type the simulation sorts.
//!
//! The standard library's stable sort is compiled anew for each element type and order it is
//! given, about 4 KB of wasm each; the page sorts a dozen kinds of lists, so that was a tenth of
//! what its module's size owes to the standard library. Here the sorting itself is compiled
//! once: it orders the positions `0..len` by a comparison passed by reference, and each list
//! is then rearranged in place along that order. Same result as `slice::sort_by`: stable,
//! O(n log n) comparisons, plus one `usize` per element while it runs.
//!
//! Collecting into a `BTreeMap` or `BTreeSet` sorts too, with the same sort compiled for the
//! entries' type: [`map_of`] and [`set_of`] build them by insertion instead.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `items` in ascending order, keeping equal items in the order they were in.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// Sorts `items` by the key `key` gives each, keeping equal keys in the order they were in.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` by `order`, keeping items it finds equal in the order they were in.
pub fn sort_by<T>(items: &mut [T], order: impl Fn(&T, &T) -> Ordering) {
    let mut from: Vec<usize> = (0..items.len()).collect();
    order_positions(&mut from, &|a, b| order(&items[a], &items[b]));
    // `from[i]` is where the item that belongs at `i` is now: follow each cycle of moves,
    // marking each place filled by pointing it at itself.
    for start in 0..from.len() {
        let mut here = start;
        loop {
            let source = from[here];
            from[here] = here;
            if source == start || source == here {
                break;
            }
            items.swap(here, source);
            here = source;
        }
    }
}

/// A map of `entries`, the last of equal keys kept: what `collect()` makes, without its sort.
pub fn map_of<K: Ord, V>(entries: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(entries);
    map
}

/// A set of `items`: what `collect()` makes, without its sort.
pub fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// The one sorting routine: `positions` ordered by `order`, stably.
fn order_positions(positions: &mut [usize], order: &dyn Fn(usize, usize) -> Ordering) {
    positions.sort_by(|a, b| order(*a, *b));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;

    #[test]
    fn sorts_as_the_standard_library_does_keeping_equal_items_in_order() {
        let mut rng = Rng::new(7);
        for len in [0, 1, 2, 3, 10, 100, 1000] {
            // Pairs sorted by their first half only: the second half shows the order kept.
            let items: Vec<(u64, usize)> = (0..len).map(|i| (rng.next_u64() % (len as u64 / 3 + 1), i)).collect();
            let mut ours = items.clone();
            let mut theirs = items.clone();
            sort_by_key(&mut ours, |p| p.0);
            theirs.sort_by_key(|p| p.0);
            assert_eq!(ours, theirs, "{len} items");
            let mut ours = items.clone();
            let mut theirs = items;
            sort(&mut ours);
            theirs.sort();
            assert_eq!(ours, theirs, "{len} items, whole");
        }
    }

    #[test]
    fn maps_and_sets_by_insertion_are_what_collect_makes_the_last_of_equal_keys_kept() {
        let mut rng = Rng::new(11);
        for len in [0, 1, 5, 200] {
            let entries: Vec<(u64, usize)> = (0..len).map(|i| (rng.next_u64() % (len as u64 / 2 + 1), i)).collect();
            assert_eq!(map_of(entries.clone()), entries.iter().copied().collect::<BTreeMap<_, _>>(), "{len} entries");
            assert_eq!(set_of(entries.iter().map(|e| e.0)), entries.iter().map(|e| e.0).collect::<BTreeSet<_>>());
        }
    }

    #[test]
    fn sorts_in_reverse_and_moves_items_that_cannot_be_copied() {
        let mut names: Vec<String> = ["b", "d", "a", "c", "e"].map(String::from).to_vec();
        sort_by(&mut names, |a, b| b.cmp(a));
        assert_eq!(names, ["e", "d", "c", "b", "a"]);
    }
}
