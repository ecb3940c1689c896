//! A person's writes (the object form's manifests) and the console's kubectl lines, each
//! answered in the words kubectl or the API server would use.

use super::{Action, Message, Session};
use crate::cluster::{ApiObject, ApiServer, Kind};
use crate::console::manifest;
use crate::kernel::sort;
use crate::world;

/// kubectl's `<type>/<name>`, e.g. `deployment.apps/web`.
fn kubectl_ref(kind: Kind, name: &str) -> String {
    format!("{}/{name}", crate::console::kubectl::kubectl_type(kind))
}

impl Session {
    pub(super) fn write(&mut self, action: Action) -> Message {
        let parsed = match &action {
            Action::Create(text) | Action::Update(text) | Action::DeleteManifest(text) => {
                match manifest::read(text, manifest::Source::Body) {
                    Ok(obj) => Some(obj),
                    Err(e) => return Message::Failed(e.to_string()),
                }
            }
            _ => None,
        };
        let (world_action, kind, name, verb) = match (action, parsed) {
            (Action::Delete { kind, namespace, name }, _) => {
                (world::Action::Delete { kind, namespace, name: name.clone() }, kind, name, "deleted")
            }
            (action, Some(obj)) => {
                let kind = match ApiServer::kind_of(&obj) {
                    Ok(kind) => kind,
                    Err(e) => return Message::Failed(e.to_string()),
                };
                let name = obj.metadata.name.clone();
                match action {
                    Action::Create(_) => (world::Action::Create(obj), kind, name, "created"),
                    Action::Update(_) => (world::Action::Update(obj), kind, name, "replaced"),
                    _ => {
                        let namespace =
                            if obj.metadata.namespace.is_empty() { "default".into() } else { obj.metadata.namespace };
                        (world::Action::Delete { kind, namespace, name: name.clone() }, kind, name, "deleted")
                    }
                }
            }
            _ => return Message::Failed("nothing to write".into()),
        };
        self.act(world_action);
        match self.write_failure() {
            Some(Err(failure)) => Message::Failed(failure),
            Some(Ok(rv)) => {
                let at = if rv > 0 { format!(" (resourceVersion {rv})") } else { String::new() };
                Message::Done(format!("{} {verb}{at}", kubectl_ref(kind, &name)))
            }
            None => Message::Failed("the write did not reach the API server".into()),
        }
    }

    /// The answer to the write the current step made: its resourceVersion, or what refused it
    /// in kubectl's words. `None` when the current step is not a person's write.
    pub(super) fn write_failure(&self) -> Option<Result<i64, String>> {
        let crate::world::Outcome::UserWrite { answer, no_match, kind, .. } = &self.current()?.outcome else {
            return None;
        };
        Some(match (answer, no_match) {
            (_, Some(selector)) => {
                Err(format!("error: no {} matches {selector}", kind.map_or("objects", |k| k.resource())))
            }
            (Ok(rv), None) => Ok(*rv),
            (Err(status), None) => Err(status.to_string()),
        })
    }

    pub(super) fn kubectl(&mut self, entry: &str) {
        let (line, stdin) = entry.split_once('\n').unwrap_or((entry, ""));
        let at = self.world().steps();
        self.console.record((at, format!("$ {}", line.trim())));
        let printed = match crate::console::kubectl::run(line, stdin, self.world()) {
            crate::console::kubectl::Outcome::Output(text) | crate::console::kubectl::Outcome::Error(text) => text,
            crate::console::kubectl::Outcome::Watch(kind, namespace, text) => {
                self.act(world::Action::ConsoleWatch { kind, namespace });
                text
            }
            crate::console::kubectl::Outcome::Write(action, done) => {
                self.act(action);
                match self.write_failure() {
                    Some(Err(failure)) => failure,
                    _ => done,
                }
            }
        };
        self.console.record((at, printed));
    }

    /// The console's transcript up to the current step, with the rows its watches printed
    /// in between, in the order they came.
    pub fn console_text(&self) -> String {
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
            .map(|(step, text)| (*step, 0, text.clone()))
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
