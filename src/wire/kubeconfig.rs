//! The kubeconfig serve-api writes: one cluster (the address it listens on), one user per
//! identity — the administrator and the controller's service account — each with a bearer
//! token the server maps back to that identity, and a context for each.

use informer_sim::cluster::UserInfo;

/// The administrator's bearer token.
pub const ADMIN_TOKEN: &str = "playground-admin";

/// The bearer token of a service account.
pub fn service_account_token(namespace: &str, name: &str) -> String {
    format!("playground-sa.{namespace}.{name}")
}

/// The identity a bearer token stands for; `None`: not a token this server gave out.
pub fn user_of_token(token: &str) -> Option<UserInfo> {
    if token == ADMIN_TOKEN {
        return Some(UserInfo::admin());
    }
    let rest = token.strip_prefix("playground-sa.")?;
    let (namespace, name) = rest.split_once('.')?;
    (!namespace.is_empty() && !name.is_empty()).then(|| UserInfo::service_account(namespace, name))
}

/// The kubeconfig text for a server at `server` (`https://127.0.0.1:6443`) whose certificate
/// `authority_pem` signed, and whose controller runs as the service account `namespace/name`.
pub fn kubeconfig(server: &str, authority_pem: &str, namespace: &str, name: &str) -> String {
    let sa = format!("{namespace}-{name}");
    let authority = informer_sim::base64::encode(authority_pem.as_bytes());
    format!(
        "apiVersion: v1
kind: Config
clusters:
- name: playground
  cluster:
    server: {server}
    certificate-authority-data: {authority}
users:
- name: admin
  user:
    token: {ADMIN_TOKEN}
- name: {sa}
  user:
    token: {token}
contexts:
- name: playground
  context:
    cluster: playground
    user: admin
    namespace: default
- name: {sa}
  context:
    cluster: playground
    user: {sa}
    namespace: {namespace}
current-context: playground
",
        token = service_account_token(namespace, name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_their_identities() {
        assert_eq!(user_of_token(ADMIN_TOKEN), Some(UserInfo::admin()));
        let sa = user_of_token(&service_account_token("default", "playground-controller")).unwrap();
        assert_eq!(sa.name, "system:serviceaccount:default:playground-controller");
        assert_eq!(user_of_token("guess"), None);
        let text = kubeconfig("https://127.0.0.1:1", "pem", "default", "c");
        assert!(text.contains("token: playground-sa.default.c"));
        assert!(text.contains("certificate-authority-data: cGVt"));
    }
}
