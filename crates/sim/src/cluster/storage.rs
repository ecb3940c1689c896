//! How the API server lays objects out in etcd (apiserver `pkg/storage/etcd3`), semantics §8:
//! every object under `/registry/<resource>/<namespace>/<name>`, stored as JSON *without* its
//! resourceVersion (every read fills it in from the key's `mod_revision`), lists read at a
//! revision with `limit` and continue tokens, and the 410 texts of the etcd path.

use super::api_errors::Status;
use super::api_object::{ApiObject, Kind, Shared};
use super::mvcc_store::{KeyRange, KeyValue, MvccError, MvccStore, Revision, StoredValue};
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
/// The API server stores objects, never bytes it would read back; a value it did not write
/// (put by hand into the store) reads as an empty object named by its key.
pub fn decode(kv: &KeyValue) -> ApiObject {
    let mut obj = match &kv.value {
        StoredValue::Object(obj) => (**obj).clone(),
        StoredValue::Bytes(_) => ApiObject::new(Kind::ConfigMap, "", &kv.key),
    };
    obj.metadata.resource_version = kv.mod_revision.to_string();
    obj
}

/// The object as stored: without a resourceVersion.
pub fn encode(obj: &ApiObject) -> StoredValue {
    let mut stored = obj.clone();
    stored.metadata.resource_version.clear();
    StoredValue::Object(std::rc::Rc::new(stored))
}

/// The current value at a key.
pub fn current(store: &MvccStore, key: &str) -> Option<KeyValue> {
    store.range(&KeyRange::single(key), 0, 1).ok()?.kvs.into_iter().next()
}

/// One page of a list read from etcd at `rev`, from the key `start` on (etcd3 `store.GetList`
/// with `PrepareContinueToken`); see [`page`].
pub fn list_from_etcd(
    store: &MvccStore,
    filter: &Filter,
    prefix: &str,
    rev: Revision,
    start: &str,
    limit: usize,
    key_form: ContinueKey,
) -> Result<ListResponse, MvccError> {
    let mut range = KeyRange::prefix(prefix);
    if !start.is_empty() {
        range.key = start.to_string();
    }
    let mut kvs = Vec::new();
    store.visit(&range, rev, |kv| {
        kvs.push((kv.key.clone(), std::rc::Rc::new(decode(kv))));
        true
    })?;
    Ok(page(kvs, filter, prefix, rev, limit, key_form))
}

/// One page of a list of `(key, object)` in key order, read at `rev`: keys are read in order
/// and `limit` items kept; when a key follows the last one read, the page ends with a continue
/// token that starts right after it (`<last key>\0`) — even if no later key matches a
/// selector — and, without a selector, `remainingItemCount`: the keys left after this page.
fn page(
    kvs: impl IntoIterator<Item = (String, Shared)>,
    filter: &Filter,
    prefix: &str,
    rev: Revision,
    limit: usize,
    key_form: ContinueKey,
) -> ListResponse {
    let mut items = Vec::new();
    let (mut last, mut more, mut keys) = (String::new(), false, 0i64);
    for (key, obj) in kvs {
        keys += 1;
        if more {
            continue;
        }
        if limit > 0 && items.len() == limit {
            more = true;
            continue;
        }
        last = key;
        if filter.matches(&obj) {
            items.push(obj);
        }
    }
    let (continue_token, remaining_item_count) = match more {
        false => (String::new(), None),
        true => {
            let remaining = filter.selects_everything().then_some(keys - limit as i64);
            (encode_continue(rev, prefix, &format!("{last}\0"), key_form), remaining)
        }
    };
    ListResponse { items, resource_version: rev, continue_token, remaining_item_count }
}

pub const CONTINUE_EXPIRED: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// How a continue token names the key to go on from: after the list's prefix and its slash
/// (`cm-0\0`: etcd's lists in 1.30 and 1.33) or after the prefix alone (`/cm-0\0`: the watch
/// cache's, and etcd's from 1.37).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContinueKey {
    AfterSlash,
    WithSlash,
}

/// A continue token as the API server writes it (`storage.EncodeContinue`): URL-safe base64
/// without padding of `{"v":"meta.k8s.io/v1","rv":<rev>,"start":"<next key>"}`, the key
/// relative to the list's prefix. `rev` -1: the latest revision.
pub fn encode_continue(rev: Revision, prefix: &str, next_key: &str, form: ContinueKey) -> String {
    let relative = next_key.strip_prefix(prefix).unwrap_or(next_key);
    let start = match form {
        ContinueKey::AfterSlash => relative.to_string(),
        ContinueKey::WithSlash => format!("/{relative}"),
    };
    crate::base64::encode_url(json!({"v": "meta.k8s.io/v1", "rv": rev, "start": start}).to_string().as_bytes())
}

/// Reads a continue token (`storage.DecodeContinue`): the revision to read at (`None`: the
/// latest) and the key to start from under `prefix`.
pub fn decode_continue(token: &str, prefix: &str) -> Result<(Option<Revision>, String), Status> {
    let invalid = |why: &str| Status::bad_request(format!("invalid continue token: continue key is not valid: {why}"));
    let bytes = crate::base64::decode_url(token).ok_or_else(|| invalid("illegal base64 data"))?;
    // (Go's decoder takes bytes that are not UTF-8 as U+FFFD, as the lossy conversion does.)
    let value: Value = serde_json::from_str(&String::from_utf8_lossy(&bytes)).map_err(|e| invalid(&e.to_string()))?;
    let (Some("meta.k8s.io/v1"), Some(rv), Some(start)) =
        (value["v"].as_str(), value["rv"].as_i64(), value["start"].as_str())
    else {
        return Err(invalid(&format!("got invalid continue token version {}", value["v"])));
    };
    if rv == 0 {
        return Err(invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)"));
    }
    if start.is_empty() {
        return Err(invalid("encoded start key empty"));
    }
    let key = format!("{prefix}{}", start.trim_start_matches('/'));
    Ok(((rv > 0).then_some(rv), key))
}

/// The etcd path's 410 for a watch from a compacted revision.
pub const WATCH_TOO_OLD: &str = "The resourceVersion for the provided watch is too old.";
/// The etcd path's 410 for an exact list at a compacted revision.
pub const LIST_TOO_OLD: &str = "The resourceVersion for the provided list is too old.";
