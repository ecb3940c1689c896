//! The Reflector (client-go `tools/cache/reflector.go`), semantics §1, in the era's release.
//!
//! It keeps a store in step with the API server by ListAndWatch:
//! - LIST with resourceVersion `"0"` the first time (served from the watch cache, `limit=500`),
//!   `Replace` the FIFO with the items, remember the list's RV as `lastSyncResourceVersion`;
//! - or, where the era's client has `WatchListClient` (1.37), a *watch-list* instead: one WATCH
//!   with `sendInitialEvents=true`, `resourceVersionMatch=NotOlderThan` and bookmarks, whose
//!   ADDED events fill a temporary store until the bookmark annotated
//!   `k8s.io/initial-events-end` arrives; then `Replace` with its RV and the same stream goes
//!   on as the watch (§1.5). A watch-list refused for another reason than 429 or an expired RV
//!   falls back to LIST;
//! - WATCH from that RV with bookmarks allowed and a timeout drawn in [300, 600) s; every
//!   event, bookmarks included, advances `lastSyncResourceVersion`;
//! - a watch that ends normally (timeout, dropped connection) is reopened at once from the
//!   last RV: no relist, nothing lost, nothing repeated;
//! - an in-stream `410 Expired` ends ListAndWatch without an error: after one backoff it
//!   relists *at* the last RV; a LIST that itself gets 410 (or "too large RV") retries at
//!   once with RV `""` (the "unavailable" flag);
//! - a watch that ends with any other error, a very short watch among them, is logged as a
//!   warning and ends ListAndWatch *without* an error: one backoff, then a relist;
//! - a failed LIST or a refused WATCH request ends ListAndWatch with an error, logged by
//!   `DefaultWatchErrorHandler`, then one backoff (800 ms doubling to 30 s, jittered, reset by
//!   the era's rule) and a relist, forever; 429 on a WATCH request backs off and re-watches
//!   without relisting.
//!
//! The reflector is sans-IO: [`Reflector::handle`] takes what arrived and returns
//! [`Command`]s (requests to send, FIFO operations, timers) for the world to carry out. Log
//! lines are typed events rendered in the era's words ([`super::klog`]).

use super::backoff::Backoff;
use super::klog::{module_reflector_name, LogEvent, LogLine};
use crate::cluster::api_errors::Status;
use crate::cluster::api_server::{ListOptions, ListResponse, WatchOptions};
use crate::cluster::request::NOT_OLDER_THAN;
use crate::cluster::watch::{ApiWatchId, WatchEvent};
use crate::cluster::{Kind, Shared};
use crate::era::{Era, LogStyle};
use crate::kernel::{Millis, Rng};
use std::collections::BTreeMap;

/// `tools/pager`'s `defaultPageSize`.
pub const DEFAULT_PAGE_SIZE: usize = 500;
/// `defaultMinWatchTimeout` (the maximum is twice it).
pub const MIN_WATCH_TIMEOUT_S: u64 = 300;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectorConfig {
    pub kind: Kind,
    /// `None`: all namespaces.
    pub namespace: Option<String>,
    pub label_selector: String,
    pub field_selector: String,
    /// `WatchListPageSize` (0: the default rules of §1.2).
    pub page_size: usize,
    /// A metadata informer (controller-runtime's for `PartialObjectMetadata`, client-go's
    /// `metadatainformer`): its requests ask for metadata alone.
    pub metadata_only: bool,
    /// The reflector's name in log lines; empty: the era's default (where it was made).
    pub name: String,
}

impl ReflectorConfig {
    pub fn new(kind: Kind) -> Self {
        ReflectorConfig {
            kind,
            namespace: None,
            label_selector: String::new(),
            field_selector: String::new(),
            page_size: 0,
            metadata_only: false,
            name: String::new(),
        }
    }
}

/// What arrives at the reflector.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// `Run`: the first ListAndWatch starts at once.
    Start,
    ListResponse(Result<ListResponse, Status>),
    WatchOpened(Result<ApiWatchId, Status>),
    Event(WatchEvent),
    /// The watch stream ended without an error event (server timeout, dropped connection).
    WatchEnded,
    BackoffElapsed,
}

/// What the reflector asks the world to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    List(ListOptions),
    Watch(WatchOptions),
    /// Close the current watch stream (the client side gives up on it).
    StopWatch(ApiWatchId),
    Replace {
        items: Vec<Shared>,
        resource_version: i64,
    },
    Add(Shared),
    Update(Shared),
    Delete(Shared),
    /// A bookmark's resourceVersion for FIFOs that queue it.
    Bookmark(i64),
    /// Wake the reflector with `BackoffElapsed` after this long.
    Backoff(Millis),
    /// The resync timer runs while ListAndWatch watches (§1.6).
    StartResync,
    StopResync,
}

/// What the reflector does when a backoff ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterBackoff {
    /// ListAndWatch again: a LIST, or a watch-list where the era has one.
    Relist,
    /// Reopen the watch from the last RV (after a 429).
    Rewatch,
    /// Retry the watch-list (after a 429 on it).
    RetryWatchList,
}

/// Where the reflector is in ListAndWatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Idle,
    Listing,
    WatchRequested,
    Watching {
        watch: ApiWatchId,
        since: Millis,
        events: u64,
    },
    /// A watch-list was asked for.
    WatchListRequested,
    /// A watch-list streams its initial events into the temporary store.
    Streaming {
        watch: ApiWatchId,
        since: Millis,
        events: u64,
    },
    BackingOff {
        until: Millis,
        then: AfterBackoff,
    },
}

impl Phase {
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Listing => "listing",
            Phase::WatchRequested => "opening watch",
            Phase::Watching { .. } => "watching",
            Phase::WatchListRequested => "opening watch-list",
            Phase::Streaming { .. } => "streaming initial events",
            Phase::BackingOff { .. } => "backing off",
        }
    }
}

/// A list in progress: the pages so far and how it was asked for.
#[derive(Clone, Debug, PartialEq)]
struct Listing {
    options: ListOptions,
    items: Vec<Shared>,
    /// The pager already fell back to one full list after an expired continue token.
    full_list_retried: bool,
    /// Already retried with RV "" after 410 / too large.
    unavailable_retried: bool,
}

/// A watch-list's temporary store (`NewStore(DeletionHandlingMetaNamespaceKeyFunc)`) and the
/// last resourceVersion of an event that was not a synthetic ADDED.
#[derive(Clone, Debug, Default, PartialEq)]
struct Streamed {
    items: BTreeMap<String, Shared>,
    resource_version: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct Reflector {
    pub config: ReflectorConfig,
    pub era: Era,
    pub phase: Phase,
    /// `lastSyncResourceVersion`: the list's RV, then every event's.
    pub last_sync_resource_version: String,
    /// `isLastSyncResourceVersionUnavailable`.
    pub unavailable: bool,
    paginated_result: bool,
    listing: Option<Listing>,
    streamed: Streamed,
    backoff: Backoff,
    pub log: Vec<LogLine>,
    /// ListAndWatch runs so far (the first sync and every relist, whether LIST or watch-list).
    pub syncs: u64,
    pub lists: u64,
    pub watches: u64,
}

fn is_expired(s: &Status) -> bool {
    s.code == 410
}

/// `isTooLargeResourceVersionError`: by its cause (the message is only a fallback for servers
/// older than 1.18.6, which the playground does not model).
fn is_too_large(s: &Status) -> bool {
    s.has_cause(crate::cluster::api_errors::RESOURCE_VERSION_TOO_LARGE)
}

/// `isWatchErrorRetriable`: connection refused or 429.
fn is_retriable(s: &Status) -> bool {
    s.code == 429
}

impl Reflector {
    pub fn new(mut config: ReflectorConfig, era: Era, now: Millis) -> Self {
        if config.name.is_empty() {
            config.name = module_reflector_name(era);
        }
        Reflector {
            config,
            era,
            phase: Phase::Idle,
            last_sync_resource_version: String::new(),
            unavailable: false,
            paginated_result: false,
            listing: None,
            streamed: Streamed::default(),
            backoff: Backoff::new(now, era.backoff_reset()),
            log: Vec::new(),
            syncs: 0,
            lists: 0,
            watches: 0,
        }
    }

    fn type_description(&self) -> String {
        self.config.kind.type_description()
    }

    fn log(&mut self, now: Millis, event: LogEvent) {
        let line = LogLine {
            time_ms: now,
            era: self.era,
            reflector: self.config.name.clone(),
            type_description: self.type_description(),
            event,
        };
        self.log.push(line);
    }

    /// `relistResourceVersion`.
    fn relist_resource_version(&self) -> String {
        if self.unavailable {
            String::new()
        } else if self.last_sync_resource_version.is_empty() {
            "0".into()
        } else {
            self.last_sync_resource_version.clone()
        }
    }

    /// `rewatchResourceVersion`: the watch-list's starting point.
    fn rewatch_resource_version(&self) -> String {
        if self.unavailable {
            String::new()
        } else {
            self.last_sync_resource_version.clone()
        }
    }

    /// The page size rules of §1.2.
    fn page_size(&self, rv: &str) -> usize {
        if self.config.page_size > 0 {
            self.config.page_size
        } else if self.paginated_result || rv.is_empty() || rv == "0" {
            DEFAULT_PAGE_SIZE
        } else {
            0
        }
    }

    fn list_options(&self, resource_version: String, limit: usize) -> ListOptions {
        ListOptions {
            namespace: self.config.namespace.clone(),
            label_selector: self.config.label_selector.clone(),
            field_selector: self.config.field_selector.clone(),
            resource_version,
            limit,
            metadata_only: self.config.metadata_only,
            ..ListOptions::default()
        }
    }

    /// One ListAndWatch: a watch-list where the era's client has one, else a LIST.
    fn begin_list_and_watch(&mut self, rng: &mut Rng) -> Vec<Command> {
        self.syncs += 1;
        if self.era.watch_list_client() {
            self.begin_watch_list(rng)
        } else {
            self.begin_list(false)
        }
    }

    fn begin_list(&mut self, unavailable_retried: bool) -> Vec<Command> {
        let rv = self.relist_resource_version();
        let options = self.list_options(rv.clone(), self.page_size(&rv));
        self.phase = Phase::Listing;
        self.lists += 1;
        self.listing = Some(Listing {
            options: options.clone(),
            items: Vec::new(),
            full_list_retried: false,
            unavailable_retried,
        });
        vec![Command::List(options)]
    }

    fn watch_options(&self, resource_version: String, rng: &mut Rng) -> WatchOptions {
        WatchOptions {
            timeout_secs: MIN_WATCH_TIMEOUT_S + (rng.float64() * MIN_WATCH_TIMEOUT_S as f64) as u64,
            namespace: self.config.namespace.clone(),
            label_selector: self.config.label_selector.clone(),
            field_selector: self.config.field_selector.clone(),
            resource_version,
            allow_bookmarks: true,
            send_initial_events: None,
            resource_version_match: String::new(),
            metadata_only: self.config.metadata_only,
        }
    }

    fn begin_watch(&mut self, rng: &mut Rng) -> Vec<Command> {
        let options = self.watch_options(self.last_sync_resource_version.clone(), rng);
        self.phase = Phase::WatchRequested;
        self.watches += 1;
        vec![Command::Watch(options)]
    }

    /// `watchList`: a fresh temporary store and a WATCH with initial events.
    fn begin_watch_list(&mut self, rng: &mut Rng) -> Vec<Command> {
        let mut options = self.watch_options(self.rewatch_resource_version(), rng);
        options.send_initial_events = Some(true);
        options.resource_version_match = NOT_OLDER_THAN.into();
        self.streamed = Streamed::default();
        self.phase = Phase::WatchListRequested;
        self.watches += 1;
        vec![Command::Watch(options)]
    }

    fn back_off(&mut self, now: Millis, rng: &mut Rng, then: AfterBackoff) -> Vec<Command> {
        let delay = self.backoff.next(now, rng);
        self.phase = Phase::BackingOff { until: now + delay, then };
        self.listing = None;
        let mut out = vec![Command::Backoff(delay)];
        if then == AfterBackoff::Relist {
            out.insert(0, Command::StopResync);
        }
        out
    }

    /// ListAndWatch returned (with or without an error): one backoff delay, then again.
    fn end_list_and_watch(&mut self, now: Millis, rng: &mut Rng) -> Vec<Command> {
        self.back_off(now, rng, AfterBackoff::Relist)
    }

    /// ListAndWatch returned `err`: `DefaultWatchErrorHandler` logs it, then the backoff.
    fn fail_list_and_watch(&mut self, now: Millis, rng: &mut Rng, err: String) -> Vec<Command> {
        self.log(now, LogEvent::FailedToWatch { err });
        self.end_list_and_watch(now, rng)
    }

    pub fn handle(&mut self, input: Input, now: Millis, rng: &mut Rng) -> Vec<Command> {
        match input {
            Input::Start => self.begin_list_and_watch(rng),
            Input::BackoffElapsed => match self.phase {
                Phase::BackingOff { then: AfterBackoff::Relist, .. } => self.begin_list_and_watch(rng),
                Phase::BackingOff { then: AfterBackoff::Rewatch, .. } => self.begin_watch(rng),
                Phase::BackingOff { then: AfterBackoff::RetryWatchList, .. } => self.begin_watch_list(rng),
                _ => vec![],
            },
            Input::ListResponse(result) => self.on_list(result, now, rng),
            Input::WatchOpened(answer) => self.on_watch_opened(answer, now, rng),
            Input::Event(event) => match self.phase {
                Phase::Streaming { .. } => self.on_streamed(event, now, rng),
                _ => self.on_event(event, now, rng),
            },
            Input::WatchEnded => self.on_watch_ended(now, rng),
        }
    }

    fn on_watch_opened(&mut self, answer: Result<ApiWatchId, Status>, now: Millis, rng: &mut Rng) -> Vec<Command> {
        let streaming = self.phase == Phase::WatchListRequested;
        match answer {
            Ok(watch) if streaming => {
                self.phase = Phase::Streaming { watch, since: now, events: 0 };
                vec![]
            }
            Ok(watch) => {
                self.phase = Phase::Watching { watch, since: now, events: 0 };
                vec![]
            }
            Err(status) if streaming => self.watch_list_failed(status, now, rng),
            Err(status) if is_retriable(&status) => self.back_off(now, rng, AfterBackoff::Rewatch),
            Err(status) => self.fail_list_and_watch(now, rng, status.message),
        }
    }

    /// A watch-list request or stream failed: retry it (429, or an RV the server cannot
    /// serve, then from RV ""), or fall back to a LIST.
    fn watch_list_failed(&mut self, status: Status, now: Millis, rng: &mut Rng) -> Vec<Command> {
        if is_retriable(&status) {
            return self.back_off(now, rng, AfterBackoff::RetryWatchList);
        }
        if is_expired(&status) || is_too_large(&status) {
            self.unavailable = true;
            return self.begin_watch_list(rng);
        }
        self.log(now, LogEvent::WatchListFallback { err: status.message });
        self.begin_list(false)
    }

    fn on_list(&mut self, result: Result<ListResponse, Status>, now: Millis, rng: &mut Rng) -> Vec<Command> {
        let Some(mut listing) = self.listing.take() else { return vec![] };
        match result {
            Ok(page) => {
                listing.items.extend(page.items);
                if !page.continue_token.is_empty() {
                    if listing.options.continue_token.is_empty() && listing.options.resource_version == "0" {
                        self.paginated_result = true;
                    }
                    let mut next = listing.options.clone();
                    next.resource_version.clear();
                    next.continue_token = page.continue_token;
                    listing.options = next.clone();
                    self.listing = Some(listing);
                    return vec![Command::List(next)];
                }
                self.unavailable = false;
                self.synced_to(page.resource_version);
                self.log(now, LogEvent::CachesPopulated);
                let mut out = vec![Command::Replace { items: listing.items, resource_version: page.resource_version }];
                out.push(Command::StartResync);
                out.extend(self.begin_watch(rng));
                out
            }
            Err(status)
                if !listing.options.continue_token.is_empty() && is_expired(&status) && !listing.full_list_retried =>
            {
                // The pager's FullListIfExpired: one unpaginated list at the original RV.
                let rv = self.relist_resource_version();
                let options = self.list_options(rv, 0);
                self.listing =
                    Some(Listing { options: options.clone(), items: Vec::new(), full_list_retried: true, ..listing });
                vec![Command::List(options)]
            }
            Err(status) if (is_expired(&status) || is_too_large(&status)) && !listing.unavailable_retried => {
                self.unavailable = true;
                let limit = listing.options.limit;
                let options = self.list_options(self.relist_resource_version(), limit);
                self.listing = Some(Listing {
                    options: options.clone(),
                    items: Vec::new(),
                    full_list_retried: false,
                    unavailable_retried: true,
                });
                vec![Command::List(options)]
            }
            Err(status) => {
                let err = format!("failed to list {}: {}", self.type_description(), status.message);
                if self.era.log_style() == LogStyle::Printf {
                    self.log(now, LogEvent::FailedToList { err: status.message });
                }
                self.fail_list_and_watch(now, rng, err)
            }
        }
    }

    /// An event of a watch-list's initial phase: into the temporary store, until the bookmark
    /// that ends the initial events.
    fn on_streamed(&mut self, event: WatchEvent, now: Millis, rng: &mut Rng) -> Vec<Command> {
        let Phase::Streaming { watch, since, events } = &mut self.phase else { return vec![] };
        let (watch, since) = (*watch, *since);
        *events += 1;
        let rv = event.resource_version();
        match event {
            WatchEvent::Added(o) => {
                self.streamed.items.insert(o.key(), o);
                // Synthetic ADDED events come in key order, not RV order: an RV counts only once
                // another kind of event showed the initial ones are over.
                if self.streamed.resource_version.is_some() {
                    self.streamed.resource_version = Some(rv);
                }
            }
            WatchEvent::Modified(o) => {
                self.streamed.items.insert(o.key(), o);
                self.streamed.resource_version = Some(rv);
            }
            WatchEvent::Deleted(o) => {
                self.streamed.items.remove(&o.key());
                self.streamed.resource_version = Some(rv);
            }
            WatchEvent::Bookmark(_) => self.streamed.resource_version = Some(rv),
            WatchEvent::InitialEventsEnd(_) => {
                // The store is replaced with what streamed; the stream goes on as the watch.
                let items: Vec<Shared> = std::mem::take(&mut self.streamed.items).into_values().collect();
                self.unavailable = false;
                self.synced_to(rv);
                self.phase = Phase::Watching { watch, since, events: 0 };
                self.log(now, LogEvent::CachesPopulated);
                return vec![Command::Replace { items, resource_version: rv }, Command::StartResync];
            }
            WatchEvent::Error(status) => {
                let mut out = vec![Command::StopWatch(watch)];
                out.extend(self.watch_list_failed(status, now, rng));
                return out;
            }
        }
        vec![]
    }

    /// Whether the watch under way, ending now, is a "very short watch": under a second, with
    /// no events (`watchHandler`'s `errorStopRequested` check).
    pub fn watch_is_very_short(&self, now: Millis) -> bool {
        match self.phase {
            Phase::Streaming { since, events, .. } | Phase::Watching { since, events, .. } => {
                now.saturating_sub(since) < 1000 && events == 0
            }
            _ => false,
        }
    }

    fn on_watch_ended(&mut self, now: Millis, rng: &mut Rng) -> Vec<Command> {
        let very_short = self.watch_is_very_short(now);
        match self.phase {
            Phase::Streaming { .. } => {
                if very_short {
                    let err = self.very_short_watch();
                    return self.watch_list_failed(Status::internal(err), now, rng);
                }
                // Closed before the initial events ended: the watch-list starts over.
                self.begin_watch_list(rng)
            }
            Phase::Watching { events, .. } => {
                if very_short {
                    let err = self.very_short_watch();
                    self.log(now, LogEvent::WatchEnded { err });
                    return self.end_list_and_watch(now, rng);
                }
                self.log(now, LogEvent::WatchClose { items: events });
                self.begin_watch(rng)
            }
            _ => vec![],
        }
    }

    /// `very short watch: <name>: Unexpected watch close - …`.
    fn very_short_watch(&self) -> String {
        format!(
            "very short watch: {}: Unexpected watch close - watch lasted less than a second and no items received",
            self.config.name
        )
    }

    fn on_event(&mut self, event: WatchEvent, now: Millis, rng: &mut Rng) -> Vec<Command> {
        let Phase::Watching { watch, events, .. } = &mut self.phase else { return vec![] };
        let watch = *watch;
        *events += 1;
        let rv = event.resource_version();
        let command = match event {
            WatchEvent::Added(o) => Command::Add(o),
            WatchEvent::Modified(o) => Command::Update(o),
            WatchEvent::Deleted(o) => Command::Delete(o),
            WatchEvent::Bookmark(rv) | WatchEvent::InitialEventsEnd(rv) => Command::Bookmark(rv),
            WatchEvent::Error(status) => {
                let mut out = vec![Command::StopWatch(watch)];
                if is_retriable(&status) {
                    out.extend(self.back_off(now, rng, AfterBackoff::Rewatch));
                    return out;
                }
                if is_expired(&status) {
                    self.log(now, LogEvent::WatchClosed { err: status.message });
                } else {
                    self.log(now, LogEvent::WatchEnded { err: status.message });
                }
                out.extend(self.end_list_and_watch(now, rng));
                return out;
            }
        };
        self.synced_to(rv);
        vec![command]
    }

    /// `setLastSyncResourceVersion`. In this model — one API server over one etcd, its watch
    /// cache never behind the store — it never goes back (debug builds check it); upstream,
    /// behind several API servers, it can.
    fn synced_to(&mut self, rv: i64) {
        debug_assert!(
            rv >= self.last_sync_resource_version.parse().unwrap_or(0),
            "{}: lastSyncResourceVersion went back: {} → {rv}",
            self.config.name,
            self.last_sync_resource_version
        );
        self.last_sync_resource_version = rv.to_string();
    }

    /// The watch stream the reflector reads, if any.
    pub fn current_watch(&self) -> Option<ApiWatchId> {
        match self.phase {
            Phase::Watching { watch, .. } | Phase::Streaming { watch, .. } => Some(watch),
            _ => None,
        }
    }

    /// How many objects a watch-list has streamed so far.
    pub fn streamed(&self) -> usize {
        self.streamed.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ApiObject;

    /// A 1.30 reflector named as an informer factory names it.
    fn reflector() -> (Reflector, Rng) {
        reflector_in(Era::V1_30)
    }

    fn reflector_in(era: Era) -> (Reflector, Rng) {
        let mut config = ReflectorConfig::new(Kind::ConfigMap);
        config.name = "k8s.io/client-go/informers/factory.go:160".into();
        (Reflector::new(config, era, 0), Rng::new(3))
    }

    fn cm(name: &str, rv: i64) -> ApiObject {
        let mut o = ApiObject::new(Kind::ConfigMap, "ns", name);
        o.metadata.resource_version = rv.to_string();
        o
    }

    fn listed(items: Vec<ApiObject>, rv: i64) -> Input {
        let items = items.into_iter().map(Shared::new).collect();
        Input::ListResponse(Ok(ListResponse {
            items,
            resource_version: rv,
            continue_token: String::new(),
            remaining_item_count: None,
        }))
    }

    #[test]
    fn semantics_1_2_first_list_rv_0_limit_500_then_watch_from_the_list_rv() {
        let (mut r, mut rng) = reflector();
        let out = r.handle(Input::Start, 0, &mut rng);
        let [Command::List(opts)] = &out[..] else { panic!("{out:?}") };
        assert_eq!((opts.resource_version.as_str(), opts.limit), ("0", 500));
        let out = r.handle(listed(vec![cm("a", 4)], 7), 10, &mut rng);
        assert!(matches!(&out[0], Command::Replace { items, resource_version: 7 } if items.len() == 1));
        assert_eq!(out[1], Command::StartResync);
        let Command::Watch(options) = &out[2] else { panic!("{out:?}") };
        assert_eq!(options.resource_version, "7");
        assert!(options.allow_bookmarks);
        assert!((300..600).contains(&options.timeout_secs));
    }

    #[test]
    fn semantics_1_2_every_event_advances_the_last_sync_rv_and_close_rewatches() {
        let (mut r, mut rng) = reflector();
        r.handle(Input::Start, 0, &mut rng);
        r.handle(listed(vec![], 7), 0, &mut rng);
        r.handle(Input::WatchOpened(Ok(1)), 0, &mut rng);
        for (event, rv) in [
            (WatchEvent::Added(cm("a", 10).into()), 10),
            (WatchEvent::Modified(cm("a", 20).into()), 20),
            (WatchEvent::Bookmark(30), 30),
            (WatchEvent::Deleted(cm("a", 40).into()), 40),
        ] {
            r.handle(Input::Event(event), 5_000, &mut rng);
            assert_eq!(r.last_sync_resource_version, rv.to_string());
        }
        let out = r.handle(Input::WatchEnded, 300_000, &mut rng);
        let [Command::Watch(options)] = &out[..] else { panic!("a normal close re-watches at once: {out:?}") };
        assert_eq!(options.resource_version, "40");
        assert_eq!(r.lists, 1, "no relist");
    }

    #[test]
    fn semantics_1_2_expired_watch_backs_off_then_relists_at_the_last_rv() {
        let (mut r, mut rng) = reflector();
        r.handle(Input::Start, 0, &mut rng);
        r.handle(listed(vec![], 7), 0, &mut rng);
        r.handle(Input::WatchOpened(Ok(1)), 0, &mut rng);
        let out = r.handle(Input::Event(WatchEvent::Error(Status::too_old_resource_version(7, 9))), 100, &mut rng);
        assert_eq!(out[0], Command::StopWatch(1));
        let Command::Backoff(delay) = out[2] else { panic!("{out:?}") };
        assert!((800..1600).contains(&delay));
        let out = r.handle(Input::BackoffElapsed, 100 + delay, &mut rng);
        let [Command::List(opts)] = &out[..] else { panic!("{out:?}") };
        assert_eq!((opts.resource_version.as_str(), opts.limit), ("7", 0), "RV=N relist without a limit");
        assert!(!r.unavailable);
    }

    #[test]
    fn semantics_1_2_list_410_retries_at_once_with_rv_unset() {
        let (mut r, mut rng) = reflector();
        r.last_sync_resource_version = "7".into();
        r.handle(Input::Start, 0, &mut rng);
        let out = r.handle(Input::ListResponse(Err(Status::expired("gone".into()))), 0, &mut rng);
        let [Command::List(opts)] = &out[..] else { panic!("{out:?}") };
        assert_eq!((opts.resource_version.as_str(), opts.limit), ("", 0));
        assert!(r.unavailable);
        r.handle(listed(vec![], 12), 0, &mut rng);
        assert!(!r.unavailable);
    }

    #[test]
    fn semantics_1_3_forbidden_list_logs_the_classic_pair_and_backs_off_forever() {
        let (mut r, mut rng) = reflector();
        let reason = r#"User "system:serviceaccount:my-ns:my-controller" cannot list resource "configmaps" in API group "" at the cluster scope"#;
        let forbidden = Status::forbidden("configmaps", None, reason.into());
        let mut t = 0;
        r.handle(Input::Start, t, &mut rng);
        let mut delays = Vec::new();
        for _ in 0..8 {
            let out = r.handle(Input::ListResponse(Err(forbidden.clone())), t, &mut rng);
            let Some(Command::Backoff(d)) = out.last() else { panic!("{out:?}") };
            delays.push(*d);
            t += d;
            assert!(matches!(r.handle(Input::BackoffElapsed, t, &mut rng)[..], [Command::List(_)]));
        }
        assert!(delays[7] >= 30_000, "capped at [30, 60) s: {delays:?}");
        let lines: Vec<String> = r.log.iter().take(2).map(|l| l.to_string()).collect();
        assert_eq!(lines[0], format!("W0101 00:00:00.000000       1 reflector.go:547] k8s.io/client-go/informers/factory.go:160: failed to list *v1.ConfigMap: configmaps is forbidden: {reason}"));
        assert_eq!(lines[1], format!("E0101 00:00:00.000000       1 reflector.go:150] k8s.io/client-go/informers/factory.go:160: Failed to watch *v1.ConfigMap: failed to list *v1.ConfigMap: configmaps is forbidden: {reason}"));
    }

    #[test]
    fn semantics_1_2_too_many_requests_rewatches_without_relisting() {
        let (mut r, mut rng) = reflector();
        r.handle(Input::Start, 0, &mut rng);
        r.handle(listed(vec![], 7), 0, &mut rng);
        let busy = Status::new(429, "TooManyRequests", "too many requests".into());
        let out = r.handle(Input::WatchOpened(Err(busy)), 0, &mut rng);
        assert!(matches!(out[..], [Command::Backoff(_)]));
        assert!(matches!(r.handle(Input::BackoffElapsed, 2_000, &mut rng)[..], [Command::Watch(_)]));
        assert_eq!(r.lists, 1);
    }

    #[test]
    fn semantics_1_2_a_very_short_watch_is_logged_as_a_warning_then_relists_after_a_backoff() {
        for era in Era::ALL {
            let (mut r, mut rng) = reflector_in(era);
            r.handle(Input::Start, 0, &mut rng);
            if era.watch_list_client() {
                r.handle(Input::WatchOpened(Ok(1)), 0, &mut rng);
                r.handle(Input::Event(WatchEvent::InitialEventsEnd(7)), 0, &mut rng);
            } else {
                r.handle(listed(vec![], 7), 0, &mut rng);
                r.handle(Input::WatchOpened(Ok(1)), 0, &mut rng);
            }
            let out = r.handle(Input::WatchEnded, 500, &mut rng);
            assert!(matches!(out[..], [Command::StopResync, Command::Backoff(_)]), "{era}: {out:?}");
            let last = r.log.last().unwrap();
            assert_eq!(last.event, LogEvent::WatchEnded { err: r.very_short_watch() }, "{era}");
            assert_ne!(last.level(), 'E', "{era}: watch() returns nil after a very short watch, so no Failed to watch");
        }
    }

    #[test]
    fn semantics_1_5_a_1_37_reflector_syncs_with_a_watch_list_and_keeps_the_stream() {
        let (mut r, mut rng) = reflector_in(Era::V1_37);
        let out = r.handle(Input::Start, 0, &mut rng);
        let [Command::Watch(options)] = &out[..] else { panic!("{out:?}") };
        assert_eq!(options.send_initial_events, Some(true));
        assert_eq!((options.resource_version.as_str(), options.resource_version_match.as_str()), ("", NOT_OLDER_THAN));
        assert!(options.allow_bookmarks);
        r.handle(Input::WatchOpened(Ok(4)), 0, &mut rng);
        for e in [WatchEvent::Added(cm("b", 9).into()), WatchEvent::Added(cm("a", 5).into())] {
            assert!(r.handle(Input::Event(e), 10, &mut rng).is_empty(), "initial events go to the temporary store");
        }
        assert_eq!(r.last_sync_resource_version, "", "synthetic ADDED events do not move the RV");
        let out = r.handle(Input::Event(WatchEvent::InitialEventsEnd(12)), 20, &mut rng);
        let Command::Replace { items, resource_version: 12 } = &out[0] else { panic!("{out:?}") };
        assert_eq!(items.iter().map(|o| o.key()).collect::<Vec<_>>(), vec!["ns/a", "ns/b"]);
        assert_eq!(out[1], Command::StartResync);
        assert_eq!(r.current_watch(), Some(4), "the same stream goes on as the watch");
        assert_eq!((r.lists, r.watches), (0, 1));
        assert_eq!(r.handle(Input::Event(WatchEvent::Modified(cm("a", 13).into())), 30, &mut rng).len(), 1);
        assert_eq!(r.last_sync_resource_version, "13");
    }

    #[test]
    fn semantics_1_5_a_refused_watch_list_falls_back_to_list_and_a_429_retries_it() {
        let (mut r, mut rng) = reflector_in(Era::V1_37);
        r.handle(Input::Start, 0, &mut rng);
        let busy = Status::new(429, "TooManyRequests", "too many requests".into());
        assert!(matches!(r.handle(Input::WatchOpened(Err(busy)), 0, &mut rng)[..], [Command::Backoff(_)]));
        let out = r.handle(Input::BackoffElapsed, 2_000, &mut rng);
        assert!(matches!(&out[..], [Command::Watch(options)] if options.send_initial_events == Some(true)));
        let reason = r#"User "x" cannot watch resource "configmaps" in API group "" at the cluster scope"#;
        let forbidden = Status::forbidden("configmaps", None, reason.into());
        let out = r.handle(Input::WatchOpened(Err(forbidden)), 2_000, &mut rng);
        let [Command::List(opts)] = &out[..] else { panic!("{out:?}") };
        assert_eq!(opts.resource_version, "0");
        assert_eq!(r.log.last().unwrap().verbosity(), 4, "the fallback is logged at -v=4 only");
    }

    #[test]
    fn semantics_1_3_from_v0_33_a_failed_list_is_one_structured_error_line() {
        let (mut r, mut rng) = reflector_in(Era::V1_33);
        r.handle(Input::Start, 0, &mut rng);
        let forbidden = Status::forbidden("configmaps", None, "no".into());
        r.handle(Input::ListResponse(Err(forbidden)), 0, &mut rng);
        assert_eq!(r.log.len(), 1);
        assert_eq!(r.log[0].level(), 'E');
        assert!(r.log[0].to_string().contains(r#"reflector.go:200] "Failed to watch" err="failed to list *v1.ConfigMap: configmaps is forbidden: no" logger="UnhandledError""#));
    }

    #[test]
    fn semantics_1_2_paginated_first_list_keeps_paging() {
        let (mut r, mut rng) = reflector();
        r.handle(Input::Start, 0, &mut rng);
        let page = ListResponse {
            items: vec![cm("a", 2).into()],
            resource_version: 5,
            continue_token: "tok".into(),
            remaining_item_count: None,
        };
        let out = r.handle(Input::ListResponse(Ok(page)), 0, &mut rng);
        let [Command::List(next)] = &out[..] else { panic!("{out:?}") };
        assert_eq!((next.resource_version.as_str(), next.continue_token.as_str(), next.limit), ("", "tok", 500));
        let out = r.handle(Input::ListResponse(Err(Status::expired("continue expired".into()))), 0, &mut rng);
        let [Command::List(full)] = &out[..] else { panic!("{out:?}") };
        assert_eq!((full.limit, full.continue_token.as_str(), full.resource_version.as_str()), (0, "", "0"));
        let out = r.handle(listed(vec![cm("a", 2), cm("b", 3)], 6), 0, &mut rng);
        assert!(matches!(&out[0], Command::Replace { items, .. } if items.len() == 2));
        r.last_sync_resource_version = "6".into();
        assert_eq!(r.page_size("6"), 500, "a paginated first list keeps the 500 limit");
    }
}
