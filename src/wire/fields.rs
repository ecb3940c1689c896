//! A written object's fields checked as kube-apiserver's strict decoder checks them
//! (apiserver `handlers/create.go` and `update.go`: `fieldValidation` is `Warn` unless told;
//! sigs.k8s.io/json names each `unknown field` and each `duplicate field` by its path —
//! `spec.containers[0].foo`, `metadata.labels.app` — in the body's order), the same in 1.30.14,
//! 1.33.13 and 1.37.2. The fields a kind knows are its release's: `fields/<release>.json`, read
//! from k8s.io/kubernetes's OpenAPI documents at the tag (checked again by the server judge). A
//! field no type knows is not kept, whatever the directive.
//!
//! Left out: patches (each patch type checks its own way); a value of the wrong JSON type,
//! which the decoder refuses before any of this.

use informer_sim::era::Era;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

/// What `fieldValidation` asks of a write (`metav1.FieldValidation*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directive {
    Ignore,
    Warn,
    Strict,
}

impl Directive {
    /// The query's value (`""`: the handlers' default, `Warn`); `None` for one not allowed.
    pub fn parse(value: &str) -> Option<Directive> {
        match value {
            "Ignore" => Some(Directive::Ignore),
            "" | "Warn" => Some(Directive::Warn),
            "Strict" => Some(Directive::Strict),
            _ => None,
        }
    }
}

/// The values `ValidateFieldValidation` allows, as `sets.NewString(…).List()` orders them.
pub const ALLOWED: [&str; 4] = ["", "Ignore", "Strict", "Warn"];

/// One strict decoding error: a field no type knows, or one given twice.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldProblem {
    pub duplicate: bool,
    pub path: String,
}

impl std::fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.duplicate { "duplicate field" } else { "unknown field" };
        write!(f, "{what} {:?}", self.path)
    }
}

/// `strict decoding error: …`, every problem in order (`runtime.StrictDecodingError`).
pub fn strict_decoding_error(problems: &[FieldProblem]) -> String {
    let each: Vec<String> = problems.iter().map(FieldProblem::to_string).collect();
    format!("strict decoding error: {}", each.join(", "))
}

/// Each type's fields: to `""` (a value with no fields of its own), `"="` (raw JSON), a type,
/// or `"*"` and a type (a map of that type).
type Fields = BTreeMap<String, String>;

#[derive(serde::Deserialize)]
struct Known {
    kinds: BTreeMap<String, String>,
    types: BTreeMap<String, Fields>,
}

fn known(era: Era) -> &'static Known {
    static KNOWN: [OnceLock<Known>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let (slot, text) = match era {
        Era::V1_30 => (&KNOWN[0], include_str!("fields/1.30.json")),
        Era::V1_33 => (&KNOWN[1], include_str!("fields/1.33.json")),
        Era::V1_37 => (&KNOWN[2], include_str!("fields/1.37.json")),
    };
    slot.get_or_init(|| serde_json::from_str(text).expect("the known fields are built in"))
}

/// What a value at some place may hold.
#[derive(Clone, Copy)]
enum Below<'k> {
    /// No fields of its own (a map's keys are still checked for repeats).
    Value,
    Raw,
    Type(&'k Fields),
    MapOf(&'k Fields),
}

impl<'k> Below<'k> {
    fn of(known: &'k Known, entry: &str) -> Below<'k> {
        match entry {
            "" => Below::Value,
            "=" => Below::Raw,
            _ => match entry.strip_prefix('*') {
                Some(t) => known.types.get(t).map_or(Below::Value, Below::MapOf),
                None => known.types.get(entry).map_or(Below::Value, Below::Type),
            },
        }
    }
}

/// The problems in `body` (JSON) as a `kind` of `era`, in the body's order, each once.
pub fn problems(era: Era, kind: &str, body: &[u8]) -> Vec<FieldProblem> {
    let known = known(era);
    let Some(root) = known.kinds.get(kind) else { return Vec::new() };
    let mut found = Vec::new();
    let walk = Walk { known, below: Below::of(known, root), path: String::new(), found: &mut found };
    let mut reader = serde_json::Deserializer::from_slice(body);
    // A body that does not parse is refused by the decoder, in its own words.
    if walk.deserialize(&mut reader).is_err() {
        return Vec::new();
    }
    let mut seen = HashSet::new();
    found.retain(|p| seen.insert(p.clone()));
    found
}

/// Drops from `object` (a `kind` of `era`) every field no type knows.
pub fn prune(era: Era, kind: &str, object: &mut Value) {
    let known = known(era);
    if let Some(root) = known.kinds.get(kind) {
        prune_below(known, Below::of(known, root), object);
    }
}

fn prune_below(known: &Known, below: Below, value: &mut Value) {
    match (below, value) {
        (_, Value::Array(items)) => items.iter_mut().for_each(|v| prune_below(known, below, v)),
        (Below::Type(fields), Value::Object(map)) => {
            map.retain(|k, _| fields.contains_key(k));
            for (k, v) in map.iter_mut() {
                prune_below(known, Below::of(known, &fields[k]), v);
            }
        }
        (Below::MapOf(fields), Value::Object(map)) => {
            map.values_mut().for_each(|v| prune_below(known, Below::Type(fields), v))
        }
        _ => {}
    }
}

struct Walk<'a, 'k> {
    known: &'k Known,
    below: Below<'k>,
    path: String,
    found: &'a mut Vec<FieldProblem>,
}

impl Walk<'_, '_> {
    fn at(&self, key: &str) -> String {
        match self.path.is_empty() {
            true => key.to_string(),
            false => format!("{}.{key}", self.path),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, reader: D) -> Result<(), D::Error> {
        match self.below {
            Below::Raw => reader.deserialize_ignored_any(IgnoredAny).map(drop),
            _ => reader.deserialize_any(self),
        }
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let path = format!("{}[{i}]", self.path);
            let item = Walk { known: self.known, below: self.below, path, found: &mut *self.found };
            if items.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = entries.next_key::<String>()? {
            let path = self.at(&key);
            let below = match self.below {
                Below::Type(fields) => fields.get(&key).map(|entry| Below::of(self.known, entry)),
                Below::MapOf(fields) => Some(Below::Type(fields)),
                _ => Some(Below::Value),
            };
            let Some(below) = below else {
                self.found.push(FieldProblem { duplicate: false, path });
                entries.next_value::<IgnoredAny>()?;
                continue;
            };
            if !seen.insert(key) {
                self.found.push(FieldProblem { duplicate: true, path: path.clone() });
            }
            entries.next_value_seed(Walk { known: self.known, below, path, found: &mut *self.found })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn told(era: Era, kind: &str, body: &str) -> Vec<String> {
        problems(era, kind, body.as_bytes()).iter().map(FieldProblem::to_string).collect()
    }

    #[test]
    fn unknown_and_repeated_fields_are_named_by_their_path_in_the_bodys_order() {
        let body = r#"{"metadata":{"name":"a","labels":{"x":"1","x":"2"},"zeta":1},"data":{"k":"v"},"alpha":{"b":1},"metadata":{}}"#;
        assert_eq!(
            told(Era::V1_37, "ConfigMap", body),
            [
                r#"duplicate field "metadata.labels.x""#,
                r#"unknown field "metadata.zeta""#,
                r#"unknown field "alpha""#,
                r#"duplicate field "metadata""#
            ]
        );
        let pod = r#"{"spec":{"containers":[{"name":"c","image":"i"},{"name":"d","imag":"i","ports":[{"containerPort":1,"hostPorts":2}]}]}}"#;
        assert_eq!(
            told(Era::V1_30, "Pod", pod),
            [r#"unknown field "spec.containers[1].imag""#, r#"unknown field "spec.containers[1].ports[0].hostPorts""#]
        );
        let raw = r#"{"metadata":{"managedFields":[{"fieldsV1":{"f:data":{"f:anything":{}}},"manager":"m"}]}}"#;
        assert!(told(Era::V1_33, "Secret", raw).is_empty(), "fieldsV1 is raw JSON");
        assert!(told(Era::V1_37, "ConfigMap", "{not json").is_empty(), "left to the decoder");
    }

    #[test]
    fn a_field_is_known_or_not_by_the_release() {
        // A Pod's `spec.schedulingGroup` is in 1.37's types, not 1.30's.
        let pod = r#"{"spec":{"schedulingGroup":{}}}"#;
        assert_eq!(told(Era::V1_30, "Pod", pod), [r#"unknown field "spec.schedulingGroup""#]);
        assert!(told(Era::V1_37, "Pod", pod).is_empty());
    }

    #[test]
    fn what_no_type_knows_is_not_kept() {
        let mut d = json!({"metadata": {"name": "d", "nonsense": 1, "labels": {"a": "b"}},
            "spec": {"replicas": 1, "extra": true, "template": {"spec": {"containers": [{"name": "c", "colour": "red"}]}}}});
        prune(Era::V1_37, "Deployment", &mut d);
        assert_eq!(
            d,
            json!({"metadata": {"name": "d", "labels": {"a": "b"}},
                "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}})
        );
        assert_eq!(
            strict_decoding_error(&problems(Era::V1_37, "Deployment", br#"{"a":1,"b":2}"#)),
            r#"strict decoding error: unknown field "a", unknown field "b""#
        );
    }

    #[test]
    fn the_directive_is_warn_unless_told() {
        assert_eq!(Directive::parse(""), Some(Directive::Warn));
        assert_eq!(Directive::parse("Strict"), Some(Directive::Strict));
        assert_eq!(Directive::parse("strict"), None, "the values are case-sensitive");
    }
}
