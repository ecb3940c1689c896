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
//! - JSON patch (`application/json-patch+json`, RFC 6902): `add`, `remove`, `replace`, `move`,
//!   `copy` and `test` at JSON pointers; an operation that cannot apply (a failed test, a
//!   missing path) answers 422 as kube-apiserver does, with no more said.
//!
//! Left out: server-side apply (`application/apply-patch+yaml`), which answers 415; element
//! order from `$setElementOrder`; merge keys beyond the fields listed in [`merge_key`].

use super::api_errors::Status;
use serde_json::{Map, Value};

/// A PATCH request: which object (or its `status`), the body, and how to read it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PatchRequest {
    pub kind: super::api_object::Kind,
    pub namespace: String,
    pub name: String,
    pub status: bool,
    pub body: Value,
    pub patch_type: PatchType,
}

/// How a PATCH body is to be read, by its Content-Type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PatchType {
    Merge,
    StrategicMerge,
    Json,
}

impl PatchType {
    /// The patch type a Content-Type names; 415 for the ones the playground does not apply.
    pub fn from_content_type(content_type: &str) -> Result<PatchType, Status> {
        match content_type.split(';').next().unwrap_or("").trim() {
            "application/merge-patch+json" => Ok(PatchType::Merge),
            "application/strategic-merge-patch+json" => Ok(PatchType::StrategicMerge),
            "application/json-patch+json" => Ok(PatchType::Json),
            _ => Err(Status::new(415, "UnsupportedMediaType", "415: Unsupported Media Type".into())
                .with_details(super::api_errors::StatusDetails::default())),
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
    if kind == PatchType::Json {
        return json_patch(original, patch);
    }
    if !patch.is_object() {
        let text: String = patch.to_string().chars().take(80).collect();
        return Err(Status::bad_request(format!("the body of the request is not a JSON object: {text}")));
    }
    Ok(merge(original, patch, kind == PatchType::StrategicMerge))
}

/// RFC 6902 on `original`. A body that is not a list of operations is a 400; an operation
/// that cannot apply is kube-apiserver's 422, whose message says no more.
fn json_patch(original: &Value, patch: &Value) -> Result<Value, Status> {
    let Some(ops) = patch.as_array() else {
        let why = "json: cannot unmarshal object into Go value of type jsonpatch.Patch";
        return Err(Status::bad_request(why.into()));
    };
    let rejected = || {
        Status::new(422, "Invalid", "the server rejected our request due to an error in our request".into())
            .with_details(super::api_errors::StatusDetails::default())
    };
    let mut doc = original.clone();
    for op in ops {
        let path = op["path"].as_str().ok_or_else(rejected)?;
        let from = || op["from"].as_str().ok_or_else(rejected);
        let value = || op.get("value").cloned().ok_or_else(rejected);
        match op["op"].as_str().unwrap_or_default() {
            "add" => pointer_insert(&mut doc, path, value()?, false),
            "replace" => pointer_insert(&mut doc, path, value()?, true),
            "remove" => pointer_remove(&mut doc, path).map(drop),
            "move" => {
                let moved = pointer_remove(&mut doc, from()?).ok_or_else(rejected)?;
                pointer_insert(&mut doc, path, moved, false)
            }
            "copy" => {
                let copied = doc.pointer(from()?).cloned().ok_or_else(rejected)?;
                pointer_insert(&mut doc, path, copied, false)
            }
            "test" => (doc.pointer(path) == Some(&value()?)).then_some(()),
            _ => None,
        }
        .ok_or_else(rejected)?;
    }
    Ok(doc)
}

/// The parent of a JSON pointer's target and the target's last token (`~1` → `/`, `~0` → `~`).
fn pointer_parent<'a>(doc: &'a mut Value, path: &str) -> Option<(&'a mut Value, String)> {
    let (parent, last) = path.rsplit_once('/')?;
    let token = last.replace("~1", "/").replace("~0", "~");
    Some((doc.pointer_mut(parent)?, token))
}

/// `add` (or, `replace`, only where the target exists) of `value` at `path`.
fn pointer_insert(doc: &mut Value, path: &str, value: Value, replace: bool) -> Option<()> {
    if path.is_empty() {
        *doc = value;
        return Some(());
    }
    let (parent, token) = pointer_parent(doc, path)?;
    match parent {
        Value::Object(map) if !replace || map.contains_key(&token) => {
            map.insert(token, value);
        }
        Value::Array(items) => {
            let at = if token == "-" { items.len() } else { token.parse().ok()? };
            match replace {
                true if at < items.len() => items[at] = value,
                false if at <= items.len() => items.insert(at, value),
                _ => return None,
            }
        }
        _ => return None,
    }
    Some(())
}

fn pointer_remove(doc: &mut Value, path: &str) -> Option<Value> {
    let (parent, token) = pointer_parent(doc, path)?;
    match parent {
        Value::Object(map) => map.remove(&token),
        Value::Array(items) => {
            let at: usize = token.parse().ok()?;
            (at < items.len()).then(|| items.remove(at))
        }
        _ => None,
    }
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

    #[test]
    fn json_patch_applies_rfc_6902_and_refuses_with_422() {
        let cm = serde_json::json!({"data": {"v": "1"}, "list": ["a", "c"]});
        let ops = serde_json::json!([
            {"op": "add", "path": "/data/y", "value": "2"},
            {"op": "add", "path": "/list/1", "value": "b"},
            {"op": "replace", "path": "/data/v", "value": "9"},
            {"op": "copy", "from": "/data/y", "path": "/data/z"},
            {"op": "move", "from": "/data/z", "path": "/data/w"},
            {"op": "remove", "path": "/list/0"},
            {"op": "test", "path": "/data/w", "value": "2"},
        ]);
        let out = super::apply(&cm, &ops, super::PatchType::Json).unwrap();
        assert_eq!(out, serde_json::json!({"data": {"v": "9", "y": "2", "w": "2"}, "list": ["b", "c"]}));
        let failed = serde_json::json!([{"op": "test", "path": "/data/v", "value": "no"}]);
        let err = super::apply(&cm, &failed, super::PatchType::Json).unwrap_err();
        assert_eq!((err.code, err.reason), (422, "Invalid"));
        let missing = serde_json::json!([{"op": "replace", "path": "/data/none", "value": "x"}]);
        assert_eq!(super::apply(&cm, &missing, super::PatchType::Json).unwrap_err().code, 422);
    }

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
        assert!(PatchType::from_content_type("application/apply-patch+yaml").is_err_and(|s| s.code == 415));
    }
}
