//! The playground session: the cluster a page shows, and the actions a person takes on it.
//!
//! The page is a view of a [`Session`] and sends it [`Action`]s; [`Session::apply`] is the
//! only place the cluster changes. Every outcome is a [`Message`] worded as kubectl or etcd
//! would word it, so bad input is answered in the page and nothing already there is lost.

use crate::cluster::api_errors::Status;
use crate::cluster::{ApiObject, ApiServer, Kind, UserInfo};

/// What a person does on the first page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Create the object a JSON manifest describes.
    Create(String),
    /// Replace an object with the manifest (its resourceVersion, if given, must be current).
    Update(String),
    Delete {
        kind: Kind,
        namespace: String,
        name: String,
    },
    /// Delete the object a manifest names.
    DeleteManifest(String),
    /// Compact the store at a revision, typed as text.
    Compact(String),
}

/// The outcome of the last action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Done(String),
    Failed(String),
}

/// How much virtual time each action takes: creation timestamps move on.
const ACTION_MS: u64 = 1_000;

#[derive(Clone, Debug)]
pub struct Session {
    pub api: ApiServer,
    pub message: Option<Message>,
    pub now_ms: u64,
    user: UserInfo,
}

impl Default for Session {
    fn default() -> Self {
        Session { api: ApiServer::default(), message: None, now_ms: 0, user: UserInfo::admin() }
    }
}

/// kubectl's `<resource>/<name>` (lower-case kind, group for apps kinds).
fn kubectl_ref(obj: &ApiObject) -> String {
    let kind = obj.kind().map(|k| match k.group() {
        "" => k.name().to_ascii_lowercase(),
        g => format!("{}.{g}", k.name().to_ascii_lowercase()),
    });
    format!("{}/{}", kind.unwrap_or_default(), obj.metadata.name)
}

fn parse_manifest(text: &str) -> Result<ApiObject, Status> {
    ApiObject::from_json(text)
        .map_err(|e| Status::bad_request(format!("the object provided is unrecognized: json parse error: {e}")))
}

impl Session {
    pub fn apply(&mut self, action: Action) {
        self.now_ms += ACTION_MS;
        self.api.set_time(self.now_ms);
        self.message = Some(match self.run(action) {
            Ok(done) => Message::Done(done),
            Err(failed) => Message::Failed(failed),
        });
    }

    fn run(&mut self, action: Action) -> Result<String, String> {
        let user = self.user.clone();
        match action {
            Action::Create(text) => {
                let obj = parse_manifest(&text).and_then(|o| self.api.create(&user, o)).map_err(|e| e.to_string())?;
                Ok(format!("{} created (resourceVersion {})", kubectl_ref(&obj), obj.metadata.resource_version))
            }
            Action::Update(text) => {
                let obj = parse_manifest(&text).and_then(|o| self.api.update(&user, o)).map_err(|e| e.to_string())?;
                Ok(format!("{} replaced (resourceVersion {})", kubectl_ref(&obj), obj.metadata.resource_version))
            }
            Action::Delete { kind, namespace, name } => {
                let obj = self.api.delete(&user, kind, &namespace, &name).map_err(|e| e.to_string())?;
                Ok(format!("{} deleted (at revision {})", kubectl_ref(&obj), self.api.store().revision()))
            }
            Action::DeleteManifest(text) => {
                let obj = parse_manifest(&text).map_err(|e| e.to_string())?;
                let kind = ApiServer::kind_of(&obj).map_err(|e| e.to_string())?;
                let namespace = if obj.metadata.namespace.is_empty() { "default" } else { &obj.metadata.namespace };
                self.run(Action::Delete { kind, namespace: namespace.into(), name: obj.metadata.name.clone() })
            }
            Action::Compact(text) => {
                let rev = text.trim().parse::<i64>().ok().filter(|r| *r > 0).ok_or_else(|| {
                    format!("error: invalid revision {:?}: want a positive whole number", text.trim())
                })?;
                self.api.compact(rev).map_err(|e| e.grpc_message())?;
                Ok(format!("compacted at revision {rev}"))
            }
        }
    }

    /// An example manifest for a kind, to start editing from.
    pub fn example(kind: Kind, namespace: &str, name: &str) -> String {
        use serde_json::json;
        let obj = ApiObject::new(kind, namespace, name);
        let obj = match kind {
            Kind::ConfigMap => obj.with("data", json!({"greeting": "hello"})),
            Kind::Secret => obj.with("data", json!({"token": "c2VjcmV0"})),
            Kind::Pod => obj.with_label("app", "web").with("spec", json!({"containers": [{"name": "web", "image": "nginx:1.27"}]})),
            Kind::ReplicaSet | Kind::Deployment => obj.with_label("app", "web").with(
                "spec",
                json!({
                    "replicas": 3,
                    "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}
                }),
            ),
        };
        obj.to_json_pretty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(s: &Session) -> String {
        match &s.message {
            Some(Message::Failed(text)) => text.clone(),
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn semantics_8_actions_report_like_kubectl() {
        let mut s = Session::default();
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
        assert_eq!(s.message, Some(Message::Done("configmap/demo created (resourceVersion 2)".into())));
        s.apply(Action::Create(Session::example(Kind::Deployment, "default", "web")));
        assert_eq!(s.message, Some(Message::Done("deployment.apps/web created (resourceVersion 3)".into())));
        s.apply(Action::Delete { kind: Kind::ConfigMap, namespace: "default".into(), name: "demo".into() });
        assert_eq!(s.message, Some(Message::Done("configmap/demo deleted (at revision 4)".into())));
        s.apply(Action::DeleteManifest(Session::example(Kind::Deployment, "default", "web")));
        assert_eq!(s.message, Some(Message::Done("deployment.apps/web deleted (at revision 5)".into())));
        s.apply(Action::Compact("3".into()));
        assert_eq!(s.message, Some(Message::Done("compacted at revision 3".into())));
    }

    #[test]
    fn bad_input_is_answered_and_keeps_the_cluster() {
        let mut s = Session::default();
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
        s.apply(Action::Create("{not json".into()));
        assert!(failed(&s)
            .starts_with("Error from server (BadRequest): the object provided is unrecognized: json parse error:"));
        s.apply(Action::Compact("9".into()));
        assert_eq!(failed(&s), "etcdserver: mvcc: required revision is a future revision");
        s.apply(Action::Compact("soon".into()));
        assert_eq!(failed(&s), r#"error: invalid revision "soon": want a positive whole number"#);
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "Not_Valid")));
        assert!(failed(&s).contains("a lowercase RFC 1123 subdomain"));
        assert_eq!(s.api.store().revision(), 2, "failed actions change nothing");
    }
}
