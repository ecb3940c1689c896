//! What serve-api writes on the wire, as kube-apiserver writes it: objects with their type,
//! lists with their resourceVersion and continue token, watch events one JSON document a line
//! (a bookmark carries only a resourceVersion, and the one that ends a watch-list's initial
//! events the annotation `k8s.io/initial-events-end`), errors as `Status` objects, and
//! `Table`s (`Accept: …;as=Table;…`) with the columns of the apiserver's printers, which
//! `kubectl get` shows.

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
/// (the list's are theirs).
pub fn list(kind: Kind, l: &ListResponse) -> Value {
    let mut metadata = json!({"resourceVersion": l.resource_version.to_string()});
    if !l.continue_token.is_empty() {
        metadata["continue"] = json!(l.continue_token);
    }
    if let Some(remaining) = l.remaining_item_count {
        metadata["remainingItemCount"] = json!(remaining);
    }
    let item = |o: &ApiObject| {
        let mut v = object(o);
        if let Some(fields) = v.as_object_mut() {
            fields.remove("kind");
            fields.remove("apiVersion");
        }
        v
    };
    json!({
        "kind": format!("{}List", kind.name()),
        "apiVersion": kind.api_version(),
        "metadata": metadata,
        "items": l.items.iter().map(|o| item(o)).collect::<Vec<_>>(),
    })
}

/// One watch event, as its line on the stream (without the newline).
pub fn event(kind: Kind, e: &WatchEvent) -> Value {
    let bookmark = |rv: i64, end: bool| {
        let mut metadata = json!({"resourceVersion": rv.to_string(), "creationTimestamp": null});
        if end {
            metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        json!({"kind": kind.name(), "apiVersion": kind.api_version(), "metadata": metadata})
    };
    let object = match e {
        WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) => object(o),
        WatchEvent::Bookmark(rv) => bookmark(*rv, false),
        WatchEvent::InitialEventsEnd(rv) => bookmark(*rv, true),
        WatchEvent::Error(s) => status(s),
    };
    json!({"type": e.type_name(), "object": object})
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
        let end = event(Kind::Pod, &WatchEvent::InitialEventsEnd(12));
        assert_eq!(end["type"], "BOOKMARK");
        assert_eq!(end["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"], "true");
        assert_eq!(end["object"]["metadata"]["resourceVersion"], "12");
        let gone = event(Kind::Pod, &WatchEvent::Error(Status::too_old_resource_version(3, 9)));
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
    fn a_table_has_the_printer_columns_and_typed_cells() {
        let cm = ApiObject::new(Kind::ConfigMap, "default", "a").with("data", json!({"x": "1", "y": "2"}));
        let t = table(Kind::ConfigMap, &[&cm], Some(5), 0);
        assert_eq!(t["columnDefinitions"][1]["name"], "Data");
        assert_eq!(t["rows"][0]["cells"][1], 2, "an integer column carries a number");
        assert_eq!(t["rows"][0]["object"]["metadata"]["name"], "a");
    }
}
