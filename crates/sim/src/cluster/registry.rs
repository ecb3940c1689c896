//! The generic registry's write verbs (apiserver `pkg/registry/generic/registry/store.go`,
//! `rest/create.go`, `rest/update.go`), semantics §7–§8: validation, defaulting, and
//! optimistic concurrency as etcd transactions.
//!
//! - create: the object must be valid (`validation.rs`); `resourceVersion` must be unset; the
//!   object gets a uid, a creation timestamp, generation 1 where the kind has a spec, and the
//!   kind's initial status; the write is `if create_revision(key) == 0 then put`.
//! - update: a resourceVersion in the request must equal the stored one (else 409 Conflict);
//!   spec writes keep the stored status, status writes keep everything but the status; a
//!   spec change bumps `metadata.generation`; an update that changes nothing writes nothing
//!   and keeps the resourceVersion; the write is `if mod_revision(key) == read then put`.
//! - delete: at once (no graceful deletion, no finalizers), returning the last state.
//!
//! Left out: admission, defaulting beyond the fields the playground reads, field validation
//! of specs, generateName, dry-run.

use super::api_errors::{Status, TooLongWords};
use super::api_object::{timestamp, ApiObject, Kind};
use super::mvcc_store::{Compare, KeyRange, MvccStore, Op};
use super::storage::{current, decode, encode, storage_key};
use super::validation;
use serde_json::{json, Value};

/// A uid in the UUID v4 layout, from a counter (deterministic, never repeated).
/// `names.SimpleNameGenerator`: the prefix (at most 58 bytes) and five characters from
/// `utilrand`'s alphabet, here drawn from `n` so that a run is reproducible.
fn generated_name(prefix: &str, n: u64) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let mut base: String = prefix.chars().take(58).collect();
    let mut z = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5851_F42D_4C95_7F2D;
    for _ in 0..5 {
        base.push(ALPHABET[(z % ALPHABET.len() as u64) as usize] as char);
        z /= ALPHABET.len() as u64;
    }
    base
}

pub fn uid(n: u64) -> String {
    let mut z = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    let lo = z ^ (z >> 31);
    let hi = lo.rotate_left(29) ^ n;
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        hi >> 32,
        hi >> 16 & 0xffff,
        hi & 0xfff,
        lo >> 52,
        lo & 0xffff_ffff_ffff
    )
}

/// The namespace a request for this object means (`default` when unset).
pub fn defaulted_namespace(obj: &mut ApiObject) {
    if obj.metadata.namespace.is_empty() {
        obj.metadata.namespace = "default".into();
    }
}

/// POST: validates, defaults and stores a new object.
/// `uids` counts the uids handed out: a valid object takes the next one. `pod_generation`:
/// a Pod starts at generation 1 (1.33 on; before, Pods have none).
pub fn create(
    store: &mut MvccStore,
    kind: Kind,
    mut obj: ApiObject,
    uids: &mut u64,
    now_ms: u64,
    pod_generation: bool,
    words: TooLongWords,
) -> Result<ApiObject, Status> {
    if obj.metadata.name.is_empty() && !obj.metadata.generate_name.is_empty() {
        obj.metadata.name = generated_name(&obj.metadata.generate_name, *uids + 1);
    }
    validation::check(kind, &obj, words)?;
    if !obj.metadata.resource_version.is_empty() {
        // `rest.BeforeCreate` returns a plain error here, which the API server sends as a 500.
        return Err(Status::unclassified("resourceVersion should not be set on objects to be created".into()));
    }
    obj.api_version = kind.api_version().into();
    *uids += 1;
    obj.metadata.uid = uid(*uids);
    obj.metadata.creation_timestamp = timestamp(now_ms);
    match kind {
        Kind::Pod => {
            obj.metadata.generation = i64::from(pod_generation);
            obj.body.insert("status".into(), json!({"phase": "Pending"}));
        }
        Kind::ReplicaSet | Kind::Deployment => {
            obj.metadata.generation = 1;
            obj.body.insert("status".into(), json!({}));
        }
        Kind::ConfigMap => obj.metadata.generation = 0,
        Kind::Secret => {
            obj.metadata.generation = 0;
            obj.body.entry("type").or_insert_with(|| json!("Opaque"));
        }
    }
    let key = storage_key(kind, &obj.metadata.namespace, &obj.metadata.name);
    let put = Op::Put { key: key.clone(), value: encode(&obj) };
    let result =
        store.txn(&[Compare::CreateRevision(key, 0)], &[put], &[]).map_err(|e| Status::internal(e.grpc_message()))?;
    if !result.succeeded {
        return Err(Status::already_exists(kind, &obj.metadata.name));
    }
    obj.metadata.resource_version = result.revision.to_string();
    Ok(obj)
}

/// PUT on the object (`status_only`: on its `status` subresource).
pub fn update(
    store: &mut MvccStore,
    kind: Kind,
    mut obj: ApiObject,
    status_only: bool,
    words: TooLongWords,
) -> Result<ApiObject, Status> {
    let name = obj.metadata.name.clone();
    let key = storage_key(kind, &obj.metadata.namespace, &name);
    let stored = current(store, &key).ok_or_else(|| Status::not_found(kind, &name))?;
    let old = decode(&stored);
    if !obj.metadata.resource_version.is_empty() && obj.metadata.resource_version != old.metadata.resource_version {
        return Err(Status::conflict(kind, &name));
    }
    if !status_only {
        validation::check(kind, &obj, words)?;
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
            // Only a kind that tracks generations counts them (a Pod before 1.33 has none).
            if obj.spec() != old.spec() && old.metadata.generation > 0 {
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
    let result = store
        .txn(&[Compare::ModRevision(key, stored.mod_revision)], &[put], &[])
        .map_err(|e| Status::internal(e.grpc_message()))?;
    if !result.succeeded {
        return Err(Status::conflict(kind, &name));
    }
    new.metadata.resource_version = result.revision.to_string();
    Ok(new)
}

/// A DELETE's `preconditions` (`DeleteOptions`): the object must still be the one with this
/// uid, at this resourceVersion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preconditions {
    pub uid: Option<String>,
    pub resource_version: Option<String>,
}

impl Preconditions {
    /// `rest.BeforeDelete`: the uid first, then the resourceVersion, each a 409 naming both.
    fn check(&self, kind: Kind, stored: &ApiObject) -> Result<(), Status> {
        let (name, meta) = (&stored.metadata.name, &stored.metadata);
        if let Some(uid) = self.uid.as_ref().filter(|uid| **uid != meta.uid) {
            let why = format!(
                "the UID in the precondition ({uid}) does not match the UID in record ({}). The object might have been deleted and then recreated",
                meta.uid
            );
            return Err(Status::precondition_conflict(kind, name, &why));
        }
        if let Some(rv) = self.resource_version.as_ref().filter(|rv| **rv != meta.resource_version) {
            let why = format!(
                "the ResourceVersion in the precondition ({rv}) does not match the ResourceVersion in record ({}). The object might have been modified",
                meta.resource_version
            );
            return Err(Status::precondition_conflict(kind, name, &why));
        }
        Ok(())
    }
}

/// DELETE: removes an object at once, if its preconditions hold, and returns its last state.
pub fn delete(
    store: &mut MvccStore,
    kind: Kind,
    namespace: &str,
    name: &str,
    preconditions: &Preconditions,
) -> Result<ApiObject, Status> {
    let key = storage_key(kind, namespace, name);
    let stored = current(store, &key).ok_or_else(|| Status::not_found(kind, name))?;
    let object = decode(&stored);
    preconditions.check(kind, &object)?;
    let del = Op::Delete(KeyRange::single(key.clone()));
    let result = store
        .txn(&[Compare::ModRevision(key, stored.mod_revision)], &[del], &[])
        .map_err(|e| Status::internal(e.grpc_message()))?;
    if !result.succeeded {
        return Err(Status::conflict(kind, name));
    }
    Ok(object)
}
