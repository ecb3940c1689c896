//! Role-based access control (kubernetes `plugin/pkg/auth/authorizer/rbac`), semantics §8.
//!
//! Roles and ClusterRoles hold rules (verbs × API groups × resources); RoleBindings and
//! ClusterRoleBindings grant a role to users, groups and service accounts. Every request is
//! authorised on its own, so revoking a verb affects the *next* request only: a watch already
//! open keeps streaming. A denied request gets 403 with the API server's exact text.
//!
//! Simplification: the RBAC objects live beside the API server rather than in the store, so
//! writing them makes no watch events. `system:masters` is bound to `cluster-admin`, as in a
//! real cluster.

use super::api_errors::Status;
use crate::kernel::SmallMap;

/// Who is asking: a user name and its groups.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct UserInfo {
    pub name: String,
    pub groups: Vec<String>,
}

impl UserInfo {
    /// The cluster administrator (`kubernetes-admin`, group `system:masters`).
    pub fn admin() -> Self {
        UserInfo {
            name: "kubernetes-admin".into(),
            groups: vec!["system:masters".into(), "system:authenticated".into()],
        }
    }

    /// A service account's identity: `system:serviceaccount:<ns>:<name>`.
    pub fn service_account(namespace: &str, name: &str) -> Self {
        UserInfo {
            name: format!("system:serviceaccount:{namespace}:{name}"),
            groups: vec![
                "system:serviceaccounts".into(),
                format!("system:serviceaccounts:{namespace}"),
                "system:authenticated".into(),
            ],
        }
    }
}

/// What a request does: the attributes RBAC decides on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestAttributes<'a> {
    pub verb: &'a str,
    pub group: &'a str,
    pub resource: &'a str,
    pub subresource: &'a str,
    /// Empty for a cluster-scoped request (e.g. a list across all namespaces).
    pub namespace: &'a str,
    /// The object's name, when the request names one.
    pub name: Option<&'a str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRule {
    pub verbs: Vec<String>,
    pub api_groups: Vec<String>,
    pub resources: Vec<String>,
}

impl PolicyRule {
    pub fn new(verbs: &[&str], api_groups: &[&str], resources: &[&str]) -> Self {
        let own = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect();
        PolicyRule { verbs: own(verbs), api_groups: own(api_groups), resources: own(resources) }
    }

    fn allows(&self, attrs: &RequestAttributes) -> bool {
        let any = |xs: &[String], x: &str| xs.iter().any(|v| v == "*" || v == x);
        let resource = match attrs.subresource {
            "" => attrs.resource.to_string(),
            sub => format!("{}/{sub}", attrs.resource),
        };
        any(&self.verbs, attrs.verb) && any(&self.api_groups, attrs.group) && any(&self.resources, &resource)
    }
}

/// A Role (namespaced) or ClusterRole (`namespace` empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Role {
    pub namespace: String,
    pub name: String,
    pub rules: Vec<PolicyRule>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    User(String),
    Group(String),
    ServiceAccount { namespace: String, name: String },
}

impl Subject {
    fn covers(&self, user: &UserInfo) -> bool {
        match self {
            Subject::User(n) => *n == user.name,
            Subject::Group(g) => user.groups.contains(g),
            Subject::ServiceAccount { namespace, name } => {
                user.name == format!("system:serviceaccount:{namespace}:{name}")
            }
        }
    }
}

/// A RoleBinding (`namespace` set) or ClusterRoleBinding. A RoleBinding may refer to a
/// ClusterRole, whose rules then apply in the binding's namespace only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleBinding {
    pub namespace: String,
    pub name: String,
    pub role_is_cluster_role: bool,
    pub role_name: String,
    pub subjects: Vec<Subject>,
}

/// The authorizer's state: every role and binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rbac {
    roles: SmallMap<(String, String), Role>,
    bindings: Vec<RoleBinding>,
}

impl Default for Rbac {
    fn default() -> Self {
        let mut rbac = Rbac { roles: SmallMap::new(), bindings: Vec::new() };
        rbac.put_role(Role {
            namespace: String::new(),
            name: "cluster-admin".into(),
            rules: vec![PolicyRule::new(&["*"], &["*"], &["*"])],
        });
        rbac.put_binding(RoleBinding {
            namespace: String::new(),
            name: "cluster-admin".into(),
            role_is_cluster_role: true,
            role_name: "cluster-admin".into(),
            subjects: vec![Subject::Group("system:masters".into())],
        });
        rbac
    }
}

impl Rbac {
    /// Every service account a binding names, as `(namespace, name)`, sorted and once each.
    pub fn service_accounts(&self) -> Vec<(String, String)> {
        let mut accounts: Vec<(String, String)> = self
            .bindings
            .iter()
            .flat_map(|b| &b.subjects)
            .filter_map(|s| match s {
                Subject::ServiceAccount { namespace, name } => Some((namespace.clone(), name.clone())),
                _ => None,
            })
            .collect();
        accounts.sort();
        accounts.dedup();
        accounts
    }

    pub fn put_role(&mut self, role: Role) {
        self.roles.insert((role.namespace.clone(), role.name.clone()), role);
    }

    pub fn put_binding(&mut self, binding: RoleBinding) {
        self.bindings
            .retain(|b| (b.namespace.as_str(), b.name.as_str()) != (binding.namespace.as_str(), binding.name.as_str()));
        self.bindings.push(binding);
    }

    pub fn role(&self, namespace: &str, name: &str) -> Option<&Role> {
        self.roles.get(&(namespace.to_string(), name.to_string()))
    }

    pub fn role_mut(&mut self, namespace: &str, name: &str) -> Option<&mut Role> {
        self.roles.get_mut(&(namespace.to_string(), name.to_string()))
    }

    /// Whether some binding of `user` grants the request.
    pub fn allows(&self, user: &UserInfo, attrs: &RequestAttributes) -> bool {
        self.bindings.iter().filter(|b| b.subjects.iter().any(|s| s.covers(user))).any(|b| {
            let in_scope = b.namespace.is_empty() || b.namespace == attrs.namespace;
            let role_ns = if b.role_is_cluster_role { "" } else { b.namespace.as_str() };
            in_scope && self.role(role_ns, &b.role_name).is_some_and(|r| r.rules.iter().any(|rule| rule.allows(attrs)))
        })
    }

    /// Authorises a request; a denial is the API server's 403.
    pub fn authorize(&self, user: &UserInfo, attrs: &RequestAttributes) -> Result<(), Status> {
        if self.allows(user, attrs) {
            return Ok(());
        }
        let resource = match attrs.subresource {
            "" => attrs.resource.to_string(),
            sub => format!("{}/{sub}", attrs.resource),
        };
        let scope = if attrs.namespace.is_empty() {
            "at the cluster scope".to_string()
        } else {
            format!("in the namespace {:?}", attrs.namespace)
        };
        let reason = format!(
            "User {:?} cannot {} resource {resource:?} in API group {:?} {scope}",
            user.name, attrs.verb, attrs.group
        );
        let group_resource = match attrs.group {
            "" => attrs.resource.to_string(),
            g => format!("{}.{g}", attrs.resource),
        };
        Err(Status::forbidden(&group_resource, attrs.name, reason))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs<'a>(verb: &'a str, resource: &'a str, namespace: &'a str) -> RequestAttributes<'a> {
        RequestAttributes { verb, group: "", resource, subresource: "", namespace, name: None }
    }

    #[test]
    fn semantics_8_forbidden_messages() {
        let rbac = Rbac::default();
        let sa = UserInfo::service_account("my-ns", "my-controller");
        let err = rbac.authorize(&sa, &attrs("list", "configmaps", "")).unwrap_err();
        assert_eq!(err.code, 403);
        assert_eq!(
            err.message,
            r#"configmaps is forbidden: User "system:serviceaccount:my-ns:my-controller" cannot list resource "configmaps" in API group "" at the cluster scope"#
        );
        let named = RequestAttributes { name: Some("cfg"), ..attrs("get", "configmaps", "my-ns") };
        assert_eq!(
            rbac.authorize(&sa, &named).unwrap_err().message,
            r#"configmaps "cfg" is forbidden: User "system:serviceaccount:my-ns:my-controller" cannot get resource "configmaps" in API group "" in the namespace "my-ns""#
        );
        let apps = RequestAttributes { group: "apps", ..attrs("watch", "replicasets", "") };
        assert!(rbac.authorize(&sa, &apps).unwrap_err().message.starts_with("replicasets.apps is forbidden:"));
        assert!(rbac.authorize(&UserInfo::admin(), &apps).is_ok());
    }

    #[test]
    fn semantics_8_role_bindings_scope_cluster_roles_to_a_namespace() {
        let mut rbac = Rbac::default();
        rbac.put_role(Role {
            namespace: String::new(),
            name: "reader".into(),
            rules: vec![PolicyRule::new(&["get", "list"], &[""], &["pods"])],
        });
        rbac.put_binding(RoleBinding {
            namespace: "team".into(),
            name: "read".into(),
            role_is_cluster_role: true,
            role_name: "reader".into(),
            subjects: vec![Subject::ServiceAccount { namespace: "team".into(), name: "bot".into() }],
        });
        let bot = UserInfo::service_account("team", "bot");
        assert!(rbac.allows(&bot, &attrs("list", "pods", "team")));
        assert!(!rbac.allows(&bot, &attrs("list", "pods", "")));
        assert!(!rbac.allows(&bot, &attrs("watch", "pods", "team")));
        let status = RequestAttributes { subresource: "status", ..attrs("update", "pods", "team") };
        assert!(rbac.authorize(&bot, &status).unwrap_err().message.contains(r#"cannot update resource "pods/status""#));
    }
}
