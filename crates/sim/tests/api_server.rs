//! The API server end to end through its verbs: semantics §7 (revisions) and §8 (API server).

use informer_sim::cluster::rbac::{PolicyRule, Role, RoleBinding, Subject};
use informer_sim::cluster::Verb;
use informer_sim::cluster::*;
use serde_json::json;

fn admin() -> UserInfo {
    UserInfo::admin()
}

fn cm(name: &str) -> ApiObject {
    ApiObject::new(Kind::ConfigMap, "default", name).with("data", json!({"k": "v"}))
}

fn create(api: &mut ApiServer, obj: ApiObject) -> ApiObject {
    api.create(&admin(), obj).expect("create")
}

fn watch(api: &mut ApiServer, rv: &str) -> u64 {
    let opts = WatchOptions { resource_version: rv.into(), allow_bookmarks: true, ..Default::default() };
    api.watch(&admin(), Kind::ConfigMap, &opts).expect("watch")
}

fn types(events: &[WatchEvent]) -> Vec<(&'static str, i64)> {
    events.iter().map(|e| (e.type_name(), e.resource_version())).collect()
}

#[test]
fn semantics_8_resource_version_is_the_global_mod_revision() {
    let mut api = ApiServer::default();
    let a = create(&mut api, cm("a"));
    assert_eq!(a.metadata.resource_version, "2", "the first write is revision 2 (§7)");
    create(&mut api, cm("b"));
    create(&mut api, ApiObject::new(Kind::Pod, "default", "p"));
    let got = api.get(&admin(), Kind::ConfigMap, "default", "a", "").unwrap();
    assert_eq!(got.metadata.resource_version, "2", "other objects' writes do not change a's RV");
    let list = api.list(&admin(), Kind::ConfigMap, &ListOptions::default()).unwrap();
    assert_eq!(list.resource_version, 4, "the list RV is the store revision, moved by a Pod write too");
    assert_eq!(list.items.len(), 2);
}

#[test]
fn semantics_8_update_conflicts_on_a_stale_resource_version() {
    let mut api = ApiServer::default();
    let a = create(&mut api, cm("a"));
    let mut first = a.clone();
    first.body.insert("data".into(), json!({"k": "1"}));
    let updated = api.update(&admin(), first).unwrap();
    assert_eq!(updated.metadata.resource_version, "3");
    let mut stale = a.clone();
    stale.body.insert("data".into(), json!({"k": "2"}));
    let err = api.update(&admin(), stale).unwrap_err();
    assert_eq!(err.code, 409);
    assert_eq!(
        err.message,
        r#"Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again"#
    );
    let same = api.update(&admin(), updated.clone()).unwrap();
    assert_eq!(same.metadata.resource_version, "3", "an update that changes nothing writes nothing");
    assert_eq!(api.store().revision(), 3);
}

#[test]
fn semantics_8_spec_and_status_are_written_by_different_verbs() {
    let mut api = ApiServer::default();
    let d = ApiObject::new(Kind::Deployment, "default", "web")
        .with("spec", json!({"replicas": 3}))
        .with("status", json!({"replicas": 9}));
    let d = create(&mut api, d);
    assert_eq!(d.metadata.generation, 1);
    assert_eq!(d.status(), Some(&json!({})), "status is not set on create");
    let mut scaled = d.clone();
    scaled.body.insert("spec".into(), json!({"replicas": 5}));
    scaled.body.insert("status".into(), json!({"replicas": 5}));
    let scaled = api.update(&admin(), scaled).unwrap();
    assert_eq!(scaled.metadata.generation, 2);
    assert_eq!(scaled.status(), Some(&json!({})), "an update of the main resource keeps status");
    let mut status = scaled.clone();
    status.body.insert("status".into(), json!({"replicas": 5, "observedGeneration": 2}));
    status.body.insert("spec".into(), json!({"replicas": 1}));
    let written = api.update_status(&admin(), status).unwrap();
    assert_eq!(written.spec(), Some(&json!({"replicas": 5})), "a status update keeps spec");
    assert_eq!(written.metadata.generation, 2, "status writes do not bump generation");
    let err = api.update_status(&admin(), cm("a")).unwrap_err();
    assert_eq!(err.code, 404);
}

#[test]
fn semantics_8_deleted_events_carry_the_last_state_with_the_deletion_rv() {
    let mut api = ApiServer::default();
    create(&mut api, cm("a"));
    let w = watch(&mut api, "2");
    api.delete(&admin(), Kind::ConfigMap, "default", "a").unwrap();
    let events = api.take_events(w);
    assert_eq!(types(&events), vec![("DELETED", 3)]);
    assert_eq!(events[0].object().unwrap().body["data"], json!({"k": "v"}));
    let err = api.delete(&admin(), Kind::ConfigMap, "default", "a").unwrap_err();
    assert_eq!(err.message, r#"configmaps "a" not found"#);
}

#[test]
fn semantics_8_watch_without_rv_starts_with_synthetic_adds() {
    let mut api = ApiServer::default();
    create(&mut api, cm("a"));
    create(&mut api, cm("b"));
    for rv in ["", "0"] {
        let w = watch(&mut api, rv);
        assert_eq!(
            types(&api.take_events(w)),
            vec![("ADDED", 2), ("ADDED", 3), ("BOOKMARK", 3)],
            "with WatchList (1.34 on) the server serves a legacy watch as a watch-list"
        );
    }
    let mut legacy = ApiServer::new(ApiServerConfig { watch_list: false, ..Default::default() });
    create(&mut legacy, cm("a"));
    for rv in ["", "0"] {
        let w = watch(&mut legacy, rv);
        assert_eq!(types(&legacy.take_events(w)), vec![("ADDED", 2)], "without WatchList: the state, no bookmark");
    }
    let w = watch(&mut api, "2");
    assert_eq!(types(&api.take_events(w)), vec![("ADDED", 3)], "from N: only changes after N");
    let mut b = api.get(&admin(), Kind::ConfigMap, "default", "b", "").unwrap();
    b.body.insert("data".into(), json!({"k": "2"}));
    api.update(&admin(), b).unwrap();
    assert_eq!(types(&api.take_events(w)), vec![("MODIFIED", 4)]);
}

#[test]
fn semantics_8_watch_cache_window_expires_old_resource_versions() {
    let mut api = ApiServer::new(ApiServerConfig { watch_cache: true, watch_cache_capacity: 3, ..Default::default() });
    for i in 0..6 {
        // Events 80 s apart: older than 75 s, so the window does not grow.
        api.set_time(i * 80_000);
        create(&mut api, cm(&format!("c{i}")));
    }
    // Revisions 2..=7; the window holds 5, 6, 7: the oldest servable RV is 4.
    let w = watch(&mut api, "3");
    let events = api.take_events(w);
    assert_eq!(events.len(), 1);
    let WatchEvent::Error(status) = &events[0] else { panic!("expected an ERROR event, got {events:?}") };
    assert_eq!((status.code, status.reason), (410, "Expired"));
    assert_eq!(status.message, "too old resource version: 3 (4)");
    assert!(!api.watch_is_open(w), "the stream ends after the error");
    let w = watch(&mut api, "4");
    assert_eq!(types(&api.take_events(w)), vec![("ADDED", 5), ("ADDED", 6), ("ADDED", 7)]);
}

#[test]
fn semantics_8_compaction_expires_watches_served_from_etcd_but_not_the_cache() {
    let mut api = ApiServer::new(ApiServerConfig { watch_cache: false, ..Default::default() });
    create(&mut api, cm("a"));
    create(&mut api, cm("b"));
    create(&mut api, cm("c"));
    api.compact(4).unwrap();
    let w = watch(&mut api, "2");
    let events = api.take_events(w);
    let WatchEvent::Error(status) = &events[0] else { panic!("expected an ERROR event, got {events:?}") };
    assert_eq!((status.code, status.message.as_str()), (410, "The resourceVersion for the provided watch is too old."));
    let w = watch(&mut api, "3");
    assert_eq!(types(&api.take_events(w)), vec![("ADDED", 4)], "watching from the compact revision - 1 works");

    let mut cached = ApiServer::default();
    for name in ["a", "b", "c"] {
        create(&mut cached, cm(name));
    }
    cached.compact(4).unwrap();
    let w = watch(&mut cached, "2");
    assert_eq!(types(&cached.take_events(w)), vec![("ADDED", 3), ("ADDED", 4)], "the watch cache is not compacted");
}

#[test]
fn semantics_8_restart_closes_watches_and_reinitialises_the_cache() {
    let mut api = ApiServer::default();
    create(&mut api, cm("a"));
    let w = watch(&mut api, "2");
    create(&mut api, cm("b"));
    api.restart();
    assert!(!api.watch_is_open(w));
    assert_eq!(api.live_watchers(), 0);
    let w = watch(&mut api, "2");
    let events = api.take_events(w);
    assert!(matches!(&events[..], [WatchEvent::Error(s)] if s.message == "too old resource version: 2 (3)"));
    let w = watch(&mut api, "3");
    assert!(api.take_events(w).is_empty());
    assert!(api.watch_is_open(w));
}

#[test]
fn semantics_8_selector_watches_turn_stop_matching_into_deleted() {
    let mut api = ApiServer::default();
    let opts = WatchOptions { label_selector: "app=web".into(), ..Default::default() };
    let w = api.watch(&admin(), Kind::ConfigMap, &opts).unwrap();
    let a = create(&mut api, cm("a"));
    let mut labelled = a.clone().with_label("app", "web");
    labelled.metadata.resource_version.clear();
    let labelled = api.update(&admin(), labelled).unwrap();
    let mut unlabelled = labelled.clone();
    unlabelled.metadata.labels.clear();
    api.update(&admin(), unlabelled).unwrap();
    let events = api.take_events(w);
    assert_eq!(types(&events), vec![("ADDED", 3), ("DELETED", 4)]);
    assert_eq!(events[1].object().unwrap().metadata.labels["app"], "web", "DELETED carries the previous content");
}

#[test]
fn semantics_8_list_resource_version_semantics() {
    let mut api = ApiServer::default();
    for i in 0..5 {
        create(&mut api, cm(&format!("c{i}")));
    }
    // Unset with a limit: consistent pages from etcd, chained by continue tokens.
    let first = api.list(&admin(), Kind::ConfigMap, &ListOptions { limit: 2, ..Default::default() }).unwrap();
    assert_eq!((first.items.len(), first.resource_version), (2, 6));
    assert!(!first.continue_token.is_empty());
    create(&mut api, cm("c9"));
    let next = ListOptions { limit: 10, continue_token: first.continue_token.clone(), ..Default::default() };
    let second = api.list(&admin(), Kind::ConfigMap, &next).unwrap();
    assert_eq!(second.items.len(), 3, "the continuation reads at the first page's revision");
    assert_eq!(second.resource_version, 6);
    // "0": any, from the watch cache, which ignores the limit.
    let any = api
        .list(&admin(), Kind::ConfigMap, &ListOptions { resource_version: "0".into(), limit: 2, ..Default::default() })
        .unwrap();
    assert_eq!((any.items.len(), any.continue_token.as_str()), (6, ""));
    // N with a limit: exact; once etcd compacted it, from the watch cache's snapshot while
    // its window holds N (1.34 on), else 410.
    api.compact(6).unwrap();
    let exact = ListOptions { resource_version: "3".into(), limit: 1, ..Default::default() };
    let snapshot = api.list(&admin(), Kind::ConfigMap, &exact).unwrap();
    assert_eq!((snapshot.items.len(), snapshot.resource_version, snapshot.remaining_item_count), (1, 3, Some(1)));
    let mut before = ApiServer::new(ApiServerConfig { list_from_cache_snapshot: false, ..Default::default() });
    for i in 0..5 {
        create(&mut before, cm(&format!("c{i}")));
    }
    before.compact(6).unwrap();
    let err = before.list(&admin(), Kind::ConfigMap, &exact).unwrap_err();
    assert_eq!((err.code, err.message.as_str()), (410, "The resourceVersion for the provided list is too old."));
    let err = api.list(&admin(), Kind::ConfigMap, &ListOptions { resource_version: "3".into(), ..Default::default() });
    assert!(err.is_ok(), "N without a limit is not-older-than, served from the cache");
    // A continuation after its revision was compacted: from the cache's snapshot (1.34 on),
    // else 410 with a fresh token at the latest revision.
    let stale = api.list(&admin(), Kind::ConfigMap, &ListOptions { limit: 1, ..Default::default() }).unwrap();
    let stale_before = before.list(&admin(), Kind::ConfigMap, &ListOptions { limit: 1, ..Default::default() }).unwrap();
    create(&mut api, cm("d"));
    create(&mut before, cm("d"));
    api.compact(8).unwrap();
    before.compact(7).unwrap();
    let next = |token: String| ListOptions { continue_token: token, ..Default::default() };
    let snapshot = api.list(&admin(), Kind::ConfigMap, &next(stale.continue_token)).unwrap();
    assert_eq!((snapshot.items.len(), snapshot.resource_version), (5, 7), "the snapshot at the token's revision");
    let err = before.list(&admin(), Kind::ConfigMap, &next(stale_before.continue_token)).unwrap_err();
    assert_eq!(err.code, 410);
    assert!(err.message.starts_with("The provided continue parameter is too old to display a consistent list result."));
    assert!(!err.continue_token.is_empty(), "the 410 carries the token to go on with");
    // N in the future: 504 Too large resource version.
    let err = api
        .list(&admin(), Kind::ConfigMap, &ListOptions { resource_version: "99".into(), ..Default::default() })
        .unwrap_err();
    assert_eq!((err.code, err.message.as_str()), (504, "Timeout: Too large resource version: 99, current: 8"));
}

#[test]
fn semantics_8_field_selectors_and_namespaces() {
    let mut api = ApiServer::default();
    let outside = api.create(&admin(), ApiObject::new(Kind::Pod, "a", "p0")).unwrap_err();
    assert_eq!((outside.code, outside.message.as_str()), (404, r#"namespaces "a" not found"#));
    for ns in ["a", "b"] {
        api.create_namespace(&admin(), ns).unwrap();
    }
    for (ns, name, node) in [("a", "p1", "n1"), ("a", "p2", "n2"), ("b", "p3", "n1")] {
        create(&mut api, ApiObject::new(Kind::Pod, ns, name).with("spec", json!({"nodeName": node})));
    }
    let on_n1 = ListOptions { field_selector: "spec.nodeName=n1".into(), ..Default::default() };
    assert_eq!(api.list(&admin(), Kind::Pod, &on_n1).unwrap().items.len(), 2);
    let in_a =
        ListOptions { namespace: Some("a".into()), field_selector: "spec.nodeName=n1".into(), ..Default::default() };
    assert_eq!(api.list(&admin(), Kind::Pod, &in_a).unwrap().items[0].metadata.name, "p1");
    let bad = ListOptions { field_selector: "spec.image=x".into(), ..Default::default() };
    assert_eq!(api.list(&admin(), Kind::Pod, &bad).unwrap_err().message, "field label not supported: spec.image");
}

#[test]
fn semantics_1_4_bookmarks_go_per_watcher_a_minute_apart_at_the_watch_cache_revision() {
    let mut api = ApiServer::default();
    create(&mut api, cm("a"));
    let opts = |bookmarks| WatchOptions {
        resource_version: "2".into(),
        allow_bookmarks: bookmarks,
        timeout_secs: 300,
        ..Default::default()
    };
    let with = api.watch(&admin(), Kind::ConfigMap, &opts(true)).unwrap();
    let without = api.watch(&admin(), Kind::ConfigMap, &opts(false)).unwrap();
    assert_eq!(api.next_bookmark_at(), Some(60_000), "about a minute after the watch starts");
    create(&mut api, ApiObject::new(Kind::Pod, "default", "p"));
    api.set_time(60_000);
    assert_eq!(
        api.send_due_bookmarks(),
        0,
        "the ConfigMap cache has not seen the Pod write: its revision is the watch's start, which a bookmark never repeats"
    );
    assert!(api.take_events(with).is_empty() && api.take_events(without).is_empty());
    api.progress_notify();
    api.set_time(120_000);
    api.send_due_bookmarks();
    assert_eq!(types(&api.take_events(with)), vec![("BOOKMARK", 3)], "etcd's progress notification lifted it");
    api.set_time(240_000);
    api.send_due_bookmarks();
    assert_eq!(api.next_bookmark_at(), Some(298_000), "the last one 2 s before the deadline");
}

#[test]
fn semantics_1_5_a_watch_list_streams_the_state_then_the_initial_events_end_bookmark() {
    for watch_cache in [true, false] {
        let mut api = ApiServer::new(ApiServerConfig { watch_cache, ..Default::default() });
        create(&mut api, cm("b"));
        create(&mut api, cm("a"));
        create(&mut api, ApiObject::new(Kind::Pod, "default", "p"));
        let opts = WatchOptions {
            allow_bookmarks: true,
            send_initial_events: Some(true),
            resource_version_match: "NotOlderThan".into(),
            ..Default::default()
        };
        let w = api.watch(&admin(), Kind::ConfigMap, &opts).unwrap();
        let events = api.take_events(w);
        assert_eq!(types(&events), vec![("ADDED", 3), ("ADDED", 2), ("BOOKMARK", 4)], "watch cache {watch_cache}");
        assert!(matches!(events[2], WatchEvent::InitialEventsEnd(4)), "a consistent read: etcd's current revision");
    }
}

#[test]
fn semantics_1_5_watch_list_options_are_validated_as_upstream() {
    let mut api = ApiServer::default();
    let mut opts = WatchOptions { allow_bookmarks: true, send_initial_events: Some(true), ..Default::default() };
    assert_eq!(
        api.watch(&admin(), Kind::ConfigMap, &opts).unwrap_err().message,
        r#"ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"#
    );
    opts.resource_version_match = "NotOlderThan".into();
    let mut older = ApiServer::new(ApiServerConfig { watch_list: false, ..Default::default() });
    let err = older.watch(&admin(), Kind::ConfigMap, &opts).unwrap_err();
    assert_eq!(
        (err.code, err.message.as_str()),
        (
            422,
            r#"ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"#
        )
    );
    let plain = WatchOptions { resource_version_match: "NotOlderThan".into(), ..Default::default() };
    assert!(api
        .watch(&admin(), Kind::ConfigMap, &plain)
        .unwrap_err()
        .message
        .contains("resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
}

fn controller() -> UserInfo {
    UserInfo::service_account("my-ns", "my-controller")
}

fn grant(api: &mut ApiServer, verbs: &[&str]) {
    let rbac = api.rbac_mut();
    rbac.put_role(Role {
        namespace: String::new(),
        name: "cm-reader".into(),
        rules: vec![PolicyRule::new(verbs, &[""], &["configmaps"])],
    });
    rbac.put_binding(RoleBinding {
        namespace: String::new(),
        name: "cm-reader".into(),
        role_is_cluster_role: true,
        role_name: "cm-reader".into(),
        subjects: vec![Subject::ServiceAccount { namespace: "my-ns".into(), name: "my-controller".into() }],
    });
}

#[test]
fn semantics_8_rbac_is_checked_per_request() {
    let mut api = ApiServer::default();
    let err = api.list(&controller(), Kind::ConfigMap, &ListOptions::default()).unwrap_err();
    assert_eq!(err.code, 403);
    assert_eq!(
        err.message,
        r#"configmaps is forbidden: User "system:serviceaccount:my-ns:my-controller" cannot list resource "configmaps" in API group "" at the cluster scope"#
    );
    grant(&mut api, &["list", "watch"]);
    assert!(api.list(&controller(), Kind::ConfigMap, &ListOptions::default()).is_ok());
    let w = api
        .watch(&controller(), Kind::ConfigMap, &WatchOptions { resource_version: "1".into(), ..Default::default() })
        .unwrap();
    grant(&mut api, &["list"]);
    create(&mut api, cm("a"));
    assert_eq!(types(&api.take_events(w)), vec![("ADDED", 2)], "an open watch keeps streaming after a revoke");
    let err = api
        .watch(&controller(), Kind::ConfigMap, &WatchOptions { namespace: Some("my-ns".into()), ..Default::default() })
        .unwrap_err();
    assert!(err.message.ends_with(r#"cannot watch resource "configmaps" in API group "" in the namespace "my-ns""#));
    let named = WatchOptions { field_selector: "metadata.name=a".into(), ..Default::default() };
    let err = api.watch(&controller(), Kind::ConfigMap, &named).unwrap_err();
    assert!(err.message.starts_with(r#"configmaps "a" is forbidden: "#), "a single-object watch is authorised by name");
    let metrics = api.metrics();
    assert_eq!(metrics.requests[&(Verb::List, "configmaps".to_string(), 403)], 1);
    assert_eq!(metrics.requests_by_verb(Verb::Watch), 3);
    assert_eq!(api.live_watchers(), 1);
}

#[test]
fn semantics_8_bad_input_gets_upstream_errors() {
    let mut api = ApiServer::default();
    let err = api.create(&admin(), cm("Bad_Name")).unwrap_err();
    assert_eq!(err.code, 422);
    assert!(err.message.starts_with(
        r#"ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain"#
    ));
    let mut foo = cm("x");
    foo.kind = "Foo".into();
    assert_eq!(api.create(&admin(), foo).unwrap_err().message, r#"no matches for kind "Foo" in version "v1""#);
    let mut with_rv = cm("x");
    with_rv.metadata.resource_version = "5".into();
    assert_eq!(
        api.create(&admin(), with_rv).unwrap_err().message,
        "resourceVersion should not be set on objects to be created"
    );
    create(&mut api, cm("x"));
    assert_eq!(api.create(&admin(), cm("x")).unwrap_err().message, r#"configmaps "x" already exists"#);
    assert_eq!(api.compact(9), Err(MvccError::FutureRevision));
    assert_eq!(api.compact(9).unwrap_err().grpc_message(), "etcdserver: mvcc: required revision is a future revision");
    let err = api
        .list(&admin(), Kind::ConfigMap, &ListOptions { resource_version: "abc".into(), ..Default::default() })
        .unwrap_err();
    assert_eq!(err.code, 400);
    let err = api
        .list(&admin(), Kind::ConfigMap, &ListOptions { continue_token: "!!".into(), ..Default::default() })
        .unwrap_err();
    assert!(err.message.starts_with("invalid continue token: continue key is not valid"), "{}", err.message);
    // Bytes that are not UTF-8 inside the token's JSON read as U+FFFD, as Go's decoder reads
    // them: the token is refused for its version, not for its encoding.
    let token = informer_sim::base64::encode_url(b"{\"v\":\"meta.k8s.io/v\xff\",\"rv\":1,\"start\":\"a\"}");
    let err =
        api.list(&admin(), Kind::ConfigMap, &ListOptions { continue_token: token, ..Default::default() }).unwrap_err();
    assert!(err.message.contains("got invalid continue token version \"meta.k8s.io/v\u{fffd}\""), "{}", err.message);
}

#[test]
fn semantics_8_a_delete_whose_preconditions_do_not_hold_is_a_409_and_deletes_nothing() {
    use informer_sim::cluster::registry::Preconditions;
    let mut api = ApiServer::default();
    let a = create(&mut api, cm("a"));
    let stale = Preconditions { resource_version: Some("1".into()), ..Default::default() };
    let refused = api.delete_if(&admin(), Kind::ConfigMap, "default", "a", &stale).unwrap_err();
    assert_eq!((refused.code, refused.reason), (409, "Conflict"));
    assert_eq!(
        refused.message,
        "Operation cannot be fulfilled on ConfigMap \"a\": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (2). The object might have been modified"
    );
    let other = Preconditions { uid: Some("other".into()), resource_version: Some("1".into()) };
    let refused = api.delete_if(&admin(), Kind::ConfigMap, "default", "a", &other).unwrap_err();
    assert!(refused.message.contains("the UID in the precondition (other) does not match"), "the uid is checked first");
    assert!(api.get(&admin(), Kind::ConfigMap, "default", "a", "").is_ok(), "nothing deleted");
    let holds = Preconditions { uid: Some(a.metadata.uid.clone()), resource_version: Some("2".into()) };
    assert!(api.delete_if(&admin(), Kind::ConfigMap, "default", "a", &holds).is_ok());
    assert_eq!(api.get(&admin(), Kind::ConfigMap, "default", "a", "").unwrap_err().code, 404);
}
