//! The etcd-like revisioned key-value store (etcd `server/storage/mvcc`), semantics §7.
//!
//! What it gives you:
//! - one global *main revision*: an empty store is at revision 1, so the first write is
//!   revision 2; every write transaction that changes something takes the next revision,
//!   and all its changes share it (each change gets its own sub-revision);
//! - per key `create_revision`, `mod_revision` and `version`; a delete writes a tombstone
//!   that ends the key's generation, and a later put starts a new one (version 1);
//! - reads at any revision not yet compacted, and `compact(rev)`, which keeps per key only
//!   the newest revision ≤ rev (dropped when it is a tombstone older than rev);
//! - watches from any revision, served from the same revision history: a watch that starts
//!   below the compaction point gets one response carrying the compact revision and is
//!   cancelled.
//!
//! Like etcd, the history lives in a backend keyed by revision and a key index that lists,
//! per key, the revisions that touched it. Compaction removes what etcd ≥ 3.4.34 / 3.5.16 /
//! 3.6.0 removes: a tombstone written *at* the compact revision is kept, so a watch from the
//! compact revision still sees that delete (etcd issue 18089; older releases, Debian's 3.4.23
//! among them, dropped it and lost the delete).
//!
//! Left out: leases, the `prev_kv` option, and the batching of catch-up watch responses
//! (etcd may pack several revisions into one response while a watcher catches up; here each
//! revision is one response, and the events are the same).

use crate::kernel::{SharedMap, SmallMap};
use std::fmt;
use std::ops::Bound;
use std::rc::Rc;

/// A main revision. etcd uses int64; the store never hands out anything below 1.
pub type Revision = i64;

/// `mvcc: required revision has been compacted` and `mvcc: required revision is a future
/// revision`, the two errors of §7; [`MvccError::grpc_message`] gives the `etcdserver: `
/// form a client sees over gRPC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MvccError {
    Compacted,
    FutureRevision,
    /// `etcdserver: duplicate key given in txn request`: a transaction may touch a key once.
    DuplicateKey,
}

impl fmt::Display for MvccError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MvccError::Compacted => "mvcc: required revision has been compacted",
            MvccError::FutureRevision => "mvcc: required revision is a future revision",
            MvccError::DuplicateKey => "duplicate key given in txn request",
        })
    }
}

impl MvccError {
    /// The text an etcd client reads off the gRPC status.
    pub fn grpc_message(&self) -> String {
        format!("etcdserver: {self}")
    }
}

/// A value as the store keeps it: the bytes a client put, or an object the API server put —
/// kept as the object, never read back from its bytes (the JSON it stands for is made when it
/// is asked for, and its length once). Two values are equal when their bytes are.
#[derive(Clone, Debug)]
pub enum StoredValue {
    Bytes(Rc<str>),
    /// An object without its resourceVersion, as the API server stores it (§8).
    Object(crate::cluster::Shared),
}

impl StoredValue {
    /// The value's bytes, as etcd holds them.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            StoredValue::Bytes(text) => std::borrow::Cow::Borrowed(text),
            StoredValue::Object(obj) => std::borrow::Cow::Owned(obj.to_json()),
        }
    }

    /// How many bytes the value is.
    pub fn len(&self) -> usize {
        match self {
            StoredValue::Bytes(text) => text.len(),
            StoredValue::Object(obj) => crate::cluster::ApiObject::json_len(obj),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PartialEq for StoredValue {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (StoredValue::Object(a), StoredValue::Object(b)) => Rc::ptr_eq(a, b) || a == b,
            _ => self.text() == other.text(),
        }
    }
}

impl Eq for StoredValue {}

impl PartialEq<&str> for StoredValue {
    fn eq(&self, other: &&str) -> bool {
        self.text() == *other
    }
}

impl From<&str> for StoredValue {
    fn from(text: &str) -> Self {
        StoredValue::Bytes(text.into())
    }
}

impl From<String> for StoredValue {
    fn from(text: String) -> Self {
        StoredValue::Bytes(text.into())
    }
}

/// One stored version of a key, as etcd's `mvccpb.KeyValue`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue {
    pub key: String,
    pub value: StoredValue,
    pub create_revision: Revision,
    pub mod_revision: Revision,
    pub version: i64,
}

/// A watch event. A DELETE carries only the key and the deletion revision (§7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Put(KeyValue),
    Delete { key: String, mod_revision: Revision },
}

impl Event {
    pub fn key(&self) -> &str {
        match self {
            Event::Put(kv) => &kv.key,
            Event::Delete { key, .. } => key,
        }
    }

    pub fn revision(&self) -> Revision {
        match self {
            Event::Put(kv) => kv.mod_revision,
            Event::Delete { mod_revision, .. } => *mod_revision,
        }
    }
}

/// A key range as etcd takes it: `end` empty means the single key, `"\0"` means every key
/// from `key` on, anything else is the half-open interval `[key, end)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRange {
    pub key: String,
    pub end: String,
}

impl KeyRange {
    pub fn single(key: impl Into<String>) -> Self {
        KeyRange { key: key.into(), end: String::new() }
    }

    /// Every key starting with `prefix` (etcd's `clientv3.WithPrefix`).
    pub fn prefix(prefix: impl Into<String>) -> Self {
        let key = prefix.into();
        let end = prefix_end(&key);
        KeyRange { key, end }
    }

    pub fn contains(&self, k: &str) -> bool {
        if self.end.is_empty() {
            k == self.key
        } else if self.end == "\0" {
            k >= self.key.as_str()
        } else {
            k >= self.key.as_str() && k < self.end.as_str()
        }
    }

    fn bounds(&self) -> (Bound<&str>, Bound<&str>) {
        if self.end.is_empty() {
            (Bound::Included(self.key.as_str()), Bound::Included(self.key.as_str()))
        } else if self.end == "\0" {
            (Bound::Included(self.key.as_str()), Bound::Unbounded)
        } else if self.end.as_str() <= self.key.as_str() {
            // An empty interval (a reversed range selects nothing, as in etcd).
            (Bound::Included(self.key.as_str()), Bound::Excluded(self.key.as_str()))
        } else {
            (Bound::Included(self.key.as_str()), Bound::Excluded(self.end.as_str()))
        }
    }
}

/// The smallest key greater than every key with this prefix (`clientv3.GetPrefixRangeEnd`).
fn prefix_end(prefix: &str) -> String {
    let mut bytes = prefix.as_bytes().to_vec();
    while let Some(last) = bytes.pop() {
        if last < 0x7f {
            bytes.push(last + 1);
            return String::from_utf8(bytes).unwrap_or_else(|_| "\0".into());
        }
    }
    "\0".into()
}

/// The answer to a range read. `revision` is the store's *current* revision, even for a
/// read at an older one (§7); `count` is every match, `kvs` at most `limit` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeResult {
    pub kvs: Vec<KeyValue>,
    pub count: usize,
    pub revision: Revision,
}

/// A comparison in a transaction's `if` clause (the subset the API server uses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `mod_revision(key) == rev`; 0 for a key that does not exist.
    ModRevision(String, Revision),
    /// `create_revision(key) == rev`; 0 for a key that does not exist.
    CreateRevision(String, Revision),
    /// `version(key) == v`; 0 for a key that does not exist.
    Version(String, i64),
    /// `value(key) == v`; false for a key that does not exist.
    Value(String, String),
}

/// One operation of a transaction branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Put { key: String, value: StoredValue },
    Delete(KeyRange),
    Range(KeyRange),
}

/// What one operation of a transaction returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpResult {
    Put,
    Delete { deleted: usize },
    Range(RangeResult),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnResult {
    pub succeeded: bool,
    pub results: Vec<OpResult>,
    /// The store's revision after the transaction.
    pub revision: Revision,
}

/// A change recorded in the backend at one (main, sub) revision. Records never change once
/// written, so copies of the store (time-travel snapshots) share them.
#[derive(Clone, Debug)]
enum Record {
    Put(Rc<KeyValue>),
    Tombstone(Rc<str>),
}

type RevKey = (Revision, i64);

/// Identifies a watcher of this store.
pub type WatchId = u64;

#[derive(Clone, Debug)]
struct Watcher {
    range: KeyRange,
    /// The first revision this watcher has not seen yet (etcd's `minRev`).
    next_rev: Revision,
}

/// What a watcher receives when polled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WatchResponse {
    /// Events of one revision, in sub-revision order.
    Events { revision: Revision, events: Vec<Event> },
    /// The watcher started below the compaction point: it is cancelled (§7).
    Compacted { compact_revision: Revision },
}

/// What compaction does with a tombstone written at exactly the compact revision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compaction {
    /// Keeps it (etcd ≥ 3.4.34, 3.5.16, 3.6.0): the model's behaviour.
    #[default]
    KeepsTombstoneAtRevision,
    /// Drops it, losing the delete for watchers resuming there: etcd issue 18089, in every
    /// release before the fix (Debian's etcd 3.4.23 among them). Kept to compare with them.
    DropsTombstoneAtRevision,
}

/// The revisioned store. Cloning it is cheap enough for snapshots of a playground run.
#[derive(Clone, Debug)]
pub struct MvccStore {
    compaction: Compaction,
    current: Revision,
    /// etcd's `compactMainRev`; -1 until the first compaction.
    compact_rev: Revision,
    backend: SharedMap<RevKey, Record>,
    /// Per key, every revision still in the backend that touched it, oldest first.
    /// Shared with copies of the store; a write copies only the one key's list it changes.
    index: SharedMap<Rc<str>, Rc<Vec<RevKey>>>,
    watchers: SmallMap<WatchId, Watcher>,
    next_watch_id: WatchId,
}

impl Default for MvccStore {
    fn default() -> Self {
        Self::new()
    }
}

impl MvccStore {
    pub fn new() -> Self {
        Self::with_compaction(Compaction::default())
    }

    /// A store whose compaction behaves as an etcd release did.
    pub fn with_compaction(compaction: Compaction) -> Self {
        MvccStore {
            compaction,
            current: 1,
            compact_rev: -1,
            backend: SharedMap::new(),
            index: SharedMap::new(),
            watchers: SmallMap::new(),
            next_watch_id: 1,
        }
    }

    /// The current main revision.
    pub fn revision(&self) -> Revision {
        self.current
    }

    /// The last compaction revision, or `None` before the first compaction.
    pub fn compact_revision(&self) -> Option<Revision> {
        (self.compact_rev > 0).then_some(self.compact_rev)
    }

    /// Puts one key in its own transaction; returns the new revision.
    pub fn put(&mut self, key: &str, value: &str) -> Revision {
        let op = Op::Put { key: key.into(), value: value.into() };
        self.txn(&[], std::slice::from_ref(&op), &[]).map(|r| r.revision).unwrap_or(self.current)
    }

    /// Deletes a range in its own transaction; returns how many keys were deleted and the
    /// store's revision afterwards (unchanged when nothing was deleted).
    pub fn delete_range(&mut self, range: &KeyRange) -> (usize, Revision) {
        let op = Op::Delete(range.clone());
        match self.txn(&[], std::slice::from_ref(&op), &[]) {
            Ok(TxnResult { results, revision, .. }) => match results.first() {
                Some(OpResult::Delete { deleted }) => (*deleted, revision),
                _ => (0, revision),
            },
            Err(_) => (0, self.current),
        }
    }

    /// Reads a range at `rev` (0 or less: the current revision), at most `limit` keys
    /// (0: no limit).
    pub fn range(&self, range: &KeyRange, rev: Revision, limit: usize) -> Result<RangeResult, MvccError> {
        let at = self.readable(rev)?;
        Ok(self.range_at(range, at, limit))
    }

    /// Visits the keys of a range live at `rev`, in key order, until `visit` returns false.
    pub fn visit(
        &self,
        range: &KeyRange,
        rev: Revision,
        visit: impl FnMut(&KeyValue) -> bool,
    ) -> Result<(), MvccError> {
        let at = self.readable(rev)?;
        self.visit_at(range, at, visit);
        Ok(())
    }

    /// The revision a read at `rev` happens at, or why it cannot (§7: strictly below the
    /// compaction point is compacted; reading *at* it works).
    fn readable(&self, rev: Revision) -> Result<Revision, MvccError> {
        let at = if rev <= 0 { self.current } else { rev };
        if at > self.current {
            Err(MvccError::FutureRevision)
        } else if at < self.compact_rev {
            Err(MvccError::Compacted)
        } else {
            Ok(at)
        }
    }

    fn visit_at(&self, range: &KeyRange, at: Revision, mut visit: impl FnMut(&KeyValue) -> bool) {
        for (_, revs) in self.index.range::<str, _>(range.bounds()) {
            if let Some(kv) = self.live_at(revs, at) {
                if !visit(kv) {
                    break;
                }
            }
        }
    }

    fn range_at(&self, range: &KeyRange, at: Revision, limit: usize) -> RangeResult {
        let (mut kvs, mut count) = (Vec::new(), 0);
        self.visit_at(range, at, |kv| {
            count += 1;
            if limit == 0 || kvs.len() < limit {
                kvs.push(kv.clone());
            }
            true
        });
        RangeResult { kvs, count, revision: self.current }
    }

    /// Number of live keys in a range at the current revision, without copying values.
    pub fn count(&self, range: &KeyRange) -> usize {
        self.usage(range).0
    }

    /// Keys with a revision still in the store (deleted ones until compaction removes them);
    /// constant time, unlike [`MvccStore::count`].
    pub fn key_count(&self) -> usize {
        self.index.len()
    }

    /// Live keys in a range at the current revision, and the bytes of their values.
    pub fn usage(&self, range: &KeyRange) -> (usize, usize) {
        let (mut count, mut bytes) = (0, 0);
        self.visit_at(range, self.current, |kv| {
            count += 1;
            bytes += kv.value.len();
            true
        });
        (count, bytes)
    }

    fn live_at<'a>(&'a self, revs: &[RevKey], at: Revision) -> Option<&'a KeyValue> {
        let pos = revs.partition_point(|r| r.0 <= at);
        match self.backend.get(revs.get(pos.checked_sub(1)?)?)? {
            Record::Put(kv) => Some(&**kv),
            Record::Tombstone(_) => None,
        }
    }

    fn latest(&self, key: &str) -> Option<&KeyValue> {
        self.live_at(self.index.get(key)?, self.current)
    }

    /// A transaction: if every comparison holds, run `success`, else `failure`. All writes
    /// share one new revision; a transaction that changes nothing keeps the revision (§7).
    pub fn txn(&mut self, compares: &[Compare], success: &[Op], failure: &[Op]) -> Result<TxnResult, MvccError> {
        check_duplicate_keys(success)?;
        check_duplicate_keys(failure)?;
        let succeeded = compares.iter().all(|c| self.holds(c));
        let ops = if succeeded { success } else { failure };
        let rev = self.current + 1;
        let mut sub = 0;
        let mut results = Vec::with_capacity(ops.len());
        for op in ops {
            // Reads inside a writing transaction see its own earlier writes, as etcd's do.
            let read_at = if sub > 0 { rev } else { self.current };
            results.push(match op {
                Op::Range(range) => OpResult::Range(self.range_at(range, read_at, 0)),
                Op::Put { key, value } => {
                    let (create_revision, version) = match self.latest(key) {
                        Some(kv) => (kv.create_revision, kv.version + 1),
                        None => (rev, 1),
                    };
                    let kv = KeyValue {
                        key: key.clone(),
                        value: value.clone(),
                        create_revision,
                        mod_revision: rev,
                        version,
                    };
                    self.record((rev, sub), Record::Put(Rc::new(kv)));
                    sub += 1;
                    OpResult::Put
                }
                Op::Delete(range) => {
                    let mut keys = Vec::new();
                    self.visit_at(range, read_at, |kv| {
                        keys.push(kv.key.clone());
                        true
                    });
                    for key in &keys {
                        self.record((rev, sub), Record::Tombstone(key.as_str().into()));
                        sub += 1;
                    }
                    OpResult::Delete { deleted: keys.len() }
                }
            });
        }
        if sub > 0 {
            self.current = rev;
        }
        debug_assert!(self.compact_rev <= self.current, "etcd: compacted past the current revision");
        debug_assert!(
            self.backend.iter().next_back().is_none_or(|((main, _), _)| *main <= self.current),
            "etcd: a record newer than the current revision"
        );
        Ok(TxnResult { succeeded, results, revision: self.current })
    }

    fn holds(&self, compare: &Compare) -> bool {
        match compare {
            Compare::ModRevision(key, rev) => self.latest(key).map_or(0, |kv| kv.mod_revision) == *rev,
            Compare::CreateRevision(key, rev) => self.latest(key).map_or(0, |kv| kv.create_revision) == *rev,
            Compare::Version(key, v) => self.latest(key).map_or(0, |kv| kv.version) == *v,
            Compare::Value(key, v) => self.latest(key).is_some_and(|kv| kv.value == v.as_str()),
        }
    }

    fn record(&mut self, at: RevKey, record: Record) {
        let key: Rc<str> = match &record {
            Record::Put(kv) => kv.key.as_str().into(),
            Record::Tombstone(key) => key.clone(),
        };
        match self.index.get_mut(&key) {
            Some(revs) => {
                debug_assert!(revs.last().is_none_or(|last| *last < at), "etcd: {key}'s revisions went back");
                Rc::make_mut(revs).push(at)
            }
            None => drop(self.index.insert(key, Rc::new(vec![at]))),
        }
        self.backend.insert(at, record);
    }

    /// Compacts the history at `rev` (§7): per key, only the newest revision ≤ rev stays,
    /// and not even that when it is a tombstone older than `rev`. Reading or watching *at*
    /// `rev` still works.
    pub fn compact(&mut self, rev: Revision) -> Result<(), MvccError> {
        if rev <= self.compact_rev {
            return Err(MvccError::Compacted);
        }
        if rev > self.current {
            return Err(MvccError::FutureRevision);
        }
        self.compact_rev = rev;
        let compaction = self.compaction;
        // Per key, how many of its oldest revisions go.
        let mut dropped: Vec<(Rc<str>, usize)> = Vec::new();
        for (key, revs) in self.index.iter() {
            let upto = revs.partition_point(|r| r.0 <= rev);
            if upto == 0 {
                continue;
            }
            let newest = revs[upto - 1];
            // A tombstone *at* the compact revision stays, so that a watcher resuming from the
            // compact revision still receives the delete (etcd's `doCompact`: `tomb >= atRev`).
            let keep_newest = match self.backend.get(&newest) {
                Some(Record::Put(_)) => true,
                Some(Record::Tombstone(_)) => newest.0 == rev && compaction == Compaction::KeepsTombstoneAtRevision,
                None => false,
            };
            let drop = if keep_newest { upto - 1 } else { upto };
            if drop > 0 {
                dropped.push((key.clone(), drop));
            }
        }
        for (key, drop) in dropped {
            let Some(revs) = self.index.get_mut(&key) else { continue };
            for r in Rc::make_mut(revs).drain(..drop) {
                self.backend.remove(&r);
            }
            if revs.is_empty() {
                self.index.remove(&key);
            }
        }
        debug_assert!(self.compact_rev == rev && rev <= self.current);
        Ok(())
    }

    /// Opens a watch on `range` from `start_rev` (0: from the next revision). A start in
    /// the future is accepted and waits (§7).
    pub fn watch(&mut self, range: KeyRange, start_rev: Revision) -> WatchId {
        let next_rev = if start_rev <= 0 { self.current + 1 } else { start_rev };
        let id = self.next_watch_id;
        self.next_watch_id += 1;
        self.watchers.insert(id, Watcher { range, next_rev });
        id
    }

    pub fn cancel_watch(&mut self, id: WatchId) {
        self.watchers.remove(&id);
    }

    pub fn is_watching(&self, id: WatchId) -> bool {
        self.watchers.contains_key(&id)
    }

    /// Everything `id` has not received yet, one response per revision. A watcher whose next
    /// revision lies below the compaction point gets the compact revision and is removed.
    pub fn poll_watch(&mut self, id: WatchId) -> Vec<WatchResponse> {
        let Some(watcher) = self.watchers.get(&id) else { return Vec::new() };
        if watcher.next_rev < self.compact_rev {
            self.watchers.remove(&id);
            return vec![WatchResponse::Compacted { compact_revision: self.compact_rev }];
        }
        let mut responses: Vec<WatchResponse> = Vec::new();
        for ((main, _), record) in self.backend.range((watcher.next_rev, 0)..) {
            let event = match record {
                Record::Put(kv) => Event::Put((**kv).clone()),
                Record::Tombstone(key) => Event::Delete { key: key.to_string(), mod_revision: *main },
            };
            if !watcher.range.contains(event.key()) {
                continue;
            }
            match responses.last_mut() {
                Some(WatchResponse::Events { revision, events }) if *revision == *main => events.push(event),
                _ => responses.push(WatchResponse::Events { revision: *main, events: vec![event] }),
            }
        }
        let next = self.current + 1;
        if let Some(w) = self.watchers.get_mut(&id) {
            w.next_rev = w.next_rev.max(next);
        }
        responses
    }

    /// Changes still in the backend (after compaction).
    pub fn history_len(&self) -> usize {
        self.backend.len()
    }

    /// The backend's history, oldest first: what a revision timeline shows.
    pub fn history(&self) -> impl DoubleEndedIterator<Item = (Revision, Event)> + '_ {
        self.backend.iter().map(|((main, _), record)| {
            let event = match record {
                Record::Put(kv) => Event::Put((**kv).clone()),
                Record::Tombstone(key) => Event::Delete { key: key.to_string(), mod_revision: *main },
            };
            (*main, event)
        })
    }
}

fn check_duplicate_keys(ops: &[Op]) -> Result<(), MvccError> {
    let mut puts: Vec<&str> = Vec::new();
    for op in ops {
        if let Op::Put { key, .. } = op {
            if puts.contains(&key.as_str()) {
                return Err(MvccError::DuplicateKey);
            }
            puts.push(key);
        }
    }
    for op in ops {
        if let Op::Delete(range) = op {
            if puts.iter().any(|k| range.contains(k)) {
                return Err(MvccError::DuplicateKey);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(s: &MvccStore, key: &str, rev: Revision) -> Result<Option<KeyValue>, MvccError> {
        s.range(&KeyRange::single(key), rev, 0).map(|r| r.kvs.into_iter().next())
    }

    #[test]
    fn semantics_7_first_write_is_revision_2() {
        let mut s = MvccStore::new();
        assert_eq!(s.revision(), 1);
        for i in 1..=3 {
            s.put(&format!("k{i}"), "v");
            assert_eq!(s.revision(), i + 1);
        }
    }

    #[test]
    fn semantics_7_versions_and_generations() {
        let mut s = MvccStore::new();
        s.put("a", "1");
        s.put("a", "2");
        let kv = get(&s, "a", 0).unwrap().unwrap();
        assert_eq!((kv.create_revision, kv.mod_revision, kv.version), (2, 3, 2));
        s.delete_range(&KeyRange::single("a"));
        assert_eq!(get(&s, "a", 0).unwrap(), None);
        s.put("a", "3");
        let kv = get(&s, "a", 0).unwrap().unwrap();
        assert_eq!((kv.create_revision, kv.mod_revision, kv.version), (5, 5, 1));
        assert_eq!(get(&s, "a", 3).unwrap().unwrap().value, "2");
    }

    #[test]
    fn semantics_7_txn_shares_one_revision_and_noop_keeps_it() {
        let mut s = MvccStore::new();
        let ops = [Op::Put { key: "a".into(), value: "1".into() }, Op::Put { key: "b".into(), value: "1".into() }];
        s.txn(&[], &ops, &[]).unwrap();
        assert_eq!(s.revision(), 2);
        assert_eq!(get(&s, "b", 0).unwrap().unwrap().mod_revision, 2);
        let (deleted, rev) = s.delete_range(&KeyRange::single("zzz"));
        assert_eq!((deleted, rev), (0, 2));
        let r = s.txn(&[Compare::ModRevision("a".into(), 99)], &ops, &[]).unwrap();
        assert!(!r.succeeded);
        assert_eq!(s.revision(), 2);
        let dup = [Op::Put { key: "a".into(), value: "1".into() }, Op::Delete(KeyRange::single("a"))];
        assert_eq!(s.txn(&[], &dup, &[]), Err(MvccError::DuplicateKey));
    }

    #[test]
    fn semantics_7_range_boundaries_after_compaction() {
        let mut s = MvccStore::new();
        for v in ["1", "2", "3", "4"] {
            s.put("a", v);
        }
        s.compact(3).unwrap();
        assert_eq!(get(&s, "a", 2), Err(MvccError::Compacted));
        assert_eq!(get(&s, "a", 3).unwrap().unwrap().value, "2");
        assert_eq!(get(&s, "a", 6), Err(MvccError::FutureRevision));
        assert_eq!(s.range(&KeyRange::single("a"), 3, 0).unwrap().revision, 5);
        assert_eq!(s.compact(3), Err(MvccError::Compacted));
        assert_eq!(s.compact(9), Err(MvccError::FutureRevision));
        assert_eq!(MvccError::Compacted.to_string(), "mvcc: required revision has been compacted");
        assert_eq!(
            MvccError::FutureRevision.grpc_message(),
            "etcdserver: mvcc: required revision is a future revision"
        );
    }

    #[test]
    fn semantics_7_compaction_drops_tombstones() {
        let mut s = MvccStore::new();
        s.put("a", "1");
        s.delete_range(&KeyRange::single("a"));
        s.put("b", "1");
        s.compact(4).unwrap();
        assert_eq!(s.history().count(), 1);
        assert_eq!(s.range(&KeyRange::prefix(""), 0, 0).unwrap().count, 1);
    }

    #[test]
    fn semantics_7_watch_waits_catches_up_and_is_cancelled_below_compaction() {
        let mut s = MvccStore::new();
        let future = s.watch(KeyRange::prefix("k"), 5);
        s.put("k1", "a");
        s.put("x", "a");
        let w = s.watch(KeyRange::prefix("k"), 2);
        s.delete_range(&KeyRange::single("k1"));
        let got = s.poll_watch(w);
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[1],
            WatchResponse::Events { revision: 4, events: vec![Event::Delete { key: "k1".into(), mod_revision: 4 }] }
        );
        assert!(s.poll_watch(future).is_empty());
        s.put("k2", "b");
        assert_eq!(s.poll_watch(future).len(), 1);
        s.compact(4).unwrap();
        let old = s.watch(KeyRange::prefix("k"), 3);
        assert_eq!(s.poll_watch(old), vec![WatchResponse::Compacted { compact_revision: 4 }]);
        assert!(!s.is_watching(old));
        let at = s.watch(KeyRange::prefix("k"), 4);
        assert_eq!(s.poll_watch(at).len(), 2, "watching from the compact revision works, its delete included");
    }

    #[test]
    fn semantics_7_etcd_18089_a_tombstone_at_the_compact_revision_is_kept_for_watchers() {
        // Lesson 06 without its "create c": the delete is the newest revision when etcd compacts.
        let mut s = MvccStore::new();
        s.put("a", "1");
        s.put("b", "1");
        let (_, deleted_at) = s.delete_range(&KeyRange::single("a"));
        s.compact(deleted_at).unwrap();
        let w = s.watch(KeyRange::prefix(""), deleted_at);
        assert_eq!(
            s.poll_watch(w),
            vec![WatchResponse::Events {
                revision: deleted_at,
                events: vec![Event::Delete { key: "a".into(), mod_revision: deleted_at }]
            }],
            "a watcher resuming at the compact revision still receives the delete"
        );
        assert_eq!(s.range(&KeyRange::prefix(""), 0, 0).unwrap().count, 1, "the deleted key is still gone");
        s.put("c", "1");
        s.compact(s.revision()).unwrap();
        assert!(s.history().all(|(_, e)| !matches!(e, Event::Delete { .. })), "an older tombstone is dropped");
    }

    #[test]
    fn reversed_ranges_select_nothing() {
        let mut s = MvccStore::new();
        s.put("b", "1");
        let reversed = KeyRange { key: "c".into(), end: "a".into() };
        assert_eq!(s.range(&reversed, 0, 0).unwrap().count, 0);
        assert_eq!(s.range(&KeyRange { key: "b".into(), end: "b".into() }, 0, 0).unwrap().count, 0);
    }

    #[test]
    fn prefix_ranges() {
        assert_eq!(KeyRange::prefix("/registry/pods/").end, "/registry/pods0");
        assert!(KeyRange::prefix("ab").contains("abc"));
        assert!(!KeyRange::prefix("ab").contains("ac"));
    }
}
