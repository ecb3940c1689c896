//! The namespaces a cluster has, and the NamespaceLifecycle admission plugin that refuses a
//! create in one it does not have (apiserver `admission/plugin/namespace/lifecycle/admission.go`,
//! the same in 1.30, 1.33 and 1.37 for what is modelled here), semantics §8.
//!
//! - A cluster starts with the system namespaces the control plane makes (`default`,
//!   `kube-node-lease`, `kube-public`, `kube-system`), and a world with every namespace its
//!   objects are in.
//! - A create in a namespace the cluster does not have is a 404 naming the namespace, after
//!   authorization and before the object is validated (so an invalid object there is a 404 too).
//! - `default`, `kube-public` and `kube-system` may never be deleted (403).
//!
//! Left out: namespaces as stored objects (no resourceVersion, no watch on them), a namespace
//! being terminated (the namespace controller's work: deleting one that holds objects is not
//! served), and the 50 ms wait for an informer's cache that the real plugin makes.

use super::api_errors::{FieldError, FieldProblem, Status, StatusDetails};
use super::validation::dns1123_label;
use crate::kernel::sort;
use std::collections::BTreeSet;

/// The namespaces the control plane makes at its start.
pub const SYSTEM: [&str; 4] = ["default", "kube-node-lease", "kube-public", "kube-system"];

/// The namespaces no one may delete (`immortalNamespaces`).
const IMMORTAL: [&str; 3] = ["default", "kube-public", "kube-system"];

/// The namespaces a cluster has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Namespaces {
    names: BTreeSet<String>,
}

impl Default for Namespaces {
    fn default() -> Self {
        Namespaces { names: sort::set_of(SYSTEM.map(String::from)) }
    }
}

impl Namespaces {
    pub fn has(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// Every namespace, by name.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// NamespaceLifecycle on a create in `namespace`.
    pub fn admit_create(&self, namespace: &str) -> Result<(), Status> {
        match self.has(namespace) {
            true => Ok(()),
            false => Err(not_found(namespace)),
        }
    }

    /// A namespace the cluster is given (a world's objects are in it).
    pub fn ensure(&mut self, name: &str) {
        self.names.insert(name.to_string());
    }

    /// POST of a Namespace: a valid name the cluster does not have yet.
    pub fn create(&mut self, name: &str) -> Result<(), Status> {
        let problems = dns1123_label(name);
        if name.is_empty() || !problems.is_empty() {
            return Err(invalid_name(name, problems));
        }
        if self.has(name) {
            return Err(namespace_status(409, "AlreadyExists", name, format!("namespaces {name:?} already exists")));
        }
        self.names.insert(name.to_string());
        Ok(())
    }

    /// DELETE of a Namespace that holds nothing (`holds`: whether it holds any object).
    pub fn delete(&mut self, name: &str, holds: bool) -> Result<(), Status> {
        if IMMORTAL.contains(&name) {
            return Err(Status::forbidden("namespaces", Some(name), "this namespace may not be deleted".into()));
        }
        if !self.has(name) {
            return Err(not_found(name));
        }
        if holds {
            return Err(Status::new(
                405,
                "MethodNotAllowed",
                format!("the playground does not delete namespace {name:?} while it holds objects (the namespace controller is not modelled)"),
            ));
        }
        self.names.remove(name);
        Ok(())
    }
}

/// `namespaces "x" not found`, as the admission plugin passes on its lookup's answer.
pub fn not_found(name: &str) -> Status {
    namespace_status(404, "NotFound", name, format!("namespaces {name:?} not found"))
}

fn namespace_status(code: u16, reason: &'static str, name: &str, message: String) -> Status {
    let details = StatusDetails { name: name.into(), kind: "namespaces".into(), ..StatusDetails::default() };
    Status::new(code, reason, message).with_details(details)
}

fn invalid_name(name: &str, problems: Vec<String>) -> Status {
    let errors: Vec<FieldError> = match problems.is_empty() {
        true => {
            vec![FieldError::new("metadata.name", FieldProblem::Required("name or generateName is required".into()))]
        }
        false => problems
            .into_iter()
            .map(|detail| {
                FieldError::new("metadata.name", FieldProblem::Invalid { value: format!("{name:?}"), detail })
            })
            .collect(),
    };
    Status::invalid_fields("", "Namespace", name, &errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_8_a_create_in_a_namespace_the_cluster_lacks_is_a_404_naming_it() {
        let mut namespaces = Namespaces::default();
        assert!(namespaces.admit_create("default").is_ok());
        let refused = namespaces.admit_create("nope").unwrap_err();
        assert_eq!(
            (refused.code, refused.reason, refused.message.as_str()),
            (404, "NotFound", r#"namespaces "nope" not found"#)
        );
        assert_eq!(refused.details.as_ref().map(|d| d.kind.as_str()), Some("namespaces"));
        namespaces.create("nope").unwrap();
        assert!(namespaces.admit_create("nope").is_ok());
        assert_eq!(namespaces.create("nope").unwrap_err().code, 409);
    }

    #[test]
    fn the_system_namespaces_but_kube_node_lease_may_never_be_deleted() {
        let mut namespaces = Namespaces::default();
        let refused = namespaces.delete("kube-system", false).unwrap_err();
        assert_eq!(refused.message, r#"namespaces "kube-system" is forbidden: this namespace may not be deleted"#);
        assert!(namespaces.delete("kube-node-lease", false).is_ok());
        assert_eq!(namespaces.delete("kube-node-lease", false).unwrap_err().code, 404);
    }
}
