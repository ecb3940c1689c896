//! The lesson a session plays: opening it in a release, its narration and questions as the
//! trace reaches them, and whether its run is over.

use super::{Action, Session, RUN_AHEAD};
use crate::era::Era;
use crate::scenario::library;
use crate::session::link::{LessonBroken, Notice, Problem};
use crate::world::TraceEvent;

impl Session {
    /// A session playing a bundled scenario in its own era (the empty id: the default lesson).
    pub fn with_scenario(id: &str) -> Result<Self, Notice> {
        Self::lesson(id, None, None).map_err(|problem| Notice { param: "scenario".into(), problem })
    }

    /// A session playing a bundled lesson with another seed or era if given.
    pub(super) fn lesson(id: &str, seed: Option<u64>, era: Option<Era>) -> Result<Self, Problem> {
        if id.is_empty() {
            return Ok(Self::with_load(seed.unwrap_or(1), 0, era.unwrap_or(Era::CURRENT)));
        }
        let scenario = Self::bundled(id, seed, era)?;
        Self::playing(scenario).map_err(|why| Problem::LessonBroken(LessonBroken::Invalid(why)))
    }

    /// A bundled lesson as told in `era` (its own if none) with `seed` if given.
    pub(super) fn bundled(id: &str, seed: Option<u64>, era: Option<Era>) -> Result<crate::scenario::Scenario, Problem> {
        // (In the page a bundled lesson is known from the index before its file is loaded.)
        let lesson = library::find(id).ok_or_else(|| match library::file_of(id) {
            Some(file) => Problem::LessonBroken(LessonBroken::NotLoaded { file: file.into() }),
            None => Problem::UnknownScenario { id: id.into() },
        })?;
        let era = era.unwrap_or(lesson.era);
        let mut scenario = lesson.in_era(era).ok_or_else(|| Problem::NotInEra {
            id: id.into(),
            era: era.to_string(),
            eras: lesson.declared_eras().iter().map(ToString::to_string).collect(),
        })?;
        if let Some(seed) = seed {
            scenario.seed = seed;
        }
        Ok(scenario)
    }

    /// A session playing a lesson as told in one release (`Scenario::in_era`).
    pub fn playing(scenario: crate::scenario::Scenario) -> Result<Self, String> {
        let world = scenario.world().map_err(|e| e.to_string())?;
        Ok(Self::playing_in(scenario, world))
    }

    /// A session playing `scenario` in `world`, made from it.
    pub(super) fn playing_in(scenario: crate::scenario::Scenario, world: crate::world::World) -> Self {
        Session { era: scenario.era, seed: scenario.seed, scenario: Some(scenario), ..Self::on(world) }
    }

    /// The era a link need not name: the lesson's own, or the current release.
    pub(super) fn default_era(&self) -> Era {
        self.scenario.as_ref().and_then(|s| library::find(&s.id)).map_or(Era::CURRENT, |l| l.era)
    }

    /// The narration note in force at the current step.
    pub fn narration(&self) -> Option<&crate::scenario::format::Note> {
        let scenario = self.scenario.as_ref()?;
        crate::scenario::note_at(scenario, self.visible_trace()).map(|(_, note)| note)
    }

    /// The questions that have come up by now: (index, question, answer given).
    pub fn questions(&self) -> Vec<(usize, &crate::scenario::format::Question, Option<usize>)> {
        let Some(scenario) = self.scenario.as_ref() else { return Vec::new() };
        scenario
            .questions
            .iter()
            .enumerate()
            .filter(|(_, q)| crate::scenario::find(&q.when, self.visible_trace()).is_some())
            .map(|(i, q)| (i, q, self.answers.get(&i).copied()))
            .collect()
    }

    /// Whether a lesson's run is over ([`crate::scenario::Scenario::over`], as the command line
    /// and the tests run it). Time travel back makes it not over again.
    pub fn lesson_ended(&self) -> bool {
        self.scenario.as_ref().is_some_and(|s| s.over(self.world()))
    }

    /// The step of the first narration note after the current step: in the branch's trace so
    /// far, or within [`RUN_AHEAD`] steps beyond it.
    pub(super) fn next_note(&mut self) -> Option<u64> {
        let now = self.world().steps();
        self.find_ahead(|scenario, trace| {
            scenario.narration.iter().filter_map(|n| crate::scenario::find(&n.when, trace)).filter(|s| *s > now).min()
        })
    }

    /// The step question `index`'s explanation points at: in the branch's trace so far, or
    /// within [`RUN_AHEAD`] steps beyond it.
    pub(super) fn explained_step(&mut self, index: usize) -> Option<u64> {
        self.find_ahead(|scenario, trace| {
            let at = scenario.questions.get(index)?.explain_at.as_ref()?;
            crate::scenario::find(at, trace)
        })
    }

    /// A step `find` names in the branch's trace so far, or, running ahead, within
    /// [`RUN_AHEAD`] steps beyond it (the world left where it was when there is none).
    fn find_ahead(&mut self, find: impl Fn(&crate::scenario::Scenario, &[TraceEvent]) -> Option<u64>) -> Option<u64> {
        let now = self.world().steps();
        let scenario = self.scenario.clone()?;
        if let Some(step) = find(&scenario, &self.trace) {
            return Some(step);
        }
        self.apply(Action::JumpTo(self.trace.len() as u64 + RUN_AHEAD));
        let found = find(&scenario, &self.trace);
        if found.is_none() {
            self.apply(Action::JumpTo(now));
        }
        found
    }
}
