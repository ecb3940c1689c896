//! Requests from clients outside the simulation (kubectl, client-go, a Python script talking
//! to `serve-api`): each is answered at once by the API server, as the identity it came with,
//! and is one step of the trace, from the user to the API server. Their watch streams are
//! read by whoever opened them; the world only keeps their bookmarks due.
//!
//! A served world changes only through these: a request ([`OutsideRequest`], acted and then
//! stepped), the steps the world takes itself, and a [`ServedChange`] (the clock, an outside
//! watch's events handed over or its end, a namespace). Recorded with the step each came at,
//! they make the same world again anywhere: a page in live mode runs it from them.

use super::outcome::{outside_trace_kind, Outcome};
use super::{Hop, World};
use crate::cluster::patch::PatchRequest;
use crate::cluster::registry::Preconditions;
use crate::cluster::watch::ApiWatchId;
use crate::cluster::Verb;
use crate::cluster::{ApiObject, Kind, ListOptions, ListResponse, Status, UserInfo, WatchOptions};
use crate::kernel::{Millis, Stage, TraceKind};
use crate::world::TraceEvent;

/// One request of an outside client.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "call", rename_all = "kebab-case")]
pub enum OutsideCall {
    Get {
        kind: Kind,
        namespace: String,
        name: String,
        resource_version: String,
    },
    List {
        kind: Kind,
        options: ListOptions,
    },
    Watch {
        kind: Kind,
        options: WatchOptions,
    },
    /// A create at the URL of `kind`; the object is refused if it names another.
    Create {
        kind: Kind,
        object: ApiObject,
    },
    Update {
        kind: Kind,
        object: ApiObject,
        status: bool,
    },
    Patch {
        patch: PatchRequest,
    },
    Delete {
        kind: Kind,
        namespace: String,
        name: String,
        preconditions: Preconditions,
    },
}

impl OutsideCall {
    /// What it asks for: its verb, its kind and the key (or namespace) it names.
    pub fn target(&self) -> (Verb, Kind, String) {
        match self {
            OutsideCall::Get { kind, namespace, name, .. } => (Verb::Get, *kind, format!("{namespace}/{name}")),
            OutsideCall::List { kind, options } => (Verb::List, *kind, options.namespace.clone().unwrap_or_default()),
            OutsideCall::Watch { kind, options } => (Verb::Watch, *kind, options.namespace.clone().unwrap_or_default()),
            OutsideCall::Create { kind, object } => (Verb::Create, *kind, object.key()),
            OutsideCall::Update { kind, object, .. } => (Verb::Update, *kind, object.key()),
            OutsideCall::Patch { patch: p } => (Verb::Patch, p.kind, format!("{}/{}", p.namespace, p.name)),
            OutsideCall::Delete { kind, namespace, name, .. } => (Verb::Delete, *kind, format!("{namespace}/{name}")),
        }
    }
}

/// An outside request as the world takes it: who sent it (and with which program), what it
/// asks, and whether it is a dry run (`dryRun=All`).
#[derive(Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OutsideRequest {
    pub user: UserInfo,
    /// The `User-Agent` it came with (a page names a client's lane by it).
    pub agent: String,
    pub call: OutsideCall,
    pub dry_run: bool,
}

/// Who asked what (a page's world carries these only in live mode: the body is left out).
impl std::fmt::Debug for OutsideRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (verb, kind, key) = self.call.target();
        write!(f, "{} ({}): {verb} {kind:?} {key}", self.user.name, self.agent)
    }
}

/// What a served world does between requests and steps, at once and without a step of its own.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "change", rename_all = "kebab-case")]
pub enum ServedChange {
    /// Virtual time passes to `to` (nothing is due before it): the served world follows the wall clock.
    Clock {
        to: Millis,
    },
    /// At most `at_most` of the events an outside watch is owed are handed to its reader
    /// (`u32`: a page's `usize` is 32 bits wide).
    Deliver {
        watch: ApiWatchId,
        at_most: u32,
    },
    /// An outside watch ends: its reader went away, its timeout passed, or its connection dropped.
    EndWatch {
        watch: ApiWatchId,
    },
    CreateNamespace {
        user: UserInfo,
        name: String,
    },
    DeleteNamespace {
        user: UserInfo,
        name: String,
    },
}

/// How the world serves outside requests and makes served changes: always natively; in the
/// page, once live mode's module has arrived (only live mode makes them).
#[derive(Clone, Copy)]
pub struct OutsideServer {
    pub request: fn(&mut World, OutsideRequest) -> Hop,
    pub change: fn(&mut World, ServedChange) -> ServedResult,
}

/// serve-api's world and live mode's: the world's own code.
pub const OUTSIDE_SERVER: OutsideServer = OutsideServer { request: World::deliver_request, change: World::change };

crate::kernel::later::later!(
    /// The world's outside server (see [`OutsideServer`]).
    outside_server, install_outside_server: OutsideServer = OUTSIDE_SERVER
);

/// What changed a served world from outside: a request, a change, or a fault its
/// administrator injected.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "input", rename_all = "kebab-case")]
pub enum ServedInput {
    Request { request: Box<OutsideRequest> },
    Change { change: ServedChange },
    Fault { fault: super::Fault },
}

impl ServedInput {
    /// The action a history takes for it.
    pub fn intervention(self) -> super::Intervention {
        match self {
            ServedInput::Request { request } => super::Intervention::Outside(request),
            ServedInput::Change { change } => super::Intervention::Served(change),
            ServedInput::Fault { fault } => super::Intervention::Fault(fault),
        }
    }
}

/// A served input with the step it came before and the virtual time then: what `serve-api`
/// sends a live page, which makes the same world from them ([`ServedEntry::replay`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ServedEntry {
    pub step: u64,
    pub now: Millis,
    #[serde(flatten)]
    pub input: ServedInput,
}

impl ServedEntry {
    /// Takes this entry into `history`, which follows the served world: its own steps up to
    /// the entry's, the clock, then the input. The steps taken are returned.
    pub fn replay(self, history: &mut super::History) -> Vec<TraceEvent> {
        let mut steps = history.run_to(self.step);
        if history.world().now() < self.now {
            history.act(super::Intervention::Served(ServedChange::Clock { to: self.now }));
        }
        let is_request = matches!(self.input, ServedInput::Request { .. });
        history.act(self.input.intervention());
        if is_request {
            steps.extend(history.step());
        }
        steps
    }
}

/// What a [`ServedChange`] gave: the events handed over, or a namespace's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ServedResult {
    Done,
    Delivered(Vec<crate::cluster::WatchEvent>),
    Namespace(Result<(), Status>),
}

/// What an outside request gets back.
#[derive(Clone, Debug, PartialEq)]
pub enum OutsideAnswer {
    Object(ApiObject),
    List(ListResponse),
    Watch(ApiWatchId),
}

impl World {
    /// Lets virtual time pass to `t` (a served world follows the wall clock): every message
    /// due by then is delivered; returns their steps.
    pub fn advance_to(&mut self, t: Millis) -> Vec<TraceEvent> {
        let mut steps = Vec::new();
        while self.next_time().is_some_and(|next| next <= t) {
            match self.step() {
                Some(e) => steps.push(e),
                None => break,
            }
        }
        self.change(ServedChange::Clock { to: t });
        steps
    }

    /// Serves one outside request as `user`: the answer, and the step it was.
    pub fn outside(&mut self, user: &UserInfo, call: OutsideCall) -> (Result<OutsideAnswer, Status>, TraceEvent) {
        self.request(OutsideRequest { user: user.clone(), agent: String::new(), call, dry_run: false })
    }

    /// A write with `dryRun=All` (`registry/generic/registry/dryrun.go`): every check runs and
    /// the answer is the object as it would be stored, but nothing is stored and no watcher is
    /// told. A create's answer has no resourceVersion; an update's keeps the stored one.
    pub fn outside_dry_run(
        &mut self,
        user: &UserInfo,
        call: OutsideCall,
    ) -> (Result<OutsideAnswer, Status>, TraceEvent) {
        self.request(OutsideRequest { user: user.clone(), agent: String::new(), call, dry_run: true })
    }

    /// Serves one outside request, acted and then stepped (so a history replays it as it
    /// replays any action): the answer, and the step it was.
    pub fn request(&mut self, request: OutsideRequest) -> (Result<OutsideAnswer, Status>, TraceEvent) {
        self.act(super::Intervention::Outside(Box::new(request)));
        // An action taken now is the next step: nothing is due before the present.
        let event = self.step();
        let answer = self.outside_answer.take();
        match (answer, event) {
            (Some(answer), Some(event)) => (answer, event),
            _ => unreachable!("an outside request acted now is the next step"),
        }
    }

    /// The answer to the outside request served at the last step, when nothing has taken it
    /// (a history replaying a served world leaves it there).
    pub fn outside_answer(&self) -> Option<&Result<OutsideAnswer, Status>> {
        self.outside_answer.as_ref()
    }

    /// Makes a served change; what it gave.
    pub fn change(&mut self, change: ServedChange) -> ServedResult {
        match change {
            ServedChange::Clock { to } => {
                if to > self.now {
                    self.now = to;
                    self.api.set_time(to);
                }
                ServedResult::Done
            }
            ServedChange::Deliver { watch, at_most } => {
                ServedResult::Delivered(self.api.take_some_events(watch, at_most as usize))
            }
            ServedChange::EndWatch { watch } => {
                self.api.stop_watch(watch);
                ServedResult::Done
            }
            ServedChange::CreateNamespace { user, name } => {
                ServedResult::Namespace(self.api.create_namespace(&user, &name))
            }
            ServedChange::DeleteNamespace { user, name } => {
                ServedResult::Namespace(self.api.delete_namespace(&user, &name))
            }
        }
    }

    /// Serves the request acted at this step: its answer is kept for [`World::request`].
    pub fn deliver_request(&mut self, request: OutsideRequest) -> Hop {
        let OutsideRequest { user, call, dry_run, .. } = request;
        let (answer, hop) = self.serve(&user, call, dry_run);
        self.outside_answer = Some(answer);
        hop
    }

    fn serve(&mut self, user: &UserInfo, call: OutsideCall, dry_run: bool) -> (Result<OutsideAnswer, Status>, Hop) {
        // A dry run writes to a copy of the API server (its maps share chunks with the
        // original's), which is dropped: the store, the watch caches and the uids stay as they were.
        let kept = dry_run.then(|| self.api.clone());
        let stored_rv = |api: &crate::cluster::ApiServer, kind: Kind, namespace: &str, name: &str| {
            api.peek_get(&UserInfo::admin(), kind, namespace, name).map(|o| o.metadata.resource_version).ok()
        };
        let update_rv = match (&kept, &call) {
            (Some(api), OutsideCall::Update { kind, object, .. }) => {
                stored_rv(api, *kind, &object.metadata.namespace, &object.metadata.name)
            }
            (Some(api), OutsideCall::Patch { patch: p }) => stored_rv(api, p.kind, &p.namespace, &p.name),
            _ => None,
        };
        let is_create = matches!(call, OutsideCall::Create { .. });
        let (verb, kind, key) = call.target();
        let answer = match call {
            OutsideCall::Get { kind, namespace, name, resource_version } => {
                self.api.get(user, kind, &namespace, &name, &resource_version).map(OutsideAnswer::Object)
            }
            OutsideCall::List { kind, options } => self.api.list(user, kind, &options).map(OutsideAnswer::List),
            OutsideCall::Watch { kind, options } => {
                let answer = self.api.watch(user, kind, &options).map(OutsideAnswer::Watch);
                self.set_bookmark_timer();
                answer
            }
            OutsideCall::Create { object, .. } => self.api.create(user, object).map(OutsideAnswer::Object),
            OutsideCall::Update { object, status: false, .. } => {
                self.api.update(user, object).map(OutsideAnswer::Object)
            }
            OutsideCall::Update { object, status: true, .. } => {
                self.api.update_status(user, object).map(OutsideAnswer::Object)
            }
            OutsideCall::Patch { patch: p } => self.api.patch(user, &p).map(OutsideAnswer::Object),
            OutsideCall::Delete { kind, namespace, name, preconditions } => {
                self.api.delete_if(user, kind, &namespace, &name, &preconditions).map(OutsideAnswer::Object)
            }
        };
        let answer = match kept {
            Some(api) => {
                self.api = api;
                answer.map(|answer| match answer {
                    OutsideAnswer::Object(mut o) if is_create => {
                        o.metadata.resource_version.clear();
                        OutsideAnswer::Object(o)
                    }
                    OutsideAnswer::Object(mut o) => {
                        if let Some(rv) = &update_rv {
                            o.metadata.resource_version = rv.clone();
                        }
                        OutsideAnswer::Object(o)
                    }
                    other => other,
                })
            }
            // The simulation's own informers see what the write changed.
            None => {
                self.flush_watch_events();
                answer
            }
        };
        let rv = match &answer {
            Ok(OutsideAnswer::Object(o)) => o.resource_version(),
            Ok(OutsideAnswer::List(l)) => l.resource_version,
            _ => 0,
        };
        let code = answer.as_ref().err().map(|s| s.code);
        let outcome = Outcome::Outside { user: user.name.clone(), verb, kind, code, dry_run };
        let trace = if code.is_some() { TraceKind::RequestFailed } else { outside_trace_kind(verb) };
        (answer, Hop::new(Stage::User, Stage::ApiServer, trace, &key, rv, outcome))
    }
}
