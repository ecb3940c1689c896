//! A person's writes through the object form: a manifest created, replaced or deleted, or a
//! delete by name, each answered as kubectl or the API server would word it.

use super::{Message, Refusal, Session, Written};
use crate::cluster::{ApiObject, ApiServer, Kind};
use crate::console::manifest;
use crate::world;
use crate::world::outcome::UserVerb;

/// A write through the object form: a manifest to create, replace or delete by, or a delete
/// by name.
pub(super) enum PersonWrite {
    Manifest(UserVerb, String),
    Delete { kind: Kind, namespace: String, name: String },
}

/// A manifest's refusal: kubectl's or the API server's words, or the playground's limit.
pub(super) fn refusal(e: manifest::ManifestError) -> Refusal {
    match e.upstream() {
        Some(text) => Refusal::Upstream(text),
        None => match e.problem {
            manifest::Problem::Limit(exceeded) => Refusal::Limit(exceeded),
            _ => Refusal::Upstream(e.to_string()),
        },
    }
}

impl Session {
    /// A person's write through the object form: the object a manifest describes created,
    /// replaced or deleted, or a delete by name.
    pub(super) fn write(&mut self, write: PersonWrite) -> Message {
        let (world_action, kind, name, verb) = match write {
            PersonWrite::Delete { kind, namespace, name } => {
                (world::Intervention::Delete { kind, namespace, name: name.clone() }, kind, name, UserVerb::Delete)
            }
            PersonWrite::Manifest(verb, text) => {
                let Some(console) = crate::console::engine() else {
                    return Message::Failed(Refusal::NotLoaded);
                };
                let obj = match (console.manifest)(&text, manifest::Source::Body) {
                    Ok(obj) => obj,
                    Err(e) => return Message::Failed(refusal(e)),
                };
                let kind = match ApiServer::kind_of(&obj) {
                    Ok(kind) => kind,
                    Err(e) => return Message::Failed(Refusal::Upstream(e.to_string())),
                };
                let name = obj.metadata.name.clone();
                let action = match verb {
                    UserVerb::Create => world::Intervention::Create(obj),
                    UserVerb::Update => world::Intervention::Update(obj),
                    _ => {
                        let namespace =
                            if obj.metadata.namespace.is_empty() { "default".into() } else { obj.metadata.namespace };
                        world::Intervention::Delete { kind, namespace, name: name.clone() }
                    }
                };
                (action, kind, name, verb)
            }
        };
        let from = match &world_action {
            world::Intervention::Delete { namespace, .. } if self.era.kubectl_delete_names_namespace() => {
                Some(namespace.clone())
            }
            _ => None,
        };
        self.act(world_action);
        match self.write_answer() {
            Some(Err(refused)) => Message::Failed(refused),
            Some(Ok(rv)) => {
                let revision = (verb != UserVerb::Delete).then_some(rv);
                Message::Done(Written { kind, name, verb, revision, from })
            }
            None => Message::Failed(Refusal::NotReached),
        }
    }

    /// The answer to the write the current step made: its resourceVersion, or what refused it.
    /// `None` when the current step is not a person's write.
    pub(super) fn write_answer(&self) -> Option<Result<i64, Refusal>> {
        let crate::world::Outcome::UserWrite { answer, no_match, kind, .. } = &self.current()?.outcome else {
            return None;
        };
        Some(match (answer, no_match) {
            (_, Some(selector)) => Err(Refusal::NoMatch { kind: *kind, selector: selector.clone() }),
            (Ok(rv), None) => Ok(*rv),
            (Err(status), None) => Err(Refusal::Upstream(status.to_string())),
        })
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
