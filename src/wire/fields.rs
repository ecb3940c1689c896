//! A written object's fields checked as kube-apiserver's strict decoder checks them
//! (apiserver `handlers/create.go` and `update.go`: `fieldValidation` is `Warn` unless told;
//! sigs.k8s.io/json names each `unknown field` and each `duplicate field` by its path —
//! `spec.containers[0].foo`, `metadata.labels.app` — in the body's order), the same in 1.30.14,
//! 1.33.13 and 1.37.2. The fields a kind knows are its release's: `fields/<release>.json`, read
//! from k8s.io/kubernetes's OpenAPI documents at the tag (checked again by the server judge). A
//! field no type knows is not kept, whatever the directive.
//!
//! A PATCH (`handlers/patch.go`): a key given twice in the patch itself, then the fields the
//! patched object would have that no type knows — a merge patch's as the patched object's JSON
//! is decoded (its keys in Go's sorted order), a strategic merge patch's as the patched map is
//! converted (sorted by message), its `$` directives aside; `Strict` is a 422 whose invalid
//! value is the patched object (merge) or the patch as Go prints a map (strategic).
//!
//! Left out: a JSON patch's added values; where a strategic merge puts a list item by its
//! merge key (the index named is the patch's); a value of the wrong JSON type, which the
//! decoder refuses before any of this.

use informer_sim::cluster::patch::PatchType;
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
    match known.kinds.get(kind) {
        Some(root) => walk(known, Below::of(known, root), body),
        None => Vec::new(),
    }
}

fn walk(known: &Known, below: Below, body: &[u8]) -> Vec<FieldProblem> {
    let mut found = Vec::new();
    let walk = Walk { known, below, path: String::new(), found: &mut found };
    let mut reader = serde_json::Deserializer::from_slice(body);
    // A body that does not parse is refused by the decoder, in its own words.
    if walk.deserialize(&mut reader).is_err() {
        return Vec::new();
    }
    let mut seen = HashSet::new();
    found.retain(|p| seen.insert(p.clone()));
    found
}

/// The problems of a PATCH of a `kind` of `era` (`body` as sent, `patch` as read), and `patch`
/// without what no type knows.
pub fn patch_problems(
    era: Era,
    kind: &str,
    patch_type: PatchType,
    body: &[u8],
    patch: &mut Value,
) -> Vec<FieldProblem> {
    let known = known(era);
    let mut found: Vec<FieldProblem> = walk(known, Below::Value, body).into_iter().filter(|p| p.duplicate).collect();
    let Some(root) = known.kinds.get(kind) else { return found };
    let strategic = match patch_type {
        PatchType::Json => return found,
        PatchType::Merge => false,
        PatchType::StrategicMerge => true,
    };
    // What the patched object gains: no null (a field removed) and no directive.
    let mut gained = patch.clone();
    strip(&mut gained, &|k: &str, v: &Value| v.is_null() || (strategic && k.starts_with('$')));
    let sorted = serde_json::to_vec(&gained).unwrap_or_default();
    let mut unknown = walk(known, Below::of(known, root), &sorted);
    if strategic {
        unknown.sort_by_key(ToString::to_string);
    }
    found.extend(unknown);
    prune_below(known, Below::of(known, root), patch, strategic);
    found
}

/// Removes every entry for which `drop` holds, at any depth.
fn strip(value: &mut Value, drop: &dyn Fn(&str, &Value) -> bool) {
    match value {
        Value::Object(map) => {
            map.retain(|k, v| !drop(k, v));
            map.values_mut().for_each(|v| strip(v, drop));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| strip(v, drop)),
        _ => {}
    }
}

/// A patch's value as Go's `%+v` prints the map it was read into: `map[a:1 b:[x y]]`, keys sorted.
pub fn go_printed(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let each: Vec<String> = map.iter().map(|(k, v)| format!("{k}:{}", go_printed(v))).collect();
            format!("map[{}]", each.join(" "))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(go_printed).collect::<Vec<_>>().join(" ")),
        Value::String(s) => s.clone(),
        Value::Null => "<nil>".into(),
        other => other.to_string(),
    }
}

/// Drops from `object` (a `kind` of `era`) every field no type knows.
pub fn prune(era: Era, kind: &str, object: &mut Value) {
    let known = known(era);
    if let Some(root) = known.kinds.get(kind) {
        prune_below(known, Below::of(known, root), object, false);
    }
}

/// `directives`: a strategic merge patch's `$` keys are kept.
fn prune_below(known: &Known, below: Below, value: &mut Value, directives: bool) {
    match (below, value) {
        (_, Value::Array(items)) => items.iter_mut().for_each(|v| prune_below(known, below, v, directives)),
        (Below::Type(fields), Value::Object(map)) => {
            map.retain(|k, _| fields.contains_key(k) || (directives && k.starts_with('$')));
            for (k, v) in map.iter_mut() {
                if let Some(entry) = fields.get(k) {
                    prune_below(known, Below::of(known, entry), v, directives);
                }
            }
        }
        (Below::MapOf(fields), Value::Object(map)) => {
            map.values_mut().for_each(|v| prune_below(known, Below::Type(fields), v, directives))
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
    fn a_patchs_problems_are_its_repeats_then_what_the_patched_object_would_not_know() {
        let body = br#"{"spec":{"zz":1,"template":{"spec":{"containers":[{"name":"c","imag":"x"}]}},"aa":null},"metadata":{"labels":{"x":"1","x":"2"}},"$retainKeys":["spec"]}"#;
        let mut patch: Value = serde_json::from_slice(body).unwrap();
        let told = |p: Vec<FieldProblem>| p.iter().map(ToString::to_string).collect::<Vec<_>>();
        let merge = patch_problems(Era::V1_37, "Deployment", PatchType::Merge, body, &mut patch.clone());
        assert_eq!(
            told(merge),
            [
                r#"duplicate field "metadata.labels.x""#,
                r#"unknown field "$retainKeys""#,
                r#"unknown field "spec.template.spec.containers[0].imag""#,
                r#"unknown field "spec.zz""#
            ],
            "a merge patch: the patched object's keys in sorted order; a null removes"
        );
        let strategic = patch_problems(Era::V1_37, "Deployment", PatchType::StrategicMerge, body, &mut patch);
        assert_eq!(
            told(strategic),
            [
                r#"duplicate field "metadata.labels.x""#,
                r#"unknown field "spec.template.spec.containers[0].imag""#,
                r#"unknown field "spec.zz""#
            ],
            "a directive is no field"
        );
        assert_eq!(
            patch,
            json!({"spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}, "metadata": {"labels": {"x": "2"}}, "$retainKeys": ["spec"]})
        );
        assert_eq!(
            go_printed(&json!({"spec": {"b": [1, "x"], "a": null, "c": 1.5}})),
            "map[spec:map[a:<nil> b:[1 x] c:1.5]]"
        );
    }

    #[test]
    fn the_directive_is_warn_unless_told() {
        assert_eq!(Directive::parse(""), Some(Directive::Warn));
        assert_eq!(Directive::parse("Strict"), Some(Directive::Strict));
        assert_eq!(Directive::parse("strict"), None, "the values are case-sensitive");
    }
}
