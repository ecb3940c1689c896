//! A write's options (`CreateOptions`, `UpdateOptions`, `PatchOptions`, `DeleteOptions`), read
//! and validated as kube-apiserver does (apimachinery `pkg/apis/meta/v1/validation/validation.go:
//! ValidateCreateOptions` and its siblings, the same in 1.30.14, 1.33.13 and 1.37.2), every
//! problem in one 422 naming the options' kind:
//! - `dryRun` (`ValidateDryRun`), from the query, or for a DELETE with a body from the body
//!   (`handlers/delete.go` then ignores the query); `All` is its one value. How the refused list
//!   is printed is the release's (`field/errors.go`): Go's `%#v` in 1.30 and 1.33, JSON in 1.37.
//! - `fieldValidation` (`ValidateFieldValidation`) on a create, update or patch: `Ignore`,
//!   `Warn` (the default) or `Strict`.

use informer_sim::cluster::api_errors::{FieldError, FieldProblem};
use informer_sim::cluster::{Status, Verb};
use informer_sim::era::Era;
use serde_json::Value;

use super::fields::{Directive, ALLOWED};

/// What a write asks beyond its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    pub dry_run: bool,
    pub fields: Directive,
}

/// The options' kind a verb's dry run is validated as.
fn options_kind(verb: Verb) -> &'static str {
    match verb {
        Verb::Create => "CreateOptions",
        Verb::Update => "UpdateOptions",
        Verb::Patch => "PatchOptions",
        _ => "DeleteOptions",
    }
}

/// A request's write options (a read's: none); `Err`: the 422 naming every value not allowed.
pub fn write_options(verb: Verb, query: &str, body: &[u8], era: Era) -> Result<WriteOptions, Status> {
    let none = WriteOptions { dry_run: false, fields: Directive::Warn };
    if !matches!(verb, Verb::Create | Verb::Update | Verb::Patch | Verb::Delete) {
        return Ok(none);
    }
    let mut problems = Vec::new();
    let dry_run = dry_run(verb, query, body, era).unwrap_or_else(|problem| {
        problems.push(problem);
        false
    });
    let mut fields = Directive::Warn;
    if verb != Verb::Delete {
        let told = super::request::query_params(query).find(|(k, _)| k == "fieldValidation").map(|(_, v)| v);
        let told = told.unwrap_or_default();
        match Directive::parse(&told) {
            Some(directive) => fields = directive,
            None => {
                let problem =
                    FieldProblem::NotSupportedPrinted { value: format!("{told:?}"), supported: ALLOWED.to_vec() };
                problems.push(FieldError::new("fieldValidation", problem));
            }
        }
    }
    match problems.is_empty() {
        true => Ok(WriteOptions { dry_run, fields }),
        false => Err(Status::invalid_fields("meta.k8s.io", options_kind(verb), "", &problems)),
    }
}

/// Whether the write `verb` is a dry run; `Err`: the problem with a value other than `All`.
fn dry_run(verb: Verb, query: &str, body: &[u8], era: Era) -> Result<bool, FieldError> {
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
    Err(FieldError::new("dryRun", problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dry(verb: Verb, query: &str, body: &[u8], era: Era) -> Result<bool, Status> {
        write_options(verb, query, body, era).map(|o| o.dry_run)
    }

    #[test]
    fn dry_run_is_all_or_a_422_printed_as_the_release_prints_a_list() {
        assert_eq!(dry(Verb::Create, "dryRun=All", b"", Era::V1_37), Ok(true));
        assert_eq!(dry(Verb::Create, "", b"", Era::V1_37), Ok(false));
        assert_eq!(dry(Verb::Get, "dryRun=foo", b"", Era::V1_37), Ok(false), "not a write's option");
        let refused = dry(Verb::Create, "dryRun=All&dryRun=foo", b"", Era::V1_30).unwrap_err();
        assert_eq!(refused.code, 422);
        assert_eq!(
            refused.message,
            "CreateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"All\", \"foo\"}: supported values: \"All\""
        );
        let refused = dry(Verb::Update, "dryRun=foo", b"", Era::V1_37).unwrap_err();
        assert_eq!(
            refused.message,
            "UpdateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"foo\"]: supported values: \"All\""
        );
        assert_eq!(dry(Verb::Delete, "dryRun=foo", br#"{"dryRun":["All"]}"#, Era::V1_37), Ok(true), "a body's");
        assert_eq!(dry(Verb::Delete, "dryRun=", b"", Era::V1_33).unwrap_err().code, 422, "an empty value");
    }

    #[test]
    fn field_validation_is_warn_unless_told_and_its_problem_joins_dry_runs_in_one_422() {
        let told = |query: &str| write_options(Verb::Update, query, b"", Era::V1_37).map(|o| o.fields);
        assert_eq!(told(""), Ok(Directive::Warn));
        assert_eq!(told("fieldValidation=Strict"), Ok(Directive::Strict));
        assert_eq!(told("fieldValidation=Ignore"), Ok(Directive::Ignore));
        let refused = write_options(Verb::Create, "dryRun=foo&fieldValidation=strict", b"", Era::V1_37).unwrap_err();
        assert_eq!(
            refused.message,
            "CreateOptions.meta.k8s.io \"\" is invalid: [dryRun: Unsupported value: [\"foo\"]: supported values: \"All\", fieldValidation: Unsupported value: \"strict\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"]"
        );
    }
}
