//! A kube-apiserver request as the wire carries it, read into a typed one (apiserver
//! `endpoints/request/requestinfo.go`, `apis/meta/v1` ListOptions): the path names the
//! resource, namespace, name and subresource; the method and `watch=` the verb; the query
//! the options. What cannot be read is a `Status` naming what was wrong.

use informer_sim::cluster::{Kind, ListOptions, Status, WatchOptions};
use std::collections::BTreeMap;

/// A subresource the playground serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subresource {
    Status,
    Scale,
}

/// What a request is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `/version`, `/api`, `/apis`, `/api/v1`, `/apis/<group>/<version>`, `/openapi/...`.
    Discovery(String),
    /// A resource of a kind, in a namespace (or all), maybe one object and a subresource.
    Resource { kind: Kind, namespace: Option<String>, name: Option<String>, subresource: Option<Subresource> },
    /// `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews`.
    SelfSubjectAccessReview,
    /// `/api/v1/namespaces[/<name>]`: namespaces exist when something is in them.
    Namespaces { name: Option<String> },
}

/// The verb, from the method and the query (`watch=true` makes a GET of a collection a WATCH):
/// the world's own name for the verb of an outside request.
pub use informer_sim::cluster::Verb;

/// A request read from the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub verb: Verb,
    pub target: Target,
    pub list: ListOptions,
    pub watch: WatchOptions,
}

/// The kind behind a resource name in a group/version.
fn kind_of(group: &str, version: &str, resource: &str) -> Result<Kind, Status> {
    Kind::ALL
        .into_iter()
        .find(|k| k.resource() == resource && k.group() == group && version == "v1")
        .ok_or_else(Status::no_such_resource)
}

/// The query's parameters in order, each name and value percent-decoded (a name may repeat).
pub fn query_params(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.split('&').filter(|p| !p.is_empty()).map(|p| {
        let (k, v) = p.split_once('=').unwrap_or((p, ""));
        (informer_sim::percent::percent_decode(k), informer_sim::percent::percent_decode(v))
    })
}

/// The query as name → value, percent-decoded (of a repeated name, the last value).
pub fn query_pairs(query: &str) -> BTreeMap<String, String> {
    query_params(query).collect()
}

fn flag(q: &BTreeMap<String, String>, name: &str) -> Result<Option<bool>, Status> {
    match q.get(name).map(String::as_str) {
        None => Ok(None),
        Some("true" | "1" | "") => Ok(Some(true)),
        Some("false" | "0") => Ok(Some(false)),
        Some(other) => Err(Status::bad_request(format!("invalid value {other:?} for {name}: expected true or false"))),
    }
}

fn number(q: &BTreeMap<String, String>, name: &str) -> Result<u64, Status> {
    match q.get(name) {
        None => Ok(0),
        Some(v) => v
            .parse::<u64>()
            .map_err(|_| Status::bad_request(format!("invalid value {v:?} for {name}: expected a whole number"))),
    }
}

impl Request {
    /// Reads `method path?query`.
    pub fn parse(method: &str, path: &str, query: &str) -> Result<Request, Status> {
        let q = query_pairs(query);
        let segments: Vec<&str> = path.trim_matches('/').split('/').filter(|s| !s.is_empty()).collect();
        let target = match segments[..] {
            ["version"]
            | ["api"]
            | ["apis"]
            | ["api", "v1"]
            | ["apis", _, _]
            | ["openapi", ..]
            | ["healthz"]
            | ["livez"]
            | ["readyz"] => Target::Discovery(path.to_string()),
            ["apis", "authorization.k8s.io", "v1", "selfsubjectaccessreviews"] => Target::SelfSubjectAccessReview,
            ["api", "v1", "namespaces"] => Target::Namespaces { name: None },
            ["api", "v1", "namespaces", name] => Target::Namespaces { name: Some(name.to_string()) },
            ["api", "v1", "namespaces", ns, resource, ref rest @ ..] => {
                resource_target("", "v1", Some(ns), resource, rest)?
            }
            ["api", "v1", resource, ref rest @ ..] => resource_target("", "v1", None, resource, rest)?,
            ["apis", group, version, "namespaces", ns, resource, ref rest @ ..] => {
                resource_target(group, version, Some(ns), resource, rest)?
            }
            ["apis", group, version, resource, ref rest @ ..] => resource_target(group, version, None, resource, rest)?,
            _ => return Err(Status::no_such_resource()),
        };
        let has_name = matches!(&target, Target::Resource { name: Some(_), .. } | Target::Namespaces { name: Some(_) });
        let watch = flag(&q, "watch")?.unwrap_or(false);
        let verb = match (method, has_name, watch) {
            ("GET", _, true) => Verb::Watch,
            ("GET", true, false) => Verb::Get,
            ("GET", false, false) => Verb::List,
            ("POST", false, _) => Verb::Create,
            ("PUT", true, _) => Verb::Update,
            ("PATCH", true, _) => Verb::Patch,
            ("DELETE", true, _) => Verb::Delete,
            (m, _, _) => {
                return Err(Status::new(
                    405,
                    "MethodNotAllowed",
                    format!("the server does not allow this method on the requested resource ({m} {path})"),
                ))
            }
        };
        let namespace = match &target {
            Target::Resource { namespace, .. } => namespace.clone(),
            _ => None,
        };
        let text = |name: &str| q.get(name).cloned().unwrap_or_default();
        let list = ListOptions {
            namespace: namespace.clone(),
            label_selector: text("labelSelector"),
            field_selector: text("fieldSelector"),
            resource_version: text("resourceVersion"),
            resource_version_match: text("resourceVersionMatch"),
            limit: number(&q, "limit")? as usize,
            continue_token: text("continue"),
            send_initial_events: flag(&q, "sendInitialEvents")?,
            metadata_only: false,
        };
        let watch = WatchOptions {
            namespace,
            label_selector: list.label_selector.clone(),
            field_selector: list.field_selector.clone(),
            resource_version: list.resource_version.clone(),
            allow_bookmarks: flag(&q, "allowWatchBookmarks")?.unwrap_or(false),
            send_initial_events: list.send_initial_events,
            resource_version_match: list.resource_version_match.clone(),
            timeout_secs: number(&q, "timeoutSeconds")?,
            metadata_only: false,
        };
        Ok(Request { verb, target, list, watch })
    }
}

fn resource_target(
    group: &str,
    version: &str,
    ns: Option<&str>,
    resource: &str,
    rest: &[&str],
) -> Result<Target, Status> {
    let kind = kind_of(group, version, resource)?;
    let (name, subresource) = match rest {
        [] => (None, None),
        [name] => (Some(name.to_string()), None),
        [name, "status"] if kind.has_status() => (Some(name.to_string()), Some(Subresource::Status)),
        [name, "scale"] if matches!(kind, Kind::Deployment | Kind::ReplicaSet) => {
            (Some(name.to_string()), Some(Subresource::Scale))
        }
        _ => return Err(Status::no_such_resource()),
    };
    Ok(Target::Resource { kind, namespace: ns.map(String::from), name, subresource })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_queries_read_as_kube_apiserver_reads_them() {
        let r = Request::parse(
            "GET",
            "/api/v1/namespaces/default/pods",
            "watch=1&resourceVersion=12&allowWatchBookmarks=true&timeoutSeconds=300&labelSelector=app%3Dweb",
        )
        .unwrap();
        assert_eq!(r.verb, Verb::Watch);
        assert_eq!(
            r.target,
            Target::Resource { kind: Kind::Pod, namespace: Some("default".into()), name: None, subresource: None }
        );
        assert_eq!(
            (r.watch.resource_version.as_str(), r.watch.allow_bookmarks, r.watch.timeout_secs),
            ("12", true, 300)
        );
        assert_eq!(r.watch.label_selector, "app=web");
        let scale = Request::parse("PATCH", "/apis/apps/v1/namespaces/default/deployments/web/scale", "").unwrap();
        assert_eq!(scale.verb, Verb::Patch);
        assert!(matches!(
            scale.target,
            Target::Resource { kind: Kind::Deployment, subresource: Some(Subresource::Scale), .. }
        ));
        let all = Request::parse("GET", "/apis/apps/v1/replicasets", "limit=500").unwrap();
        assert_eq!((all.verb, all.list.limit, all.list.namespace), (Verb::List, 500, None));
    }

    #[test]
    fn what_cannot_be_read_is_a_status_naming_it() {
        assert_eq!(Request::parse("GET", "/api/v1/widgets", "").unwrap_err().code, 404);
        assert_eq!(Request::parse("GET", "/apis/apps/v2/deployments", "").unwrap_err().code, 404);
        assert_eq!(Request::parse("PUT", "/api/v1/namespaces/default/pods", "").unwrap_err().code, 405);
        let bad = Request::parse("GET", "/api/v1/pods", "limit=lots").unwrap_err();
        assert_eq!(
            (bad.code, bad.message.as_str()),
            (400, r#"invalid value "lots" for limit: expected a whole number"#)
        );
        assert_eq!(Request::parse("GET", "/api/v1/namespaces/default/pods/p/log", "").unwrap_err().code, 404);
    }
}
