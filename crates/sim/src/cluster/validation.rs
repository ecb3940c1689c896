//! Object validation as the API server does it before storing (apimachinery
//! `pkg/api/validate/content`, `apis/meta/v1/validation`, apps validation), with upstream's
//! messages: the name is an RFC 1123 subdomain, the namespace an RFC 1123 label, label keys
//! qualified names and values label values, and a Deployment's or ReplicaSet's
//! `spec.replicas` at least 0. Several problems are reported together, as `NewInvalid` joins
//! them: `ConfigMap "x" is invalid: [first, second]`.
//!
//! Left out: the validation of every other field of every kind (container specs, selectors
//! matching the template, …).

use super::api_errors::{FieldError, FieldProblem, Status, TooLongWords};
use super::api_object::{ApiObject, Kind};
use serde_json::Value;

/// One field's problem (`field.Error`): `metadata.labels: Invalid value: "": …`.
fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
    }
    // Each example ends in `', ` and the next starts with ` or `: upstream's two spaces
    // (`util/validation/validation.go: RegexError`).
    let shown: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!("{msg} (e.g. {}regex used for validation is '{re}')", shown.join(" or "))
}

const DNS1123_LABEL: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

fn dns_label_ok(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

/// `IsDNS1123Label`.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 bytes".into());
    }
    if !dns_label_ok(value) {
        errs.push(regex_error(DNS1123_LABEL_MSG, DNS1123_LABEL, &["my-name", "123-abc"]));
    }
    errs
}

/// `IsDNS1123Subdomain`.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push("must be no more than 253 bytes".into());
    }
    if !value.split('.').all(dns_label_ok) {
        let re = format!("{DNS1123_LABEL}(\\.{DNS1123_LABEL})*");
        errs.push(regex_error(DNS1123_SUBDOMAIN_MSG, &re, &["example.com"]));
    }
    errs
}

fn label_name_ok(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
}

/// `IsLabelKey` (a qualified name with an optional DNS subdomain prefix).
pub fn label_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts[..] {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".into());
            } else {
                errs.extend(dns1123_subdomain(prefix).into_iter().map(|m| format!("prefix part {m}")));
            }
            name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY, &["MyName", "my.name", "123-abc"])
            )]
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 bytes".into());
    }
    if !label_name_ok(name) {
        errs.push(format!("name part {}", regex_error(LABEL_KEY_MSG, LABEL_KEY, &["MyName", "my.name", "123-abc"])));
    }
    errs
}

/// `IsValidLabelValue`.
pub fn label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 bytes".into());
    }
    if !value.is_empty() && !label_name_ok(value) {
        errs.push(regex_error(LABEL_VALUE_MSG, &format!("({LABEL_KEY})?"), &["MyValue", "my_value", "12345"]));
    }
    errs
}

/// Every problem with an object about to be stored.
pub fn validate(kind: Kind, obj: &ApiObject, words: TooLongWords) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let meta = &obj.metadata;
    // The prefix first, with a trailing dash stood in for (a bad prefix is then told twice: as
    // itself and in the name made from it; apimachinery `objectmeta.go`).
    if !meta.generate_name.is_empty() {
        let value = format!("{:?}", meta.generate_name);
        errs.extend(dns1123_subdomain(&mask_trailing_dash(&meta.generate_name)).into_iter().map(|detail| {
            FieldError::new("metadata.generateName", FieldProblem::Invalid { value: value.clone(), detail })
        }));
    }
    if meta.name.is_empty() {
        let required = FieldProblem::Required("name or generateName is required".into());
        errs.push(FieldError::new("metadata.name", required));
    }
    let mut add = |field: &str, value: String, details: Vec<String>| {
        errs.extend(
            details
                .into_iter()
                .map(|detail| FieldError::new(field, FieldProblem::Invalid { value: value.clone(), detail })),
        );
    };
    if !meta.name.is_empty() {
        add("metadata.name", format!("{:?}", meta.name), dns1123_subdomain(&meta.name));
    }
    add("metadata.namespace", format!("{:?}", meta.namespace), dns1123_label(&meta.namespace));
    for (k, v) in &meta.labels {
        add("metadata.labels", format!("{k:?}"), label_key(k));
        add("metadata.labels", format!("{v:?}"), label_value(v));
    }
    if matches!(kind, Kind::Deployment | Kind::ReplicaSet) {
        if let Some(replicas) = obj.spec().and_then(|s| s.get("replicas")) {
            match replicas.as_i64() {
                Some(n) if n < 0 => {
                    add("spec.replicas", n.to_string(), vec!["must be greater than or equal to 0".into()])
                }
                Some(n) if n > i64::from(i32::MAX) => {
                    add("spec.replicas", n.to_string(), vec![format!("must be less than or equal to {}", i32::MAX)])
                }
                Some(_) | None if replicas.is_null() => {}
                Some(_) => {}
                None => add("spec.replicas", replicas.to_string(), vec!["must be an integer".into()]),
            }
        }
    }
    if let Some(field) = data_field(kind) {
        if data_bytes(kind, obj) > MAX_DATA_BYTES {
            errs.push(FieldError::new(field, FieldProblem::TooLong { max: MAX_DATA_BYTES, words }));
        }
    }
    errs
}

/// `core.MaxSecretSize`: what a ConfigMap's `data` and `binaryData`, or a Secret's `data`, may
/// hold together (1 MiB; the keys are not counted).
pub const MAX_DATA_BYTES: usize = 1024 * 1024;

/// The field a data-size error names: `[]` for a ConfigMap (`field.NewPath("")` printed), `data`
/// for a Secret (`ValidateConfigMap`, `ValidateSecret`).
fn data_field(kind: Kind) -> Option<&'static str> {
    match kind {
        Kind::ConfigMap => Some("[]"),
        Kind::Secret => Some("data"),
        _ => None,
    }
}

/// The bytes of a ConfigMap's or Secret's values: strings as UTF-8, base64 values decoded; a
/// Secret's `stringData` joins its `data` (the later of a key's two values counts).
fn data_bytes(kind: Kind, obj: &ApiObject) -> usize {
    let field = |name: &str| obj.body.get(name).and_then(Value::as_object).into_iter().flatten();
    let decoded = |v: &Value| v.as_str().map_or(0, |s| crate::base64::decode(s).map_or(s.len(), |b| b.len()));
    let plain = |v: &Value| v.as_str().map_or(0, str::len);
    match kind {
        Kind::ConfigMap => {
            field("data").map(|(_, v)| plain(v)).sum::<usize>()
                + field("binaryData").map(|(_, v)| decoded(v)).sum::<usize>()
        }
        _ => {
            let strings = obj.body.get("stringData").and_then(Value::as_object);
            let replaced = |k: &String| strings.is_some_and(|s| s.contains_key(k));
            field("data").filter(|(k, _)| !replaced(k)).map(|(_, v)| decoded(v)).sum::<usize>()
                + field("stringData").map(|(_, v)| plain(v)).sum::<usize>()
        }
    }
}

/// The 422 for an object's problems, or nothing.
pub fn check(kind: Kind, obj: &ApiObject, words: TooLongWords) -> Result<(), Status> {
    refused(kind, obj, validate(kind, obj, words))
}

fn refused(kind: Kind, obj: &ApiObject, errs: Vec<FieldError>) -> Result<(), Status> {
    match errs.is_empty() {
        true => Ok(()),
        false => Err(Status::invalid(kind, &obj.metadata.name, &errs)),
    }
}

/// `maskTrailingDash`: a prefix ending in a dash is checked as if its last two bytes were `a`
/// (upstream cuts two bytes for the one dash), so `web-` passes as a name's beginning.
fn mask_trailing_dash(prefix: &str) -> String {
    match prefix.len() > 1 && prefix.ends_with('-') {
        true => format!("{}a", String::from_utf8_lossy(&prefix.as_bytes()[..prefix.len() - 2])),
        false => prefix.to_string(),
    }
}

/// An update's object against the stored one (`ValidateObjectMetaUpdate`, then the object's
/// own checks): its uid may not change, told `twice` where the checks every resource gets
/// (`rest.validateCommonFields`) and the kind's own both tell it.
pub fn check_update(
    kind: Kind,
    obj: &ApiObject,
    old: &ApiObject,
    words: TooLongWords,
    twice: bool,
) -> Result<(), Status> {
    let mut errs = Vec::new();
    if !obj.metadata.uid.is_empty() && obj.metadata.uid != old.metadata.uid {
        let problem =
            FieldProblem::Invalid { value: format!("{:?}", obj.metadata.uid), detail: "field is immutable".into() };
        let told = FieldError::new("metadata.uid", problem);
        errs.extend(std::iter::repeat_n(told, if twice { 2 } else { 1 }));
    }
    errs.extend(validate(kind, obj, words));
    refused(kind, obj, errs)
}

/// A JSON value's nesting depth (for bounding input).
pub fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(kind: Kind, obj: ApiObject) -> String {
        message_with(kind, obj, TooLongWords::default())
    }

    #[test]
    fn semantics_8_upstream_validation_messages() {
        let bad_ns = ApiObject::new(Kind::ConfigMap, "a/b", "x");
        assert_eq!(
            message(Kind::ConfigMap, bad_ns),
            r#"ConfigMap "x" is invalid: metadata.namespace: Invalid value: "a/b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"#
        );
        let empty_key = ApiObject::new(Kind::Pod, "default", "p").with_label("", "v");
        let m = message(Kind::Pod, empty_key);
        assert!(m.starts_with(r#"Pod "p" is invalid: [metadata.labels: Invalid value: "": name part must be non-empty, metadata.labels: Invalid value: "": name part must consist of"#), "{m}");
        let negative = ApiObject::new(Kind::Deployment, "default", "web").with("spec", json!({"replicas": -1}));
        assert_eq!(
            message(Kind::Deployment, negative),
            r#"Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"#
        );
        assert!(check(
            Kind::Pod,
            &ApiObject::new(Kind::Pod, "default", "ok").with_label("app.kubernetes.io/name", "web"),
            TooLongWords::default()
        )
        .is_ok());
        assert!(label_value("-x").len() == 1 && label_value("").is_empty());
    }

    #[test]
    fn semantics_8_a_configmap_or_secret_over_a_mebibyte_of_data_is_too_long_in_the_releases_words() {
        let big = |kind| {
            ApiObject::new(kind, "default", "big").with("data", json!({"a": "x".repeat(MAX_DATA_BYTES - 1), "b": "yy"}))
        };
        let at_limit =
            ApiObject::new(Kind::ConfigMap, "default", "big").with("data", json!({"a": "x".repeat(MAX_DATA_BYTES)}));
        assert!(check(Kind::ConfigMap, &at_limit, TooLongWords::default()).is_ok(), "1 MiB exactly is taken");
        let refused = check(Kind::ConfigMap, &big(Kind::ConfigMap), TooLongWords::MayNotBeMoreThan).unwrap_err();
        assert_eq!(refused.message, r#"ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes"#);
        assert_eq!(refused.details.unwrap().causes[0].reason, "FieldValueTooLong");
        assert_eq!(
            message_with(Kind::ConfigMap, big(Kind::ConfigMap), TooLongWords::MustHaveAtMost),
            r#"ConfigMap "big" is invalid: []: Too long: must have at most 1048576 bytes"#
        );
        let secret = ApiObject::new(Kind::Secret, "default", "big")
            .with("stringData", json!({"a": "x".repeat(MAX_DATA_BYTES + 1)}));
        assert_eq!(
            message_with(Kind::Secret, secret, TooLongWords::MayNotBeMoreThan),
            r#"Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes"#
        );
    }

    #[test]
    fn semantics_8_a_generate_name_is_checked_as_a_prefix_before_the_name() {
        let mut both = ApiObject::new(Kind::ConfigMap, "default", "ok");
        both.metadata.generate_name = "Bad_".into();
        assert_eq!(
            message(Kind::ConfigMap, both),
            r#"ConfigMap "ok" is invalid: metadata.generateName: Invalid value: "Bad_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
        );
        let mut dashed = ApiObject::new(Kind::ConfigMap, "default", "web-x7k2p");
        dashed.metadata.generate_name = "web-".into();
        assert!(check(Kind::ConfigMap, &dashed, TooLongWords::default()).is_ok(), "a trailing dash is a prefix's");
        dashed.metadata.generate_name = "-".into();
        assert!(message(Kind::ConfigMap, dashed).contains(r#"metadata.generateName: Invalid value: "-""#));
    }

    fn message_with(kind: Kind, obj: ApiObject, words: TooLongWords) -> String {
        check(kind, &obj, words).unwrap_err().message
    }
}
