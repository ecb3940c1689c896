//! Step patterns: how a lesson names the steps its notes, questions and checks are about —
//! by kind, stages, key, outcome tag, status code, resourceVersion, the n-th occurrence, or
//! after another step — never by the words a step is shown with.

use super::format::StepPattern;
use super::ScenarioError;
use crate::client::delta_fifo::DeltaType;
use crate::kernel::{Stage, TraceKind};
use crate::world::{Outcome, TraceEvent};

/// A pattern checked once and resolved into typed values.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    at_step: Option<u64>,
    on: Option<TraceKind>,
    from: Option<Stage>,
    to: Option<Stage>,
    key: Option<String>,
    tag: Option<crate::world::Tag>,
    code: Option<u16>,
    rv: Option<i64>,
    deltas: Option<Vec<DeltaType>>,
    nth: u64,
    after: Option<Box<Pattern>>,
}

impl Pattern {
    /// Checks a pattern from a file; every error names the file and the field.
    pub fn resolve(file: &str, field: &str, p: &StepPattern) -> Result<Pattern, ScenarioError> {
        if p.nth == Some(0) {
            return Err(ScenarioError::at(
                file,
                format!("{field}.nth"),
                "expected 1 or more (the first matching step is 1)",
            ));
        }
        let after = p
            .after
            .as_deref()
            .map(|a| Pattern::resolve(file, &format!("{field}.after"), a).map(Box::new))
            .transpose()?;
        let pattern = Pattern {
            at_step: p.at_step,
            on: p.on.map(|k| k.0),
            from: p.from,
            to: p.to,
            key: p.key.clone(),
            tag: p.tag,
            code: p.code,
            rv: p.rv,
            deltas: p.deltas.clone(),
            nth: p.nth.unwrap_or(1),
            after,
        };
        let says_something = pattern.at_step.is_some()
            || pattern.on.is_some()
            || pattern.from.is_some()
            || pattern.to.is_some()
            || pattern.key.is_some()
            || pattern.tag.is_some()
            || pattern.code.is_some()
            || pattern.rv.is_some()
            || pattern.deltas.is_some();
        if !says_something {
            return Err(ScenarioError::at(
                file,
                field,
                "expected at least one of at_step, on, from, to, key, tag, code, rv, deltas to say which step",
            ));
        }
        Ok(pattern)
    }

    /// Whether one step has every field this pattern gives (not `nth` or `after`).
    pub fn matches(&self, e: &TraceEvent) -> bool {
        self.at_step.is_none_or(|s| e.step == s)
            && self.on.is_none_or(|k| e.kind == k)
            && self.from.is_none_or(|s| e.from == s)
            && self.to.is_none_or(|s| e.to == s)
            && self.key.as_ref().is_none_or(|k| e.key == *k)
            && self.tag.is_none_or(|t| e.has(t))
            && self.code.is_none_or(|c| e.outcome.codes().contains(&c))
            && self.rv.is_none_or(|rv| e.rv == rv)
            && self.deltas.as_ref().is_none_or(|want| match &e.outcome {
                Outcome::Popped { deltas, .. } => deltas == want,
                _ => false,
            })
    }

    /// The steps after this pattern's anchor (all of them without `after`).
    fn window<'a>(&self, trace: &'a [TraceEvent]) -> Option<&'a [TraceEvent]> {
        match &self.after {
            None => Some(trace),
            Some(anchor) => {
                let at = anchor.find(trace)?;
                let start = trace.partition_point(|e| e.step <= at);
                Some(&trace[start..])
            }
        }
    }

    /// The step this pattern names in a trace: the `nth` match after the anchor.
    pub fn find(&self, trace: &[TraceEvent]) -> Option<u64> {
        let window = self.window(trace)?;
        window.iter().filter(|e| self.matches(e)).nth((self.nth - 1) as usize).map(|e| e.step)
    }

    /// How many steps match after the anchor (`nth` does not apply).
    pub fn count(&self, trace: &[TraceEvent]) -> u64 {
        self.window(trace).map_or(0, |w| w.iter().filter(|e| self.matches(e)).count() as u64)
    }
}
