//! What each stage of the diagram shows inside its box at the current step, so that things
//! visibly pile up and drain: etcd's revision and compaction line, the watch cache's window,
//! the Reflector's phase (with its back-off countdown), the FIFO's keys as chips with their
//! delta counts, the indexer's objects, the handlers' pending notifications, the workqueue's
//! queued and processing keys and the workers busy or idle.
//!
//! Plain values computed from the world (summed over its informers and controllers); the
//! diagram renders them in the page's language.

use crate::client::reflector::Phase;
use crate::cluster::Kind;
use crate::cluster::Verb;
use crate::kernel::Millis;
use crate::world::{Worker, World};

/// The FIFO chips shown before "+N".
pub const CHIPS: usize = 3;

/// The Reflector's state, for its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReflectorState {
    Idle,
    Listing,
    Watching,
    /// Opening a watch or a watch-list, or streaming its initial events.
    Opening,
    /// Backing off until the given virtual time.
    BackingOff {
        until: Millis,
    },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Glance {
    pub revision: i64,
    pub compacted: Option<i64>,
    /// The first watch cache's window: oldest servable RV … newest.
    pub window: Option<(i64, i64)>,
    pub reflector: Option<ReflectorState>,
    /// `list` and `watch`, where the first informer's user may not do them on its kind.
    pub locked: Vec<Verb>,
    /// The FIFOs' first keys, each with its number of deltas, in pop order; how many more.
    pub fifo: Vec<(String, usize)>,
    pub fifo_more: usize,
    pub objects: usize,
    pub pending: usize,
    pub queued: usize,
    pub processing: usize,
    pub busy: usize,
    pub workers: usize,
    pub now: Millis,
    /// The poller's period, when the world has one.
    pub poll_every: Option<Millis>,
}

/// The world at a glance.
pub fn glance(world: &World) -> Glance {
    let store = world.api.store();
    let window = Kind::ALL.iter().find_map(|k| world.api.watch_cache(*k)).map(|c| (c.oldest_servable(), c.revision()));
    let reflector = world.informers.first().map(|s| match s.pipeline.reflector.phase {
        Phase::Idle => ReflectorState::Idle,
        Phase::Listing => ReflectorState::Listing,
        Phase::Watching { .. } => ReflectorState::Watching,
        Phase::WatchRequested | Phase::WatchListRequested | Phase::Streaming { .. } => ReflectorState::Opening,
        Phase::BackingOff { until, .. } => ReflectorState::BackingOff { until },
    });
    let locked = world.informers.first().map_or_else(Vec::new, |s| {
        let kind = s.config.reflector.kind;
        let namespace = s.config.reflector.namespace.as_deref().unwrap_or("");
        [Verb::List, Verb::Watch]
            .into_iter()
            .filter(|verb| world.api.authorize(world.controller_user(), *verb, kind, "", namespace, None).is_err())
            .collect()
    });
    let mut fifo = Vec::new();
    let mut fifo_len = 0;
    for stack in &world.informers {
        let view = stack.pipeline.informer.fifo.view(CHIPS);
        fifo_len += view.len;
        fifo.extend(view.entries.into_iter().map(|e| (e.key, e.deltas.len())));
    }
    fifo.truncate(CHIPS);
    let queues = world.controllers.iter().map(|c| &c.queue);
    Glance {
        revision: store.revision(),
        compacted: store.compact_revision(),
        window,
        reflector,
        locked,
        fifo_more: fifo_len.saturating_sub(fifo.len()),
        fifo,
        objects: world.informers.iter().map(|s| s.pipeline.informer.indexer.len()).sum(),
        pending: world
            .informers
            .iter()
            .flat_map(|s| s.pipeline.informer.listeners.iter())
            .map(|l| l.buffer.len())
            .sum(),
        queued: queues.clone().map(|q| q.len()).sum(),
        processing: queues.map(|q| q.processing().count()).sum(),
        busy: world.workers.iter().filter(|w| !matches!(w, Worker::Idle)).count(),
        workers: world.workers.len(),
        now: world.now(),
        poll_every: world.config.poll.as_ref().map(|p| p.every_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Action, Session};

    #[test]
    fn the_fifo_fills_with_a_burst_and_drains_as_it_pops() {
        // Lesson 10: three changes to one key arrive before the informer pops any.
        let mut session = Session::from_query("?scenario=delta-fifo-grouping");
        let mut most = 0;
        let mut grouped = false;
        for _ in 0..200 {
            session.apply(Action::StepForward);
            let g = glance(session.world());
            most = most.max(g.fifo.len() + g.fifo_more);
            grouped |= g.fifo.iter().any(|(_, n)| *n >= 3);
            assert!(g.fifo.len() <= CHIPS);
        }
        assert!(grouped, "one key's chip counts its three deltas");
        assert!(most >= 1);
        let end = glance(session.world());
        assert!(end.fifo.is_empty() && end.fifo_more == 0, "drained: {end:?}");
        assert_eq!(end.reflector, Some(ReflectorState::Watching));
        assert!(end.window.is_some_and(|(oldest, newest)| oldest <= newest));
    }

    #[test]
    fn a_revoked_list_leaves_the_reflector_backing_off_with_a_countdown() {
        let mut session = Session::from_query("?scenario=rbac-without-list-watch&era=1.30");
        let mut backing_off = None;
        for _ in 0..60 {
            session.apply(Action::StepForward);
            let g = glance(session.world());
            if let Some(ReflectorState::BackingOff { until }) = g.reflector {
                backing_off = Some((until, session.world().now()));
                // The lesson grants list at 20 s.
                let locked: &[Verb] = if session.world().now() < 20_000 { &[Verb::List] } else { &[] };
                assert_eq!(g.locked, locked, "the padlock is on list until it is granted");
            }
        }
        let (until, now) = backing_off.expect("the 403 LIST backs off");
        assert!(until > now, "the countdown runs to a time still ahead ({until} > {now})");
    }
}
