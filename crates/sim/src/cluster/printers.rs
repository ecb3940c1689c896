//! The table kubectl prints for each kind (`kubectl get`'s columns and rows), as kube-apiserver's
//! table convertor and kubectl's printers lay them out (upstream: `pkg/printers/internalversion`
//! in kubernetes, and kubectl's tabwriter). The console prints it and serve-api answers
//! `Accept: application/json;as=Table` with it. Only the columns of the default output; `-o
//! wide`'s extra columns are not modelled.

use super::{ApiObject, Kind};
use crate::kernel::Millis;
use serde_json::Value;

/// The columns `kubectl get` prints for a kind.
pub fn columns(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Pod => &["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
        Kind::Deployment => &["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
        Kind::ReplicaSet => &["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
        Kind::ConfigMap => &["NAME", "DATA", "AGE"],
        Kind::Secret => &["NAME", "TYPE", "DATA", "AGE"],
    }
}

/// One row of `kubectl get` for an object.
pub fn row(kind: Kind, obj: &ApiObject, now: Millis) -> Vec<String> {
    let status = obj.status().cloned().unwrap_or_default();
    let spec = obj.spec().cloned().unwrap_or_default();
    let count = |v: &Value| v.as_i64().unwrap_or(0);
    let age = age(obj, now);
    let name = obj.metadata.name.clone();
    match kind {
        Kind::Pod => {
            let containers = spec["containers"].as_array().map_or(0, Vec::len);
            let statuses = status["containerStatuses"].as_array().cloned().unwrap_or_default();
            let ready = statuses.iter().filter(|c| c["ready"] == Value::Bool(true)).count();
            let waiting = statuses.iter().find_map(|c| c["state"]["waiting"]["reason"].as_str().map(String::from));
            let phase = waiting.unwrap_or_else(|| status["phase"].as_str().unwrap_or("Pending").to_string());
            vec![name, format!("{ready}/{containers}"), phase, "0".into(), age]
        }
        Kind::Deployment => {
            let want = count(&spec["replicas"]);
            let ready = count(&status["readyReplicas"]);
            vec![name, format!("{ready}/{want}"), count(&status["replicas"]).to_string(), ready.to_string(), age]
        }
        Kind::ReplicaSet => {
            let (want, have, ready) =
                (count(&spec["replicas"]), count(&status["replicas"]), count(&status["readyReplicas"]));
            vec![name, want.to_string(), have.to_string(), ready.to_string(), age]
        }
        Kind::ConfigMap => {
            vec![name, obj.body.get("data").and_then(Value::as_object).map_or(0, |d| d.len()).to_string(), age]
        }
        Kind::Secret => {
            let data = obj.body.get("data").and_then(Value::as_object).map_or(0, |d| d.len());
            vec![
                name,
                obj.body.get("type").and_then(Value::as_str).unwrap_or("Opaque").to_string(),
                data.to_string(),
                age,
            ]
        }
    }
}

/// Lines padded into columns, three spaces apart, as kubectl's tabwriter does.
pub fn align(rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..rows.iter().map(Vec::len).max().unwrap_or(0))
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            let cells: Vec<String> =
                r.iter().enumerate().map(|(i, s)| format!("{s:<width$}", width = widths[i])).collect();
            cells.join("   ").trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `duration.HumanDuration` of the object's age.
fn age(obj: &ApiObject, now: Millis) -> String {
    let created = super::api_object::timestamp_ms(&obj.metadata.creation_timestamp).unwrap_or(now);
    let s = now.saturating_sub(created) / 1000;
    let (m, h) = (s / 60, s / 3600);
    match () {
        _ if s < 120 => format!("{s}s"),
        _ if m < 10 && !s.is_multiple_of(60) => format!("{m}m{}s", s % 60),
        _ if m < 180 => format!("{m}m"),
        _ if h < 8 && !m.is_multiple_of(60) => format!("{h}h{}m", m % 60),
        _ if h < 48 => format!("{h}h"),
        _ => format!("{}d", h / 24),
    }
}
