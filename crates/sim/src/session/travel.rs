//! Moving a session through time: steps, jumps over a bulk phase, running ahead of the
//! furthest step reached, and the work a page lets it do while idle.

use super::{Session, FAST_FORWARD_CHUNK, MAX_JUMP};
use crate::world;
use crate::world::fast_forward::{self, Jump};

impl Session {
    /// Passes over the bulk phase the last steps are in, landing on the first step that leaves
    /// it — or sooner, on a step where the lesson shows a note or asks a question, or after
    /// `MAX_JUMP` steps. `None` (and nothing moves) when no phase is under way or it would
    /// skip fewer than `fast_forward::MIN_JUMP` steps.
    pub(super) fn fast_forward(&mut self) -> Option<Jump> {
        let here = self.world().steps();
        let routes = fast_forward::phase(self.visible_trace())?;
        let limit = here as usize + MAX_JUMP;
        let mut scanned = here as usize;
        let mut land = loop {
            if let Some(i) = fast_forward::end(&routes, &self.trace[scanned..]) {
                break scanned + i + 1;
            }
            scanned = self.trace.len();
            if scanned >= limit || !self.run_ahead(FAST_FORWARD_CHUNK) {
                break scanned.min(limit);
            }
        } as u64;
        if let Some(scenario) = &self.scenario {
            let shown = scenario.narration.iter().map(|n| &n.when).chain(scenario.questions.iter().map(|q| &q.when));
            let first_shown =
                shown.filter_map(|when| crate::scenario::find(when, &self.trace)).filter(|s| *s > here).min();
            land = land.min(first_shown.unwrap_or(u64::MAX));
        }
        if land < here + fast_forward::MIN_JUMP {
            self.history.jump_to(here);
            return None;
        }
        self.history.jump_to(land);
        Some(Jump::over(here, land, &self.trace[here as usize..land as usize - 1]))
    }

    /// Runs the simulation `n` steps past the furthest step reached, extending the trace;
    /// returns whether it went any further.
    pub(super) fn run_ahead(&mut self, n: u64) -> bool {
        let known = self.trace.len() as u64;
        self.history.jump_to(known);
        let ahead = self.history.run_to(known + n);
        let more = !ahead.is_empty();
        self.trace.extend(ahead);
        more
    }

    /// Work a step put off so as to be shown sooner (the time-travel snapshot it is due), and
    /// the next step worked out ahead — the one before too when `paused` (during Play nobody
    /// steps back); a page calls it once the step is drawn. Nothing visible changes.
    pub fn settle(&mut self, paused: bool) {
        self.history.settle();
        self.history.look_ahead();
        if paused {
            self.history.look_behind();
        }
        if let Some(other) = self.compared.as_mut() {
            other.settle(paused);
        }
    }

    pub(super) fn step_forward(&mut self) -> bool {
        let at = self.world().steps() as usize;
        let Some(event) = self.history.step() else { return false };
        if at < self.trace.len() {
            self.trace[at] = event;
        } else {
            self.trace.record(event);
        }
        true
    }

    /// Takes a world action now; behind the horizon it starts a new branch.
    pub(super) fn act(&mut self, action: world::Intervention) {
        self.branch();
        self.history.act(action);
        self.step_forward();
    }

    /// Behind the furthest step reached, starts a new branch here: the world's history, the
    /// trace, the actions and the console forget what the branch left behind did from this
    /// step on, by the one rule of a [`StepLog`](crate::kernel::StepLog).
    pub(super) fn branch(&mut self) {
        let step = self.world().steps();
        if self.history.branch() {
            self.trace.cut(step);
            self.log.cut(step);
            self.console.cut(step);
        }
    }
}
