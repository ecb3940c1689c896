//! The API server's watch machinery (apiserver `pkg/storage/cacher`, `etcd3/watcher.go`),
//! semantics §8: one watch cache per resource, fed by its own etcd watch, and the open watch
//! streams of clients.
//!
//! - Every change etcd reports moves into its resource's cache and, converted per watcher
//!   (ADDED / MODIFIED / DELETED by whether the object starts, keeps or stops matching), into
//!   every cache watcher's queue; watchers served straight from etcd (watch cache off) read
//!   their own etcd watch, and get 410 `The resourceVersion for the provided watch is too old.`
//!   when it starts below the compaction point.
//! - A watch from N is served from the cache's window; below it, the stream's only event is
//!   `ERROR 410 Expired: too old resource version: N (M)`.
//! - A watch-list (`sendInitialEvents=true`) gets the current state as ADDED events, then a
//!   bookmark annotated `k8s.io/initial-events-end` at the revision that state was read at
//!   (a consistent read first lifts the cache to etcd's revision), then changes.
//! - Bookmarks go per watcher (`cache_watcher.go: nextBookmarkTime`): about a minute after the
//!   watch starts and every minute after, and 2 s before its deadline, carrying the cache's
//!   revision — which moves only with its own resource's events and etcd's progress
//!   notifications (every 10 minutes by default). A bookmark promises no more than that.
//! - A restart drops every stream and re-initialises the caches from a LIST at the current
//!   revision.
//!
//! Sans-IO: events wait in each watcher's queue until the client takes them.

use super::api_errors::Status;
use super::api_object::{ApiObject, Kind};
use super::metrics::Metrics;
use super::mvcc_store::{Event, KeyRange, MvccStore, Revision, WatchId as StoreWatchId, WatchResponse};
use super::storage::{decode, prefix, WATCH_TOO_OLD};
use super::watch::{ApiWatchId, Filter, WatchEvent, WatchSource, Watcher};
use super::watch_cache::{ObjectChange, WatchCache};
use crate::kernel::SmallMap;
use std::collections::BTreeMap;

/// Where a new watch starts: at the current state (synthetic ADDED events first) or after a
/// resourceVersion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchStart {
    /// Synthetic ADDED events for the current state (RV unset or `"0"`).
    CurrentState,
    /// A watch-list: the current state, then the initial-events-end bookmark.
    InitialEvents,
    After(Revision),
}

/// etcd's default `--experimental-watch-progress-notify-interval`.
pub const PROGRESS_NOTIFY_INTERVAL_MS: u64 = 10 * 60 * 1000;

#[derive(Clone, Debug)]
pub struct Cacher {
    /// Serve watches from the watch cache (false: straight from etcd).
    enabled: bool,
    capacity: usize,
    caches: SmallMap<Kind, (WatchCache, StoreWatchId)>,
    watchers: SmallMap<ApiWatchId, Watcher>,
    next_watch: ApiWatchId,
    /// The API server's clock (virtual ms): when events are recorded.
    now: u64,
}

impl Cacher {
    /// Caches for every kind, initialised from the store as it is.
    pub fn new(store: &mut MvccStore, enabled: bool, capacity: usize) -> Self {
        let mut cacher =
            Cacher { enabled, capacity, caches: SmallMap::new(), watchers: SmallMap::new(), next_watch: 1, now: 0 };
        cacher.start_caches(store);
        cacher
    }

    pub fn set_time(&mut self, now: u64) {
        self.now = now;
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// The watch cache of a kind, when watches are served from caches.
    pub fn serving_cache(&self, kind: Kind) -> Option<&WatchCache> {
        self.cache(kind).filter(|_| self.enabled)
    }

    pub fn cache(&self, kind: Kind) -> Option<&WatchCache> {
        self.caches.get(&kind).map(|(c, _)| c)
    }

    /// (Re)initialises every watch cache from a LIST at the current revision.
    fn start_caches(&mut self, store: &mut MvccStore) {
        for (_, (_, watch)) in std::mem::take(&mut self.caches) {
            store.cancel_watch(watch);
        }
        let rev = store.revision();
        for kind in Kind::ALL {
            let range = KeyRange::prefix(prefix(kind, None));
            let mut objects = BTreeMap::new();
            store
                .visit(&range, rev, |kv| {
                    objects.insert(kv.key.clone(), decode(kv));
                    true
                })
                .ok();
            let watch = store.watch(range, rev + 1);
            self.caches.insert(kind, (WatchCache::new(self.capacity, rev, objects), watch));
        }
    }

    /// Every stream breaks (events not yet sent are lost); the caches re-initialise.
    pub fn restart(&mut self, store: &mut MvccStore) {
        for (_, w) in std::mem::take(&mut self.watchers) {
            if let WatchSource::Etcd(id) = w.source {
                store.cancel_watch(id);
            }
        }
        self.start_caches(store);
    }

    /// Opens a watch stream whose initial events are queued at once.
    pub fn open(
        &mut self,
        store: &mut MvccStore,
        metrics: &mut Metrics,
        filter: Filter,
        start: WatchStart,
        allow_bookmarks: bool,
        user: &str,
    ) -> ApiWatchId {
        let kind = filter.kind;
        let prefix = prefix(kind, filter.namespace.as_deref());
        let mut initial = Vec::new();
        let mut start_rv = match start {
            WatchStart::After(n) => n,
            WatchStart::CurrentState | WatchStart::InitialEvents => store.revision(),
        };
        let source = if self.enabled {
            if start == WatchStart::InitialEvents {
                // `waitUntilFreshLocked` with a consistent read: a progress request lifts the
                // cache to etcd's current revision.
                if let Some((cache, _)) = self.caches.get_mut(&kind) {
                    cache.observe_progress(store.revision());
                }
            }
            let cache = &self.caches[&kind].0;
            match start {
                WatchStart::CurrentState | WatchStart::InitialEvents => {
                    start_rv = cache.revision();
                    initial.extend(
                        cache
                            .list_shared(&prefix)
                            .filter(|o| filter.matches(o))
                            .map(|o| WatchEvent::Added(filter.shape(o))),
                    );
                    if start == WatchStart::InitialEvents && allow_bookmarks {
                        initial.push(WatchEvent::InitialEventsEnd(cache.revision()));
                    }
                }
                WatchStart::After(n) => match cache.events_since(n) {
                    Ok(changes) => initial.extend(changes.iter().filter_map(|c| filter.convert(c))),
                    Err(expired) => initial.push(WatchEvent::Error(expired)),
                },
            }
            WatchSource::Cache
        } else {
            let from = match start {
                WatchStart::CurrentState | WatchStart::InitialEvents => {
                    let rev = store.revision();
                    store
                        .visit(&KeyRange::prefix(prefix.clone()), rev, |kv| {
                            let obj = decode(kv);
                            if filter.matches(&obj) {
                                initial.push(WatchEvent::Added(filter.shape(&crate::cluster::Shared::new(obj))));
                            }
                            true
                        })
                        .ok();
                    if start == WatchStart::InitialEvents && allow_bookmarks {
                        initial.push(WatchEvent::InitialEventsEnd(rev));
                    }
                    rev + 1
                }
                WatchStart::After(n) => n + 1,
            };
            WatchSource::Etcd(store.watch(KeyRange::prefix(prefix), from))
        };
        let id = self.next_watch;
        self.next_watch += 1;
        let mut watcher = Watcher {
            filter,
            source,
            allow_bookmarks,
            start_rv,
            first_bookmark_at_tick: start == WatchStart::InitialEvents && allow_bookmarks,
            next_bookmark: None,
            deadline: 0,
            user: user.to_string(),
            pending: Default::default(),
            closed: false,
        };
        for event in initial {
            metrics.sent(u64::from(event.object().is_some()), event.wire_size());
            watcher.push(event);
        }
        self.watchers.insert(id, watcher);
        self.propagate(store, metrics);
        id
    }

    /// Takes the events waiting in a stream; a closed stream is forgotten once drained.
    pub fn take_events(&mut self, store: &mut MvccStore, id: ApiWatchId) -> Vec<WatchEvent> {
        self.take_some_events(store, id, usize::MAX)
    }

    /// The first `at_most` events a stream holds for its reader (a stream closed by the server
    /// ends once its reader has taken them all).
    pub fn take_some_events(&mut self, store: &mut MvccStore, id: ApiWatchId, at_most: usize) -> Vec<WatchEvent> {
        let Some(w) = self.watchers.get_mut(&id) else { return Vec::new() };
        let events: Vec<_> = w.pending.drain(..at_most.min(w.pending.len())).collect();
        if w.closed && w.pending.is_empty() {
            self.stop(store, id);
        }
        events
    }

    /// How many events a stream holds for its reader.
    pub fn owed(&self, id: ApiWatchId) -> usize {
        self.watchers.get(&id).map_or(0, |w| w.pending.len())
    }

    /// The events a stream holds for its reader, oldest first.
    pub fn owed_events(&self, id: ApiWatchId) -> impl Iterator<Item = &WatchEvent> {
        self.watchers.get(&id).into_iter().flat_map(|w| w.pending.iter())
    }

    /// Whether a stream is still open (or has events left to take).
    pub fn is_open(&self, id: ApiWatchId) -> bool {
        self.watchers.get(&id).is_some_and(|w| !w.closed || !w.pending.is_empty())
    }

    /// Ends a stream (client disconnect or server timeout).
    pub fn stop(&mut self, store: &mut MvccStore, id: ApiWatchId) {
        if let Some(w) = self.watchers.remove(&id) {
            if let WatchSource::Etcd(sw) = w.source {
                store.cancel_watch(sw);
            }
        }
    }

    /// Open streams.
    pub fn live(&self) -> usize {
        self.watchers.values().filter(|w| !w.closed).count()
    }

    pub fn watchers(&self) -> impl Iterator<Item = (ApiWatchId, &Watcher)> {
        self.watchers.iter().map(|(id, w)| (*id, w))
    }

    /// Schedules a new watcher's bookmarks: `frequency_ms` after `now` (0: none), or 2 s
    /// before its deadline if that comes first; a watch-list's at the next tick of the
    /// cacher's bookmark timer (`BOOKMARK_TICK_MS`: it was waiting for its end bookmark when
    /// it was scheduled), which sends one only if the cache moved past the end bookmark.
    pub fn schedule_bookmarks(&mut self, id: ApiWatchId, now: u64, deadline: u64, frequency_ms: u64) {
        let Some(w) = self.watchers.get_mut(&id) else { return };
        w.deadline = deadline;
        if w.allow_bookmarks && w.source == WatchSource::Cache && frequency_ms > 0 {
            w.next_bookmark = match w.first_bookmark_at_tick {
                true => Some(now + BOOKMARK_TICK_MS),
                false => next_bookmark_time(now, deadline, frequency_ms),
            };
        }
    }

    /// When the next bookmark of any open watcher is due.
    pub fn next_bookmark_at(&self) -> Option<u64> {
        self.watchers.values().filter(|w| !w.closed).filter_map(|w| w.next_bookmark).min()
    }

    /// Sends the bookmarks due at `now`, each with its cache's revision, to the watchers that
    /// have not seen that revision (a quiet resource's watcher gets none); returns how many.
    pub fn send_due_bookmarks(&mut self, now: u64, frequency_ms: u64, metrics: &mut Metrics) -> usize {
        let mut sent = 0;
        for w in self.watchers.values_mut().filter(|w| !w.closed && w.next_bookmark.is_some_and(|t| t <= now)) {
            let rv = self.caches[&w.filter.kind].0.revision();
            // Never one at the revision the watch started from, the end bookmark's included
            // (`cache_watcher.go: process` drops it once the end bookmark was sent).
            if rv > w.start_rv {
                metrics.sent(0, WatchEvent::Bookmark(rv).wire_size());
                w.push(WatchEvent::Bookmark(rv));
                sent += 1;
            }
            w.next_bookmark = next_bookmark_time(now, w.deadline, frequency_ms);
        }
        sent
    }

    /// A progress request answered for one resource's cache: it learns etcd's revision.
    pub fn progress_notify_kind(&mut self, kind: Kind, store: &MvccStore) {
        if let Some((cache, _)) = self.caches.get_mut(&kind) {
            cache.observe_progress(store.revision());
        }
    }

    /// etcd's progress notification: every watch cache learns etcd's current revision.
    pub fn progress_notify(&mut self, store: &MvccStore) {
        let rev = store.revision();
        for (cache, _) in self.caches.values_mut() {
            cache.observe_progress(rev);
        }
    }

    /// Moves new store revisions into the watch caches and every watcher's queue.
    pub fn propagate(&mut self, store: &mut MvccStore, metrics: &mut Metrics) {
        let Cacher { caches, watchers, now, .. } = self;
        let now = *now;
        for (kind, (cache, store_watch)) in caches.iter_mut() {
            for response in store.poll_watch(*store_watch) {
                let WatchResponse::Events { events, .. } = response else { continue };
                for event in events {
                    let change = ObjectChange {
                        revision: event.revision(),
                        key: event.key().to_string(),
                        prev: cache.get_prev(event.key()),
                        cur: current_object(&event),
                    };
                    // One change becomes the same event for every watcher that gets it as
                    // that type: its size is measured once per type.
                    let mut sizes: Vec<((&'static str, bool), usize)> = Vec::new();
                    // A watcher from a revision still ahead gets nothing at or below it.
                    for w in watchers.values_mut().filter(|w| {
                        w.source == WatchSource::Cache && w.filter.kind == *kind && change.revision > w.start_rv
                    }) {
                        if let Some(ev) = w.filter.convert(&change) {
                            let form = (ev.type_name(), w.filter.metadata_only);
                            let size = match sizes.iter().find(|(t, _)| *t == form) {
                                Some((_, size)) => *size,
                                None => {
                                    let size = ev.wire_size();
                                    sizes.push((form, size));
                                    size
                                }
                            };
                            metrics.sent(1, size);
                            w.push(ev);
                        }
                    }
                    cache.apply(change, now);
                }
            }
        }
        for w in watchers.values_mut() {
            let WatchSource::Etcd(sw) = w.source else { continue };
            for response in store.poll_watch(sw) {
                match response {
                    WatchResponse::Compacted { .. } => w.push(WatchEvent::Error(Status::expired(WATCH_TOO_OLD.into()))),
                    WatchResponse::Events { revision, events } => {
                        for event in events {
                            // The API server watches etcd with `prev_kv`; etcd reads it at the
                            // revision before, and sends none once that is compacted. For an
                            // update or delete the watch then ends with an internal error
                            // (apiserver `etcd3/event.go: parseEvent`).
                            let created = matches!(&event, Event::Put(kv) if kv.version == 1);
                            let prev = match store.range(&KeyRange::single(event.key()), revision - 1, 1) {
                                Ok(r) => r.kvs.first().map(decode),
                                Err(_) if !created => {
                                    let kind = if matches!(event, Event::Put(_)) { "PUT" } else { "DELETE" };
                                    w.push(WatchEvent::Error(Status::internal(format!(
                                        "etcd event received with PrevKv=nil (key={:?}, modRevision={revision}, type={kind})",
                                        event.key()
                                    ))));
                                    break;
                                }
                                Err(_) => None,
                            };
                            let change = ObjectChange {
                                revision,
                                key: event.key().to_string(),
                                prev: prev.map(std::rc::Rc::new),
                                cur: current_object(&event),
                            };
                            if let Some(ev) = w.filter.convert(&change) {
                                metrics.sent(1, ev.wire_size());
                                w.push(ev);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// How often the cacher's bookmark timer ticks (`dispatchEvents`: a second, jittered by 25 %).
pub const BOOKMARK_TICK_MS: u64 = 1_000;

/// `nextBookmarkTime`: a minute on, or 2 s before the deadline if that is sooner; none once
/// that moment has passed.
fn next_bookmark_time(now: u64, deadline: u64, frequency_ms: u64) -> Option<u64> {
    let heartbeat = now + frequency_ms;
    let at = if deadline > 0 { heartbeat.min(deadline.saturating_sub(2_000)) } else { heartbeat };
    (at > now).then_some(at)
}

fn current_object(event: &Event) -> Option<std::rc::Rc<ApiObject>> {
    match event {
        Event::Put(kv) => Some(std::rc::Rc::new(decode(kv))),
        Event::Delete { .. } => None,
    }
}
