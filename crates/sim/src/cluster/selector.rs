//! Label and field selectors (apimachinery `pkg/labels`, `pkg/fields`), semantics §8.
//!
//! Label selectors take the equality- and set-based forms: `a=b`, `a==b`, `a!=b`,
//! `a in (x,y)`, `a notin (x)`, `a`, `!a`, joined by commas. Field selectors are exact
//! matches only (`f=v`, `f==v`, `f!=v`), over the fields each kind supports.

use super::api_errors::Status;
use super::api_object::{ApiObject, Kind};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Requirement {
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
}

impl Requirement {
    fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Requirement::Equals(k, v) => labels.get(k) == Some(v),
            Requirement::NotEquals(k, v) => labels.get(k) != Some(v),
            Requirement::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
            Requirement::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
            Requirement::Exists(k) => labels.contains_key(k),
            Requirement::DoesNotExist(k) => !labels.contains_key(k),
        }
    }
}

/// A parsed label selector; the empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
    text: String,
}

impl LabelSelector {
    pub fn everything() -> Self {
        Self::default()
    }

    pub fn parse(text: &str) -> Result<Self, Status> {
        let mut requirements = Vec::new();
        for part in split_top_level(text) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            requirements.push(parse_requirement(part).ok_or_else(|| {
                Status::bad_request(format!("unable to parse requirement: {part:?} in label selector {text:?}"))
            })?);
        }
        Ok(LabelSelector { requirements, text: text.trim().into() })
    }

    /// A selector requiring every label of `labels` (a ReplicaSet's `matchLabels`).
    pub fn from_labels(labels: &BTreeMap<String, String>) -> Self {
        let requirements: Vec<_> = labels.iter().map(|(k, v)| Requirement::Equals(k.clone(), v.clone())).collect();
        let text = labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",");
        LabelSelector { requirements, text }
    }

    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }

    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// Splits on commas that are not inside `( … )`.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn parse_requirement(part: &str) -> Option<Requirement> {
    let valid = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
    let value_ok = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if let Some(key) = part.strip_prefix('!') {
        let key = key.trim();
        return valid(key).then(|| Requirement::DoesNotExist(key.into()));
    }
    for (op, negate) in [(" notin ", true), (" in ", false)] {
        if let Some((key, rest)) = part.split_once(op) {
            let key = key.trim();
            let list = rest.trim().strip_prefix('(')?.strip_suffix(')')?;
            let values: Vec<String> = list.split(',').map(|v| v.trim().to_string()).collect();
            if !valid(key) || !values.iter().all(|v| value_ok(v)) {
                return None;
            }
            return Some(if negate {
                Requirement::NotIn(key.into(), values)
            } else {
                Requirement::In(key.into(), values)
            });
        }
    }
    for (op, negate) in [("!=", true), ("==", false), ("=", false)] {
        if let Some((key, value)) = part.split_once(op) {
            let (key, value) = (key.trim(), value.trim());
            if !valid(key) || !value_ok(value) {
                return None;
            }
            return Some(if negate {
                Requirement::NotEquals(key.into(), value.into())
            } else {
                Requirement::Equals(key.into(), value.into())
            });
        }
    }
    valid(part).then(|| Requirement::Exists(part.into()))
}

/// A parsed field selector of exact matches; the empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldSelector {
    /// (field path, value, must equal)
    terms: Vec<(String, String, bool)>,
}

/// Fields a Pod's field selector may name, besides `metadata.name` and `metadata.namespace`.
const POD_FIELDS: &[&str] = &[
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.nominatedNodeName",
];

impl FieldSelector {
    pub fn everything() -> Self {
        Self::default()
    }

    /// Parses `text` for `kind`, rejecting fields the kind does not support with the API
    /// server's words.
    pub fn parse(text: &str, kind: Kind) -> Result<Self, Status> {
        let mut terms = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, value, equal) = if let Some((f, v)) = part.split_once("!=") {
                (f, v, false)
            } else if let Some((f, v)) = part.split_once("==").or_else(|| part.split_once('=')) {
                (f, v, true)
            } else {
                return Err(Status::bad_request(format!("invalid selector: '{text}'; can't understand '{part}'")));
            };
            let field = field.trim();
            let known = matches!(field, "metadata.name" | "metadata.namespace")
                || (kind == Kind::Pod && POD_FIELDS.contains(&field));
            if !known {
                return Err(Status::bad_request(match kind {
                    Kind::Pod => format!("field label not supported: {field}"),
                    _ => format!(
                        "{field:?} is not a known field selector: only \"metadata.name\", \"metadata.namespace\""
                    ),
                }));
            }
            terms.push((field.to_string(), value.trim().to_string(), equal));
        }
        Ok(FieldSelector { terms })
    }

    pub fn matches(&self, obj: &ApiObject) -> bool {
        self.terms.iter().all(|(field, value, equal)| (obj.field(field).unwrap_or_default() == *value) == *equal)
    }

    /// The value of an exact `metadata.name=` term: such a list or watch names one object,
    /// and authorization sees that name.
    pub fn single_name(&self) -> Option<&str> {
        self.terms.iter().find(|(f, _, eq)| *eq && f == "metadata.name").map(|(_, v, _)| v.as_str())
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn semantics_8_label_selectors() {
        let sel = LabelSelector::parse("app=web, tier in (front,back),!canary").unwrap();
        assert!(sel.matches(&labels(&[("app", "web"), ("tier", "front")])));
        assert!(!sel.matches(&labels(&[("app", "web"), ("tier", "front"), ("canary", "1")])));
        assert!(!sel.matches(&labels(&[("app", "db"), ("tier", "front")])));
        assert!(LabelSelector::parse("env notin (prod)").unwrap().matches(&labels(&[])));
        assert!(LabelSelector::parse("a=b=c").is_err());
    }

    #[test]
    fn semantics_8_field_selectors_are_exact_and_per_kind() {
        let pod = ApiObject::new(Kind::Pod, "ns", "p").with("spec", serde_json::json!({"nodeName": "n1"}));
        assert!(FieldSelector::parse("spec.nodeName=n1", Kind::Pod).unwrap().matches(&pod));
        assert!(!FieldSelector::parse("spec.nodeName!=n1", Kind::Pod).unwrap().matches(&pod));
        assert_eq!(FieldSelector::parse("metadata.name=p", Kind::Pod).unwrap().single_name(), Some("p"));
        assert_eq!(
            FieldSelector::parse("spec.foo=x", Kind::Pod).unwrap_err().message,
            "field label not supported: spec.foo"
        );
        assert_eq!(
            FieldSelector::parse("data.x=1", Kind::ConfigMap).unwrap_err().message,
            r#""data.x" is not a known field selector: only "metadata.name", "metadata.namespace""#
        );
    }
}
