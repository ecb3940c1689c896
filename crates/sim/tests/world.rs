//! The whole pipeline end to end, one message per step (semantics §1–§5, §8, §9).

use informer_sim::client::delta_fifo::DeltaType;
use informer_sim::cluster::Verb;
use informer_sim::cluster::{ApiObject, ApiServerConfig, Kind};
use informer_sim::era::Era;
use informer_sim::kernel::TraceKind;
use informer_sim::world::outcome::{CallNote, Listed, Next, Outcome, ResyncOutcome};
use informer_sim::world::{Enqueue, Fault, HandlerConfig, Intervention, Tag, TraceEvent, World, WorldConfig};
use serde_json::json;
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

fn cm(name: &str, value: &str) -> ApiObject {
    ApiObject::new(Kind::ConfigMap, "default", name).with("data", json!({"v": value}))
}

fn world_with(config: WorldConfig, names: &[&str]) -> World {
    World::new(config, names.iter().map(|n| cm(n, "0")).collect()).expect("world")
}

fn world(names: &[&str]) -> World {
    world_with(WorldConfig::new(Kind::ConfigMap), names)
}

fn world_in(era: Era, names: &[&str]) -> World {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = era;
    world_with(config, names)
}

/// The store's objects as `key → rv`, to compare with the indexer.
fn store_state(w: &World) -> BTreeMap<String, String> {
    let list = w.api.store().range(&informer_sim::cluster::KeyRange::prefix("/registry/configmaps/"), 0, 0).unwrap();
    list.kvs
        .iter()
        .map(|kv| (kv.key.trim_start_matches("/registry/configmaps/").to_string(), kv.mod_revision.to_string()))
        .collect()
}

fn cache_state(w: &World) -> BTreeMap<String, String> {
    w.informer().indexer.objects().map(|o| (o.key(), o.metadata.resource_version.clone())).collect()
}

/// What the controller's handler was called with: (function, key, rv).
fn handler_calls(trace: &[TraceEvent]) -> Vec<(String, String, i64)> {
    trace
        .iter()
        .filter(|e| e.kind == TraceKind::HandlerCall)
        .filter_map(|e| match &e.outcome {
            Outcome::HandlerCalled { handler, call, .. } => {
                Some((format!("{handler}.{}", call.name()), e.key.clone(), e.rv))
            }
            _ => None,
        })
        .collect()
}

fn update(w: &World, name: &str, value: &str) -> Intervention {
    let key = informer_sim::cluster::KeyRange::single(format!("/registry/configmaps/default/{name}"));
    let mut obj = ApiObject::from_json(&w.api.store().range(&key, 0, 1).unwrap().kvs[0].value.text()).unwrap();
    obj.body.insert("data".into(), json!({"v": value}));
    Intervention::Update(obj)
}

fn delete(name: &str) -> Intervention {
    Intervention::Delete { kind: Kind::ConfigMap, namespace: "default".into(), name: name.into() }
}

#[test]
fn semantics_1_2_list_then_watch_hands_the_resource_version_over() {
    for era in [Era::V1_30, Era::V1_33] {
        list_then_watch(era);
    }
}

fn list_then_watch(era: Era) {
    let mut w = world_in(era, &["a", "b"]);
    let trace = w.run_until_idle(500);
    let kinds: Vec<TraceKind> = trace.iter().map(|e| e.kind).collect();
    let first_list = trace
        .iter()
        .find(|e| e.kind == TraceKind::ListRequest && e.from.name() == "reflector" && e.to.name() == "api-server")
        .unwrap();
    let Outcome::ListServed { request, answer } = &first_list.outcome else { panic!("{first_list:?}") };
    assert_eq!((request.resource_version.as_str(), request.limit), ("0", 500));
    assert_eq!(answer, &Ok(Listed { items: 2, resource_version: 3 }));
    let watch = trace.iter().find(|e| e.kind == TraceKind::WatchRequest).unwrap();
    assert_eq!(watch.rv, 3, "the watch starts from the list's resourceVersion");
    assert!(kinds.contains(&TraceKind::Replace));
    assert_eq!(kinds.iter().filter(|k| **k == TraceKind::Pop).count(), 2);
    assert_eq!(
        handler_calls(&trace).iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        vec!["controller.OnAdd", "controller.OnAdd"]
    );
    assert_eq!(kinds.iter().filter(|k| **k == TraceKind::ReconcileEnd).count(), 2);
    assert!(w.informer().has_synced());
    assert_eq!(cache_state(&w), store_state(&w));

    w.act(Intervention::Create(cm("c", "1")));
    let trace = w.run_until_idle(100);
    let route: Vec<(&str, &str, TraceKind)> = trace.iter().map(|e| (e.from.name(), e.to.name(), e.kind)).collect();
    assert_eq!(
        route,
        vec![
            ("user", "api-server", TraceKind::ApiWrite),
            ("api-server", "reflector", TraceKind::Added),
            ("reflector", "fifo", TraceKind::DeltaQueued),
            ("fifo", "informer", TraceKind::Pop),
            ("informer", "indexer", TraceKind::IndexerWrite),
            ("informer", "handler", TraceKind::HandlerCall),
            ("handler", "workqueue", TraceKind::WorkqueueAdd),
            ("workqueue", "reconciler", TraceKind::WorkqueueGet),
            ("reconciler", "workqueue", TraceKind::ReconcileEnd),
            ("reconciler", "workqueue", TraceKind::WorkqueueDone),
        ],
        "every hop of one event is one step"
    );
    assert_eq!(trace[1].rv, 4);
    assert_eq!(w.reflector().last_sync_resource_version, "4");
}

fn run_fingerprint(seed: u64) -> (u64, usize) {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.seed = seed;
    let mut w = world_with(config, &["a", "b", "c"]);
    w.run_until_idle(500);
    w.act(Intervention::Fault(Fault::DisconnectWatch));
    w.act(Intervention::Create(cm("d", "1")));
    w.act(Intervention::Fault(Fault::RestartApiServer));
    w.act_at(30_000, delete("a"));
    let mut trace = w.run_until_idle(2_000);
    trace.extend(w.run_until(200, |_, _| false));
    let mut hasher = DefaultHasher::new();
    for e in &trace {
        serde_json::to_string(e).unwrap().hash(&mut hasher);
    }
    (hasher.finish(), trace.len())
}

#[test]
fn semantics_9_same_seed_and_actions_give_an_identical_trace() {
    let (a, n) = run_fingerprint(42);
    let (b, m) = run_fingerprint(42);
    assert_eq!((a, n), (b, m));
    assert!(n > 50);
    let (c, _) = run_fingerprint(43);
    assert_ne!(a, c, "the seed changes jitter, timeouts and so the trace");
}

#[test]
fn semantics_1_2_disconnect_resumes_from_the_last_rv_with_nothing_lost_or_repeated() {
    for era in Era::ALL {
        disconnect_resumes(era);
    }
}

fn disconnect_resumes(era: Era) {
    let mut w = world_in(era, &["a", "b"]);
    let mut trace = w.run_until_idle(500);
    // Five seconds in, three writes whose events are still in flight when the connection drops.
    w.act_at(5_000, Intervention::Create(cm("c", "1")));
    w.act_at(5_000, update(&w, "a", "1"));
    w.act_at(5_000, delete("b"));
    w.act_at(5_000, Intervention::Fault(Fault::DisconnectWatch));
    w.act_at(5_000, Intervention::Create(cm("d", "1")));
    trace.extend(w.run_until_idle(500));
    let lost = trace.iter().filter(|e| e.kind == TraceKind::EventLost).count();
    assert!(lost > 0, "some events were in flight when the connection dropped");
    let rewatch: Vec<&TraceEvent> =
        trace.iter().filter(|e| e.kind == TraceKind::WatchRequest && e.to.name() == "api-server").collect();
    assert_eq!(rewatch.len(), 2, "{era}: {rewatch:?}");
    assert!(rewatch[1].rv >= 3, "the new watch starts from the last RV the reflector saw");
    assert_eq!(w.reflector().syncs, 1, "{era}: no relist");
    let calls = handler_calls(&trace);
    let mut seen = BTreeMap::new();
    for call in &calls {
        *seen.entry((call.1.clone(), call.2)).or_insert(0) += 1;
    }
    assert!(seen.values().all(|n| *n == 1), "no notification repeated: {calls:?}");
    let deliveries: Vec<(String, i64)> = calls.iter().map(|c| (c.1.clone(), c.2)).collect();
    for expected in
        [("default/c".to_string(), 4), ("default/a".into(), 5), ("default/b".into(), 6), ("default/d".into(), 7)]
    {
        assert!(deliveries.contains(&expected), "{expected:?} missing from {deliveries:?}");
    }
    assert_eq!(cache_state(&w), store_state(&w));
}

#[test]
fn semantics_8_restart_gives_410_then_relist_with_tombstones() {
    for era in Era::ALL {
        restart_gives_410(era);
    }
}

fn restart_gives_410(era: Era) {
    let mut w = world_in(era, &["a", "b", "c"]);
    let mut trace = w.run_until_idle(500);
    // A write to another resource moves the global revision past the reflector's RV (4).
    w.act_at(5_000, Intervention::Create(ApiObject::new(Kind::Pod, "default", "p")));
    w.act_at(5_000, Intervention::Fault(Fault::RestartApiServer));
    w.act_at(5_000, delete("b"));
    w.act_at(5_000, Intervention::Create(cm("d", "1")));
    trace.extend(w.run_until_idle(500));
    let error = trace.iter().find(|e| e.kind == TraceKind::WatchError).expect("an ERROR event");
    let Outcome::WatchError { status, .. } = &error.outcome else { panic!("{error:?}") };
    assert_eq!(
        (status.code, status.reason, status.message.as_str()),
        (410, "Expired", "too old resource version: 4 (5)")
    );
    assert_eq!(w.reflector().syncs, 2, "{era}: a relist after the 410");
    let relisted = trace.iter().find_map(|e| match &e.outcome {
        Outcome::BackoffElapsed { stale: false, next } => next.first().cloned(),
        _ => None,
    });
    match relisted {
        Some(Next::List(request)) => {
            assert!(!era.watch_list_client());
            assert_eq!((request.resource_version.as_str(), request.limit), ("4", 0), "relist at the last RV, no limit");
        }
        Some(Next::Watch { resource_version, send_initial_events: true, .. }) => {
            assert!(era.watch_list_client());
            assert_eq!(resource_version, "4", "a watch-list not older than the last RV");
        }
        other => panic!("{era}: one backoff, then the relist: {other:?}"),
    }
    let tombstone = trace
        .iter()
        .find(|e| matches!(e.outcome, Outcome::HandlerCalled { note: CallNote::Tombstone, .. }))
        .expect("a tombstone");
    assert_eq!(tombstone.key, "default/b");
    assert_eq!(cache_state(&w), store_state(&w));
}

#[test]
fn semantics_7_compaction_with_the_watch_cache_off_gives_410_then_relist() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.api = ApiServerConfig { watch_cache: false, ..Default::default() };
    let mut w = world_with(config, &["a", "b"]);
    let mut trace = w.run_until_idle(500);
    w.act_at(5_000, Intervention::Fault(Fault::DisconnectWatch));
    w.act_at(5_000, delete("a"));
    w.act_at(5_000, Intervention::Create(cm("c", "1")));
    w.act_at(5_000, Intervention::Fault(Fault::CompactStore));
    trace.extend(w.run_until_idle(500));
    let error = trace.iter().find(|e| e.kind == TraceKind::WatchError).expect("an ERROR event");
    assert_eq!(
        error.outcome.status().map(|s| s.message.as_str()),
        Some("The resourceVersion for the provided watch is too old.")
    );
    assert!(trace.iter().any(|e| e.kind == TraceKind::HandlerCall && e.key == "default/a" && e.has(Tag::Tombstone)));
    assert_eq!(cache_state(&w), store_state(&w));
}

#[test]
fn semantics_1_3_forbidden_list_backs_off_forever_then_recovers_when_granted() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = Era::V1_30;
    config.granted_verbs = vec![Verb::Watch];
    let mut w = world_with(config, &["a"]);
    let trace = w.run_until(60, |_, w| w.reflector().lists >= 6);
    assert!(trace.iter().filter(|e| e.kind == TraceKind::RequestFailed).count() >= 5);
    assert!(w.informer().indexer.is_empty());
    let log = w.log_lines();
    assert!(log[0].starts_with("W0101 00:00:00.010000       1 reflector.go:547] pkg/mod/k8s.io/client-go@v0.30.14/tools/cache/reflector.go:232: failed to list *v1.ConfigMap: configmaps is forbidden: User \"system:serviceaccount:default:playground-controller\" cannot list resource \"configmaps\" in API group \"\" at the cluster scope"), "{}", log[0]);
    assert!(log[1].contains("reflector.go:150] pkg/mod/k8s.io/client-go@v0.30.14/tools/cache/reflector.go:232: Failed to watch *v1.ConfigMap: failed to list *v1.ConfigMap: configmaps is forbidden"));
    let backoffs: Vec<&TraceEvent> = trace.iter().filter(|e| e.kind == TraceKind::Backoff).collect();
    assert!(backoffs.windows(2).all(|p| p[0].time_ms < p[1].time_ms));
    w.act(Intervention::Fault(Fault::Grant(Verb::List)));
    w.run_until(500, |_, w| w.informer().has_synced() && w.is_idle());
    assert_eq!(cache_state(&w), store_state(&w), "granting list fills the cache");
}

#[test]
fn semantics_1_5_with_watch_but_not_list_a_1_37_informer_syncs_by_watch_list() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = Era::V1_37;
    config.granted_verbs = vec![Verb::Watch];
    let mut w = world_with(config, &["a"]);
    w.run_until(500, |_, w| w.informer().has_synced() && w.is_idle());
    assert_eq!(cache_state(&w), store_state(&w), "a watch-list needs only the watch verb");
    assert_eq!((w.reflector().lists, w.log_lines().len()), (0, 1), "no LIST, only Caches populated");

    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = Era::V1_37;
    config.granted_verbs = vec![Verb::List];
    let mut w = world_with(config, &["a"]);
    w.run_until(200, |_, w| w.reflector().syncs >= 3);
    let log = w.log_lines();
    assert!(log[0].contains("reflector.go:491] \"Data couldn't be fetched in watchlist mode."), "at -v=4: {}", log[0]);
    let error = log.iter().find(|l| l.starts_with('E')).expect("an error line");
    assert!(error.contains(r#"reflector.go:227] "Failed to watch" err="configmaps is forbidden: User \"system:serviceaccount:default:playground-controller\" cannot watch resource \"configmaps\" in API group \"\" at the cluster scope" logger="UnhandledError" reflector="pkg/mod/k8s.io/client-go@v0.37.2/tools/cache/reflector.go:343" type="*v1.ConfigMap""#), "the watch-list fell back to LIST, which worked, then the WATCH was refused: {error}");
}

#[test]
fn semantics_1_6_and_4_resync_replays_known_objects_to_handlers_due() {
    for era in Era::ALL {
        resync_replays(era);
    }
}

fn resync_replays(era: Era) {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = era;
    config.sync_period_ms = 30_000;
    config.informers[0].handlers = vec![
        HandlerConfig::new("controller", Enqueue::Object),
        HandlerConfig { resync_ms: Some(0), ..HandlerConfig::new("audit", Enqueue::Nothing) },
    ];
    let mut w = world_with(config, &["a", "b"]);
    w.run_until_idle(500);
    let period = w.informer().resync_check_period();
    assert!((27_000..33_000).contains(&period), "SyncPeriod jittered in [0.9, 1.1): {period}");
    let trace = w.run_until(200, |e, _| e.time_ms > period && e.kind == TraceKind::WorkqueueDone);
    let resync = trace.iter().find(|e| e.has(Tag::Resync) && e.kind == TraceKind::Resync).expect("a resync");
    let expected = if era == Era::V1_37 { ResyncOutcome::SyncAll } else { ResyncOutcome::Queued { deltas: 2 } };
    assert_eq!(resync.outcome, Outcome::Resync(expected), "{era}");
    let calls = handler_calls(&trace);
    assert!(calls.iter().all(|c| c.0 == "controller.OnUpdate"), "a sync reaches only handlers due: {calls:?}");
    assert!(trace.iter().any(|e| matches!(e.outcome, Outcome::HandlerCalled { note: CallNote::ResyncSameRv, .. })));
}

#[test]
fn semantics_2_3_deltas_of_one_key_are_popped_together() {
    let mut w = world_in(Era::V1_30, &["a"]);
    w.run_until_idle(500);
    w.act(update(&w, "a", "1"));
    w.run_until(1, |_, _| false);
    let a = update(&w, "a", "2");
    w.act(a);
    w.run_until(1, |_, _| false);
    w.act(delete("a"));
    // Let the three events reach the FIFO before the first Pop.
    let trace = w.run_until_idle(200);
    let pops: Vec<&TraceEvent> = trace.iter().filter(|e| e.kind == TraceKind::Pop).collect();
    use DeltaType::{Deleted, Updated};
    assert!(
        pops.iter().any(|p| matches!(&p.outcome, Outcome::Popped { deltas, .. }
            if *deltas == [Updated, Updated, Deleted] || *deltas == [Updated, Deleted])),
        "{pops:?}"
    );
    assert!(w.informer().indexer.is_empty());

    // From 1.33 the RealFIFO pops each delta on its own.
    let mut w = world_in(Era::V1_33, &["a"]);
    w.run_until_idle(500);
    w.act(update(&w, "a", "1"));
    w.run_until(1, |_, _| false);
    let a = update(&w, "a", "2");
    w.act(a);
    w.run_until(1, |_, _| false);
    w.act(delete("a"));
    let trace = w.run_until_idle(200);
    let pops: Vec<Vec<DeltaType>> = trace
        .iter()
        .filter_map(|e| match &e.outcome {
            Outcome::Popped { deltas, .. } => Some(deltas.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(pops, vec![vec![Updated], vec![Updated], vec![Deleted]]);
}

#[test]
fn drop_next_event_loses_a_notification_while_the_cache_stays_right() {
    let mut w = world(&["a"]);
    w.run_until_idle(500);
    w.act(Intervention::Fault(Fault::DropNextEvent));
    w.act(update(&w, "a", "1"));
    let trace = w.run_until_idle(100);
    assert!(trace.iter().any(|e| matches!(e.outcome, Outcome::HandlerCalled { lost: true, .. })));
    assert!(!trace.iter().any(|e| e.kind == TraceKind::WorkqueueAdd), "the handler never ran");
    assert_eq!(cache_state(&w), store_state(&w), "the indexer was written before the notification was lost");
}

#[test]
fn semantics_1_4_a_quiet_watch_gets_no_bookmark_until_etcd_reports_progress() {
    for era in Era::ALL {
        let mut w = world_in(era, &["a"]);
        w.run_until_idle(500);
        w.act(Intervention::Create(ApiObject::new(Kind::Pod, "default", "p")));
        w.run_until_idle(100);
        assert_eq!(w.reflector().last_sync_resource_version, "2");
        // (1.37's watch-list has its end bookmark repeated at the next second's tick.)
        let trace =
            w.run_until(500, |e, _| e.kind == TraceKind::Bookmark && e.to.name() == "reflector" && e.time_ms > 5_000);
        let first = trace.last().unwrap();
        assert_eq!(
            (first.rv, first.time_ms >= 600_000),
            (3, true),
            "{era}: the ConfigMap cache never saw the Pod write, and a bookmark never repeats the watch's start; \
             the first comes after etcd's progress notification (10 min), at {} ms",
            first.time_ms
        );
        assert_eq!(w.reflector().last_sync_resource_version, "3");
    }
}

#[test]
fn world_snapshots_step_back_and_jump_reproduce_the_same_state() {
    let mut history = informer_sim::world::History::new(world(&["a", "b"]), 8);
    let mut trace = Vec::new();
    for _ in 0..30 {
        trace.extend(history.step());
    }
    history.act(Intervention::Create(cm("c", "1")));
    for _ in 0..25 {
        trace.extend(history.step());
    }
    assert_eq!(history.world().steps(), 55);
    let cache_at_55 = cache_state(history.world());
    history.jump_to(3);
    assert_eq!(history.world().steps(), 3);
    assert_eq!(history.world().informer().indexer.len(), 0, "at step 3 the list has not reached the cache");
    let replayed: Vec<TraceEvent> = (3..55).filter_map(|_| history.step()).collect();
    assert_eq!(replayed, trace[3..55].to_vec(), "replaying reproduces the trace, action included");
    assert_eq!(cache_state(history.world()), cache_at_55);
    history.step_back();
    assert_eq!(history.world().steps(), 54);

    // Acting in the past starts a new branch.
    history.jump_to(20);
    history.act(Intervention::Create(cm("z", "1")));
    assert_eq!(history.horizon(), 20);
    history.jump_to(50);
    assert_eq!(history.world().steps(), 20, "the old future is gone");
    let branch: Vec<TraceEvent> = (0..60).filter_map(|_| history.step()).collect();
    assert!(branch.iter().any(|e| e.key == "default/z"));
    assert!(!branch.iter().any(|e| e.key == "default/c"));
}

#[test]
fn world_snapshots_a_step_puts_off_its_copy_and_a_world_left_behind_is_kept() {
    let mut history = informer_sim::world::History::new(world(&["a", "b"]), 8);
    for _ in 0..8 {
        history.step();
    }
    assert_eq!(history.snapshot_count(), 1, "step 8 is due a snapshot, but the step did not copy the world");
    history.settle();
    assert_eq!(history.snapshot_count(), 2, "settle makes it");
    history.settle();
    assert_eq!(history.snapshot_count(), 2, "once");
    for _ in 0..8 {
        history.step();
    }
    let at_16 = cache_state(history.world());
    history.step(); // makes the snapshot step 16 was due, before the world changes
    assert_eq!(history.snapshot_count(), 3);
    history.step_back();
    assert_eq!(history.world().steps(), 16);
    assert_eq!(history.snapshot_count(), 4, "the world at step 17 stays as a snapshot");
    assert_eq!(cache_state(history.world()), at_16);
    let ahead: Vec<TraceEvent> = (0..3).filter_map(|_| history.step()).collect();
    history.jump_to(16);
    let again: Vec<TraceEvent> = (0..3).filter_map(|_| history.step()).collect();
    assert_eq!(ahead, again, "the kept world replays as the one computed");

    // A world with an action at its step is not kept: the snapshot is the world before it.
    history.act(Intervention::Create(cm("c", "1")));
    let at = history.world().steps();
    let count = history.snapshot_count();
    let with_action: Vec<TraceEvent> = (0..6).filter_map(|_| history.step()).collect();
    assert!(with_action.iter().any(|e| e.key == "default/c"));
    history.jump_to(at);
    history.step_back();
    assert_eq!(history.world().steps(), at - 1);
    // Kept since: step 24's due snapshot and the world at step 25 left by the jump; not the
    // world at step 19, which had the action.
    assert_eq!(history.snapshot_count(), count + 2);
    history.step();
    let again: Vec<TraceEvent> = (0..6).filter_map(|_| history.step()).collect();
    assert_eq!(again, with_action, "the action is taken again on the way");
}

#[test]
fn world_snapshots_steps_worked_out_while_idle_are_the_steps_the_world_takes() {
    // The same random moves on two histories, one also looking ahead between moves, as a page
    // does when idle: the steps taken and the worlds reached must be the same, whatever
    // action, fault or jump came after a look-ahead.
    for seed in 0..24 {
        let moves = |look: bool| {
            let (mut rng, mut idle) = (informer_sim::kernel::Rng::new(seed), informer_sim::kernel::Rng::new(!seed));
            let mut history = informer_sim::world::History::new(world(&["a", "b"]), 8);
            let (mut seen, mut states) = (Vec::new(), Vec::new());
            for i in 0..150u64 {
                match idle.next_u64() % 4 {
                    _ if !look => {}
                    0 => history.look_ahead(),
                    1 => history.look_behind(),
                    2 => {
                        history.look_ahead();
                        history.look_behind()
                    }
                    _ => {}
                }
                match rng.next_u64() % 16 {
                    0 => history.act(Intervention::Create(cm(&format!("n{i}"), "1"))),
                    1 => {
                        let change = update(history.world(), "a", &format!("{i}"));
                        history.act(change)
                    }
                    2 => history.act(Intervention::Fault(Fault::DisconnectWatch)),
                    3 => history.act(Intervention::Fault(Fault::CompactStore)),
                    4 | 5 => history.step_back(),
                    6 => history.jump_to(rng.next_u64() % (history.horizon() + 1)),
                    _ => seen.extend(history.step()),
                }
                states.push((history.world().steps(), cache_state(history.world()), store_state(history.world())));
            }
            (seen, states)
        };
        let (plain, ahead) = (moves(false), moves(true));
        assert_eq!(plain, ahead, "seed {seed}");
    }
}

#[test]
fn world_snapshots_thin_out_with_age_and_far_jumps_still_replay_exactly() {
    let mut history = informer_sim::world::History::new(world(&["a", "b"]), 4);
    let mut trace = Vec::new();
    for i in 0..400 {
        if i % 50 == 0 {
            history.act(Intervention::Create(cm(&format!("n{i}"), "1")));
        }
        trace.extend(history.step());
    }
    assert!(history.snapshot_count() <= informer_sim::world::MAX_SNAPSHOTS);
    history.jump_to(7);
    let replayed: Vec<TraceEvent> = (7..trace.len()).filter_map(|_| history.step()).collect();
    assert_eq!(replayed, trace[7..].to_vec());
}

#[test]
fn semantics_8_latency_delays_a_watch_stream_but_never_reorders_it() {
    // The default lesson; a label written under 5 s of latency, then a delete once latency is
    // back to 0: the MODIFIED must still arrive before the DELETED that followed it.
    let mut w = informer_sim::world::scale(1, Era::CURRENT).unwrap();
    w.run_until(120, |_, _| false);
    let pod = w.informer_for(Kind::Pod).unwrap().pipeline.informer.indexer.objects().next().unwrap().clone();
    let name = pod.metadata.name.clone();
    w.act(Intervention::Fault(Fault::Latency(5_000)));
    w.act(Intervention::Patch {
        kind: Kind::Pod,
        namespace: "default".into(),
        name: name.clone(),
        set: Default::default(),
        labels: [("touched".to_string(), "yes".to_string())].into(),
    });
    w.run_until(2, |_, _| false);
    w.act(Intervention::Fault(Fault::Latency(0)));
    w.act(Intervention::Delete { kind: Kind::Pod, namespace: "default".into(), name: name.clone() });
    let trace = w.run_until_idle(20_000);
    let events: Vec<TraceKind> = trace
        .iter()
        .filter(|e| e.key == format!("default/{name}") && e.to == informer_sim::kernel::Stage::Reflector)
        .map(|e| e.kind)
        .collect();
    let modified = events.iter().position(|k| *k == TraceKind::Modified);
    let deleted = events.iter().position(|k| *k == TraceKind::Deleted);
    assert!(modified < deleted, "MODIFIED before DELETED: {events:?}");
    let pods = w.informer_for(Kind::Pod).unwrap();
    assert!(
        pods.pipeline.informer.indexer.get_by_key(&format!("default/{name}")).is_none(),
        "the deleted Pod is not re-added"
    );
    let pods = w.informers.iter().position(|s| s.config.reflector.kind == Kind::Pod).unwrap();
    let both = w.cache_vs_store(pods).unwrap();
    assert!(both.equal(), "the cache equals the store: {both:?}");
}

#[test]
fn semantics_7_8_a_resumed_watch_whose_prev_kv_was_compacted_ends_with_an_internal_error_then_relists() {
    // Watch cache off: the reflector resumes from its last RV straight from etcd. The delete
    // is at the compact revision, so etcd has no `prev_kv` for it: the API server ends the
    // watch with an internal error (apiserver etcd3/event.go) and the reflector relists.
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.api = ApiServerConfig { watch_cache: false, ..Default::default() };
    let mut w = world_with(config, &["a", "b"]);
    w.run_until_idle(500);
    w.act(Intervention::Fault(Fault::Latency(3_000)));
    w.act(Intervention::Fault(Fault::RestartApiServer));
    w.act(delete("a"));
    w.act(Intervention::Fault(Fault::CompactStore));
    w.act(Intervention::Fault(Fault::Latency(5)));
    let trace = w.run_until_idle(2_000);
    let error = trace.iter().find(|e| e.kind == TraceKind::WatchError).expect("an in-stream error");
    let status = error.outcome.status().unwrap();
    assert_eq!(status.code, 500);
    assert!(
        status.message.starts_with(
            "Internal error occurred: etcd event received with PrevKv=nil (key=\"/registry/configmaps/default/a\""
        ),
        "{}",
        status.message
    );
    assert_eq!(w.reflector().syncs, 2, "a relist after the error");
    assert_eq!(cache_state(&w), store_state(&w), "the relist's tombstone removes the deleted object");
}

#[test]
fn semantics_4_a_filtering_handler_sees_objects_cross_its_line_as_adds_and_deletes() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.informers[0].handlers[0].filter =
        Some(informer_sim::cluster::selector::LabelSelector::parse("app=web").unwrap());
    let mut w = world_with(config, &["a"]);
    let mut trace = w.run_until_idle(500);
    let labelled = |w: &World, value: &str, app: Option<&str>| {
        let Intervention::Update(mut obj) = update(w, "a", value) else { unreachable!() };
        match app {
            Some(v) => obj.metadata.labels.insert("app".into(), v.into()),
            None => obj.metadata.labels.remove("app"),
        };
        Intervention::Update(obj)
    };
    w.act(labelled(&w, "1", Some("web")));
    trace.extend(w.run_until_idle(200));
    w.act(labelled(&w, "2", Some("web")));
    trace.extend(w.run_until_idle(200));
    w.act(labelled(&w, "3", None));
    trace.extend(w.run_until_idle(200));
    let calls: Vec<(String, CallNote)> = trace
        .iter()
        .filter_map(|e| match &e.outcome {
            Outcome::HandlerCalled { call, note, .. } => Some((call.name().to_string(), *note)),
            _ => None,
        })
        .collect();
    use informer_sim::client::shared_informer::HandlerFn;
    assert_eq!(
        calls,
        vec![
            ("OnAdd".into(), CallNote::FilteredOut),
            ("OnAdd".into(), CallNote::FilterTurned { from: HandlerFn::OnUpdate }),
            ("OnUpdate".into(), CallNote::None),
            ("OnDelete".into(), CallNote::FilterTurned { from: HandlerFn::OnUpdate }),
        ]
    );
    let reconciled = trace.iter().filter(|e| e.kind == TraceKind::WorkqueueGet).count();
    assert_eq!(reconciled, 3, "the filtered-out add never reaches the workqueue");
}

#[test]
fn semantics_8_a_dry_run_answers_as_the_write_would_and_stores_nothing() {
    use informer_sim::cluster::UserInfo;
    use informer_sim::world::{OutsideAnswer, OutsideCall};
    let mut w = world(&["a"]);
    w.run_until_idle(500);
    let (revision, keys) = (w.api.store().revision(), w.api.stored_keys());
    let (answer, event) =
        w.outside_dry_run(&UserInfo::admin(), OutsideCall::Create { kind: Kind::ConfigMap, object: cm("b", "1") });
    let Ok(OutsideAnswer::Object(created)) = answer else { panic!("a dry-run create answers the object: {answer:?}") };
    assert_eq!(created.metadata.name, "b");
    assert!(created.metadata.resource_version.is_empty(), "no resourceVersion: nothing was stored");
    assert!(matches!(event.outcome, Outcome::Outside { dry_run: true, code: None, .. }));
    let stored_a = w.api.peek_get(&UserInfo::admin(), Kind::ConfigMap, "default", "a").unwrap();
    let mut changed = stored_a.clone();
    changed.metadata.resource_version.clear();
    let (answer, _) = w.outside_dry_run(
        &UserInfo::admin(),
        OutsideCall::Update { kind: Kind::ConfigMap, object: changed, status: false },
    );
    let Ok(OutsideAnswer::Object(updated)) = answer else { panic!("{answer:?}") };
    assert_eq!(updated.metadata.resource_version, stored_a.metadata.resource_version, "the stored resourceVersion");
    let (again, _) =
        w.outside_dry_run(&UserInfo::admin(), OutsideCall::Create { kind: Kind::ConfigMap, object: cm("a", "1") });
    assert_eq!(again.unwrap_err().code, 409, "the checks still run: a exists");
    assert_eq!((w.api.store().revision(), w.api.stored_keys()), (revision, keys), "nothing stored");
    assert!(w.api.peek_get(&UserInfo::admin(), Kind::ConfigMap, "default", "b").is_err());
    let trace = w.run_until_idle(500);
    assert!(!trace.iter().any(|e| e.key == "default/b"), "no watcher told of b: {trace:?}");
}
