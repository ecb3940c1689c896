//! Time travel over a world (DESIGN "Time travel"): snapshots plus the log of actions, so
//! "step back" and "jump to step N" restore the nearest earlier snapshot and replay. Acting at
//! an earlier step starts a new branch: what came after is forgotten.
//!
//! Memory stays bounded: a snapshot is taken every `every` steps, and when there are more than
//! `MAX_SNAPSHOTS`, every other one in the older half goes, so snapshots thin out with age
//! (a jump far back replays more steps than one nearby).

use super::{Action, World};
use crate::sim::TraceEvent;

/// Snapshots kept at most.
pub const MAX_SNAPSHOTS: usize = 24;

#[derive(Clone, Debug)]
pub struct History {
    every: u64,
    /// (step, world at that step before any action taken there), oldest first.
    snapshots: Vec<(u64, World)>,
    /// Actions with the step at which they were taken, in order.
    actions: Vec<(u64, Action)>,
    world: World,
    /// The furthest step this branch has reached.
    horizon: u64,
}

impl History {
    pub fn new(world: World, every: u64) -> Self {
        History {
            every: every.max(1),
            snapshots: vec![(world.steps(), world.clone())],
            actions: Vec::new(),
            horizon: world.steps(),
            world,
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
        let event = self.world.step()?;
        let s = self.world.steps();
        let newest = self.snapshots.last().map_or(0, |(at, _)| *at);
        if s.is_multiple_of(self.every) && s > newest {
            self.snapshots.push((s, self.world.clone()));
            self.thin();
        }
        self.horizon = self.horizon.max(s);
        Self::replay_actions(&self.actions, &mut self.world);
        Some(event)
    }

    /// Drops every other snapshot of the older half (never the first) when over the cap.
    fn thin(&mut self) {
        if self.snapshots.len() <= MAX_SNAPSHOTS {
            return;
        }
        let older = self.snapshots.len() / 2;
        let mut index = 0;
        self.snapshots.retain(|_| {
            let keep = index == 0 || index >= older || index % 2 == 0;
            index += 1;
            keep
        });
    }

    fn replay_actions(actions: &[(u64, Action)], world: &mut World) {
        let s = world.steps();
        for (_, action) in actions.iter().filter(|(at, _)| *at == s) {
            world.act(action.clone());
        }
    }

    /// Takes an action now. Behind the horizon this starts a new branch.
    pub fn act(&mut self, action: Action) {
        let s = self.world.steps();
        if s < self.horizon {
            self.actions.retain(|(at, _)| *at <= s);
            self.snapshots.retain(|(at, _)| *at <= s);
            self.horizon = s;
        }
        self.actions.push((s, action.clone()));
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
        let from = self.snapshots.partition_point(|(at, _)| *at <= n).saturating_sub(1);
        let mut world = self.snapshots[from].1.clone();
        Self::replay_actions(&self.actions, &mut world);
        while world.steps() < n && world.step().is_some() {
            Self::replay_actions(&self.actions, &mut world);
        }
        self.world = world;
    }

    pub fn step_back(&mut self) {
        self.jump_to(self.world.steps().saturating_sub(1));
    }
}
