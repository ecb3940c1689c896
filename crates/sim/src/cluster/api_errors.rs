//! API status errors (apimachinery `pkg/api/errors`), semantics §8: the code, reason and
//! message a client receives, worded as the API server words them.

use super::api_object::Kind;
use serde::Serialize;
use std::fmt;

/// A failed request's `Status`: HTTP code, machine-readable reason, human message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    pub code: u16,
    pub reason: &'static str,
    pub message: String,
}

impl fmt::Display for Status {
    /// kubectl's rendering: `Error from server (NotFound): pods "x" not found`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error from server ({}): {}", self.reason, self.message)
    }
}

impl Status {
    pub fn new(code: u16, reason: &'static str, message: String) -> Self {
        Status { code, reason, message }
    }

    /// `pods "x" not found` (`NewNotFound`; the group resource, e.g. `deployments.apps`).
    pub fn not_found(kind: Kind, name: &str) -> Self {
        Self::new(404, "NotFound", format!("{} {name:?} not found", kind.group_resource()))
    }

    pub fn already_exists(kind: Kind, name: &str) -> Self {
        Self::new(409, "AlreadyExists", format!("{} {name:?} already exists", kind.group_resource()))
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
    /// `ResourceVersionTooLarge`.
    pub fn too_large_resource_version(requested: i64, current: i64) -> Self {
        Self::new(504, "Timeout", format!("Timeout: Too large resource version: {requested}, current: {current}"))
    }

    /// 403 `Forbidden` (`NewForbidden`): `<resource> is forbidden: <reason>`, or
    /// `<resource> "<name>" is forbidden: <reason>` for a named request.
    pub fn forbidden(group_resource: &str, name: Option<&str>, reason: String) -> Self {
        let message = match name {
            Some(n) => format!("{group_resource} {n:?} is forbidden: {reason}"),
            None => format!("{group_resource} is forbidden: {reason}"),
        };
        Self::new(403, "Forbidden", message)
    }

    /// 422 `Invalid` (`NewInvalid`): `<Kind> "<name>" is invalid: <field>: <detail>`, the kind
    /// qualified by its group (`Deployment.apps`).
    pub fn invalid(kind: Kind, name: &str, detail: String) -> Self {
        let qualified = match kind.group() {
            "" => kind.name().to_string(),
            g => format!("{}.{g}", kind.name()),
        };
        Self::invalid_qualified(&qualified, name, detail)
    }

    /// `NewInvalid` for a group-qualified kind given as text (`ListOptions.meta.k8s.io`).
    pub fn invalid_qualified(qualified: &str, name: &str, detail: String) -> Self {
        Self::new(422, "Invalid", format!("{qualified} {name:?} is invalid: {detail}"))
    }

    pub fn bad_request(message: String) -> Self {
        Self::new(400, "BadRequest", message)
    }

    /// 404 for a kind the server does not serve.
    pub fn no_kind_match(kind: &str, api_version: &str) -> Self {
        Self::new(404, "NotFound", format!("no matches for kind {kind:?} in version {api_version:?}"))
    }

    /// 500 for a storage failure, e.g. an etcd error on compaction.
    pub fn internal(message: String) -> Self {
        Self::new(500, "InternalError", format!("Internal error occurred: {message}"))
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
