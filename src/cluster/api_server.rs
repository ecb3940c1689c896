//! The kube-apiserver in front of the revisioned store (apiserver `pkg/registry/generic`,
//! `pkg/storage/etcd3`, `pkg/storage/cacher`), semantics §8.
//!
//! Verbs: GET, LIST, WATCH, CREATE, UPDATE (optimistic concurrency on resourceVersion), the
//! `status` subresource, and DELETE, per namespace or across all namespaces, with label and
//! exact field selectors. Objects live in the store under `/registry/<resource>/<ns>/<name>`;
//! their resourceVersion is the key's `mod_revision`.
//!
//! resourceVersion semantics (§8):
//! - GET: unset → most recent (etcd); `"0"` → any (watch cache); N → not older than N.
//! - LIST: unset → most recent (etcd, paginated by `limit`); `"0"` → any (watch cache, which
//!   ignores `limit`); N without limit → not older than N (watch cache); N with limit → exact
//!   (etcd, 410 once compacted); a continue token → etcd at the token's revision.
//! - WATCH: unset / `"0"` → synthetic ADDED for the current state, then changes; N → changes
//!   after N, from the watch cache's window (in-stream 410 `too old resource version`) or,
//!   with the watch cache off, from etcd (410 once compacted).
//!
//! The server is sans-IO: each verb is a method returning its response; watch events wait in
//! each watcher's queue until the client takes them. Every write propagates at once to the
//! watch caches and watchers; delivery delays belong to whoever moves the events.
//!
//! Left out: namespaces as objects (any namespace name is accepted), PATCH, graceful deletion
//! and finalizers, admission, `resourceVersionMatch` and `sendInitialEvents` (streaming lists).

use super::api_errors::Status;
use super::api_object::{timestamp, ApiObject, Kind};
use super::mvcc_store::{Compare, Event, KeyRange, KeyValue, MvccError, MvccStore, Op, Revision, WatchResponse};
use super::rbac::{Rbac, RequestAttributes, UserInfo};
use super::selector::{FieldSelector, LabelSelector};
use super::watch::{ApiWatchId, Filter, WatchEvent, WatchSource, Watcher};
use super::watch_cache::{ObjectChange, WatchCache, DEFAULT_CAPACITY};
use serde_json::{json, Value};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiServerConfig {
    /// Serve LIST `"0"`/N and WATCH from the watch cache (upstream default: true).
    pub watch_cache: bool,
    /// Events kept in each resource's watch cache window (upstream starts at 100).
    pub watch_cache_capacity: usize,
}

impl Default for ApiServerConfig {
    fn default() -> Self {
        ApiServerConfig { watch_cache: true, watch_cache_capacity: DEFAULT_CAPACITY }
    }
}

/// Options of a LIST request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// `None`: all namespaces.
    pub namespace: Option<String>,
    pub label_selector: String,
    pub field_selector: String,
    pub resource_version: String,
    /// 0: no limit.
    pub limit: usize,
    pub continue_token: String,
}

/// A LIST response: the items, the list's resourceVersion and a continue token when more
/// pages remain.
#[derive(Clone, Debug, PartialEq)]
pub struct ListResponse {
    pub items: Vec<ApiObject>,
    pub resource_version: Revision,
    pub continue_token: String,
}

/// Options of a WATCH request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WatchOptions {
    pub namespace: Option<String>,
    pub label_selector: String,
    pub field_selector: String,
    pub resource_version: String,
    pub allow_bookmarks: bool,
}

/// The three readings of a resourceVersion parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rv {
    Unset,
    Any,
    AtLeast(Revision),
}

fn parse_rv(text: &str) -> Result<Rv, Status> {
    match text {
        "" => Ok(Rv::Unset),
        "0" => Ok(Rv::Any),
        n => n
            .parse::<Revision>()
            .ok()
            .filter(|n| *n > 0)
            .map(Rv::AtLeast)
            .ok_or_else(|| Status::bad_request(format!("invalid resource version: {n:?}"))),
    }
}

/// Request counters like `apiserver_request_total{verb, resource, code}`, plus what the
/// server serialised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics {
    pub requests: BTreeMap<(String, String, u16), u64>,
    /// Objects sent in list responses and watch events.
    pub objects_sent: u64,
    pub bytes_sent: u64,
}

impl Metrics {
    /// Requests with this verb (`GET`, `LIST`, `WATCH`, `POST`, `PUT`, `DELETE`), any code.
    pub fn requests_by_verb(&self, verb: &str) -> u64 {
        self.requests.iter().filter(|((v, _, _), _)| v == verb).map(|(_, n)| n).sum()
    }

    fn record(&mut self, verb: &str, resource: &str, code: u16) {
        *self.requests.entry((verb.into(), resource.into(), code)).or_default() += 1;
    }

    fn sent(&mut self, objects: u64, bytes: usize) {
        self.objects_sent += objects;
        self.bytes_sent += bytes as u64;
    }
}

/// The API server and the store behind it.
#[derive(Clone, Debug)]
pub struct ApiServer {
    config: ApiServerConfig,
    store: MvccStore,
    caches: BTreeMap<Kind, (WatchCache, super::mvcc_store::WatchId)>,
    watchers: BTreeMap<ApiWatchId, Watcher>,
    next_watch: ApiWatchId,
    rbac: Rbac,
    metrics: Metrics,
    now_ms: u64,
    uids: u64,
}

impl Default for ApiServer {
    fn default() -> Self {
        Self::new(ApiServerConfig::default())
    }
}

fn prefix(kind: Kind, namespace: Option<&str>) -> String {
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
fn decode(kv: &KeyValue) -> ApiObject {
    let mut obj: ApiObject =
        serde_json::from_str(&kv.value).unwrap_or_else(|_| ApiObject::new(Kind::ConfigMap, "", &kv.key));
    obj.metadata.resource_version = kv.mod_revision.to_string();
    obj
}

/// The object as stored: without a resourceVersion.
fn encode(obj: &ApiObject) -> String {
    let mut stored = obj.clone();
    stored.metadata.resource_version.clear();
    stored.to_json()
}

/// RFC 1123 subdomain: what `metadata.name` of these kinds must be.
fn validate_name(kind: Kind, name: &str) -> Result<(), Status> {
    const RULE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    if name.is_empty() {
        return Err(Status::invalid(
            kind.name(),
            name,
            "metadata.name: Required value: name or generateName is required".into(),
        ));
    }
    let label_ok = |l: &str| {
        let b = l.as_bytes();
        !b.is_empty()
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    };
    if name.len() > 253 {
        return Err(Status::invalid(
            kind.name(),
            name,
            format!("metadata.name: Invalid value: {name:?}: must be no more than 253 characters"),
        ));
    }
    if !name.split('.').all(label_ok) {
        return Err(Status::invalid(kind.name(), name, format!("metadata.name: Invalid value: {name:?}: {RULE}")));
    }
    Ok(())
}

impl ApiServer {
    pub fn new(config: ApiServerConfig) -> Self {
        let mut server = ApiServer {
            config,
            store: MvccStore::new(),
            caches: BTreeMap::new(),
            watchers: BTreeMap::new(),
            next_watch: 1,
            rbac: Rbac::default(),
            metrics: Metrics::default(),
            now_ms: 0,
            uids: 0,
        };
        server.start_caches();
        server
    }

    pub fn config(&self) -> &ApiServerConfig {
        &self.config
    }

    pub fn store(&self) -> &MvccStore {
        &self.store
    }

    pub fn rbac(&self) -> &Rbac {
        &self.rbac
    }

    pub fn rbac_mut(&mut self) -> &mut Rbac {
        &mut self.rbac
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Starts the metrics afresh (after a cluster has been set up).
    pub fn reset_metrics(&mut self) {
        self.metrics = Metrics::default();
    }

    pub fn watch_cache(&self, kind: Kind) -> Option<&WatchCache> {
        self.caches.get(&kind).map(|(c, _)| c)
    }

    /// Sets the virtual time, used for creation timestamps.
    pub fn set_time(&mut self, now_ms: u64) {
        self.now_ms = now_ms;
    }

    /// (Re)initialises every watch cache from a LIST at the current revision.
    fn start_caches(&mut self) {
        for (_, (_, watch)) in std::mem::take(&mut self.caches) {
            self.store.cancel_watch(watch);
        }
        let rev = self.store.revision();
        for kind in Kind::ALL {
            let range = KeyRange::prefix(prefix(kind, None));
            let mut objects = BTreeMap::new();
            self.store
                .visit(&range, rev, |kv| {
                    objects.insert(kv.key.clone(), decode(kv));
                    true
                })
                .ok();
            let watch = self.store.watch(range, rev + 1);
            self.caches.insert(kind, (WatchCache::new(self.config.watch_cache_capacity, rev, objects), watch));
        }
    }

    /// Restarts the API server: every watch stream breaks (events not yet sent are lost) and
    /// the watch caches re-initialise at the current revision, so resuming from an older
    /// resourceVersion gets 410 Expired (DESIGN fault table, §8).
    pub fn restart(&mut self) {
        for (_, w) in std::mem::take(&mut self.watchers) {
            if let WatchSource::Etcd(id) = w.source {
                self.store.cancel_watch(id);
            }
        }
        self.start_caches();
    }

    /// Compacts the store at `rev`, as the API server's periodic compaction does. The watch
    /// caches are not touched (§8).
    pub fn compact(&mut self, rev: Revision) -> Result<(), MvccError> {
        self.store.compact(rev)
    }

    fn authorize(
        &self,
        user: &UserInfo,
        verb: &str,
        kind: Kind,
        sub: &str,
        ns: &str,
        name: Option<&str>,
    ) -> Result<(), Status> {
        let attrs = RequestAttributes {
            verb,
            group: kind.group(),
            resource: kind.resource(),
            subresource: sub,
            namespace: ns,
            name,
        };
        self.rbac.authorize(user, &attrs)
    }

    /// Records a request's outcome in the metrics and passes it on.
    fn finish<T>(
        &mut self,
        verb: &str,
        kind: Kind,
        sub: &str,
        ok_code: u16,
        result: Result<T, Status>,
    ) -> Result<T, Status> {
        let resource = match sub {
            "" => kind.resource().to_string(),
            s => format!("{}/{s}", kind.resource()),
        };
        let code = result.as_ref().map_or_else(|e| e.code, |_| ok_code);
        self.metrics.record(verb, &resource, code);
        result
    }

    /// The kind a manifest names, checking its apiVersion.
    pub fn kind_of(obj: &ApiObject) -> Result<Kind, Status> {
        Kind::parse(&obj.kind)
            .filter(|k| k.name() == obj.kind && (obj.api_version.is_empty() || obj.api_version == k.api_version()))
            .ok_or_else(|| Status::no_kind_match(&obj.kind, &obj.api_version))
    }

    fn current(&self, key: &str) -> Option<KeyValue> {
        self.store.range(&KeyRange::single(key), 0, 1).ok()?.kvs.into_iter().next()
    }

    fn next_uid(&mut self) -> String {
        self.uids += 1;
        let mut z = self.uids.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        let lo = z ^ (z >> 31);
        let hi = lo.rotate_left(29) ^ self.uids;
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            hi >> 32,
            hi >> 16 & 0xffff,
            hi & 0xfff,
            lo >> 52,
            lo & 0xffff_ffff_ffff
        )
    }

    // ----- writes -----

    /// POST: creates an object. Pods start `Pending`; Deployments and ReplicaSets start with
    /// an empty status and generation 1.
    pub fn create(&mut self, user: &UserInfo, obj: ApiObject) -> Result<ApiObject, Status> {
        // A kind the server does not serve never reaches a resource's handler or metrics.
        let kind = Self::kind_of(&obj)?;
        let result = self.do_create(user, kind, obj);
        self.finish("POST", kind, "", 201, result)
    }

    fn do_create(&mut self, user: &UserInfo, kind: Kind, mut obj: ApiObject) -> Result<ApiObject, Status> {
        if obj.metadata.namespace.is_empty() {
            obj.metadata.namespace = "default".into();
        }
        self.authorize(user, "create", kind, "", &obj.metadata.namespace, None)?;
        validate_name(kind, &obj.metadata.name)?;
        if !obj.metadata.resource_version.is_empty() {
            return Err(Status::bad_request("resourceVersion should not be set on objects to be created".into()));
        }
        obj.api_version = kind.api_version().into();
        obj.metadata.uid = self.next_uid();
        obj.metadata.creation_timestamp = timestamp(self.now_ms);
        match kind {
            Kind::Pod => {
                obj.metadata.generation = 1;
                obj.body.insert("status".into(), json!({"phase": "Pending"}));
            }
            Kind::ReplicaSet | Kind::Deployment => {
                obj.metadata.generation = 1;
                obj.body.insert("status".into(), json!({}));
            }
            Kind::ConfigMap | Kind::Secret => obj.metadata.generation = 0,
        }
        let key = storage_key(kind, &obj.metadata.namespace, &obj.metadata.name);
        let put = Op::Put { key: key.clone(), value: encode(&obj) };
        let result = self
            .store
            .txn(&[Compare::CreateRevision(key, 0)], &[put], &[])
            .map_err(|e| Status::internal(e.grpc_message()))?;
        if !result.succeeded {
            return Err(Status::already_exists(kind, &obj.metadata.name));
        }
        obj.metadata.resource_version = result.revision.to_string();
        self.propagate();
        Ok(obj)
    }

    /// PUT: replaces an object's spec and metadata (its status is kept). A resourceVersion in
    /// the request must equal the stored one, else 409 Conflict; an update that changes
    /// nothing writes nothing and keeps the resourceVersion.
    pub fn update(&mut self, user: &UserInfo, obj: ApiObject) -> Result<ApiObject, Status> {
        // A kind the server does not serve never reaches a resource's handler or metrics.
        let kind = Self::kind_of(&obj)?;
        let result = self.do_update(user, kind, obj, false);
        self.finish("PUT", kind, "", 200, result)
    }

    /// PUT on the `status` subresource: replaces only the status.
    pub fn update_status(&mut self, user: &UserInfo, obj: ApiObject) -> Result<ApiObject, Status> {
        // A kind the server does not serve never reaches a resource's handler or metrics.
        let kind = Self::kind_of(&obj)?;
        let result = self.do_update(user, kind, obj, true);
        self.finish("PUT", kind, "status", 200, result)
    }

    fn do_update(
        &mut self,
        user: &UserInfo,
        kind: Kind,
        mut obj: ApiObject,
        status_only: bool,
    ) -> Result<ApiObject, Status> {
        if obj.metadata.namespace.is_empty() {
            obj.metadata.namespace = "default".into();
        }
        let (ns, name) = (obj.metadata.namespace.clone(), obj.metadata.name.clone());
        if status_only && !kind.has_status() {
            return Err(Status {
                code: 404,
                reason: "NotFound",
                message: "the server could not find the requested resource".into(),
            });
        }
        let sub = if status_only { "status" } else { "" };
        self.authorize(user, "update", kind, sub, &ns, Some(&name))?;
        let key = storage_key(kind, &ns, &name);
        let stored = self.current(&key).ok_or_else(|| Status::not_found(kind, &name))?;
        let old = decode(&stored);
        if !obj.metadata.resource_version.is_empty() && obj.metadata.resource_version != old.metadata.resource_version {
            return Err(Status::conflict(kind, &name));
        }
        let mut new = if status_only {
            let mut new = old.clone();
            new.body.insert("status".into(), obj.body.remove("status").unwrap_or(Value::Null));
            new
        } else {
            obj.api_version = kind.api_version().into();
            obj.metadata.uid = old.metadata.uid.clone();
            obj.metadata.creation_timestamp = old.metadata.creation_timestamp.clone();
            obj.metadata.generation = old.metadata.generation;
            if kind.has_status() {
                match old.status() {
                    Some(s) => obj.body.insert("status".into(), s.clone()),
                    None => obj.body.remove("status"),
                };
                if obj.spec() != old.spec() {
                    obj.metadata.generation += 1;
                }
            }
            obj
        };
        new.metadata.resource_version.clear();
        let value = encode(&new);
        if value == stored.value {
            return Ok(old);
        }
        let put = Op::Put { key: key.clone(), value };
        let result = self
            .store
            .txn(&[Compare::ModRevision(key, stored.mod_revision)], &[put], &[])
            .map_err(|e| Status::internal(e.grpc_message()))?;
        if !result.succeeded {
            return Err(Status::conflict(kind, &name));
        }
        new.metadata.resource_version = result.revision.to_string();
        self.propagate();
        Ok(new)
    }

    /// DELETE: removes an object at once and returns its last state.
    pub fn delete(&mut self, user: &UserInfo, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, Status> {
        let result = self.do_delete(user, kind, namespace, name);
        self.finish("DELETE", kind, "", 200, result)
    }

    fn do_delete(&mut self, user: &UserInfo, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, Status> {
        self.authorize(user, "delete", kind, "", namespace, Some(name))?;
        let key = storage_key(kind, namespace, name);
        let stored = self.current(&key).ok_or_else(|| Status::not_found(kind, name))?;
        let del = Op::Delete(KeyRange::single(key.clone()));
        let result = self
            .store
            .txn(&[Compare::ModRevision(key, stored.mod_revision)], &[del], &[])
            .map_err(|e| Status::internal(e.grpc_message()))?;
        if !result.succeeded {
            return Err(Status::conflict(kind, name));
        }
        self.propagate();
        Ok(decode(&stored))
    }

    // ----- reads -----

    /// GET one object.
    pub fn get(
        &mut self,
        user: &UserInfo,
        kind: Kind,
        namespace: &str,
        name: &str,
        resource_version: &str,
    ) -> Result<ApiObject, Status> {
        let result = self.do_get(user, kind, namespace, name, resource_version);
        if let Ok(obj) = &result {
            self.metrics.sent(1, obj.to_json().len());
        }
        self.finish("GET", kind, "", 200, result)
    }

    fn do_get(&self, user: &UserInfo, kind: Kind, namespace: &str, name: &str, rv: &str) -> Result<ApiObject, Status> {
        self.authorize(user, "get", kind, "", namespace, Some(name))?;
        let key = storage_key(kind, namespace, name);
        let cache = self.watch_cache(kind).filter(|_| self.config.watch_cache);
        let found = match (parse_rv(rv)?, cache) {
            (Rv::Unset, _) | (_, None) => self.current(&key).map(|kv| decode(&kv)),
            (Rv::Any, Some(cache)) => cache.get(&key).cloned(),
            (Rv::AtLeast(n), Some(cache)) => {
                if n > cache.revision() {
                    return Err(Status::too_large_resource_version(n, cache.revision()));
                }
                cache.get(&key).cloned()
            }
        };
        found.ok_or_else(|| Status::not_found(kind, name))
    }

    /// GET without counting in the metrics: an onlooker's read (a console), not the run's.
    pub fn peek_get(&self, user: &UserInfo, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, Status> {
        self.do_get(user, kind, namespace, name, "")
    }

    /// LIST without counting in the metrics.
    pub fn peek_list(&self, user: &UserInfo, kind: Kind, opts: &ListOptions) -> Result<ListResponse, Status> {
        self.do_list(user, kind, opts)
    }

    /// LIST objects of a kind (see the module comment for where each resourceVersion is
    /// served from).
    pub fn list(&mut self, user: &UserInfo, kind: Kind, opts: &ListOptions) -> Result<ListResponse, Status> {
        let result = self.do_list(user, kind, opts);
        if let Ok(list) = &result {
            let bytes: usize = list.items.iter().map(|o| o.to_json().len() + 1).sum::<usize>() + 64;
            self.metrics.sent(list.items.len() as u64, bytes);
        }
        self.finish("LIST", kind, "", 200, result)
    }

    fn do_list(&self, user: &UserInfo, kind: Kind, opts: &ListOptions) -> Result<ListResponse, Status> {
        let filter = Filter {
            kind,
            namespace: opts.namespace.clone(),
            labels: LabelSelector::parse(&opts.label_selector)?,
            fields: FieldSelector::parse(&opts.field_selector, kind)?,
        };
        let ns = opts.namespace.as_deref().unwrap_or("");
        self.authorize(user, "list", kind, "", ns, filter.fields.single_name())?;
        let prefix = prefix(kind, opts.namespace.as_deref());
        if !opts.continue_token.is_empty() {
            let (rev, start) = decode_continue(&opts.continue_token)?;
            return self.list_from_etcd(&filter, &prefix, rev, &start, opts.limit).map_err(|e| match e {
                MvccError::Compacted => Status::expired(CONTINUE_EXPIRED.into()),
                other => Status::internal(other.grpc_message()),
            });
        }
        let rv = parse_rv(&opts.resource_version)?;
        let cache = self.watch_cache(kind).filter(|_| self.config.watch_cache);
        match (rv, cache) {
            (Rv::Any, Some(cache)) => Ok(cache_list(cache, &filter, &prefix)),
            (Rv::AtLeast(n), Some(cache)) if opts.limit == 0 => {
                if n > cache.revision() {
                    return Err(Status::too_large_resource_version(n, cache.revision()));
                }
                Ok(cache_list(cache, &filter, &prefix))
            }
            (Rv::AtLeast(n), _) if opts.limit > 0 => {
                self.list_from_etcd(&filter, &prefix, n, "", opts.limit).map_err(|e| match e {
                    MvccError::Compacted => {
                        Status::expired("The resourceVersion for the provided list is too old.".into())
                    }
                    _ => Status::too_large_resource_version(n, self.store.revision()),
                })
            }
            (Rv::AtLeast(n), _) if n > self.store.revision() => {
                Err(Status::too_large_resource_version(n, self.store.revision()))
            }
            (Rv::Unset | Rv::Any | Rv::AtLeast(_), _) => self
                .list_from_etcd(&filter, &prefix, self.store.revision(), "", opts.limit)
                .map_err(|e| Status::internal(e.grpc_message())),
        }
    }

    /// One page of a list read from etcd at `rev`, from the key `start` on.
    fn list_from_etcd(
        &self,
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
        self.store.visit(&range, rev, |kv| {
            let obj = decode(kv);
            if !filter.matches(&obj) {
                return true;
            }
            if limit > 0 && items.len() == limit {
                next = Some(kv.key[prefix.len()..].to_string());
                return false;
            }
            items.push(obj);
            true
        })?;
        let continue_token = next.map(|start| encode_continue(rev, &start)).unwrap_or_default();
        Ok(ListResponse { items, resource_version: rev, continue_token })
    }

    // ----- watches -----

    /// WATCH a kind. Errors of the request itself (403, a bad selector) return at once; an
    /// expired resourceVersion is delivered in the stream as an `ERROR` event (§8).
    pub fn watch(&mut self, user: &UserInfo, kind: Kind, opts: &WatchOptions) -> Result<ApiWatchId, Status> {
        let result = self.do_watch(user, kind, opts);
        self.finish("WATCH", kind, "", 200, result)
    }

    fn do_watch(&mut self, user: &UserInfo, kind: Kind, opts: &WatchOptions) -> Result<ApiWatchId, Status> {
        let filter = Filter {
            kind,
            namespace: opts.namespace.clone(),
            labels: LabelSelector::parse(&opts.label_selector)?,
            fields: FieldSelector::parse(&opts.field_selector, kind)?,
        };
        self.authorize(user, "watch", kind, "", opts.namespace.as_deref().unwrap_or(""), filter.fields.single_name())?;
        let rv = parse_rv(&opts.resource_version)?;
        let prefix = prefix(kind, opts.namespace.as_deref());
        let mut initial = Vec::new();
        let source = if self.config.watch_cache {
            let cache = &self.caches[&kind].0;
            match rv {
                Rv::Unset | Rv::Any => {
                    initial.extend(cache.list(&prefix).filter(|o| filter.matches(o)).cloned().map(WatchEvent::Added))
                }
                Rv::AtLeast(n) => match cache.events_since(n) {
                    Ok(changes) => initial.extend(changes.iter().filter_map(|c| filter.convert(c))),
                    Err(expired) => initial.push(WatchEvent::Error(expired)),
                },
            }
            WatchSource::Cache
        } else {
            let start = match rv {
                Rv::Unset | Rv::Any => {
                    let rev = self.store.revision();
                    self.store
                        .visit(&KeyRange::prefix(prefix.clone()), rev, |kv| {
                            let obj = decode(kv);
                            if filter.matches(&obj) {
                                initial.push(WatchEvent::Added(obj));
                            }
                            true
                        })
                        .ok();
                    rev + 1
                }
                Rv::AtLeast(n) => n + 1,
            };
            WatchSource::Etcd(self.store.watch(KeyRange::prefix(prefix), start))
        };
        let id = self.next_watch;
        self.next_watch += 1;
        let mut watcher = Watcher {
            filter,
            source,
            allow_bookmarks: opts.allow_bookmarks,
            user: user.name.clone(),
            pending: Default::default(),
            closed: false,
        };
        for event in initial {
            self.metrics.sent(u64::from(event.object().is_some()), event.wire_size());
            watcher.push(event);
        }
        self.watchers.insert(id, watcher);
        self.propagate();
        Ok(id)
    }

    /// Takes the events waiting in a watch stream. A stream that was closed (by an error,
    /// a restart or [`ApiServer::stop_watch`]) is forgotten once drained.
    pub fn take_events(&mut self, id: ApiWatchId) -> Vec<WatchEvent> {
        let Some(w) = self.watchers.get_mut(&id) else { return Vec::new() };
        let events: Vec<_> = w.pending.drain(..).collect();
        if w.closed {
            self.stop_watch(id);
        }
        events
    }

    /// Whether a watch stream is still open (or has events left to take).
    pub fn watch_is_open(&self, id: ApiWatchId) -> bool {
        self.watchers.get(&id).is_some_and(|w| !w.closed || !w.pending.is_empty())
    }

    /// Ends a watch stream (client disconnect or server timeout).
    pub fn stop_watch(&mut self, id: ApiWatchId) {
        if let Some(w) = self.watchers.remove(&id) {
            if let WatchSource::Etcd(sw) = w.source {
                self.store.cancel_watch(sw);
            }
        }
    }

    /// Open watch streams.
    pub fn live_watchers(&self) -> usize {
        self.watchers.values().filter(|w| !w.closed).count()
    }

    pub fn watchers(&self) -> impl Iterator<Item = (ApiWatchId, &Watcher)> {
        self.watchers.iter().map(|(id, w)| (*id, w))
    }

    /// Sends a bookmark with the watch cache's revision to every open cache watcher that
    /// allows bookmarks (§1.4). Each cache first learns etcd's current revision, as from a
    /// progress notification, so a quiet watch's bookmark carries the global revision that
    /// other resources' writes moved.
    pub fn send_bookmarks(&mut self) {
        let rev = self.store.revision();
        for (cache, _) in self.caches.values_mut() {
            cache.observe_progress(rev);
        }
        for w in self.watchers.values_mut().filter(|w| w.allow_bookmarks && w.source == WatchSource::Cache && !w.closed)
        {
            let rv = self.caches[&w.filter.kind].0.revision();
            self.metrics.sent(0, WatchEvent::Bookmark(rv).wire_size());
            w.push(WatchEvent::Bookmark(rv));
        }
    }

    /// Moves new store revisions into the watch caches and every watcher's queue.
    fn propagate(&mut self) {
        let ApiServer { store, caches, watchers, metrics, .. } = self;
        for (kind, (cache, store_watch)) in caches.iter_mut() {
            for response in store.poll_watch(*store_watch) {
                let WatchResponse::Events { events, .. } = response else { continue };
                for event in events {
                    let change = ObjectChange {
                        revision: event.revision(),
                        key: event.key().to_string(),
                        prev: cache.get_prev(event.key()),
                        cur: match &event {
                            Event::Put(kv) => Some(decode(kv)),
                            Event::Delete { .. } => None,
                        },
                    };
                    for w in watchers.values_mut().filter(|w| w.source == WatchSource::Cache && w.filter.kind == *kind)
                    {
                        if let Some(ev) = w.filter.convert(&change) {
                            metrics.sent(1, ev.wire_size());
                            w.push(ev);
                        }
                    }
                    cache.apply(change);
                }
            }
        }
        for w in watchers.values_mut() {
            let WatchSource::Etcd(sw) = w.source else { continue };
            for response in store.poll_watch(sw) {
                match response {
                    WatchResponse::Compacted { .. } => w.push(WatchEvent::Error(Status::expired(
                        "The resourceVersion for the provided watch is too old.".into(),
                    ))),
                    WatchResponse::Events { revision, events } => {
                        for event in events {
                            let prev = store
                                .range(&KeyRange::single(event.key()), revision - 1, 1)
                                .ok()
                                .and_then(|r| r.kvs.first().map(decode));
                            let cur = match &event {
                                Event::Put(kv) => Some(decode(kv)),
                                Event::Delete { .. } => None,
                            };
                            let change = ObjectChange { revision, key: event.key().to_string(), prev, cur };
                            if let Some(ev) = w.filter.convert(&change) {
                                metrics.sent(1, ev.wire_size());
                                w.push(ev);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Objects of a kind currently stored.
    pub fn count(&self, kind: Kind) -> usize {
        self.store.count(&KeyRange::prefix(prefix(kind, None)))
    }
}

fn cache_list(cache: &WatchCache, filter: &Filter, prefix: &str) -> ListResponse {
    let items = cache.list(prefix).filter(|o| filter.matches(o)).cloned().collect();
    ListResponse { items, resource_version: cache.revision(), continue_token: String::new() }
}

const CONTINUE_EXPIRED: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// A continue token as the API server writes it: base64 of
/// `{"v":"meta.k8s.io/v1","rv":<rev>,"start":"<next key>"}`.
fn encode_continue(rev: Revision, start: &str) -> String {
    crate::base64::encode(json!({"v": "meta.k8s.io/v1", "rv": rev, "start": start}).to_string().as_bytes())
}

fn decode_continue(token: &str) -> Result<(Revision, String), Status> {
    let invalid = |why: &str| Status::bad_request(format!("continue key is not valid: {why}"));
    let bytes = crate::base64::decode(token).ok_or_else(|| invalid("illegal base64 data"))?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| invalid(&e.to_string()))?;
    match (value["v"].as_str(), value["rv"].as_i64(), value["start"].as_str()) {
        (Some("meta.k8s.io/v1"), Some(rv), Some(start)) if rv > 0 => Ok((rv, start.to_string())),
        _ => Err(invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)")),
    }
}
