//! What serve-api writes on the wire, as kube-apiserver writes it: objects with their type,
//! lists with their resourceVersion and continue token, watch events one JSON document a line
//! (a bookmark carries only a resourceVersion, and the one that ends a watch-list's initial
//! events the annotation `k8s.io/initial-events-end`), errors as `Status` objects, and
//! `Table`s (`Accept: …;as=Table;…`) with the columns of the apiserver's printers, which
//! `kubectl get` shows, and metadata alone (`Accept: …;as=PartialObjectMetadata;…`, what
//! client-go's metadata client and controller-runtime's metadata informers ask for).

use informer_sim::cluster::watch::WatchEvent;
use informer_sim::cluster::{ApiObject, Kind, ListResponse, Status};
use informer_sim::kernel::Millis;
use serde_json::{json, Value};

/// An object as JSON, with `kind` and `apiVersion`.
pub fn object(obj: &ApiObject) -> Value {
    serde_json::to_value(obj).unwrap_or(Value::Null)
}

/// A `Status` error, with its details when it has them (an unclassified error has no reason).
pub fn status(s: &Status) -> Value {
    let mut v = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": s.message,
        "code": s.code,
    });
    if !s.reason.is_empty() {
        v["reason"] = json!(s.reason);
    }
    if let Some(details) = &s.details {
        v["details"] = serde_json::to_value(details).unwrap_or_default();
    }
    if !s.continue_token.is_empty() {
        v["metadata"]["continue"] = json!(s.continue_token);
    }
    v
}

/// A `Status` of success (what a DELETE of a collection or a review may answer with).
pub fn success() -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"})
}

/// What a DELETE that removed the object at once answers: success, naming it.
pub fn deleted(kind: Kind, obj: &ApiObject) -> Value {
    let mut v = success();
    let mut details = json!({"name": obj.metadata.name, "kind": kind.resource()});
    if !kind.group().is_empty() {
        details["group"] = json!(kind.group());
    }
    if !obj.metadata.uid.is_empty() {
        details["uid"] = json!(obj.metadata.uid);
    }
    v["details"] = details;
    v
}

/// A LIST's answer: `<Kind>List`, whose items carry no `kind` or `apiVersion` of their own
/// (the list's are theirs); for metadata alone a `PartialObjectMetadataList`, whose items are
/// each typed `PartialObjectMetadata` (apiserver `handlers/response.go:
/// asPartialObjectMetadataList`).
pub fn list(kind: Kind, l: &ListResponse, metadata_only: bool) -> Value {
    let mut metadata = json!({"resourceVersion": l.resource_version.to_string()});
    if !l.continue_token.is_empty() {
        metadata["continue"] = json!(l.continue_token);
    }
    if let Some(remaining) = l.remaining_item_count {
        metadata["remainingItemCount"] = json!(remaining);
    }
    let item = |o: &ApiObject| {
        let mut v = object(o);
        if let Some(fields) = v.as_object_mut().filter(|_| !metadata_only) {
            fields.remove("kind");
            fields.remove("apiVersion");
        }
        v
    };
    let (list_kind, api_version) = match metadata_only {
        true => ("PartialObjectMetadataList".to_string(), PARTIAL_API_VERSION),
        false => (format!("{}List", kind.name()), kind.api_version()),
    };
    json!({
        "kind": list_kind,
        "apiVersion": api_version,
        "metadata": metadata,
        "items": l.items.iter().map(|o| item(o)).collect::<Vec<_>>(),
    })
}

/// One watch event, as its line on the stream (without the newline); a bookmark of a
/// metadata-only watch is typed as its objects are.
pub fn event(kind: Kind, e: &WatchEvent, metadata_only: bool) -> Value {
    let bookmark = |rv: i64, end: bool| {
        let mut metadata = json!({"resourceVersion": rv.to_string(), "creationTimestamp": null});
        if end {
            metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        let (kind, api_version) = match metadata_only {
            true => ("PartialObjectMetadata", PARTIAL_API_VERSION),
            false => (kind.name(), kind.api_version()),
        };
        json!({"kind": kind, "apiVersion": api_version, "metadata": metadata})
    };
    let object = match e {
        WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) => object(o),
        WatchEvent::Bookmark(rv) => bookmark(*rv, false),
        WatchEvent::InitialEventsEnd(rv) => bookmark(*rv, true),
        WatchEvent::Error(s) => status(s),
    };
    json!({"type": e.type_name(), "object": object})
}

/// The group version of `PartialObjectMetadata` and its list.
const PARTIAL_API_VERSION: &str = "meta.k8s.io/v1";

/// What an `Accept` header's first JSON choice asks for in place of the object: `as=` naming
/// `PartialObjectMetadata` or `PartialObjectMetadataList` of `meta.k8s.io/v1` (a protobuf
/// choice before it is passed over: this server writes JSON).
pub fn wants_metadata(accept: &str) -> Option<&'static str> {
    let choice = accept.split(',').map(str::trim).find(|c| !c.starts_with("application/vnd.kubernetes.protobuf"))?;
    let param = |name: &str| choice.split(';').map(str::trim).find_map(|p| p.strip_prefix(name)?.strip_prefix('='));
    if param("g") != Some("meta.k8s.io") || param("v") != Some("v1") {
        return None;
    }
    ["PartialObjectMetadata", "PartialObjectMetadataList"].into_iter().find(|k| param("as") == Some(*k))
}

/// Whether an `Accept` header asks for a Table.
pub fn wants_table(accept: &str) -> bool {
    accept.split(',').next().is_some_and(|first| first.contains("as=Table"))
}

/// The apiserver printer's columns for a kind: (name, type).
fn column_definitions(kind: Kind) -> Vec<(&'static str, &'static str)> {
    match kind {
        Kind::Pod => vec![
            ("Name", "string"),
            ("Ready", "string"),
            ("Status", "string"),
            ("Restarts", "string"),
            ("Age", "string"),
        ],
        Kind::Deployment => {
            vec![
                ("Name", "string"),
                ("Ready", "string"),
                ("Up-to-date", "integer"),
                ("Available", "integer"),
                ("Age", "string"),
            ]
        }
        Kind::ReplicaSet => {
            vec![
                ("Name", "string"),
                ("Desired", "integer"),
                ("Current", "integer"),
                ("Ready", "integer"),
                ("Age", "string"),
            ]
        }
        Kind::ConfigMap => vec![("Name", "string"), ("Data", "integer"), ("Age", "string")],
        Kind::Secret => vec![("Name", "string"), ("Type", "string"), ("Data", "integer"), ("Age", "string")],
    }
}

/// A `Table` of objects (a list, or one watch event's object).
pub fn table(kind: Kind, objects: &[&ApiObject], resource_version: Option<i64>, now: Millis) -> Value {
    let columns = column_definitions(kind);
    let definitions: Vec<Value> = columns
        .iter()
        .map(|(name, typ)| {
            let mut d = json!({"name": name, "type": typ, "format": "", "description": "", "priority": 0});
            if *name == "Name" {
                d["format"] = json!("name");
            }
            d
        })
        .collect();
    let rows: Vec<Value> = objects
        .iter()
        .map(|o| {
            let cells: Vec<Value> = informer_sim::cluster::printers::row(kind, o, now)
                .into_iter()
                .zip(&columns)
                .map(|(cell, (_, typ))| match (*typ, cell.parse::<i64>()) {
                    ("integer", Ok(n)) => json!(n),
                    _ => json!(cell),
                })
                .collect();
            let mut metadata = serde_json::to_value(&o.metadata).unwrap_or(Value::Null);
            if let Some(m) = metadata.as_object_mut() {
                m.remove("managedFields");
            }
            json!({"cells": cells, "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": metadata}})
        })
        .collect();
    let mut metadata = json!({});
    if let Some(rv) = resource_version {
        metadata["resourceVersion"] = json!(rv.to_string());
    }
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": metadata, "columnDefinitions": definitions, "rows": rows})
}

/// The `autoscaling/v1` Scale of a Deployment or ReplicaSet.
pub fn scale(obj: &ApiObject) -> Value {
    let spec = obj.spec().cloned().unwrap_or_default();
    let status = obj.status().cloned().unwrap_or_default();
    let selector = spec["selector"]["matchLabels"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default())).collect::<Vec<_>>().join(","))
        .unwrap_or_default();
    json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": obj.metadata.name, "namespace": obj.metadata.namespace, "uid": obj.metadata.uid,
            "resourceVersion": obj.metadata.resource_version, "creationTimestamp": obj.metadata.creation_timestamp,
        },
        "spec": {"replicas": spec["replicas"].as_i64().unwrap_or(1)},
        "status": {"replicas": status["replicas"].as_i64().unwrap_or(0), "selector": selector},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watch_events_and_errors_look_as_kube_apiserver_writes_them() {
        let end = event(Kind::Pod, &WatchEvent::InitialEventsEnd(12), false);
        assert_eq!(end["type"], "BOOKMARK");
        assert_eq!(end["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"], "true");
        assert_eq!(end["object"]["metadata"]["resourceVersion"], "12");
        let gone = event(Kind::Pod, &WatchEvent::Error(Status::too_old_resource_version(3, 9)), false);
        assert_eq!(gone["object"]["reason"], "Expired");
        assert_eq!(gone["object"]["code"], 410);
        let s = status(&Status::not_found(Kind::Deployment, "web"));
        assert_eq!(s["details"], json!({"name": "web", "group": "apps", "kind": "deployments"}));
        let s = status(&Status::not_found(Kind::ConfigMap, "a"));
        assert_eq!(s["details"], json!({"name": "a", "kind": "configmaps"}), "an empty group is left out");
        assert!(wants_table("application/json;as=Table;v=v1;g=meta.k8s.io,application/json"));
        assert!(!wants_table("application/json"));
    }

    #[test]
    fn metadata_alone_is_asked_for_by_the_first_json_choice_and_typed_as_upstream_types_it() {
        let metadata_client = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
        assert_eq!(wants_metadata(metadata_client), Some("PartialObjectMetadataList"));
        assert_eq!(
            wants_metadata("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"),
            Some("PartialObjectMetadata")
        );
        assert_eq!(wants_metadata("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2"), None);
        assert_eq!(wants_metadata("application/json"), None);
        let cm = ApiObject::new(Kind::ConfigMap, "default", "a").with("data", json!({"x": "1"})).partial_metadata();
        let l = ListResponse {
            items: vec![cm.into()],
            resource_version: 7,
            continue_token: String::new(),
            remaining_item_count: None,
        };
        let v = list(Kind::ConfigMap, &l, true);
        assert_eq!(
            (v["kind"].as_str(), v["apiVersion"].as_str()),
            (Some("PartialObjectMetadataList"), Some("meta.k8s.io/v1"))
        );
        assert_eq!(v["items"][0]["kind"], "PartialObjectMetadata", "each item keeps its type");
        assert_eq!(v["items"][0]["data"], Value::Null, "and its metadata alone");
        let bookmark = event(Kind::ConfigMap, &WatchEvent::Bookmark(9), true);
        assert_eq!(bookmark["object"]["kind"], "PartialObjectMetadata");
    }

    #[test]
    fn a_table_has_the_printer_columns_and_typed_cells() {
        let cm = ApiObject::new(Kind::ConfigMap, "default", "a").with("data", json!({"x": "1", "y": "2"}));
        let t = table(Kind::ConfigMap, &[&cm], Some(5), 0);
        assert_eq!(t["columnDefinitions"][1]["name"], "Data");
        assert_eq!(t["rows"][0]["cells"][1], 2, "an integer column carries a number");
        assert_eq!(t["rows"][0]["object"]["metadata"]["name"], "a");
    }
}
