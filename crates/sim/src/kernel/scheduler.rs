//! The scheduler: messages ordered by (virtual time, sequence number). Equal times keep the
//! order they were scheduled in, so a run is a pure function of its inputs (semantics §9).
//! Messages are shared between copies of the scheduler (a time-travel snapshot copies
//! pointers, not the messages in flight).

use super::Millis;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;

#[derive(Debug)]
struct Entry<M> {
    at: Millis,
    seq: i64,
    message: Rc<M>,
}

impl<M> Clone for Entry<M> {
    fn clone(&self) -> Self {
        Entry { at: self.at, seq: self.seq, message: self.message.clone() }
    }
}

impl<M> PartialEq for Entry<M> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl<M> Eq for Entry<M> {}
impl<M> PartialOrd for Entry<M> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<M> Ord for Entry<M> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}

#[derive(Debug)]
pub struct Scheduler<M> {
    heap: BinaryHeap<Reverse<Entry<M>>>,
    seq: i64,
    /// Sequence numbers of messages that go ahead of everything else due at the same time.
    first_seq: i64,
}

impl<M> Clone for Scheduler<M> {
    fn clone(&self) -> Self {
        Scheduler { heap: self.heap.clone(), seq: self.seq, first_seq: self.first_seq }
    }
}

impl<M> Default for Scheduler<M> {
    fn default() -> Self {
        Scheduler { heap: BinaryHeap::new(), seq: 0, first_seq: i64::MIN }
    }
}

impl<M: Clone> Scheduler<M> {
    pub fn schedule(&mut self, at: Millis, message: M) {
        self.seq += 1;
        self.heap.push(Reverse(Entry { at, seq: self.seq, message: Rc::new(message) }));
    }

    /// Schedules ahead of every message already due at `at` (after earlier such calls): a
    /// person's action at the current time is the next step.
    pub fn schedule_first(&mut self, at: Millis, message: M) {
        self.first_seq += 1;
        self.heap.push(Reverse(Entry { at, seq: self.first_seq, message: Rc::new(message) }));
    }

    /// The earliest message and its time (copied only when a snapshot still shares it).
    pub fn pop(&mut self) -> Option<(Millis, M)> {
        self.heap.pop().map(|Reverse(e)| (e.at, Rc::unwrap_or_clone(e.message)))
    }

    pub fn peek_time(&self) -> Option<Millis> {
        self.heap.peek().map(|Reverse(e)| e.at)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Pending messages, in no particular order.
    pub fn pending(&self) -> impl Iterator<Item = (Millis, &M)> {
        self.heap.iter().map(|Reverse(e)| (e.at, &*e.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_9_orders_by_time_then_sequence() {
        let mut s = Scheduler::default();
        s.schedule(10, "c");
        s.schedule(5, "a");
        s.schedule(10, "d");
        s.schedule(5, "b");
        let order: Vec<_> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(order, vec![(5, "a"), (5, "b"), (10, "c"), (10, "d")]);
        s.schedule(7, "later");
        s.schedule_first(7, "first");
        s.schedule_first(7, "second");
        let order: Vec<_> = std::iter::from_fn(|| s.pop()).map(|(_, m)| m).collect();
        assert_eq!(order, vec!["first", "second", "later"]);
    }
}
