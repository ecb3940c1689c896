//! Reconcilers and the controller-runtime cache end to end, with the four classic traps and
//! their remedies (semantics §5–§6, §8).

use informer_sim::client::indexer::IndexFunc;
use informer_sim::client::transform::Transform;
use informer_sim::cluster::selector::LabelSelector;
use informer_sim::cluster::Verb;
use informer_sim::cluster::{ApiObject, KeyRange, Kind};
use informer_sim::controller::api_reader::ApiAnswer;
use informer_sim::controller::cache_reader::{CacheAnswer, CacheList, ClientRead};
use informer_sim::controller::reconciler::ReconcilerKind;
use informer_sim::controller::reconciler::{Decision, ReconcileResult, WriteOp};
use informer_sim::era::Era;
use informer_sim::kernel::{Stage, TraceKind};
use informer_sim::world::outcome::{Outcome, Read, Requeue};
use informer_sim::world::TraceEvent;
use informer_sim::world::{Fault, Intervention, World, WorldConfig, DEFAULT_SYNC_PERIOD_MS};
use serde_json::{json, Value};

fn owner(kind: Kind, name: &str, replicas: i64) -> ApiObject {
    ApiObject::new(kind, "default", name).with_label("app", name).with(
        "spec",
        json!({
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}
        }),
    )
}

fn stored(w: &World, kind: Kind, name: &str) -> ApiObject {
    let key = format!("/registry/{}/default/{name}", kind.resource());
    let kv = w.api.store().range(&KeyRange::single(key), 0, 1).unwrap().kvs.remove(0);
    let mut obj = ApiObject::from_json(&kv.value.text()).unwrap();
    obj.metadata.resource_version = kv.mod_revision.to_string();
    obj
}

fn stored_all(w: &World, resource: &str) -> Vec<ApiObject> {
    let list = w.api.store().range(&KeyRange::prefix(format!("/registry/{resource}/default/")), 0, 0).unwrap();
    list.kvs.iter().map(|kv| ApiObject::from_json(&kv.value.text()).unwrap()).collect()
}

/// The Pods `owner_name` owns, directly (a ReplicaSet) or through its ReplicaSets (a
/// Deployment).
fn pods_of(w: &World, owner_name: &str) -> Vec<ApiObject> {
    let owns = |o: &ApiObject, name: &str| o.metadata.owner_references.iter().any(|r| r.name == name);
    let sets: Vec<String> =
        stored_all(w, "replicasets").into_iter().filter(|rs| owns(rs, owner_name)).map(|rs| rs.metadata.name).collect();
    stored_all(w, "pods").into_iter().filter(|p| owns(p, owner_name) || sets.iter().any(|rs| owns(p, rs))).collect()
}

fn scale(w: &World, kind: Kind, name: &str, replicas: i64) -> Intervention {
    let mut obj = stored(w, kind, name);
    obj.body.get_mut("spec").unwrap()["replicas"] = json!(replicas);
    Intervention::Update(obj)
}

fn status(w: &World, kind: Kind, name: &str) -> Value {
    stored(w, kind, name).status().cloned().unwrap_or_default()
}

#[test]
fn semantics_6_scaling_a_deployment_3_to_5_to_2_converges_hop_by_hop() {
    let mut w =
        World::new(WorldConfig::replicas(Kind::Deployment, false), vec![owner(Kind::Deployment, "web", 3)]).unwrap();
    let mut trace = w.run_until_idle(5_000);
    assert_eq!(pods_of(&w, "web").len(), 3);
    assert_eq!(
        status(&w, Kind::Deployment, "web"),
        json!({"replicas": 3, "readyReplicas": 3, "updatedReplicas": 3, "availableReplicas": 3, "observedGeneration": 1})
    );

    w.act(scale(&w, Kind::Deployment, "web", 5));
    trace.extend(w.run_until_idle(5_000));
    assert_eq!(pods_of(&w, "web").len(), 5);
    assert_eq!(
        status(&w, Kind::Deployment, "web"),
        json!({"replicas": 5, "readyReplicas": 5, "updatedReplicas": 5, "availableReplicas": 5, "observedGeneration": 2})
    );

    w.act(scale(&w, Kind::Deployment, "web", 2));
    trace.extend(w.run_until_idle(5_000));
    assert_eq!(pods_of(&w, "web").len(), 2);
    assert_eq!(
        status(&w, Kind::Deployment, "web"),
        json!({"replicas": 2, "readyReplicas": 2, "updatedReplicas": 2, "availableReplicas": 2, "observedGeneration": 3})
    );
    assert_eq!(
        w.informer_for(Kind::Pod).unwrap().pipeline.informer.indexer.len(),
        2,
        "the cache agrees with the store"
    );

    let writes = |want: WriteOp| {
        trace
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::ApiWrite { op, kind: Kind::Pod, .. } if op == want))
            .filter(|e| e.key.starts_with("default/web-"))
            .count()
    };
    assert_eq!(writes(WriteOp::Create), 5, "3 then 2 creates");
    assert_eq!(writes(WriteOp::Delete), 3);
    let kubelet = trace.iter().filter(|e| matches!(e.outcome, Outcome::KubeletReport { gone: false, .. })).count();
    assert!(kubelet >= 10, "each Pod goes ContainerCreating, then Running");
    let sets = stored_all(&w, "replicasets");
    assert_eq!(sets.len(), 1, "the Deployment owns one ReplicaSet, which owns the Pods");
    let set = format!("default/{}", sets[0].metadata.name);
    assert_eq!(stored(&w, Kind::ReplicaSet, &sets[0].metadata.name).spec().unwrap()["replicas"], 2);
    let enqueued = |handler: &str, key: &str| {
        trace
            .iter()
            .filter(|e| matches!(&e.outcome, Outcome::HandlerCalled { handler: h, enqueued: Some(k), .. } if h == handler && k == key))
            .count()
    };
    assert!(enqueued("replicaset-controller", &set) > 5, "Pod events enqueue their ReplicaSet");
    assert!(enqueued("deployment-controller", "default/web") > 2, "ReplicaSet events enqueue their Deployment");
    let route: Vec<(&str, &str)> = trace.iter().map(|e| (e.from.name(), e.to.name())).collect();
    for hop in [
        ("reconciler", "api-server"),
        ("api-server", "reconciler"),
        ("kubelet", "api-server"),
        ("api-server", "reflector"),
        ("reflector", "fifo"),
    ] {
        assert!(route.contains(&hop), "{hop:?} missing");
    }
    let latencies = w.costs().status_latency_ms;
    assert_eq!(latencies.len(), 2, "both spec writes were observed by a status write: {latencies:?}");
    assert!(latencies.iter().all(|ms| *ms > 0 && *ms < 5_000));
}

#[test]
fn semantics_6_trap_1_stale_read_after_update_and_the_idempotent_remedy() {
    let cm = ApiObject::new(Kind::ConfigMap, "default", "cfg").with("data", json!({"k": "v"}));
    let mut w = World::new(WorldConfig::stamp(), vec![cm]).unwrap();
    let trace = w.run_until_idle(500);
    let response = trace.iter().find(|e| e.kind == TraceKind::ApiResponse).expect("the Update's response");
    let Outcome::ApiAnswer { answer, reads, .. } = &response.outcome else { panic!("{response:?}") };
    assert_eq!(answer, &Ok(3), "the Update wrote rv 3");
    assert_eq!(
        reads,
        &vec![Read::CacheGet { result: Ok(2), stale: Some(3) }, Read::ApiGet { answer: Ok(3) }],
        "the cache still says rv 2; the API reader says rv 3"
    );
    let ends: Vec<&TraceEvent> = trace.iter().filter(|e| e.kind == TraceKind::WorkqueueGet).collect();
    assert_eq!(ends.len(), 2, "its own update's event brings the key back once");
    assert!(
        matches!(&ends[1].outcome, Outcome::ReconcileStarts { decisions, .. } if matches!(decisions[..], [Decision::AlreadyStamped { rv: 3 }])),
        "{:?}",
        ends[1]
    );
    assert_eq!(stored(&w, Kind::ConfigMap, "cfg").body["data"]["updated"], "true");
    assert_eq!(w.api.store().revision(), 3, "the idempotent reconcile converged with one write");
}

fn pod(i: usize) -> ApiObject {
    ApiObject::new(Kind::Pod, &format!("ns-{}", i % 4), &format!("pod-{i}"))
        .with_label("app", if i.is_multiple_of(10) { "web" } else { "batch" })
        .with("spec", json!({"nodeName": format!("node-{}", i % 50)}))
}

#[test]
fn semantics_6_trap_3_unindexed_field_error_then_the_index_reads_far_fewer() {
    let pods: Vec<ApiObject> = (0..2_000).map(pod).collect();
    let on_node = CacheList { field: Some(("spec.nodeName".into(), "node-7".into())), ..Default::default() };

    let mut plain = World::new(WorldConfig::new(Kind::Pod), pods.clone()).unwrap();
    plain.run_until_idle(50_000);
    let err = plain.cache_list(Kind::Pod, &on_node).unwrap_err();
    assert_eq!(err.to_string(), "Index with name field:spec.nodeName does not exist");
    let web = CacheList { labels: LabelSelector::parse("app=web").unwrap(), ..Default::default() };
    assert_eq!(plain.cache_list(Kind::Pod, &web).unwrap().len(), 200);
    let scanned = plain.informer().indexer.last_scanned;
    assert_eq!(scanned, 2_000, "a label-filtered List scans everything");

    let mut config = WorldConfig::new(Kind::Pod);
    config.informers[0].indexes = vec![("field:spec.nodeName".into(), IndexFunc::Field("spec.nodeName".into()))];
    let mut indexed = World::new(config, pods).unwrap();
    indexed.run_until_idle(50_000);
    assert_eq!(indexed.cache_list(Kind::Pod, &on_node).unwrap().len(), 40);
    let examined = indexed.informer().indexer.last_scanned;
    assert_eq!(examined, 40);
    println!("List spec.nodeName=node-7 over 2000 Pods: {examined} examined with the index; label scan: {scanned}");
}

#[test]
fn semantics_6_trap_4_scope_cuts_the_cache_and_causes_not_found() {
    let pods: Vec<ApiObject> = (0..400).map(pod).collect();
    let mut whole = World::new(WorldConfig::new(Kind::Pod), pods.clone()).unwrap();
    whole.run_until_idle(10_000);
    let mut config = WorldConfig::new(Kind::Pod);
    config.informers[0].reflector.label_selector = "app=web".into();
    config.informers[0].reflector.namespace = Some("ns-0".into());
    let mut scoped = World::new(config, pods).unwrap();
    scoped.run_until_idle(10_000);
    let (_, all_objects, all_bytes) = whole.costs().cached[0];
    let (_, objects, bytes) = scoped.costs().cached[0];
    assert_eq!((all_objects, objects), (400, 20));
    assert!(bytes * 10 < all_bytes, "{bytes} vs {all_bytes} bytes");
    assert!(whole.costs().in_cluster.is_empty(), "an unscoped cache holds the whole kind: nothing to compare");
    let (_, in_cluster, cluster_bytes) = scoped.costs().in_cluster[0];
    assert_eq!(in_cluster, 400, "the scoped cache's kind, as etcd holds it");
    assert!(cluster_bytes * 10 > all_bytes * 9, "etcd's JSON is about the cache's: {cluster_bytes} vs {all_bytes}");
    assert!(whole.cache_get(Kind::Pod, "ns-1", "pod-1").is_ok());
    assert_eq!(
        scoped.cache_get(Kind::Pod, "ns-0", "pod-4").unwrap_err().to_string(),
        r#"Pod "pod-4" not found"#,
        "filtered out by the label selector"
    );
    assert!(scoped.cache_get(Kind::Pod, "ns-0", "pod-0").is_ok());
    assert_eq!(
        scoped.cache_get(Kind::Pod, "ns-1", "pod-1").unwrap_err().to_string(),
        "unable to get: ns-1/pod-1 because of unknown namespace for the cache"
    );
}

#[test]
fn semantics_1_3_trap_2_rbac_without_list_leaves_the_cache_empty_until_granted() {
    // The trap of client-go before the watch-list: from 1.35 an informer with watch but not
    // list syncs anyway (tests/world.rs: semantics_1_5_with_watch_but_not_list…).
    let mut config = WorldConfig::replicas(Kind::ReplicaSet, false);
    config.era = Era::V1_30;
    config.granted_verbs = vec![Verb::Get, Verb::Watch, Verb::Create, Verb::Update, Verb::Delete];
    let mut w = World::new(config, vec![owner(Kind::ReplicaSet, "web", 2)]).unwrap();
    w.run_until(300, |_, _| false);
    assert!(w.informer().indexer.is_empty());
    assert_eq!(w.reconciles(), 0, "nothing reaches the controller");
    assert!(w.log_lines().iter().any(|l| l.contains("failed to list *v1.ReplicaSet: replicasets.apps is forbidden")));
    // controller-runtime's read waits for the sync (`Informers.Get`: `WaitForCacheSync`)…
    let get = informer_sim::controller::cache_reader::ClientRead::Get {
        kind: Kind::ReplicaSet,
        namespace: "default".into(),
        name: "web".into(),
    };
    w.act(Intervention::CacheRead(get));
    let asked = w.step().unwrap();
    assert!(matches!(asked.outcome, Outcome::CacheReadWaits { started: false, .. }), "{asked:?}");
    w.act(Intervention::Fault(Fault::Grant(Verb::List)));
    let trace = w.run_until(20_000, |_, w| w.is_idle());
    // …and answers once the grant lets the informer sync.
    let answered = trace.iter().find_map(|e| match &e.outcome {
        Outcome::CacheRead { answer, waited_ms, .. } => Some((answer.is_ok(), *waited_ms > 0)),
        _ => None,
    });
    assert_eq!(answered, Some((true, true)));
    assert_eq!(pods_of(&w, "web").len(), 2, "granted: the caches fill and the controller converges");
}

fn edge_vs_level(edge_triggered: bool) -> usize {
    let mut w =
        World::new(WorldConfig::replicas(Kind::ReplicaSet, edge_triggered), vec![owner(Kind::ReplicaSet, "web", 3)])
            .unwrap();
    w.run_until_idle(5_000);
    assert_eq!(pods_of(&w, "web").len(), 3);
    let victim = pods_of(&w, "web")[0].metadata.name.clone();
    w.act(Intervention::Fault(Fault::DropNextEvent));
    w.act(Intervention::Delete { kind: Kind::Pod, namespace: "default".into(), name: victim });
    w.run_until_idle(5_000);
    // Any later event for the owner: a label on the ReplicaSet.
    let labelled = stored(&w, Kind::ReplicaSet, "web").with_label("touched", "yes");
    w.act(Intervention::Update(labelled));
    w.run_until_idle(5_000);
    pods_of(&w, "web").len()
}

#[test]
fn semantics_6_level_triggered_heals_where_edge_triggered_stays_wrong() {
    assert_eq!(edge_vs_level(false), 3, "level-triggered: the next event makes it count the cache again");
    assert_eq!(edge_vs_level(true), 2, "edge-triggered: the lost delete is never made up");
}

fn failing(kind: ReconcilerKind) -> Vec<TraceEvent> {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.controllers[0].reconciler = kind;
    let mut w = World::new(config, vec![ApiObject::new(Kind::ConfigMap, "default", "a")]).unwrap();
    w.run_until_idle(500)
}

#[test]
fn semantics_5_and_6_reconcile_results_drive_the_workqueue() {
    let trace = failing(ReconcilerKind::Failing { failures: 3, terminal: false });
    let ends: Vec<&Outcome> = trace.iter().filter(|e| e.kind == TraceKind::ReconcileEnd).map(|e| &e.outcome).collect();
    assert_eq!(ends.len(), 4);
    for (i, (delay_ms, requeues)) in [(5, 1), (10, 2), (20, 3)].into_iter().enumerate() {
        assert!(
            matches!(ends[i], Outcome::ReconcileEnds { then, .. } if *then == Requeue::RateLimited { delay_ms, requeues }),
            "{:?}",
            ends[i]
        );
    }
    assert!(matches!(ends[3], Outcome::ReconcileEnds { result: ReconcileResult::Success, then: Requeue::Forget }));

    let terminal = failing(ReconcilerKind::Failing { failures: 0, terminal: true });
    let ends: Vec<&TraceEvent> = terminal.iter().filter(|e| e.kind == TraceKind::ReconcileEnd).collect();
    assert_eq!(ends.len(), 1);
    assert!(matches!(ends[0].outcome, Outcome::ReconcileEnds { then: Requeue::Not, .. }));

    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.controllers[0].reconciler = ReconcilerKind::RequeueAfter(30_000);
    let mut w = World::new(config, vec![ApiObject::new(Kind::ConfigMap, "default", "a")]).unwrap();
    let trace = w.run_until(200, |e, _| e.kind == TraceKind::WorkqueueGet && e.time_ms >= 30_000);
    let again = trace.last().unwrap();
    assert!((30_000..30_100).contains(&again.time_ms), "back after its RequeueAfter: {}", again.time_ms);

    // `Requeue: true`: the rate limiter's delays, as for an error, but no error.
    let requeued = failing(ReconcilerKind::Requeue(2));
    let ends: Vec<&Outcome> =
        requeued.iter().filter(|e| e.kind == TraceKind::ReconcileEnd).map(|e| &e.outcome).collect();
    assert_eq!(ends.len(), 3);
    for (i, delay_ms) in [5, 10].into_iter().enumerate() {
        assert!(
            matches!(ends[i], Outcome::ReconcileEnds { result: ReconcileResult::Requeue, then: Requeue::RateLimited { delay_ms: d, .. } } if *d == delay_ms),
            "{:?}",
            ends[i]
        );
    }
    assert!(matches!(ends[2], Outcome::ReconcileEnds { result: ReconcileResult::Success, .. }));
}

#[test]
fn semantics_5_concurrent_workers_never_share_a_key() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.controllers[0].max_concurrent = 2;
    config.controllers[0].reconcile_ms = 100;
    let objects = (0..6).map(|i| ApiObject::new(Kind::ConfigMap, "default", &format!("c{i}"))).collect();
    let mut w = World::new(config, objects).unwrap();
    let trace = w.run_until_idle(1_000);
    let starts: Vec<&TraceEvent> = trace.iter().filter(|e| e.kind == TraceKind::WorkqueueGet).collect();
    assert!(
        starts.iter().any(|e| matches!(e.outcome, Outcome::ReconcileStarts { worker: 1, .. })),
        "the second worker works"
    );
    let mut busy: Vec<(String, u64)> = Vec::new();
    for e in &trace {
        match e.kind {
            TraceKind::WorkqueueGet => {
                assert!(!busy.iter().any(|(k, _)| *k == e.key), "{} reconciled twice at once", e.key);
                busy.push((e.key.clone(), e.time_ms));
            }
            TraceKind::WorkqueueDone => busy.retain(|(k, _)| *k != e.key),
            _ => {}
        }
    }
    assert_eq!(w.reconciles(), 6);
    assert!(trace.last().unwrap().time_ms < 6 * 100, "two at a time finish sooner than six in a row");
}

#[test]
fn semantics_6_default_sync_period_is_ten_hours_jittered() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.sync_period_ms = DEFAULT_SYNC_PERIOD_MS;
    for seed in 1..20 {
        config.seed = seed;
        let w = World::new(config.clone(), vec![]).unwrap();
        let period = w.informer().resync_check_period();
        assert!((9 * 3_600_000..11 * 3_600_000).contains(&period), "{period}");
    }
}

#[test]
fn polling_5000_pods_every_second_costs_far_more_than_watching() {
    let pods: Vec<ApiObject> = (0..5_000).map(pod).collect();
    let mut polling = World::new(WorldConfig::polling(Kind::Pod, 1_000), pods.clone()).unwrap();
    polling.run_until(100_000, |e, _| e.time_ms >= 60_000);
    let mut watching = World::new(WorldConfig::new(Kind::Pod), pods).unwrap();
    watching.run_until(200_000, |e, _| e.time_ms >= 60_000);
    let (p, wc) = (polling.costs(), watching.costs());
    assert_eq!(p.requests.get(&Verb::List), Some(&61), "one LIST a second, at 0 s, 1 s, … 60 s");
    assert_eq!(wc.requests.get(&Verb::List), None, "1.37 syncs with a watch-list: no LIST at all");
    assert!(wc.requests.get(&Verb::Watch).is_some_and(|n| *n >= 1));
    assert_eq!(wc.requests.get(&Verb::Create), None, "setting the cluster up is not part of the cost");
    assert!(p.bytes_sent > 50 * wc.bytes_sent, "{} vs {} bytes", p.bytes_sent, wc.bytes_sent);
    println!(
        "one minute, 5000 Pods: polling {} LISTs, {} bytes; watching {:?} requests, {} bytes",
        p.requests[&Verb::List],
        p.bytes_sent,
        wc.requests,
        wc.bytes_sent
    );
}

#[test]
fn a_huge_scale_creates_in_bursts_and_a_failed_create_is_no_longer_expected() {
    let mut w =
        World::new(WorldConfig::replicas(Kind::ReplicaSet, false), vec![owner(Kind::ReplicaSet, "web", 1200)]).unwrap();
    let trace = w.run_until(400, |_, _| false);
    let first = trace
        .iter()
        .find_map(|e| match &e.outcome {
            Outcome::ReconcileStarts { decisions, .. } => {
                decisions.iter().find_map(|d| if let Decision::WillCreate { count } = d { Some(*count) } else { None })
            }
            _ => None,
        })
        .expect("a reconcile that creates");
    assert_eq!(first, 500, "burstReplicas caps one sync's creates");
}

#[test]
fn creates_refused_by_the_api_server_are_no_longer_expected() {
    // Without `create`, every create fails with 403; the controller must not wait for them
    // forever: once `create` is granted again, it reaches its replicas.
    let mut w =
        World::new(WorldConfig::replicas(Kind::ReplicaSet, false), vec![owner(Kind::ReplicaSet, "web", 3)]).unwrap();
    w.act(Intervention::Fault(Fault::Revoke(Verb::Create)));
    w.run_until(300, |_, _| false);
    assert!(pods_of(&w, "web").is_empty(), "nothing could be created");
    w.act(Intervention::Fault(Fault::Grant(Verb::Create)));
    w.run_until(5_000, |_, w| w.is_idle() && pods_of(w, "web").len() == 3);
    assert_eq!(pods_of(&w, "web").len(), 3, "after the grant the controller creates again");
}

/// A Pod of `owner` (a ReplicaSet), as its controller would have made it.
fn owned_pod(owner: &ApiObject, name: &str) -> ApiObject {
    let mut pod = ApiObject::new(Kind::Pod, "default", name)
        .with_label("app", &owner.metadata.name)
        .with("spec", json!({"containers": [{"name": "web", "image": "nginx:1.27"}]}));
    pod.metadata.owner_references.push(informer_sim::cluster::api_object::OwnerReference {
        api_version: "apps/v1".into(),
        kind: owner.kind.clone(),
        name: owner.metadata.name.clone(),
        // The ReplicaSet is the first object created: it gets the first uid.
        uid: informer_sim::cluster::registry::uid(1),
        controller: Some(true),
    });
    pod
}

#[test]
fn semantics_6_workers_start_only_once_the_caches_have_synced() {
    // controller-runtime's Start waits for every source's WaitForSync before "Starting
    // workers": a ReplicaSet whose 3 Pods already exist is never mistaken for one with fewer.
    for era in Era::ALL {
        let mut config = WorldConfig::replicas(Kind::ReplicaSet, false);
        config.era = era;
        let rs = owner(Kind::ReplicaSet, "web", 3);
        let pods = (1..=3).map(|i| owned_pod(&rs, &format!("web-{i}"))).collect();
        let mut objects = vec![rs];
        objects.extend::<Vec<ApiObject>>(pods);
        let mut w = World::new(config, objects).unwrap();
        let trace = w.run_until_idle(5_000);
        let start = trace.iter().position(|e| e.kind == TraceKind::WorkersStart).expect("the workers start");
        let first_get = trace.iter().position(|e| e.kind == TraceKind::WorkqueueGet).expect("a reconcile");
        assert!(start < first_get, "{era}: no key is taken before the workers start");
        let synced_at = trace[..start].iter().filter(|e| e.kind == TraceKind::IndexerWrite).count();
        assert!(synced_at >= 2, "{era}: both caches had their initial lists applied first");
        let creates_or_deletes = trace
            .iter()
            .filter(|e| matches!(e.outcome, Outcome::ApiWrite { op: WriteOp::Create | WriteOp::Delete, .. }))
            .count();
        assert_eq!(creates_or_deletes, 0, "{era}: nothing created or deleted");
        assert_eq!(pods_of(&w, "web").len(), 3, "{era}");
    }
}

#[test]
fn semantics_6_from_v0_23_the_workers_start_after_every_initial_add_is_queued() {
    // A handler registration has synced once its handler returned from the last initial add
    // (`processorListener.run`, synctrack), and the handler's queue.Add is part of that call:
    // in 1.37 "Starting workers" comes after every initial key is in the queue.
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = Era::V1_37;
    let objects = ["a", "b", "c"].map(|n| ApiObject::new(Kind::ConfigMap, "default", n)).to_vec();
    let mut w = World::new(config, objects).unwrap();
    let trace = w.run_until_idle(500);
    let start = trace.iter().position(|e| e.kind == TraceKind::WorkersStart).expect("the workers start");
    let adds_before = trace[..start].iter().filter(|e| e.kind == TraceKind::WorkqueueAdd).count();
    assert_eq!(adds_before, 3, "every initial key is queued before the workers start");
    assert!(
        matches!(trace[start].outcome, Outcome::WorkersStarted { queued: 3, .. }),
        "3 keys waiting: {:?}",
        trace[start].outcome
    );
}

#[test]
fn semantics_6_an_observing_controller_reads_the_kind_it_watches() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = Era::V1_30;
    let mut w = World::new(config, vec![ApiObject::new(Kind::ConfigMap, "default", "settings")]).unwrap();
    let trace = w.run_until_idle(500);
    let decisions: Vec<&Decision> = trace
        .iter()
        .filter_map(|e| match &e.outcome {
            Outcome::ReconcileStarts { decisions, .. } => Some(decisions),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(matches!(decisions[..], [Decision::Found { .. }]), "not `*v1.Pod is not cached`: {decisions:?}");
}

#[test]
fn semantics_6_a_new_pod_template_gets_a_new_replica_set_and_the_old_one_scales_to_zero() {
    let mut w =
        World::new(WorldConfig::replicas(Kind::Deployment, false), vec![owner(Kind::Deployment, "web", 2)]).unwrap();
    w.run_until_idle(5_000);
    let first = stored_all(&w, "replicasets").remove(0);
    let mut deployment = stored(&w, Kind::Deployment, "web");
    deployment.body.get_mut("spec").unwrap()["template"]["spec"]["containers"][0]["image"] = json!("nginx:1.28");
    w.act(Intervention::Update(deployment));
    w.run_until_idle(5_000);
    let sets = stored_all(&w, "replicasets");
    assert_eq!(sets.len(), 2, "one ReplicaSet per template");
    let replicas = |rs: &ApiObject| rs.spec().unwrap()["replicas"].as_i64().unwrap();
    let (old, new): (Vec<&ApiObject>, Vec<&ApiObject>) =
        sets.iter().partition(|rs| rs.metadata.name == first.metadata.name);
    assert_eq!((replicas(old[0]), replicas(new[0])), (0, 2));
    assert_ne!(new[0].metadata.labels["pod-template-hash"], first.metadata.labels["pod-template-hash"]);
    let pods = pods_of(&w, "web");
    assert_eq!(pods.len(), 2);
    assert!(pods.iter().all(|p| p.spec().unwrap()["containers"][0]["image"] == "nginx:1.28"));
}

/// A read through the APIReader, taken as the next step: what it answered.
fn api_read(w: &mut World, read: ClientRead) -> Result<ApiAnswer, informer_sim::cluster::api_errors::Status> {
    w.act(Intervention::ApiRead(read));
    let step = w.step().expect("the read");
    assert_eq!((step.from, step.to, step.kind), (Stage::Reconciler, Stage::ApiServer, TraceKind::ApiRead));
    match step.outcome {
        Outcome::ApiRead { answer, .. } => answer,
        other => panic!("not a read: {other:?}"),
    }
}

#[test]
fn semantics_6_the_api_reader_reads_the_server_at_the_price_of_a_request_and_its_bytes() {
    let pods: Vec<ApiObject> = (0..200).map(pod).collect();
    let mut config = WorldConfig::new(Kind::Pod);
    config.granted_verbs = vec![Verb::Get, Verb::List, Verb::Watch];
    let mut w = World::new(config, pods).unwrap();
    w.run_until_idle(10_000);
    let before = w.costs();
    let fresh = ApiObject::new(Kind::Pod, "ns-0", "fresh").with("spec", json!({"nodeName": "node-7"}));
    w.act(Intervention::Create(fresh));
    w.step().expect("the create");
    assert!(w.cache_get(Kind::Pod, "ns-0", "fresh").unwrap_err().is_not_found(), "the cache has not seen it yet");
    let got = api_read(&mut w, ClientRead::Get { kind: Kind::Pod, namespace: "ns-0".into(), name: "fresh".into() });
    assert!(matches!(got, Ok(ApiAnswer::Got { bytes, .. }) if bytes > 50), "the server has it: {got:?}");
    let on_node = ClientRead::List {
        kind: Kind::Pod,
        namespace: None,
        labels: String::new(),
        field: Some(("spec.nodeName".into(), "node-7".into())),
        limit: 0,
        continue_token: String::new(),
    };
    let listed = api_read(&mut w, on_node);
    assert!(
        matches!(listed, Ok(ApiAnswer::Listed { items: 5, bytes, .. }) if bytes > 5 * 50),
        "the server evaluates the field selector: the 4 Pods on node-7 and the new one: {listed:?}"
    );
    let after = w.costs();
    let count = |c: &informer_sim::world::Costs, verb: Verb| c.requests.get(&verb).copied().unwrap_or(0);
    assert_eq!(count(&after, Verb::Get) - count(&before, Verb::Get), 1, "each APIReader Get is a GET");
    assert_eq!(count(&after, Verb::List) - count(&before, Verb::List), 1, "each APIReader List is a LIST");

    // The controller's own credentials: without `get` on Pods the read is forbidden.
    let mut config = WorldConfig::new(Kind::Pod);
    config.granted_verbs = vec![Verb::List, Verb::Watch];
    let mut w = World::new(config, vec![pod(1)]).unwrap();
    w.run_until_idle(10_000);
    let denied = api_read(&mut w, ClientRead::Get { kind: Kind::Pod, namespace: "ns-1".into(), name: "pod-1".into() });
    assert_eq!(denied.map_err(|s| s.code), Err(403));
    // A lesson finds that step by its code as by its tag: one status, one rule.
    w.act(Intervention::ApiRead(ClientRead::Get { kind: Kind::Pod, namespace: "ns-1".into(), name: "pod-1".into() }));
    let step = w.step().expect("the read");
    assert_eq!(step.outcome.code(), Some(403));
    assert!(step.outcome.tags().contains(&informer_sim::world::Tag::Forbidden));
}

/// A ConfigMap controller whose role also covers Secrets (or not), one Secret stored, and a
/// cache Get of that Secret at 2 s, when the ConfigMap informer has long synced.
fn lazy_read_world(era: Era, granted: bool, fail_fast: bool) -> Vec<TraceEvent> {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.era = era;
    config.granted_kinds = if granted { vec![Kind::Secret] } else { vec![] };
    config.reader_fail_on_missing_informer = fail_fast;
    let mut w = World::new(config, vec![ApiObject::new(Kind::Secret, "default", "token")]).unwrap();
    w.run_until_idle(1_000);
    let get = informer_sim::controller::cache_reader::ClientRead::Get {
        kind: Kind::Secret,
        namespace: "default".into(),
        name: "token".into(),
    };
    w.act_at(2_000, Intervention::CacheRead(get.clone()));
    w.act_at(3_000, Intervention::CacheRead(get));
    w.run_until(2_000, |_, w| w.now() > 3_000)
}

fn secret_requests(trace: &[TraceEvent]) -> Vec<String> {
    trace
        .iter()
        .filter_map(|e| match &e.outcome {
            Outcome::ListServed { answer, .. } if e.key.is_empty() => Some(format!("LIST {}", answer.is_ok())),
            Outcome::WatchServed { send_initial_events, answer, .. } => {
                Some(format!("WATCH initial={send_initial_events} {}", answer.is_ok()))
            }
            _ => None,
        })
        .collect()
}

fn cache_reads(trace: &[TraceEvent]) -> Vec<&Outcome> {
    trace.iter().filter(|e| e.kind == TraceKind::CacheRead).map(|e| &e.outcome).collect()
}

/// controller-runtime v0.18.5/v0.21.0/v0.25.2 `pkg/cache/internal/informers.go: Get`: without
/// `ReaderFailOnMissingInformer`, a read of a kind no informer watches adds one (`addInformerToMap`
/// starts it on a started cache) and blocks in `WaitForCacheSync`, which polls every 100 ms; the
/// next read finds the informer synced and answers at once.
#[test]
fn semantics_6_a_read_of_a_kind_nobody_watches_starts_a_lazy_informer_and_waits_for_its_sync() {
    for era in Era::ALL {
        let trace = lazy_read_world(era, true, false);
        let reads = cache_reads(&trace);
        assert!(
            matches!(reads[..], [Outcome::CacheReadWaits { started: true, .. }, Outcome::CacheRead { answer: Ok(_), waited_ms: first, .. }, Outcome::CacheRead { answer: Ok(_), waited_ms: 0, .. }] if *first > 0 && first % 100 == 0),
            "{era:?}: {reads:?}"
        );
        let started = trace.iter().position(|e| matches!(e.outcome, Outcome::CacheReadWaits { .. })).unwrap();
        let requests = secret_requests(&trace[started..]);
        let expected: &[&str] = match era.watch_list_client() {
            true => &["WATCH initial=true true"],
            false => &["LIST true", "WATCH initial=false true"],
        };
        assert_eq!(requests, expected, "{era:?}: the lazy informer's own ListAndWatch");
    }
}

/// The same read with `ReaderFailOnMissingInformer` (controller-runtime v0.16 on): `&ErrResourceNotCached`
/// at once, and the API server sees nothing.
#[test]
fn semantics_6_reader_fail_on_missing_informer_refuses_the_read_and_starts_nothing() {
    for era in Era::ALL {
        let trace = lazy_read_world(era, true, true);
        let reads = cache_reads(&trace);
        assert!(
            reads.iter().all(|r| matches!(r, Outcome::CacheRead { answer: Err(e), waited_ms: 0, .. } if e.to_string() == "/v1, Kind=Secret is not cached")),
            "{era:?}: {reads:?}"
        );
        let started = trace.iter().position(|e| e.kind == TraceKind::CacheRead).unwrap();
        assert_eq!(secret_requests(&trace[started..]), Vec::<String>::new());
    }
}

/// A lazy informer whose LIST (or watch-list) the role refuses never syncs, so the read that
/// started it waits on (upstream: until the caller's context ends), and so does the next one.
#[test]
fn semantics_6_a_lazy_read_the_role_refuses_waits_while_the_reflector_retries() {
    for era in Era::ALL {
        let trace = lazy_read_world(era, false, false);
        let reads = cache_reads(&trace);
        assert!(
            matches!(
                reads[..],
                [Outcome::CacheReadWaits { started: true, .. }, Outcome::CacheReadWaits { started: false, .. }]
            ),
            "{era:?}: {reads:?}"
        );
        assert!(trace.iter().any(|e| e.outcome.status().is_some_and(|s| s.code == 403)), "{era:?}: refused");
    }
}

/// An informer that exists but cannot sync (its role has no list): a read of its kind waits in
/// every release by default; with `ReaderFailOnMissingInformer`, controller-runtime v0.18.5 and
/// v0.21.0 `Peek` the informer and read its empty store (`getInformerForKind`), v0.25.2 goes
/// through `Informers.Get` and waits as well.
#[test]
fn semantics_6_a_read_before_the_sync_waits_but_the_fail_fast_reader_of_v0_18_and_v0_21_reads_the_empty_store() {
    for era in Era::ALL {
        for fail_fast in [false, true] {
            let mut config = WorldConfig::new(Kind::ConfigMap);
            config.era = era;
            config.granted_verbs = vec![Verb::Get];
            config.reader_fail_on_missing_informer = fail_fast;
            let mut w = World::new(config, vec![ApiObject::new(Kind::ConfigMap, "default", "settings")]).unwrap();
            let get = informer_sim::controller::cache_reader::ClientRead::Get {
                kind: Kind::ConfigMap,
                namespace: "default".into(),
                name: "settings".into(),
            };
            w.act_at(1_000, Intervention::CacheRead(get));
            let trace = w.run_until(2_000, |_, w| w.now() > 1_500);
            let reads = cache_reads(&trace);
            let reads_at_once = fail_fast && !era.fail_fast_reader_waits_for_sync();
            match reads_at_once {
                true => assert!(
                    matches!(reads[..], [Outcome::CacheRead { answer: Err(e), waited_ms: 0, .. }] if e.is_not_found()),
                    "{era:?}: {reads:?}"
                ),
                false => assert!(
                    matches!(reads[..], [Outcome::CacheReadWaits { started: false, .. }]),
                    "{era:?} fail_fast={fail_fast}: {reads:?}"
                ),
            }
        }
    }
}

/// A read given a deadline, as a caller's context gives one, ends its wait with
/// controller-runtime's `apierrors.NewTimeoutError("failed waiting for *v1.ConfigMap Informer to sync")`.
#[test]
fn semantics_6_a_read_whose_deadline_passes_before_the_sync_is_a_timeout() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.granted_verbs = vec![Verb::Get];
    let mut w = World::new(config, vec![]).unwrap();
    let get = informer_sim::controller::cache_reader::ClientRead::Get {
        kind: Kind::ConfigMap,
        namespace: "default".into(),
        name: "settings".into(),
    };
    let before = w.now();
    let answer = w.cache_read_within(get, 2_000).unwrap_err().to_string();
    assert_eq!(answer, "Timeout: failed waiting for *v1.ConfigMap Informer to sync");
    assert!(w.now() <= before + 2_000, "the world ran no further than the deadline");
}

/// An update inside a `RequeueAfter` wait: client-go's delaying queue (`delaying_queue.go`:
/// `Add` never looks at `waitingForQueue`; `insert` only moves a wait earlier) keeps the parked
/// entry, so the first reconcile's timer brings one reconcile more; controller-runtime's
/// priority queue (v0.25.2 `priorityqueue.go: AddWithOpts` clears `ReadyAt` for an add without
/// `After`), the default in 1.37, drops the wait.
#[test]
fn semantics_5_an_event_inside_a_requeue_after_wait_keeps_the_old_timer_only_in_the_delaying_queue() {
    for era in Era::ALL {
        let mut config = WorldConfig::new(Kind::ConfigMap);
        config.era = era;
        config.controllers[0].reconciler = ReconcilerKind::RequeueAfter(30_000);
        let mut w = World::new(config, vec![ApiObject::new(Kind::ConfigMap, "default", "cert")]).unwrap();
        w.run_until(1_000, |_, w| w.next_time().is_none_or(|t| t > 1_000));
        let mut cert = stored(&w, Kind::ConfigMap, "cert");
        cert.body.insert("data".into(), json!({"notAfter": "2027-06-01"}));
        w.act_at(10_000, Intervention::Update(cert));
        let trace = w.run_until(1_000, |_, w| w.now() > 45_000);
        let reconciled_at: Vec<u64> =
            trace.iter().filter(|e| e.kind == TraceKind::WorkqueueGet).map(|e| e.time_ms / 1_000).collect();
        let expected: &[u64] = if era.priority_queue() { &[10, 40] } else { &[10, 30] };
        assert_eq!(reconciled_at, expected, "{era:?}: seconds of each reconcile after the first");
    }
}

/// controller-runtime v0.18.5–v0.25.2 `cache_reader.go: Get`: a deep copy unless
/// `UnsafeDisableDeepCopy`; with it, a change to what Get returned is a change to the cache
/// (client-go `thread_safe_store.go`: "you must not modify anything returned by Get"), seen by a
/// later List by label although the server never stored it.
#[test]
fn semantics_6_a_change_to_what_the_cache_returned_reaches_the_cache_only_without_the_deep_copy() {
    for unsafe_disable_deep_copy in [false, true] {
        let mut config = WorldConfig::new(Kind::ConfigMap);
        config.unsafe_disable_deep_copy = unsafe_disable_deep_copy;
        let mut w = World::new(config, vec![ApiObject::new(Kind::ConfigMap, "default", "a")]).unwrap();
        w.run_until_idle(1_000);
        let labels = [("checked".to_string(), "true".to_string())].into_iter().collect();
        w.act(Intervention::CacheMutate {
            kind: Kind::ConfigMap,
            namespace: "default".into(),
            name: "a".into(),
            labels,
        });
        w.run_until_idle(10);
        let checked = CacheList { labels: LabelSelector::parse("checked=true").unwrap(), ..CacheList::default() };
        let found = w.cache_list(Kind::ConfigMap, &checked).unwrap().len();
        assert_eq!(found, usize::from(unsafe_disable_deep_copy), "UnsafeDisableDeepCopy={unsafe_disable_deep_copy}");
        assert!(w.cache_vs_store(0).unwrap().equal(), "the resourceVersions still agree: no event was lost");
    }
}

/// controller-runtime v0.18.5–v0.25.2 `pkg/client/client.go`: a kind in
/// `Cache.DisableFor` is read live (`shouldBypassCache`): every Get is a GET on the API
/// server, no informer starts, and a missing object is the API server's NotFound.
#[test]
fn semantics_6_disable_for_sends_each_read_to_the_server_and_starts_no_informer() {
    let mut config = WorldConfig::new(Kind::ConfigMap);
    config.granted_kinds = vec![Kind::Secret];
    config.disable_for = vec![Kind::Secret];
    let mut w = World::new(config, vec![ApiObject::new(Kind::Secret, "default", "token")]).unwrap();
    w.run_until_idle(1_000);
    let gets_before = w.api.metrics().requests_by_verb(Verb::Get);
    for name in ["token", "token", "missing"] {
        let get = informer_sim::controller::cache_reader::ClientRead::Get {
            kind: Kind::Secret,
            namespace: "default".into(),
            name: name.into(),
        };
        w.act(Intervention::CacheRead(get));
    }
    let trace = w.run_until_idle(100);
    let reads: Vec<&Outcome> = trace.iter().filter(|e| e.kind == TraceKind::ApiRead).map(|e| &e.outcome).collect();
    assert_eq!(reads.len(), 3, "each read a request: {trace:?}");
    assert!(
        matches!(reads[2], Outcome::ApiRead { answer: Err(s), uncached: true, .. } if s.message == r#"secrets "missing" not found"#)
    );
    assert_eq!(w.api.metrics().requests_by_verb(Verb::Get) - gets_before, 3);
    assert!(w.informer_for(Kind::Secret).is_none(), "no informer for a kind the cache is kept out of");
}

/// client-go v0.30.14 `delta_fifo.go` `queueActionLocked`, v0.33.13 `the_real_fifo.go`
/// `addToItems_locked`, v0.37.2 with `addReplaceToItemsLocked`: an informer's transform runs on
/// every object as the queue takes it in (the initial list and each watch event), so the
/// cache never holds the dropped field, while the API server sends and keeps the object whole.
#[test]
fn semantics_6_a_transform_shapes_what_the_cache_holds_not_what_the_server_sends() {
    const LAST: &str = "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration";
    let applied = |name: &str| {
        let mut pod = ApiObject::new(Kind::Pod, "default", name).with("spec", json!({"nodeName": "node-1"}));
        pod.metadata.annotations.insert("kubectl.kubernetes.io/last-applied-configuration".into(), "x".repeat(500));
        pod
    };
    for era in Era::ALL {
        let run = |transform: &[String]| {
            let mut config = WorldConfig::new(Kind::Pod);
            config.era = era;
            config.informers[0].transform = Transform::dropping(transform).unwrap();
            let mut w = World::new(config, vec![applied("web-1")]).unwrap();
            w.run_until_idle(1_000);
            w.act(Intervention::Create(applied("web-2")));
            w.run_until_idle(1_000);
            w
        };
        let (mut cut, whole) = (run(&[LAST.into()]), run(&[]));
        for name in ["web-1", "web-2"] {
            let cached = serde_json::to_value(cut.cache_get(Kind::Pod, "default", name).unwrap()).unwrap();
            assert!(cached.pointer(LAST).is_none(), "{era}: {name} is cached without the annotation");
            assert_eq!(cached.pointer("/spec/nodeName"), Some(&json!("node-1")), "{era}: the rest is kept");
        }
        assert_eq!(cut.api.metrics().bytes_sent, whole.api.metrics().bytes_sent, "{era}: the server sends the same");
        let (cached, full) = (cut.costs().cached[0].2, whole.costs().cached[0].2);
        assert!(cached + 2 * 500 <= full, "{era}: {cached} bytes cached against {full} in full");
        assert_eq!(cut.costs().whole_bytes, Some(full), "{era}: the costs name what it would take whole");
        assert_eq!(whole.costs().whole_bytes, None);
    }
}

/// controller-runtime `pkg/cache/internal/cache_reader.go: List` (v0.18.5, v0.21.0, v0.25.2):
/// the cache refuses a continue token and stops at `Limit`, with no next page (its list's
/// continue is `continue-not-supported` from v0.21); the APIReader's LIST pages on the server,
/// with a continue token and the items remaining.
#[test]
fn semantics_6_the_cache_truncates_at_limit_and_only_the_api_reader_pages() {
    for era in Era::ALL {
        let mut config = WorldConfig::new(Kind::Pod);
        config.era = era;
        let pods = (0..30).map(|i| ApiObject::new(Kind::Pod, "default", &format!("p{i:02}"))).collect();
        let mut w = World::new(config, pods).unwrap();
        w.run_until_idle(1_000);
        let list = |limit: usize, continue_token: &str| ClientRead::List {
            kind: Kind::Pod,
            namespace: Some("default".into()),
            labels: String::new(),
            field: None,
            limit,
            continue_token: continue_token.into(),
        };
        let want = if era == Era::V1_30 { "" } else { "continue-not-supported" };
        assert_eq!(
            w.read_cache(&list(10, "")),
            Ok(CacheAnswer::Listed { found: 10, examined: 30, continue_token: want }),
            "{era}: the first 10 of 30, and no page after them"
        );
        let refused = w.read_cache(&list(10, "anything")).unwrap_err();
        assert_eq!(refused.to_string(), "continue list option is not supported by the cache");
        let paged = api_read(&mut w, list(10, ""));
        let Ok(ApiAnswer::Listed { items: 10, continue_token, remaining: Some(20), .. }) = paged else {
            panic!("{era}: the server pages: {paged:?}")
        };
        let next = api_read(&mut w, list(10, &continue_token));
        assert!(matches!(next, Ok(ApiAnswer::Listed { items: 10, remaining: Some(10), .. })), "{era}: {next:?}");
    }
}

/// controller-runtime `pkg/cache/informer_cache.go: Get` (v0.18.5, v0.21.0, v0.25.2): a read
/// through the manager's client before the cache has started is `ErrCacheNotStarted`, and no
/// informer is asked for anything; the APIReader needs no cache and reads the server at once.
#[test]
fn semantics_6_a_cache_read_before_the_cache_starts_fails_and_the_api_reader_answers() {
    for era in Era::ALL {
        let mut config = WorldConfig::new(Kind::ConfigMap);
        config.era = era;
        config.cache_start_ms = 1_000;
        let settings = ApiObject::new(Kind::ConfigMap, "default", "settings");
        let mut w = World::new(config, vec![settings]).unwrap();
        let get = ClientRead::Get { kind: Kind::ConfigMap, namespace: "default".into(), name: "settings".into() };
        w.act(Intervention::CacheRead(get.clone()));
        let early = w.step().expect("the read");
        let Outcome::CacheRead { answer: Err(e), .. } = &early.outcome else { panic!("{era}: {early:?}") };
        assert_eq!(e.to_string(), "the cache is not started, can not read objects");
        assert!(matches!(api_read(&mut w, get.clone()), Ok(ApiAnswer::Got { .. })), "{era}: the APIReader reads");
        let lists =
            |w: &World| w.api.metrics().requests_by_verb(Verb::List) + w.api.metrics().requests_by_verb(Verb::Watch);
        assert_eq!(lists(&w), 0, "{era}: no informer has asked for anything yet");
        w.run_until(100_000, |_, w| w.now() >= 2_000);
        assert!(lists(&w) > 0, "{era}: the cache's informer started at 1 s");
        assert!(w.cache_get(Kind::ConfigMap, "default", "settings").is_ok());
    }
}

/// client-go v0.30.14–v0.37.2 `thread_safe_store.go: updateIndices`: an update whose indexed
/// value changed takes the key out of the old value's set (a set left empty is dropped) and
/// puts it under the new one; controller-runtime's `IndexField` with an extractor returning a
/// label is such an index. Each index keeps an entry per key it lists.
#[test]
fn semantics_3_an_object_moves_between_an_index_values_and_every_index_costs_an_entry_per_key() {
    use informer_sim::client::indexer::IndexFunc;
    let mut config = WorldConfig::new(Kind::Pod);
    config.informers[0].indexes =
        vec![("field:metadata.labels.tier".into(), IndexFunc::Field("metadata.labels.tier".into()))];
    let pods =
        (0..10).map(|i| ApiObject::new(Kind::Pod, "default", &format!("p{i}")).with_label("tier", "gold")).collect();
    let mut w = World::new(config, pods).unwrap();
    w.run_until_idle(1_000);
    let gold = CacheList { field: Some(("metadata.labels.tier".into(), "gold".into())), ..CacheList::default() };
    let silver = CacheList { field: Some(("metadata.labels.tier".into(), "silver".into())), ..CacheList::default() };
    assert_eq!(w.cache_list(Kind::Pod, &gold).unwrap().len(), 10);
    // The namespace index's entry and the label index's two (`default/gold` and
    // `__all_namespaces/gold`): three entries a Pod.
    assert_eq!(w.costs().index_entries.0, 10 * 3);
    w.act(Intervention::Patch {
        kind: Kind::Pod,
        namespace: "default".into(),
        name: "p0".into(),
        set: serde_json::Map::new(),
        labels: [("tier".to_string(), "silver".to_string())].into(),
    });
    w.run_until_idle(1_000);
    assert_eq!(w.cache_list(Kind::Pod, &gold).unwrap().len(), 9);
    assert_eq!(w.cache_list(Kind::Pod, &silver).unwrap().len(), 1, "p0 moved to the new value");
    assert_eq!(w.costs().index_entries.0, 10 * 3, "the same entries, one moved");
}
