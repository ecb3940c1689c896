//! Scenarios: named, reproducible lessons written as data (ARCHITECTURE.md: "scenarios are data").
//!
//! A scenario file is parsed and checked ([`Scenario::parse`], `check.rs`: every error names
//! the file, the field and what was expected), turned into a world with its timeline scheduled
//! ([`Scenario::world`]), run ([`run`]) and judged by its expectations (`judge.rs`). Narration
//! notes, questions and step checks name their steps by typed [`pattern`]s.

mod check;
pub mod compact;
pub mod draft;
pub mod format;
pub mod guide;
mod judge;
pub mod library;
pub mod marked;
pub mod pattern;

pub use format::{Expectation, Lang, Scenario, Text};
pub use judge::{judge, judge_claims, judge_goal, Verdict};

use crate::cluster::{ApiObject, Kind};
use crate::world::{TraceEvent, World};
use format::StepPattern;
use pattern::Pattern;

/// A problem with a scenario file, as the author should read it: the file, the field (a path
/// such as `narration[2].match.on`; empty when the file as a whole is at fault) and what was
/// expected or found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub file: String,
    pub path: String,
    pub what: String,
}

impl ScenarioError {
    pub fn at(file: &str, path: impl Into<String>, what: impl Into<String>) -> Self {
        ScenarioError { file: file.into(), path: path.into(), what: what.into() }
    }
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path.as_str() {
            "" => write!(f, "{}: {}", self.file, self.what),
            path => write!(f, "{}: {path}: {}", self.file, self.what),
        }
    }
}

/// The JSON Schema of a scenario file, derived from the format's types: what
/// `static/scenarios/schema.json` must hold (a test checks), printed by
/// `informer-playground schema`.
#[cfg(feature = "schema")]
pub fn schema() -> String {
    let mut schema = schemars::schema_for!(Scenario);
    schema.insert("$id".into(), "https://informer-playground/scenarios/schema.json".into());
    schema.insert("title".into(), "informer-playground scenario".into());
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The step a checked pattern names in a trace.
pub fn find(when: &StepPattern, trace: &[TraceEvent]) -> Option<u64> {
    Pattern::resolve("", "", when).ok()?.find(trace)
}

impl Scenario {
    /// The scenario's world at step 0, its timeline scheduled.
    pub fn world(&self) -> Result<World, ScenarioError> {
        self.world_named(&format!("scenario {:?}", self.id))
    }

    /// The world, with errors naming `file`.
    fn world_named(&self, file: &str) -> Result<World, ScenarioError> {
        let file = file.to_string();
        let config = self.config_for(&file)?;
        let mut objects = Vec::new();
        for (i, obj) in self.objects.iter().enumerate() {
            objects.push(
                serde_json::from_value(obj.clone())
                    .map_err(|e| ScenarioError::at(&file, format!("objects[{i}]"), e.to_string()))?,
            );
        }
        let labelled = |i: usize| self.load_labels.as_ref().filter(|l| i.is_multiple_of(l.every));
        objects.extend((0..self.load_pods).map(|i| {
            let pod = ApiObject::new(Kind::Pod, "load", &format!("load-{i:05}")).with_label("app", "load");
            let labels = labelled(i).map(|l| l.labels.iter()).into_iter().flatten();
            labels
                .fold(pod, |pod, (key, value)| pod.with_label(key, value))
                .with("spec", serde_json::json!({"nodeName": format!("node-{}", i % 100), "containers": [{"name": "main", "image": "busybox:1.36"}]}))
        }));
        let mut world = World::new(config, objects).map_err(|e| ScenarioError::at(&file, "objects", e.to_string()))?;
        for (i, event) in self.timeline.iter().enumerate() {
            world.act_at(event.at_ms(), self.action(&file, &format!("timeline[{i}]"), event)?);
        }
        Ok(world)
    }
}

/// The narration note in force after `trace`: the latest one that has appeared, with the step
/// it appeared at.
pub fn note_at<'a>(scenario: &'a Scenario, trace: &[TraceEvent]) -> Option<(u64, &'a format::Note)> {
    scenario.narration.iter().filter_map(|note| find(&note.when, trace).map(|s| (s, note))).max_by_key(|(s, _)| *s)
}

impl Scenario {
    /// Whether the run is over in `world`: everything up to `run.until_ms` has happened, and
    /// the next message, if any, comes after it.
    pub fn over(&self, world: &World) -> bool {
        world.next_time().is_none_or(|t| t > self.run.until_ms)
    }
}

/// Runs a scenario to its end: its world, trace and verdicts.
pub fn run(scenario: &Scenario) -> Result<(World, Vec<TraceEvent>, Vec<Verdict>), ScenarioError> {
    let mut world = scenario.world()?;
    let trace = world.run_until(scenario.run.max_steps, |_, w| scenario.over(w));
    let verdicts = judge(scenario, &world, &trace);
    Ok((world, trace, verdicts))
}
