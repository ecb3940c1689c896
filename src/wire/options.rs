//! A write's `dryRun` option (`CreateOptions`, `UpdateOptions`, `PatchOptions`,
//! `DeleteOptions`), read and validated as kube-apiserver does (apimachinery
//! `pkg/apis/meta/v1/validation/validation.go: ValidateDryRun`, the same in 1.30.14, 1.33.13 and
//! 1.37.2): from the query, or for a DELETE with a body from the body (`handlers/delete.go`
//! then ignores the query); `All` is its one value, anything else is a 422 naming the options'
//! kind. How the refused list is printed is the release's (`field/errors.go`): Go's `%#v` in
//! 1.30 and 1.33, JSON in 1.37.

use informer_sim::cluster::api_errors::{FieldError, FieldProblem};
use informer_sim::cluster::{Status, Verb};
use informer_sim::era::Era;
use serde_json::Value;

/// The options' kind a verb's dry run is validated as.
fn options_kind(verb: Verb) -> &'static str {
    match verb {
        Verb::Create => "CreateOptions",
        Verb::Update => "UpdateOptions",
        Verb::Patch => "PatchOptions",
        _ => "DeleteOptions",
    }
}

/// Whether the write `verb` is a dry run; `Err`: the 422 for a value other than `All`.
pub fn dry_run(verb: Verb, query: &str, body: &[u8], era: Era) -> Result<bool, Status> {
    if !matches!(verb, Verb::Create | Verb::Update | Verb::Patch | Verb::Delete) {
        return Ok(false);
    }
    let from_body = match verb {
        Verb::Delete => serde_json::from_slice::<Value>(body).ok().filter(Value::is_object),
        _ => None,
    };
    let told: Vec<String> = match &from_body {
        Some(options) => options["dryRun"]
            .as_array()
            .map(|a| a.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect())
            .unwrap_or_default(),
        // The option is a list: every value the query gives it.
        None => super::request::query_params(query).filter(|(k, _)| k == "dryRun").map(|(_, v)| v).collect(),
    };
    if told.iter().all(|v| v == "All") {
        return Ok(!told.is_empty());
    }
    let quoted: Vec<String> = told.iter().map(|v| format!("{v:?}")).collect();
    let value = match era.json_field_values() {
        true => format!("[{}]", quoted.join(",")),
        false => format!("[]string{{{}}}", quoted.join(", ")),
    };
    let problem = FieldProblem::NotSupportedPrinted { value, supported: vec!["All"] };
    Err(Status::invalid_fields("meta.k8s.io", options_kind(verb), "", &[FieldError::new("dryRun", problem)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dry_run_is_all_or_a_422_printed_as_the_release_prints_a_list() {
        assert_eq!(dry_run(Verb::Create, "dryRun=All", b"", Era::V1_37), Ok(true));
        assert_eq!(dry_run(Verb::Create, "", b"", Era::V1_37), Ok(false));
        assert_eq!(dry_run(Verb::Get, "dryRun=foo", b"", Era::V1_37), Ok(false), "not a write's option");
        let refused = dry_run(Verb::Create, "dryRun=All&dryRun=foo", b"", Era::V1_30).unwrap_err();
        assert_eq!(refused.code, 422);
        assert_eq!(
            refused.message,
            "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"All\", \"foo\"}: supported values: \"All\""
        );
        let refused = dry_run(Verb::Update, "dryRun=foo", b"", Era::V1_37).unwrap_err();
        assert_eq!(
            refused.message,
            "UpdateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"foo\"]: supported values: \"All\""
        );
        assert_eq!(dry_run(Verb::Delete, "dryRun=foo", br#"{"dryRun":["All"]}"#, Era::V1_37), Ok(true), "a body's");
        assert_eq!(dry_run(Verb::Delete, "dryRun=", b"", Era::V1_33).unwrap_err().code, 422, "an empty value");
    }
}
