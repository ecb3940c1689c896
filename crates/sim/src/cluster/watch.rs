//! Watch streams of the API server (apimachinery `pkg/watch`, apiserver
//! `cacher/cache_watcher.go`, `etcd3/watcher.go`), semantics §8.
//!
//! A watcher has a filter (namespace, label and field selector) and a queue of events not yet
//! taken by its client. Each object change is converted per watcher as the cacher does:
//! starts matching → `ADDED`; keeps matching → `MODIFIED`; stops matching or is deleted →
//! `DELETED` carrying the *previous* object with the change's resourceVersion.

use super::api_errors::Status;
use super::api_object::{ApiObject, Kind, Shared};
use super::mvcc_store::{Revision, WatchId as StoreWatchId};
use super::selector::{FieldSelector, LabelSelector};
use super::watch_cache::ObjectChange;
use std::collections::VecDeque;

/// One event of a watch stream.
#[derive(Clone, Debug, PartialEq)]
pub enum WatchEvent {
    /// The object is shared with the watch cache (and with every other watcher's event).
    Added(Shared),
    Modified(Shared),
    Deleted(Shared),
    /// Only `metadata.resourceVersion` is meaningful (semantics §1.4).
    Bookmark(Revision),
    /// The bookmark that ends a watch-list's initial events: annotated
    /// `k8s.io/initial-events-end: "true"`, at the revision the initial state was read at.
    InitialEventsEnd(Revision),
    /// An in-stream error (e.g. 410 Expired); the stream ends after it.
    Error(Status),
}

impl WatchEvent {
    /// The event type as it appears on the wire: `ADDED`, `MODIFIED`, …
    pub fn type_name(&self) -> &'static str {
        match self {
            WatchEvent::Added(_) => "ADDED",
            WatchEvent::Modified(_) => "MODIFIED",
            WatchEvent::Deleted(_) => "DELETED",
            WatchEvent::Bookmark(_) | WatchEvent::InitialEventsEnd(_) => "BOOKMARK",
            WatchEvent::Error(_) => "ERROR",
        }
    }

    pub fn object(&self) -> Option<&ApiObject> {
        match self {
            WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) => Some(o),
            _ => None,
        }
    }

    /// The resourceVersion the event carries (0 for an error).
    pub fn resource_version(&self) -> Revision {
        match self {
            WatchEvent::Bookmark(rv) | WatchEvent::InitialEventsEnd(rv) => *rv,
            WatchEvent::Error(_) => 0,
            other => other.object().map_or(0, ApiObject::resource_version),
        }
    }

    /// Bytes on the wire, as JSON.
    pub fn wire_size(&self) -> usize {
        match self {
            WatchEvent::Bookmark(_) => 96,
            WatchEvent::InitialEventsEnd(_) => 160,
            WatchEvent::Error(s) => 64 + s.message.len(),
            WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) => 32 + ApiObject::json_len(o),
        }
    }
}

/// What a list or watch selects: a kind, optionally a namespace, and selectors.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    pub kind: Kind,
    /// `None`: all namespaces.
    pub namespace: Option<String>,
    pub labels: LabelSelector,
    pub fields: FieldSelector,
    /// The client asked for metadata alone (`Accept: …;as=PartialObjectMetadata`): each object
    /// goes out as its `PartialObjectMetadata`.
    pub metadata_only: bool,
}

impl Filter {
    /// No label or field selector (the predicate is empty; the namespace is the key prefix's).
    pub fn selects_everything(&self) -> bool {
        self.labels.is_empty() && self.fields.is_empty()
    }

    pub fn matches(&self, obj: &ApiObject) -> bool {
        self.namespace.as_deref().is_none_or(|ns| obj.metadata.namespace == ns)
            && self.labels.matches(&obj.metadata.labels)
            && self.fields.matches(obj)
    }

    /// An object as this request gets it: the same one, or its metadata alone.
    pub fn shape(&self, obj: &Shared) -> Shared {
        if self.metadata_only {
            Shared::new(obj.partial_metadata())
        } else {
            obj.clone()
        }
    }

    /// The watch event a change becomes for this filter, if any (`convertToWatchEvent`).
    pub fn convert(&self, change: &ObjectChange) -> Option<WatchEvent> {
        let cur = change.cur.as_ref().filter(|o| self.matches(o));
        let prev = change.prev.as_ref().filter(|o| self.matches(o));
        match (prev, cur) {
            (Some(_), Some(cur)) => Some(WatchEvent::Modified(self.shape(cur))),
            (None, Some(cur)) => Some(WatchEvent::Added(self.shape(cur))),
            (Some(prev), None) => {
                let mut last = if self.metadata_only { prev.partial_metadata() } else { (**prev).clone() };
                last.metadata.resource_version = change.revision.to_string();
                Some(WatchEvent::Deleted(Shared::new(last)))
            }
            (None, None) => None,
        }
    }
}

/// Where a watcher's events come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchSource {
    /// The API server's watch cache (the default for every resource).
    Cache,
    /// Straight from etcd (watch cache disabled): a store watcher of its own.
    Etcd(StoreWatchId),
}

/// Identifies a watch opened on the API server.
pub type ApiWatchId = u64;

/// One open watch request.
#[derive(Clone, Debug)]
pub struct Watcher {
    pub filter: Filter,
    pub source: WatchSource,
    pub allow_bookmarks: bool,
    /// The resourceVersion the stream starts after: a bookmark at or below it is not sent
    /// (`cacheWatcher.process`).
    pub start_rv: Revision,
    /// A watch-list: its first bookmark is due at the next tick of the bookmark timer.
    pub first_bookmark_at_tick: bool,
    /// When this watcher's next bookmark is due (`nextBookmarkTime`), and its deadline.
    pub next_bookmark: Option<u64>,
    pub deadline: u64,
    pub user: String,
    pub pending: VecDeque<WatchEvent>,
    /// Closed streams deliver what is pending, then end.
    pub closed: bool,
}

impl Watcher {
    pub fn push(&mut self, event: WatchEvent) {
        if !self.closed {
            let is_error = matches!(event, WatchEvent::Error(_));
            self.pending.push_back(event);
            self.closed = is_error;
        }
    }
}
