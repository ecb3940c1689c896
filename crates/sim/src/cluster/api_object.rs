//! API objects: `apiVersion`, `kind`, `metadata` (ObjectMeta) and the kind's body
//! (`spec` and `status`, or `data` for ConfigMaps and Secrets), semantics §8.
//!
//! `metadata.resourceVersion` is never stored: like the API server's etcd3 storage, the
//! store holds the object without it and every read fills it in from the key's
//! `mod_revision` (a global revision, not a per-object counter).
//!
//! Left out: fields the playground never reads (managedFields, finalizers, deletion grace).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// The kinds the API server serves, with their REST resource and API group. Read by its exact
/// name (`ConfigMap`); anything else is refused with the names there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Kind {
    Pod,
    ReplicaSet,
    Deployment,
    ConfigMap,
    Secret,
}

impl Kind {
    pub const ALL: [Kind; 5] = [Kind::Pod, Kind::ReplicaSet, Kind::Deployment, Kind::ConfigMap, Kind::Secret];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Pod => "Pod",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Deployment => "Deployment",
            Kind::ConfigMap => "ConfigMap",
            Kind::Secret => "Secret",
        }
    }

    /// The plural REST resource, as in `/api/v1/namespaces/default/pods`.
    pub fn resource(self) -> &'static str {
        match self {
            Kind::Pod => "pods",
            Kind::ReplicaSet => "replicasets",
            Kind::Deployment => "deployments",
            Kind::ConfigMap => "configmaps",
            Kind::Secret => "secrets",
        }
    }

    /// The API group: `""` for the core group.
    pub fn group(self) -> &'static str {
        match self {
            Kind::ReplicaSet | Kind::Deployment => "apps",
            _ => "",
        }
    }

    pub fn api_version(self) -> &'static str {
        match self.group() {
            "" => "v1",
            _ => "apps/v1",
        }
    }

    /// The version of the kind's group (`v1` for every kind served).
    pub fn version(self) -> &'static str {
        "v1"
    }

    /// `GroupResource.String()`: `pods`, or `deployments.apps` outside the core group.
    pub fn group_resource(self) -> String {
        match self.group() {
            "" => self.resource().to_string(),
            g => format!("{}.{g}", self.resource()),
        }
    }

    /// Kinds with a `status` subresource: spec and status are written by different verbs,
    /// and `metadata.generation` counts spec changes.
    pub fn has_status(self) -> bool {
        matches!(self, Kind::Pod | Kind::ReplicaSet | Kind::Deployment)
    }

    /// The Go type a reflector names in its log lines, e.g. `*v1.ConfigMap` (semantics §1.1).
    pub fn type_description(self) -> String {
        format!("*v1.{}", self.name())
    }

    /// Looks a kind up by name, resource, or a kubectl short name.
    pub fn parse(s: &str) -> Option<Kind> {
        let lower = s.to_ascii_lowercase();
        let bare = lower.split('.').next().unwrap_or_default();
        Kind::ALL.into_iter().find(|k| {
            let short = match k {
                Kind::Pod => "po",
                Kind::ReplicaSet => "rs",
                Kind::Deployment => "deploy",
                Kind::ConfigMap => "cm",
                Kind::Secret => "secret",
            };
            bare == k.name().to_ascii_lowercase() || bare == k.resource() || bare == short
        })
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(reader: D) -> Result<Self, D::Error> {
        let name = String::deserialize(reader)?;
        Kind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| {
            let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            serde::de::Error::custom(format!("unknown kind {name:?}, expected one of {}", kinds.join(", ")))
        })
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Kind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Kind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        schemars::json_schema!({ "description": "A kind the API server serves.", "type": "string", "enum": names })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    pub api_version: String,
    pub kind: String,
    pub name: String,
    pub uid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(default)]
    pub name: String,
    /// A prefix the server completes into a unique name when `name` is empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generate_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub generation: i64,
    /// Go's typed clients send a zero time as `null` (`metav1.Time`), read as none.
    #[serde(default, skip_serializing_if = "String::is_empty", deserialize_with = "null_as_empty")]
    pub creation_timestamp: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owner_references: Vec<OwnerReference>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(reader: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(reader)?.unwrap_or_default())
}

/// One API object. Everything besides `apiVersion`, `kind` and `metadata` lives in `body`
/// (`spec`, `status`, `data`, …), kept as JSON so any manifest round-trips.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiObject {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(flatten)]
    pub body: Map<String, Value>,
    /// Its JSON size, once measured through [`ApiObject::json_len`].
    #[serde(skip)]
    json_len: JsonLen,
}

/// A measured JSON size. A copy of the object starts without one (the copy may be changed);
/// it takes no part in equality.
#[derive(Default)]
struct JsonLen(std::cell::Cell<Option<usize>>);

impl Clone for JsonLen {
    fn clone(&self) -> Self {
        JsonLen::default()
    }
}

impl PartialEq for JsonLen {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for JsonLen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("_")
    }
}

impl ApiObject {
    /// A new object of `kind` with only a namespace and a name.
    pub fn new(kind: Kind, namespace: &str, name: &str) -> Self {
        ApiObject {
            api_version: kind.api_version().into(),
            kind: kind.name().into(),
            metadata: ObjectMeta { name: name.into(), namespace: namespace.into(), ..Default::default() },
            body: Map::new(),
            json_len: JsonLen::default(),
        }
    }

    /// The bytes of its JSON, measured once per object: a shared object never changes (nothing
    /// takes one out of its `Rc` to change it), so every stage that counts bytes — the API
    /// server's metrics, a watch event's size, the indexer's memory — reads one figure.
    pub fn json_len(this: &Shared) -> usize {
        if let Some(n) = this.json_len.0.get() {
            return n;
        }
        let n = this.to_json().len();
        this.json_len.0.set(Some(n));
        n
    }

    /// Parses a manifest written as JSON.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    pub fn with(mut self, field: &str, value: Value) -> Self {
        self.body.insert(field.into(), value);
        self
    }

    pub fn with_label(mut self, key: &str, value: &str) -> Self {
        self.metadata.labels.insert(key.into(), value.into());
        self
    }

    pub fn kind(&self) -> Option<Kind> {
        Kind::parse(&self.kind)
    }

    /// `namespace/name`, or `name` without a namespace (client-go's `MetaNamespaceKeyFunc`).
    #[inline(never)]
    pub fn key(&self) -> String {
        let (namespace, name) = (&self.metadata.namespace, &self.metadata.name);
        if namespace.is_empty() {
            return name.clone();
        }
        // Built by hand: the formatting machinery costs more than the copy, and every LIST
        // keys each of its objects (one copy of this code, not one per caller).
        let mut key = String::with_capacity(namespace.len() + 1 + name.len());
        key.push_str(namespace);
        key.push('/');
        key.push_str(name);
        key
    }

    /// The resourceVersion as a number (0 when unset or not a number).
    pub fn resource_version(&self) -> i64 {
        self.metadata.resource_version.parse().unwrap_or(0)
    }

    pub fn spec(&self) -> Option<&Value> {
        self.body.get("spec")
    }

    pub fn status(&self) -> Option<&Value> {
        self.body.get("status")
    }

    /// A value at a dotted path such as `spec.nodeName`, `metadata.name` or
    /// `metadata.labels.tier` (a label's value), as a string.
    pub fn field(&self, path: &str) -> Option<String> {
        match path {
            "metadata.name" => return Some(self.metadata.name.clone()),
            "metadata.namespace" => return Some(self.metadata.namespace.clone()),
            _ => {}
        }
        if let Some(key) = path.strip_prefix(LABELS) {
            return self.metadata.labels.get(key).cloned();
        }
        let mut parts = path.split('.');
        let mut value = self.body.get(parts.next()?)?;
        for part in parts {
            value = value.get(part)?;
        }
        Some(match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    }

    /// The object as a metadata-only request gets it (`metav1.PartialObjectMetadata`): its
    /// `metadata` alone, typed `meta.k8s.io/v1`.
    pub fn partial_metadata(&self) -> ApiObject {
        ApiObject {
            api_version: "meta.k8s.io/v1".into(),
            kind: "PartialObjectMetadata".into(),
            metadata: self.metadata.clone(),
            body: Map::new(),
            json_len: JsonLen::default(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The path prefix of a label's value (`metadata.labels.tier`): what an index by hand over a
/// label (`IndexField` with an extractor returning the label) is named by here.
pub const LABELS: &str = "metadata.labels.";

/// An object shared by every stage that holds it (FIFO deltas, notifications, caches,
/// scheduled messages): objects never change in place, so copying a world for a snapshot
/// copies pointers, not objects.
pub type Shared = std::rc::Rc<ApiObject>;

/// The creation timestamp for a virtual time in milliseconds: RFC 3339 in UTC, counted from
/// the playground's epoch, 2025-01-01T00:00:00Z.
pub fn timestamp(virtual_ms: u64) -> String {
    const EPOCH_DAYS: u64 = 20089; // 2025-01-01 in days since 1970-01-01
    let secs = virtual_ms / 1000;
    let (days, rem) = (EPOCH_DAYS + secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// The virtual time a [`timestamp`] stands for (`None` for another format or an earlier time).
pub fn timestamp_ms(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() != 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[19] != b'Z' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    // Days from civil (the inverse of `civil_from_days`).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468 - 20089;
    let secs = days * 86_400 + hh * 3600 + mm * 60 + ss;
    u64::try_from(secs).ok().map(|s| s * 1000)
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shared_objects_json_size_is_measured_once_and_a_copy_is_measured_afresh() {
        let shared = Shared::new(ApiObject::new(Kind::ConfigMap, "default", "a").with("data", json!({"k": "v"})));
        assert_eq!(ApiObject::json_len(&shared), shared.to_json().len());
        let mut copy = (*shared).clone();
        assert_eq!(copy, *shared, "the measure takes no part in equality");
        copy.body.insert("data".into(), json!({"k": "a much longer value than before"}));
        let copy = Shared::new(copy);
        assert_eq!(ApiObject::json_len(&copy), copy.to_json().len(), "the copy did not keep the old measure");
        assert!(ApiObject::json_len(&copy) > ApiObject::json_len(&shared));
    }

    #[test]
    fn kinds_name_their_group_resource() {
        assert_eq!(Kind::Pod.group_resource(), "pods");
        assert_eq!(Kind::Deployment.group_resource(), "deployments.apps");
        assert_eq!(Kind::parse("deploy"), Some(Kind::Deployment));
        assert_eq!(Kind::parse("configmaps"), Some(Kind::ConfigMap));
        assert_eq!(Kind::parse("Foo"), None);
        assert_eq!(Kind::ConfigMap.type_description(), "*v1.ConfigMap");
    }

    #[test]
    fn manifests_round_trip_with_their_body() {
        let text = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","labels":{"app":"web"}},"data":{"k":"v"}}"#;
        let obj = ApiObject::from_json(text).unwrap();
        assert_eq!(obj.key(), "default/a");
        assert_eq!(obj.body["data"], json!({"k": "v"}));
        assert_eq!(ApiObject::from_json(&obj.to_json()).unwrap(), obj);
        let pod = ApiObject::new(Kind::Pod, "ns", "p").with("spec", json!({"nodeName": "n1"}));
        assert_eq!(pod.field("spec.nodeName").as_deref(), Some("n1"));
    }

    #[test]
    fn a_go_clients_zero_creation_timestamp_reads_as_none() {
        let text = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","creationTimestamp":null},"spec":{}}"#;
        assert_eq!(ApiObject::from_json(text).unwrap().metadata.creation_timestamp, "");
    }

    #[test]
    fn timestamps_count_from_the_epoch() {
        assert_eq!(timestamp(0), "2025-01-01T00:00:00Z");
        assert_eq!(timestamp(90_061_000), "2025-01-02T01:01:01Z");
        assert_eq!(timestamp(59 * 86_400_000), "2025-03-01T00:00:00Z");
        for ms in [0, 90_061_000, 59 * 86_400_000, 400 * 86_400_000 + 5_000] {
            assert_eq!(timestamp_ms(&timestamp(ms)), Some(ms));
        }
        assert_eq!(timestamp_ms("yesterday"), None);
    }
}
