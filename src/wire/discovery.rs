//! What clients ask before anything else (apiserver `endpoints/discovery`, `version`): the
//! server's version, its API groups and, per group version, its resources with their verbs,
//! short names and categories — what kubectl reads to turn `get deploy` into a URL. Served in
//! the legacy form: clients that ask for aggregated discovery first fall back to it when the
//! answer is not of that type.

use informer_sim::cluster::Kind;
use informer_sim::era::Era;
use serde_json::{json, Value};

/// The Kubernetes version of an era's release (`v1.37.2` beside client-go `v0.37.2`).
pub fn git_version(era: Era) -> String {
    era.client_go().replacen("v0.", "v1.", 1)
}

/// `/version`.
pub fn version(era: Era) -> Value {
    let (major, minor) = era.name().split_once('.').unwrap_or(("1", "0"));
    json!({
        "major": major,
        "minor": minor,
        "gitVersion": git_version(era),
        "gitCommit": "0000000000000000000000000000000000000000",
        "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "go1.26",
        "compiler": "gc",
        "platform": "linux/amd64"
    })
}

const VERBS: [&str; 8] = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

fn short_names(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Pod => &["po"],
        Kind::ConfigMap => &["cm"],
        Kind::Deployment => &["deploy"],
        Kind::ReplicaSet => &["rs"],
        Kind::Secret => &[],
    }
}

fn resources(group: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for kind in Kind::ALL.into_iter().filter(|k| k.group() == group) {
        let mut main = json!({
            "name": kind.resource(),
            "singularName": kind.name().to_ascii_lowercase(),
            "namespaced": true,
            "kind": kind.name(),
            "verbs": VERBS,
            "shortNames": short_names(kind),
        });
        if matches!(kind, Kind::Pod | Kind::Deployment | Kind::ReplicaSet) {
            main["categories"] = json!(["all"]);
        }
        out.push(main);
        if kind.has_status() {
            out.push(json!({"name": format!("{}/status", kind.resource()), "singularName": "", "namespaced": true, "kind": kind.name(), "verbs": ["get", "patch", "update"]}));
        }
        if matches!(kind, Kind::Deployment | Kind::ReplicaSet) {
            out.push(json!({"name": format!("{}/scale", kind.resource()), "singularName": "", "namespaced": true, "group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": ["get", "patch", "update"]}));
        }
    }
    if group.is_empty() {
        out.push(json!({"name": "namespaces", "singularName": "namespace", "namespaced": false, "kind": "Namespace", "verbs": ["get", "list"], "shortNames": ["ns"]}));
    }
    out
}

/// The OpenAPI v3 document of a group version: for each resource the paths kubectl looks at
/// (`PATCH` with the `x-kubernetes-group-version-kind` extension and the `fieldValidation`
/// query parameter, which tells kubectl to let the server validate). No schemas: kubectl then
/// takes patch strategies from its compiled-in types.
fn openapi_v3(group: &str, era: Era) -> Value {
    let mut paths = serde_json::Map::new();
    for kind in Kind::ALL.into_iter().filter(|k| k.group() == group) {
        let base = if group.is_empty() { "/api/v1".to_string() } else { format!("/apis/{group}/v1") };
        let gvk = json!({"group": group, "version": "v1", "kind": kind.name()});
        let operation = |verb: &str| {
            json!({
                "operationId": format!("{verb}{}", kind.name()),
                "x-kubernetes-group-version-kind": gvk,
                "x-kubernetes-action": verb,
                "parameters": [
                    {"name": "dryRun", "in": "query", "schema": {"type": "string"}},
                    {"name": "fieldManager", "in": "query", "schema": {"type": "string"}},
                    {"name": "fieldValidation", "in": "query", "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "OK"}}
            })
        };
        paths.insert(
            format!("{base}/namespaces/{{namespace}}/{}/{{name}}", kind.resource()),
            json!({"patch": operation("patch"), "put": operation("put")}),
        );
        paths
            .insert(format!("{base}/namespaces/{{namespace}}/{}", kind.resource()), json!({"post": operation("post")}));
    }
    json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": git_version(era)},
        "paths": paths,
        "components": {"schemas": {}}
    })
}

/// The discovery document at `path`, if the playground serves one.
pub fn document(path: &str, era: Era) -> Option<Value> {
    let group = |name: &str| json!({"name": name, "versions": [{"groupVersion": format!("{name}/v1"), "version": "v1"}], "preferredVersion": {"groupVersion": format!("{name}/v1"), "version": "v1"}});
    Some(match path.trim_end_matches('/') {
        "/version" => version(era),
        "/healthz" | "/livez" | "/readyz" => json!("ok"),
        "/api" => {
            json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": ""}]})
        }
        "/apis" => {
            json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": [group("apps"), group("authorization.k8s.io")]})
        }
        "/api/v1" => json!({"kind": "APIResourceList", "groupVersion": "v1", "resources": resources("")}),
        "/apis/apps/v1" => {
            json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "apps/v1", "resources": resources("apps")})
        }
        "/openapi/v3" => json!({"paths": {
            "api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=0"},
            "apis/apps/v1": {"serverRelativeURL": "/openapi/v3/apis/apps/v1?hash=0"}
        }}),
        "/openapi/v3/api/v1" => openapi_v3("", era),
        "/openapi/v3/apis/apps/v1" => openapi_v3("apps", era),
        "/apis/authorization.k8s.io/v1" => json!({
            "kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "authorization.k8s.io/v1",
            "resources": [{"name": "selfsubjectaccessreviews", "singularName": "selfsubjectaccessreview", "namespaced": false, "kind": "SelfSubjectAccessReview", "verbs": ["create"]}]
        }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_names_every_kind_with_its_short_names_and_subresources() {
        let core = document("/api/v1", Era::V1_37).unwrap();
        let names: Vec<&str> =
            core["resources"].as_array().unwrap().iter().filter_map(|r| r["name"].as_str()).collect();
        assert!(names.contains(&"pods") && names.contains(&"pods/status") && names.contains(&"configmaps"));
        let apps = document("/apis/apps/v1", Era::V1_37).unwrap();
        let scale = apps["resources"].as_array().unwrap().iter().find(|r| r["name"] == "deployments/scale").unwrap();
        assert_eq!((scale["group"].as_str(), scale["kind"].as_str()), (Some("autoscaling"), Some("Scale")));
        assert_eq!(version(Era::V1_30)["gitVersion"], "v1.30.14");
        assert!(document("/apis/batch/v1", Era::V1_37).is_none());
    }
}
