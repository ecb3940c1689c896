//! Time travel over a world (ARCHITECTURE.md: "time travel is replay"): snapshots plus the log of actions, so
//! "step back" and "jump to step N" restore the nearest earlier snapshot and replay. Acting at
//! an earlier step starts a new branch: what came after is forgotten.
//!
//! Memory stays bounded: a snapshot is taken every `every` steps (and on the way to a step
//! jumped to), and beyond a cap the ones far from the current step thin out, so
//! steps near where the person is looking stay cheap to revisit. Copies of a world share its
//! objects, so a snapshot costs little memory.
//!
//! Time stays off the step: the copy a step is due is made by [`History::settle`] (a page
//! calls it when idle) or before the world next changes, and the world a jump back leaves
//! becomes a snapshot instead of being torn down. A page also has the steps on either side
//! worked out while idle ([`History::look_ahead`], [`History::look_behind`]): the world is
//! deterministic, so a step forward or back then only takes the world already made.

use super::{Intervention, World};
use crate::kernel::StepLog;
use crate::world::TraceEvent;

/// Snapshots kept at most.
pub const MAX_SNAPSHOTS: usize = 48;
/// Snapshots kept at least, however big the world.
pub const MIN_SNAPSHOTS: usize = 8;
/// What the snapshots of a big world may hold together, in objects: a snapshot shares the
/// objects themselves, but its maps and queues still cost a few hundred bytes per object.
const SNAPSHOT_BUDGET_OBJECTS: usize = 800_000;

#[derive(Clone, Debug)]
pub struct History {
    every: u64,
    /// (step, world at that step before any action taken there), oldest first.
    snapshots: Vec<(u64, World)>,
    /// Actions with the step at which they were taken, in order.
    actions: StepLog<(u64, Intervention)>,
    world: World,
    /// The furthest step this branch has reached.
    horizon: u64,
    /// The current world is due to become its step's snapshot: the copy is made by
    /// [`History::settle`] (a page calls it once the step is drawn) or, at the latest, before
    /// the world changes again, so a step never waits for a copy.
    due: bool,
    /// The world one step on from `world` and that step's event, worked out ahead
    /// ([`History::look_ahead`]); anything else that changes `world` drops it.
    ahead: Option<Box<(World, TraceEvent)>>,
    /// The world one step before `world` on this branch, rebuilt ahead for a step back
    /// ([`History::look_behind`]); the next rebuild takes it if it is the world wanted.
    behind: Option<Box<World>>,
    /// The world a step taken ahead replaced (or the one worked out ahead, when unused), torn
    /// down when idle rather than during a step: with thousands of objects that costs
    /// milliseconds.
    spent: Option<World>,
}

impl History {
    pub fn new(world: World, every: u64) -> Self {
        History {
            every: every.max(1),
            snapshots: vec![(world.steps(), world.clone())],
            actions: StepLog::default(),
            horizon: world.steps(),
            world,
            due: false,
            ahead: None,
            behind: None,
            spent: None,
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// The furthest step reached on this branch (what "jump" can go back to).
    pub fn horizon(&self) -> u64 {
        self.horizon
    }

    /// How many snapshots are kept now.
    pub fn snapshot_count(&self) -> usize {
        self.snapshots.len()
    }

    /// One step forward. Arriving at a step re-takes the actions recorded there.
    pub fn step(&mut self) -> Option<TraceEvent> {
        self.step_snapshotting(self.every)
    }

    /// Steps forward to `n` and returns the trace; snapshots are sparse on the way and dense
    /// on the last stretch (a long run ahead costs little, stepping back from its end too).
    pub fn run_to(&mut self, n: u64) -> Vec<TraceEvent> {
        let mut trace = Vec::new();
        while self.world.steps() < n {
            let sparse = if n - self.world.steps() > 4 * self.every { self.every * 64 } else { self.every };
            match self.step_snapshotting(sparse) {
                Some(event) => trace.push(event),
                None => break,
            }
        }
        trace
    }

    fn step_snapshotting(&mut self, every: u64) -> Option<TraceEvent> {
        self.settle();
        let event = match self.ahead.take() {
            Some(next) if next.0.steps() == self.world.steps() + 1 => {
                let (world, event) = *next;
                self.spent = Some(std::mem::replace(&mut self.world, world));
                event
            }
            _ => self.world.step()?,
        };
        let s = self.world.steps();
        let newest = self.snapshots.last().map_or(0, |(at, _)| *at);
        if s.is_multiple_of(every) && s > newest {
            if self.actions.has_at(s) {
                // The snapshot is the world before the actions taken here: copy it now.
                let world = self.world.clone();
                self.keep(world);
            } else {
                self.due = true;
            }
        }
        self.horizon = self.horizon.max(s);
        Self::replay_actions(&self.actions, &mut self.world);
        Some(event)
    }

    /// Makes the snapshot the current step is due (see `due`); cheap when none is.
    pub fn settle(&mut self) {
        if std::mem::take(&mut self.due) {
            let world = self.world.clone();
            self.remember_owned(world);
        }
    }

    /// Works out the next step on a copy of the world, for [`History::step`] to take (a page
    /// calls it when idle). The copy shares the world's objects; stepping it is the same step
    /// the world would take, so what a step shows is unchanged, only sooner.
    pub fn look_ahead(&mut self) {
        self.spent = None;
        if self.ahead.is_none() {
            let mut next = self.world.clone();
            self.ahead = next.step().map(|event| Box::new((next, event)));
        }
    }

    /// Rebuilds the world one step back, for [`History::step_back`] to take (a page calls it
    /// when idle and paused: during Play nobody steps back).
    pub fn look_behind(&mut self) {
        let here = self.world.steps();
        if here > 0 && self.behind.as_ref().is_none_or(|w| w.steps() + 1 != here) {
            self.behind = Some(Box::new(self.rebuilt(here - 1)));
        }
    }

    /// Drops the step worked out ahead (the world is about to change otherwise); its world is
    /// torn down when idle.
    fn forget_ahead(&mut self) {
        if let Some(next) = self.ahead.take() {
            self.spent = Some(next.0);
        }
    }

    /// How many snapshots this world's size allows.
    fn cap(&self) -> usize {
        (SNAPSHOT_BUDGET_OBJECTS / self.world.footprint().max(1)).clamp(MIN_SNAPSHOTS, MAX_SNAPSHOTS)
    }

    /// Over the cap, drops the snapshot whose loss matters least: the one with the closest
    /// neighbours, weighed by its distance from the current step (never the first).
    fn thin(&mut self) {
        let here = self.world.steps();
        let cap = self.cap();
        while self.snapshots.len() > cap {
            let worst = (1..self.snapshots.len() - 1).min_by_key(|&i| {
                let gap = self.snapshots[i + 1].0 - self.snapshots[i - 1].0;
                let distance = self.snapshots[i].0.abs_diff(here);
                gap * 1_000 / (1 + distance)
            });
            match worst {
                Some(i) => self.snapshots.remove(i),
                None => break,
            };
        }
    }

    /// Whether a snapshot of step `s` is kept.
    fn has_snapshot(&self, s: u64) -> bool {
        let at = self.snapshots.partition_point(|(step, _)| *step < s);
        self.snapshots.get(at).is_some_and(|(step, _)| *step == s)
    }

    /// Keeps a snapshot of `world` unless one exists at its step.
    fn remember(&mut self, world: &World) {
        if !self.has_snapshot(world.steps()) {
            self.keep(world.clone());
        }
    }

    /// Keeps `world` as the snapshot of its step unless one exists there.
    fn remember_owned(&mut self, world: World) {
        if !self.has_snapshot(world.steps()) {
            self.keep(world);
        }
    }

    /// Keeps `world` as the snapshot of its step (there is none yet).
    fn keep(&mut self, world: World) {
        let s = world.steps();
        let at = self.snapshots.partition_point(|(step, _)| *step < s);
        self.snapshots.insert(at, (s, world));
        self.thin();
    }

    fn replay_actions(actions: &StepLog<(u64, Intervention)>, world: &mut World) {
        for (_, action) in actions.at(world.steps()) {
            world.act(action.clone());
        }
    }

    /// Behind the horizon, starts a new branch at the current step and answers true: the
    /// actions the branch left behind took at this step or later are forgotten (the one rule
    /// of a [`StepLog`]), so the world is rebuilt at this step without those taken here; the
    /// snapshots after this step go (the one at it is the world before any action there).
    pub fn branch(&mut self) -> bool {
        let s = self.world.steps();
        if s >= self.horizon {
            return false;
        }
        self.settle();
        self.forget_ahead();
        self.behind = None;
        let abandoned_here = self.actions.has_at(s);
        self.actions.cut(s);
        self.snapshots.retain(|(at, _)| *at <= s);
        self.horizon = s;
        if abandoned_here {
            drop(self.rebuild_at(s));
        }
        true
    }

    /// Takes an action now; behind the horizon this starts a new branch first.
    /// The actions taken on this branch, with the step each was taken at.
    pub fn actions(&self) -> &[(u64, Intervention)] {
        &self.actions
    }

    pub fn act(&mut self, action: Intervention) {
        self.branch();
        self.settle();
        self.forget_ahead();
        self.behind = None;
        self.actions.record((self.world.steps(), action.clone()));
        self.world.act(action);
    }

    /// Restores the world at step `n` (at most the horizon) by replaying from a snapshot.
    pub fn jump_to(&mut self, n: u64) {
        let n = n.min(self.horizon);
        if n >= self.world.steps() && n - self.world.steps() < self.every {
            // Close ahead: replaying from here is cheaper than from a snapshot.
            while self.world.steps() < n && self.step().is_some() {}
            return;
        }
        self.due = false;
        let left = self.rebuild_at(n);
        // The world left behind becomes a snapshot (when nothing was done at its step): coming
        // back to it costs a copy, and leaving it costs no teardown now.
        let s = left.steps();
        if !self.actions.has_at(s) {
            self.remember_owned(left);
        }
    }

    /// Rebuilds the world at step `n` from the nearest snapshot, replaying this branch's
    /// actions; returns the world it replaces.
    fn rebuild_at(&mut self, n: u64) -> World {
        self.forget_ahead();
        let world = match self.behind.take() {
            Some(world) if world.steps() == n => *world,
            _ => self.rebuilt(n),
        };
        std::mem::replace(&mut self.world, world)
    }

    /// The world at step `n` of this branch, from the nearest snapshot.
    fn rebuilt(&mut self, n: u64) -> World {
        let from = self.snapshots.partition_point(|(at, _)| *at <= n).saturating_sub(1);
        let mut world = self.snapshots[from].1.clone();
        Self::replay_actions(&self.actions, &mut world);
        while world.steps() < n && world.step().is_some() {
            // Snapshots on the last stretch make the next steps back from here cheap.
            if world.steps().is_multiple_of(self.every) && n - world.steps() < 2 * self.every {
                self.remember(&world);
            }
            Self::replay_actions(&self.actions, &mut world);
        }
        world
    }

    pub fn step_back(&mut self) {
        self.jump_to(self.world.steps().saturating_sub(1));
    }
}
