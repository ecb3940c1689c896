//! The playground session: a world with its history, the trace so far, and what the page is
//! looking at. The page is a view of a [`Session`] and sends it [`Action`]s;
//! [`Session::apply`] is the only place anything changes (its fields are private; the page
//! reads them through methods). Every outcome of a person's write is a [`Message`] worded as
//! kubectl would word it, so bad input is answered in the page and nothing already there is
//! lost.
//!
//! Its parts: the actions (`action`), the object form's writes (`write`), the console
//! (`console`), the lesson being played (`lesson`), the link round trip (`link`) and moving
//! through time (`travel`).
//! Its step-indexed records (the trace, the actions, the console) are [`StepLog`]s, cut by
//! one rule when a branch starts ([`Session::branch`]).

mod action;
mod challenge;
mod console;
mod lesson;
pub mod link;
pub mod live;
pub mod page_contract;
#[cfg(test)]
mod tests;
mod travel;
mod verify;
mod write;

pub use action::{Action, Message, Refusal, Written};
pub use challenge::{challenge_problems, ChallengeState};
pub use console::ConsoleLine;
pub use verify::{open_lesson, too_long, verify};

use crate::cluster::Kind;
use crate::era::Era;
use crate::kernel::{Stage, StepLog};
use crate::scenario::{Lang, Scenario};
use crate::session::link::Notice;
use crate::world::fast_forward::Jump;
use crate::world::outcome::UserVerb;
use crate::world::TraceEvent;
use crate::world::{self, Fault, History, World};
use write::PersonWrite;

/// How far one scrub may run the simulation past the furthest step reached.
const RUN_AHEAD: u64 = 20_000;
/// The most steps one fast-forward passes over.
const MAX_JUMP: usize = 100_000;
/// How far a fast-forward runs ahead at a time while looking for the end of a phase.
const FAST_FORWARD_CHUNK: u64 = 4_096;

/// Snapshots every this many steps: jumping replays at most this many.
const SNAPSHOT_EVERY: u64 = 8;

#[derive(Clone, Debug)]
pub struct Session {
    history: History,
    /// Every trace event of this branch up to its horizon; the world is at `world().steps()`.
    trace: StepLog<TraceEvent>,
    message: Option<Message>,
    inspected: Stage,
    filter: Option<Stage>,
    /// The cached object opened in the inspector (`namespace/name`).
    opened: Option<String>,
    /// The lesson being played, if any.
    scenario: Option<Scenario>,
    /// Answers given: question index → choice.
    answers: crate::kernel::SmallMap<usize, usize>,
    lang: Lang,
    /// The console's transcript: each command and what it printed, with the step it was at.
    console: StepLog<(u64, ConsoleLine)>,
    /// The Kubernetes release the world behaves as.
    era: Era,
    /// The same lesson and actions in another release, kept at the same virtual time.
    compared: Option<Box<Session>>,
    /// The jump that brought the world here, when the last move was one.
    jump: Option<Jump>,
    /// Parameters of the link the page was opened with that could not be used.
    notices: Vec<Notice>,
    /// The person's actions on this branch, with the step each was taken at: what a link
    /// replays to restore this state.
    log: StepLog<(u64, Action)>,
    seed: u64,
    load: usize,
    /// The world shows a challenge's solution played (`Action::PlaySolution`), not the
    /// learner's own moves.
    solution_played: bool,
    /// Live mode: the served world this session follows (`live`).
    live: Option<Box<live::Served>>,
}

impl Default for Session {
    fn default() -> Self {
        Self::new(1)
    }
}

impl Session {
    /// The default lesson: a Deployment-style controller, its Pods and a kubelet.
    pub fn new(seed: u64) -> Self {
        Self::with_load(seed, 0, Era::CURRENT)
    }

    /// The default lesson in a cluster with `load` more Pods, in `era`.
    pub fn with_load(seed: u64, load: usize, era: Era) -> Self {
        let world = world::scale_with_load(seed, load, era)
            .or_else(|_| World::new(world::WorldConfig::new(Kind::Pod), vec![]))
            .expect("an empty world always builds");
        Session { load, ..Self::on(world) }
    }

    /// A session on `world` (its seed and release), with no lesson.
    pub(crate) fn on(world: World) -> Self {
        Session {
            era: world.config.era,
            seed: world.config.seed,
            history: History::new(world, SNAPSHOT_EVERY),
            trace: StepLog::default(),
            message: None,
            inspected: Stage::Reflector,
            filter: None,
            console: StepLog::default(),
            opened: None,
            scenario: None,
            answers: Default::default(),
            lang: Lang::En,
            compared: None,
            jump: None,
            notices: Vec::new(),
            log: StepLog::default(),
            load: 0,
            solution_played: false,
            live: None,
        }
    }

    /// The Kubernetes release the world behaves as.
    pub fn era(&self) -> Era {
        self.era
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The stage whose inspector is open.
    pub fn inspected(&self) -> Stage {
        self.inspected
    }

    /// The stage the event log is limited to, if any.
    pub fn filter(&self) -> Option<Stage> {
        self.filter
    }

    /// The cached object opened in the inspector (`namespace/name`).
    pub fn opened(&self) -> Option<&str> {
        self.opened.as_deref()
    }

    /// The lesson being played, if any.
    pub fn scenario(&self) -> Option<&Scenario> {
        self.scenario.as_ref()
    }

    /// The same lesson and actions in another release, kept at the same virtual time.
    pub fn compared(&self) -> Option<&Session> {
        self.compared.as_deref()
    }

    /// The jump that brought the world here, when the last move was one.
    pub fn jump(&self) -> Option<&Jump> {
        self.jump.as_ref()
    }

    /// Parameters of the link the page was opened with that could not be used.
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    /// The outcome of the last write.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// The world's snapshots and the actions of this branch.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// What the person did to the world on this branch, up to the current step: each action
    /// with the virtual time it was taken at (what a lesson's timeline would say).
    pub fn acts(&self) -> Vec<(u64, &world::Intervention)> {
        let now = self.world().steps();
        let time_at = |step: u64| match step {
            0 => 0,
            s => self.trace.get(s as usize - 1).map_or(0, |e| e.time_ms),
        };
        self.history.actions().iter().filter(|(s, _)| *s <= now).map(|(s, act)| (time_at(*s), act)).collect()
    }

    /// Every trace event of this branch up to its horizon (the world is at `world().steps()`).
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    /// The console's transcript: each command and what it printed, with the step it was at.
    pub fn console(&self) -> &[(u64, ConsoleLine)] {
        &self.console
    }

    pub fn world(&self) -> &World {
        self.history.world()
    }

    /// The steps taken so far, as the page shows them.
    pub fn visible_trace(&self) -> &[TraceEvent] {
        let n = (self.world().steps() as usize).min(self.trace.len());
        &self.trace[..n]
    }

    /// The step that brought the world here.
    pub fn current(&self) -> Option<&TraceEvent> {
        self.visible_trace().last()
    }

    pub fn apply(&mut self, action: Action) {
        let mirrored = action.acts_on_world() || matches!(action, Action::SetLang(_) | Action::Answer(..));
        if let (true, Some(other)) = (mirrored, self.compared.as_mut()) {
            // The other release takes the same action at the same moment.
            other.apply(action.clone());
        }
        self.apply_here(action);
        self.keep_compared_in_step();
    }

    /// Runs the compared release to the virtual time this one is at.
    fn keep_compared_in_step(&mut self) {
        let now = self.world().now();
        if let Some(other) = self.compared.as_mut() {
            other.run_to_time(now);
        }
    }

    /// Moves to the last step at or before virtual time `t`, running ahead as needed.
    pub fn run_to_time(&mut self, t: crate::kernel::Millis) {
        while self.world().now() <= t && self.world().next_time().is_some_and(|next| next <= t) {
            if self.world().steps() as usize >= self.trace.len() + RUN_AHEAD as usize || !self.step_forward() {
                break;
            }
        }
        let at_or_before = self.trace[..self.world().steps() as usize].partition_point(|e| e.time_ms <= t);
        if (at_or_before as u64) < self.world().steps() {
            self.history.jump_to(at_or_before as u64);
        }
    }

    fn apply_here(&mut self, action: Action) {
        let live = self.live.is_some() || matches!(action, Action::Serve(_));
        if live && live::live_actions().is_some_and(|apply| apply(self, &action)) {
            return;
        }
        // What acts on the world is recorded (a link replays it). A console line behind the
        // furthest step reached starts a new branch here; a write or a fault starts one when it
        // reaches the world (`act`), so refused input leaves the branch as it was.
        if matches!(action, Action::Kubectl(_)) {
            self.branch();
        }
        let recorded = action.acts_on_world().then(|| (self.world().steps(), action.clone()));
        // A jump stays shown until the world moves or is replaced.
        let (jumped, here) = (self.jump.take(), self.world().steps());
        let keeps_world = !matches!(
            action,
            Action::Reset | Action::LoadScenario(_) | Action::SetEra(_) | Action::PlaySolution(_) | Action::Follow(_)
        );
        match action {
            Action::StepForward => {
                self.step_forward();
            }
            Action::FastForward => self.jump = self.fast_forward(),
            Action::PlayTick => {
                self.jump = self.fast_forward();
                if self.jump.is_none() {
                    self.step_forward();
                }
            }
            Action::StepBack => self.history.step_back(),
            Action::NextNote => {
                if let Some(step) = self.next_note() {
                    self.apply(Action::JumpTo(step));
                }
            }
            Action::ShowExplained(index) => {
                if let Some(step) = self.explained_step(index) {
                    self.apply(Action::JumpTo(step));
                }
            }
            Action::PlaySolution(index) => self.play_solution(index),
            // Taken by `apply_live` in live mode, and nothing otherwise.
            Action::Serve(_) | Action::Served(_) | Action::ServedStatus { .. } => {}
            Action::JumpTo(n) => {
                // Past the horizon the simulation runs ahead (at most `RUN_AHEAD` steps).
                let n = n.min(self.trace.len() as u64 + RUN_AHEAD);
                if n > self.trace.len() as u64 {
                    self.history.jump_to(self.trace.len() as u64);
                    let ahead = self.history.run_to(n);
                    self.trace.extend(ahead);
                }
                self.history.jump_to(n.min(self.trace.len() as u64));
            }
            Action::Reset => {
                let fresh = match &self.scenario {
                    Some(s) => Self::lesson(&s.id, Some(self.seed), Some(self.era))
                        .unwrap_or_else(|_| Session::with_load(self.seed, self.load, self.era)),
                    None => Session::with_load(self.seed, self.load, self.era),
                };
                *self =
                    Session { inspected: self.inspected, filter: self.filter, lang: self.lang, era: self.era, ..fresh };
            }
            Action::Inspect(stage) => self.inspected = stage,
            Action::Filter(stage) => self.filter = stage,
            Action::Fault(Fault::Latency(ms)) if ms > crate::limits::MAX_LATENCY_MS => {
                self.message = Some(Message::Failed(Refusal::Limit(crate::limits::Exceeded::Latency { ms })));
            }
            Action::Fault(fault) => self.act(world::Intervention::Fault(fault)),
            Action::Kubectl(entry) => self.kubectl(&entry),
            Action::Open(key) => self.opened = Some(key),
            Action::SetLang(lang) => self.lang = lang,
            Action::Answer(question, choice) => {
                self.answers.or_insert_with(question, || choice);
            }
            Action::LoadScenario(id) => match Self::with_scenario(&id) {
                Ok(mut next) => {
                    next.lang = self.lang;
                    *self = next;
                }
                Err(notice) => self.message = Some(Message::Failed(Refusal::Notice(notice))),
            },
            Action::Follow(query) => {
                let (link, notices) = link::Link::parse(&query);
                let mut next = Session::from_link(&link, notices);
                (next.inspected, next.filter, next.lang) = (self.inspected, self.filter, self.lang);
                *self = next;
            }
            Action::Compare(None) => self.compared = None,
            Action::Compare(Some(era)) => {
                let mut link = self.link();
                (link.era, link.compare) = (Some(era), None);
                let mut other = Session::from_link(&link, Vec::new());
                other.lang = self.lang;
                match other.notices.first() {
                    Some(notice) => self.message = Some(Message::Failed(Refusal::Notice(notice.clone()))),
                    None => self.compared = Some(Box::new(other)),
                }
            }
            Action::SetEra(era) => {
                // The same lesson, actions and step, in another release.
                let mut link = self.link();
                link.era = Some(era);
                let mut next = Session::from_link(&link, Vec::new());
                match next.notices.first() {
                    Some(notice) => self.message = Some(Message::Failed(Refusal::Notice(notice.clone()))),
                    None => {
                        (next.inspected, next.filter, next.lang) = (self.inspected, self.filter, self.lang);
                        *self = next;
                    }
                }
            }
            Action::Create(text) => self.message = Some(self.write(PersonWrite::Manifest(UserVerb::Create, text))),
            Action::Update(text) => self.message = Some(self.write(PersonWrite::Manifest(UserVerb::Update, text))),
            Action::DeleteManifest(text) => {
                self.message = Some(self.write(PersonWrite::Manifest(UserVerb::Delete, text)))
            }
            Action::Delete { kind, namespace, name } => {
                self.message = Some(self.write(PersonWrite::Delete { kind, namespace, name }))
            }
        }
        if self.jump.is_none() && keeps_world && self.world().steps() == here {
            self.jump = jumped;
        }
        if let Some(record) = recorded {
            self.log.record(record);
        }
    }
}
