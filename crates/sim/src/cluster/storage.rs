//! How the API server lays objects out in etcd (apiserver `pkg/storage/etcd3`), semantics §8:
//! every object under `/registry/<resource>/<namespace>/<name>`, stored as JSON *without* its
//! resourceVersion (every read fills it in from the key's `mod_revision`), lists read at a
//! revision with `limit` and continue tokens, and the 410 texts of the etcd path.

use super::api_errors::Status;
use super::api_object::{ApiObject, Kind};
use super::mvcc_store::{KeyRange, KeyValue, MvccError, MvccStore, Revision};
use super::request::ListResponse;
use super::watch::Filter;
use serde_json::{json, Value};

/// The key prefix of a kind, in one namespace or all: `/registry/pods/default/`.
pub fn prefix(kind: Kind, namespace: Option<&str>) -> String {
    match namespace {
        Some(ns) => format!("/registry/{}/{ns}/", kind.resource()),
        None => format!("/registry/{}/", kind.resource()),
    }
}

/// Where an object is stored: `/registry/<resource>/<namespace>/<name>`.
pub fn storage_key(kind: Kind, namespace: &str, name: &str) -> String {
    format!("/registry/{}/{namespace}/{name}", kind.resource())
}

/// The object stored in a key-value, with its resourceVersion filled in from `mod_revision`.
pub fn decode(kv: &KeyValue) -> ApiObject {
    let mut obj: ApiObject =
        serde_json::from_str(&kv.value).unwrap_or_else(|_| ApiObject::new(Kind::ConfigMap, "", &kv.key));
    obj.metadata.resource_version = kv.mod_revision.to_string();
    obj
}

/// The object as stored: without a resourceVersion.
pub fn encode(obj: &ApiObject) -> String {
    let mut stored = obj.clone();
    stored.metadata.resource_version.clear();
    stored.to_json()
}

/// The current value at a key.
pub fn current(store: &MvccStore, key: &str) -> Option<KeyValue> {
    store.range(&KeyRange::single(key), 0, 1).ok()?.kvs.into_iter().next()
}

/// One page of a list read from etcd at `rev`, from the key `start` on.
pub fn list_from_etcd(
    store: &MvccStore,
    filter: &Filter,
    prefix: &str,
    rev: Revision,
    start: &str,
    limit: usize,
) -> Result<ListResponse, MvccError> {
    let mut range = KeyRange::prefix(prefix);
    if !start.is_empty() {
        range.key = format!("{prefix}{start}");
    }
    let mut items = Vec::new();
    let mut next = None;
    store.visit(&range, rev, |kv| {
        let obj = decode(kv);
        if !filter.matches(&obj) {
            return true;
        }
        if limit > 0 && items.len() == limit {
            next = Some(kv.key[prefix.len()..].to_string());
            return false;
        }
        items.push(std::rc::Rc::new(obj));
        true
    })?;
    let continue_token = next.map(|start| encode_continue(rev, &start)).unwrap_or_default();
    Ok(ListResponse { items, resource_version: rev, continue_token })
}

pub const CONTINUE_EXPIRED: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// A continue token as the API server writes it: base64 of
/// `{"v":"meta.k8s.io/v1","rv":<rev>,"start":"<next key>"}`.
pub fn encode_continue(rev: Revision, start: &str) -> String {
    crate::base64::encode(json!({"v": "meta.k8s.io/v1", "rv": rev, "start": start}).to_string().as_bytes())
}

pub fn decode_continue(token: &str) -> Result<(Revision, String), Status> {
    let invalid = |why: &str| Status::bad_request(format!("continue key is not valid: {why}"));
    let bytes = crate::base64::decode(token).ok_or_else(|| invalid("illegal base64 data"))?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| invalid(&e.to_string()))?;
    match (value["v"].as_str(), value["rv"].as_i64(), value["start"].as_str()) {
        (Some("meta.k8s.io/v1"), Some(rv), Some(start)) if rv > 0 => Ok((rv, start.to_string())),
        _ => Err(invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)")),
    }
}

/// The etcd path's 410 for a watch from a compacted revision.
pub const WATCH_TOO_OLD: &str = "The resourceVersion for the provided watch is too old.";
/// The etcd path's 410 for an exact list at a compacted revision.
pub const LIST_TOO_OLD: &str = "The resourceVersion for the provided list is too old.";
