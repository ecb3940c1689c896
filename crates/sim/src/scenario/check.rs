//! Checking a scenario file: every field of every part, with a message that names the file,
//! the field and what was expected, so that `validate` refuses whatever `run` cannot run and
//! every check can fail.

use super::format::{
    is_id, ControllerSpec, Event, Expectation, GetRead, ListRead, Note, Question, Recap, Scenario, Text, MAX_ID,
};
use super::pattern::Pattern;
use super::ScenarioError;
use crate::client::transform::Transform;
use crate::cluster::selector::{FieldSelector, LabelSelector};
use crate::cluster::{ApiObject, Kind};
use crate::controller::cache_reader::ClientRead;
use crate::limits;
use crate::world::{Fault, Intervention, WorldConfig};

pub(super) fn kind(file: &str, field: &str, name: &str) -> Result<Kind, ScenarioError> {
    Kind::parse(name).filter(|k| k.name() == name).ok_or_else(|| {
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        ScenarioError::at(file, field, format!("unknown kind {name:?}, expected one of {}", kinds.join(", ")))
    })
}

/// The first thing outside code that reads as an HTML or XML tag (`<b>`, `</p>`, `<!--`):
/// a lesson's text is shown as text, so markup in it would show as written, or mislead.
fn markup_in(text: &str) -> Option<String> {
    super::marked::runs(text).into_iter().find_map(|run| {
        let super::marked::Run::Prose(prose) = run else { return None };
        let at = prose.match_indices('<').map(|(i, _)| i).find(|&i| {
            prose[i + 1..].chars().next().is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?'))
        })?;
        Some(prose[at..].chars().take_while(|&c| c != '>').chain(['>']).take(40).collect())
    })
}

fn check_text(file: &str, field: &str, text: &Text) -> Result<(), ScenarioError> {
    for (lang, value) in [("ko", &text.ko), ("en", &text.en)] {
        if value.trim().is_empty() {
            return Err(ScenarioError::at(
                file,
                format!("{field}.{lang}"),
                format!("expected text in {}, found none", if lang == "ko" { "Korean" } else { "English" }),
            ));
        }
        if let Some(tag) = markup_in(value) {
            return Err(ScenarioError::at(
                file,
                format!("{field}.{lang}"),
                format!("expected plain text (it is shown as text, code between backticks), found markup {tag:?}"),
            ));
        }
    }
    Ok(())
}

fn bounds(file: &str, field: &str, at_least: Option<u64>, at_most: Option<u64>) -> Result<(), ScenarioError> {
    match (at_least, at_most) {
        (None, None) => Err(ScenarioError::at(
            file,
            field,
            "expected `at_least` and/or `at_most`: a check without a bound cannot fail",
        )),
        (Some(min), Some(max)) if min > max => Err(ScenarioError::at(
            file,
            format!("{field}.at_least"),
            format!("expected at most `at_most` ({max}), found {min}: no run can meet it"),
        )),
        _ => Ok(()),
    }
}

fn label_selector(file: &str, field: &str, text: &str) -> Result<LabelSelector, ScenarioError> {
    LabelSelector::parse(text).map_err(|e| ScenarioError::at(file, field, e.message.clone()))
}

/// `indexed`: the names of the lesson's indexes over a computed value, which a cached List may
/// match as it matches a field.
fn check_expectation(file: &str, field: &str, e: &Expectation, indexed: &[&str]) -> Result<(), ScenarioError> {
    match e {
        Expectation::Steps { pattern, at_least, at_most } => {
            Pattern::resolve(file, &format!("{field}.match"), pattern)?;
            bounds(file, field, *at_least, *at_most)
        }
        Expectation::LogContains { text } if text.trim().is_empty() => Err(ScenarioError::at(
            file,
            format!("{field}.text"),
            "expected the text of a log line, found none (it would match every line)",
        )),
        Expectation::LogContains { .. } | Expectation::CacheMatchesStore => Ok(()),
        Expectation::Count { .. } => Ok(()),
        Expectation::Requests { at_least, at_most, .. } => bounds(file, field, *at_least, *at_most),
        Expectation::Reconciles { at_least, at_most }
        | Expectation::CacheBytes { at_least, at_most }
        | Expectation::IndexEntries { at_least, at_most } => bounds(file, field, *at_least, *at_most),
        Expectation::CacheList {
            field: path,
            value,
            labels,
            found,
            examined_at_least,
            examined_at_most,
            error,
            ..
        } => {
            if path.is_some() != value.is_some() {
                return Err(ScenarioError::at(
                    file,
                    field,
                    "expected both `field` and `value` (an exact field match), or neither",
                ));
            }
            // A server field of Pods, a label indexed by hand (`metadata.labels.<key>`), or an
            // index over a computed value the lesson names.
            let by_hand =
                |p: &&String| p.starts_with(crate::cluster::api_object::LABELS) || indexed.contains(&p.as_str());
            if let Some(path) = path.as_ref().filter(|p| !by_hand(p)) {
                FieldSelector::parse(&format!("{path}=x"), Kind::Pod)
                    .map_err(|e| ScenarioError::at(file, format!("{field}.field"), e.message.clone()))?;
            }
            if let Some(labels) = labels {
                label_selector(file, &format!("{field}.labels"), labels)?;
            }
            if error.is_none() && found.is_none() && examined_at_least.is_none() && examined_at_most.is_none() {
                return Err(ScenarioError::at(
                    file,
                    field,
                    "expected `found`, `examined_at_least`, `examined_at_most` or `error`: a check that states nothing cannot fail",
                ));
            }
            Ok(())
        }
        Expectation::CacheGet { error, lacks, has, .. } => {
            for (name, pointer) in [("lacks", lacks), ("has", has)] {
                let Some(p) = pointer else { continue };
                if error.is_some() {
                    return Err(ScenarioError::at(
                        file,
                        format!("{field}.{name}"),
                        format!("expected `{name}` only on a Get that finds its object, not with `error`"),
                    ));
                }
                if !p.starts_with('/') {
                    return Err(ScenarioError::at(
                        file,
                        format!("{field}.{name}"),
                        format!("expected a JSON pointer (it starts with /), found {p:?}"),
                    ));
                }
            }
            Ok(())
        }
    }
}

/// What a text claims the run shows: checks like the expectations, or a reason for none, not
/// both.
fn check_claims(
    file: &str,
    field: &str,
    claims: &[Expectation],
    none: Option<&str>,
    indexed: &[&str],
) -> Result<(), ScenarioError> {
    if let Some(why) = none {
        let what = match (claims.is_empty(), why.trim().is_empty()) {
            (false, _) => "expected `claims` or `claims_none`, found both",
            (true, true) => "expected why the text claims nothing the run shows, found no words",
            (true, false) => return Ok(()),
        };
        return Err(ScenarioError::at(file, format!("{field}.claims_none"), what));
    }
    for (i, e) in claims.iter().enumerate() {
        check_expectation(file, &format!("{field}.claims[{i}]"), e, indexed)?;
    }
    Ok(())
}

fn check_recap(file: &str, field: &str, recap: Option<&Recap>, indexed: &[&str]) -> Result<(), ScenarioError> {
    let Some(recap) = recap else { return Ok(()) };
    check_text(file, field, &recap.text())?;
    check_claims(file, field, &recap.claims, recap.claims_none.as_deref(), indexed)
}

/// The notes, questions and expectations of a lesson, or of one release of it (`prefix`
/// names where they are: `""` or `eras["1.30"].`).
fn check_part(
    file: &str,
    prefix: &str,
    narration: &[Note],
    questions: &[Question],
    expect: &[Expectation],
    indexed: &[&str],
) -> Result<(), ScenarioError> {
    for (i, note) in narration.iter().enumerate() {
        Pattern::resolve(file, &format!("{prefix}narration[{i}].match"), &note.when)?;
        check_text(file, &format!("{prefix}narration[{i}].text"), &note.text)?;
        check_claims(file, &format!("{prefix}narration[{i}]"), &note.claims, note.claims_none.as_deref(), indexed)?;
        for (j, line) in note.offer.iter().enumerate() {
            if !line.starts_with("kubectl ") || line.len() > limits::MAX_CONSOLE_BYTES {
                return Err(ScenarioError::at(
                    file,
                    format!("{prefix}narration[{i}].offer[{j}]"),
                    format!(
                        "expected a console line starting with `kubectl ` of at most {} bytes, found {line:?}",
                        limits::MAX_CONSOLE_BYTES
                    ),
                ));
            }
        }
    }
    for (i, q) in questions.iter().enumerate() {
        let field = format!("{prefix}questions[{i}]");
        Pattern::resolve(file, &format!("{field}.match"), &q.when)?;
        check_text(file, &format!("{field}.ask"), &q.ask)?;
        check_text(file, &format!("{field}.explain"), &q.explain)?;
        if let Some(at) = &q.explain_at {
            Pattern::resolve(file, &format!("{field}.explain_at"), at)?;
        }
        check_claims(file, &field, &q.claims, q.claims_none.as_deref(), indexed)?;
        if !(2..=4).contains(&q.choices.len()) {
            return Err(ScenarioError::at(
                file,
                format!("{field}.choices"),
                format!("expected 2 to 4 choices, found {}", q.choices.len()),
            ));
        }
        for (j, c) in q.choices.iter().enumerate() {
            check_text(file, &format!("{field}.choices[{j}]"), c)?;
        }
        if q.answer >= q.choices.len() {
            return Err(ScenarioError::at(
                file,
                format!("{field}.answer"),
                format!("expected a choice index below {}, found {}", q.choices.len(), q.answer),
            ));
        }
    }
    for (i, e) in expect.iter().enumerate() {
        check_expectation(file, &format!("{prefix}expect[{i}]"), e, indexed)?;
    }
    Ok(())
}

/// Why `id` cannot name a lesson or a challenge.
fn not_an_id(id: &str) -> String {
    format!("expected 1 to {MAX_ID} lower-case letters, digits and '-', found {id:?}")
}

impl Scenario {
    /// Parses and checks a scenario file, building its cluster in every release it runs in;
    /// `file` names it in every message.
    pub fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
        let scenario = Scenario::read(file, text)?;
        // What `run` would do first: build the cluster, in every release the lesson runs in.
        // Duplicate objects, invalid names, a resourceVersion set on a manifest, … are refused
        // here with the API server's words.
        for era in scenario.declared_eras() {
            scenario.in_era(era).map(|told| told.world_named(file)).transpose()?;
        }
        Ok(scenario)
    }

    /// Parses and checks a scenario file without building its cluster: for the bundled
    /// lessons, which the tests build in every era (`tests/scenarios.rs`), so that opening
    /// the page does not build them all.
    pub fn read(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
        let scenario = parse(file, text)?;
        scenario.check(file)?;
        Ok(scenario)
    }

    /// The names of the lesson's indexes over a computed value.
    fn computed_indexes(&self) -> Vec<&str> {
        self.config.owner_indexes.iter().map(|o| o.name.as_str()).collect()
    }

    fn check(&self, file: &str) -> Result<(), ScenarioError> {
        if !is_id(&self.id) {
            return Err(ScenarioError::at(file, "id", not_an_id(&self.id)));
        }
        check_text(file, "title", &self.title)?;
        check_text(file, "summary", &self.summary)?;
        for (i, obj) in self.objects.iter().enumerate() {
            let field = &format!("objects[{i}]");
            limits::check_value(obj, obj.to_string().len())
                .map_err(|e| ScenarioError::at(file, field, e.to_string()))?;
            let parsed: ApiObject =
                serde_json::from_value(obj.clone()).map_err(|e| ScenarioError::at(file, field, e.to_string()))?;
            limits::check_object(&parsed).map_err(|e| ScenarioError::at(file, field, e.to_string()))?;
            kind(file, &format!("{field}.kind"), &parsed.kind)?;
        }
        let mut last = 0;
        for (i, event) in self.timeline.iter().enumerate() {
            let field = format!("timeline[{i}]");
            if event.at_ms() < last {
                return Err(ScenarioError::at(
                    file,
                    format!("{field}.at_ms"),
                    format!("expected {} or later (the timeline is in time order), found {}", last, event.at_ms()),
                ));
            }
            last = event.at_ms();
            self.action(file, &field, event)?;
        }
        let indexed = self.computed_indexes();
        check_part(file, "", &self.narration, &self.questions, &self.expect, &indexed)?;
        check_recap(file, "recap", self.recap.as_ref(), &indexed)?;
        for (era, part) in &self.eras {
            let prefix = format!("eras[\"{era}\"].");
            check_part(file, &prefix, &part.narration, &part.questions, &part.expect, &indexed)?;
            if let Some(title) = &part.title {
                check_text(file, &format!("{prefix}title"), title)?;
            }
            if let Some(summary) = &part.summary {
                check_text(file, &format!("{prefix}summary"), summary)?;
            }
            check_recap(file, &format!("{prefix}recap"), part.recap.as_ref(), &indexed)?;
        }
        self.check_challenges(file)?;
        self.check_numbers(file)?;
        self.config_for(file)?;
        Ok(())
    }

    /// A challenge's words, goal and moves, as written (whether its solution meets its goal
    /// and its start does not is `crate::session::challenge_problems`'s, which plays them).
    fn check_challenges(&self, file: &str) -> Result<(), ScenarioError> {
        let mut ids = std::collections::BTreeSet::new();
        for (i, c) in self.challenges.iter().enumerate() {
            let field = format!("challenges[{i}]");
            if !is_id(&c.id) {
                return Err(ScenarioError::at(file, format!("{field}.id"), not_an_id(&c.id)));
            }
            if !ids.insert(&c.id) {
                return Err(ScenarioError::at(file, format!("{field}.id"), format!("{:?} is used twice", c.id)));
            }
            check_text(file, &format!("{field}.task"), &c.task)?;
            check_text(file, &format!("{field}.solved"), &c.solved)?;
            for (h, hint) in c.hints.iter().enumerate() {
                check_text(file, &format!("{field}.hints[{h}]"), hint)?;
            }
            if c.goal.is_empty() {
                return Err(ScenarioError::at(file, format!("{field}.goal"), "expected a check or more, found none"));
            }
            for (g, e) in c.goal.iter().enumerate() {
                check_expectation(file, &format!("{field}.goal[{g}]"), e, &self.computed_indexes())?;
            }
            if c.solution.is_empty() {
                return Err(ScenarioError::at(
                    file,
                    format!("{field}.solution"),
                    "expected a move or more, found none",
                ));
            }
            for (m, mv) in c.solution.iter().enumerate() {
                mv.kind().map_err(|why| ScenarioError::at(file, format!("{field}.solution[{m}]"), why))?;
            }
        }
        Ok(())
    }

    /// Every number within the playground's limits (`crate::limits`).
    fn check_numbers(&self, file: &str) -> Result<(), ScenarioError> {
        let c = &self.config;
        let over = |field: &str, value: u64, max: u64| -> Result<(), ScenarioError> {
            if value > max {
                return Err(ScenarioError::at(
                    file,
                    field,
                    format!("expected at most {max} (the playground's limit), found {value}"),
                ));
            }
            Ok(())
        };
        let under = |field: &str, value: u64, min: u64, what: &str| -> Result<(), ScenarioError> {
            if value < min {
                return Err(ScenarioError::at(file, field, format!("expected at least {min} ({what}), found {value}")));
            }
            Ok(())
        };
        over("run.until_ms", self.run.until_ms, limits::MAX_RUN_MS)?;
        over("run.max_steps", self.run.max_steps, limits::MAX_STEPS)?;
        over("load_pods", self.load_pods as u64, limits::MAX_LOAD as u64)?;
        if let Some(labelled) = &self.load_labels {
            under("load_labels.every", labelled.every as u64, 1, "one Pod in every so many")?;
            if labelled.labels.is_empty() {
                return Err(ScenarioError::at(file, "load_labels.labels", "expected a label or more, found none"));
            }
        }
        over("config.latency_ms", c.latency_ms, limits::MAX_LATENCY_MS)?;
        over("config.cache_start_ms", c.cache_start_ms, limits::MAX_RUN_MS)?;
        under("config.max_concurrent", c.max_concurrent as u64, 1, "one worker or more")?;
        over("config.max_concurrent", c.max_concurrent as u64, limits::MAX_WORKERS as u64)?;
        under("config.watch_cache_size", c.watch_cache_size as u64, 1, "a window of one event or more")?;
        over("config.watch_cache_size", c.watch_cache_size as u64, limits::MAX_WATCH_CACHE as u64)?;
        over("config.reconcile_ms", c.reconcile_ms, limits::MAX_RECONCILE_MS)?;
        over("config.resync_seconds", c.resync_seconds, limits::MAX_RESYNC_SECONDS)?;
        over("config.bookmark_seconds", c.bookmark_seconds, limits::MAX_RESYNC_SECONDS)?;
        if let Some(ms) = c.poll_every_ms {
            under("config.poll_every_ms", ms, limits::MIN_POLL_MS, "time must move between polls")?;
        }
        if let ControllerSpec::Polling { every_ms, .. } = &c.controller {
            under("config.controller.every_ms", *every_ms, limits::MIN_POLL_MS, "time must move between polls")?;
        }
        over("timeline", self.timeline.len() as u64, limits::MAX_TIMELINE as u64)?;
        for (i, event) in self.timeline.iter().enumerate() {
            over(&format!("timeline[{i}].at_ms"), event.at_ms(), limits::MAX_RUN_MS)?;
            match event {
                Event::Scale { replicas, .. } if *replicas < 0 => {
                    return Err(ScenarioError::at(
                        file,
                        format!("timeline[{i}].replicas"),
                        format!("expected 0 or more, found {replicas}"),
                    ))
                }
                Event::Scale { replicas, .. } => {
                    over(&format!("timeline[{i}].replicas"), *replicas as u64, limits::MAX_REPLICAS as u64)?
                }
                Event::Latency { ms, .. } => over(&format!("timeline[{i}].ms"), *ms, limits::MAX_LATENCY_MS)?,
                Event::Create { object, .. } | Event::ApiCreate { object, .. } => {
                    let obj: ApiObject = serde_json::from_value(object.clone())
                        .map_err(|e| ScenarioError::at(file, format!("timeline[{i}].object"), e.to_string()))?;
                    limits::check_object(&obj)
                        .map_err(|e| ScenarioError::at(file, format!("timeline[{i}].object"), e.to_string()))?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The world action a timeline event stands for.
    pub(super) fn action(&self, file: &str, field: &str, event: &Event) -> Result<Intervention, ScenarioError> {
        Ok(match event {
            Event::Create { object, .. } | Event::ApiCreate { object, .. } => {
                let obj: ApiObject = serde_json::from_value(object.clone())
                    .map_err(|e| ScenarioError::at(file, format!("{field}.object"), e.to_string()))?;
                kind(file, &format!("{field}.object.kind"), &obj.kind)?;
                match event {
                    Event::ApiCreate { .. } => Intervention::ApiCreate(obj),
                    _ => Intervention::Create(obj),
                }
            }
            Event::Patch { kind: k, namespace, name, set, labels, .. } => Intervention::Patch {
                kind: *k,
                namespace: namespace.clone(),
                name: name.clone(),
                set: set.clone(),
                labels: labels.clone(),
            },
            Event::CacheMutate { kind: k, namespace, name, labels, .. } => Intervention::CacheMutate {
                kind: *k,
                namespace: namespace.clone(),
                name: name.clone(),
                labels: labels.clone(),
            },
            Event::PatchStatus { kind: k, namespace, name, status, .. } => Intervention::PatchStatus {
                kind: *k,
                namespace: namespace.clone(),
                name: name.clone(),
                status: status.clone(),
            },
            Event::Delete { kind: k, namespace, name, .. } => {
                Intervention::Delete { kind: *k, namespace: namespace.clone(), name: name.clone() }
            }
            Event::DeleteOne { kind: k, namespace, selector, .. } => {
                Intervention::DeleteFirst { kind: *k, namespace: namespace.clone(), selector: selector.clone() }
            }
            Event::Scale { kind: k, namespace, name, replicas, .. } => {
                Intervention::Scale { kind: *k, namespace: namespace.clone(), name: name.clone(), replicas: *replicas }
            }
            Event::Fault { fault, .. } => Intervention::Fault(fault.0.clone()),
            Event::Latency { ms, .. } => Intervention::Fault(Fault::Latency(*ms)),
            Event::CacheGet(read) => Intervention::CacheRead(get_read(read)),
            Event::CacheList(read) => Intervention::CacheRead(list_read(file, field, read)?),
            Event::ApiGet(read) => Intervention::ApiRead(get_read(read)),
            Event::ApiList(read) => Intervention::ApiRead(list_read(file, field, read)?),
        })
    }

    pub(super) fn config_for(&self, file: &str) -> Result<WorldConfig, ScenarioError> {
        let c = &self.config;
        let mut config = match &c.controller {
            ControllerSpec::Observe { watch } => WorldConfig::new(*watch),
            ControllerSpec::Replicas { owner, edge_triggered } => {
                let owner = *owner;
                if !matches!(owner, Kind::Deployment | Kind::ReplicaSet) {
                    return Err(ScenarioError::at(
                        file,
                        "config.controller.owner",
                        format!("expected Deployment or ReplicaSet, found {owner}"),
                    ));
                }
                WorldConfig::replicas(owner, *edge_triggered)
            }
            ControllerSpec::Stamp => WorldConfig::stamp(),
            ControllerSpec::Failing { failures } => {
                let mut config = WorldConfig::new(Kind::ConfigMap);
                config.controllers[0].reconciler =
                    crate::controller::reconciler::ReconcilerKind::Failing { failures: *failures, terminal: false };
                config
            }
            ControllerSpec::RequeueAfter { watch, after_ms } => {
                let mut config = WorldConfig::new(*watch);
                config.controllers[0].reconciler =
                    crate::controller::reconciler::ReconcilerKind::RequeueAfter(*after_ms);
                config
            }
            ControllerSpec::Polling { watch, every_ms } => WorldConfig::polling(*watch, *every_ms),
        };
        config.era = self.era;
        config.seed = self.seed;
        config.latency_ms = c.latency_ms;
        config.api.watch_cache = c.watch_cache;
        config.api.watch_cache_capacity = c.watch_cache_size.max(1);
        config.api.bookmark_frequency_ms = c.bookmark_seconds * 1000;
        config.sync_period_ms = c.resync_seconds * 1000;
        for controller in &mut config.controllers {
            controller.max_concurrent = c.max_concurrent.max(1);
            controller.reconcile_ms = c.reconcile_ms;
        }
        if let (Some(every_ms), Some(first)) = (c.poll_every_ms, config.informers.first()) {
            config.poll = Some(crate::world::PollConfig { kind: first.reflector.kind, every_ms });
        }
        if let Some(verbs) = &c.rbac {
            config.granted_verbs = verbs.clone();
        }
        config.granted_kinds = c.grants.clone();
        for handler in config.informers.iter_mut().flat_map(|i| i.handlers.iter_mut()) {
            handler.predicates = c.predicates.clone();
        }
        config.reader_fail_on_missing_informer = c.reader_fail_on_missing_informer;
        config.unsafe_disable_deep_copy = c.unsafe_disable_deep_copy;
        config.disable_for = c.disable_for.clone();
        config.cache_start_ms = c.cache_start_ms;
        if let Some(first) = config.informers.first_mut() {
            first.reflector.namespace = c.namespace.clone();
            first.reflector.label_selector = c.label_selector.clone();
            FieldSelector::parse(&c.field_selector, first.reflector.kind)
                .map_err(|e| ScenarioError::at(file, "config.field_selector", e.message.clone()))?;
            first.reflector.field_selector = c.field_selector.clone();
            first.reflector.metadata_only = c.metadata_only;
            for (i, pointer) in c.transform.iter().enumerate() {
                Transform::dropping(std::slice::from_ref(pointer))
                    .map_err(|why| ScenarioError::at(file, format!("config.transform[{i}]"), why.to_string()))?;
            }
            first.transform = Transform::dropping(&c.transform).unwrap_or_default();
            first.indexes = c
                .indexes
                .iter()
                .map(|path| (format!("field:{path}"), crate::client::indexer::IndexFunc::Field(path.clone())))
                .chain(c.owner_indexes.iter().map(|owner| {
                    let by = crate::client::indexer::IndexFunc::ControllerOf(owner.controller_kind);
                    (format!("field:{}", owner.name), by)
                }))
                .collect();
        }
        Ok(config)
    }
}

fn get_read(read: &GetRead) -> ClientRead {
    ClientRead::Get { kind: read.kind, namespace: read.namespace.clone(), name: read.name.clone() }
}

fn list_read(file: &str, field: &str, read: &ListRead) -> Result<ClientRead, ScenarioError> {
    let labels = read.labels.clone().unwrap_or_default();
    LabelSelector::parse(&labels).map_err(|s| ScenarioError::at(file, format!("{field}.labels"), s.message.clone()))?;
    let field_match = match (&read.field, &read.value) {
        (Some(p), Some(v)) => Some((p.clone(), v.clone())),
        (None, None) => None,
        _ => {
            return Err(ScenarioError::at(
                file,
                field,
                "expected field and value together (MatchingFields{field: value})",
            ))
        }
    };
    Ok(ClientRead::List {
        kind: read.kind,
        namespace: read.namespace.clone(),
        labels,
        field: field_match,
        limit: read.limit.unwrap_or(0),
        continue_token: read.continue_token.clone().unwrap_or_default(),
    })
}

/// A scenario file's JSON in the format's types. With `error-paths` a refusal names the path of
/// the field (`narration[2].match.on`), as every check after it does; the page leaves the
/// feature off (its lessons are the bundled ones, checked by the tests) and saves the second
/// copy of the format's reader that tracking paths compiles.
#[cfg(feature = "error-paths")]
fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let scenario = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let path = e.path().to_string();
        ScenarioError::at(
            file,
            if path == "." || path == "?" { String::new() } else { path },
            e.into_inner().to_string(),
        )
    })?;
    reader.end().map_err(|e| ScenarioError::at(file, "", e.to_string()))?;
    Ok(scenario)
}

#[cfg(not(feature = "error-paths"))]
fn parse(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    serde_json::from_str(text).map_err(|e| ScenarioError::at(file, "", e.to_string()))
}
