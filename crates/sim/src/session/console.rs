//! A person's writes (the object form's manifests) and the console's kubectl lines, each
//! answered in the words kubectl or the API server would use.

use super::{Message, Refusal, Session, Written};
use crate::cluster::{ApiObject, ApiServer, Kind};
use crate::console::manifest;
use crate::kernel::sort;
use crate::scenario::Lang;
use crate::world;
use crate::world::outcome::UserVerb;

/// A write through the object form: a manifest to create, replace or delete by, or a delete
/// by name.
pub(super) enum PersonWrite {
    Manifest(UserVerb, String),
    Delete { kind: Kind, namespace: String, name: String },
}

/// A line of the console's transcript: what was typed, what kubectl printed, or what the
/// playground refused, worded when the transcript is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleLine {
    Typed(String),
    Printed(String),
    Refused(Refusal),
}

impl ConsoleLine {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            ConsoleLine::Typed(line) => format!("$ {line}"),
            ConsoleLine::Printed(text) => text.clone(),
            ConsoleLine::Refused(refusal) => refusal.text(lang),
        }
    }
}

/// A manifest's refusal: kubectl's or the API server's words, or the playground's limit.
fn refusal(e: manifest::ManifestError) -> Refusal {
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
                (world::Action::Delete { kind, namespace, name: name.clone() }, kind, name, UserVerb::Delete)
            }
            PersonWrite::Manifest(verb, text) => {
                let obj = match manifest::read(&text, manifest::Source::Body) {
                    Ok(obj) => obj,
                    Err(e) => return Message::Failed(refusal(e)),
                };
                let kind = match ApiServer::kind_of(&obj) {
                    Ok(kind) => kind,
                    Err(e) => return Message::Failed(Refusal::Upstream(e.to_string())),
                };
                let name = obj.metadata.name.clone();
                let action = match verb {
                    UserVerb::Create => world::Action::Create(obj),
                    UserVerb::Update => world::Action::Update(obj),
                    _ => {
                        let namespace =
                            if obj.metadata.namespace.is_empty() { "default".into() } else { obj.metadata.namespace };
                        world::Action::Delete { kind, namespace, name: name.clone() }
                    }
                };
                (action, kind, name, verb)
            }
        };
        let from = match &world_action {
            world::Action::Delete { namespace, .. } if self.era.kubectl_delete_names_namespace() => {
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

    pub(super) fn kubectl(&mut self, entry: &str) {
        use crate::console::kubectl::{self, Outcome};
        let (line, stdin) = entry.split_once('\n').unwrap_or((entry, ""));
        let at = self.world().steps();
        self.console.record((at, ConsoleLine::Typed(line.trim().to_string())));
        let printed = match kubectl::run(line, stdin, self.world()) {
            Outcome::Output(text) | Outcome::Error(text) => ConsoleLine::Printed(text),
            Outcome::Exceeded(exceeded) => ConsoleLine::Refused(Refusal::Limit(exceeded)),
            Outcome::Refused(e) => ConsoleLine::Refused(refusal(e)),
            Outcome::Watch(kind, namespace, text) => {
                self.act(world::Action::ConsoleWatch { kind, namespace });
                ConsoleLine::Printed(text)
            }
            Outcome::Write(action, done) => {
                self.act(action);
                match self.write_answer() {
                    Some(Err(refused)) => ConsoleLine::Refused(refused),
                    _ => ConsoleLine::Printed(done),
                }
            }
        };
        self.console.record((at, printed));
    }

    /// The console's transcript up to the current step, with the rows its watches printed
    /// in between, in the order they came, in `lang`.
    pub fn console_text(&self, lang: Lang) -> String {
        let here = self.world().steps();
        // Each watch row shows the object as it was when the event arrived.
        let rows = self.world().console_events().iter().filter_map(|(step, at, kind, event)| {
            let row = crate::cluster::printers::align(&[crate::cluster::printers::row(*kind, event.object()?, *at)]);
            Some((*step, 1, row))
        });
        let mut lines: Vec<(u64, u8, String)> = self
            .console
            .iter()
            .filter(|(step, _)| *step <= here)
            .map(|(step, line)| (*step, 0, line.text(lang)))
            .chain(rows)
            .collect();
        sort::sort_by_key(&mut lines, |(step, order, _)| (*step, *order));
        lines.into_iter().map(|(_, _, text)| text).collect::<Vec<_>>().join("\n")
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
