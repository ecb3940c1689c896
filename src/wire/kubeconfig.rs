//! The identities serve-api hands out and the kubeconfig it writes: one cluster (the address it
//! listens on), one user per identity — the administrator and every service account the world's
//! RBAC binds — each with a bearer token, and a context for each.
//!
//! Tokens are made anew at every start: a random key is drawn and each token carries its
//! identity signed with that key (HMAC-SHA256), so a token of an earlier start, or one written
//! by hand for another identity, is refused with 401.

use informer_sim::cluster::UserInfo;
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};

/// The bearer tokens of one start of the server.
pub struct Tokens {
    key: hmac::Key,
}

impl Tokens {
    /// A new key from the system's random source.
    pub fn new() -> Result<Tokens, String> {
        let mut bytes = [0u8; 32];
        SystemRandom::new().fill(&mut bytes).map_err(|_| "no random source for the server's tokens".to_string())?;
        Ok(Tokens { key: hmac::Key::new(hmac::HMAC_SHA256, &bytes) })
    }

    fn signed(&self, identity: &str) -> String {
        let tag = hmac::sign(&self.key, identity.as_bytes());
        let hex: String = tag.as_ref().iter().map(|b| format!("{b:02x}")).collect();
        format!("{identity}.{hex}")
    }

    /// The administrator's token (group `system:masters`).
    pub fn admin(&self) -> String {
        self.signed("admin")
    }

    /// The token of service account `namespace/name`.
    pub fn service_account(&self, namespace: &str, name: &str) -> String {
        self.signed(&format!("sa.{namespace}.{name}"))
    }

    /// The identity a bearer token stands for; `None`: not a token this start gave out.
    pub fn user_of(&self, token: &str) -> Option<UserInfo> {
        let (identity, hex) = token.rsplit_once('.')?;
        let tag: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| hex.get(i..i + 2).and_then(|pair| u8::from_str_radix(pair, 16).ok()))
            .collect::<Option<_>>()?;
        hmac::verify(&self.key, identity.as_bytes(), &tag).ok()?;
        if identity == "admin" {
            return Some(UserInfo::admin());
        }
        let (namespace, name) = identity.strip_prefix("sa.")?.split_once('.')?;
        Some(UserInfo::service_account(namespace, name))
    }
}

/// The kubeconfig text for a server at `server` (`https://127.0.0.1:6443`) whose certificate
/// `authority_pem` signed: the administrator's context `playground` (the current one) and one
/// context `<namespace>-<name>` per service account in `accounts`.
pub fn kubeconfig(server: &str, authority_pem: &str, tokens: &Tokens, accounts: &[(String, String)]) -> String {
    let authority = informer_sim::base64::encode(authority_pem.as_bytes());
    let mut users = format!("- name: admin\n  user:\n    token: {}\n", tokens.admin());
    let mut contexts =
        "- name: playground\n  context:\n    cluster: playground\n    user: admin\n    namespace: default\n"
            .to_string();
    for (namespace, name) in accounts {
        let user = format!("{namespace}-{name}");
        let token = tokens.service_account(namespace, name);
        users += &format!("- name: {user}\n  user:\n    token: {token}\n");
        contexts += &format!(
            "- name: {user}\n  context:\n    cluster: playground\n    user: {user}\n    namespace: {namespace}\n"
        );
    }
    format!(
        "apiVersion: v1
kind: Config
clusters:
- name: playground
  cluster:
    server: {server}
    certificate-authority-data: {authority}
users:
{users}contexts:
{contexts}current-context: playground
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_names_its_identity_and_only_this_start_gives_it_out() {
        let tokens = Tokens::new().unwrap();
        assert_eq!(tokens.user_of(&tokens.admin()), Some(UserInfo::admin()));
        let sa = tokens.user_of(&tokens.service_account("default", "playground-controller")).unwrap();
        assert_eq!(sa.name, "system:serviceaccount:default:playground-controller");
        let again = Tokens::new().unwrap();
        assert_ne!(again.admin(), tokens.admin(), "a new start draws a new key");
        assert_eq!(again.user_of(&tokens.admin()), None, "an earlier start's token is refused");
        let forged = tokens.service_account("default", "c").replace("sa.default.c.", "admin.");
        assert_eq!(tokens.user_of(&forged), None, "a signature is for its own identity only");
        for guess in ["", "admin", "playground-admin", "admin.", "admin.zz", "sa.default.c.00"] {
            assert_eq!(tokens.user_of(guess), None, "{guess:?}");
        }
    }

    #[test]
    fn the_kubeconfig_names_a_user_and_context_per_identity() {
        let tokens = Tokens::new().unwrap();
        let accounts = [("default".to_string(), "c".to_string()), ("judge".to_string(), "nobody".to_string())];
        let text = kubeconfig("https://127.0.0.1:1", "pem", &tokens, &accounts);
        assert!(text.contains(&format!("token: {}", tokens.admin())));
        assert!(text
            .contains(&format!("- name: default-c\n  user:\n    token: {}", tokens.service_account("default", "c"))));
        assert!(text.contains(
            "- name: judge-nobody\n  context:\n    cluster: playground\n    user: judge-nobody\n    namespace: judge"
        ));
        assert!(text.contains("certificate-authority-data: cGVt"));
        assert!(text.ends_with("current-context: playground\n"));
    }
}
