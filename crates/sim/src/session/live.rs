//! Live mode: a session that follows a world `serve-api` serves to real clients. It makes the
//! same world from what the world was made from ([`Origin`]) and takes every input the served
//! world took ([`ServedEntry`], from serve-api's live feed), so every stage, inspector and log
//! shows the served world itself. Inputs are taken only at the furthest step reached: a
//! person who stepped back sees earlier states while new inputs wait, and Step forward there
//! takes them one step at a time. Writes and faults made in the page would change only the
//! page's copy, so they are refused: faults go to the server (its controls).
//!
//! Each real client is a lane ([`Lane`], by its user and `User-Agent`): its requests and
//! answers, its watches (from which resourceVersion, bookmarks asked, events handed over), and
//! what the page can tell from the server's side ([`LaneNotice`]).

use super::{Action, Message, Refusal, Session};
use crate::cluster::watch::ApiWatchId;
use crate::cluster::{Kind, Verb, WatchEvent};
use crate::era::Era;
use crate::session::link::Problem;
use crate::world::{OutsideAnswer, OutsideCall, ServedChange, ServedEntry, ServedInput, TraceEvent};
use std::collections::VecDeque;

crate::kernel::later::later!(
    /// Live mode's handling of a session's actions: always natively; in the page, once live
    /// mode's module has arrived (it sends the first of them).
    live_actions, install_live_actions: fn(&mut Session, &Action) -> bool = Session::apply_live
);

/// What a served world was made from (serve-api's `world` frame).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Origin {
    pub scenario: String,
    pub era: String,
    pub seed: u64,
    pub clock_offset_ms: u64,
}

/// A served world's input as an action carries it: shared, and compared by identity (its
/// content's comparisons and printing stay out of the page's first module); never in a link.
#[derive(Clone)]
pub struct Fed(pub std::rc::Rc<ServedEntry>);

impl PartialEq for Fed {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Fed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "served input before step {}", self.0.step)
    }
}

/// A session's live state.
#[derive(Clone, Debug, Default)]
pub struct Served {
    /// Inputs not taken yet (the person is behind the furthest step, or steps them one by one).
    pending: VecDeque<ServedEntry>,
    /// The steps the served world has taken.
    server_steps: u64,
    pub paused: bool,
    lanes: Vec<Lane>,
    /// What the person asked of the server, in order (the page's live bar sends each once).
    asked: Vec<Ask>,
}

/// What a person asks of the served world through the page's own controls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Step forward with nothing left to take: the served world's next step.
    Step,
    /// A fault, as serve-api names it.
    Fault(String),
}

impl Served {
    /// What the person asked of the server so far, in order.
    pub fn asked(&self) -> &[Ask] {
        &self.asked
    }

    /// The inputs and steps the page has not taken yet.
    pub fn behind(&self, steps: u64) -> u64 {
        self.server_steps.saturating_sub(steps).max(self.pending.len() as u64)
    }
}

/// One real client: who it is and what it did, each record with the step it came at.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub user: String,
    pub agent: String,
    pub requests: Vec<LaneRequest>,
    pub watches: Vec<LaneWatch>,
}

/// A request of a lane's and its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneRequest {
    /// The step it was.
    pub step: u64,
    pub verb: Verb,
    pub kind: Kind,
    /// `namespace/name`, or the namespace a LIST or WATCH read.
    pub key: String,
    /// The error's code (`None`: answered).
    pub code: Option<u16>,
    /// A LIST's or WATCH's `resourceVersion`.
    pub resource_version: String,
    pub dry_run: bool,
}

/// A watch a lane opened.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneWatch {
    pub id: ApiWatchId,
    pub kind: Kind,
    /// The step it was opened at.
    pub opened: u64,
    pub resource_version: String,
    pub bookmarks: bool,
    pub initial_events: bool,
    /// Events handed to it: (step, how many, of which `410 Gone` errors).
    pub handed: Vec<(u64, usize, usize)>,
    /// The step it ended at.
    pub ended: Option<u64>,
}

/// What the page can tell of a client from the server's side, up to a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneNotice {
    /// LISTs again and again and watches nothing of the kind: polling.
    Polling { kind: Kind, lists: usize },
    /// A watch opened again from `resourceVersion` 0 or none: everything is sent again.
    WatchFromScratch { kind: Kind, resource_version: String },
    /// A write refused with 409: it was made on an object read before someone else's change.
    Conflict { key: String },
    /// The whole list again (a LIST, or a watch that sends its initial events, after the first):
    /// a relist; `after_gone` when a 410 (the watch's resourceVersion is gone) came before it.
    Relisted { kind: Kind, after_gone: bool },
    /// Refused by RBAC.
    Forbidden { verb: Verb, kind: Kind },
}

impl LaneNotice {
    /// The notice in `lang`.
    pub fn text(&self, lang: crate::i18n::Lang) -> String {
        match self {
            LaneNotice::Polling { kind, lists } => trf!(
                lang,
                "polls: {lists} LISTs of {kind} and no watch",
                &[("lists", &lists.to_string()), ("kind", &kind.name())]
            ),
            LaneNotice::WatchFromScratch { kind, resource_version } => trf!(
                lang,
                "watches {kind} again from resourceVersion \"{rv}\": everything is sent again",
                &[("kind", &kind.name()), ("rv", resource_version)]
            ),
            LaneNotice::Conflict { key } => {
                trf!(lang, "409 Conflict on {key}: a write made on what it read before a change", &[("key", key)])
            }
            LaneNotice::Relisted { kind, after_gone: true } => {
                trf!(lang, "410 Gone, then the whole list of {kind} again: a relist", &[("kind", &kind.name())])
            }
            LaneNotice::Relisted { kind, after_gone: false } => {
                trf!(lang, "the whole list of {kind} again: a relist", &[("kind", &kind.name())])
            }
            LaneNotice::Forbidden { verb, kind } => {
                trf!(lang, "403 Forbidden: may not {verb} {kind}", &[("verb", &verb.rbac()), ("kind", &kind.name())])
            }
        }
    }
}

/// A lane as it was at a step.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneAt<'a> {
    pub lane: &'a Lane,
    pub requests: Vec<&'a LaneRequest>,
    /// Watches open then, each with the events handed to it by then.
    pub open: Vec<(&'a LaneWatch, usize)>,
    /// Watches that had ended by then.
    pub ended: usize,
    pub notices: Vec<LaneNotice>,
}

/// LISTs of a kind with no watch of it that make a lane a poller.
const POLLING_LISTS: usize = 3;

impl Lane {
    /// The lane as it was at `step`.
    pub fn at(&self, step: u64) -> LaneAt<'_> {
        let requests: Vec<&LaneRequest> = self.requests.iter().filter(|r| r.step <= step).collect();
        let watches: Vec<&LaneWatch> = self.watches.iter().filter(|w| w.opened <= step).collect();
        let handed = |w: &LaneWatch| w.handed.iter().filter(|(s, ..)| *s <= step).map(|(_, n, _)| n).sum::<usize>();
        let open = watches.iter().filter(|w| w.ended.is_none_or(|e| e > step)).map(|w| (*w, handed(w))).collect();
        let ended = watches.len() - watches.iter().filter(|w| w.ended.is_none_or(|e| e > step)).count();
        let mut notices = Vec::new();
        let mut kinds: Vec<Kind> = requests.iter().map(|r| r.kind).collect();
        kinds.sort();
        kinds.dedup();
        for kind in kinds {
            let lists = requests.iter().filter(|r| r.kind == kind && r.verb == Verb::List).count();
            let polling = lists >= POLLING_LISTS && !watches.iter().any(|w| w.kind == kind);
            if polling {
                notices.push(LaneNotice::Polling { kind, lists });
            }
            let of_kind: Vec<&&LaneWatch> = watches.iter().filter(|w| w.kind == kind).collect();
            if let Some(again) = of_kind.iter().skip(1).find(|w| matches!(w.resource_version.as_str(), "" | "0")) {
                notices.push(LaneNotice::WatchFromScratch { kind, resource_version: again.resource_version.clone() });
            }
            // The whole list again: a LIST or a watch that sends its initial events, after the first
            // (a poller's LISTs are its polling).
            let lists: Vec<u64> = requests
                .iter()
                .filter(|r| r.kind == kind && r.verb == Verb::List)
                .map(|r| r.step)
                .chain(of_kind.iter().filter(|w| w.initial_events).map(|w| w.opened))
                .collect();
            let first = lists.iter().min().copied();
            let again = lists.iter().filter(|s| Some(**s) != first).min().filter(|_| !polling);
            if let Some(again) = again {
                let gone = of_kind
                    .iter()
                    .flat_map(|w| w.handed.iter().filter(|(s, _, gone)| *s <= *again && *gone > 0))
                    .count()
                    + requests.iter().filter(|r| r.kind == kind && r.code == Some(410) && r.step < *again).count();
                notices.push(LaneNotice::Relisted { kind, after_gone: gone > 0 });
            }
        }
        for r in &requests {
            match r.code {
                Some(409) if !r.dry_run => notices.push(LaneNotice::Conflict { key: r.key.clone() }),
                Some(403) => notices.push(LaneNotice::Forbidden { verb: r.verb, kind: r.kind }),
                _ => {}
            }
        }
        notices.dedup();
        LaneAt { lane: self, requests, open, ended, notices }
    }
}

impl Session {
    /// A session following the served world made from `origin`.
    pub fn served(origin: &Origin) -> Result<Session, Problem> {
        let era = Era::parse(&origin.era).ok_or_else(|| Problem::NotOneOf {
            value: origin.era.clone(),
            allowed: Era::ALL.iter().map(|e| e.name().to_string()).collect(),
        })?;
        let broken = |id: &str, e: &dyn std::fmt::Display| Problem::UnknownScenario { id: format!("{id}: {e}") };
        // A built-in run (`bare`, say) or a bundled lesson, its world made once.
        let mut session = match crate::world::built_in(&origin.scenario, origin.seed, era) {
            Some(built) => {
                let mut world = built.map_err(|e| broken(&origin.scenario, &e.message))?;
                world.api.set_clock_offset(origin.clock_offset_ms);
                Self::on(world)
            }
            None => {
                let scenario = Self::bundled(&origin.scenario, Some(origin.seed), Some(era))?;
                let mut world = scenario.world().map_err(|e| broken(&scenario.id, &e))?;
                world.api.set_clock_offset(origin.clock_offset_ms);
                Self::playing_in(scenario, world)
            }
        };
        session.live = Some(Box::default());
        Ok(session)
    }

    /// The live state, in live mode.
    pub fn live(&self) -> Option<&Served> {
        self.live.as_deref()
    }

    /// The lanes of the real clients.
    pub fn lanes(&self) -> &[Lane] {
        self.live.as_ref().map_or(&[], |l| &l.lanes)
    }

    /// Whether the page is at the furthest step it has reached.
    fn at_horizon(&self) -> bool {
        self.world().steps() as usize >= self.trace.len()
    }

    /// Live mode's actions; false for any other (the caller applies it).
    pub fn apply_live(&mut self, action: &Action) -> bool {
        if let Action::Serve(origin) = action {
            match Self::served(origin) {
                Ok(served) => *self = Session { lang: self.lang, ..served },
                Err(problem) => self.notices.push(crate::session::link::Notice { param: "live".into(), problem }),
            }
            return true;
        }
        let (horizon, here) = (self.at_horizon(), self.world().steps());
        let Some(live) = self.live.as_mut() else { return false };
        match action {
            Action::Served(Fed(entry)) => {
                let caught_up = live.pending.is_empty();
                live.pending.push_back((**entry).clone());
                if caught_up && horizon {
                    while self.take_served() {}
                }
            }
            Action::ServedStatus { steps, paused } => {
                let caught_up = live.pending.is_empty() && live.server_steps <= here;
                (live.server_steps, live.paused) = (*steps, *paused);
                if caught_up && horizon {
                    while self.take_served() {}
                }
            }
            Action::StepForward | Action::PlayTick if horizon => {
                if !self.take_served() && matches!(action, Action::StepForward) {
                    if let Some(live) = self.live.as_mut() {
                        live.asked.push(Ask::Step);
                    }
                }
            }
            Action::JumpTo(n) if *n > self.trace.len() as u64 => self.history.jump_to(self.trace.len() as u64),
            Action::Fault(fault) => live.asked.push(Ask::Fault(fault.command())),
            a if a.acts_on_world() => self.message = Some(Message::Failed(Refusal::Live)),
            _ => return false,
        }
        true
    }

    /// Takes the next step the served world took (one of its inputs, or a step of its own);
    /// false when the page has caught up.
    fn take_served(&mut self) -> bool {
        let steps = self.world().steps();
        let Some(live) = self.live.as_mut() else { return false };
        let next = live.pending.front().map(|e| e.step);
        if next == Some(steps) {
            let Some(entry) = live.pending.pop_front() else { return false };
            self.take_entry(entry);
            return true;
        }
        // The served world's own steps, up to its next input or to where it is.
        if steps < next.unwrap_or(live.server_steps) {
            return self.step_forward();
        }
        false
    }

    /// Takes an input at the step it came before: the lanes hear of it, the history takes it.
    fn take_entry(&mut self, entry: ServedEntry) {
        let step = entry.step;
        // What the entry's lane notes, read before the world takes it (what a watch is owed).
        let noted = match &entry.input {
            ServedInput::Request { request } => Noted::Request((**request).clone()),
            ServedInput::Change { change: ServedChange::Deliver { watch, at_most } } => {
                let owed: Vec<&WatchEvent> = self.world().api.owed_events(*watch).take(*at_most as usize).collect();
                let gone = owed.iter().filter(|e| matches!(e, WatchEvent::Error(s) if s.code == 410)).count();
                Noted::Handed { watch: *watch, handed: owed.len(), gone }
            }
            ServedInput::Change { change: ServedChange::EndWatch { watch } } => Noted::Ended(*watch),
            _ => Noted::Nothing,
        };
        let events = entry.replay(&mut self.history);
        let answered = events.last().cloned();
        for event in events {
            self.trace.record(event);
        }
        let answer = self.world().outside_answer().cloned();
        let Some(live) = self.live.as_mut() else { return };
        match noted {
            Noted::Request(request) => {
                if let Some(event) = answered {
                    live.heard(request, &event, answer);
                }
            }
            Noted::Handed { watch, handed, gone } => {
                if let Some(w) = live.watch_mut(watch) {
                    w.handed.push((step, handed, gone));
                }
            }
            Noted::Ended(watch) => {
                if let Some(w) = live.watch_mut(watch) {
                    w.ended.get_or_insert(step);
                }
            }
            Noted::Nothing => {}
        }
    }
}

/// What a served input adds to a lane.
enum Noted {
    Request(crate::world::OutsideRequest),
    Handed { watch: ApiWatchId, handed: usize, gone: usize },
    Ended(ApiWatchId),
    Nothing,
}

impl Served {
    fn watch_mut(&mut self, id: ApiWatchId) -> Option<&mut LaneWatch> {
        self.lanes.iter_mut().flat_map(|l| l.watches.iter_mut()).find(|w| w.id == id && w.ended.is_none())
    }

    /// A request and the step it was.
    fn heard(
        &mut self,
        request: crate::world::OutsideRequest,
        event: &TraceEvent,
        answer: Option<Result<OutsideAnswer, crate::cluster::Status>>,
    ) {
        let at = self.lanes.iter().position(|l| l.user == request.user.name && l.agent == request.agent);
        let lane = match at {
            Some(i) => &mut self.lanes[i],
            None => {
                self.lanes.push(Lane {
                    user: request.user.name.clone(),
                    agent: request.agent.clone(),
                    requests: Vec::new(),
                    watches: Vec::new(),
                });
                let last = self.lanes.len() - 1;
                &mut self.lanes[last]
            }
        };
        let (verb, kind, resource_version) = match &request.call {
            OutsideCall::Get { kind, resource_version, .. } => (Verb::Get, *kind, resource_version.clone()),
            OutsideCall::List { kind, options } => (Verb::List, *kind, options.resource_version.clone()),
            OutsideCall::Watch { kind, options } => (Verb::Watch, *kind, options.resource_version.clone()),
            OutsideCall::Create { kind, .. } => (Verb::Create, *kind, String::new()),
            OutsideCall::Update { kind, .. } => (Verb::Update, *kind, String::new()),
            OutsideCall::Patch { patch } => (Verb::Patch, patch.kind, String::new()),
            OutsideCall::Delete { kind, .. } => (Verb::Delete, *kind, String::new()),
        };
        let code = match &answer {
            Some(Err(status)) => Some(status.code),
            _ => None,
        };
        if let (OutsideCall::Watch { options, .. }, Some(Ok(OutsideAnswer::Watch(id)))) = (&request.call, &answer) {
            lane.watches.push(LaneWatch {
                id: *id,
                kind,
                opened: event.step,
                resource_version: options.resource_version.clone(),
                bookmarks: options.allow_bookmarks,
                initial_events: options.send_initial_events == Some(true),
                handed: Vec::new(),
                ended: None,
            });
        }
        lane.requests.push(LaneRequest {
            step: event.step,
            verb,
            kind,
            key: event.key.clone(),
            code,
            resource_version,
            dry_run: request.dry_run,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{ApiObject, ListOptions, UserInfo, WatchOptions};
    use crate::world::{Fault, OutsideRequest, World};

    /// serve-api's part, natively: a world taking requests and changes, each written down first.
    struct Server {
        world: World,
        entries: Vec<ServedEntry>,
        trace: Vec<TraceEvent>,
    }

    impl Server {
        fn input(&mut self, input: ServedInput) -> ServedInput {
            self.entries.push(ServedEntry { step: self.world.steps(), now: self.world.now(), input: input.clone() });
            input
        }

        fn request(&mut self, agent: &str, call: OutsideCall) -> Result<OutsideAnswer, crate::cluster::Status> {
            let request = OutsideRequest { user: UserInfo::admin(), agent: agent.into(), call, dry_run: false };
            self.input(ServedInput::Request { request: Box::new(request.clone()) });
            let (answer, event) = self.world.request(request);
            self.trace.push(event);
            answer
        }

        fn deliver(&mut self, watch: ApiWatchId) -> Vec<WatchEvent> {
            let change = ServedChange::Deliver { watch, at_most: u32::MAX };
            self.input(ServedInput::Change { change: change.clone() });
            match self.world.change(change) {
                crate::world::ServedResult::Delivered(events) => events,
                _ => Vec::new(),
            }
        }

        fn advance(&mut self, ms: u64) {
            let to = self.world.now() + ms;
            self.trace.extend(self.world.advance_to(to));
        }
    }

    fn configmap(name: &str) -> OutsideCall {
        let mut object = ApiObject::new(Kind::ConfigMap, "default", name);
        object.body.insert("data".into(), serde_json::json!({"colour": "gold"}));
        OutsideCall::Create { kind: Kind::ConfigMap, object }
    }

    fn watch(resource_version: &str) -> OutsideCall {
        let options = WatchOptions {
            namespace: Some("default".into()),
            resource_version: resource_version.into(),
            allow_bookmarks: true,
            ..Default::default()
        };
        OutsideCall::Watch { kind: Kind::ConfigMap, options }
    }

    fn list() -> OutsideCall {
        OutsideCall::List {
            kind: Kind::ConfigMap,
            options: ListOptions { namespace: Some("default".into()), ..Default::default() },
        }
    }

    /// A served world with an informer-like client (list, watch, a 410 after a compaction, a
    /// relist) and a poller; and the session that follows it from its entries.
    fn served() -> (Server, Session) {
        let origin = Origin { scenario: "sandbox".into(), era: "1.37".into(), seed: 1, clock_offset_ms: 0 };
        let session = Session::served(&origin).expect("the sandbox is served");
        let mut server = Server { world: session.world().clone(), entries: Vec::new(), trace: Vec::new() };
        server.advance(100);
        let listed = match server.request("informer", list()) {
            Ok(OutsideAnswer::List(l)) => l.resource_version,
            other => panic!("{other:?}"),
        };
        let Ok(OutsideAnswer::Watch(id)) = server.request("informer", watch(&listed.to_string())) else { panic!() };
        server.request("kubectl", configmap("a")).unwrap();
        server.advance(50);
        assert_eq!(server.deliver(id).len(), 1, "the informer's watch gets the ADDED");
        server.request("kubectl", configmap("b")).unwrap();
        let fault = server.input(ServedInput::Fault { fault: Fault::RestartApiServer });
        server.world.act(fault.intervention());
        server.advance(10);
        server.input(ServedInput::Change { change: ServedChange::EndWatch { watch: id } });
        server.world.change(ServedChange::EndWatch { watch: id });
        let Ok(OutsideAnswer::Watch(old)) = server.request("informer", watch(&listed.to_string())) else { panic!() };
        let told = server.deliver(old);
        assert!(matches!(told[..], [WatchEvent::Error(ref s)] if s.code == 410), "{told:?}");
        server.request("informer", list()).unwrap();
        for _ in 0..3 {
            server.request("poller", list()).unwrap();
            server.advance(1000);
        }
        (server, session)
    }

    #[test]
    fn a_live_page_makes_a_built_in_run_or_a_bundled_lesson_and_names_any_other() {
        let origin =
            |scenario: &str| Origin { scenario: scenario.into(), era: "1.30".into(), seed: 7, clock_offset_ms: 5 };
        let bare = Session::served(&origin("bare")).expect("the bare run is made in the page");
        assert!(bare.scenario.is_none() && bare.live().is_some());
        assert_eq!((bare.era(), bare.world().config.seed), (Era::V1_30, 7));
        assert_eq!(bare.world().config.informers.len(), 0, "an API server alone");
        let lesson = Session::served(&origin("sandbox")).expect("a bundled lesson");
        assert_eq!(lesson.scenario.as_ref().map(|s| s.era), Some(Era::V1_30));
        assert!(lesson.live().is_some());
        assert!(matches!(Session::served(&origin("swarm:3")), Err(Problem::UnknownScenario { .. })));
    }

    #[test]
    fn a_live_session_takes_every_step_the_served_world_took_and_draws_a_lane_per_client() {
        let (server, mut session) = served();
        for entry in &server.entries {
            session.apply(Action::Served(Fed(std::rc::Rc::new(entry.clone()))));
        }
        session.apply(Action::ServedStatus { steps: server.world.steps(), paused: false });
        let line = crate::i18n::json_line;
        let ours: Vec<String> = session.trace().iter().map(line).collect();
        let theirs: Vec<String> = server.trace.iter().map(line).collect();
        assert_eq!(ours, theirs, "the same steps in the same order");
        let lanes: Vec<(&str, usize)> = session.lanes().iter().map(|l| (l.agent.as_str(), l.requests.len())).collect();
        assert_eq!(lanes, [("informer", 4), ("kubectl", 2), ("poller", 3)]);
        let now = session.world().steps();
        let informer = session.lanes()[0].at(now);
        assert_eq!(informer.notices, [LaneNotice::Relisted { kind: Kind::ConfigMap, after_gone: true }]);
        assert_eq!((informer.open.len(), informer.ended), (1, 1), "the first watch ended, the second is open");
        let poller = session.lanes()[2].at(now);
        assert_eq!(poller.notices, [LaneNotice::Polling { kind: Kind::ConfigMap, lists: 3 }]);
        let before_relist = session.lanes()[0].at(informer.requests[2].step);
        assert!(before_relist.notices.is_empty(), "at the 410's watch, no relist yet: {:?}", before_relist.notices);
    }

    #[test]
    fn behind_the_furthest_step_new_inputs_wait_and_step_forward_takes_them_one_step_at_a_time() {
        let (server, mut session) = served();
        let (first, rest) = server.entries.split_at(4);
        for entry in first {
            session.apply(Action::Served(Fed(std::rc::Rc::new(entry.clone()))));
        }
        let reached = session.world().steps();
        session.apply(Action::StepBack);
        for entry in rest {
            session.apply(Action::Served(Fed(std::rc::Rc::new(entry.clone()))));
        }
        session.apply(Action::ServedStatus { steps: server.world.steps(), paused: true });
        assert_eq!(session.trace().len() as u64, reached, "nothing taken while the person looks back");
        session.apply(Action::StepForward);
        assert_eq!(session.world().steps(), reached, "back at the furthest step");
        session.apply(Action::StepForward);
        assert_eq!(session.world().steps(), reached + 1, "one step of the served world");
        while session.live().is_some_and(|l| l.behind(session.world().steps()) > 0) {
            session.apply(Action::StepForward);
        }
        assert_eq!(session.world().steps(), server.world.steps());
        session.apply(Action::StepForward);
        session.apply(Action::Fault(Fault::CompactStore));
        session.apply(Action::Create("{}".into()));
        let asked = session.live().map(|l| l.asked().to_vec()).unwrap_or_default();
        assert_eq!(
            asked,
            [Ask::Step, Ask::Fault("compact-store".into())],
            "the server's next step, and a fault for it"
        );
        assert_eq!(
            session.message(),
            Some(&Message::Failed(Refusal::Live)),
            "a write is the server's clients' to make"
        );
        assert_eq!(session.world().steps(), server.world.steps(), "and nothing moved in the page");
    }
}
