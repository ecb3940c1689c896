//! controller-runtime's informer cache as a controller's client reads it
//! (`pkg/cache/informer_cache.go` and `pkg/cache/internal/informers.go`, v0.18.5, v0.21.0 and
//! v0.25.2), semantics §6:
//!
//! - a read of a kind no informer watches starts one — a lazy informer, whose LIST and WATCH
//!   the API server sees like any other — and waits until it has synced (`Informers.Get`:
//!   `addInformerToMap`, then `WaitForCacheSync`, which polls every 100 ms);
//! - with `ReaderFailOnMissingInformer` (v0.16 on) such a read is `ErrResourceNotCached`;
//! - a read of a kind whose informer has not synced waits for it; with
//!   `ReaderFailOnMissingInformer`, v0.18 and v0.21 read the store as it is (`Peek`), v0.25
//!   waits (`Era::fail_fast_reader_waits_for_sync`).
//!
//! A lesson's read has no deadline: one whose informer never syncs (its LIST refused) waits
//! on. [`World::cache_read_within`] gives a read the deadline upstream's context would, and
//! its `Timeout: failed waiting for *v1.Secret Informer to sync`.
//! A lazy informer watches the whole cluster and has no handlers; the cache's scope options
//! apply to the first informer only.

use super::config::InformerConfig;
use super::message::Msg;
use super::outcome::Outcome;
use super::{resync_period, Hop, InformerStack, World};
use crate::cluster::selector::LabelSelector;
use crate::cluster::Kind;
use crate::controller::cache_reader::{CacheAnswer, CacheList, ClientRead, ReadError};
use crate::controller::handler::Enqueue;
use crate::kernel::{Millis, Stage, TraceKind};
use std::collections::BTreeMap;

/// `WaitForCacheSync`'s poll period (client-go `syncedPollPeriod`, all three releases).
pub const SYNCED_POLL_MS: Millis = 100;

/// A read waiting for its kind's informer to sync.
#[derive(Clone, Debug)]
pub(super) struct WaitingRead {
    read: ClientRead,
    since: Millis,
    informer: usize,
    /// Its answer is scheduled.
    answering: bool,
}

/// What a cache read does at once.
enum ReadStart {
    /// It answers now.
    Answer,
    /// It waits for informer `informer` to sync; `started`: the read started that informer.
    Wait { informer: usize, started: bool },
    /// No informer and `ReaderFailOnMissingInformer`.
    NotCached,
}

impl World {
    /// A controller's read of its cache, as a step: answered now, or waiting for its informer.
    pub(super) fn cache_read_step(&mut self, read: ClientRead) -> Outcome {
        let kind = read.kind();
        if self.now < self.config.cache_start_ms {
            return Outcome::CacheRead { read, answer: Err(ReadError::NotStarted), waited_ms: 0 };
        }
        match self.read_start(kind) {
            ReadStart::Answer => {
                let answer = self.read_cache(&read);
                Outcome::CacheRead { read, answer, waited_ms: 0 }
            }
            ReadStart::NotCached => Outcome::CacheRead { read, answer: Err(ReadError::NotCached(kind)), waited_ms: 0 },
            ReadStart::Wait { informer, started } => {
                self.waiting_reads.push(WaitingRead {
                    read: read.clone(),
                    since: self.now,
                    informer,
                    answering: false,
                });
                self.wake_waiting_reads();
                Outcome::CacheReadWaits { read, started }
            }
        }
    }

    fn read_start(&mut self, kind: Kind) -> ReadStart {
        let fail_fast = self.config.reader_fail_on_missing_informer;
        match self.informers.iter().position(|s| s.config.reflector.kind == kind) {
            None if fail_fast => ReadStart::NotCached,
            None => ReadStart::Wait { informer: self.start_lazy_informer(kind), started: true },
            Some(i) if self.informers[i].pipeline.informer.has_synced() => ReadStart::Answer,
            Some(_) if fail_fast && !self.config.era.fail_fast_reader_waits_for_sync() => ReadStart::Answer,
            Some(i) => ReadStart::Wait { informer: i, started: false },
        }
    }

    /// `addInformerToMap` on a started cache: a new informer on `kind`, started now.
    fn start_lazy_informer(&mut self, kind: Kind) -> usize {
        let config = InformerConfig { handlers: Vec::new(), ..InformerConfig::new(kind, Enqueue::Object) };
        let resync = resync_period(self.config.sync_period_ms, &mut self.rng);
        self.informers.push(InformerStack::new(config, resync, self.config.era, self.now));
        let i = self.informers.len() - 1;
        self.later(0, Msg::ReflectorStart(i));
        i
    }

    /// Schedules the answer of each waiting read whose informer has synced, at
    /// `WaitForCacheSync`'s next poll.
    pub(super) fn wake_waiting_reads(&mut self) {
        let now = self.now;
        let mut due = Vec::new();
        for (n, waiting) in self.waiting_reads.iter_mut().enumerate() {
            if !waiting.answering && self.informers[waiting.informer].pipeline.informer.has_synced() {
                waiting.answering = true;
                let polls = (now - waiting.since).div_ceil(SYNCED_POLL_MS);
                due.push((waiting.since + polls * SYNCED_POLL_MS, n));
            }
        }
        for (at, n) in due {
            self.schedule_at(at, Msg::CacheReadAnswer(n));
        }
    }

    pub(super) fn deliver_cache_read_answer(&mut self, n: usize) -> Hop {
        let WaitingRead { read, since, .. } = self.waiting_reads[n].clone();
        let answer = self.read_cache(&read);
        let key = read_key(&read);
        let outcome = Outcome::CacheRead { read, answer, waited_ms: self.now - since };
        Hop::new(Stage::Indexer, Stage::Reconciler, TraceKind::CacheRead, &key, 0, outcome)
    }

    /// `Get` and a change of labels on what it returned, never written: a deep copy's
    /// change is lost with the copy, the cache's own object's stays in the cache
    /// (`cache_reader.go`: `if c.disableDeepCopy { … } else { obj = obj.DeepCopyObject() }`).
    pub(super) fn cache_mutate_step(&mut self, kind: Kind, key: &str, labels: BTreeMap<String, String>) -> Outcome {
        let shared = self.config.unsafe_disable_deep_copy;
        let found = match self.informers.iter_mut().find(|s| s.config.reflector.kind == kind) {
            Some(stack) if shared => stack.pipeline.informer.indexer.mutate_in_place(key, |o| {
                o.metadata.labels.extend(labels.clone());
            }),
            Some(stack) => stack.pipeline.informer.indexer.get_by_key(key).is_some(),
            None => false,
        };
        Outcome::CacheMutated { kind, labels, found, shared }
    }

    /// A read made now and given `deadline_ms` of virtual time, as a caller's context would:
    /// the world runs until the read answers, or the deadline ends the wait.
    pub fn cache_read_within(&mut self, read: ClientRead, deadline_ms: Millis) -> Result<CacheAnswer, ReadError> {
        let kind = read.kind();
        let deadline = self.now + deadline_ms;
        self.act(super::Intervention::CacheRead(read));
        while self.next_time().is_some_and(|t| t <= deadline) {
            if let Some(Outcome::CacheRead { answer, .. }) = self.step().map(|e| e.outcome) {
                return answer;
            }
        }
        Err(ReadError::SyncTimeout(kind))
    }

    /// A controller-runtime read of the cache as it is, with what the indexer examined to
    /// answer.
    pub fn read_cache(&mut self, read: &ClientRead) -> Result<CacheAnswer, ReadError> {
        match read {
            ClientRead::Get { kind, namespace, name } => {
                self.cache_get(*kind, namespace, name).map(|_| CacheAnswer::Got)
            }
            ClientRead::List { kind, namespace, labels, field, limit, continue_token } => {
                let labels = LabelSelector::parse(labels).map_err(ReadError::Status)?;
                let opts = CacheList {
                    namespace: namespace.clone(),
                    labels,
                    field: field.clone(),
                    limit: *limit,
                    continue_token: continue_token.clone(),
                };
                let found = self.cache_list(*kind, &opts)?.len();
                let examined = self.informer_for(*kind).map_or(0, |s| s.pipeline.informer.indexer.last_scanned);
                let continue_token = self.config.era.cache_list_continue();
                Ok(CacheAnswer::Listed { found, examined, continue_token })
            }
        }
    }
}

/// The key a read names: a Get's object, none for a List.
pub(super) fn read_key(read: &ClientRead) -> String {
    match read {
        ClientRead::Get { namespace, name, .. } => format!("{namespace}/{name}"),
        ClientRead::List { .. } => String::new(),
    }
}
