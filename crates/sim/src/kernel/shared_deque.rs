//! A first-in-first-out buffer whose copies share their contents: items live in fixed-size
//! chunks behind `Rc`, so copying the buffer (a time-travel snapshot, a step back) copies one
//! pointer per chunk, and a write copies at most the newest chunk. The watch cache's event
//! window, which grows to tens of thousands of events under load, is the one that needs it.
//!
//! Every chunk but the newest is full; `head` counts the items already taken from the oldest,
//! so the item at position `i` is at `head + i` counted across chunks.

use std::collections::VecDeque;
use std::rc::Rc;

const CHUNK: usize = 256;

#[derive(Clone, Debug)]
pub struct SharedDeque<T> {
    chunks: VecDeque<Rc<Vec<T>>>,
    head: usize,
    len: usize,
}

impl<T> Default for SharedDeque<T> {
    fn default() -> Self {
        SharedDeque { chunks: VecDeque::new(), head: 0, len: 0 }
    }
}

impl<T: Clone> SharedDeque<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        let at = self.head + i;
        self.chunks.get(at / CHUNK).and_then(|chunk| chunk.get(at % CHUNK))
    }

    pub fn front(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn push_back(&mut self, item: T) {
        if self.chunks.back().is_none_or(|chunk| chunk.len() == CHUNK) {
            self.chunks.push_back(Rc::new(Vec::with_capacity(CHUNK)));
        }
        if let Some(chunk) = self.chunks.back_mut() {
            Rc::make_mut(chunk).push(item);
            self.len += 1;
        }
    }

    /// Forgets the `n` oldest items (all of them when there are fewer).
    pub fn drop_front(&mut self, n: usize) {
        let n = n.min(self.len);
        self.len -= n;
        self.head += n;
        let whole = self.head / CHUNK;
        self.chunks.drain(..whole.min(self.chunks.len()));
        self.head %= CHUNK;
        if self.len == 0 {
            self.chunks.clear();
            self.head = 0;
        }
    }

    /// The number of leading items for which `pred` holds (they must come first).
    pub fn partition_point(&self, pred: impl Fn(&T) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid).is_some_and(&pred) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The items from position `start` on, oldest first.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = &T> {
        (start..self.len).filter_map(move |i| self.get(i))
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.iter_from(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_across_chunks_while_the_front_is_dropped() {
        let mut d = SharedDeque::new();
        let mut model = VecDeque::new();
        for i in 0..(3 * CHUNK + 17) {
            d.push_back(i);
            model.push_back(i);
            if i % 7 == 0 {
                d.drop_front(3);
                model.drain(..3.min(model.len()));
            }
        }
        assert_eq!(d.len(), model.len());
        assert!(d.iter().eq(model.iter()));
        assert_eq!(d.front(), model.front());
        assert_eq!(d.get(d.len()), None);
        let at = d.partition_point(|x| *x < 500);
        assert_eq!(at, model.partition_point(|x| *x < 500));
        assert!(d.iter_from(at).eq(model.range(at..)));
    }

    #[test]
    fn a_copy_does_not_see_later_writes_and_shares_full_chunks() {
        let mut d = SharedDeque::new();
        (0..CHUNK * 2 + 1).for_each(|i| d.push_back(i));
        let copy = d.clone();
        d.push_back(9_999);
        d.drop_front(CHUNK + 1);
        assert_eq!(copy.len(), CHUNK * 2 + 1);
        assert_eq!(copy.iter().last(), Some(&(CHUNK * 2)));
        assert_eq!(d.front(), Some(&(CHUNK + 1)));
        assert_eq!(d.iter().last(), Some(&9_999));
        assert!(Rc::ptr_eq(&d.chunks[0], &copy.chunks[1]), "the full middle chunk is shared");
    }

    #[test]
    fn emptying_it_starts_over() {
        let mut d = SharedDeque::new();
        (0..10).for_each(|i| d.push_back(i));
        d.drop_front(99);
        assert!(d.is_empty());
        d.push_back(1);
        assert_eq!(d.iter().copied().collect::<Vec<_>>(), vec![1]);
    }
}
