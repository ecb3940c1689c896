//! A request body decoded as the URL's kind, as kube-apiserver's handlers decode it
//! (`handlers/create.go`, `update.go` through `transformDecodeError` in `handlers/rest.go`, the
//! same in 1.30.14, 1.33.13 and 1.37.2): a body names its own kind and apiVersion (both default
//! to the URL's), and one of another kind is converted into the URL's kind, which only the
//! same kind can be — a Secret POSTed to `configmaps` is refused, not created.
//!
//! Left out: the API groups' older versions a real server can still decode (`apps/v1beta1`,
//! `apps/v1beta2`), answered here as versions no kind is registered for.

use informer_sim::cluster::{Kind, Status};

/// The kinds a real server's scheme registers in the core group's `v1` and in `apps/v1`
/// (`pkg/api/legacyscheme`), beyond the ones served here: a body of one of them is converted
/// and refused; a body of any other kind names no registered kind.
const REGISTERED: [(&str, &[&str]); 2] = [
    (
        "v1",
        &[
            "Binding",
            "ComponentStatus",
            "ConfigMap",
            "Endpoints",
            "Event",
            "LimitRange",
            "Namespace",
            "Node",
            "PersistentVolume",
            "PersistentVolumeClaim",
            "Pod",
            "PodTemplate",
            "ReplicationController",
            "ResourceQuota",
            "Secret",
            "Service",
            "ServiceAccount",
        ],
    ),
    ("apps/v1", &["ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"]),
];

/// Whether a body of `kind` in `api_version` decodes as `url`'s kind: `Err` with the 400 a real
/// server answers when it does not.
pub fn body_kind(url: Kind, kind: &str, api_version: &str) -> Result<(), Status> {
    if kind == url.name() && api_version == url.api_version() {
        return Ok(());
    }
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    let registered = REGISTERED.iter().any(|(gv, kinds)| *gv == api_version && kinds.contains(&kind));
    let why = match registered {
        true => {
            let internal = match url.group() {
                "" => "core",
                group => group,
            };
            format!("converting ({version}.{kind}) to ({internal}.{}): unknown conversion", url.name())
        }
        false => format!(
            "no kind {kind:?} is registered for version {api_version:?} in scheme \"pkg/api/legacyscheme/scheme.go:30\""
        ),
    };
    Err(cannot_be_handled(url, kind, api_version, &why))
}

/// The 400 for a body of `kind` in `api_version` that could not be read as `url`'s kind, and why
/// (`transformDecodeError`).
pub fn cannot_be_handled(url: Kind, kind: &str, api_version: &str, why: &str) -> Status {
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    Status::bad_request(format!("{kind} in version {version:?} cannot be handled as a {}: {why}", url.name()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_of_another_kind_or_version_is_refused_in_kube_apiservers_words() {
        assert_eq!(body_kind(Kind::ConfigMap, "ConfigMap", "v1"), Ok(()));
        assert_eq!(body_kind(Kind::Deployment, "Deployment", "apps/v1"), Ok(()));
        let message = |url, kind, version| body_kind(url, kind, version).unwrap_err().message;
        assert_eq!(
            message(Kind::ConfigMap, "Secret", "v1"),
            "Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion"
        );
        assert_eq!(
            message(Kind::ConfigMap, "Deployment", "apps/v1"),
            "Deployment in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion"
        );
        assert_eq!(
            message(Kind::Deployment, "ConfigMap", "v1"),
            "ConfigMap in version \"v1\" cannot be handled as a Deployment: converting (v1.ConfigMap) to (apps.Deployment): unknown conversion"
        );
        assert_eq!(
            message(Kind::Deployment, "Deployment", "apps/v2"),
            "Deployment in version \"v2\" cannot be handled as a Deployment: no kind \"Deployment\" is registered for version \"apps/v2\" in scheme \"pkg/api/legacyscheme/scheme.go:30\""
        );
        assert_eq!(
            message(Kind::ConfigMap, "Foo", "v1"),
            "Foo in version \"v1\" cannot be handled as a ConfigMap: no kind \"Foo\" is registered for version \"v1\" in scheme \"pkg/api/legacyscheme/scheme.go:30\""
        );
        assert_eq!(body_kind(Kind::ConfigMap, "Secret", "v1").unwrap_err().code, 400);
    }
}
