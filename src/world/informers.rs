//! The world's client-go half: per informer, the reflector's conversation with the API server
//! and the hops Reflector → DeltaFIFO → Pop → indexer → handlers (semantics §1–§4).

use super::config::{InformerConfig, Route};
use super::message::{FifoOp, Msg};
use super::{join, seconds, Hop, World};
use crate::client::delta_fifo::{Delta, DeltaType, Queue};
use crate::client::reflector::{self, Command, Reflector};
use crate::client::shared_informer::{Notification, SharedInformer};
use crate::cluster::api_server::ListOptions;
use crate::cluster::watch::{ApiWatchId, WatchEvent};
use crate::cluster::ApiObject;
use crate::sim::{Millis, Stage, TraceKind};
use std::collections::{BTreeSet, VecDeque};

/// One informer and everything that feeds it.
#[derive(Clone, Debug)]
pub struct InformerStack {
    pub config: InformerConfig,
    pub reflector: Reflector,
    pub informer: SharedInformer,
    /// The deltas of the item being processed, and its `isInInitialList`.
    popping: Option<(VecDeque<Delta>, bool)>,
    pop_pending: bool,
    listener_pending: Vec<bool>,
    /// Server-side watches whose events are forwarded to the reflector.
    pub(super) open_watches: BTreeSet<ApiWatchId>,
    /// Watches the client stopped reading: what is still in flight for them is lost.
    abandoned: BTreeSet<ApiWatchId>,
    resync_generation: u64,
    backoff_generation: u64,
}

impl InformerStack {
    pub(super) fn new(config: InformerConfig, resync_ms: Millis) -> Self {
        let mut informer = SharedInformer::new(resync_ms);
        for h in &config.handlers {
            informer.add_event_handler(&h.name, h.resync_ms.unwrap_or(resync_ms), 0);
        }
        // Indexes are registered before the informer starts, as `IndexField` is at set-up.
        informer.indexer.add_indexers(config.indexes.clone()).ok();
        informer.start(0);
        InformerStack {
            reflector: Reflector::new(config.reflector.clone(), 0),
            listener_pending: vec![false; config.handlers.len()],
            config,
            informer,
            popping: None,
            pop_pending: false,
            open_watches: BTreeSet::new(),
            abandoned: BTreeSet::new(),
            resync_generation: 0,
            backoff_generation: 0,
        }
    }

    /// Objects in this informer's cache, and their size as JSON.
    pub fn cache_size(&self) -> (usize, usize) {
        (self.informer.indexer.len(), self.informer.indexer.bytes())
    }

    /// The client stops reading a watch.
    pub(super) fn abandon(&mut self, id: ApiWatchId) {
        self.open_watches.remove(&id);
        self.abandoned.insert(id);
    }
}

fn describe_list(o: &ListOptions) -> String {
    let mut parts = vec![format!("resourceVersion={:?}", o.resource_version)];
    if o.limit > 0 {
        parts.push(format!("limit={}", o.limit));
    }
    if !o.continue_token.is_empty() {
        parts.push("continue=…".into());
    }
    if !o.label_selector.is_empty() {
        parts.push(format!("labelSelector={}", o.label_selector));
    }
    parts.join("&")
}

impl World {
    /// Forwards what the API server queued on every open watch stream.
    pub(super) fn flush_watch_events(&mut self) {
        for i in 0..self.informers.len() {
            for id in self.informers[i].open_watches.clone() {
                for event in self.api.take_events(id) {
                    self.later(self.config.latency_ms, Msg::WatchEvent(i, id, event));
                }
                if !self.api.watch_is_open(id) {
                    self.informers[i].open_watches.remove(&id);
                }
            }
        }
        self.flush_kubelet();
        for (id, kind) in self.console_watches.clone() {
            for event in self.api.take_events(id) {
                self.console_events.push((self.steps, self.now, kind, event));
            }
        }
    }

    fn run_reflector(&mut self, i: usize, input: reflector::Input) -> String {
        let commands = self.informers[i].reflector.handle(input, self.now, &mut self.rng);
        let notes: Vec<String> = commands.into_iter().filter_map(|c| self.carry_out(i, c)).collect();
        notes.join("; ")
    }

    /// Carries out one reflector command; returns a note for the trace summary.
    fn carry_out(&mut self, i: usize, command: Command) -> Option<String> {
        let fifo = |op| Msg::Fifo(i, op);
        match command {
            Command::List(options) => {
                let note = format!("LIST {}", describe_list(&options));
                self.later(self.config.latency_ms, Msg::ListRequest(i, options));
                Some(note)
            }
            Command::Watch { options, timeout_secs } => {
                let note = format!("WATCH from rv={:?}", options.resource_version);
                self.later(self.config.latency_ms, Msg::WatchRequest { informer: i, options, timeout_secs });
                Some(note)
            }
            Command::StopWatch(id) => {
                self.api.stop_watch(id);
                self.informers[i].abandon(id);
                None
            }
            Command::Replace { items, resource_version } => {
                self.later(0, fifo(FifoOp::Replace(items, resource_version)));
                None
            }
            Command::Add(o) => {
                self.later(0, fifo(FifoOp::Add(o)));
                None
            }
            Command::Update(o) => {
                self.later(0, fifo(FifoOp::Update(o)));
                None
            }
            Command::Delete(o) => {
                self.later(0, fifo(FifoOp::Delete(o)));
                None
            }
            Command::Backoff(delay) => {
                let stack = &mut self.informers[i];
                stack.backoff_generation += 1;
                let generation = stack.backoff_generation;
                self.later(delay, Msg::BackoffElapsed(i, generation));
                Some(format!("backoff {}", seconds(delay)))
            }
            Command::StartResync => {
                let stack = &mut self.informers[i];
                stack.resync_generation += 1;
                let (period, generation) = (stack.informer.resync_check_period(), stack.resync_generation);
                if period > 0 {
                    self.later(period, Msg::ResyncTick(i, generation));
                }
                None
            }
            Command::StopResync => {
                self.informers[i].resync_generation += 1;
                None
            }
        }
    }

    fn schedule_pop(&mut self, i: usize) {
        let stack = &mut self.informers[i];
        if !stack.pop_pending && stack.popping.is_none() && !stack.informer.fifo.is_empty() {
            stack.pop_pending = true;
            self.later(0, Msg::Pop(i));
        }
    }

    pub(super) fn deliver_list_request(&mut self, i: usize, options: ListOptions) -> Hop {
        let kind = self.informers[i].config.reflector.kind;
        let result = self.api.list(&self.user, kind, &options);
        let (trace_kind, summary, rv) = match &result {
            Ok(list) => (
                TraceKind::ListRequest,
                format!("{} → {} items at rv {}", describe_list(&options), list.items.len(), list.resource_version),
                list.resource_version,
            ),
            Err(s) => (TraceKind::RequestFailed, format!("{} → {} {}", describe_list(&options), s.code, s.reason), 0),
        };
        self.later(self.config.latency_ms, Msg::ListResponse(i, result));
        Hop::new(Stage::Reflector, Stage::ApiServer, trace_kind, "", rv, summary)
    }

    pub(super) fn deliver_reflector_input(&mut self, i: usize, input: reflector::Input) -> Hop {
        use reflector::Input;
        let (from, kind, rv, head) = match &input {
            Input::Start => (Stage::Reflector, TraceKind::ListRequest, 0, "ListAndWatch starts".to_string()),
            Input::ListResponse(Ok(list)) => (
                Stage::ApiServer,
                TraceKind::ListResponse,
                list.resource_version,
                format!("{} items at rv {}", list.items.len(), list.resource_version),
            ),
            Input::ListResponse(Err(s)) | Input::WatchOpened(Err(s)) => {
                (Stage::ApiServer, TraceKind::RequestFailed, 0, s.to_string())
            }
            Input::WatchOpened(Ok(id)) => {
                (Stage::ApiServer, TraceKind::WatchStarted, 0, format!("watch #{id} streaming"))
            }
            Input::BackoffElapsed => (Stage::Reflector, TraceKind::Backoff, 0, "backoff elapsed".into()),
            Input::WatchEnded | Input::Event(_) => (Stage::ApiServer, TraceKind::WatchClosed, 0, "watch ended".into()),
        };
        let note = self.run_reflector(i, input);
        Hop::new(from, Stage::Reflector, kind, "", rv, join(head, note))
    }

    pub(super) fn deliver_watch_request(
        &mut self,
        i: usize,
        options: crate::cluster::WatchOptions,
        timeout_secs: u64,
    ) -> Hop {
        let kind = self.informers[i].config.reflector.kind;
        let result = self.api.watch(&self.user, kind, &options);
        let summary = match &result {
            Ok(id) => {
                self.informers[i].open_watches.insert(*id);
                self.schedule_at(self.now + timeout_secs * 1000, Msg::WatchTimeout(i, *id));
                format!("watch #{id} from rv={:?}, timeoutSeconds={timeout_secs}", options.resource_version)
            }
            Err(s) => format!("{} {}", s.code, s.reason),
        };
        self.later(self.config.latency_ms, Msg::WatchOpened(i, result));
        self.flush_watch_events();
        let rv = options.resource_version.parse().unwrap_or(0);
        Hop::new(Stage::Reflector, Stage::ApiServer, TraceKind::WatchRequest, "", rv, summary)
    }

    pub(super) fn deliver_watch_timeout(&mut self, i: usize, id: ApiWatchId) -> Hop {
        if !self.api.watch_is_open(id) {
            return Hop::plain(
                Stage::ApiServer,
                Stage::ApiServer,
                TraceKind::WatchClosed,
                format!("watch #{id} already closed"),
            );
        }
        self.api.stop_watch(id);
        self.informers[i].open_watches.remove(&id);
        self.later(self.config.latency_ms, Msg::WatchEnded(i, id));
        let summary = format!("watch #{id} reached its timeout: the server ends the stream");
        Hop::plain(Stage::ApiServer, Stage::ApiServer, TraceKind::WatchClosed, summary)
    }

    pub(super) fn deliver_watch_ended(&mut self, i: usize, id: ApiWatchId) -> Hop {
        if self.informers[i].reflector.current_watch() != Some(id) {
            return Hop::new(
                Stage::ApiServer,
                Stage::Reflector,
                TraceKind::WatchClosed,
                "",
                0,
                format!("watch #{id} ended (no longer read)"),
            );
        }
        let note = self.run_reflector(i, reflector::Input::WatchEnded);
        let rv = self.informers[i].reflector.last_sync_resource_version.parse().unwrap_or(0);
        Hop::new(
            Stage::ApiServer,
            Stage::Reflector,
            TraceKind::WatchClosed,
            "",
            rv,
            join(format!("watch #{id} ended"), note),
        )
    }

    pub(super) fn deliver_backoff(&mut self, i: usize, generation: u64) -> Hop {
        if generation != self.informers[i].backoff_generation {
            return Hop::plain(Stage::Reflector, Stage::Reflector, TraceKind::Backoff, "stale backoff timer".into());
        }
        self.deliver_reflector_input(i, reflector::Input::BackoffElapsed)
    }

    pub(super) fn deliver_watch_event(&mut self, i: usize, id: ApiWatchId, event: WatchEvent) -> Hop {
        let kind = match &event {
            WatchEvent::Added(_) => TraceKind::Added,
            WatchEvent::Modified(_) => TraceKind::Modified,
            WatchEvent::Deleted(_) => TraceKind::Deleted,
            WatchEvent::Bookmark(_) => TraceKind::Bookmark,
            WatchEvent::Error(_) => TraceKind::WatchError,
        };
        let key = event.object().map(ApiObject::key).unwrap_or_default();
        let rv = event.resource_version();
        let stack = &self.informers[i];
        if stack.abandoned.contains(&id) || stack.reflector.current_watch() != Some(id) {
            let summary = format!("{} on watch #{id} lost: the stream was closed", event.type_name());
            return Hop::new(Stage::ApiServer, Stage::Reflector, TraceKind::EventLost, &key, rv, summary);
        }
        let head = match &event {
            WatchEvent::Error(s) => s.to_string(),
            other => format!("{} {key}", other.type_name()),
        };
        let note = self.run_reflector(i, reflector::Input::Event(event));
        Hop::new(Stage::ApiServer, Stage::Reflector, kind, &key, rv, join(head, note))
    }

    pub(super) fn deliver_resync(&mut self, i: usize, generation: u64) -> Hop {
        if generation != self.informers[i].resync_generation {
            return Hop::plain(Stage::Reflector, Stage::Reflector, TraceKind::Resync, "resync timer stopped".into());
        }
        let period = self.informers[i].informer.resync_check_period();
        self.later(period, Msg::ResyncTick(i, generation));
        let now = self.now;
        let informer = &mut self.informers[i].informer;
        let summary = if informer.should_resync(now) {
            let SharedInformer { fifo, indexer, .. } = informer;
            format!("Resync: {} Sync deltas for known objects", fifo.resync(indexer))
        } else {
            "resync check: no handler due".into()
        };
        self.schedule_pop(i);
        Hop::plain(Stage::Reflector, Stage::DeltaFifo, TraceKind::Resync, summary)
    }

    pub(super) fn deliver_fifo(&mut self, i: usize, op: FifoOp) -> Hop {
        let SharedInformer { fifo, indexer, .. } = &mut self.informers[i].informer;
        let (kind, key, rv, summary) = match op {
            FifoOp::Replace(items, rv) => {
                let n = items.len();
                fifo.replace(items, indexer);
                (
                    TraceKind::Replace,
                    String::new(),
                    rv,
                    format!("Replace({n} objects, rv {rv}): {} keys queued", fifo.len()),
                )
            }
            FifoOp::Add(o) => {
                let (key, rv) = (o.key(), o.resource_version());
                fifo.add(o);
                (TraceKind::DeltaQueued, key.clone(), rv, format!("Added {key}"))
            }
            FifoOp::Update(o) => {
                let (key, rv) = (o.key(), o.resource_version());
                fifo.update(o);
                (TraceKind::DeltaQueued, key.clone(), rv, format!("Updated {key}"))
            }
            FifoOp::Delete(o) => {
                let (key, rv) = (o.key(), o.resource_version());
                let note = if fifo.delete(o, indexer) { "" } else { " ignored: not known" };
                (TraceKind::DeltaQueued, key.clone(), rv, format!("Deleted {key}{note}"))
            }
        };
        let waiting = fifo.deltas(&key).map_or(0, <[Delta]>::len);
        let summary = if waiting > 1 { format!("{summary} ({waiting} deltas waiting)") } else { summary };
        self.schedule_pop(i);
        Hop::new(Stage::Reflector, Stage::DeltaFifo, kind, &key, rv, summary)
    }

    pub(super) fn deliver_pop(&mut self, i: usize) -> Hop {
        let stack = &mut self.informers[i];
        stack.pop_pending = false;
        let Some(popped) = stack.informer.fifo.pop() else {
            return Hop::plain(Stage::DeltaFifo, Stage::Informer, TraceKind::Pop, "queue empty".into());
        };
        let types: Vec<&str> = popped.deltas.iter().map(|d| d.kind.name()).collect();
        let rv = popped.deltas.last().map_or(0, |d| d.object.resource_version());
        let initial = if popped.is_in_initial_list { " (initial list)" } else { "" };
        let summary = format!("Pop {} [{}]{initial}", popped.key, types.join(", "));
        stack.popping = Some((popped.deltas.into(), popped.is_in_initial_list));
        self.later(0, Msg::ProcessDelta(i));
        Hop::new(Stage::DeltaFifo, Stage::Informer, TraceKind::Pop, &popped.key, rv, summary)
    }

    pub(super) fn deliver_process_delta(&mut self, i: usize) -> Hop {
        let stack = &mut self.informers[i];
        let Some((mut deltas, initial)) = stack.popping.take() else {
            return Hop::plain(Stage::Informer, Stage::Indexer, TraceKind::IndexerWrite, "nothing to process".into());
        };
        let Some(delta) = deltas.pop_front() else {
            self.schedule_pop(i);
            return Hop::plain(Stage::Informer, Stage::Indexer, TraceKind::IndexerWrite, "nothing to process".into());
        };
        let (kind, tombstone) = (delta.kind, delta.object.is_tombstone());
        let applied = stack.informer.process_delta(delta, initial);
        let listeners = stack.informer.listeners.len();
        let mut wake = Vec::new();
        for (l, was_idle) in &applied.notified {
            if *was_idle && !stack.listener_pending[*l] {
                stack.listener_pending[*l] = true;
                wake.push(*l);
            }
        }
        let more = !deltas.is_empty();
        if more {
            stack.popping = Some((deltas, initial));
        }
        for l in wake {
            self.later(0, Msg::ListenerRun(i, l));
        }
        if more {
            self.later(0, Msg::ProcessDelta(i));
        } else {
            self.schedule_pop(i);
        }
        let what = if tombstone { " (DeletedFinalStateUnknown)" } else { "" };
        let partial = matches!(kind, DeltaType::Sync | DeltaType::Replaced) && applied.notified.len() < listeners;
        let sync = if partial {
            format!(", {} of {listeners} handlers notified", applied.notified.len())
        } else {
            String::new()
        };
        let summary = format!(
            "{} {}: indexer {} → {}{what}{sync}",
            kind.name(),
            applied.key,
            applied.write,
            applied.notification
        );
        Hop::new(Stage::Informer, Stage::Indexer, TraceKind::IndexerWrite, &applied.key, applied.rv, summary)
    }

    pub(super) fn deliver_listener(&mut self, i: usize, l: usize) -> Hop {
        let stack = &mut self.informers[i];
        stack.listener_pending[l] = false;
        let Some(n) = stack.informer.next_notification(l) else {
            return Hop::plain(Stage::Informer, Stage::Handler, TraceKind::HandlerCall, "nothing buffered".into());
        };
        if !stack.informer.listeners[l].buffer.is_empty() {
            stack.listener_pending[l] = true;
            self.later(0, Msg::ListenerRun(i, l));
        }
        let handler = self.informers[i].config.handlers[l].clone();
        let (key, rv) = (n.key(), n.resource_version());
        if self.drop_next_notification && handler.route != Route::Record {
            self.drop_next_notification = false;
            let summary = format!("{}.{}({key}) lost before the handler ran (injected fault)", handler.name, n.name());
            return Hop::new(Stage::Informer, Stage::Handler, TraceKind::EventLost, &key, rv, summary);
        }
        let detail = match &n {
            Notification::Add { is_in_initial_list: true, .. } => " (isInInitialList)",
            Notification::Update { old, new } if old.metadata.resource_version == new.metadata.resource_version => {
                " (resync: same rv)"
            }
            Notification::Delete(d) if d.is_tombstone() => " (DeletedFinalStateUnknown)",
            _ => "",
        };
        let mut summary = format!("{}.{}({key}){detail}", handler.name, n.name());
        let target = match handler.route {
            Route::EnqueueSelf => Some(key.clone()),
            Route::EnqueueOwner => self.owner_key(&n),
            Route::Record => None,
        };
        if let Some(target) = target {
            summary.push_str(&format!(" → queue.Add({target})"));
            self.later(0, Msg::WorkqueueAdd(target));
        }
        Hop::new(Stage::Informer, Stage::Handler, TraceKind::HandlerCall, &key, rv, summary)
    }

    /// `EnqueueRequestForOwner`: the controlling owner's key, if it is the controller's kind.
    /// The reconciler's expectations and edge-triggered counts learn of the event here.
    fn owner_key(&mut self, n: &Notification) -> Option<String> {
        let obj = n.object()?;
        let owner = obj.metadata.owner_references.iter().find(|r| r.controller == Some(true))?;
        if owner.kind != self.reconciler.primary().name() {
            return None;
        }
        let key = format!("{}/{}", obj.metadata.namespace, owner.name);
        let added = matches!(n, Notification::Add { .. });
        let deleted = matches!(n, Notification::Delete(_));
        self.reconciler.observe_owned(&key, added, deleted);
        Some(key)
    }
}
