//! PATCH bodies as the API server applies them (apiserver `endpoints/handlers/patch.go`,
//! apimachinery `util/strategicpatch`, RFC 7386), semantics §8: enough for what kubectl sends
//! with `label`, `annotate`, `scale`, `edit` and `apply`.
//!
//! - JSON merge patch (`application/merge-patch+json`): objects merge key by key, `null`
//!   removes a key, anything else (lists included) replaces.
//! - Strategic merge patch (`application/strategic-merge-patch+json`): the same, except that
//!   lists of objects the Kubernetes types mark with a merge key merge element by element on
//!   it (containers by `name`, ports by `containerPort`, …), `$patch: delete` removes an element
//!   (or a map), `$patch: replace` replaces, `$deleteFromPrimitiveList/<field>` removes values,
//!   and `$setElementOrder/<field>` and `$retainKeys` are accepted and left out of the result.
//!
//! Left out: JSON patch (`application/json-patch+json`) and server-side apply
//! (`application/apply-patch+yaml`), which answer 415; element order from
//! `$setElementOrder`; merge keys beyond the fields listed in [`merge_key`].

use super::api_errors::Status;
use serde_json::{Map, Value};

/// A PATCH request: which object (or its `status`), the body, and how to read it.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchRequest {
    pub kind: super::api_object::Kind,
    pub namespace: String,
    pub name: String,
    pub status: bool,
    pub body: Value,
    pub patch_type: PatchType,
}

/// How a PATCH body is to be read, by its Content-Type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    Merge,
    StrategicMerge,
}

impl PatchType {
    /// The patch type a Content-Type names; 415 for the ones the playground does not apply.
    pub fn from_content_type(content_type: &str) -> Result<PatchType, Status> {
        match content_type.split(';').next().unwrap_or("").trim() {
            "application/merge-patch+json" => Ok(PatchType::Merge),
            "application/strategic-merge-patch+json" => Ok(PatchType::StrategicMerge),
            other => Err(Status::new(
                415,
                "UnsupportedMediaType",
                format!(
                    "the body of the request was in an unknown format - accepted media types include: application/merge-patch+json, application/strategic-merge-patch+json (not {other:?})"
                ),
            )),
        }
    }
}

/// The merge key of a list field, by the field's name (from the Kubernetes API types'
/// `patchMergeKey` tags).
fn merge_key(field: &str) -> Option<&'static str> {
    Some(match field {
        "containers" | "initContainers" | "ephemeralContainers" | "volumes" | "env" | "imagePullSecrets" => "name",
        "ports" => "containerPort",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "conditions" => "type",
        "ownerReferences" => "uid",
        "tolerations" | "topologySpreadConstraints" => return None,
        _ => return None,
    })
}

/// Applies `patch` to `original` and returns the result.
pub fn apply(original: &Value, patch: &Value, kind: PatchType) -> Result<Value, Status> {
    if !patch.is_object() {
        let text: String = patch.to_string().chars().take(80).collect();
        return Err(Status::bad_request(format!("the body of the request is not a JSON object: {text}")));
    }
    Ok(merge(original, patch, kind == PatchType::StrategicMerge))
}

fn merge(original: &Value, patch: &Value, strategic: bool) -> Value {
    let (Some(base), Some(changes)) = (original.as_object(), patch.as_object()) else {
        return patch.clone();
    };
    if strategic && changes.get("$patch").and_then(Value::as_str) == Some("replace") {
        let mut replaced = changes.clone();
        replaced.remove("$patch");
        return Value::Object(replaced);
    }
    let mut out = base.clone();
    for (key, value) in changes {
        if strategic && (key.starts_with("$setElementOrder/") || key == "$retainKeys" || key == "$patch") {
            continue;
        }
        if strategic {
            if let Some(field) = key.strip_prefix("$deleteFromPrimitiveList/") {
                if let (Some(Value::Array(list)), Some(gone)) = (out.get_mut(field), value.as_array()) {
                    list.retain(|v| !gone.contains(v));
                }
                continue;
            }
        }
        match value {
            Value::Null => {
                out.remove(key);
            }
            Value::Object(_) if strategic && value.get("$patch").and_then(Value::as_str) == Some("delete") => {
                out.remove(key);
            }
            Value::Object(_) => {
                let merged = merge(out.get(key).unwrap_or(&Value::Null), value, strategic);
                out.insert(key.clone(), strip_directives(merged));
            }
            Value::Array(items) if strategic => {
                let merged = match (merge_key(key), out.get(key).and_then(Value::as_array)) {
                    (Some(by), Some(current)) => merge_list(current, items, by),
                    _ => items.iter().filter(|i| !is_delete(i)).cloned().map(strip_directives).collect(),
                };
                out.insert(key.clone(), Value::Array(merged));
            }
            other => {
                out.insert(key.clone(), other.clone());
            }
        }
    }
    Value::Object(out)
}

fn is_delete(item: &Value) -> bool {
    item.get("$patch").and_then(Value::as_str) == Some("delete")
}

/// Merges list `patch` into `current` element by element on the merge key `by`.
fn merge_list(current: &[Value], patch: &[Value], by: &str) -> Vec<Value> {
    let mut out: Vec<Value> = current.to_vec();
    for item in patch {
        let key = item.get(by);
        let at = key.and_then(|k| out.iter().position(|c| c.get(by) == Some(k)));
        match (at, is_delete(item)) {
            (Some(i), true) => {
                out.remove(i);
            }
            (None, true) => {}
            (Some(i), false) => out[i] = strip_directives(merge(&out[i], item, true)),
            (None, false) => out.push(strip_directives(item.clone())),
        }
    }
    out
}

/// Removes the patch directives a merged value may still carry.
fn strip_directives(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| !k.starts_with('$'))
                .map(|(k, v)| (k, strip_directives(v)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(strip_directives).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn semantics_8_a_merge_patch_merges_maps_removes_nulls_and_replaces_lists() {
        let original = json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "spec": {"ports": [1, 2]}});
        let patch = json!({"metadata": {"labels": {"b": null, "c": "3"}}, "spec": {"ports": [3]}});
        assert_eq!(
            apply(&original, &patch, PatchType::Merge).unwrap(),
            json!({"metadata": {"labels": {"a": "1", "c": "3"}}, "spec": {"ports": [3]}})
        );
    }

    #[test]
    fn semantics_8_a_strategic_merge_patch_merges_containers_by_name() {
        let original = json!({"spec": {"containers": [{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:1"}]}});
        let patch = json!({"spec": {
            "$setElementOrder/containers": [{"name": "a"}, {"name": "b"}],
            "containers": [{"name": "b", "image": "y:2"}, {"name": "a", "$patch": "delete"}, {"name": "c", "image": "z:1"}]
        }});
        assert_eq!(
            apply(&original, &patch, PatchType::StrategicMerge).unwrap(),
            json!({"spec": {"containers": [{"name": "b", "image": "y:2"}, {"name": "c", "image": "z:1"}]}})
        );
        assert!(PatchType::from_content_type("application/json-patch+json").is_err_and(|s| s.code == 415));
    }
}
