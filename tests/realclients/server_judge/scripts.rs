//! The judge's request scripts: named ones, each about one behaviour, and ones generated from
//! seeds. A script is data for `http-script`; `group` says how it may run: `plain` ones all at
//! once, `timed` ones (a 3 s wait) at once beside each other, and `alone` ones one by one
//! after the rest: a compaction is the whole store's, and a quiet watch's bookmarks carry the
//! watch cache's revision, which any ConfigMap written anywhere moves.

use serde_json::{json, Value};

const CM: &str = "/api/v1/namespaces/{ns}/configmaps";
const PODS: &str = "/api/v1/namespaces/{ns}/pods";

fn configmap(name: &str, data: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data})
}

fn get(path: &str, query: &str) -> Value {
    json!({"method": "GET", "path": path, "query": query})
}

fn list(query: &str, save: &str) -> Value {
    let mut step = get(CM, query);
    if !save.is_empty() {
        step["save"] = json!(save);
    }
    step
}

fn create(name: &str, save: &str) -> Value {
    json!({"method": "POST", "path": CM, "body": configmap(name, json!({"v": "1"})), "save": save})
}

fn put(name: &str, body: Value, save: &str) -> Value {
    json!({"method": "PUT", "path": format!("{CM}/{name}"), "body": body, "save": save})
}

fn delete(name: &str) -> Value {
    json!({"method": "DELETE", "path": format!("{CM}/{name}")})
}

fn watch(query: &str, seconds: f64, during: Vec<Value>) -> Value {
    json!({"method": "GET", "path": CM, "query": format!("watch=1&{query}"), "seconds": seconds, "during": during})
}

fn compact() -> Value {
    json!({"fault": "compact"})
}

fn script(name: &str, group: &str, steps: Vec<Value>) -> Value {
    json!({"name": name, "group": group, "steps": steps})
}

/// The named scripts: the rows of the table the judge was asked to settle, then one or more
/// for every list, watch and write option.
pub fn named() -> Vec<Value> {
    // `n` ConfigMaps, then what makes a real watch cache catch up with them (a pause and a
    // consistent list), so that a read it serves next sees them, as the model's always does.
    let written = |n: usize| {
        let mut steps: Vec<Value> = (0..n).map(|i| create(&format!("cm-{i}"), &format!("w{}", i + 1))).collect();
        steps.extend([json!({"sleep_ms": 200}), list("limit=1", "")]);
        steps
    };
    let with = |mut steps: Vec<Value>, more: Vec<Value>| {
        steps.extend(more);
        steps
    };
    vec![
        // The table's rows.
        script(
            "quiet-watch-bookmarks",
            "alone",
            vec![
                create("a", "w1"),
                list("", "l"),
                // Writes to another resource move the global revision, not the ConfigMap cache's.
                watch(
                    "resourceVersion={rv:l}&allowWatchBookmarks=true",
                    70.0,
                    vec![
                        json!({"sleep_ms": 20_000}),
                        json!({"method": "POST", "path": "/api/v1/namespaces/{ns}/secrets", "body": {"metadata": {"name": "s"}}}),
                        // A consistent list lifts the ConfigMap cache to etcd's revision (1.33 on).
                        json!({"sleep_ms": 5_000}),
                        list("", ""),
                    ],
                ),
            ],
        ),
        script(
            "list-exact-after-update",
            "plain",
            vec![
                create("a", "w1"),
                put("a", json!({"metadata": {"name": "a", "resourceVersion": "{rv:w1}"}, "data": {"v": "2"}}), "w2"),
                list("resourceVersion={rv:w1}&resourceVersionMatch=Exact", ""),
                list("resourceVersion={rv:w2}&resourceVersionMatch=Exact", ""),
            ],
        ),
        script(
            "list-options-invalid",
            "plain",
            vec![
                create("a", "w1"),
                list("resourceVersionMatch=Exact", ""),
                list("resourceVersionMatch=NotOlderThan", ""),
                list("resourceVersion=0&resourceVersionMatch=Exact", ""),
                list("resourceVersion={rv:w1}&resourceVersionMatch=Newest", ""),
                list("sendInitialEvents=true", ""),
                list("sendInitialEvents=true&resourceVersionMatch=NotOlderThan", ""),
            ],
        ),
        script("delete-answers-status", "plain", vec![create("a", "w1"), delete("a"), delete("a")]),
        // DeleteOptions' preconditions (`rest.BeforeDelete`): a stale one is a 409 and deletes
        // nothing; one that holds deletes.
        script(
            "delete-preconditions",
            "plain",
            vec![
                create("a", "w1"),
                json!({"method": "DELETE", "path": format!("{CM}/a"), "body": {"preconditions": {"resourceVersion": "1"}}}),
                get(&format!("{CM}/a"), ""),
                json!({"method": "DELETE", "path": format!("{CM}/a"), "body": {"preconditions": {"resourceVersion": "{rv:w1}"}}}),
                get(&format!("{CM}/a"), ""),
            ],
        ),
        // A refused label value and name, as `RegexError` words them (two spaces before `or`).
        script(
            "invalid-label-value-and-name",
            "plain",
            vec![
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "a", "labels": {"app": "bad value!"}}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "Bad_Name"}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "b", "labels": {"bad key!": "v"}}}}),
            ],
        ),
        // NamespaceLifecycle: a create in a namespace the cluster lacks is a 404 naming it, after
        // authorization and before validation; a Namespace is made once, with a DNS label for a
        // name, by someone allowed to; `default` is never deleted.
        script(
            "namespaces",
            "plain",
            vec![
                json!({"method": "POST", "path": "/api/v1/namespaces/{ns}-missing/configmaps", "body": configmap("a", json!({}))}),
                json!({"method": "POST", "path": "/api/v1/namespaces/{ns}-missing/configmaps", "body": {"metadata": {"name": "b", "labels": {"app": "bad value!"}}}}),
                get("/api/v1/namespaces/{ns}-missing", ""),
                get("/api/v1/namespaces/{ns}", ""),
                json!({"method": "POST", "path": "/api/v1/namespaces", "body": {"metadata": {"name": "{ns}"}}}),
                json!({"method": "POST", "path": "/api/v1/namespaces", "body": {"metadata": {"name": "Bad_Namespace"}}}),
                json!({"method": "POST", "path": "/api/v1/namespaces", "as": "reader", "body": {"metadata": {"name": "{ns}-by-reader"}}}),
                json!({"method": "DELETE", "path": "/api/v1/namespaces/default"}),
                json!({"method": "GET", "path": "/api/v1/namespaces/{ns}", "as": "nobody"}),
                json!({"method": "GET", "path": "/api/v1/namespaces/{ns}-missing", "as": "nobody"}),
                json!({"method": "GET", "path": "/api/v1/namespaces", "as": "watcher"}),
                json!({"method": "GET", "path": "/api/v1/namespaces/{ns}", "as": "reader"}),
                json!({"method": "DELETE", "path": "/api/v1/namespaces/{ns}-missing", "as": "reader"}),
            ],
        ),
        // A PUT's `metadata.uid` is a precondition, checked before its resourceVersion (the
        // storage layer's words); a PATCH that changes it fails validation (immutable).
        script(
            "uid-of-an-update",
            "plain",
            vec![
                create("u", "w1"),
                put("u", json!({"metadata": {"name": "u", "uid": "6d2a3f7e-0000-4000-8000-000000000000", "resourceVersion": "1"}, "data": {"v": "2"}}), ""),
                put("u", json!({"metadata": {"name": "u", "uid": "6d2a3f7e-0000-4000-8000-000000000000"}, "data": {"v": "2"}}), ""),
                json!({"method": "PATCH", "path": format!("{CM}/u"), "content_type": "application/merge-patch+json", "body": {"metadata": {"uid": "other"}, "data": {"v": "3"}}}),
                get(&format!("{CM}/u"), ""),
            ],
        ),
        // `generateName` (`objectmeta.go`, `rest.CheckGeneratedNameError`): checked as a prefix
        // before the name; a name taken while a prefix is set is the server's failure to make
        // one, retried after a second (the Retry-After header). The names a server makes are
        // its own, so only chosen names are compared.
        script(
            "generate-name",
            "plain",
            vec![
                create("gn", "w1"),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "gn", "generateName": "gn-"}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "ok", "generateName": "Bad_"}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "ok-1", "generateName": "ok-"}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "ok-2", "generateName": "-"}}}),
                list("", ""),
            ],
        ),
        // A body over kube-apiserver's `MaxRequestBodyBytes` (3 MiB) is a 413 in its words.
        script(
            "body-over-3-mib",
            "plain",
            vec![
                json!({"method": "POST", "path": CM, "body": configmap("big", json!({"v": "x".repeat(3 * 1024 * 1024 + 1)}))}),
                // Under it, a ConfigMap's data over 1 MiB is a 422 (`core.MaxSecretSize`); at 1 MiB it is taken.
                json!({"method": "POST", "path": CM, "body": configmap("over", json!({"a": "x".repeat(1024 * 1024), "b": "y"}))}),
                json!({"method": "POST", "path": CM, "body": configmap("at", json!({"a": "x".repeat(1024 * 1024 - 1), "b": "y"}))}),
                list("", ""),
            ],
        ),
        // `dryRun=All` (`dryrun.go`): every check and the answer, nothing stored; any other
        // value is a 422 printed as the release prints a list.
        script(
            "dry-run",
            "plain",
            vec![
                json!({"method": "POST", "path": CM, "query": "dryRun=All", "body": configmap("a", json!({"v": "0"}))}),
                get(&format!("{CM}/a"), ""),
                create("a", "w1"),
                json!({"method": "PUT", "path": format!("{CM}/a"), "query": "dryRun=All", "body": {"metadata": {"name": "a", "resourceVersion": "{rv:w1}"}, "data": {"v": "2"}}}),
                json!({"method": "PATCH", "path": format!("{CM}/a"), "query": "dryRun=All", "content_type": "application/merge-patch+json", "body": {"data": {"v": "3"}}}),
                get(&format!("{CM}/a"), ""),
                json!({"method": "DELETE", "path": format!("{CM}/a"), "query": "dryRun=All"}),
                json!({"method": "DELETE", "path": format!("{CM}/a"), "body": {"dryRun": ["All"]}}),
                get(&format!("{CM}/a"), ""),
                json!({"method": "POST", "path": CM, "query": "dryRun=All", "body": configmap("a", json!({}))}),
                json!({"method": "POST", "path": CM, "query": "dryRun=foo", "body": configmap("b", json!({}))}),
                json!({"method": "PUT", "path": format!("{CM}/a"), "query": "dryRun=All&dryRun=bar", "body": {"metadata": {"name": "a"}}}),
                list("", ""),
            ],
        ),
        // A body is decoded as the URL's kind (`transformDecodeError`): another kind, another
        // version or a kind no scheme registers is a 400, and nothing is created.
        script(
            "body-of-another-kind",
            "plain",
            vec![
                json!({"method": "POST", "path": CM, "body": {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}}),
                json!({"method": "POST", "path": CM, "body": {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}}}),
                json!({"method": "POST", "path": CM, "body": {"apiVersion": "v2", "kind": "ConfigMap", "metadata": {"name": "c"}}}),
                json!({"method": "POST", "path": CM, "body": {"apiVersion": "v1", "kind": "Foo", "metadata": {"name": "f"}}}),
                json!({"method": "POST", "path": CM, "body": {"kind": "ConfigMap", "metadata": {"name": "kind-only"}}}),
                get("/api/v1/namespaces/{ns}/secrets/s", ""),
                list("", ""),
            ],
        ),
        // Field validation (`fieldValidation`, `Warn` unless told): an unknown or repeated field
        // is a `Warning` header, a 400 under `Strict`, nothing under `Ignore`, and is never kept;
        // a value not allowed is a 422 beside dryRun's; a 403 comes before all of it.
        script("field-validation", "plain", {
            let cm = |name: &str| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "colour": "red"}, "data": {"k": "v"}, "spec": {"replicas": 1}});
            let twice = |name: &str| format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}","labels":{{"x":"1","x":"2"}}}},"data":{{"k":"v"}},"data":{{"k":"w"}}}}"#);
            let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "busybox", "imag": "typo", "ports": [{"containerPort": 80, "hostPorts": 1}]}]}});
            vec![
                json!({"method": "POST", "path": CM, "body": cm("warned"), "save": "w1"}),
                get(&format!("{CM}/warned"), ""),
                json!({"method": "POST", "path": CM, "query": "fieldValidation=Strict", "body": cm("strict")}),
                get(&format!("{CM}/strict"), ""),
                json!({"method": "POST", "path": CM, "query": "fieldValidation=Ignore", "body": cm("ignored")}),
                json!({"method": "POST", "path": CM, "query": "fieldValidation=Warn", "body": cm("warned")}),
                json!({"method": "POST", "path": CM, "query": "fieldValidation=Strict", "raw": twice("twice")}),
                json!({"method": "POST", "path": CM, "raw": twice("twice")}),
                get(&format!("{CM}/twice"), ""),
                json!({"method": "PUT", "path": format!("{CM}/warned"), "query": "fieldValidation=Strict", "body": cm("warned")}),
                json!({"method": "PUT", "path": format!("{CM}/warned"), "body": {"metadata": {"name": "warned", "resourceVersion": "{rv:w1}", "sheep": 1}, "data": {"k": "u"}}}),
                json!({"method": "POST", "path": CM, "query": "fieldValidation=strict", "body": cm("lower")}),
                json!({"method": "POST", "path": CM, "query": "dryRun=foo&fieldValidation=bad", "body": cm("both")}),
                json!({"method": "POST", "path": CM, "as": "reader", "query": "fieldValidation=bad", "body": cm("reader")}),
                json!({"method": "POST", "path": CM, "as": "reader", "query": "fieldValidation=Strict", "body": cm("reader")}),
                json!({"method": "POST", "path": PODS, "query": "fieldValidation=Strict", "body": pod}),
                json!({"method": "POST", "path": PODS, "body": pod}),
                list("", ""),
                // Patches: a merge patch's fields as the patched object's, sorted; a strategic
                // merge patch's sorted by message, its directives aside.
                json!({"method": "PATCH", "path": format!("{CM}/ignored"), "content_type": "application/merge-patch+json", "body": {"zeta": 1, "data": {"k": "m"}, "alpha": {"b": 2}, "gone": null}}),
                json!({"method": "PATCH", "path": format!("{CM}/ignored"), "content_type": "application/strategic-merge-patch+json", "body": {"zeta": 1, "metadata": {"labels": {"a": "b"}, "colour": "red"}, "alpha": [1, "x"], "gone": null}}),
                json!({"method": "PATCH", "path": format!("{CM}/ignored"), "content_type": "application/strategic-merge-patch+json", "raw": r#"{"data":{"k":"1","k":"2"}}"#}),
                json!({"method": "PATCH", "path": format!("{CM}/ignored"), "query": "fieldValidation=Strict", "content_type": "application/strategic-merge-patch+json", "body": {"zeta": 1, "metadata": {"labels": {"a": "b"}, "colour": "red"}, "alpha": [1, "x"]}}),
                json!({"method": "PATCH", "path": format!("{CM}/ignored"), "query": "fieldValidation=Strict", "content_type": "application/strategic-merge-patch+json", "raw": r#"{"data":{"k":"1","k":"2"}}"#}),
                json!({"method": "PATCH", "path": format!("{CM}/ignored"), "query": "fieldValidation=Strict", "content_type": "application/merge-patch+json", "body": {"zeta": 1}}),
                json!({"method": "PATCH", "path": format!("{CM}/ignored"), "query": "fieldValidation=Ignore", "content_type": "application/merge-patch+json", "body": {"zeta": 1}}),
                get(&format!("{CM}/ignored"), ""),
                json!({"method": "PATCH", "path": format!("{PODS}/p"), "content_type": "application/strategic-merge-patch+json", "body": {"spec": {"activeDeadlineSeconds": 30, "nodeNam": "x"}}}),
            ]
        }),
        // Metadata alone (`Accept: …;as=PartialObjectMetadata[List]`, what metadata informers
        // send): a list of PartialObjectMetadata, an object's, a watch's events; the wrong form
        // for the request is 406 (`handlers/response.go`).
        script("metadata-only", "timed", {
            let metadata = |step: Value, as_: &str| {
                let mut step = step;
                step["accept"] = json!(format!("application/json;as={as_};g=meta.k8s.io;v=v1,application/json"));
                step
            };
            vec![
                json!({"method": "POST", "path": CM, "body": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "labels": {"app": "web"}, "annotations": {"note": "kept"}}, "data": {"big": "dropped"}}, "save": "w1"}),
                metadata(list("", ""), "PartialObjectMetadataList"),
                metadata(list("limit=1", ""), "PartialObjectMetadataList"),
                metadata(get(&format!("{CM}/a"), ""), "PartialObjectMetadata"),
                metadata(list("", ""), "PartialObjectMetadata"),
                metadata(get(&format!("{CM}/a"), ""), "PartialObjectMetadataList"),
                metadata(watch("resourceVersion={rv:w1}", 3.0, vec![put("a", json!({"metadata": {"name": "a"}, "data": {"big": "changed"}}), ""), delete("a")]), "PartialObjectMetadata"),
            ]
        }),
        script(
            "create-with-resource-version",
            "plain",
            vec![json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "a", "resourceVersion": "5"}}})],
        ),
        script(
            "put-name-mismatch",
            "plain",
            vec![
                create("a", "w1"),
                create("b", "w2"),
                put("b", json!({"metadata": {"name": "a"}, "data": {"v": "changed"}}), ""),
                get(&format!("{CM}/a"), ""),
                get(&format!("{CM}/b"), ""),
            ],
        ),
        script(
            "list-limit-continue",
            "plain",
            with(
                written(3),
                vec![
                    list("limit=1", "p1"),
                    list("limit=1&continue={continue:p1}", "p2"),
                    list("limit=1&continue={continue:p2}", "p3"),
                    list("limit=2", ""),
                    list("limit=5", ""),
                ],
            ),
        ),
        script(
            "continue-with-resource-version",
            "plain",
            with(
                written(2),
                vec![
                    list("limit=1", "p1"),
                    list("limit=1&continue={continue:p1}&resourceVersion={rv:p1}", ""),
                    list("limit=1&continue={continue:p1}&resourceVersion=0", ""),
                    list("limit=1&continue={continue:p1}&resourceVersionMatch=NotOlderThan", ""),
                    list("limit=1&continue=not-a-token", ""),
                ],
            ),
        ),
        script(
            "watch-unset-rv-initial-events-end",
            "plain",
            with(written(2), vec![watch("allowWatchBookmarks=true", 3.0, vec![])]),
        ),
        // Lists.
        script(
            "list-resource-versions",
            "plain",
            with(
                written(2),
                vec![
                    list("", ""),
                    list("resourceVersion=0", ""),
                    list("resourceVersion={rv:w1}", ""),
                    list("resourceVersion={rv:w1}&resourceVersionMatch=NotOlderThan", ""),
                    list("resourceVersion=0&resourceVersionMatch=NotOlderThan", ""),
                    list("resourceVersion=zero", ""),
                    list("resourceVersion={rv:w1}&limit=1", "p1"),
                    list("resourceVersion={rv:w1}&resourceVersionMatch=NotOlderThan&limit=1", ""),
                    list("resourceVersion={rv:w1}&resourceVersionMatch=Exact&limit=1", "e1"),
                    list("limit=1&continue={continue:e1}", ""),
                ],
            ),
        ),
        script(
            "list-future-resource-version",
            "timed",
            with(
                written(1),
                vec![list("resourceVersion={future:w1}", ""), list("resourceVersion={future:w1}&resourceVersionMatch=Exact", "")],
            ),
        ),
        script(
            "list-selectors",
            "plain",
            vec![
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "a", "labels": {"app": "web", "tier": "front"}}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "b", "labels": {"app": "db"}}}}),
                list("labelSelector=app%3Dweb", ""),
                list("labelSelector=app%20in%20(web,db),tier!%3Dfront", ""),
                list("labelSelector=!tier", ""),
                list("fieldSelector=metadata.name%3Db", ""),
                list("fieldSelector=metadata.namespace%3D{ns}", ""),
                list("labelSelector=app%3D%3D%3Dweb", ""),
                list("fieldSelector=spec.nodeName%3Dx", ""),
                list("labelSelector=app%3Dweb&limit=1", ""),
            ],
        ),
        // Watches.
        script(
            "watch-resource-versions",
            "plain",
            with(
                written(2),
                vec![
                    watch("resourceVersion=0", 1.0, vec![]),
                    watch("resourceVersion={rv:w1}", 1.0, vec![]),
                    watch("resourceVersion={rv:w2}", 3.0, vec![create("c", "w3")]),
                    watch("resourceVersion=zero", 1.0, vec![]),
                    watch("resourceVersion={rv:w1}&allowWatchBookmarks=true&labelSelector=app%3Dnone", 1.0, vec![]),
                ],
            ),
        ),
        script(
            "watch-send-initial-events",
            "plain",
            with(
                written(2),
                vec![
                    watch("sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", 3.0, vec![]),
                    watch(
                        "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion={rv:w1}",
                        3.0,
                        vec![],
                    ),
                    watch("sendInitialEvents=true&allowWatchBookmarks=true", 3.0, vec![]),
                    watch("sendInitialEvents=true&resourceVersionMatch=NotOlderThan", 3.0, vec![]),
                    watch("sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", 3.0, vec![]),
                    watch("resourceVersionMatch=Exact&resourceVersion={rv:w1}", 3.0, vec![]),
                ],
            ),
        ),
        script("watch-timeout-seconds", "timed", vec![watch("timeoutSeconds=2", 6.0, vec![])]),
        script("watch-future-resource-version", "timed", with(written(1), vec![watch("resourceVersion={future:w1}", 6.0, vec![])])),
        script(
            "watch-sees-writes",
            "plain",
            with(
                written(1),
                vec![watch(
                    "resourceVersion={rv:w1}",
                    3.0,
                    vec![
                        put("cm-0", json!({"metadata": {"name": "cm-0"}, "data": {"v": "2"}}), "w2"),
                        create("b", "w3"),
                        delete("cm-0"),
                    ],
                )],
            ),
        ),
        // Writes.
        script(
            "update-conflicts",
            "plain",
            vec![
                create("a", "w1"),
                put("a", json!({"metadata": {"name": "a", "resourceVersion": "{rv:w1}"}, "data": {"v": "2"}}), "w2"),
                put("a", json!({"metadata": {"name": "a", "resourceVersion": "{rv:w1}"}, "data": {"v": "3"}}), ""),
                put("a", json!({"metadata": {"name": "a"}, "data": {"v": "4"}}), "w3"),
                put("missing", json!({"metadata": {"name": "missing"}, "data": {"v": "1"}}), "w4"),
                put("absent", json!({"metadata": {"name": "absent", "resourceVersion": "{rv:w1}"}}), ""),
                create("a", ""),
            ],
        ),
        script(
            "patches",
            "plain",
            vec![
                create("a", "w1"),
                json!({"method": "PATCH", "path": format!("{CM}/a"), "content_type": "application/merge-patch+json", "body": {"data": {"x": "1"}}}),
                json!({"method": "PATCH", "path": format!("{CM}/a"), "content_type": "application/json-patch+json", "body": [{"op": "add", "path": "/data/y", "value": "2"}]}),
                json!({"method": "PATCH", "path": format!("{CM}/a"), "content_type": "application/strategic-merge-patch+json", "body": {"data": {"x": null}}}),
                json!({"method": "PATCH", "path": format!("{CM}/a"), "content_type": "application/merge-patch+json", "body": {"metadata": {"resourceVersion": "{rv:w1}"}, "data": {"z": "3"}}}),
                json!({"method": "PATCH", "path": format!("{CM}/a"), "content_type": "application/json-patch+json", "body": [{"op": "test", "path": "/data/y", "value": "no"}]}),
                json!({"method": "PATCH", "path": format!("{CM}/missing"), "content_type": "application/merge-patch+json", "body": {"data": {"x": "1"}}}),
                json!({"method": "PATCH", "path": format!("{CM}/a"), "content_type": "text/plain", "body": {"data": {}}}),
            ],
        ),
        script(
            "names-and-namespaces",
            "plain",
            vec![
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "a", "namespace": "elsewhere"}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": "Not_Valid"}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {}}}),
                json!({"method": "POST", "path": CM, "body": {"metadata": {"generateName": "gen-"}}}),
                json!({"method": "POST", "path": CM, "body": "not an object"}),
                json!({"method": "GET", "path": format!("{CM}/missing")}),
                json!({"method": "DELETE", "path": format!("{CM}/missing")}),
                json!({"method": "GET", "path": "/api/v1/namespaces/{ns}/widgets"}),
            ],
        ),
        script(
            "pod-status",
            "plain",
            vec![
                json!({"method": "POST", "path": PODS, "save": "p", "body": {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "busybox"}]}}}),
                json!({"method": "PUT", "path": format!("{PODS}/p/status"), "body": {"metadata": {"name": "p", "resourceVersion": "{rv:p}"}, "status": {"phase": "Running"}}}),
                json!({"method": "GET", "path": format!("{PODS}/p")}),
            ],
        ),
        // Who may do what.
        script(
            "rbac",
            "plain",
            with(
                written(1),
                vec![
                    json!({"method": "GET", "path": CM, "as": "watcher"}),
                    json!({"method": "GET", "path": CM, "query": "watch=1&timeoutSeconds=1", "as": "watcher", "seconds": 2.0, "during": []}),
                    json!({"method": "GET", "path": format!("{CM}/cm-0"), "as": "watcher"}),
                    json!({"method": "GET", "path": format!("{CM}/cm-0"), "as": "nobody"}),
                    json!({"method": "GET", "path": CM, "query": "labelSelector=%3D%3Dbad", "as": "nobody"}),
                    json!({"method": "GET", "path": CM, "as": "reader"}),
                    json!({"method": "POST", "path": CM, "as": "reader", "body": configmap("r", json!({}))}),
                    json!({"method": "GET", "path": "/api/v1/namespaces/{ns}/secrets", "as": "nobody"}),
                    json!({"method": "GET", "path": CM, "as": "stranger"}),
                    json!({"method": "GET", "path": CM, "as": "forged"}),
                ],
            ),
        ),
        // What the lessons' clients ask: client-go's reflector (its first LIST, the watch from
        // the list's RV, 1.37's watch-list, the relist after a 410 at RV ""), a label- and
        // namespace-scoped informer's, the console's `kubectl get` and `get -w`.
        script(
            "lesson-requests",
            "plain",
            with(
                written(3),
                vec![
                    list("resourceVersion=0&limit=500", "l0"),
                    list("limit=500", "l1"),
                    watch("allowWatchBookmarks=true&resourceVersion={rv:l0}&timeoutSeconds=437&watch=true", 1.0, vec![put(
                        "cm-1",
                        json!({"metadata": {"name": "cm-1"}, "data": {"v": "2"}}),
                        "w4",
                    )]),
                    watch(
                        "allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=512&watch=true",
                        3.0,
                        vec![],
                    ),
                    list("labelSelector=app%3Dweb&limit=500&resourceVersion=0", ""),
                    list("limit=500", ""),
                    get(&format!("{CM}/cm-0"), ""),
                    watch("resourceVersion={rv:w4}", 1.0, vec![delete("cm-2")]),
                ],
            ),
        ),
        // Compaction.
        script(
            "after-compaction",
            "alone",
            with(
                written(3),
                vec![
                    list("limit=1", "p1"),
                    create("later", "w4"),
                    compact(),
                    list("resourceVersion={rv:w1}&resourceVersionMatch=Exact", ""),
                    list("resourceVersion={rv:w1}", ""),
                    list("limit=1&continue={continue:p1}", ""),
                    watch("resourceVersion={rv:w1}", 1.0, vec![]),
                ],
            ),
        ),
    ]
}

/// `JUDGE_SCRIPTS` (200 by default).
pub fn seed_count() -> u64 {
    std::env::var("JUDGE_SCRIPTS").ok().and_then(|v| v.parse().ok()).unwrap_or(200)
}

/// The simulation's own generator (splitmix64): each seed's script is the same on every run.
struct Rng(informer_sim::kernel::Rng);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// How long a seeded script waits before a read the watch cache may serve.
const CACHE_CATCH_UP_MS: u64 = 200;

/// Requests per seeded script.
pub const SEEDED_REQUESTS: usize = 25;

/// Seeds 1..=`count`: each a script of `SEEDED_REQUESTS` requests (and the consistent lists
/// that sync a real watch cache before a read from it) over five ConfigMap names —
/// creates, updates with and without (sometimes stale) resourceVersions, patches, deletes, gets,
/// lists with every option, short watches — as the reader, the watcher or the administrator.
pub fn seeded(count: u64) -> Vec<Value> {
    (1..=count).map(seeded_script).collect()
}

fn seeded_script(seed: u64) -> Value {
    let mut rng = Rng(informer_sim::kernel::Rng::new(seed));
    let names = ["a", "b", "c", "d", "e"];
    let mut steps = Vec::new();
    let mut saves = 0;
    // The saves of single objects: an update's precondition names one of these, never a list's
    // resourceVersion, which any script's write in another namespace may move on.
    let mut object_saves: Vec<usize> = Vec::new();
    let mut catch_ups = 0;
    for _ in 0..SEEDED_REQUESTS {
        let name = rng.pick(&names);
        let saved = if saves == 0 { None } else { Some(format!("s{}", 1 + rng.below(saves))) };
        let rv = |rng: &mut Rng| match (rng.below(5), &saved) {
            (0, _) | (_, None) => String::new(),
            (1, _) => "resourceVersion=0".into(),
            (2, Some(s)) => format!("resourceVersion={{future:{s}}}"),
            (_, Some(s)) => format!("resourceVersion={{rv:{s}}}"),
        };
        let mut step = match rng.below(12) {
            0..=2 => {
                let labels = json!({"app": rng.pick(&["web", "db"]), "n": name});
                json!({"method": "POST", "path": CM, "body": {"metadata": {"name": name, "labels": labels}, "data": {"k": rng.pick(&["1", "2"])}}})
            }
            3 | 4 => {
                let mut meta = json!({"name": name});
                if !object_saves.is_empty() && rng.below(2) == 0 {
                    let s = object_saves[rng.below(object_saves.len())];
                    meta["resourceVersion"] = json!(format!("{{rv:s{s}}}"));
                }
                put(name, json!({"metadata": meta, "data": {"k": rng.pick(&["3", "4"])}}), "")
            }
            5 => {
                json!({"method": "PATCH", "path": format!("{CM}/{name}"), "content_type": "application/merge-patch+json", "body": {"data": {"p": rng.pick(&["x", "y"])}}})
            }
            6 => delete(name),
            7 => get(&format!("{CM}/{name}"), &rv(&mut rng)),
            8..=10 => {
                let mut query = vec![rv(&mut rng)];
                match rng.below(6) {
                    0 => query.push("resourceVersionMatch=NotOlderThan".into()),
                    1 => query.push("resourceVersionMatch=Exact".into()),
                    _ => {}
                }
                if rng.below(3) == 0 {
                    query.push(format!("limit={}", 1 + rng.below(3)));
                }
                match rng.below(5) {
                    0 => query.push(format!("labelSelector=app%3D{}", rng.pick(&["web", "db"]))),
                    1 => query.push(format!("fieldSelector=metadata.name%3D{name}")),
                    _ => {}
                }
                query.retain(|q| !q.is_empty());
                list(&query.join("&"), "")
            }
            _ => {
                let from = rv(&mut rng);
                // The writes wait until the watch has surely read its start.
                let writes = vec![json!({"sleep_ms": 300}), create(rng.pick(&names), ""), delete(rng.pick(&names))];
                let query = if from.is_empty() { "allowWatchBookmarks=false".to_string() } else { from };
                watch(&query, 2.0, writes)
            }
        };
        if step.get("seconds").is_none() && rng.below(8) == 0 {
            step["as"] = json!(rng.pick(&["reader", "watcher"]));
        }
        if step["method"] == "POST"
            || step["method"] == "PUT"
            || step["method"] == "GET" && step.get("seconds").is_none()
        {
            saves += 1;
            step["save"] = json!(format!("s{saves}"));
            let a_list = step["method"] == "GET" && step["path"] == CM;
            if !a_list {
                object_saves.push(saves);
            }
        }
        // A real watch cache trails etcd, the more the busier the machine is; before a read it
        // may serve (RV "0", not older than N, any watch), a ConfigMap written in `default`
        // and a list not older than its revision make it catch up: the list waits until the
        // cache has that write (`waitUntilFreshAndBlock`), so that both sides answer from the
        // same writes however slow the machine (a pause alone lost that race once on a loaded
        // machine). The write is a ConfigMap's because the cache learns revisions from its own
        // kind's events: waiting for etcd's revision (a consistent list's) can outlast the wait
        // in 1.30 when the server's own lease moved it last.
        let query = step["query"].as_str().unwrap_or_default();
        let cache_read = query.contains("resourceVersion=") || step.get("seconds").is_some();
        if step["method"] == "GET" && cache_read && !query.contains("{future:") {
            catch_ups += 1;
            let fresh = format!("fresh{catch_ups}");
            let marker = configmap(&format!("{{ns}}-{fresh}"), json!({"at": fresh}));
            steps.push(json!({"sleep_ms": CACHE_CATCH_UP_MS}));
            steps.push(json!({"method": "POST", "path": "/api/v1/namespaces/default/configmaps", "body": marker, "save": fresh}));
            steps.push(list(&format!("resourceVersion={{rv:{fresh}}}"), ""));
        }
        steps.push(step);
    }
    script(&format!("seed-{seed}"), "plain", steps)
}

/// Requests in a script, counting those a watch runs while open.
pub fn requests(script: &Value) -> usize {
    fn count(steps: &[Value]) -> usize {
        steps
            .iter()
            .map(|s| usize::from(s.get("method").is_some()) + s["during"].as_array().map_or(0, |d| count(d)))
            .sum()
    }
    count(script["steps"].as_array().map_or(&[][..], Vec::as_slice))
}
