//! The fields each served kind knows in a release, read from that release's own OpenAPI v3
//! documents (`api/openapi-spec/v3` of k8s.io/kubernetes at the tag the judge's kube-apiserver
//! builds from), in the form `src/wire/fields/<release>.json` keeps them: each type a map from
//! field to the type below it (`""` a value with no fields of its own, `"="` a raw object,
//! `"*T"` a map whose values are `T`); arrays are transparent.

use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::process::Command;

/// The k8s.io/kubernetes tag each release's judge server builds from.
fn tag(release: &str) -> &'static str {
    match release {
        "1.30" => "v1.30.14",
        "1.33" => "v1.33.13",
        "1.37" => "v1.37.2",
        other => panic!("no tag for release {other}"),
    }
}

/// The kinds serve-api serves and the documents their schemas are in.
const ROOTS: [(&str, &str, &str); 5] = [
    ("Pod", "api__v1_openapi.json", "io.k8s.api.core.v1.Pod"),
    ("ConfigMap", "api__v1_openapi.json", "io.k8s.api.core.v1.ConfigMap"),
    ("Secret", "api__v1_openapi.json", "io.k8s.api.core.v1.Secret"),
    ("ReplicaSet", "apis__apps__v1_openapi.json", "io.k8s.api.apps.v1.ReplicaSet"),
    ("Deployment", "apis__apps__v1_openapi.json", "io.k8s.api.apps.v1.Deployment"),
];

/// Types kept whole, whatever is inside (the decoder reads them as raw JSON).
const RAW: [&str; 2] =
    ["io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1", "io.k8s.apimachinery.pkg.runtime.RawExtension"];

fn spec_dir(release: &str) -> PathBuf {
    let out = Command::new("go").args(["env", "GOMODCACHE"]).output().expect("go env GOMODCACHE");
    let cache = String::from_utf8(out.stdout).unwrap().trim().to_string();
    PathBuf::from(cache).join(format!("k8s.io/kubernetes@{}/api/openapi-spec/v3", tag(release)))
}

fn short(name: &str) -> String {
    ["io.k8s.api.", "io.k8s.apimachinery.pkg.apis.", "io.k8s.apimachinery.pkg."]
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .unwrap_or(name)
        .to_string()
}

/// The schema a field's own schema refers to, through `allOf`, `items` and `additionalProperties`.
fn referred(schema: &Value) -> Option<(&str, bool)> {
    if let Some(r) = schema["$ref"].as_str() {
        return Some((r.trim_start_matches("#/components/schemas/"), false));
    }
    if let Some(inner) = schema["allOf"].get(0) {
        return referred(inner);
    }
    if schema["items"].is_object() {
        return referred(&schema["items"]);
    }
    if schema["additionalProperties"].is_object() {
        return referred(&schema["additionalProperties"]).map(|(r, _)| (r, true));
    }
    None
}

/// The known fields of the five kinds in `release`.
pub fn of_release(release: &str) -> Value {
    let dir = spec_dir(release);
    let mut types = Map::new();
    let mut roots = Map::new();
    for (kind, file, root) in ROOTS {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc: Value = serde_json::from_str(&text).unwrap();
        let schemas = &doc["components"]["schemas"];
        roots.insert(kind.into(), json!(short(root)));
        let mut todo = vec![root.to_string()];
        while let Some(name) = todo.pop() {
            if types.contains_key(&short(&name)) {
                continue;
            }
            let mut fields = Map::new();
            for (field, schema) in schema_properties(&schemas[&name]) {
                let below = match referred(schema) {
                    Some((r, _)) if RAW.contains(&r) => "=".to_string(),
                    Some((r, map)) if schemas[r]["properties"].is_object() => {
                        todo.push(r.to_string());
                        format!("{}{}", if map { "*" } else { "" }, short(r))
                    }
                    _ => String::new(),
                };
                fields.insert(field.clone(), json!(below));
            }
            types.insert(short(&name), Value::Object(fields));
        }
    }
    json!({"release": release, "from": format!("k8s.io/kubernetes@{} api/openapi-spec/v3", tag(release)), "kinds": roots, "types": types})
}

fn schema_properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    schema["properties"].as_object().into_iter().flatten()
}
