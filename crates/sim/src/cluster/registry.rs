//! The generic registry's write verbs (apiserver `pkg/registry/generic/registry/store.go`,
//! `rest/create.go`, `rest/update.go`), semantics §7–§8: validation, defaulting, and
//! optimistic concurrency as etcd transactions.
//!
//! - create: the object must be valid (`validation.rs`); `resourceVersion` must be unset; the
//!   object gets a uid, a creation timestamp, generation 1 where the kind has a spec, and the
//!   kind's initial status; the write is `if create_revision(key) == 0 then put`. A name made
//!   from `generateName` is drawn again while taken (`createWithGenerateNameRetry`, 1.31 on).
//! - update: a resourceVersion in the request must equal the stored one (else 409 Conflict);
//!   spec writes keep the stored status, status writes keep everything but the status; a
//!   spec change bumps `metadata.generation`, and so does a Deployment's change of annotations
//!   (its strategy's `PrepareForUpdate`: they are copied to its ReplicaSets); an update that changes nothing writes nothing
//!   and keeps the resourceVersion; the write is `if mod_revision(key) == read then put`.
//! - delete: at once (no graceful deletion, no finalizers), returning the last state.
//!
//! Left out: admission, defaulting beyond the fields the playground reads, field validation
//! of specs; a generated name's characters are drawn from a counter, not at random, so a run
//! is reproducible (a dry run is the world's: it writes to a copy of the API server).

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

/// What a write does that differs between releases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteRules {
    /// A Pod starts at generation 1 (1.33 on; before, Pods have none).
    pub pod_generation: bool,
    /// How a too-long field's limit is worded.
    pub too_long_words: TooLongWords,
    /// How many names a create with only `generateName` tries.
    pub generated_name_attempts: u32,
    /// An update's changed uid is told twice: by the checks every resource gets and by the
    /// kind's own (before 1.37, where the first is left to declarative validation).
    pub uid_immutable_twice: bool,
}

/// POST: validates, defaults and stores a new object.
/// `uids` counts the uids handed out: a valid object takes the next one. An object with only a
/// `generateName` gets a name made from it, and another while the name is taken, up to the
/// configured attempts; a name taken while a `generateName` is set is told as the server's
/// failure to generate one (`rest.CheckGeneratedNameError`), with a retry after a second.
pub fn create(
    store: &mut MvccStore,
    kind: Kind,
    obj: ApiObject,
    uids: &mut u64,
    now_ms: u64,
    rules: WriteRules,
) -> Result<ApiObject, Status> {
    if !obj.metadata.name.is_empty() || obj.metadata.generate_name.is_empty() {
        return create_named(store, kind, obj, uids, now_ms, rules);
    }
    let mut taken = None;
    for _ in 0..rules.generated_name_attempts.max(1) {
        let mut obj = obj.clone();
        // A valid attempt takes a uid, so the next attempt draws another name.
        obj.metadata.name = generated_name(&obj.metadata.generate_name, *uids + 1);
        match create_named(store, kind, obj, uids, now_ms, rules) {
            Err(status) if status.reason == "AlreadyExists" => taken = Some(status),
            done => return done,
        }
    }
    Err(taken.expect("at least one attempt"))
}

fn create_named(
    store: &mut MvccStore,
    kind: Kind,
    mut obj: ApiObject,
    uids: &mut u64,
    now_ms: u64,
    rules: WriteRules,
) -> Result<ApiObject, Status> {
    validation::check(kind, &obj, rules.too_long_words)?;
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
            obj.metadata.generation = i64::from(rules.pod_generation);
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
        return Err(match obj.metadata.generate_name.is_empty() {
            true => Status::already_exists(kind, &obj.metadata.name),
            false => Status::generate_name_conflict(kind, &obj.metadata.name),
        });
    }
    obj.metadata.resource_version = result.revision.to_string();
    Ok(obj)
}

/// PUT on the object (`status_only`: on its `status` subresource).
/// How an update arrived: a PUT's body names the object (its `metadata.uid` a precondition,
/// `rest/update.go`), a PATCH's result does not (a changed uid fails validation instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateBy {
    Put,
    Patch,
}

pub fn update(
    store: &mut MvccStore,
    kind: Kind,
    mut obj: ApiObject,
    status_only: bool,
    by: UpdateBy,
    rules: WriteRules,
) -> Result<ApiObject, Status> {
    let name = obj.metadata.name.clone();
    let key = storage_key(kind, &obj.metadata.namespace, &name);
    let stored = current(store, &key).ok_or_else(|| Status::not_found(kind, &name))?;
    let old = decode(&stored);
    let (uid, stored_uid) = (&obj.metadata.uid, &old.metadata.uid);
    if by == UpdateBy::Put && !uid.is_empty() && uid != stored_uid {
        return Err(Status::uid_precondition_failed(kind, &name, &key, uid, stored_uid));
    }
    if !obj.metadata.resource_version.is_empty() && obj.metadata.resource_version != old.metadata.resource_version {
        return Err(Status::conflict(kind, &name));
    }
    if !status_only {
        validation::check_update(kind, &obj, &old, rules.too_long_words, rules.uid_immutable_twice)?;
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
            let annotations_count = kind == Kind::Deployment && obj.metadata.annotations != old.metadata.annotations;
            if (obj.spec() != old.spec() || annotations_count) && old.metadata.generation > 0 {
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
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(generated_name_attempts: u32) -> WriteRules {
        let too_long_words = TooLongWords::default();
        WriteRules { pod_generation: true, too_long_words, generated_name_attempts, uid_immutable_twice: false }
    }

    /// A store holding the ConfigMaps the first `taken` names made from `cm-` would be.
    fn store_with_names_taken(taken: u64) -> MvccStore {
        let mut store = MvccStore::new();
        let mut uids = 100;
        for n in 1..=taken {
            let obj = ApiObject::new(Kind::ConfigMap, "default", &generated_name("cm-", n));
            create(&mut store, Kind::ConfigMap, obj, &mut uids, 0, rules(1)).unwrap();
        }
        store
    }

    fn generated(attempts: u32, store: &mut MvccStore) -> Result<ApiObject, Status> {
        let mut obj = ApiObject::new(Kind::ConfigMap, "default", "");
        obj.metadata.generate_name = "cm-".into();
        create(store, Kind::ConfigMap, obj, &mut 0, 0, rules(attempts))
    }

    #[test]
    fn a_generated_name_that_is_taken_is_drawn_again_up_to_eight_times_from_1_31() {
        let made = generated(8, &mut store_with_names_taken(7)).unwrap();
        assert_eq!(made.metadata.name, generated_name("cm-", 8), "the eighth name, the first free one");
        let refused = generated(8, &mut store_with_names_taken(8)).unwrap_err();
        let last = generated_name("cm-", 8);
        assert_eq!(
            refused.message,
            format!(
                "configmaps {last:?} already exists, the server was not able to generate a unique name for the object"
            )
        );
        assert_eq!((refused.code, refused.reason), (409, "AlreadyExists"));
        assert_eq!(refused.details.unwrap().retry_after_seconds, 1);
    }

    #[test]
    fn before_1_31_a_generated_name_that_is_taken_is_refused_at_once() {
        let refused = generated(1, &mut store_with_names_taken(1)).unwrap_err();
        assert!(refused
            .message
            .starts_with(&format!("configmaps {:?} already exists, the server", generated_name("cm-", 1))));
    }

    #[test]
    fn a_chosen_name_that_is_taken_is_told_as_a_generated_one_when_a_prefix_is_set() {
        let mut store = store_with_names_taken(0);
        let plain = ApiObject::new(Kind::ConfigMap, "default", "x");
        create(&mut store, Kind::ConfigMap, plain.clone(), &mut 0, 0, rules(8)).unwrap();
        assert_eq!(
            create(&mut store, Kind::ConfigMap, plain.clone(), &mut 0, 0, rules(8)).unwrap_err().message,
            r#"configmaps "x" already exists"#
        );
        let mut prefixed = plain;
        prefixed.metadata.generate_name = "x-".into();
        let refused = create(&mut store, Kind::ConfigMap, prefixed, &mut 0, 0, rules(8)).unwrap_err();
        assert!(refused.message.ends_with("the server was not able to generate a unique name for the object"));
    }

    #[test]
    fn semantics_8_a_puts_uid_is_a_precondition_and_a_patchs_changed_uid_is_invalid() {
        let mut store = store_with_names_taken(0);
        let made =
            create(&mut store, Kind::ConfigMap, ApiObject::new(Kind::ConfigMap, "default", "u"), &mut 0, 0, rules(8));
        let stored_uid = made.unwrap().metadata.uid;
        let mut other = ApiObject::new(Kind::ConfigMap, "default", "u");
        other.metadata.uid = "6d2a3f7e-0000-4000-8000-000000000000".into();
        other.metadata.resource_version = "1".into();
        let put = update(&mut store, Kind::ConfigMap, other.clone(), false, UpdateBy::Put, rules(8)).unwrap_err();
        assert_eq!(
            put.message,
            format!("Operation cannot be fulfilled on configmaps \"u\": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/u, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 6d2a3f7e-0000-4000-8000-000000000000, UID in object meta: {stored_uid}"),
            "the uid is checked before the (stale) resourceVersion"
        );
        other.metadata.resource_version.clear();
        let twice = WriteRules { uid_immutable_twice: true, ..rules(8) };
        let patched = update(&mut store, Kind::ConfigMap, other, false, UpdateBy::Patch, twice).unwrap_err();
        assert_eq!(
            patched.message,
            r#"ConfigMap "u" is invalid: metadata.uid: Invalid value: "6d2a3f7e-0000-4000-8000-000000000000": field is immutable"#
        );
        assert_eq!(
            patched.details.unwrap().causes.len(),
            2,
            "told by the common checks and the kind's, once in the message"
        );
    }

    fn stored_with_spec(kind: Kind, store: &mut MvccStore) -> ApiObject {
        let obj = ApiObject::new(kind, "default", "web").with("spec", serde_json::json!({"replicas": 1}));
        create(store, kind, obj, &mut 0, 0, rules(8)).unwrap()
    }

    /// kubernetes v1.30.14–v1.37.2 `pkg/registry/apps/deployment/strategy.go: PrepareForUpdate`
    /// bumps a Deployment's generation for a change of spec or of annotations;
    /// `replicaset/strategy.go` for a change of spec only; labels never.
    #[test]
    fn a_deployments_annotations_count_as_a_change_of_generation_and_labels_do_not() {
        for (kind, annotation_bumps) in [(Kind::Deployment, true), (Kind::ReplicaSet, false)] {
            let mut store = MvccStore::new();
            let mut obj = stored_with_spec(kind, &mut store);
            obj.metadata.annotations.insert("team".into(), "a".into());
            let annotated = update(&mut store, kind, obj, false, UpdateBy::Put, rules(8)).unwrap();
            assert_eq!(annotated.metadata.generation, if annotation_bumps { 2 } else { 1 }, "{kind}");
            let mut obj = annotated.clone();
            obj.metadata.labels.insert("tier".into(), "web".into());
            let labelled = update(&mut store, kind, obj, false, UpdateBy::Put, rules(8)).unwrap();
            assert_eq!(labelled.metadata.generation, annotated.metadata.generation, "{kind}: a label");
        }
    }
}
