//! The Reflector (client-go `tools/cache/reflector.go`), semantics §1.
//!
//! It keeps a store in step with the API server by ListAndWatch:
//! - LIST with resourceVersion `"0"` the first time (served from the watch cache, `limit=500`),
//!   `Replace` the FIFO with the items, remember the list's RV as `lastSyncResourceVersion`;
//! - WATCH from that RV with bookmarks allowed and a timeout drawn in [300, 600) s; every
//!   event, bookmarks included, advances `lastSyncResourceVersion`;
//! - a watch that ends normally (timeout, dropped connection) is reopened at once from the
//!   last RV: no relist, nothing lost, nothing repeated;
//! - an in-stream `410 Expired` ends ListAndWatch without an error: after one backoff it
//!   relists *at* the last RV; a LIST that itself gets 410 (or "too large RV") retries at
//!   once with RV `""` (the "unavailable" flag);
//! - a failed LIST or a refused WATCH request ends ListAndWatch with an error, logged in
//!   client-go's words, then one backoff (800 ms doubling to 30 s, jittered) and a relist,
//!   forever; 429 on a WATCH request backs off and re-watches without relisting.
//!
//! The reflector is sans-IO: [`Reflector::handle`] takes what arrived and returns
//! [`Command`]s (requests to send, FIFO operations, timers) for the world to carry out.
//! Log lines follow client-go v0.30, the last release that prints the classic plain pair:
//! `W… reflector.go:547] <name>: failed to list <type>: <err>` and
//! `E… reflector.go:150] <name>: Failed to watch <type>: failed to list <type>: <err>`.
//! Left out: the streaming list (WatchList, §1.5), off by default before client-go 1.35.

use super::backoff::Backoff;
use crate::cluster::api_errors::Status;
use crate::cluster::api_server::{ListOptions, ListResponse, WatchOptions};
use crate::cluster::watch::{ApiWatchId, WatchEvent};
use crate::cluster::{Kind, Shared};
use crate::sim::{Millis, Rng};

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
    /// The reflector's name in log lines: where the informer was made.
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
            name: "k8s.io/client-go/informers/factory.go:160".into(),
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
    Watch {
        options: WatchOptions,
        timeout_secs: u64,
    },
    /// Close the current watch stream (the client side gives up on it).
    StopWatch(ApiWatchId),
    Replace {
        items: Vec<Shared>,
        resource_version: i64,
    },
    Add(Shared),
    Update(Shared),
    Delete(Shared),
    /// Wake the reflector with `BackoffElapsed` after this long.
    Backoff(Millis),
    /// The resync timer runs while ListAndWatch watches (§1.6).
    StartResync,
    StopResync,
}

/// Where the reflector is in ListAndWatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    Idle,
    Listing,
    WatchRequested,
    Watching { watch: ApiWatchId, since: Millis, events: u64 },
    BackingOff { until: Millis, relist: bool },
}

impl Phase {
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Listing => "listing",
            Phase::WatchRequested => "opening watch",
            Phase::Watching { .. } => "watching",
            Phase::BackingOff { .. } => "backing off",
        }
    }
}

/// One log line, klog style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// `I`, `W` or `E`.
    pub level: char,
    /// klog verbosity for `I` lines (shown with `-v` at least this).
    pub verbosity: u8,
    pub time_ms: Millis,
    pub source: &'static str,
    pub message: String,
}

impl std::fmt::Display for LogLine {
    /// `E0101 00:00:01.200000       1 reflector.go:150] <message>`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stamp = crate::cluster::api_object::timestamp(self.time_ms);
        let (date, time) = (&stamp[5..10], &stamp[11..19]);
        let micros = (self.time_ms % 1000) * 1000;
        write!(
            f,
            "{}{} {}.{:06}       1 {}] {}",
            self.level,
            date.replace('-', ""),
            time,
            micros,
            self.source,
            self.message
        )
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

#[derive(Clone, Debug)]
pub struct Reflector {
    pub config: ReflectorConfig,
    pub phase: Phase,
    /// `lastSyncResourceVersion`: the list's RV, then every event's.
    pub last_sync_resource_version: String,
    /// `isLastSyncResourceVersionUnavailable`.
    pub unavailable: bool,
    paginated_result: bool,
    listing: Option<Listing>,
    backoff: Backoff,
    pub log: Vec<LogLine>,
    pub lists: u64,
    pub watches: u64,
}

fn is_expired(s: &Status) -> bool {
    s.code == 410
}

fn is_too_large(s: &Status) -> bool {
    s.code == 504 && s.message.contains("Too large resource version")
}

impl Reflector {
    pub fn new(config: ReflectorConfig, now: Millis) -> Self {
        Reflector {
            config,
            phase: Phase::Idle,
            last_sync_resource_version: String::new(),
            unavailable: false,
            paginated_result: false,
            listing: None,
            backoff: Backoff::new(now),
            log: Vec::new(),
            lists: 0,
            watches: 0,
        }
    }

    fn type_description(&self) -> String {
        self.config.kind.type_description()
    }

    fn log(&mut self, level: char, verbosity: u8, now: Millis, source: &'static str, message: String) {
        self.log.push(LogLine { level, verbosity, time_ms: now, source, message });
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
            continue_token: String::new(),
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

    fn begin_watch(&mut self, rng: &mut Rng) -> Vec<Command> {
        let options = WatchOptions {
            namespace: self.config.namespace.clone(),
            label_selector: self.config.label_selector.clone(),
            field_selector: self.config.field_selector.clone(),
            resource_version: self.last_sync_resource_version.clone(),
            allow_bookmarks: true,
        };
        let timeout_secs = MIN_WATCH_TIMEOUT_S + (rng.float64() * MIN_WATCH_TIMEOUT_S as f64) as u64;
        self.phase = Phase::WatchRequested;
        self.watches += 1;
        vec![Command::Watch { options, timeout_secs }]
    }

    /// ListAndWatch returned (with or without an error): one backoff delay, then a relist.
    fn end_list_and_watch(&mut self, now: Millis, rng: &mut Rng, relist: bool) -> Vec<Command> {
        let delay = self.backoff.next(now, rng);
        self.phase = Phase::BackingOff { until: now + delay, relist };
        self.listing = None;
        let mut out = vec![Command::Backoff(delay)];
        if relist {
            out.insert(0, Command::StopResync);
        }
        out
    }

    /// The `DefaultWatchErrorHandler` line for an error returned by ListAndWatch.
    fn log_failed_to_watch(&mut self, now: Millis, err: &str) {
        let msg = format!("{}: Failed to watch {}: {err}", self.config.name, self.type_description());
        self.log('E', 0, now, "reflector.go:150", msg);
    }

    pub fn handle(&mut self, input: Input, now: Millis, rng: &mut Rng) -> Vec<Command> {
        match input {
            Input::Start => self.begin_list(false),
            Input::BackoffElapsed => match self.phase {
                Phase::BackingOff { relist: true, .. } => self.begin_list(false),
                Phase::BackingOff { relist: false, .. } => self.begin_watch(rng),
                _ => vec![],
            },
            Input::ListResponse(result) => self.on_list(result, now, rng),
            Input::WatchOpened(Ok(watch)) => {
                self.phase = Phase::Watching { watch, since: now, events: 0 };
                vec![]
            }
            Input::WatchOpened(Err(status)) => {
                if status.code == 429 {
                    return self.end_list_and_watch(now, rng, false);
                }
                self.log_failed_to_watch(now, &status.message);
                self.end_list_and_watch(now, rng, true)
            }
            Input::Event(event) => self.on_event(event, now, rng),
            Input::WatchEnded => {
                let Phase::Watching { since, events, .. } = self.phase else { return vec![] };
                if now.saturating_sub(since) < 1000 && events == 0 {
                    let err = format!(
                        "very short watch: {}: Unexpected watch close - watch lasted less than a second and no items received",
                        self.config.name
                    );
                    self.log_failed_to_watch(now, &err);
                    return self.end_list_and_watch(now, rng, true);
                }
                let msg = format!(
                    "{}: Watch close - {} total {events} items received",
                    self.config.name,
                    self.type_description()
                );
                self.log('I', 4, now, "reflector.go:719", msg);
                self.begin_watch(rng)
            }
        }
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
                self.last_sync_resource_version = page.resource_version.to_string();
                let msg = format!("Caches populated for {} from {}", self.type_description(), self.config.name);
                self.log('I', 2, now, "reflector.go:368", msg);
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
                let typ = self.type_description();
                let name = self.config.name.clone();
                self.log('W', 0, now, "reflector.go:547", format!("{name}: failed to list {typ}: {}", status.message));
                self.log_failed_to_watch(now, &format!("failed to list {typ}: {}", status.message));
                self.end_list_and_watch(now, rng, true)
            }
        }
    }

    fn on_event(&mut self, event: WatchEvent, now: Millis, rng: &mut Rng) -> Vec<Command> {
        let Phase::Watching { watch, events, .. } = &mut self.phase else { return vec![] };
        let watch = *watch;
        *events += 1;
        let rv = event.resource_version();
        let command = match event {
            WatchEvent::Added(o) => Command::Add(Shared::new(o)),
            WatchEvent::Modified(o) => Command::Update(Shared::new(o)),
            WatchEvent::Deleted(o) => Command::Delete(Shared::new(o)),
            WatchEvent::Bookmark(rv) => {
                self.last_sync_resource_version = rv.to_string();
                return vec![];
            }
            WatchEvent::Error(ref status) => {
                let (typ, name) = (self.type_description(), self.config.name.clone());
                let mut out = vec![Command::StopWatch(watch)];
                if status.code == 429 {
                    out.extend(self.end_list_and_watch(now, rng, false));
                    return out;
                }
                if is_expired(status) {
                    self.log(
                        'I',
                        4,
                        now,
                        "reflector.go:452",
                        format!("{name}: watch of {typ} closed with: {}", status.message),
                    );
                } else {
                    self.log(
                        'W',
                        0,
                        now,
                        "reflector.go:452",
                        format!("{name}: watch of {typ} ended with: {}", status.message),
                    );
                }
                out.extend(self.end_list_and_watch(now, rng, true));
                return out;
            }
        };
        self.last_sync_resource_version = rv.to_string();
        vec![command]
    }

    /// The watch stream the reflector reads, if any.
    pub fn current_watch(&self) -> Option<ApiWatchId> {
        match self.phase {
            Phase::Watching { watch, .. } => Some(watch),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ApiObject;

    fn reflector() -> (Reflector, Rng) {
        (Reflector::new(ReflectorConfig::new(Kind::ConfigMap), 0), Rng::new(3))
    }

    fn cm(name: &str, rv: i64) -> ApiObject {
        let mut o = ApiObject::new(Kind::ConfigMap, "ns", name);
        o.metadata.resource_version = rv.to_string();
        o
    }

    fn listed(items: Vec<ApiObject>, rv: i64) -> Input {
        let items = items.into_iter().map(Shared::new).collect();
        Input::ListResponse(Ok(ListResponse { items, resource_version: rv, continue_token: String::new() }))
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
        let Command::Watch { options, timeout_secs } = &out[2] else { panic!("{out:?}") };
        assert_eq!(options.resource_version, "7");
        assert!(options.allow_bookmarks);
        assert!((300..600).contains(timeout_secs));
    }

    #[test]
    fn semantics_1_2_every_event_advances_the_last_sync_rv_and_close_rewatches() {
        let (mut r, mut rng) = reflector();
        r.handle(Input::Start, 0, &mut rng);
        r.handle(listed(vec![], 7), 0, &mut rng);
        r.handle(Input::WatchOpened(Ok(1)), 0, &mut rng);
        for (event, rv) in [
            (WatchEvent::Added(cm("a", 10)), 10),
            (WatchEvent::Modified(cm("a", 20)), 20),
            (WatchEvent::Bookmark(30), 30),
            (WatchEvent::Deleted(cm("a", 40)), 40),
        ] {
            r.handle(Input::Event(event), 5_000, &mut rng);
            assert_eq!(r.last_sync_resource_version, rv.to_string());
        }
        let out = r.handle(Input::WatchEnded, 300_000, &mut rng);
        let [Command::Watch { options, .. }] = &out[..] else { panic!("a normal close re-watches at once: {out:?}") };
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
        let busy = Status { code: 429, reason: "TooManyRequests", message: "too many requests".into() };
        let out = r.handle(Input::WatchOpened(Err(busy)), 0, &mut rng);
        assert!(matches!(out[..], [Command::Backoff(_)]));
        assert!(matches!(r.handle(Input::BackoffElapsed, 2_000, &mut rng)[..], [Command::Watch { .. }]));
        assert_eq!(r.lists, 1);
    }

    #[test]
    fn semantics_1_2_very_short_empty_watch_is_an_error() {
        let (mut r, mut rng) = reflector();
        r.handle(Input::Start, 0, &mut rng);
        r.handle(listed(vec![], 7), 0, &mut rng);
        r.handle(Input::WatchOpened(Ok(1)), 0, &mut rng);
        let out = r.handle(Input::WatchEnded, 500, &mut rng);
        assert!(matches!(out[..], [Command::StopResync, Command::Backoff(_)]));
        assert!(r.log.last().unwrap().message.contains("very short watch"));
    }

    #[test]
    fn semantics_1_2_paginated_first_list_keeps_paging() {
        let (mut r, mut rng) = reflector();
        r.handle(Input::Start, 0, &mut rng);
        let page = ListResponse { items: vec![cm("a", 2).into()], resource_version: 5, continue_token: "tok".into() };
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
