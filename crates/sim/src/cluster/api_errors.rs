//! API status errors (apimachinery `pkg/api/errors`), semantics §8: the code, reason and
//! message a client receives, worded as the API server words them.

use super::api_object::Kind;
use serde::Serialize;
use std::fmt;

/// A failed request's `Status`: HTTP code, machine-readable reason, human message, and the
/// details the API server adds for some (`StatusDetails`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    pub code: u16,
    pub reason: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Box<StatusDetails>>,
    /// `metadata.continue`: the fresh token a 410 for an expired continue token carries.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub continue_token: String,
}

/// `metav1.CauseTypeResourceVersionTooLarge`.
pub const RESOURCE_VERSION_TOO_LARGE: &str = "ResourceVersionTooLarge";

/// `metav1.StatusDetails`: which object, and why, field by field. Empty fields are left out on
/// the wire, as Go's `omitempty` does.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatusDetails {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The resource (`configmaps`) for most errors, the kind (`ConfigMap`) for `Invalid`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
    #[serde(rename = "retryAfterSeconds", skip_serializing_if = "is_zero")]
    pub retry_after_seconds: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// `metav1.StatusCause`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatusCause {
    #[serde(skip_serializing_if = "str::is_empty")]
    pub reason: &'static str,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
}

/// What went wrong with one field (apimachinery `util/validation/field`): its type decides the
/// cause's reason and how its message starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldProblem {
    /// `Required value: <detail>`.
    Required(String),
    /// `Invalid value: <value>: <detail>` (the value as Go's `%#v` prints it).
    Invalid { value: String, detail: String },
    /// `Forbidden: <detail>`.
    Forbidden(String),
    /// `Unsupported value: "<value>": supported values: "a", "b"`.
    NotSupported { value: String, supported: Vec<&'static str> },
    /// `Too long: may not be more than N bytes` (1.33 on) or `must have at most N bytes` (1.30).
    TooLong { max: usize, words: TooLongWords },
    /// The same, with a value that is not a string, printed as the release prints it
    /// (`[]string{"foo"}` in 1.30 and 1.33, `["foo"]` in 1.37).
    NotSupportedPrinted { value: String, supported: Vec<&'static str> },
}

/// How `field.TooLong` words its limit (apimachinery `util/validation/field/errors.go`): `must
/// have at most N bytes` in 1.30, `may not be more than N bytes` from 1.33.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TooLongWords {
    #[default]
    MayNotBeMoreThan,
    MustHaveAtMost,
}

/// `Unsupported value: <printed>: supported values: "a", "b"`.
fn not_supported(printed: &str, supported: &[&str]) -> String {
    let quoted: Vec<String> = supported.iter().map(|s| format!("{s:?}")).collect();
    format!("Unsupported value: {printed}: supported values: {}", quoted.join(", "))
}

/// A kind as a Status names it, qualified by its group outside the core one (`Deployment.apps`).
fn qualified_kind(group: &str, kind: &str) -> String {
    match group {
        "" => kind.to_string(),
        group => format!("{kind}.{group}"),
    }
}

/// A field and what is wrong with it; `field: <problem>` in a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub problem: FieldProblem,
}

impl FieldError {
    pub fn new(field: &str, problem: FieldProblem) -> Self {
        FieldError { field: field.into(), problem }
    }

    /// The cause's reason (`FieldValueInvalid`, …).
    pub fn reason(&self) -> &'static str {
        match self.problem {
            FieldProblem::Required(_) => "FieldValueRequired",
            FieldProblem::Invalid { .. } => "FieldValueInvalid",
            FieldProblem::Forbidden(_) => "FieldValueForbidden",
            FieldProblem::TooLong { .. } => "FieldValueTooLong",
            FieldProblem::NotSupported { .. } | FieldProblem::NotSupportedPrinted { .. } => "FieldValueNotSupported",
        }
    }

    /// The message without the field: `Invalid value: "x": …`.
    pub fn body(&self) -> String {
        match &self.problem {
            FieldProblem::Required(detail) => format!("Required value: {detail}"),
            FieldProblem::Invalid { value, detail } => format!("Invalid value: {value}: {detail}"),
            FieldProblem::Forbidden(detail) => format!("Forbidden: {detail}"),
            FieldProblem::TooLong { max, words: TooLongWords::MayNotBeMoreThan } => {
                format!("Too long: may not be more than {max} bytes")
            }
            FieldProblem::TooLong { max, words: TooLongWords::MustHaveAtMost } => {
                format!("Too long: must have at most {max} bytes")
            }
            FieldProblem::NotSupported { value, supported } => not_supported(&format!("{value:?}"), supported),
            FieldProblem::NotSupportedPrinted { value, supported } => not_supported(value, supported),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl fmt::Display for Status {
    /// kubectl's rendering: `Error from server (NotFound): pods "x" not found`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error from server ({}): {}", self.reason, self.message)
    }
}

impl Status {
    pub fn new(code: u16, reason: &'static str, message: String) -> Self {
        Status { code, reason, message, details: None, continue_token: String::new() }
    }

    pub fn with_continue(mut self, token: String) -> Self {
        self.continue_token = token;
        self
    }

    pub fn with_details(mut self, details: StatusDetails) -> Self {
        self.details = Some(Box::new(details));
        self
    }

    /// Details naming an object of a resource (`NewNotFound` and its kin).
    fn about(self, kind: Kind, name: &str) -> Self {
        let details = StatusDetails {
            name: name.into(),
            group: kind.group().into(),
            kind: kind.resource().into(),
            ..StatusDetails::default()
        };
        self.with_details(details)
    }

    /// `pods "x" not found` (`NewNotFound`; the group resource, e.g. `deployments.apps`).
    pub fn not_found(kind: Kind, name: &str) -> Self {
        Self::new(404, "NotFound", format!("{} {name:?} not found", kind.group_resource())).about(kind, name)
    }

    pub fn already_exists(kind: Kind, name: &str) -> Self {
        Self::new(409, "AlreadyExists", format!("{} {name:?} already exists", kind.group_resource())).about(kind, name)
    }

    /// A name taken although the object asked for one to be generated
    /// (`errors.NewGenerateNameConflict`): the client may retry after a second.
    pub fn generate_name_conflict(kind: Kind, name: &str) -> Self {
        let message = format!(
            "{} {name:?} already exists, the server was not able to generate a unique name for the object",
            kind.group_resource()
        );
        let mut status = Self::new(409, "AlreadyExists", message).about(kind, name);
        if let Some(details) = status.details.as_mut() {
            details.retry_after_seconds = 1;
        }
        status
    }

    /// A PUT whose body's `metadata.uid` is not the stored object's: the storage layer's failed
    /// precondition, as `GuaranteedUpdate` words it (`storage.NewInvalidObjError`).
    pub fn uid_precondition_failed(kind: Kind, name: &str, key: &str, uid: &str, stored_uid: &str) -> Self {
        let message = format!(
            "Operation cannot be fulfilled on {} {name:?}: StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {uid}, UID in object meta: {stored_uid}",
            kind.group_resource()
        );
        Self::new(409, "Conflict", message).about(kind, name)
    }

    /// The optimistic-concurrency failure of an Update with a stale resourceVersion.
    pub fn conflict(kind: Kind, name: &str) -> Self {
        Self::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {} {name:?}: the object has been modified; please apply your changes to the latest version and try again",
                kind.group_resource()
            ),
        )
        .about(kind, name)
    }

    /// A DELETE whose precondition does not hold (`rest.BeforeDelete`): a 409 that names the
    /// kind, not the resource (`ConfigMap "x"`, `Deployment.apps "web"`), as upstream's does.
    pub fn precondition_conflict(kind: Kind, name: &str, why: &str) -> Self {
        let qualified = qualified_kind(kind.group(), kind.name());
        let details = StatusDetails {
            name: name.into(),
            group: kind.group().into(),
            kind: kind.name().into(),
            ..StatusDetails::default()
        };
        Self::new(409, "Conflict", format!("Operation cannot be fulfilled on {qualified} {name:?}: {why}"))
            .with_details(details)
    }

    /// 410 `Expired` (`NewResourceExpired`).
    pub fn expired(message: String) -> Self {
        Self::new(410, "Expired", message)
    }

    /// The watch cache's window error: `too old resource version: %d (%d)`.
    pub fn too_old_resource_version(requested: i64, oldest: i64) -> Self {
        Self::expired(format!("too old resource version: {requested} ({oldest})"))
    }

    /// `Too large resource version: %d, current: %d`, a 504 Timeout with cause
    /// `ResourceVersionTooLarge` (`storage.NewTooLargeResourceVersionError`): from the watch
    /// cache, after its wait, with a retry after a second; from etcd, with none.
    /// Whether a cause of this reason is among its details (`HasStatusCause`).
    pub fn has_cause(&self, reason: &str) -> bool {
        self.details.as_ref().is_some_and(|d| d.causes.iter().any(|c| c.reason == reason))
    }

    pub fn too_large_resource_version(requested: i64, current: i64, retry_after_seconds: u32) -> Self {
        let cause = StatusCause {
            reason: RESOURCE_VERSION_TOO_LARGE,
            message: "Too large resource version".into(),
            field: String::new(),
        };
        Self::new(504, "Timeout", format!("Timeout: Too large resource version: {requested}, current: {current}"))
            .with_details(StatusDetails { causes: vec![cause], retry_after_seconds, ..StatusDetails::default() })
    }

    /// 403 `Forbidden` (`NewForbidden`): `<resource> is forbidden: <reason>`, or
    /// `<resource> "<name>" is forbidden: <reason>` for a named request.
    pub fn forbidden(group_resource: &str, name: Option<&str>, reason: String) -> Self {
        let message = match name {
            Some(n) => format!("{group_resource} {n:?} is forbidden: {reason}"),
            None => format!("{group_resource} is forbidden: {reason}"),
        };
        let (resource, group) = group_resource.split_once('.').unwrap_or((group_resource, ""));
        let details = StatusDetails {
            name: name.unwrap_or_default().into(),
            group: group.into(),
            kind: resource.into(),
            ..StatusDetails::default()
        };
        Self::new(403, "Forbidden", message).with_details(details)
    }

    /// 422 `Invalid` (`NewInvalid`): `<Kind> "<name>" is invalid: <field>: <detail>`, the kind
    /// qualified by its group (`Deployment.apps`); one cause a field error.
    pub fn invalid(kind: Kind, name: &str, errors: &[FieldError]) -> Self {
        Self::invalid_fields(kind.group(), kind.name(), name, errors)
    }

    /// `NewInvalid` for any group and kind (`ListOptions` of `meta.k8s.io`).
    pub fn invalid_fields(group: &str, kind: &str, name: &str, errors: &[FieldError]) -> Self {
        let qualified = qualified_kind(group, kind);
        // The message tells each error once (`ErrorList.ToAggregate`); the causes list them all.
        let mut told: Vec<String> = Vec::new();
        for error in errors.iter().map(ToString::to_string) {
            if !told.contains(&error) {
                told.push(error);
            }
        }
        let detail = match told.as_slice() {
            [one] => one.clone(),
            many => format!("[{}]", many.join(", ")),
        };
        let causes = errors
            .iter()
            .map(|e| StatusCause { reason: e.reason(), message: e.body(), field: e.field.clone() })
            .collect();
        let details = StatusDetails {
            name: name.into(),
            group: group.into(),
            kind: kind.into(),
            causes,
            ..StatusDetails::default()
        };
        Self::new(422, "Invalid", format!("{qualified} {name:?} is invalid: {detail}")).with_details(details)
    }

    pub fn bad_request(message: String) -> Self {
        Self::new(400, "BadRequest", message)
    }

    /// 404 for a path the server does not serve (`NewGenericServerResponse`: empty details).
    pub fn no_such_resource() -> Self {
        Self::new(404, "NotFound", "the server could not find the requested resource".into())
            .with_details(StatusDetails::default())
    }

    /// 404 for a kind the server does not serve.
    pub fn no_kind_match(kind: &str, api_version: &str) -> Self {
        Self::new(404, "NotFound", format!("no matches for kind {kind:?} in version {api_version:?}"))
    }

    /// 500 for a storage failure, e.g. an etcd error on compaction.
    pub fn internal(message: String) -> Self {
        let cause = StatusCause { reason: "", message: message.clone(), field: String::new() };
        Self::new(500, "InternalError", format!("Internal error occurred: {message}"))
            .with_details(StatusDetails { causes: vec![cause], ..StatusDetails::default() })
    }

    /// A 500 with no reason: an error the API server did not classify, passed on as its text
    /// (`responsewriters.ErrorToAPIStatus` of a plain Go error).
    pub fn unclassified(message: String) -> Self {
        Self::new(500, "", message)
    }

    pub fn is_expired(&self) -> bool {
        self.code == 410
    }

    pub fn is_conflict(&self) -> bool {
        self.reason == "Conflict"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_8_status_messages() {
        assert_eq!(Status::not_found(Kind::Deployment, "web").message, r#"deployments.apps "web" not found"#);
        assert_eq!(Status::too_old_resource_version(5, 9).message, "too old resource version: 5 (9)");
        assert_eq!(Status::too_old_resource_version(5, 9).reason, "Expired");
        assert_eq!(
            Status::conflict(Kind::ConfigMap, "cfg").to_string(),
            "Error from server (Conflict): Operation cannot be fulfilled on configmaps \"cfg\": the object has been modified; please apply your changes to the latest version and try again"
        );
    }
}
