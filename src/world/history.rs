//! Time travel over a world (DESIGN "Time travel"): a snapshot every `every` steps plus the
//! log of actions, so "step back" and "jump to step N" restore the nearest earlier snapshot
//! and replay. Acting at an earlier step starts a new branch: what came after is forgotten.

use super::{Action, World};
use crate::sim::TraceEvent;

#[derive(Clone, Debug)]
pub struct History {
    every: u64,
    /// `snapshots[i]` is the world at step `i · every`, before any action taken there.
    snapshots: Vec<World>,
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
            snapshots: vec![world.clone()],
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

    /// One step forward. Arriving at a step re-takes the actions recorded there.
    pub fn step(&mut self) -> Option<TraceEvent> {
        let event = self.world.step()?;
        let s = self.world.steps();
        if s.is_multiple_of(self.every) && self.snapshots.len() as u64 == s / self.every {
            self.snapshots.push(self.world.clone());
        }
        self.horizon = self.horizon.max(s);
        Self::replay_actions(&self.actions, &mut self.world);
        Some(event)
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
            self.snapshots.truncate((s / self.every + 1) as usize);
            self.horizon = s;
        }
        self.actions.push((s, action.clone()));
        self.world.act(action);
    }

    /// Restores the world at step `n` (at most the horizon) by replaying from a snapshot.
    pub fn jump_to(&mut self, n: u64) {
        let n = n.min(self.horizon);
        let index = ((n / self.every) as usize).min(self.snapshots.len() - 1);
        let mut world = self.snapshots[index].clone();
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
