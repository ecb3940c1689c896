//! What each panel of the page shows, computed from the session as plain values that compare
//! equal when nothing shown changed — so a panel re-renders only when its own view moves, and
//! what the page shows can be tested without a browser. The page (`ui/`) renders these.

pub mod compare;
pub mod diagram;
pub mod export;
pub mod glance;
pub mod host;

use crate::client::reflector::Phase;
use crate::cluster::mvcc_store::Event;
use crate::cluster::Kind;
use crate::i18n::{self, Lang, Phrase};
use crate::kernel::{Stage, TraceKind};
use crate::session::Session;
use crate::world::{TraceEvent, Worker};

/// Rows any list shows at most; the rest are counted.
pub const SHOWN: usize = 40;

/// One line of the event log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    pub step: u64,
    pub time: String,
    pub from: Stage,
    pub to: Stage,
    pub kind: TraceKind,
    pub summary: String,
}

impl LogLine {
    pub fn of(e: &TraceEvent, lang: Lang) -> Self {
        LogLine {
            step: e.step,
            time: i18n::seconds(e.time_ms),
            from: e.from,
            to: e.to,
            kind: e.kind,
            summary: i18n::summary(e, lang),
        }
    }
}

/// The newest `n` steps touching `filter` (all stages when `None`), newest first.
pub fn log(session: &Session, filter: Option<Stage>, n: usize) -> Vec<LogLine> {
    session
        .visible_trace()
        .iter()
        .rev()
        .filter(|e| filter.is_none_or(|s| e.from == s || e.to == s))
        .take(n)
        .map(|e| LogLine::of(e, session.lang()))
        .collect()
}

/// Two releases side by side: each column's newest steps (newest first), each marked when
/// the other release has no such step at that time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareView {
    pub left: (crate::era::Era, Vec<(LogLine, bool)>),
    pub right: (crate::era::Era, Vec<(LogLine, bool)>),
}

/// The compare view, when the session shows a second release.
pub fn compare(session: &Session, n: usize) -> Option<CompareView> {
    let other = session.compared()?;
    let (left, right) = (session.visible_trace(), other.visible_trace());
    // Only the recent past is shown: compare from where the older of the two windows starts.
    let window = |t: &[TraceEvent]| t.len().saturating_sub(n * 4);
    let since = left.get(window(left)).map_or(0, |e| e.time_ms).min(right.get(window(right)).map_or(0, |e| e.time_ms));
    let recent = |t: &'_ [TraceEvent]| t.len() - t.iter().rev().take_while(|e| e.time_ms >= since).count();
    let (l, r) = (&left[recent(left)..], &right[recent(right)..]);
    let (ld, rd) = crate::views::compare::differences(l, r);
    let column = |trace: &[TraceEvent], differs: Vec<bool>| {
        trace.iter().zip(differs).rev().take(n).map(|(e, d)| (LogLine::of(e, session.lang()), d)).collect()
    };
    Some(CompareView { left: (session.era(), column(l, ld)), right: (other.era(), column(r, rd)) })
}

/// One mark of the revision ruler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Etcd,
    Compacted,
    CacheOldest,
    Cache,
    Reflector,
    Indexer,
}

/// Who is behind the store, and by how much.
pub fn ruler(session: &Session) -> Vec<(Mark, i64)> {
    let world = session.world();
    let store = world.api.store();
    let kind = world.controllers.first().map_or(Kind::Pod, |c| c.reconciler.primary());
    let stack = world.informer_for(kind).or(world.informers.first());
    let mut marks = vec![(Mark::Etcd, store.revision())];
    if let Some(c) = store.compact_revision() {
        marks.push((Mark::Compacted, c));
    }
    if let Some(cache) = world.api.watch_cache(kind) {
        marks.push((Mark::CacheOldest, cache.oldest_servable()));
        marks.push((Mark::Cache, cache.revision()));
    }
    let reflector = stack.and_then(|s| s.reflector.last_sync_resource_version.parse().ok()).unwrap_or(0);
    marks.push((Mark::Reflector, reflector));
    marks.push((Mark::Indexer, stack.map_or(0, |s| s.informer.indexer.last_store_sync_resource_version())));
    marks
}

/// The cost panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostsView {
    pub requests: Vec<(String, u64)>,
    pub bytes_sent: u64,
    pub cached_objects: usize,
    pub cached_bytes: usize,
    /// Objects and bytes of the cached kinds in etcd, when a scope keeps some out.
    pub in_cluster: Option<(usize, usize)>,
    pub reconciles: u64,
    /// The chart's bars, oldest first, over the last `window` steps.
    pub bars: Vec<Bar>,
    pub window: usize,
    /// How many bars the chart has room for; the newest stands at the right end.
    pub room: usize,
}

/// One bar of the cost chart: the API requests and watch events of the steps
/// `at * steps .. (at + 1) * steps` of the run. Bars are cut at fixed steps, so taking a step
/// changes only the newest bar: the ones before keep their place (`at`) and their counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bar {
    pub at: usize,
    pub requests: usize,
    pub events: usize,
}

fn is_request(e: &TraceEvent) -> bool {
    matches!(
        e.kind,
        TraceKind::ListRequest
            | TraceKind::WatchRequest
            | TraceKind::ApiWrite
            | TraceKind::ApiRead
            | TraceKind::RequestFailed
    ) && e.to == Stage::ApiServer
}

fn is_event(e: &TraceEvent) -> bool {
    matches!(e.kind, TraceKind::Added | TraceKind::Modified | TraceKind::Deleted | TraceKind::Bookmark)
}

/// What the run costs, with a chart of about the last `window` steps in at most `room` bars.
pub fn costs(session: &Session, window: usize, room: usize) -> CostsView {
    let costs = session.world().costs();
    let trace = session.visible_trace();
    let room = room.max(1);
    let per_bar = trace.len().min(window).div_ceil(room).max(1);
    let end = trace.len().div_ceil(per_bar);
    let first = end.saturating_sub(room);
    CostsView {
        requests: costs.requests.into_iter().collect(),
        bytes_sent: costs.bytes_sent,
        cached_objects: costs.cached.iter().map(|(_, n, _)| n).sum(),
        cached_bytes: costs.cached.iter().map(|(_, _, b)| b).sum(),
        in_cluster: (!costs.in_cluster.is_empty())
            .then(|| costs.in_cluster.iter().fold((0, 0), |(n, b), (_, objects, bytes)| (n + objects, b + bytes))),
        reconciles: costs.reconciles,
        bars: trace[first * per_bar..]
            .chunks(per_bar)
            .zip(first..)
            .map(|(c, at)| Bar {
                at,
                requests: c.iter().filter(|e| is_request(e)).count(),
                events: c.iter().filter(|e| is_event(e)).count(),
            })
            .collect(),
        window: trace.len() - first * per_bar,
        room,
    }
}

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
    Indexers { indexers: Vec<IndexerView>, opened: Option<(String, String, String)> },
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
    /// (verb, resource, code, count).
    pub requests: Vec<(String, String, u16, u64)>,
    /// (watch id, resource, user, queued events).
    pub watchers: Vec<(u64, String, String, usize)>,
    /// (resource, objects, revision, oldest servable).
    pub caches: Vec<(String, usize, i64, i64)>,
}

pub fn inspector(session: &Session) -> InspectorView {
    let world = session.world();
    match session.inspected() {
        Stage::Store => {
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
                    Event::Put(kv) => HistoryRow::Change {
                        rev,
                        put: true,
                        key: kv.key,
                        version: kv.version,
                        created: kv.create_revision,
                    },
                    Event::Delete { key, .. } => HistoryRow::Change { rev, put: false, key, version: 0, created: 0 },
                });
            }
            if let Some(c) = compacted.filter(|_| !line_drawn) {
                rows.push(HistoryRow::Compaction(c));
            }
            InspectorView::Store { rows, hidden: store.history_len().saturating_sub(SHOWN * 5) }
        }
        Stage::ApiServer | Stage::User | Stage::Kubelet | Stage::Poller => {
            let api = &world.api;
            let metrics = api.metrics();
            InspectorView::ApiServer(ApiServerView {
                objects_sent: metrics.objects_sent,
                bytes_sent: metrics.bytes_sent,
                live_watchers: api.live_watchers(),
                requests: metrics.requests.iter().map(|((v, r, c), n)| (v.clone(), r.clone(), *c, *n)).collect(),
                watchers: api
                    .watchers()
                    .filter(|(_, w)| !w.closed)
                    .take(20)
                    .map(|(id, w)| (id, w.filter.kind.resource().to_string(), w.user.clone(), w.pending.len()))
                    .collect(),
                caches: Kind::ALL
                    .iter()
                    .filter_map(|k| {
                        api.watch_cache(*k)
                            .map(|c| (k.resource().to_string(), c.len(), c.revision(), c.oldest_servable()))
                    })
                    .collect(),
            })
        }
        Stage::Reflector => InspectorView::Reflectors(
            world
                .informers
                .iter()
                .map(|s| {
                    let r = &s.reflector;
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
        ),
        Stage::Fifo => InspectorView::Fifos(
            world
                .informers
                .iter()
                .map(|s| FifoView { kind: s.config.reflector.kind, queue: s.informer.fifo.view(SHOWN) })
                .collect(),
        ),
        Stage::Indexer | Stage::Informer => {
            let opened = session.opened().and_then(|key| {
                let obj = world.informers.iter().find_map(|s| s.informer.indexer.get_by_key(key))?;
                let yaml = crate::console::yaml::to_yaml(&serde_json::to_value(obj).unwrap_or_default());
                Some((format!("{} {}", obj.kind, obj.key()), obj.metadata.resource_version.clone(), yaml))
            });
            let indexers = world
                .informers
                .iter()
                .map(|s| {
                    let ix = &s.informer.indexer;
                    IndexerView {
                        kind: s.config.reflector.kind,
                        objects: ix.len(),
                        newest_rv: ix.last_store_sync_resource_version(),
                        last_scanned: ix.last_scanned,
                        shown: ix
                            .objects()
                            .take(SHOWN)
                            .map(|o| (o.key(), o.metadata.resource_version.clone()))
                            .collect(),
                        indexes: ix
                            .indexers()
                            .map(|(name, _)| (name.clone(), ix.list_index_func_values(name).len()))
                            .collect(),
                    }
                })
                .collect();
            InspectorView::Indexers { indexers, opened }
        }
        Stage::Handler => InspectorView::Handlers(
            world
                .informers
                .iter()
                .flat_map(|s| {
                    s.informer.listeners.iter().map(|l| HandlerView {
                        kind: s.config.reflector.kind,
                        name: l.name.clone(),
                        buffered: l.buffer.len(),
                        delivered: l.delivered,
                        resync_ms: l.resync_period_ms,
                    })
                })
                .collect(),
        ),
        Stage::Workqueue => InspectorView::Workqueues(
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
        ),
        Stage::Reconciler => {
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
    }
}

/// One object of the objects table: (kind, key, resourceVersion). Its manifest is written
/// only when it is opened for editing ([`manifest`]): not for every row at every step.
pub type ObjectRow = (Kind, String, String);

/// The first objects in the cluster, and how many there are.
pub fn objects(session: &Session, n: usize) -> (Vec<ObjectRow>, usize) {
    let api = &session.world().api;
    let total = Kind::ALL.iter().filter_map(|k| api.watch_cache(*k)).map(|c| c.len()).sum();
    let rows = Kind::ALL
        .iter()
        .filter_map(|k| api.watch_cache(*k).map(|c| (k, c)))
        .flat_map(|(k, c)| c.list("").map(move |o| (*k, o)))
        .take(n)
        .map(|(k, o)| (k, o.key(), o.metadata.resource_version.clone()))
        .collect();
    (rows, total)
}

/// An object of the cluster as JSON, for the write form.
pub fn manifest(session: &Session, kind: Kind, key: &str) -> Option<String> {
    session.world().api.watch_cache(kind)?.list("").find(|o| o.key() == key).map(|o| o.to_json_pretty())
}

/// A question as the lesson panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionView {
    pub index: usize,
    pub ask: crate::scenario::Text,
    pub choices: Vec<crate::scenario::Text>,
    pub answer: usize,
    pub explain: crate::scenario::Text,
    pub given: Option<usize>,
}

/// The lesson panel: the bundled lessons, the one playing, its summary, the narration in
/// force and the questions asked so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonView {
    /// (id, title, beyond the articles) of every bundled lesson, in teaching order.
    pub lessons: Vec<(String, crate::scenario::Text, bool)>,
    /// The release the world behaves as, and those it may switch to (a lesson's declared
    /// eras; every era in free play).
    pub era: crate::era::Era,
    pub eras: Vec<crate::era::Era>,
    /// The release shown beside it, if any.
    pub compared: Option<crate::era::Era>,
    pub current: Option<String>,
    pub summary: Option<crate::scenario::Text>,
    pub narration: Option<(crate::scenario::Text, Option<Stage>)>,
    pub questions: Vec<QuestionView>,
    /// At the end of the run, once every question is answered: the lesson's recap and its
    /// questions for the room.
    pub closing: Option<(Option<crate::scenario::Text>, Vec<crate::scenario::Text>)>,
}

/// Whether the person has answered every question of the lesson: until then its summary,
/// which tells what happens, stays hidden (it would give the answers away).
fn every_question_answered(session: &Session) -> bool {
    let asked = session.scenario().map_or(0, |s| s.questions.len());
    session.questions().iter().filter(|(_, _, given)| given.is_some()).count() == asked
}

pub fn lesson(session: &Session) -> LessonView {
    let lessons =
        crate::scenario::library::index().iter().map(|(_, s)| (s.id.clone(), s.title.clone(), s.extra)).collect();
    let eras = session
        .scenario()
        .and_then(|s| crate::scenario::library::find(&s.id))
        .map_or(crate::era::Era::ALL.to_vec(), |lesson| lesson.declared_eras());
    LessonView {
        lessons,
        era: session.era(),
        compared: session.compared().map(Session::era),
        eras,
        current: session.scenario().map(|s| s.id.clone()),
        summary: session.scenario().filter(|_| every_question_answered(session)).map(|s| s.summary.clone()),
        narration: session.narration().map(|(text, look)| (text.clone(), look)),
        questions: session
            .questions()
            .into_iter()
            .map(|(index, q, given)| QuestionView {
                index,
                ask: q.ask.clone(),
                choices: q.choices.clone(),
                answer: q.answer,
                explain: q.explain.clone(),
                given,
            })
            .collect(),
        closing: session
            .scenario()
            .filter(|s| s.recap.is_some() || !s.discuss.is_empty())
            .filter(|_| session.lesson_ended() && every_question_answered(session))
            .map(|s| (s.recap.clone(), s.discuss.clone())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Action;

    #[test]
    fn an_objects_row_opens_as_its_manifest() {
        let s = Session::from_query("");
        let (rows, total) = objects(&s, 50);
        assert!(!rows.is_empty() && total >= rows.len());
        for (kind, key, rv) in rows {
            let manifest: serde_json::Value = serde_json::from_str(&manifest(&s, kind, &key).unwrap()).unwrap();
            assert_eq!(manifest["kind"], kind.name());
            assert_eq!(
                format!(
                    "{}/{}",
                    manifest["metadata"]["namespace"].as_str().unwrap(),
                    manifest["metadata"]["name"].as_str().unwrap()
                ),
                key
            );
            assert_eq!(manifest["metadata"]["resourceVersion"], rv.as_str());
        }
        assert_eq!(manifest(&s, Kind::Pod, "default/no-such-pod"), None);
    }

    #[test]
    fn two_releases_advance_together_and_their_differences_are_marked() {
        let mut s = Session::from_query("?scenario=delta-fifo-grouping&compare=1.33");
        let other = s.compared().expect("compared");
        assert_eq!((s.era(), other.era()), (crate::era::Era::V1_30, crate::era::Era::V1_33));
        s.apply(Action::JumpTo(120));
        let other = s.compared().unwrap();
        assert!(other.world().now() <= s.world().now());
        assert!(other.world().next_time().is_none_or(|t| t > s.world().now()), "the other side is at the same instant");
        let view = compare(&s, 200).unwrap();
        let pops = |col: &[(LogLine, bool)]| col.iter().filter(|(l, d)| *d && l.kind == TraceKind::Pop).count();
        assert!(pops(&view.left.1) >= 1, "1.30's grouped Pop has no counterpart");
        assert!(pops(&view.right.1) >= 3, "1.33 pops each delta on its own");
        assert_eq!(s.link().compare, Some(crate::era::Era::V1_33));
        s.apply(Action::Fault(crate::world::Fault::DisconnectWatch));
        let other = s.compared().unwrap();
        assert!(other.visible_trace().iter().any(|e| e.kind == TraceKind::Fault), "the fault reaches both releases");
        s.apply(Action::StepBack);
        s.apply(Action::Compare(None));
        assert!(s.compared().is_none());
    }

    #[test]
    fn a_lessons_summary_waits_until_its_question_is_answered() {
        let mut s = Session::with_scenario("disconnect-and-resume").unwrap();
        assert_eq!(lesson(&s).summary, None, "the summary would give the answer away");
        s.apply(Action::JumpTo(40));
        assert_eq!(lesson(&s).questions.len(), 1);
        s.apply(Action::Answer(0, 0));
        assert!(lesson(&s).summary.is_some(), "answered: the summary is the recap");
    }

    #[test]
    fn a_lessons_recap_and_questions_for_the_room_come_at_its_end_once_its_question_is_answered() {
        let mut s = Session::with_scenario("resync").unwrap();
        let end = {
            let lesson = s.scenario().unwrap();
            crate::scenario::run(lesson).unwrap().1.len() as u64
        };
        s.apply(Action::JumpTo(end));
        assert!(s.lesson_ended());
        assert_eq!(lesson(&s).closing, None, "the question is not answered yet");
        s.apply(Action::Answer(0, 1));
        let (recap, discuss) = lesson(&s).closing.expect("the end, answered");
        assert!(recap.is_some_and(|r| r.en.contains("not a relist")));
        assert_eq!(discuss.len(), 1, "the article's question on the resync period");
        s.apply(Action::JumpTo(end - 1));
        assert!(!s.lesson_ended() && lesson(&s).closing.is_none(), "one step back, the run is not over");
    }

    #[test]
    fn a_step_changes_only_the_newest_bar_of_the_cost_chart() {
        let mut s = Session::default();
        for n in [30, 39, 400, 401, 1_000] {
            s.apply(Action::JumpTo(n));
            let before = costs(&s, 400, 40);
            s.apply(Action::StepForward);
            let after = costs(&s, 400, 40);
            let trace = s.visible_trace();
            let counted = |v: &CostsView| v.bars.iter().map(|b| b.requests + b.events).sum::<usize>();
            let recent = &trace[trace.len() - after.window..];
            assert_eq!(counted(&after), recent.iter().filter(|e| is_request(e) || is_event(e)).count(), "at {n}");
            assert!(
                after.bars.len() <= 40 && after.window <= 400 && after.window + 10 > trace.len().min(400),
                "at {n}"
            );
            assert!(after.bars.windows(2).all(|w| w[1].at == w[0].at + 1), "at {n}: bars in order");
            let kept: Vec<_> = before.bars.iter().filter(|b| after.bars.iter().any(|a| a.at == b.at)).collect();
            let unchanged = kept.iter().filter(|b| after.bars.contains(b)).count();
            assert!(unchanged + 1 >= kept.len(), "at {n}: a step changed more than the newest bar");
        }
    }

    #[test]
    fn views_follow_the_session_and_compare_equal_when_nothing_changed() {
        let mut s = Session::default();
        s.apply(Action::JumpTo(40));
        let before = (log(&s, None, 5), costs(&s, 400, 40), ruler(&s));
        assert_eq!(before, (log(&s, None, 5), costs(&s, 400, 40), ruler(&s)), "the same step, the same views");
        assert_eq!(before.0[0].step, 40);
        s.apply(Action::Inspect(Stage::Fifo));
        assert!(matches!(inspector(&s), InspectorView::Fifos(f) if f.len() == 3 && f[0].queue.name == "RealFIFO"));
        s.apply(Action::StepForward);
        assert_ne!(before.0, log(&s, None, 5), "a step moves the log");
        let english = log(&s, None, 40);
        s.apply(Action::SetLang(Lang::Ko));
        let korean = log(&s, None, 40);
        assert!(english.iter().zip(&korean).any(|(en, ko)| en.summary != ko.summary), "summaries follow the language");
    }
}
