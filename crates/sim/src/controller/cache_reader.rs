//! controller-runtime's cache-backed reads (`pkg/cache/internal/cache_reader.go`,
//! `multi_namespace_cache.go`, `pkg/client`'s field indexer), semantics §6.
//!
//! `Get` and `List` read an informer's indexer, never the API server:
//! - a key the cache does not hold — deleted, not yet seen, or filtered out by the cache's
//!   label selector — is `NotFound`, worded with the *Kind* (`Pod "web-1" not found`), not the
//!   resource as the API server would word it;
//! - a namespace outside the cache's scope is `unable to get: ns/name because of unknown
//!   namespace for the cache` (`unable to list: ns because of …` for List);
//! - `List` with `Limit` answers the first so many that match (upstream in its indexer's
//!   order, Go's map order: no set order) and never a next page; a `Continue` is refused;
//! - `List` with an exact field match reads the index `field:<path>` (values `ns/v` and
//!   `__all_namespaces/v`); without that index it fails with client-go's
//!   `Index with name field:<path> does not exist`; a label selector is filtered in memory
//!   over everything the namespace (or the whole cache) holds — a scan.
//!
//! The objects each read examines are counted by the indexer.

use crate::client::indexer::{Indexer, NAMESPACE_INDEX};
use crate::client::reflector::ReflectorConfig;
use crate::cluster::api_errors::Status;
use crate::cluster::selector::LabelSelector;
use crate::cluster::{ApiObject, Kind};
use std::fmt;

/// A failed read, as a value; `Display` words it as controller-runtime and client-go do.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "error", rename_all = "kebab-case")]
pub enum ReadError {
    /// An API status (`NotFound`, worded with the Kind).
    Status(Status),
    /// No informer for the kind (`ErrResourceNotCached`): `/v1, Kind=Pod is not cached`.
    NotCached(Kind),
    /// client-go's `Index with name <name> does not exist`.
    NoIndex(String),
    /// A namespace outside a namespaced cache's scope (`verb` is `get` or `list`; `what` is
    /// `ns/name` or `ns`).
    UnknownNamespace { verb: &'static str, what: String },
    /// The read's deadline ended its wait for the kind's informer to sync:
    /// `apierrors.NewTimeoutError("failed waiting for *v1.ConfigMap Informer to sync")`
    /// (`pkg/cache/internal/informers.go: Get`).
    SyncTimeout(Kind),
    /// A List with a continue token: the cache has no pages.
    ContinueNotSupported,
    /// A read before the manager started the cache (`ErrCacheNotStarted`).
    NotStarted,
}

impl ReadError {
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Status(s) if s.code == 404)
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Status(s) => f.write_str(&s.message),
            ReadError::NotCached(kind) => write!(f, "{}/{}, Kind={} is not cached", kind.group(), kind.version(), kind),
            ReadError::NoIndex(name) => write!(f, "Index with name {name} does not exist"),
            ReadError::UnknownNamespace { verb, what } => {
                write!(f, "unable to {verb}: {what} because of unknown namespace for the cache")
            }
            ReadError::SyncTimeout(kind) => {
                write!(f, "Timeout: failed waiting for *{}.{kind} Informer to sync", kind.version())
            }
            ReadError::ContinueNotSupported => f.write_str("continue list option is not supported by the cache"),
            ReadError::NotStarted => f.write_str("the cache is not started, can not read objects"),
        }
    }
}

/// `apierrors.NewNotFound(schema.GroupResource{Group, Resource: Kind}, name)`.
pub fn not_found(kind: Kind, name: &str) -> ReadError {
    let what = match kind.group() {
        "" => kind.name().to_string(),
        g => format!("{}.{g}", kind.name()),
    };
    ReadError::Status(Status::new(404, "NotFound", format!("{what} {name:?} not found")))
}

/// A controller's read through a controller-runtime `client.Reader` — the manager's client,
/// which reads the cache, or the APIReader, which asks the API server — as a lesson's timeline
/// makes one: a step of its own, so the trace shows what a read costs and answers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "verb", rename_all = "kebab-case")]
pub enum ClientRead {
    Get {
        kind: Kind,
        namespace: String,
        name: String,
    },
    /// `labels`: the selector as written (an unparsable one fails the read as the API does);
    /// `limit` (0: none) and `continue_token` as `client.Limit` and `client.Continue` set them.
    List {
        kind: Kind,
        namespace: Option<String>,
        labels: String,
        field: Option<(String, String)>,
        limit: usize,
        continue_token: String,
    },
}

impl ClientRead {
    /// The kind it reads.
    pub fn kind(&self) -> Kind {
        match self {
            ClientRead::Get { kind, .. } | ClientRead::List { kind, .. } => *kind,
        }
    }
}

/// What a read of the cache found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
pub enum CacheAnswer {
    Got,
    /// `examined`: the objects the indexer read to answer (all of them without an index);
    /// `continue_token`: the list's `continue` (`continue-not-supported` from controller-runtime
    /// v0.21 on, none before).
    Listed {
        found: usize,
        examined: usize,
        continue_token: &'static str,
    },
}

/// A `List` request against the cache.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CacheList {
    pub namespace: Option<String>,
    pub labels: LabelSelector,
    /// An exact field match (`client.MatchingFields`): (field path, value).
    pub field: Option<(String, String)>,
    /// `client.Limit` (0: none): the first so many that match, in the indexer's order.
    pub limit: usize,
    /// `client.Continue`, which the cache refuses.
    pub continue_token: String,
}

fn outside_scope(scope: &ReflectorConfig, namespace: &str) -> bool {
    scope.namespace.as_deref().is_some_and(|ns| ns != namespace)
}

/// `CacheReader.Get` through a namespace-scoped cache.
pub fn get(indexer: &Indexer, scope: &ReflectorConfig, namespace: &str, name: &str) -> Result<ApiObject, ReadError> {
    if outside_scope(scope, namespace) {
        return Err(ReadError::UnknownNamespace { verb: "get", what: format!("{namespace}/{name}") });
    }
    let key = if namespace.is_empty() { name.to_string() } else { format!("{namespace}/{name}") };
    indexer.get_by_key(&key).cloned().ok_or_else(|| not_found(scope.kind, name))
}

/// `CacheReader.List`.
pub fn list(indexer: &mut Indexer, scope: &ReflectorConfig, opts: &CacheList) -> Result<Vec<ApiObject>, ReadError> {
    if !opts.continue_token.is_empty() {
        return Err(ReadError::ContinueNotSupported);
    }
    if let Some(ns) = opts.namespace.as_deref().filter(|ns| outside_scope(scope, ns)) {
        return Err(ReadError::UnknownNamespace { verb: "list", what: ns.to_string() });
    }
    let candidates: Vec<&ApiObject> = match (&opts.field, &opts.namespace) {
        (Some((path, value)), ns) => {
            let indexed = match ns {
                Some(ns) => format!("{ns}/{value}"),
                None => format!("__all_namespaces/{value}"),
            };
            indexer.by_index(&format!("field:{path}"), &indexed).map_err(ReadError::NoIndex)?
        }
        (None, Some(ns)) => indexer.by_index(NAMESPACE_INDEX, ns).map_err(ReadError::NoIndex)?,
        (None, None) => indexer.list(),
    };
    let limit = if opts.limit == 0 { usize::MAX } else { opts.limit };
    Ok(candidates.into_iter().filter(|o| opts.labels.matches(&o.metadata.labels)).take(limit).cloned().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::indexer::IndexFunc;
    use serde_json::json;

    fn pods(n: usize) -> Indexer {
        let mut ix = Indexer::new();
        for i in 0..n {
            let pod = ApiObject::new(Kind::Pod, "default", &format!("p{i}"))
                .with_label("app", if i % 2 == 0 { "web" } else { "db" })
                .with("spec", json!({"nodeName": format!("node-{}", i % 10)}));
            ix.update(pod);
        }
        ix
    }

    #[test]
    fn semantics_6_unindexed_field_errors_and_an_index_reads_far_fewer_objects() {
        let mut ix = pods(1000);
        let scope = ReflectorConfig::new(Kind::Pod);
        let on_node = CacheList { field: Some(("spec.nodeName".into(), "node-1".into())), ..Default::default() };
        let err = list(&mut ix, &scope, &on_node).unwrap_err();
        assert_eq!(err.to_string(), "Index with name field:spec.nodeName does not exist");
        ix.add_indexers(vec![("field:spec.nodeName".into(), IndexFunc::Field("spec.nodeName".into()))]).unwrap();
        assert_eq!(list(&mut ix, &scope, &on_node).unwrap().len(), 100);
        assert_eq!(ix.last_scanned, 100);
        let by_label = CacheList { labels: LabelSelector::parse("app=web").unwrap(), ..Default::default() };
        assert_eq!(list(&mut ix, &scope, &by_label).unwrap().len(), 500);
        assert_eq!(ix.last_scanned, 1000, "a label selector scans every object");
    }

    #[test]
    fn semantics_6_not_found_uses_the_kind_and_scope_errors_name_the_namespace() {
        let ix = pods(1);
        let mut scope = ReflectorConfig::new(Kind::Pod);
        assert_eq!(get(&ix, &scope, "default", "nope").unwrap_err().to_string(), r#"Pod "nope" not found"#);
        let deploy = ReflectorConfig::new(Kind::Deployment);
        assert_eq!(
            get(&Indexer::new(), &deploy, "default", "web").unwrap_err().to_string(),
            r#"Deployment.apps "web" not found"#
        );
        scope.namespace = Some("default".into());
        assert_eq!(
            get(&ix, &scope, "other-ns", "foo").unwrap_err().to_string(),
            "unable to get: other-ns/foo because of unknown namespace for the cache"
        );
        let opts = CacheList { namespace: Some("other-ns".into()), ..Default::default() };
        assert_eq!(
            list(&mut pods(1), &scope, &opts).unwrap_err().to_string(),
            "unable to list: other-ns because of unknown namespace for the cache"
        );
    }
}
