//! A lesson being written in the page's builder. The draft is the lesson file's JSON itself:
//! a copy of a lesson keeps every field as its source has it, and the builder changes only the
//! parts the author edits, so a round trip changes nothing else. What the builder adds it
//! proposes from the run the author is looking at — a note's step from that step
//! ([`pattern_of`]), a challenge's goal from what holds now ([`goal_now`]), the timeline from
//! what the author did ([`Draft::record`]) — and `session::verify` checks the whole in every
//! release it declares, as `validate` does.

use crate::era::Era;
use crate::kernel::sort;
use crate::world::{Fault, Intervention, TraceEvent, World};
use serde_json::{json, Map, Value};

/// A lesson file's JSON while it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    json: Map<String, Value>,
}

impl Draft {
    /// A copy of the lesson `source` (a lesson file's JSON) under the id `id`.
    pub fn copy(source: &Value, id: &str) -> Option<Draft> {
        let mut json = source.as_object()?.clone();
        json.insert("id".into(), id.into());
        Some(Draft { json })
    }

    /// The file as it is now: JSON, two spaces, a final newline.
    pub fn text(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.json).unwrap_or_default();
        text.push('\n');
        text
    }

    pub fn json(&self) -> &Map<String, Value> {
        &self.json
    }

    /// The value at a JSON pointer (`/narration/0/text/en`).
    pub fn get(&self, pointer: &str) -> Option<&Value> {
        let (top, rest) = split(pointer)?;
        self.json.get(top)?.pointer(rest)
    }

    fn get_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let (top, rest) = split(pointer)?;
        self.json.get_mut(top)?.pointer_mut(rest)
    }

    /// Sets the value at a JSON pointer whose parent exists (a top-level field is made);
    /// whether it was set.
    pub fn set(&mut self, pointer: &str, value: Value) -> bool {
        let Some((parent, last)) = pointer.rsplit_once('/') else { return false };
        if parent.is_empty() {
            self.json.insert(last.into(), value);
            return true;
        }
        match self.get_mut(parent) {
            Some(Value::Object(map)) => {
                map.insert(last.into(), value);
                true
            }
            Some(Value::Array(items)) => match last.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(item) => {
                    *item = value;
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// Removes the value at `pointer` from the object holding it (a note's `look_at`, the
    /// recap, a release's own title); whether there was one.
    pub fn unset(&mut self, pointer: &str) -> bool {
        let Some((parent, last)) = pointer.rsplit_once('/') else { return false };
        let holder = match parent.is_empty() {
            true => Some(&mut self.json),
            false => self.get_mut(parent).and_then(Value::as_object_mut),
        };
        holder.is_some_and(|map| map.remove(last).is_some())
    }

    /// A list's items (`narration`, `questions`, `challenges`, `timeline`, `expect`).
    pub fn list(&self, name: &str) -> &[Value] {
        self.json.get(name).and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }

    /// The list `list` names: a top-level one by its name (made when missing), or one inside by
    /// its JSON pointer (`/eras/1.33/narration`, `/challenges/0/goal`), when it is there.
    fn list_mut(&mut self, list: &str) -> Option<&mut Vec<Value>> {
        if list.starts_with('/') {
            return self.get_mut(list)?.as_array_mut();
        }
        let entry = self.json.entry(list).or_insert_with(|| Value::Array(Vec::new()));
        if !entry.is_array() {
            *entry = Value::Array(Vec::new());
        }
        entry.as_array_mut()
    }

    /// Removes a list's item `i` (`list` as [`Draft::push`] takes it).
    pub fn remove(&mut self, list: &str, i: usize) {
        if let Some(items) = self.list_mut(list).filter(|items| i < items.len()) {
            items.remove(i);
        }
    }

    /// Adds an item to a list (a top-level one by its name, one inside by its JSON pointer);
    /// its index, or `None` when there is no such list.
    pub fn push(&mut self, list: &str, item: Value) -> Option<usize> {
        let items = self.list_mut(list)?;
        items.push(item);
        Some(items.len() - 1)
    }

    /// The releases the lesson runs in.
    pub fn eras(&self) -> Vec<Era> {
        let own = self.json.get("era").and_then(Value::as_str).and_then(Era::parse).unwrap_or(Era::CURRENT);
        let mut eras: Vec<Era> = self
            .json
            .get("eras")
            .and_then(Value::as_object)
            .map(|m| m.keys().filter_map(|k| Era::parse(k)).collect())
            .unwrap_or_default();
        if !eras.contains(&own) {
            eras.push(own);
        }
        sort::sort(&mut eras);
        eras
    }

    /// Makes the lesson run in `eras` (at least one): a release kept keeps what it has of its
    /// own, one added starts with nothing, and the lesson is told in its own release if that is
    /// still among them, else in the newest.
    pub fn set_eras(&mut self, eras: &[Era]) {
        let Some(newest) = eras.iter().max().copied() else { return };
        let own = self.json.get("era").and_then(Value::as_str).and_then(Era::parse).unwrap_or(Era::CURRENT);
        if !eras.contains(&own) {
            self.json.insert("era".into(), newest.name().into());
        }
        let mut parts = self.json.get("eras").and_then(Value::as_object).cloned().unwrap_or_default();
        parts.retain(|k, _| Era::parse(k).is_some_and(|e| eras.contains(&e)));
        for era in eras {
            parts.entry(era.name()).or_insert_with(|| json!({}));
        }
        self.json.insert("eras".into(), Value::Object(parts));
    }

    /// Adds to the timeline what the author did at `at_ms` (after what is already there at that
    /// time); whether the timeline can say it.
    pub fn record(&mut self, at_ms: u64, act: &Intervention) -> bool {
        let Some(event) = event_of(at_ms, act) else { return false };
        let Some(timeline) = self.list_mut("timeline") else { return false };
        let at = timeline.partition_point(|e| e.get("at_ms").and_then(Value::as_u64).unwrap_or(0) <= at_ms);
        timeline.insert(at, event);
        // The run goes on a second past it, so that what it sets off is seen.
        let until = self.get("/run/until_ms").and_then(Value::as_u64).unwrap_or(0);
        if until < at_ms + 1000 {
            self.set("/run/until_ms", (at_ms + 1000).into());
        }
        true
    }
}

/// A JSON pointer's top-level field and the pointer within it (`/a/b/c`: `a` and `/b/c`).
fn split(pointer: &str) -> Option<(&str, &str)> {
    let path = pointer.strip_prefix('/').filter(|p| !p.is_empty())?;
    Some(path.find('/').map_or((path, ""), |at| (&path[..at], &path[at..])))
}

/// A timeline entry doing what an action did (`None`: the timeline has no entry for it).
fn event_of(at_ms: u64, act: &Intervention) -> Option<Value> {
    let at = |mut event: Value| {
        event["at_ms"] = at_ms.into();
        Some(event)
    };
    match act {
        Intervention::Create(object) => at(json!({"do": "create", "object": object})),
        Intervention::Delete { kind, namespace, name } => {
            at(json!({"do": "delete", "kind": kind.name(), "namespace": namespace, "name": name}))
        }
        Intervention::Scale { kind, namespace, name, replicas } => {
            at(json!({"do": "scale", "kind": kind.name(), "namespace": namespace, "name": name, "replicas": replicas}))
        }
        Intervention::Patch { kind, namespace, name, set, labels } => at(
            json!({"do": "patch", "kind": kind.name(), "namespace": namespace, "name": name, "set": set, "labels": labels}),
        ),
        Intervention::PatchStatus { kind, namespace, name, status } => at(
            json!({"do": "patch-status", "kind": kind.name(), "namespace": namespace, "name": name, "status": status}),
        ),
        Intervention::DeleteFirst { kind, namespace, selector } => {
            at(json!({"do": "delete-one", "kind": kind.name(), "namespace": namespace, "selector": selector}))
        }
        Intervention::Fault(Fault::Latency(ms)) => at(json!({"do": "latency", "ms": ms})),
        Intervention::Fault(fault) => {
            let name = Fault::NAMES.iter().find(|n| Fault::named(n).as_ref() == Some(fault))?;
            at(json!({"do": "fault", "fault": name}))
        }
        _ => None,
    }
}

/// A pattern naming step `step` of `trace` by its kind and how many of that kind came before
/// (and the error's code, when it carries one): what a note or a question at that step matches.
pub fn pattern_of(trace: &[TraceEvent], step: u64) -> Option<Value> {
    let event = trace.iter().find(|e| e.step == step)?;
    let nth = trace.iter().filter(|e| e.step <= step && e.kind == event.kind).count();
    let mut pattern = json!({"on": event.kind.name()});
    if nth > 1 {
        pattern["nth"] = nth.into();
    }
    Some(pattern)
}

/// The claim that a pattern's step happens: what a note written at that step claims unless the
/// author says otherwise.
pub fn happens(pattern: &Value) -> Value {
    let mut any = pattern.clone();
    let nth = any.as_object_mut().and_then(|p| p.remove("nth")).and_then(|n| n.as_u64()).unwrap_or(1);
    json!({"check": "steps", "match": any, "at_least": nth})
}

/// Checks that hold of the run now, for a challenge's goal (the author ticks those that say
/// what the task asks): as many faults as there were (the learner's among them), the cache
/// equals the store, each object the cache holds is there, and how many LIST and WATCH requests
/// there were (at most so many LISTs, at least so many WATCHes).
pub fn goal_now(world: &World, trace: &[TraceEvent]) -> Vec<Value> {
    let requests = |on: &str| trace.iter().filter(|e| e.kind.name() == on).count();
    let faults = requests("fault");
    let mut checks: Vec<Value> = (faults > 0)
        .then(|| json!({"check": "steps", "match": {"on": "fault"}, "at_least": faults}))
        .into_iter()
        .collect();
    checks.extend([
        json!({"check": "cache-matches-store"}),
        json!({"check": "requests", "verb": "LIST", "at_most": requests("LIST request")}),
        json!({"check": "requests", "verb": "WATCH", "at_least": requests("WATCH request")}),
    ]);
    // Each object the first informer's cache holds can be read from it.
    if let (Some(informer), Ok(both)) = (world.config.informers.first(), world.cache_vs_store(0)) {
        for (key, _) in &both.cached {
            let (namespace, name) = key.split_once('/').unwrap_or(("default", key));
            let kind = informer.reflector.kind.name();
            checks.push(json!({"check": "cache-get", "kind": kind, "namespace": namespace, "name": name}));
        }
    }
    let goal: Result<Vec<super::Expectation>, _> = checks.iter().map(|c| serde_json::from_value(c.clone())).collect();
    let judged = super::judge_goal(&goal.unwrap_or_default(), world, trace);
    checks.into_iter().zip(judged).filter(|(_, v)| v.met).map(|(c, _)| c).collect()
}

/// Both languages of a text, as the file holds them.
pub fn text(ko: &str, en: &str) -> Value {
    json!({"ko": ko, "en": en})
}

/// Where a lesson's own notes and questions (those at the top level, shared by every release)
/// show in one release: each one's step, or `None` where no step matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub era: Era,
    pub notes: Vec<Option<u64>>,
    pub questions: Vec<Option<u64>>,
}

/// Where each of a lesson's own notes and questions shows, in each release it runs in.
pub fn shown_at(lesson: &super::Scenario) -> Vec<Shown> {
    lesson
        .declared_eras()
        .into_iter()
        .filter_map(|era| {
            let told = lesson.in_era(era)?;
            let (_, trace, _) = super::run(&told).ok()?;
            // In a release, its own notes come first and its own questions last.
            let own = told.narration.len() - lesson.narration.len();
            let notes = told.narration[own..].iter().map(|n| super::find(&n.when, &trace)).collect();
            let questions =
                told.questions[..lesson.questions.len()].iter().map(|q| super::find(&q.when, &trace)).collect();
            Some(Shown { era, notes, questions })
        })
        .collect()
}
