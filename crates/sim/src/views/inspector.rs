//! What the inspector shows for the stage it is open on: the store's history, the API server's
//! metrics and watch caches, reflectors, FIFOs, indexers, handlers, the workqueue and workers.

use super::*;
use crate::world::World;

/// A reflector's state in an inspector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReflectorView {
    pub kind: Kind,
    pub phase: Phrase,
    pub next_try_ms: Option<u64>,
    pub last_sync_resource_version: String,
    pub lists: u64,
    pub watches: u64,
    pub log: Vec<String>,
}

/// A FIFO's contents in an inspector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FifoView {
    pub kind: Kind,
    pub queue: crate::client::queue::QueueView,
}

/// An indexer's contents in an inspector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexerView {
    pub kind: Kind,
    pub objects: usize,
    pub newest_rv: i64,
    pub last_scanned: usize,
    /// (key, resourceVersion) of the first objects.
    pub shown: Vec<(String, String)>,
    /// (index name, values).
    pub indexes: Vec<(String, usize)>,
}

/// A handler (listener) in an inspector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandlerView {
    pub kind: Kind,
    pub name: String,
    pub buffered: usize,
    pub delivered: u64,
    pub resync_ms: u64,
}

/// The workqueue's sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkqueueView {
    /// The controller it belongs to.
    pub controller: String,
    /// controller-runtime's priority queue (false: client-go's FIFO workqueue).
    pub prioritised: bool,
    /// The ready line in hand-out order, with priorities.
    pub queue: Vec<(String, i32)>,
    pub dirty: Vec<String>,
    pub processing: Vec<String>,
    /// (key, ready at ms).
    pub waiting: Vec<(String, u64)>,
}

/// One row of the store's revision history (`None` key: the compaction line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryRow {
    Change { rev: i64, put: bool, key: String, version: i64, created: i64 },
    Compaction(i64),
}

/// What the inspector shows for the stage it is open on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InspectorView {
    Store { rows: Vec<HistoryRow>, hidden: usize },
    ApiServer(ApiServerView),
    Reflectors(Vec<ReflectorView>),
    Fifos(Vec<FifoView>),
    Indexers { indexers: Vec<IndexerView>, opened: Option<OpenedObject> },
    Handlers(Vec<HandlerView>),
    Workqueues(Vec<WorkqueueView>),
    Workers { workers: Vec<Option<(String, u64)>>, reconciles: u64, requeues: u64, last: Vec<LogLine> },
}

/// The API server's metrics, streams and watch caches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiServerView {
    pub objects_sent: u64,
    pub bytes_sent: u64,
    pub live_watchers: usize,
    pub requests: Vec<RequestCount>,
    pub watchers: Vec<WatcherRow>,
    pub caches: Vec<CacheRow>,
}

/// Requests of one verb, resource and code (like `apiserver_request_total`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestCount {
    pub verb: crate::cluster::Verb,
    pub resource: String,
    pub code: u16,
    pub count: u64,
}

/// An open watch stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatcherRow {
    pub id: u64,
    pub resource: String,
    pub user: String,
    /// Events waiting to be sent.
    pub queued: usize,
}

/// A resource's watch cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheRow {
    pub resource: String,
    pub objects: usize,
    pub revision: i64,
    /// The oldest resourceVersion a watch can resume from.
    pub oldest: i64,
}

/// A cached object opened in the inspector, as YAML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedObject {
    /// `Kind namespace/name`.
    pub title: String,
    pub resource_version: String,
    /// `None` until the console, which prints YAML, is here.
    pub yaml: Option<String>,
}

pub fn inspector(session: &Session) -> InspectorView {
    let world = session.world();
    match session.inspected() {
        Stage::Store => store(world),
        Stage::ApiServer | Stage::User | Stage::Kubelet | Stage::Poller => api_server(world),
        Stage::Reflector => reflectors(world),
        Stage::Fifo => fifos(world),
        Stage::Indexer | Stage::Informer => indexers(session),
        Stage::Handler => handlers(world),
        Stage::Workqueue => workqueues(world),
        Stage::Reconciler => workers(session),
    }
}

fn store(world: &World) -> InspectorView {
    let store = world.api.store();
    let compacted = store.compact_revision();
    let mut rows = Vec::new();
    let mut line_drawn = false;
    for (rev, event) in store.history().rev().take(SHOWN * 5) {
        if let Some(c) = compacted.filter(|c| rev <= *c && !line_drawn) {
            rows.push(HistoryRow::Compaction(c));
            line_drawn = true;
        }
        rows.push(match event {
            Event::Put(kv) => {
                HistoryRow::Change { rev, put: true, key: kv.key, version: kv.version, created: kv.create_revision }
            }
            Event::Delete { key, .. } => HistoryRow::Change { rev, put: false, key, version: 0, created: 0 },
        });
    }
    if let Some(c) = compacted.filter(|_| !line_drawn) {
        rows.push(HistoryRow::Compaction(c));
    }
    InspectorView::Store { rows, hidden: store.history_len().saturating_sub(SHOWN * 5) }
}

fn api_server(world: &World) -> InspectorView {
    let api = &world.api;
    let metrics = api.metrics();
    InspectorView::ApiServer(ApiServerView {
        objects_sent: metrics.objects_sent,
        bytes_sent: metrics.bytes_sent,
        live_watchers: api.live_watchers(),
        requests: metrics
            .requests
            .iter()
            .map(|((verb, resource, code), count)| RequestCount {
                verb: *verb,
                resource: resource.clone(),
                code: *code,
                count: *count,
            })
            .collect(),
        watchers: api
            .watchers()
            .filter(|(_, w)| !w.closed)
            .take(20)
            .map(|(id, w)| WatcherRow {
                id,
                resource: w.filter.kind.resource().to_string(),
                user: w.user.clone(),
                queued: w.pending.len(),
            })
            .collect(),
        caches: Kind::ALL
            .iter()
            .filter_map(|k| {
                api.watch_cache(*k).map(|c| CacheRow {
                    resource: k.resource().to_string(),
                    objects: c.len(),
                    revision: c.revision(),
                    oldest: c.oldest_servable(),
                })
            })
            .collect(),
    })
}

fn reflectors(world: &World) -> InspectorView {
    InspectorView::Reflectors(
        world
            .informers
            .iter()
            .map(|s| {
                let r = &s.pipeline.reflector;
                ReflectorView {
                    kind: s.config.reflector.kind,
                    phase: phase(&r.phase),
                    next_try_ms: match r.phase {
                        Phase::BackingOff { until, .. } => Some(until),
                        _ => None,
                    },
                    last_sync_resource_version: r.last_sync_resource_version.clone(),
                    lists: r.lists,
                    watches: r.watches,
                    log: r.log.iter().skip(r.log.len().saturating_sub(12)).map(ToString::to_string).collect(),
                }
            })
            .collect(),
    )
}

fn fifos(world: &World) -> InspectorView {
    InspectorView::Fifos(
        world
            .informers
            .iter()
            .map(|s| FifoView { kind: s.config.reflector.kind, queue: s.pipeline.informer.fifo.view(SHOWN) })
            .collect(),
    )
}

fn indexers(session: &Session) -> InspectorView {
    let world = session.world();
    let opened = session.opened().and_then(|key| {
        let obj = world.informers.iter().find_map(|s| s.pipeline.informer.indexer.get_by_key(key))?;
        // (Printed by the console's YAML writer, once the console is here.)
        let yaml =
            crate::console::engine().map(|console| (console.yaml)(&serde_json::to_value(obj).unwrap_or_default()));
        Some(OpenedObject {
            title: format!("{} {}", obj.kind, obj.key()),
            resource_version: obj.metadata.resource_version.clone(),
            yaml,
        })
    });
    let indexers = world
        .informers
        .iter()
        .map(|s| {
            let ix = &s.pipeline.informer.indexer;
            IndexerView {
                kind: s.config.reflector.kind,
                objects: ix.len(),
                newest_rv: ix.last_store_sync_resource_version(),
                last_scanned: ix.last_scanned,
                shown: ix.objects().take(SHOWN).map(|o| (o.key(), o.metadata.resource_version.clone())).collect(),
                indexes: ix.indexers().map(|(name, _)| (name.clone(), ix.list_index_func_values(name).len())).collect(),
            }
        })
        .collect();
    InspectorView::Indexers { indexers, opened }
}

fn handlers(world: &World) -> InspectorView {
    InspectorView::Handlers(
        world
            .informers
            .iter()
            .flat_map(|s| {
                s.pipeline.informer.listeners.iter().map(|l| HandlerView {
                    kind: s.config.reflector.kind,
                    name: l.name.clone(),
                    buffered: l.buffer.len(),
                    delivered: l.delivered,
                    resync_ms: l.resync_period_ms,
                })
            })
            .collect(),
    )
}

fn workqueues(world: &World) -> InspectorView {
    InspectorView::Workqueues(
        world
            .controllers
            .iter()
            .map(|c| {
                let q = &c.queue;
                WorkqueueView {
                    controller: c.name.clone(),
                    prioritised: q.is_prioritised(),
                    queue: q.queued().take(SHOWN).map(|(k, p)| (k.clone(), p)).collect(),
                    dirty: q.dirty().take(SHOWN).cloned().collect(),
                    processing: q.processing().take(SHOWN).cloned().collect(),
                    waiting: q.waiting().take(SHOWN).map(|(k, at)| (k.clone(), *at)).collect(),
                }
            })
            .collect(),
    )
}

fn workers(session: &Session) -> InspectorView {
    let world = session.world();
    let costs = world.costs();
    InspectorView::Workers {
        workers: world
            .workers
            .iter()
            .map(|w| match w {
                Worker::Idle => None,
                Worker::Reconciling { key, since, .. } => Some((key.clone(), *since)),
            })
            .collect(),
        reconciles: costs.reconciles,
        requeues: costs.requeues,
        last: session
            .visible_trace()
            .iter()
            .rev()
            .filter(|e| e.kind == TraceKind::ReconcileEnd)
            .take(6)
            .map(|e| LogLine::of(e, session.lang()))
            .collect(),
    }
}

/// A reflector's phase in the page's words.
fn phase(p: &Phase) -> Phrase {
    match p {
        Phase::Idle => phrase!("idle"),
        Phase::Listing => phrase!("listing"),
        Phase::WatchRequested => phrase!("opening watch"),
        Phase::Watching { .. } => phrase!("watching"),
        Phase::WatchListRequested => phrase!("opening watch-list"),
        Phase::Streaming { .. } => phrase!("streaming initial events"),
        Phase::BackingOff { .. } => phrase!("backing off"),
    }
}
