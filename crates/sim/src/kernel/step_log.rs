//! A log of records made at steps — a branch's trace, the actions a person took, the console's
//! lines — and the one rule by which time travel cuts them all: when a new branch starts at a
//! step, every record made at that step or later belonged to the branch left behind and is
//! forgotten. Records stay in step order; records of one step keep the order they came in.

use std::ops::{Deref, DerefMut};

/// A record that knows the step it was made at.
pub trait AtStep {
    /// The step the world was at when this was recorded.
    fn at_step(&self) -> u64;
}

/// A record paired with the step it was made at.
impl<T> AtStep for (u64, T) {
    fn at_step(&self) -> u64 {
        self.0
    }
}

/// Records in step order. Reads as a slice; only [`StepLog::record`] and [`StepLog::cut`]
/// change which records it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct StepLog<T> {
    records: Vec<T>,
}

impl<T> Default for StepLog<T> {
    fn default() -> Self {
        StepLog { records: Vec::new() }
    }
}

impl<T: AtStep> StepLog<T> {
    /// Adds a record after every record made at its step or before.
    pub fn record(&mut self, record: T) {
        let at = record.at_step();
        if self.records.last().is_none_or(|last| last.at_step() <= at) {
            self.records.push(record);
        } else {
            let place = self.records.partition_point(|r| r.at_step() <= at);
            self.records.insert(place, record);
        }
    }

    /// A new branch starts at `step`: forgets every record made at `step` or later.
    pub fn cut(&mut self, step: u64) {
        let kept = self.records.partition_point(|r| r.at_step() < step);
        self.records.truncate(kept);
    }

    /// Whether anything was recorded at `step`.
    pub fn has_at(&self, step: u64) -> bool {
        self.at(step).next().is_some()
    }

    /// The records made at `step`, in the order they came.
    pub fn at(&self, step: u64) -> impl Iterator<Item = &T> {
        let from = self.records.partition_point(|r| r.at_step() < step);
        self.records[from..].iter().take_while(move |r| r.at_step() == step)
    }
}

impl<T: AtStep> Extend<T> for StepLog<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, records: I) {
        for record in records {
            self.record(record);
        }
    }
}

impl<T> Deref for StepLog<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.records
    }
}

/// Records may be read and replaced in place (the same step's record worked out again); their
/// number and order change only through `record` and `cut`.
impl<T> DerefMut for StepLog<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.records
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_keep_step_order_and_a_branch_forgets_its_step_and_after() {
        let mut log = StepLog::default();
        for (step, what) in [(1, "a"), (3, "c"), (3, "d"), (5, "e")] {
            log.record((step, what));
        }
        log.record((3, "late"));
        log.record((2, "b"));
        assert_eq!(log.iter().map(|r| r.1).collect::<Vec<_>>(), ["a", "b", "c", "d", "late", "e"]);
        assert_eq!(log.at(3).map(|r| r.1).collect::<Vec<_>>(), ["c", "d", "late"]);
        assert!(log.has_at(5) && !log.has_at(4));
        log.cut(3);
        assert_eq!(log.iter().map(|r| r.1).collect::<Vec<_>>(), ["a", "b"]);
        log.cut(0);
        assert!(log.is_empty());
    }
}
