//! Requests from clients outside the simulation (kubectl, client-go, a Python script talking
//! to `serve-api`): each is answered at once by the API server, as the identity it came with,
//! and is one step of the trace, from the user to the API server. Their watch streams are
//! read by whoever opened them; the world only keeps their bookmarks due.

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
#[derive(Clone, Debug, PartialEq)]
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
    Patch(PatchRequest),
    Delete {
        kind: Kind,
        namespace: String,
        name: String,
        preconditions: Preconditions,
    },
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
        if t > self.now {
            self.now = t;
            self.api.set_time(t);
        }
        steps
    }

    /// Serves one outside request as `user`: the answer, and the step it was.
    pub fn outside(&mut self, user: &UserInfo, call: OutsideCall) -> (Result<OutsideAnswer, Status>, TraceEvent) {
        self.serve(user, call, false)
    }

    /// A write with `dryRun=All` (`registry/generic/registry/dryrun.go`): every check runs and
    /// the answer is the object as it would be stored, but nothing is stored and no watcher is
    /// told. A create's answer has no resourceVersion; an update's keeps the stored one.
    pub fn outside_dry_run(
        &mut self,
        user: &UserInfo,
        call: OutsideCall,
    ) -> (Result<OutsideAnswer, Status>, TraceEvent) {
        self.serve(user, call, true)
    }

    fn serve(
        &mut self,
        user: &UserInfo,
        call: OutsideCall,
        dry_run: bool,
    ) -> (Result<OutsideAnswer, Status>, TraceEvent) {
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
            (Some(api), OutsideCall::Patch(p)) => stored_rv(api, p.kind, &p.namespace, &p.name),
            _ => None,
        };
        let is_create = matches!(call, OutsideCall::Create { .. });
        let (verb, kind, key) = match &call {
            OutsideCall::Get { kind, namespace, name, .. } => (Verb::Get, *kind, format!("{namespace}/{name}")),
            OutsideCall::List { kind, options } => (Verb::List, *kind, options.namespace.clone().unwrap_or_default()),
            OutsideCall::Watch { kind, options } => (Verb::Watch, *kind, options.namespace.clone().unwrap_or_default()),
            OutsideCall::Create { kind, object } => (Verb::Create, *kind, object.key()),
            OutsideCall::Update { kind, object, .. } => (Verb::Update, *kind, object.key()),
            OutsideCall::Patch(p) => (Verb::Patch, p.kind, format!("{}/{}", p.namespace, p.name)),
            OutsideCall::Delete { kind, namespace, name, .. } => (Verb::Delete, *kind, format!("{namespace}/{name}")),
        };
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
            OutsideCall::Patch(p) => self.api.patch(user, &p).map(OutsideAnswer::Object),
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
        let hop = Hop::new(Stage::User, Stage::ApiServer, trace, &key, rv, outcome);
        self.steps += 1;
        let event = self.trace_event(hop);
        (answer, event)
    }
}
