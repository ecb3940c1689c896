//! Scenarios: named, reproducible lessons written as data (DESIGN "Scenarios are data").
//!
//! A scenario file is parsed and checked ([`Scenario::parse`]: every error names the file,
//! the field and what was expected), turned into a world with its timeline scheduled
//! ([`Scenario::world`]), run ([`run`]) and judged by its expectations. Narration notes and
//! questions are attached to steps or to the first step that matches a trace condition.

pub mod format;
pub mod library;

pub use format::{Expectation, Lang, Scenario, Text};

use crate::cluster::{ApiObject, KeyRange, Kind};
use crate::sim::TraceEvent;
use crate::world::{Action, Fault, World, WorldConfig};
use format::{ControllerSpec, Event, Trigger};

/// A problem with a scenario file, as the author should read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError(pub String);

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn kind(file: &str, field: &str, name: &str) -> Result<Kind, ScenarioError> {
    Kind::parse(name).filter(|k| k.name() == name).ok_or_else(|| {
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        ScenarioError(format!("{file}: {field}: unknown kind {name:?}, expected one of {}", kinds.join(", ")))
    })
}

fn fault(file: &str, field: &str, name: &str) -> Result<Fault, ScenarioError> {
    Ok(match name {
        "disconnect-watch" => Fault::DisconnectWatch,
        "compact-store" => Fault::CompactStore,
        "restart-api-server" => Fault::RestartApiServer,
        "revoke-list" => Fault::Revoke("list".into()),
        "revoke-watch" => Fault::Revoke("watch".into()),
        "grant-list" => Fault::Grant("list".into()),
        "grant-watch" => Fault::Grant("watch".into()),
        "drop-next-event" => Fault::DropNextEvent,
        other => {
            return Err(ScenarioError(format!(
                "{file}: {field}: unknown fault {other:?}, expected one of disconnect-watch, compact-store, restart-api-server, revoke-list, revoke-watch, grant-list, grant-watch, drop-next-event"
            )))
        }
    })
}

fn check_text(file: &str, field: &str, text: &Text) -> Result<(), ScenarioError> {
    for (lang, value) in [("ko", &text.ko), ("en", &text.en)] {
        if value.trim().is_empty() {
            return Err(ScenarioError(format!(
                "{file}: {field}.{lang}: expected text in {}, found none",
                if lang == "ko" { "Korean" } else { "English" }
            )));
        }
    }
    Ok(())
}

fn check_trigger(file: &str, field: &str, t: Trigger) -> Result<(), ScenarioError> {
    if t.at_step.is_none() && t.on.is_none() && t.contains.is_none() {
        return Err(ScenarioError(format!(
            "{file}: {field}: expected `at_step`, or `on` and/or `contains`, to say when it appears"
        )));
    }
    Ok(())
}

impl Scenario {
    /// Parses and checks a scenario file; `file` names it in every message.
    pub fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
        let scenario: Scenario = serde_json::from_str(text).map_err(|e| ScenarioError(format!("{file}: {e}")))?;
        scenario.check(file)?;
        Ok(scenario)
    }

    fn check(&self, file: &str) -> Result<(), ScenarioError> {
        if self.id.is_empty() || !self.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
            return Err(ScenarioError(format!(
                "{file}: id: expected lower-case letters, digits and '-', found {:?}",
                self.id
            )));
        }
        check_text(file, "title", &self.title)?;
        check_text(file, "summary", &self.summary)?;
        for (i, obj) in self.objects.iter().enumerate() {
            let field = format!("objects[{i}]");
            let parsed: ApiObject =
                serde_json::from_value(obj.clone()).map_err(|e| ScenarioError(format!("{file}: {field}: {e}")))?;
            kind(file, &format!("{field}.kind"), &parsed.kind)?;
        }
        let mut last = 0;
        for (i, event) in self.timeline.iter().enumerate() {
            let field = format!("timeline[{i}]");
            if event.at_ms() < last {
                return Err(ScenarioError(format!(
                    "{file}: {field}.at_ms: expected {} or later (the timeline is in time order), found {}",
                    last,
                    event.at_ms()
                )));
            }
            last = event.at_ms();
            self.action(file, &field, event)?;
        }
        for (i, note) in self.narration.iter().enumerate() {
            check_trigger(file, &format!("narration[{i}]"), note.trigger())?;
            check_text(file, &format!("narration[{i}].text"), &note.text)?;
        }
        for (i, q) in self.questions.iter().enumerate() {
            let field = format!("questions[{i}]");
            check_trigger(file, &field, q.trigger())?;
            check_text(file, &format!("{field}.ask"), &q.ask)?;
            check_text(file, &format!("{field}.explain"), &q.explain)?;
            if !(2..=4).contains(&q.choices.len()) {
                return Err(ScenarioError(format!(
                    "{file}: {field}.choices: expected 2 to 4 choices, found {}",
                    q.choices.len()
                )));
            }
            for (j, c) in q.choices.iter().enumerate() {
                check_text(file, &format!("{field}.choices[{j}]"), c)?;
            }
            if q.answer >= q.choices.len() {
                return Err(ScenarioError(format!(
                    "{file}: {field}.answer: expected a choice index below {}, found {}",
                    q.choices.len(),
                    q.answer
                )));
            }
        }
        for (i, e) in self.expect.iter().enumerate() {
            if let Expectation::Count { kind: k, .. } = e {
                kind(file, &format!("expect[{i}].kind"), k)?;
            }
        }
        self.config_for(file).map(|_| ())
    }

    /// The world action a timeline event stands for.
    fn action(&self, file: &str, field: &str, event: &Event) -> Result<Action, ScenarioError> {
        Ok(match event {
            Event::Create { object, .. } => {
                let obj: ApiObject = serde_json::from_value(object.clone())
                    .map_err(|e| ScenarioError(format!("{file}: {field}.object: {e}")))?;
                kind(file, &format!("{field}.object.kind"), &obj.kind)?;
                Action::Create(obj)
            }
            Event::Patch { kind: k, namespace, name, set, labels, .. } => Action::Patch {
                kind: kind(file, &format!("{field}.kind"), k)?,
                namespace: namespace.clone(),
                name: name.clone(),
                set: set.clone(),
                labels: labels.clone(),
            },
            Event::Delete { kind: k, namespace, name, .. } => Action::Delete {
                kind: kind(file, &format!("{field}.kind"), k)?,
                namespace: namespace.clone(),
                name: name.clone(),
            },
            Event::DeleteOne { kind: k, namespace, selector, .. } => Action::DeleteFirst {
                kind: kind(file, &format!("{field}.kind"), k)?,
                namespace: namespace.clone(),
                selector: selector.clone(),
            },
            Event::Scale { kind: k, namespace, name, replicas, .. } => Action::Scale {
                kind: kind(file, &format!("{field}.kind"), k)?,
                namespace: namespace.clone(),
                name: name.clone(),
                replicas: *replicas,
            },
            Event::Fault { fault: f, .. } => Action::Fault(fault(file, &format!("{field}.fault"), f)?),
            Event::Latency { ms, .. } => Action::Fault(Fault::Latency(*ms)),
        })
    }

    fn config_for(&self, file: &str) -> Result<WorldConfig, ScenarioError> {
        let c = &self.config;
        let mut config = match &c.controller {
            ControllerSpec::Observe { watch } => WorldConfig::new(kind(file, "config.controller.watch", watch)?),
            ControllerSpec::Replicas { owner, edge_triggered } => {
                let owner = kind(file, "config.controller.owner", owner)?;
                if !matches!(owner, Kind::Deployment | Kind::ReplicaSet) {
                    return Err(ScenarioError(format!(
                        "{file}: config.controller.owner: expected Deployment or ReplicaSet, found {owner}"
                    )));
                }
                WorldConfig::replicas(owner, *edge_triggered)
            }
            ControllerSpec::Stamp => WorldConfig::stamp(),
            ControllerSpec::Failing { failures } => {
                let mut config = WorldConfig::new(Kind::ConfigMap);
                config.controller.reconciler =
                    crate::controller::reconciler::ReconcilerKind::Failing { failures: *failures, terminal: false };
                config
            }
            ControllerSpec::Polling { watch, every_ms } => {
                WorldConfig::polling(kind(file, "config.controller.watch", watch)?, *every_ms)
            }
        };
        config.seed = self.seed;
        config.latency_ms = c.latency_ms;
        config.api.watch_cache = c.watch_cache;
        config.api.watch_cache_capacity = c.watch_cache_size.max(1);
        config.bookmark_interval_ms = c.bookmark_seconds * 1000;
        config.sync_period_ms = c.resync_seconds * 1000;
        config.controller.max_concurrent = c.max_concurrent.max(1);
        config.controller.reconcile_ms = c.reconcile_ms;
        if let (Some(every_ms), Some(first)) = (c.poll_every_ms, config.informers.first()) {
            config.poll = Some(crate::world::PollConfig { kind: first.reflector.kind, every_ms });
        }
        if let Some(verbs) = &c.rbac {
            config.granted_verbs = verbs.clone();
        }
        if let Some(first) = config.informers.first_mut() {
            first.reflector.namespace = c.namespace.clone();
            first.reflector.label_selector = c.label_selector.clone();
            first.indexes = c
                .indexes
                .iter()
                .map(|path| (format!("field:{path}"), crate::client::indexer::IndexFunc::Field(path.clone())))
                .collect();
        }
        Ok(config)
    }

    /// The scenario's world at step 0, its timeline scheduled.
    pub fn world(&self) -> Result<World, ScenarioError> {
        let file = format!("scenario {:?}", self.id);
        let config = self.config_for(&file)?;
        let mut objects = Vec::new();
        for (i, obj) in self.objects.iter().enumerate() {
            objects.push(
                serde_json::from_value(obj.clone()).map_err(|e| ScenarioError(format!("{file}: objects[{i}]: {e}")))?,
            );
        }
        objects.extend((0..self.load_pods).map(|i| {
            ApiObject::new(Kind::Pod, "load", &format!("load-{i:05}"))
                .with_label("app", "load")
                .with("spec", serde_json::json!({"nodeName": format!("node-{}", i % 100), "containers": [{"name": "main", "image": "busybox:1.36"}]}))
        }));
        let mut world = World::new(config, objects).map_err(|e| ScenarioError(format!("{file}: objects: {e}")))?;
        for (i, event) in self.timeline.iter().enumerate() {
            world.act_at(event.at_ms(), self.action(&file, &format!("timeline[{i}]"), event)?);
        }
        Ok(world)
    }
}

/// Whether a trace event fires a trigger.
pub fn fires(trigger: &Trigger, event: &TraceEvent) -> bool {
    match trigger.at_step {
        Some(step) => event.step == step,
        None => {
            trigger.on.is_none_or(|on| event.kind.name().eq_ignore_ascii_case(on))
                && trigger.contains.is_none_or(|text| event.summary.contains(text))
        }
    }
}

/// The narration note in force after `trace`: the latest one whose trigger fired, with the
/// step it fired at.
pub fn note_at<'a>(scenario: &'a Scenario, trace: &[TraceEvent]) -> Option<(u64, &'a format::Note)> {
    scenario
        .narration
        .iter()
        .filter_map(|note| trace.iter().find(|e| fires(&note.trigger(), e)).map(|e| (e.step, note)))
        .max_by_key(|(step, _)| *step)
}

/// The outcome of one expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub expectation: String,
    pub met: bool,
    pub detail: String,
}

fn within(n: u64, at_least: Option<u64>, at_most: Option<u64>) -> bool {
    at_least.is_none_or(|min| n >= min) && at_most.is_none_or(|max| n <= max)
}

/// Judges the expectations against a finished run.
pub fn judge(scenario: &Scenario, world: &World, trace: &[TraceEvent]) -> Vec<Verdict> {
    scenario
        .expect
        .iter()
        .map(|e| {
            let (met, detail) = match e {
                Expectation::TraceContains { text } => {
                    let hit = trace.iter().find(|t| t.summary.contains(text.as_str()));
                    (hit.is_some(), hit.map_or("no step says it".into(), |t| format!("step {}", t.step)))
                }
                Expectation::TraceLacks { text } => {
                    let hit = trace.iter().find(|t| t.summary.contains(text.as_str()));
                    (hit.is_none(), hit.map_or("no step says it".into(), |t| format!("step {} says it", t.step)))
                }
                Expectation::LogContains { text } => {
                    let found = world.log_lines().iter().any(|l| l.contains(text.as_str()));
                    (found, format!("{} log lines", world.log_lines().len()))
                }
                Expectation::CacheMatchesStore => match world.informers.first() {
                    Some(stack) => {
                        // What the store holds within the informer's scope, as a fresh LIST sees it.
                        let scope = &stack.config.reflector;
                        let opts = crate::cluster::ListOptions {
                            namespace: scope.namespace.clone(),
                            label_selector: scope.label_selector.clone(),
                            field_selector: scope.field_selector.clone(),
                            ..Default::default()
                        };
                        let stored: Vec<(String, String)> = world
                            .api
                            .peek_list(&crate::cluster::UserInfo::admin(), scope.kind, &opts)
                            .map(|l| l.items.iter().map(|o| (o.key(), o.metadata.resource_version.clone())).collect())
                            .unwrap_or_default();
                        let cached: Vec<(String, String)> = stack
                            .informer
                            .indexer
                            .objects()
                            .map(|o| (o.key(), o.metadata.resource_version.clone()))
                            .collect();
                        (stored == cached, format!("store {} objects, cache {}", stored.len(), cached.len()))
                    }
                    None => (false, "no informer".into()),
                },
                Expectation::Count { kind: k, owner, equals } => {
                    let k = Kind::parse(k).unwrap_or(Kind::Pod);
                    let prefix = format!("/registry/{}/", k.resource());
                    let n = world
                        .api
                        .store()
                        .range(&KeyRange::prefix(prefix), 0, 0)
                        .map(|r| {
                            r.kvs
                                .iter()
                                .filter_map(|kv| ApiObject::from_json(&kv.value).ok())
                                .filter(|o| {
                                    owner
                                        .as_ref()
                                        .is_none_or(|name| o.metadata.owner_references.iter().any(|r| &r.name == name))
                                })
                                .count()
                        })
                        .unwrap_or(0);
                    (n == *equals, format!("{n}"))
                }
                Expectation::Requests { verb, at_least, at_most } => {
                    let n = world.costs().requests.get(verb.as_str()).copied().unwrap_or(0);
                    (within(n, *at_least, *at_most), format!("{n}"))
                }
                Expectation::CacheList { namespace, field, value, labels, found, examined_at_most, error } => {
                    let mut world = world.clone();
                    let kind = world.informers.first().map_or(Kind::Pod, |s| s.config.reflector.kind);
                    let opts = crate::controller::cache_reader::CacheList {
                        namespace: namespace.clone(),
                        labels: crate::cluster::selector::LabelSelector::parse(labels.as_deref().unwrap_or_default())
                            .unwrap_or_default(),
                        field: field.clone().zip(value.clone()),
                    };
                    match (world.cache_list(kind, &opts), error) {
                        (Err(e), Some(want)) => (e.to_string() == *want, e.to_string()),
                        (Err(e), None) => (false, e.to_string()),
                        (Ok(items), Some(_)) => (false, format!("found {} objects", items.len())),
                        (Ok(items), None) => {
                            let examined = world.informers[0].informer.indexer.last_scanned;
                            let ok = found.is_none_or(|n| n == items.len())
                                && examined_at_most.is_none_or(|n| examined <= n);
                            (ok, format!("found {}, examined {examined}", items.len()))
                        }
                    }
                }
                Expectation::CacheGet { kind: k, namespace, name, error } => {
                    let mut world = world.clone();
                    let k = Kind::parse(k).unwrap_or(Kind::Pod);
                    match (world.cache_get(k, namespace, name), error) {
                        (Ok(_), None) => (true, "found".into()),
                        (Ok(_), Some(_)) => (false, "found".into()),
                        (Err(e), Some(want)) => (e.to_string() == *want, e.to_string()),
                        (Err(e), None) => (false, e.to_string()),
                    }
                }
                Expectation::Reconciles { at_least, at_most } => {
                    (within(world.reconciles, *at_least, *at_most), format!("{}", world.reconciles))
                }
            };
            Verdict { expectation: format!("{e:?}"), met, detail }
        })
        .collect()
}

/// Runs a scenario to its end: its world, trace and verdicts.
pub fn run(scenario: &Scenario) -> Result<(World, Vec<TraceEvent>, Vec<Verdict>), ScenarioError> {
    let mut world = scenario.world()?;
    let until = scenario.run.until_ms;
    // Everything up to `until_ms` happens; the run stops before the first message after it.
    let trace = world.run_until(scenario.run.max_steps, |_, w| w.next_time().is_none_or(|t| t > until));
    let verdicts = judge(scenario, &world, &trace);
    Ok((world, trace, verdicts))
}
