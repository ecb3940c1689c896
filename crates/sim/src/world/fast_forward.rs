//! Fast-forwarding a bulk phase: thousands of steps of the same few kinds in a row (a watch
//! list's initial ADDED events, the handler and workqueue calls they cause, a controller's
//! reconcile loop over every object). The model keeps one message per step; the page and the
//! CLI may pass over such a stretch as one labelled jump that names what it skipped and how
//! many of each, so a lesson at scale fits a workshop's minutes.
//!
//! A stretch is a bulk phase once its last [`WINDOW`] steps take at most [`KINDS`] routes
//! (kind of step, from stage, to stage), whatever objects they carry; it goes on while the
//! steps keep to those routes. Not an upstream concept: nothing here changes what happens,
//! only how much of it is shown one step at a time.

use crate::kernel::{sort, Stage, TraceKind};
use crate::world::TraceEvent;

/// How many recent steps show that a bulk phase is under way.
pub const WINDOW: usize = 16;
/// The most routes a bulk phase repeats.
pub const KINDS: usize = 3;
/// A jump shorter than this is not worth one: the steps are shown one by one.
pub const MIN_JUMP: u64 = 32;

/// The route of a step: what kind of message went from which stage to which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct StepRoute {
    pub kind: TraceKind,
    pub from: Stage,
    pub to: Stage,
}

impl StepRoute {
    pub fn of(event: &TraceEvent) -> StepRoute {
        StepRoute { kind: event.kind, from: event.from, to: event.to }
    }
}

/// The routes of the bulk phase the last steps of `trace` are in, if they are in one.
pub fn phase(trace: &[TraceEvent]) -> Option<Vec<StepRoute>> {
    let recent = trace.get(trace.len().checked_sub(WINDOW)?..)?;
    let mut routes: Vec<StepRoute> = Vec::with_capacity(KINDS + 1);
    for route in recent.iter().map(StepRoute::of) {
        if !routes.contains(&route) {
            routes.push(route);
            if routes.len() > KINDS {
                return None;
            }
        }
    }
    sort::sort(&mut routes);
    Some(routes)
}

/// What one jump passed over: steps `from`+1 through `to`, counted by route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jump {
    /// The step the jump started from.
    pub from: u64,
    /// The step it landed on.
    pub to: u64,
    /// Each route the skipped steps took and how many took it, most first.
    pub counts: Vec<(StepRoute, u64)>,
}

impl Jump {
    /// Counts the routes of `skipped`, the steps passed over between `from` and `to`.
    pub fn over(from: u64, to: u64, skipped: &[TraceEvent]) -> Jump {
        let mut counts: Vec<(StepRoute, u64)> = Vec::new();
        for route in skipped.iter().map(StepRoute::of) {
            match counts.iter_mut().find(|(r, _)| *r == route) {
                Some((_, n)) => *n += 1,
                None => counts.push((route, 1)),
            }
        }
        sort::sort_by(&mut counts, |a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Jump { from, to, counts }
    }

    pub fn skipped(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum()
    }
}

/// Where a phase with `routes` ends in `ahead` (the steps after the current one): the index of
/// the first step that leaves it, or `None` when all of `ahead` keeps to it.
pub fn end(routes: &[StepRoute], ahead: &[TraceEvent]) -> Option<usize> {
    ahead.iter().position(|e| !routes.contains(&StepRoute::of(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Outcome;

    fn event(step: u64, kind: TraceKind, from: Stage, to: Stage) -> TraceEvent {
        TraceEvent { step, time_ms: 0, from, to, kind, key: format!("ns/p{step}"), rv: 0, outcome: Outcome::PopEmpty }
    }

    fn added(step: u64) -> TraceEvent {
        event(step, TraceKind::Added, Stage::ApiServer, Stage::Reflector)
    }

    #[test]
    fn a_run_of_one_route_is_a_phase_whatever_the_objects() {
        let trace: Vec<_> = (1..=WINDOW as u64).map(added).collect();
        let routes = phase(&trace).expect("a phase");
        assert_eq!(routes, vec![StepRoute::of(&added(1))]);
        assert_eq!(phase(&trace[1..]), None, "fewer steps than the window say nothing yet");
    }

    #[test]
    fn an_ordinary_chain_of_stages_is_not_a_phase() {
        let kinds = [
            (TraceKind::Added, Stage::ApiServer, Stage::Reflector),
            (TraceKind::DeltaQueued, Stage::Reflector, Stage::Fifo),
            (TraceKind::Pop, Stage::Fifo, Stage::Informer),
            (TraceKind::IndexerWrite, Stage::Informer, Stage::Indexer),
        ];
        let trace: Vec<_> = (0..WINDOW as u64)
            .map(|i| event(i + 1, kinds[i as usize % 4].0, kinds[i as usize % 4].1, kinds[i as usize % 4].2))
            .collect();
        assert_eq!(phase(&trace), None);
    }

    #[test]
    fn the_phase_ends_at_the_first_step_that_leaves_its_routes_and_the_jump_counts_them() {
        let routes = vec![StepRoute::of(&added(1))];
        let mut ahead: Vec<_> = (1..=40).map(added).collect();
        ahead.push(event(41, TraceKind::Bookmark, Stage::ApiServer, Stage::Reflector));
        assert_eq!(end(&routes, &ahead), Some(40));
        assert_eq!(end(&routes, &ahead[..40]), None);
        let jump = Jump::over(10, 50, &ahead[..40]);
        assert_eq!(jump.skipped(), 40);
        assert_eq!(jump.counts, vec![(routes[0], 40)]);
    }
}
