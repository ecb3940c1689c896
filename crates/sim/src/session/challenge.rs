//! A lesson's challenges as the learner plays them: each goal judged against the run so far,
//! met only by the learner's own moves, and the link that plays a solution. Also what a lesson
//! file's challenges are checked for: in every release the lesson runs in, its run without
//! moves does not meet a goal and the solution's moves do.

use super::{Action, Message, Refusal, Session};
use crate::i18n::Lang;
use crate::scenario::format::{Challenge, Move, MoveKind};
use crate::scenario::{judge_goal, Scenario};

/// A challenge of the lesson playing, and whether the learner has met its goal.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeState<'a> {
    pub index: usize,
    pub challenge: &'a Challenge,
    pub met: bool,
}

impl Session {
    /// The lesson's challenges, each with whether its goal is met by now. A goal counts only
    /// once the learner has acted on the world: what the lesson does alone never meets it
    /// (`challenge_problems` checks that of every bundled lesson).
    pub fn challenges(&self) -> Vec<ChallengeState<'_>> {
        let Some(scenario) = self.scenario.as_ref() else { return Vec::new() };
        let acted = !self.log.is_empty();
        scenario
            .challenges
            .iter()
            .enumerate()
            .map(|(index, challenge)| ChallengeState { index, challenge, met: acted && self.goal_met(challenge) })
            .collect()
    }

    fn goal_met(&self, challenge: &Challenge) -> bool {
        judge_goal(&challenge.goal, self.world(), self.visible_trace()).iter().all(|v| v.met)
    }

    /// Plays challenge `index`'s solution: this lesson from its start, in this release, with
    /// the solution's moves, up to the step its goal is met (or where the run ends, if it is
    /// not). The page's view settings and language stay; the link then carries the moves.
    pub(super) fn play_solution(&mut self, index: usize) {
        let Some(scenario) = self.scenario.clone() else { return };
        let Some(challenge) = scenario.challenges.get(index).cloned() else { return };
        let Ok(mut played) = Session::playing(scenario) else { return };
        played.make_moves(&challenge);
        played.run_until(|s| s.goal_met(&challenge));
        *self = Session {
            inspected: self.inspected,
            filter: self.filter,
            lang: self.lang,
            solution_played: true,
            ..played
        };
    }

    /// Whether the world shows a challenge's solution played rather than the learner's own
    /// moves (a met goal then proves nothing of theirs).
    pub fn solution_played(&self) -> bool {
        self.solution_played
    }

    /// Makes a challenge's solution moves, each at its step (moves at the same step one after
    /// another: a move never goes back in time); what the session refused, with its step.
    fn make_moves(&mut self, challenge: &Challenge) -> Vec<(u64, String)> {
        let mut refused = Vec::new();
        for m in &challenge.solution {
            let Ok(action) = action_of(m) else { continue };
            if m.at_step > self.world().steps() {
                self.apply(Action::JumpTo(m.at_step));
            }
            // kubectl's own refusals are printed in the console, not said: asked here first.
            if let Action::Kubectl(entry) = &action {
                use crate::console::kubectl::Outcome;
                let (line, stdin) = entry.split_once('\n').unwrap_or((entry, ""));
                let run = crate::console::engine().map(|console| console.kubectl);
                let why = match run.map(|run| run(line, stdin, self.world())) {
                    Some(Outcome::Error(why)) => Some(why),
                    Some(Outcome::Exceeded(exceeded)) => Some(Refusal::Limit(exceeded).text(Lang::En)),
                    Some(Outcome::Refused(e)) => Some(e.to_string()),
                    None => Some(Refusal::NotLoaded.text(Lang::En)),
                    _ => None,
                };
                refused.extend(why.map(|why| (m.at_step, why)));
            }
            self.message = None;
            self.apply(action);
            let failed = match (self.message(), self.write_answer()) {
                (Some(Message::Failed(why)), _) => Some(why.text(Lang::En)),
                (_, Some(Err(why))) => Some(why.text(Lang::En)),
                _ => None,
            };
            refused.extend(failed.map(|why| (m.at_step, why)));
        }
        refused
    }

    /// Steps on until `done` holds, or until nothing more happens before the lesson's end or
    /// [`SETTLE_MS`] after the learner's last move, whichever is later (within the lesson's
    /// most steps).
    fn run_until(&mut self, done: impl Fn(&Session) -> bool) {
        let Some(run) = self.scenario.as_ref().map(|s| s.run.clone()) else { return };
        // A move taken at step n acts at the time of step n.
        let time_of = |step: u64| step.checked_sub(1).and_then(|i| self.trace.get(i as usize)).map_or(0, |e| e.time_ms);
        let last_move = self.log.last().map(|(step, _)| time_of(*step));
        let until = run.until_ms.max(last_move.map_or(0, |t| t + SETTLE_MS));
        while !done(self) && self.world().steps() < run.max_steps {
            if self.world().next_time().is_none_or(|t| t > until) {
                break;
            }
            let before = self.world().steps();
            self.apply(Action::StepForward);
            if self.world().steps() == before {
                break;
            }
        }
    }
}

/// How long, in virtual time, a challenge's moves are given to play out past the last one.
const SETTLE_MS: u64 = 5_000;

/// What is wrong with a lesson's challenges, played in every release the lesson runs in: a
/// goal its run meets without the learner's moves, a solution that does not meet its goal, a
/// move the session refuses. Empty when nothing is.
pub fn challenge_problems(lesson: &Scenario) -> Vec<String> {
    let mut problems = Vec::new();
    for era in lesson.declared_eras() {
        let Some(told) = lesson.in_era(era).filter(|t| !t.challenges.is_empty()) else { continue };
        let Ok(start) = Session::playing(told.clone()) else {
            problems.push(format!("the lesson does not build in {era}"));
            continue;
        };
        // The lesson's own run, without a move: the same for every challenge.
        let mut alone = start.clone();
        alone.run_until(|_| false);
        for challenge in &told.challenges {
            let place = format!("challenge {:?} in {era}", challenge.id);
            if alone.goal_met(challenge) {
                problems.push(format!("{place}: the lesson's run meets the goal without a move"));
            }
            let mut solved = start.clone();
            for (step, why) in solved.make_moves(challenge) {
                problems.push(format!("{place}: the move at step {step} is refused: {why}"));
            }
            solved.run_until(|_| false);
            let unmet: Vec<String> = judge_goal(&challenge.goal, solved.world(), solved.visible_trace())
                .into_iter()
                .filter(|v| !v.met)
                .map(|v| format!("{} ({})", v.expectation, v.detail))
                .collect();
            if !unmet.is_empty() {
                problems.push(format!("{place}: the solution does not meet the goal: {}", unmet.join("; ")));
            }
        }
    }
    problems
}

/// The session action a challenge's move is.
fn action_of(m: &Move) -> Result<Action, String> {
    Ok(match m.kind()? {
        MoveKind::Fault(fault) => Action::Fault(fault),
        MoveKind::Console(line) => Action::Kubectl(line),
    })
}
