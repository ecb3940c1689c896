//! The world's client-go half: per informer, the reflector's conversation with the API server
//! and the hops Reflector → DeltaFIFO → Pop → indexer → handlers (semantics §1–§4).

use super::config::InformerConfig;
use super::message::Msg;
use super::outcome::{EventType, ListParams, Listed, Next, Outcome, ResyncOutcome};
use super::{Hop, World};
use crate::client::pipeline::{ClientPipeline, FedOutcome, FifoOp, ProcessOutcome};
use crate::client::queue::Queued;
use crate::client::reflector::{self, Command};
use crate::client::shared_informer::Notification;
use crate::cluster::api_server::ListOptions;
use crate::cluster::api_server::{ListResponse, WatchOptions};
use crate::cluster::watch::{ApiWatchId, WatchEvent};
use crate::cluster::ApiObject;
use crate::cluster::Status;
use crate::controller::handler::{self, Enqueue, Handled};
use crate::era::Era;
use crate::kernel::{Millis, SmallMap, SmallSet, Stage, TraceKind};

/// One informer and everything that feeds it: its client pipeline, and the world's side of
/// driving it (the streams it reads, the hops scheduled, the timers' generations).
#[derive(Clone, Debug)]
pub struct InformerStack {
    pub config: InformerConfig,
    /// The reflector, the era's queue and the informer, wired as in client-go.
    pub pipeline: ClientPipeline,
    pop_pending: bool,
    listener_pending: Vec<bool>,
    /// Server-side watches whose events are forwarded to the reflector.
    pub(super) open_watches: SmallSet<ApiWatchId>,
    /// Watches the client stopped reading: what is still in flight for them is lost.
    abandoned: SmallSet<ApiWatchId>,
    /// When the last message of each open stream arrives: a watch is one ordered stream, so
    /// latency delays its messages but never reorders them.
    stream_clock: SmallMap<ApiWatchId, Millis>,
    resync_generation: u64,
    backoff_generation: u64,
}

/// An informer's cache beside what the store holds within its scope, each as
/// (key, resourceVersion) in key order: what "the cache converged" means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheVsStore {
    pub stored: Vec<(String, String)>,
    pub cached: Vec<(String, String)>,
}

impl CacheVsStore {
    pub fn equal(&self) -> bool {
        self.stored == self.cached
    }
}

impl World {
    /// Informer `i`'s cache beside a fresh LIST of its scope (as the administrator, uncounted).
    pub fn cache_vs_store(&self, i: usize) -> Result<CacheVsStore, Status> {
        let stack = &self.informers[i];
        let scope = &stack.config.reflector;
        let opts = ListOptions {
            namespace: scope.namespace.clone(),
            label_selector: scope.label_selector.clone(),
            field_selector: scope.field_selector.clone(),
            ..Default::default()
        };
        let listed = self.api.peek_list(&crate::cluster::UserInfo::admin(), scope.kind, &opts)?;
        let pair = |o: &ApiObject| (o.key(), o.metadata.resource_version.clone());
        Ok(CacheVsStore {
            stored: listed.items.iter().map(|o| pair(o)).collect(),
            cached: stack.pipeline.informer.indexer.objects().map(pair).collect(),
        })
    }
}

impl InformerStack {
    /// An informer started at `now`.
    pub(super) fn new(config: InformerConfig, resync_ms: Millis, era: Era, now: Millis) -> Self {
        let mut pipeline = ClientPipeline::new(config.reflector.clone(), era, resync_ms);
        pipeline.transform = config.transform.clone();
        for h in &config.handlers {
            pipeline.informer.add_event_handler(&h.name, h.resync_ms.unwrap_or(resync_ms), 0);
        }
        // Indexes are registered before the informer starts, as `IndexField` is at set-up.
        pipeline.informer.indexer.add_indexers(config.indexes.clone()).ok();
        pipeline.start(now);
        InformerStack {
            pipeline,
            listener_pending: vec![false; config.handlers.len()],
            config,
            pop_pending: false,
            open_watches: SmallSet::new(),
            abandoned: SmallSet::new(),
            stream_clock: SmallMap::new(),
            resync_generation: 0,
            backoff_generation: 0,
        }
    }

    /// Objects in this informer's cache, and their size as JSON.
    pub fn cache_size(&self) -> (usize, usize) {
        (self.pipeline.informer.indexer.len(), self.pipeline.informer.indexer.bytes())
    }

    /// The client stops reading a watch.
    pub(super) fn abandon(&mut self, id: ApiWatchId) {
        self.open_watches.remove(&id);
        self.abandoned.insert(id);
    }
}

fn list_params(o: &ListOptions) -> ListParams {
    ListParams {
        resource_version: o.resource_version.clone(),
        limit: o.limit,
        continued: !o.continue_token.is_empty(),
        label_selector: o.label_selector.clone(),
        field_selector: o.field_selector.clone(),
        metadata_only: o.metadata_only,
    }
}

fn listed(list: &crate::cluster::ListResponse) -> Listed {
    Listed { items: list.items.len(), resource_version: list.resource_version }
}

impl World {
    /// Sends a message down watch stream `id` of informer `i`: after the network latency, and
    /// never before what the stream sent earlier (a change of latency applies to what is sent
    /// after it).
    pub(super) fn send_on_stream(&mut self, i: usize, id: ApiWatchId, msg: Msg) {
        let clock = &mut self.informers[i].stream_clock;
        let at = (self.now + self.config.latency_ms).max(clock.get(&id).copied().unwrap_or(0));
        clock.insert(id, at);
        self.schedule_at(at, msg);
    }

    /// Sets the cacher's bookmark timer for the earliest bookmark due, if it is not set for
    /// then already.
    pub(super) fn set_bookmark_timer(&mut self) {
        let Some(at) = self.api.next_bookmark_at() else { return };
        if self.bookmark_tick.is_none_or(|t| t > at) {
            self.bookmark_tick = Some(at.max(self.now));
            self.schedule_at(at.max(self.now), Msg::BookmarkTick);
        }
    }

    /// Forwards what the API server queued on every open watch stream.
    pub(super) fn flush_watch_events(&mut self) {
        for i in 0..self.informers.len() {
            for id in self.informers[i].open_watches.clone() {
                for event in self.api.take_events(id) {
                    self.send_on_stream(i, id, Msg::WatchEvent(i, id, event));
                }
                if !self.api.watch_is_open(id) {
                    self.informers[i].open_watches.remove(&id);
                }
            }
        }
        self.flush_kubelet();
        self.console.collect(&mut self.api, self.steps, self.now);
    }

    /// Hands the reflector an input and carries out its commands; returns what it does next.
    fn run_reflector(&mut self, i: usize, input: reflector::Input) -> Vec<Next> {
        let commands = self.informers[i].pipeline.handle(input, self.now, &mut self.rng);
        commands.into_iter().filter_map(|c| self.carry_out(i, c)).collect()
    }

    /// Carries out one reflector command; returns it as a next move when it is one. What feeds
    /// the queue becomes a FIFO hop, by the pipeline's rule.
    fn carry_out(&mut self, i: usize, command: Command) -> Option<Next> {
        if ClientPipeline::feeds_queue(&command) {
            if let Some(op) = self.informers[i].pipeline.fifo_op(command) {
                self.later(0, Msg::Fifo(i, op));
            }
            return None;
        }
        match command {
            Command::List(options) => {
                let next = Next::List(list_params(&options));
                self.later(self.config.latency_ms, Msg::ListRequest(i, options));
                Some(next)
            }
            Command::Watch(options) => {
                let next = Next::Watch {
                    resource_version: options.resource_version.clone(),
                    send_initial_events: options.send_initial_events == Some(true),
                    field_selector: options.field_selector.clone(),
                    metadata_only: options.metadata_only,
                };
                self.later(self.config.latency_ms, Msg::WatchRequest(i, options));
                Some(next)
            }
            Command::StopWatch(id) => {
                self.api.stop_watch(id);
                self.informers[i].abandon(id);
                None
            }
            Command::Backoff(delay) => {
                let stack = &mut self.informers[i];
                stack.backoff_generation += 1;
                let generation = stack.backoff_generation;
                self.later(delay, Msg::BackoffElapsed(i, generation));
                Some(Next::Backoff { ms: delay })
            }
            Command::StartResync => {
                let stack = &mut self.informers[i];
                stack.resync_generation += 1;
                let (period, generation) = (stack.pipeline.informer.resync_check_period(), stack.resync_generation);
                if period > 0 {
                    self.later(period, Msg::ResyncTick(i, generation));
                }
                None
            }
            Command::StopResync => {
                self.informers[i].resync_generation += 1;
                None
            }
            // The pipeline took every command that feeds the queue.
            Command::Replace { .. }
            | Command::Add(_)
            | Command::Update(_)
            | Command::Delete(_)
            | Command::Bookmark(_) => None,
        }
    }

    fn schedule_pop(&mut self, i: usize) {
        let stack = &mut self.informers[i];
        if !stack.pop_pending && stack.pipeline.can_pop() {
            stack.pop_pending = true;
            self.later(0, Msg::Pop(i));
        }
    }

    pub(super) fn deliver_list_request(&mut self, i: usize, options: ListOptions) -> Hop {
        let kind = self.informers[i].config.reflector.kind;
        let result = self.api.list(&self.user, kind, &options);
        let answer = result.as_ref().map(listed).map_err(Clone::clone);
        let (trace_kind, rv) = match &answer {
            Ok(l) => (TraceKind::ListRequest, l.resource_version),
            Err(_) => (TraceKind::RequestFailed, 0),
        };
        self.later(self.config.latency_ms, Msg::ListResponse(i, result));
        let outcome = Outcome::ListServed { request: list_params(&options), answer };
        Hop::new(Stage::Reflector, Stage::ApiServer, trace_kind, "", rv, outcome)
    }

    pub(super) fn deliver_reflector_start(&mut self, i: usize) -> Hop {
        let next = self.run_reflector(i, reflector::Input::Start);
        let kind =
            if matches!(next[..], [Next::Watch { .. }]) { TraceKind::WatchRequest } else { TraceKind::ListRequest };
        Hop::plain(Stage::Reflector, Stage::Reflector, kind, Outcome::ListAndWatchStarts { next })
    }

    pub(super) fn deliver_list_response(&mut self, i: usize, result: Result<ListResponse, Status>) -> Hop {
        let answer = result.as_ref().map(listed).map_err(Clone::clone);
        let (kind, rv) = match &answer {
            Ok(l) => (TraceKind::ListResponse, l.resource_version),
            Err(_) => (TraceKind::RequestFailed, 0),
        };
        let next = self.run_reflector(i, reflector::Input::ListResponse(result));
        Hop::new(Stage::ApiServer, Stage::Reflector, kind, "", rv, Outcome::ListReceived { answer, next })
    }

    pub(super) fn deliver_watch_opened(&mut self, i: usize, answer: Result<ApiWatchId, Status>) -> Hop {
        let kind = if answer.is_ok() { TraceKind::WatchStarted } else { TraceKind::RequestFailed };
        let next = self.run_reflector(i, reflector::Input::WatchOpened(answer.clone()));
        Hop::plain(Stage::ApiServer, Stage::Reflector, kind, Outcome::WatchOpened { answer, next })
    }

    pub(super) fn deliver_watch_request(&mut self, i: usize, options: WatchOptions) -> Hop {
        let timeout_secs = options.timeout_secs;
        let kind = self.informers[i].config.reflector.kind;
        let answer = self.api.watch(&self.user, kind, &options);
        match answer {
            // The response opens the stream: its events come after it, on the same connection.
            Ok(id) => {
                self.informers[i].open_watches.insert(id);
                self.schedule_at(self.now + timeout_secs * 1000, Msg::WatchTimeout(i, id));
                self.send_on_stream(i, id, Msg::WatchOpened(i, answer.clone()));
                self.set_bookmark_timer();
            }
            Err(_) => self.later(self.config.latency_ms, Msg::WatchOpened(i, answer.clone())),
        }
        self.flush_watch_events();
        let rv = options.resource_version.parse().unwrap_or(0);
        let outcome = Outcome::WatchServed {
            resource_version: options.resource_version,
            timeout_secs,
            send_initial_events: options.send_initial_events == Some(true),
            answer,
        };
        Hop::new(Stage::Reflector, Stage::ApiServer, TraceKind::WatchRequest, "", rv, outcome)
    }

    pub(super) fn deliver_watch_timeout(&mut self, i: usize, id: ApiWatchId) -> Hop {
        let already_closed = !self.api.watch_is_open(id);
        if !already_closed {
            self.api.stop_watch(id);
            self.informers[i].open_watches.remove(&id);
            self.send_on_stream(i, id, Msg::WatchEnded(i, id));
        }
        let outcome = Outcome::WatchTimedOut { watch: id, already_closed };
        Hop::plain(Stage::ApiServer, Stage::ApiServer, TraceKind::WatchClosed, outcome)
    }

    pub(super) fn deliver_watch_ended(&mut self, i: usize, id: ApiWatchId) -> Hop {
        self.informers[i].stream_clock.remove(&id);
        let read = self.informers[i].pipeline.reflector.current_watch() == Some(id);
        let very_short = read && self.informers[i].pipeline.reflector.watch_is_very_short(self.now);
        let next = if read { self.run_reflector(i, reflector::Input::WatchEnded) } else { Vec::new() };
        let rv =
            if read { self.informers[i].pipeline.reflector.last_sync_resource_version.parse().unwrap_or(0) } else { 0 };
        let outcome = Outcome::WatchEnded { watch: id, read, very_short, next };
        Hop::new(Stage::ApiServer, Stage::Reflector, TraceKind::WatchClosed, "", rv, outcome)
    }

    pub(super) fn deliver_backoff(&mut self, i: usize, generation: u64) -> Hop {
        let stale = generation != self.informers[i].backoff_generation;
        let next = if stale { Vec::new() } else { self.run_reflector(i, reflector::Input::BackoffElapsed) };
        Hop::plain(Stage::Reflector, Stage::Reflector, TraceKind::Backoff, Outcome::BackoffElapsed { stale, next })
    }

    pub(super) fn deliver_watch_event(&mut self, i: usize, id: ApiWatchId, event: WatchEvent) -> Hop {
        let (kind, event_type) = match &event {
            WatchEvent::Added(_) => (TraceKind::Added, EventType::Added),
            WatchEvent::Modified(_) => (TraceKind::Modified, EventType::Modified),
            WatchEvent::Deleted(_) => (TraceKind::Deleted, EventType::Deleted),
            WatchEvent::Bookmark(_) | WatchEvent::InitialEventsEnd(_) => (TraceKind::Bookmark, EventType::Bookmark),
            WatchEvent::Error(_) => (TraceKind::WatchError, EventType::Error),
        };
        let key = event.object().map(ApiObject::key).unwrap_or_default();
        let rv = event.resource_version();
        let stack = &self.informers[i];
        if stack.abandoned.contains(&id) || stack.pipeline.reflector.current_watch() != Some(id) {
            let outcome = Outcome::EventLost { watch: id, event: event_type };
            return Hop::new(Stage::ApiServer, Stage::Reflector, TraceKind::EventLost, &key, rv, outcome);
        }
        let status = match &event {
            WatchEvent::Error(s) => Some(s.clone()),
            _ => None,
        };
        let initial_events_end = matches!(event, WatchEvent::InitialEventsEnd(_));
        let next = self.run_reflector(i, reflector::Input::Event(event));
        let outcome = match status {
            Some(status) => Outcome::WatchError { watch: id, status, next },
            None => Outcome::WatchEvent { watch: id, event: event_type, initial_events_end, next },
        };
        Hop::new(Stage::ApiServer, Stage::Reflector, kind, &key, rv, outcome)
    }

    pub(super) fn deliver_resync(&mut self, i: usize, generation: u64) -> Hop {
        let resync = if generation != self.informers[i].resync_generation {
            ResyncOutcome::Stopped
        } else {
            let period = self.informers[i].pipeline.informer.resync_check_period();
            self.later(period, Msg::ResyncTick(i, generation));
            let resync = match self.informers[i].pipeline.resync(self.now) {
                Some(Queued::Deltas(deltas)) => ResyncOutcome::Queued { deltas },
                Some(Queued::Atomic) => ResyncOutcome::SyncAll,
                None => ResyncOutcome::NotDue,
            };
            self.schedule_pop(i);
            resync
        };
        Hop::plain(Stage::Reflector, Stage::Fifo, TraceKind::Resync, Outcome::Resync(resync))
    }

    pub(super) fn deliver_fifo(&mut self, i: usize, op: FifoOp) -> Hop {
        let FedOutcome { key, rv, fed: op, waiting } = self.informers[i].pipeline.feed(op);
        let kind = op.trace_kind();
        self.schedule_pop(i);
        // An empty first list syncs the informer at once.
        self.start_workers_once_synced();
        self.wake_waiting_reads();
        Hop::new(Stage::Reflector, Stage::Fifo, kind, &key, rv, Outcome::Queued { op, waiting })
    }

    pub(super) fn deliver_pop(&mut self, i: usize) -> Hop {
        let stack = &mut self.informers[i];
        stack.pop_pending = false;
        let Some(popped) = stack.pipeline.pop() else {
            return Hop::plain(Stage::Fifo, Stage::Informer, TraceKind::Pop, Outcome::PopEmpty);
        };
        let outcome = Outcome::Popped { deltas: popped.kinds, initial_list: popped.initial_list, batch: popped.keys };
        self.later(0, Msg::ProcessDelta(i));
        Hop::new(Stage::Fifo, Stage::Informer, TraceKind::Pop, &popped.key, popped.rv, outcome)
    }

    pub(super) fn deliver_process_delta(&mut self, i: usize) -> Hop {
        let stack = &mut self.informers[i];
        let Some(ProcessOutcome { applied, kind, batch, tombstone, more }) = stack.pipeline.process() else {
            self.schedule_pop(i);
            return Hop::plain(Stage::Informer, Stage::Indexer, TraceKind::IndexerWrite, Outcome::NothingToProcess);
        };
        let listeners = stack.pipeline.informer.listeners.len();
        let mut wake = Vec::new();
        for (l, was_idle) in &applied.notified {
            if *was_idle && !stack.listener_pending[*l] {
                stack.listener_pending[*l] = true;
                wake.push(*l);
            }
        }
        if !more {
            self.start_workers_once_synced();
            self.wake_waiting_reads();
        }
        for l in wake {
            self.later(0, Msg::ListenerRun(i, l));
        }
        if more {
            self.later(0, Msg::ProcessDelta(i));
        } else {
            self.schedule_pop(i);
        }
        let outcome = Outcome::Processed {
            delta: kind,
            batch,
            write: applied.write,
            call: applied.call,
            calls: applied.calls,
            tombstone,
            notified: applied.notified.len(),
            listeners,
        };
        Hop::new(Stage::Informer, Stage::Indexer, TraceKind::IndexerWrite, &applied.key, applied.rv, outcome)
    }

    pub(super) fn deliver_listener(&mut self, i: usize, l: usize) -> Hop {
        let stack = &mut self.informers[i];
        stack.listener_pending[l] = false;
        let Some(n) = stack.pipeline.informer.next_notification(l) else {
            return Hop::plain(Stage::Informer, Stage::Handler, TraceKind::HandlerCall, Outcome::NothingBuffered);
        };
        if !stack.pipeline.informer.listeners[l].buffer.is_empty() {
            stack.listener_pending[l] = true;
            self.later(0, Msg::ListenerRun(i, l));
        }
        let handler = self.informers[i].config.handlers[l].clone();
        let (key, rv) = (n.key(), n.resource_version());
        let primary = self.controllers.get(handler.controller).map(|c| c.reconciler.primary());
        let handled = handler::handle(handler.route, handler.filter.as_ref(), &handler.predicates, primary, n);
        let Handled { call, note, seen, request } = handled;
        // The "drop next event" what-if: a notification lost on its way to a handler that
        // feeds a controller.
        let lost = seen.is_some() && self.drop_next_notification && handler.route != Enqueue::Nothing;
        if lost {
            self.drop_next_notification = false;
            self.start_workers_once_synced();
            let outcome = Outcome::HandlerCalled { handler: handler.name, call, note, enqueued: None, lost: true };
            return Hop::new(Stage::Informer, Stage::Handler, TraceKind::EventLost, &key, rv, outcome);
        }
        if let (Some(seen), Enqueue::Owner) = (&seen, handler.route) {
            // The reconciler's expectations and edge-triggered counts learn of its own kind's
            // owned objects here, as the ReplicaSet controller's handlers tell them.
            if let Some(owner) = request.as_ref().map(|(key, _)| key.clone()) {
                let added = matches!(seen, Notification::Add { .. });
                let deleted = matches!(seen, Notification::Delete(_));
                self.controllers[handler.controller].reconciler.observe_owned(&owner, added, deleted);
            }
        }
        if let Some((target, priority)) = &request {
            self.later(0, Msg::WorkqueueAdd(handler.controller, target.clone(), *priority));
        }
        // A registration has synced once its handler returned from the last initial add, and
        // the handler's queue.Add is part of it (`processorListener.run`, synctrack): the
        // workers start after that add.
        self.start_workers_once_synced();
        let enqueued = request.map(|(target, _)| target);
        let outcome = Outcome::HandlerCalled { handler: handler.name, call, note, enqueued, lost: false };
        Hop::new(Stage::Informer, Stage::Handler, TraceKind::HandlerCall, &key, rv, outcome)
    }
}
