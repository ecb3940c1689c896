//! A person's writes (and a scenario's timeline) as the cluster administrator: create,
//! update, scale, patch, delete, the console's `kubectl get -w`, and faults. Each is one step
//! from the user to the API server (or to the stage a fault hits). A timeline's reads are the
//! controller's: from its cache (reconciler → indexer) or through the APIReader (reconciler →
//! API server, with the controller's credentials), as is a timeline's `api-create` (the
//! controller's own Create, whose answer carries the object as stored).

use super::informer_cache::read_key;
use super::message::Intervention;
use super::outcome::{self, Outcome};
use super::{Hop, World};
use crate::cluster::storage::storage_key;
use crate::cluster::{ApiObject, Kind, Status, UserInfo};
use crate::controller::api_reader;
use crate::kernel::{Stage, TraceKind};

impl World {
    pub(super) fn deliver_action(&mut self, action: Intervention) -> Hop {
        use outcome::UserVerb;
        let admin = UserInfo::admin();
        // A manifest's kind is `None` when it names none the cluster serves: the API server
        // refuses it, and the trace says no kind rather than a wrong one.
        let write = |verb, key: String, kind: Option<Kind>, result: Result<ApiObject, Status>| {
            let answer = result.map(|o| if verb == UserVerb::Delete { 0 } else { o.resource_version() });
            (TraceKind::ApiWrite, key, Outcome::UserWrite { verb, kind, answer, no_match: None })
        };
        let (mut from, mut to) = (Stage::User, Stage::ApiServer);
        let (kind, key, outcome) = match action {
            Intervention::Outside(request) => match super::outside::outside_server() {
                Some(server) => return (server.request)(self, *request),
                // Unreachable in a page without live mode: nothing else makes outside requests.
                None => {
                    let (verb, kind, key) = request.call.target();
                    let (user, dry_run) = (request.user.name.clone(), request.dry_run);
                    let outcome = Outcome::Outside { user, verb, kind, code: Some(503), dry_run };
                    return Hop::new(from, to, TraceKind::RequestFailed, &key, 0, outcome);
                }
            },
            // Made when acted; never scheduled (`World::act`, `World::act_at`).
            Intervention::Served(change) => {
                self.served_change(change);
                return Hop::new(from, to, TraceKind::ApiRead, "", 0, Outcome::NothingQueued);
            }
            Intervention::Create(obj) => {
                let (key, kind) = (obj.key(), obj.kind());
                write(UserVerb::Create, key, kind, self.api.create(&admin, obj))
            }
            Intervention::Update(obj) => {
                let (key, kind) = (obj.key(), obj.kind());
                write(UserVerb::Update, key, kind, self.user_update(obj))
            }
            Intervention::Scale { kind, namespace, name, replicas } => {
                let key = format!("{namespace}/{name}");
                let result = self.api.get(&admin, kind, &namespace, &name, "").and_then(|mut obj| {
                    if let Some(spec) = obj.body.get_mut("spec").and_then(|s| s.as_object_mut()) {
                        spec.insert("replicas".into(), replicas.into());
                    }
                    self.user_update(obj)
                });
                write(UserVerb::Scale, key, Some(kind), result)
            }
            Intervention::Patch { kind, namespace, name, set, labels } => {
                let key = format!("{namespace}/{name}");
                let result = self.api.get(&admin, kind, &namespace, &name, "").and_then(|mut obj| {
                    obj.body.extend(set);
                    obj.metadata.labels.extend(labels);
                    self.user_update(obj)
                });
                write(UserVerb::Patch, key, Some(kind), result)
            }
            Intervention::PatchStatus { kind, namespace, name, status } => {
                let key = format!("{namespace}/{name}");
                let result = self.api.get(&admin, kind, &namespace, &name, "").and_then(|mut obj| {
                    obj.body.insert("status".into(), status);
                    self.api.update_status(&admin, obj)
                });
                write(UserVerb::UpdateStatus, key, Some(kind), result)
            }
            Intervention::DeleteFirst { kind, namespace, selector } => {
                let opts = crate::cluster::ListOptions {
                    namespace: Some(namespace.clone()),
                    label_selector: selector.clone(),
                    ..Default::default()
                };
                match self.api.peek_list(&admin, kind, &opts).map(|l| l.items.into_iter().next()) {
                    Ok(Some(obj)) => {
                        let key = obj.key();
                        write(
                            UserVerb::Delete,
                            key,
                            Some(kind),
                            self.api.delete(&admin, kind, &namespace, &obj.metadata.name),
                        )
                    }
                    Ok(None) => (
                        TraceKind::ApiWrite,
                        String::new(),
                        Outcome::UserWrite {
                            verb: UserVerb::Delete,
                            kind: Some(kind),
                            answer: Ok(0),
                            no_match: Some(selector),
                        },
                    ),
                    Err(e) => write(UserVerb::Delete, String::new(), Some(kind), Err(e)),
                }
            }
            Intervention::ConsoleWatch { kind, namespace } => {
                let opts = crate::cluster::WatchOptions {
                    namespace,
                    resource_version: self.api.store().revision().to_string(),
                    ..Default::default()
                };
                let answer = self.api.watch(&admin, kind, &opts);
                if let Ok(id) = answer {
                    self.console.watch(id, kind);
                }
                let trace_kind = if answer.is_ok() { TraceKind::WatchRequest } else { TraceKind::RequestFailed };
                (trace_kind, String::new(), Outcome::ConsoleWatch { kind, answer })
            }
            Intervention::UpdateStatus(obj) => {
                let (key, kind) = (obj.key(), obj.kind());
                write(UserVerb::UpdateStatus, key, kind, self.api.update_status(&admin, obj))
            }
            Intervention::Delete { kind, namespace, name } => {
                let key = format!("{namespace}/{name}");
                write(UserVerb::Delete, key, Some(kind), self.api.delete(&admin, kind, &namespace, &name))
            }
            Intervention::CacheRead(read) if self.config.disable_for.contains(&read.kind()) => {
                from = Stage::Reconciler;
                let user = self.controller_user().clone();
                let answer = api_reader::read(&mut self.api, &user, &read);
                (TraceKind::ApiRead, read_key(&read), Outcome::ApiRead { read, answer, uncached: true })
            }
            Intervention::CacheRead(read) => {
                (from, to) = (Stage::Reconciler, Stage::Indexer);
                let key = read_key(&read);
                (TraceKind::CacheRead, key, self.cache_read_step(read))
            }
            Intervention::CacheMutate { kind, namespace, name, labels } => {
                (from, to) = (Stage::Reconciler, Stage::Indexer);
                let key = format!("{namespace}/{name}");
                let outcome = self.cache_mutate_step(kind, &key, labels);
                (TraceKind::CacheRead, key, outcome)
            }
            Intervention::ApiCreate(obj) => {
                from = Stage::Reconciler;
                let (key, kind) = (obj.key(), obj.kind());
                let user = self.controller_user().clone();
                write(UserVerb::Create, key, kind, self.api.create(&user, obj))
            }
            Intervention::ApiRead(read) => {
                from = Stage::Reconciler;
                let user = self.controller_user().clone();
                let answer = api_reader::read(&mut self.api, &user, &read);
                (TraceKind::ApiRead, read_key(&read), Outcome::ApiRead { read, answer, uncached: false })
            }
            Intervention::Fault(fault) => {
                to = fault.stage();
                let effect = self.inject(fault.clone());
                (TraceKind::Fault, String::new(), Outcome::Fault { fault, effect })
            }
        };
        self.flush_watch_events();
        let rv = match &outcome {
            Outcome::UserWrite { answer: Ok(rv), .. } => *rv,
            _ => 0,
        };
        Hop::new(from, to, kind, &key, rv, outcome)
    }

    /// A user's update; a spec change starts the clock for the status-latency figure.
    fn user_update(&mut self, obj: ApiObject) -> Result<ApiObject, Status> {
        let generation_before = obj.kind().and_then(|kind| {
            let cache = self.api.watch_cache(kind)?;
            cache.get(&storage_key(kind, &obj.metadata.namespace, &obj.metadata.name)).map(|o| o.metadata.generation)
        });
        let result = self.api.update(&UserInfo::admin(), obj);
        if let (Some(before), Ok(new)) = (generation_before, &result) {
            if new.metadata.generation > before {
                self.status_clock.spec_written(new, self.now);
            }
        }
        result
    }
}
