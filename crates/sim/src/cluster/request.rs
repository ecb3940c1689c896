//! The parameters of LIST and WATCH requests and a LIST's answer (apimachinery
//! `metav1.ListOptions`, `metav1.ListMeta`), as the API server and its clients exchange them.

use super::api_object::Shared;
use super::mvcc_store::Revision;
use serde::{Deserialize, Serialize};

/// A request's verb, as kube-apiserver's `RequestInfo` names it: what RBAC authorises (its
/// lower-case name, [`Verb::rbac`]) and what `apiserver_request_total` and the request log
/// count (the HTTP form, [`Verb::metric`]: `GET LIST WATCH POST PUT PATCH DELETE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch,
    Delete,
}

impl Verb {
    pub const ALL: [Verb; 7] =
        [Verb::Get, Verb::List, Verb::Watch, Verb::Create, Verb::Update, Verb::Patch, Verb::Delete];

    /// The authoriser's name: RBAC rules, `auth can-i`, a SubjectAccessReview.
    pub fn rbac(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Watch => "watch",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Patch => "patch",
            Verb::Delete => "delete",
        }
    }

    /// As kube-apiserver's request metrics and log name it.
    pub fn metric(self) -> &'static str {
        match self {
            Verb::Get => "GET",
            Verb::List => "LIST",
            Verb::Watch => "WATCH",
            Verb::Create => "POST",
            Verb::Update => "PUT",
            Verb::Patch => "PATCH",
            Verb::Delete => "DELETE",
        }
    }

    /// The verb a metric's name stands for.
    pub fn from_metric(name: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|v| v.metric() == name)
    }

    /// The verb an RBAC name stands for.
    pub fn from_rbac(name: &str) -> Option<Verb> {
        Verb::ALL.into_iter().find(|v| v.rbac() == name)
    }
}

/// The authoriser's name (`list`).
impl std::fmt::Display for Verb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rbac())
    }
}

/// Options of a LIST request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListOptions {
    /// `None`: all namespaces.
    pub namespace: Option<String>,
    pub label_selector: String,
    pub field_selector: String,
    pub resource_version: String,
    /// `resourceVersionMatch`: `Exact`, `NotOlderThan` or empty.
    pub resource_version_match: String,
    /// 0: no limit.
    pub limit: usize,
    pub continue_token: String,
    /// `sendInitialEvents`, which a LIST refuses (it is a watch's).
    pub send_initial_events: Option<bool>,
    /// Metadata alone: `Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`.
    pub metadata_only: bool,
}

/// A LIST response: the items, the list's resourceVersion and a continue token when more
/// pages remain.
#[derive(Clone, Debug, PartialEq)]
pub struct ListResponse {
    /// The objects, shared with the watch cache they were read from.
    pub items: Vec<Shared>,
    pub resource_version: Revision,
    pub continue_token: String,
    /// `remainingItemCount`: how many items the rest of a paginated list holds (etcd counts
    /// them), when a continue token is given.
    pub remaining_item_count: Option<i64>,
}

/// Options of a WATCH request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchOptions {
    pub namespace: Option<String>,
    pub label_selector: String,
    pub field_selector: String,
    pub resource_version: String,
    pub allow_bookmarks: bool,
    /// `sendInitialEvents` (a watch-list): the current state as ADDED events first, closed by
    /// a bookmark annotated `k8s.io/initial-events-end: "true"`.
    pub send_initial_events: Option<bool>,
    /// `resourceVersionMatch` (only `NotOlderThan` is allowed on a watch).
    pub resource_version_match: String,
    /// `timeoutSeconds`: the server ends the watch then (0: never, here).
    pub timeout_secs: u64,
    /// Metadata alone: `Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`.
    pub metadata_only: bool,
}

/// `metav1.ResourceVersionMatchNotOlderThan`.
pub const NOT_OLDER_THAN: &str = "NotOlderThan";
/// `metav1.ResourceVersionMatchExact`.
pub const EXACT: &str = "Exact";
