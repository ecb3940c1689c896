//! The kube-apiserver in front of the revisioned store, semantics §8, in the releases 1.30,
//! 1.33 and 1.37 (`ApiServerConfig`'s flags): each verb authorised by RBAC, counted in the
//! metrics, and answered by the registry (writes, `registry.rs`), the storage layer
//! (`storage.rs`) or the watch caches (`cacher.rs`), as the resourceVersion semantics say
//! (apiserver `cacher/delegator/interface.go: ShouldDelegateList`):
//! - GET: unset → most recent (etcd); `"0"` → any (watch cache); N → not older than N.
//! - LIST: unset → most recent (etcd; from 1.33 the watch cache, lifted to etcd's revision);
//!   `"0"` → any (watch cache, which ignores `limit`); N, or not older than N → the watch
//!   cache (with a limit: etcd in 1.30, paged by the cache from 1.33); N with a limit, or
//!   exactly N → etcd, 410 once compacted (1.37: the cache's snapshot while its window holds
//!   N); a continue token → the same at the token's revision.
//! - WATCH: unset / `"0"` → synthetic ADDED for the current state, then changes (1.37: as a
//!   watch-list); N → changes after N, from the watch cache's window (in-stream 410 `too old
//!   resource version`) or, with the watch cache off, from etcd (410 once compacted).
//!
//! The server judge (`tests/realclients/judge_server.rs`) holds every answer here to the real
//! kube-apiserver of each release. Every write propagates at once to the watch caches and
//! watchers (a real cache trails etcd by milliseconds); delivery delays belong to whoever
//! takes the events. Errors of a request itself (403, a bad selector, 422 options) return at
//! once, in kube-apiserver's order.
//!
//! Left out: namespaces as objects (the server keeps their names, `namespaces.rs`), graceful
//! deletion and finalizers, admission but NamespaceLifecycle's refusal of a create, defaulting
//! beyond a Secret's type, the 3 s wait before "too large resource version".

use super::api_errors::{FieldError, FieldProblem, Status, TooLongWords};
use super::api_object::{ApiObject, Kind, Shared};
use super::cacher::{Cacher, WatchStart};
use super::metrics::Metrics;
use super::mvcc_store::{KeyRange, MvccError, MvccStore, Revision};
use super::namespaces::Namespaces;
use super::rbac::{Rbac, RequestAttributes, UserInfo};
use super::registry::{self, Preconditions, UpdateBy, WriteRules};
use super::request::Verb;
use super::selector::{FieldSelector, LabelSelector};
use super::storage::{
    self, current, decode, decode_continue, list_from_etcd, prefix, ContinueKey, CONTINUE_EXPIRED, LIST_TOO_OLD,
};
use super::watch::{ApiWatchId, Filter, WatchEvent, Watcher};
use super::watch_cache::{WatchCache, DEFAULT_CAPACITY};

pub use super::request::{ListOptions, ListResponse, WatchOptions};
use super::request::{EXACT, NOT_OLDER_THAN};
pub use super::storage::storage_key;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiServerConfig {
    /// Serve LIST `"0"`/N and WATCH from the watch cache (upstream default: true).
    pub watch_cache: bool,
    /// Events each resource's watch cache window starts with and never shrinks below
    /// (upstream: 100; it doubles while its oldest event is younger than 75 s).
    pub watch_cache_capacity: usize,
    /// The `WatchList` feature gate: WATCH accepts `sendInitialEvents` (from 1.34).
    pub watch_list: bool,
    /// `ListFromCacheSnapshot` (beta from 1.34): an exact list is served from the watch
    /// cache's snapshot at that revision while its window covers it, even after etcd compacted it.
    pub list_from_cache_snapshot: bool,
    /// The `CacheDelegator` (1.33 on): list options checked first, the watch cache honouring
    /// a list's limit and serving consistent reads; before, such lists went to etcd.
    pub cache_delegator: bool,
    /// What writes do that differs between releases: Pods' generations (1.33 on), the names
    /// tried for a `generateName`, how a too-long field and a changed uid are told.
    pub write_rules: WriteRules,
    /// A list at a future revision from etcd is a "too large resource version" (1.37), not
    /// etcd's own 500.
    pub future_revision_too_large: bool,
    /// How etcd's lists name the key a continue token goes on from (`/name` from 1.37).
    pub etcd_continue_key: ContinueKey,
    /// How often a watcher gets a bookmark (`defaultBookmarkFrequency`: a minute; 0: never).
    pub bookmark_frequency_ms: u64,
    /// Added to the virtual clock for the timestamps objects get: 0 keeps the playground's
    /// calendar (virtual time 0 is 2025-01-01); a served world sets it so that they read as
    /// the wall clock.
    pub clock_offset_ms: u64,
}

impl Default for ApiServerConfig {
    fn default() -> Self {
        ApiServerConfig {
            watch_cache: true,
            watch_cache_capacity: DEFAULT_CAPACITY,
            watch_list: true,
            list_from_cache_snapshot: true,
            cache_delegator: true,
            write_rules: WriteRules {
                pod_generation: true,
                too_long_words: TooLongWords::default(),
                generated_name_attempts: 8,
                uid_immutable_twice: false,
            },
            future_revision_too_large: true,
            etcd_continue_key: ContinueKey::WithSlash,
            bookmark_frequency_ms: 60_000,
            clock_offset_ms: 0,
        }
    }
}

/// A `ListOptions` error: 422 naming `ListOptions.meta.k8s.io`.
fn invalid_options(errs: Vec<FieldError>) -> Result<(), Status> {
    match errs.is_empty() {
        true => Ok(()),
        false => Err(Status::invalid_fields("meta.k8s.io", "ListOptions", "", &errs)),
    }
}

/// `ValidateListOptions` for a LIST (apimachinery `apis/meta/internalversion/validation`, the
/// same in 1.30, 1.33 and 1.37): `resourceVersionMatch` needs a resourceVersion, no continue
/// token, one of the two matches, and not Exact with `"0"`; `sendInitialEvents` is a watch's.
fn validate_list_options(opts: &ListOptions) -> Result<(), Status> {
    let mut errs = Vec::new();
    let forbidden = |field: &str, why: &str| FieldError::new(field, FieldProblem::Forbidden(why.into()));
    let matching = opts.resource_version_match.as_str();
    if !matching.is_empty() {
        if opts.resource_version.is_empty() {
            errs.push(forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if !opts.continue_token.is_empty() {
            errs.push(forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"));
        }
        if matching != EXACT && matching != NOT_OLDER_THAN {
            let supported = vec![EXACT, NOT_OLDER_THAN, ""];
            let problem = FieldProblem::NotSupported { value: matching.into(), supported };
            errs.push(FieldError::new("resourceVersionMatch", problem));
        }
        if matching == EXACT && opts.resource_version == "0" {
            errs.push(forbidden(
                "resourceVersionMatch",
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if opts.send_initial_events.is_some() {
        errs.push(forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
    }
    invalid_options(errs)
}

/// `validateWatchOptions` (the same source): what a WATCH may combine with
/// `sendInitialEvents` and `resourceVersionMatch`.
fn validate_watch_options(opts: &WatchOptions, watch_list: bool) -> Result<(), Status> {
    let mut errs = Vec::new();
    let forbidden = |field: &str, why: String| FieldError::new(field, FieldProblem::Forbidden(why));
    let matching = opts.resource_version_match.as_str();
    if opts.send_initial_events.is_some() {
        if matching != NOT_OLDER_THAN {
            errs.push(forbidden(
                "resourceVersionMatch",
                format!("sendInitialEvents requires setting resourceVersionMatch to {NOT_OLDER_THAN}"),
            ));
        }
        if !watch_list {
            let why = "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled";
            errs.push(forbidden("sendInitialEvents", why.into()));
        }
    }
    if !matching.is_empty() {
        if opts.send_initial_events.is_none() {
            let why = "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided";
            errs.push(forbidden("resourceVersionMatch", why.into()));
        }
        if matching != NOT_OLDER_THAN {
            let problem = FieldProblem::NotSupported { value: matching.into(), supported: vec![NOT_OLDER_THAN] };
            errs.push(FieldError::new("resourceVersionMatch", problem));
        }
    }
    invalid_options(errs)
}

/// `SetListOptionsDefaults`: where the server has `WatchList`, a watch from RV unset or `"0"`
/// that asks nothing of initial events is served as a watch-list (its initial events, and the
/// end bookmark when bookmarks are allowed).
fn watch_list_default(opts: &WatchOptions, watch_list: bool) -> Option<WatchOptions> {
    let legacy = matches!(opts.resource_version.as_str(), "" | "0");
    (watch_list && legacy && opts.send_initial_events.is_none() && opts.resource_version_match.is_empty()).then(|| {
        WatchOptions { send_initial_events: Some(true), resource_version_match: NOT_OLDER_THAN.into(), ..opts.clone() }
    })
}

/// The retry a "too large resource version" carries: the watch cache's
/// (`resourceVersionTooHighRetrySeconds`), etcd's none.
const FROM_CACHE: u32 = 1;
const FROM_ETCD: u32 = 0;

/// The three readings of a resourceVersion parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rv {
    Unset,
    Any,
    AtLeast(Revision),
}

fn parse_rv(text: &str) -> Result<Rv, String> {
    match text {
        "" => Ok(Rv::Unset),
        "0" => Ok(Rv::Any),
        n => match n.parse::<u64>() {
            Ok(0) => Ok(Rv::Any),
            Ok(n) => Ok(Rv::AtLeast(n as Revision)),
            // The versioner's error (`APIObjectVersioner.ParseResourceVersion`), with Go's words.
            Err(e) => {
                let why = match e.kind() {
                    std::num::IntErrorKind::PosOverflow => "value out of range",
                    _ => "invalid syntax",
                };
                Err(format!("resourceVersion: Invalid value: {n:?}: strconv.ParseUint: parsing {n:?}: {why}"))
            }
        },
    }
}

/// The API server and the store behind it.
#[derive(Clone, Debug)]
pub struct ApiServer {
    config: ApiServerConfig,
    store: MvccStore,
    cacher: Cacher,
    rbac: Rbac,
    namespaces: Namespaces,
    metrics: Metrics,
    now_ms: u64,
    uids: u64,
}

impl Default for ApiServer {
    fn default() -> Self {
        Self::new(ApiServerConfig::default())
    }
}

impl ApiServer {
    pub fn new(config: ApiServerConfig) -> Self {
        let mut store = MvccStore::new();
        let cacher = Cacher::new(&mut store, config.watch_cache, config.watch_cache_capacity);
        ApiServer {
            config,
            store,
            cacher,
            rbac: Rbac::default(),
            namespaces: Namespaces::default(),
            metrics: Metrics::default(),
            now_ms: 0,
            uids: 0,
        }
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
        self.cacher.cache(kind)
    }

    /// Sets the virtual time, used for creation timestamps.
    pub fn set_time(&mut self, now_ms: u64) {
        self.now_ms = now_ms;
        self.cacher.set_time(now_ms);
    }

    /// The time objects are stamped with: the virtual clock on the calendar.
    pub fn wall_now(&self) -> u64 {
        self.now_ms + self.config.clock_offset_ms
    }

    /// Sets the calendar offset (see [`ApiServerConfig::clock_offset_ms`]).
    pub fn set_clock_offset(&mut self, offset_ms: u64) {
        self.config.clock_offset_ms = offset_ms;
    }

    /// Restarts the API server: every watch stream breaks (events not yet sent are lost) and
    /// the watch caches re-initialise at the current revision, so resuming from an older
    /// resourceVersion gets 410 Expired (§8).
    pub fn restart(&mut self) {
        self.cacher.restart(&mut self.store);
    }

    /// Compacts the store at `rev`, as the API server's periodic compaction does. The watch
    /// caches are not touched (§8).
    pub fn compact(&mut self, rev: Revision) -> Result<(), MvccError> {
        self.store.compact(rev)
    }

    /// RBAC's answer for a request of `user` (a denial is the API server's 403).
    pub fn authorize(
        &self,
        user: &UserInfo,
        verb: Verb,
        kind: Kind,
        sub: &str,
        ns: &str,
        name: Option<&str>,
    ) -> Result<(), Status> {
        let attrs = RequestAttributes {
            verb: verb.rbac(),
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
        verb: Verb,
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

    fn propagate(&mut self) {
        self.cacher.propagate(&mut self.store, &mut self.metrics);
    }

    // ----- writes -----

    /// POST: creates an object (see `registry::create`).
    pub fn create(&mut self, user: &UserInfo, mut obj: ApiObject) -> Result<ApiObject, Status> {
        // A kind the server does not serve never reaches a resource's handler or metrics.
        let kind = Self::kind_of(&obj)?;
        registry::defaulted_namespace(&mut obj);
        let now = self.wall_now();
        let result = self
            .authorize(user, Verb::Create, kind, "", &obj.metadata.namespace, None)
            .and_then(|()| self.namespaces.admit_create(&obj.metadata.namespace))
            .and_then(|()| registry::create(&mut self.store, kind, obj, &mut self.uids, now, self.config.write_rules));
        self.propagate();
        self.finish(Verb::Create, kind, "", 201, result)
    }

    /// The namespaces the cluster has.
    pub fn namespaces(&self) -> &Namespaces {
        &self.namespaces
    }

    /// A namespace the cluster starts with (a world's objects are in it).
    pub fn ensure_namespace(&mut self, name: &str) {
        self.namespaces.ensure(name);
    }

    /// POST of a Namespace (cluster-scoped: RBAC on `namespaces` at the cluster scope).
    pub fn create_namespace(&mut self, user: &UserInfo, name: &str) -> Result<(), Status> {
        self.authorize_namespaces(user, "create", None)?;
        self.namespaces.create(name)
    }

    /// DELETE of a Namespace; one that holds objects is not deleted (the namespace controller
    /// that would empty it is not modelled).
    pub fn delete_namespace(&mut self, user: &UserInfo, name: &str) -> Result<(), Status> {
        self.authorize_namespaces(user, "delete", Some(name))?;
        let holds = Kind::ALL.into_iter().any(|kind| {
            let range = KeyRange::prefix(super::storage::prefix(kind, Some(name)));
            self.store.range(&range, 0, 1).is_ok_and(|found| !found.kvs.is_empty())
        });
        self.namespaces.delete(name, holds)
    }

    /// RBAC on `namespaces`: a request naming one is in that namespace, as kube-apiserver's
    /// `RequestInfo` makes it (so a Role there may grant it); a list is at the cluster scope.
    pub fn authorize_namespaces(&self, user: &UserInfo, verb: &str, name: Option<&str>) -> Result<(), Status> {
        let namespace = name.unwrap_or_default();
        let attrs = RequestAttributes { verb, group: "", resource: "namespaces", subresource: "", namespace, name };
        self.rbac.authorize(user, &attrs)
    }

    /// PUT: replaces an object's spec and metadata (see `registry::update`).
    pub fn update(&mut self, user: &UserInfo, obj: ApiObject) -> Result<ApiObject, Status> {
        self.put(user, obj, false)
    }

    /// PUT on the `status` subresource: replaces only the status.
    pub fn update_status(&mut self, user: &UserInfo, obj: ApiObject) -> Result<ApiObject, Status> {
        self.put(user, obj, true)
    }

    fn put(&mut self, user: &UserInfo, mut obj: ApiObject, status_only: bool) -> Result<ApiObject, Status> {
        // A kind the server does not serve never reaches a resource's handler or metrics.
        let kind = Self::kind_of(&obj)?;
        registry::defaulted_namespace(&mut obj);
        let sub = if status_only { "status" } else { "" };
        let result = if status_only && !kind.has_status() {
            Err(Status::no_such_resource())
        } else {
            let (ns, name) = (obj.metadata.namespace.clone(), obj.metadata.name.clone());
            self.authorize(user, Verb::Update, kind, sub, &ns, Some(&name)).and_then(|()| {
                registry::update(&mut self.store, kind, obj, status_only, UpdateBy::Put, self.config.write_rules)
            })
        };
        self.propagate();
        self.finish(Verb::Update, kind, sub, 200, result)
    }

    /// PATCH (on the object, or its `status` subresource): the patch applied to the object as
    /// stored, then written as an update would be; a `resourceVersion` in the patch is a
    /// precondition, none means "whatever is there" (apiserver `patch.go`).
    pub fn patch(&mut self, user: &UserInfo, p: &super::patch::PatchRequest) -> Result<ApiObject, Status> {
        let (kind, namespace, name) = (p.kind, p.namespace.as_str(), p.name.as_str());
        let sub = if p.status { "status" } else { "" };
        let result = self.authorize(user, Verb::Patch, kind, sub, namespace, Some(name)).and_then(|()| {
            if p.status && !kind.has_status() {
                return Err(Status::no_such_resource());
            }
            let key = storage_key(kind, namespace, name);
            let stored =
                current(&self.store, &key).map(|kv| decode(&kv)).ok_or_else(|| Status::not_found(kind, name))?;
            let original = serde_json::to_value(&stored).map_err(|e| Status::internal(e.to_string()))?;
            let patched = super::patch::apply(&original, &p.body, p.patch_type)?;
            let mut obj: ApiObject = serde_json::from_value(patched)
                .map_err(|e| Status::bad_request(format!("the patched object is not a valid {kind}: {e}")))?;
            (obj.metadata.name, obj.metadata.namespace) = (name.to_string(), namespace.to_string());
            registry::update(&mut self.store, kind, obj, p.status, UpdateBy::Patch, self.config.write_rules)
        });
        self.propagate();
        self.finish(Verb::Patch, kind, sub, 200, result)
    }

    /// DELETE: removes an object at once and returns its last state.
    pub fn delete(&mut self, user: &UserInfo, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, Status> {
        self.delete_if(user, kind, namespace, name, &Preconditions::default())
    }

    /// DELETE with `DeleteOptions.preconditions`: a 409 when the object is no longer the one
    /// they name.
    pub fn delete_if(
        &mut self,
        user: &UserInfo,
        kind: Kind,
        namespace: &str,
        name: &str,
        preconditions: &Preconditions,
    ) -> Result<ApiObject, Status> {
        let result = self
            .authorize(user, Verb::Delete, kind, "", namespace, Some(name))
            .and_then(|()| registry::delete(&mut self.store, kind, namespace, name, preconditions));
        self.propagate();
        self.finish(Verb::Delete, kind, "", 200, result)
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
        self.finish(Verb::Get, kind, "", 200, result)
    }

    fn do_get(&self, user: &UserInfo, kind: Kind, namespace: &str, name: &str, rv: &str) -> Result<ApiObject, Status> {
        self.authorize(user, Verb::Get, kind, "", namespace, Some(name))?;
        let key = storage_key(kind, namespace, name);
        let found = match (parse_rv(rv).map_err(Status::unclassified)?, self.cacher.serving_cache(kind)) {
            (Rv::Unset, _) | (_, None) => current(&self.store, &key).map(|kv| decode(&kv)),
            (Rv::Any, Some(cache)) => cache.get(&key).cloned(),
            (Rv::AtLeast(n), Some(cache)) => {
                if n > cache.revision() {
                    return Err(Status::too_large_resource_version(n, cache.revision(), FROM_CACHE));
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
        // A consistent read from the watch cache first waits for it to reach etcd's current
        // revision, which a progress request lifts it to (`ConsistentListFromCache`).
        let consistent = opts.resource_version.is_empty() && opts.continue_token.is_empty();
        if consistent && self.config.cache_delegator {
            self.cacher.progress_notify_kind(kind, &self.store);
        }
        let result = self.do_list(user, kind, opts);
        if let Ok(list) = &result {
            let bytes: usize = list.items.iter().map(|o| ApiObject::json_len(o) + 1).sum::<usize>() + 64;
            self.metrics.sent(list.items.len() as u64, bytes);
        }
        self.finish(Verb::List, kind, "", 200, result)
    }

    /// A LIST's answer in the form asked for: each item whole, or its metadata alone.
    fn do_list(&self, user: &UserInfo, kind: Kind, opts: &ListOptions) -> Result<ListResponse, Status> {
        let mut list = self.list_whole(user, kind, opts)?;
        if opts.metadata_only {
            list.items = list.items.iter().map(|o| Shared::new(o.partial_metadata())).collect();
        }
        Ok(list)
    }

    fn list_whole(&self, user: &UserInfo, kind: Kind, opts: &ListOptions) -> Result<ListResponse, Status> {
        // The order of kube-apiserver's checks: authorisation (whose request info names the
        // object of a `metadata.name=` field selector), then the selectors as the handler
        // decodes them, then `ValidateListOptions`.
        let ns = opts.namespace.as_deref().unwrap_or("");
        let named = FieldSelector::parse(&opts.field_selector, kind).ok();
        self.authorize(user, Verb::List, kind, "", ns, named.as_ref().and_then(FieldSelector::single_name))?;
        let filter = Filter {
            kind,
            namespace: opts.namespace.clone(),
            labels: LabelSelector::parse(&opts.label_selector)?,
            fields: FieldSelector::parse(&opts.field_selector, kind)?,
            metadata_only: false,
        };
        validate_list_options(opts)?;
        let prefix = prefix(kind, opts.namespace.as_deref());
        let store = &self.store;
        if !opts.continue_token.is_empty() {
            let etcd_keys = self.config.etcd_continue_key;
            let (rev, start) = decode_continue(&opts.continue_token, &prefix)?;
            if !matches!(opts.resource_version.as_str(), "" | "0") {
                return Err(Status::bad_request(
                    "specifying resource version is not allowed when using continue".into(),
                ));
            }
            // From 1.34 a continuation is served from the watch cache's snapshot at the token's
            // revision while its window holds it, even after etcd compacted that revision.
            let snapshot = match (rev, self.cacher.serving_cache(kind)) {
                (Some(rev), Some(cache)) if self.config.list_from_cache_snapshot => cache.snapshot_at(&prefix, rev),
                _ => None,
            };
            if let (Some(state), Some(rev)) = (snapshot, rev) {
                return Ok(cache_page(
                    state.range(start..).map(|(_, o)| o).collect(),
                    &filter,
                    &prefix,
                    opts.limit,
                    rev,
                ));
            }
            let rev = rev.unwrap_or_else(|| store.revision());
            return list_from_etcd(store, &filter, &prefix, rev, &start, opts.limit, etcd_keys).map_err(|e| match e {
                // The 410 carries a token to go on from the same key at the latest revision.
                MvccError::Compacted => Status::expired(CONTINUE_EXPIRED.into())
                    .with_continue(storage::encode_continue(-1, &prefix, &start, etcd_keys)),
                other => Status::internal(other.grpc_message()),
            });
        }
        let rv = parse_rv(&opts.resource_version).map_err(|why| match self.config.cache_delegator {
            true => Status::bad_request(format!("invalid resource version: {why}")),
            false => Status::unclassified(why),
        })?;
        // A field selector naming one object in a namespace reads that one key (the registry's
        // `MatchesSingle`): no pages, and a legacy N with a limit is not exact.
        let single_key = opts.namespace.is_some() && filter.fields.single_name().is_some();
        let exact = opts.resource_version_match == EXACT
            || (opts.resource_version_match.is_empty()
                && opts.limit > 0
                && !single_key
                && matches!(rv, Rv::AtLeast(_)));
        // A limit is honoured by the watch cache from 1.33 (`computeListLimit`; never for "0");
        // before, a list with a limit went to etcd.
        let limit = if rv == Rv::Any || single_key { 0 } else { opts.limit };
        // That one key's legacy N with a limit is read from etcd at its latest revision.
        let legacy_exact_key = single_key && opts.limit > 0 && opts.resource_version_match.is_empty();
        // Before 1.33 any list that asks for a limit (but at "0") goes to etcd.
        let asks_limit = opts.limit > 0 && rv != Rv::Any;
        let cache = self.cacher.serving_cache(kind).filter(|_| {
            (!asks_limit || self.config.cache_delegator) && !(legacy_exact_key && matches!(rv, Rv::AtLeast(_)))
        });
        match (rv, cache) {
            (Rv::AtLeast(n), _) if exact => self.list_exact(&filter, &prefix, n, limit, single_key),
            (Rv::AtLeast(n), Some(cache)) if n > cache.revision() => {
                Err(Status::too_large_resource_version(n, cache.revision(), FROM_CACHE))
            }
            (Rv::AtLeast(n), None) if n > store.revision() => {
                Err(Status::too_large_resource_version(n, store.revision(), FROM_ETCD))
            }
            (Rv::Any | Rv::AtLeast(_), Some(cache)) => {
                Ok(cache_page(cache.list_shared(&prefix).collect(), &filter, &prefix, limit, cache.revision()))
            }
            // A consistent read: from the cache once it has caught up with etcd (from 1.31,
            // `ConsistentListFromCache`), else from etcd.
            (Rv::Unset, Some(cache)) if self.config.cache_delegator => {
                Ok(cache_page(cache.list_shared(&prefix).collect(), &filter, &prefix, limit, store.revision()))
            }
            (Rv::Unset | Rv::Any | Rv::AtLeast(_), _) => {
                list_from_etcd(store, &filter, &prefix, store.revision(), "", limit, self.config.etcd_continue_key)
                    .map_err(|e| Status::internal(e.grpc_message()))
            }
        }
    }

    /// A list exactly at revision `n` (`resourceVersionMatch=Exact`, or N with a limit): from
    /// the watch cache's snapshot where the release keeps them and the window still covers
    /// `n` (a future `n` waits in the cache there), else from etcd (410 once compacted). One
    /// key's read always goes to etcd.
    fn list_exact(
        &self,
        filter: &Filter,
        prefix: &str,
        n: Revision,
        limit: usize,
        single_key: bool,
    ) -> Result<ListResponse, Status> {
        let snapshots = self.config.list_from_cache_snapshot && !single_key;
        if n > self.store.revision() {
            return Err(match (snapshots, self.config.future_revision_too_large) {
                (true, _) => Status::too_large_resource_version(n, self.store.revision(), FROM_CACHE),
                (false, true) => Status::too_large_resource_version(n, self.store.revision(), FROM_ETCD),
                (false, false) => Status::unclassified(MvccError::FutureRevision.grpc_message()),
            });
        }
        let snapshot = match self.cacher.serving_cache(filter.kind) {
            Some(cache) if snapshots => cache.snapshot_at(prefix, n),
            _ => None,
        };
        match snapshot {
            Some(state) => Ok(cache_page(state.values().collect(), filter, prefix, limit, n)),
            None => {
                list_from_etcd(&self.store, filter, prefix, n, "", limit, self.config.etcd_continue_key).map_err(|e| {
                    match e {
                        MvccError::Compacted => Status::expired(LIST_TOO_OLD.into()),
                        other => Status::internal(other.grpc_message()),
                    }
                })
            }
        }
    }

    // ----- watches -----

    /// WATCH a kind. Errors of the request itself (403, a bad selector) return at once; an
    /// expired resourceVersion is delivered in the stream as an `ERROR` event (§8).
    pub fn watch(&mut self, user: &UserInfo, kind: Kind, opts: &WatchOptions) -> Result<ApiWatchId, Status> {
        let result = self.do_watch(user, kind, opts);
        self.finish(Verb::Watch, kind, "", 200, result)
    }

    fn do_watch(&mut self, user: &UserInfo, kind: Kind, opts: &WatchOptions) -> Result<ApiWatchId, Status> {
        // Authorisation first, then the selectors, then the options (as `do_list`).
        let ns = opts.namespace.as_deref().unwrap_or("");
        let named = FieldSelector::parse(&opts.field_selector, kind).ok();
        self.authorize(user, Verb::Watch, kind, "", ns, named.as_ref().and_then(FieldSelector::single_name))?;
        let filter = Filter {
            kind,
            namespace: opts.namespace.clone(),
            labels: LabelSelector::parse(&opts.label_selector)?,
            fields: FieldSelector::parse(&opts.field_selector, kind)?,
            metadata_only: opts.metadata_only,
        };
        validate_watch_options(opts, self.config.watch_list)?;
        let defaulted = watch_list_default(opts, self.config.watch_list);
        let opts = defaulted.as_ref().unwrap_or(opts);
        let rv = parse_rv(&opts.resource_version).map_err(Status::unclassified)?;
        let start = match (opts.send_initial_events, rv) {
            // A watch-list: the state at least as fresh as asked (RV "" is a consistent read:
            // etcd's current revision), then the bookmark that ends the initial events.
            (Some(true), Rv::AtLeast(n)) if n > self.store.revision() => {
                return Err(Status::too_large_resource_version(n, self.store.revision(), FROM_CACHE))
            }
            (Some(true), _) => WatchStart::InitialEvents,
            (Some(false), Rv::Unset | Rv::Any) => WatchStart::After(self.store.revision()),
            (None, Rv::Unset | Rv::Any) => WatchStart::CurrentState,
            (_, Rv::AtLeast(n)) => WatchStart::After(n),
        };
        let now = self.now_ms;
        let deadline = if opts.timeout_secs > 0 { now + opts.timeout_secs * 1000 } else { 0 };
        let watch =
            self.cacher.open(&mut self.store, &mut self.metrics, filter, start, opts.allow_bookmarks, &user.name);
        self.cacher.schedule_bookmarks(watch, now, deadline, self.config.bookmark_frequency_ms);
        Ok(watch)
    }

    /// Takes the events waiting in a watch stream. A stream that was closed (by an error,
    /// a restart or [`ApiServer::stop_watch`]) is forgotten once drained.
    pub fn take_events(&mut self, id: ApiWatchId) -> Vec<WatchEvent> {
        self.cacher.take_events(&mut self.store, id)
    }

    /// The first `at_most` events a stream holds (a served world hands them over one by one
    /// when it is stepped).
    pub fn take_some_events(&mut self, id: ApiWatchId, at_most: usize) -> Vec<WatchEvent> {
        self.cacher.take_some_events(&mut self.store, id, at_most)
    }

    /// How many events a stream holds for its reader.
    pub fn events_owed(&self, id: ApiWatchId) -> usize {
        self.cacher.owed(id)
    }

    /// The events a stream holds for its reader, oldest first.
    pub fn owed_events(&self, id: ApiWatchId) -> impl Iterator<Item = &WatchEvent> {
        self.cacher.owed_events(id)
    }

    /// Whether a watch stream is still open (or has events left to take).
    pub fn watch_is_open(&self, id: ApiWatchId) -> bool {
        self.cacher.is_open(id)
    }

    /// Ends a watch stream (client disconnect or server timeout).
    pub fn stop_watch(&mut self, id: ApiWatchId) {
        self.cacher.stop(&mut self.store, id);
    }

    /// Open watch streams.
    pub fn live_watchers(&self) -> usize {
        self.cacher.live()
    }

    pub fn watchers(&self) -> impl Iterator<Item = (ApiWatchId, &Watcher)> {
        self.cacher.watchers()
    }

    /// Sends the bookmarks due now (§1.4); returns how many.
    pub fn send_due_bookmarks(&mut self) -> usize {
        self.cacher.send_due_bookmarks(self.now_ms, self.config.bookmark_frequency_ms, &mut self.metrics)
    }

    /// When the next bookmark is due, if any watcher waits for one.
    pub fn next_bookmark_at(&self) -> Option<u64> {
        self.cacher.next_bookmark_at()
    }

    /// etcd's progress notification reaches the watch caches: they learn its revision.
    pub fn progress_notify(&mut self) {
        self.cacher.progress_notify(&self.store);
    }

    /// Objects of a kind currently stored.
    /// Keys the store keeps, of every kind, live or not yet compacted (constant time).
    pub fn stored_keys(&self) -> usize {
        self.store.key_count()
    }

    pub fn count(&self, kind: Kind) -> usize {
        self.store.count(&KeyRange::prefix(storage::prefix(kind, None)))
    }
}

/// A page of the watch cache's objects (`Cacher.GetList`): without a selector the first
/// `limit`; with one, the first `limit` that match, and more pages only if any object follows
/// the last match. The continue token starts after the last object returned.
fn cache_page(all: Vec<&Shared>, filter: &Filter, prefix: &str, limit: usize, rv: Revision) -> ListResponse {
    let mut items = Vec::new();
    let mut more = false;
    for (i, obj) in all.iter().enumerate() {
        if filter.matches(obj) {
            items.push((*obj).clone());
        }
        if limit > 0 && items.len() >= limit {
            more = i + 1 < all.len();
            break;
        }
    }
    let (continue_token, remaining_item_count) = match (more, items.last()) {
        (true, Some(last)) => {
            let key = storage_key(filter.kind, &last.metadata.namespace, &last.metadata.name);
            let remaining = filter.selects_everything().then_some(all.len() as i64 - limit as i64);
            (storage::encode_continue(rv, prefix, &format!("{key}\0"), ContinueKey::WithSlash), remaining)
        }
        _ => (String::new(), None),
    };
    ListResponse { items, resource_version: rv, continue_token, remaining_item_count }
}
