//! The vocabulary a reconcile plans in (controller-runtime `pkg/reconcile`): the cache it reads
//! through, the writes it makes, what it decides and its result. The reconcilers
//! (`reconciler`, `deployment`) plan in it; the world carries out what they plan.

use super::cache_reader::{CacheList, ReadError};
use crate::cluster::api_object::OwnerReference;
use crate::cluster::{ApiObject, Kind};
use crate::kernel::Millis;
use std::collections::VecDeque;

/// What a reconciler reads the cache through.
pub trait Cache {
    fn get(&mut self, kind: Kind, namespace: &str, name: &str) -> Result<ApiObject, ReadError>;
    fn list(&mut self, kind: Kind, opts: &CacheList) -> Result<Vec<ApiObject>, ReadError>;
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "result", content = "detail", rename_all = "kebab-case")]
pub enum ReconcileResult {
    Success,
    Error(String),
    /// `Result{Requeue: true}`: back through the rate limiter, no error logged.
    Requeue,
    RequeueAfter(Millis),
    Terminal(String),
}

/// A write to the API server, made with the controller's identity.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    Create(ApiObject),
    Update(ApiObject),
    UpdateStatus(ApiObject),
    Delete { kind: Kind, namespace: String, name: String },
}

/// The verb of a write, for the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum WriteOp {
    Create,
    Update,
    /// `Status().Update`.
    UpdateStatus,
    Delete,
}

/// What a reconcile saw and decided, step by step: rendered for people at the edge.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "decision", rename_all = "kebab-case")]
pub enum Decision {
    /// `Get` found the object at this resourceVersion.
    Found {
        rv: i64,
    },
    /// A cache read failed (`ignored`: a NotFound the reconciler treats as "nothing to do").
    ReadFailed {
        list: bool,
        error: ReadError,
        ignored: bool,
    },
    /// The replicas a `Replicas` controller wants and has (`from_events`: counted from events
    /// alone, edge-triggered).
    Counted {
        owner: Kind,
        want: i64,
        have: i64,
        from_events: bool,
    },
    /// Creates and deletes made earlier and not yet seen in the cache.
    WaitingExpectations {
        adds: i64,
        dels: i64,
    },
    WillCreate {
        count: i64,
    },
    WillDelete {
        count: i64,
    },
    /// The stale-read reconciler: `data.updated` is already `"true"`.
    AlreadyStamped {
        rv: i64,
    },
    /// The stale-read reconciler sets `data.updated="true"` on what it read at `rv`.
    Stamp {
        rv: i64,
    },
    /// The failing reconciler's attempt `n` of the `failures` that fail.
    Attempt {
        n: u32,
        failures: u32,
    },
    TerminalFailure,
    /// `RequeueAfter`.
    CheckAgainIn {
        ms: Millis,
    },
    /// The Deployment controller creates the ReplicaSet of its current template.
    NewReplicaSet {
        name: String,
        replicas: i64,
    },
    /// The Deployment controller scales one of its ReplicaSets.
    ScaleReplicaSet {
        name: String,
        from: i64,
        to: i64,
    },
}

impl Write {
    pub fn op(&self) -> WriteOp {
        match self {
            Write::Create(_) => WriteOp::Create,
            Write::Update(_) => WriteOp::Update,
            Write::UpdateStatus(_) => WriteOp::UpdateStatus,
            Write::Delete { .. } => WriteOp::Delete,
        }
    }

    pub fn kind(&self) -> Kind {
        match self {
            Write::Create(o) | Write::Update(o) | Write::UpdateStatus(o) => o.kind().unwrap_or(Kind::Pod),
            Write::Delete { kind, .. } => *kind,
        }
    }

    /// `namespace/name` of the object written.
    pub fn key(&self) -> String {
        match self {
            Write::Create(o) | Write::Update(o) | Write::UpdateStatus(o) => o.key(),
            Write::Delete { namespace, name, .. } => format!("{namespace}/{name}"),
        }
    }

    /// The resourceVersion an update sends (its precondition), if any.
    pub fn sent_rv(&self) -> Option<i64> {
        match self {
            Write::Update(o) | Write::UpdateStatus(o) => Some(o.resource_version()).filter(|rv| *rv > 0),
            _ => None,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Write::Create(o) => format!("Create {} {}", o.kind, o.key()),
            Write::Update(o) => format!("Update {} {} (rv {})", o.kind, o.key(), o.metadata.resource_version),
            Write::UpdateStatus(o) => {
                format!("Status().Update {} {} (rv {})", o.kind, o.key(), o.metadata.resource_version)
            }
            Write::Delete { kind, namespace, name } => format!("Delete {kind} {namespace}/{name}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlanOp {
    Write(Write),
    /// Read an object again from the cache (to show what it holds now).
    CacheGet {
        kind: Kind,
        namespace: String,
        name: String,
    },
    /// Read it from the API server, bypassing the cache (`GetAPIReader()`).
    ApiGet {
        kind: Kind,
        namespace: String,
        name: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub ops: VecDeque<PlanOp>,
    /// What the reconciler saw and decided, for the trace.
    pub decisions: Vec<Decision>,
    /// The result once every write has succeeded.
    pub result: ReconcileResult,
}

impl Plan {
    pub(super) fn done(decision: Decision, result: ReconcileResult) -> Self {
        Plan { ops: VecDeque::new(), decisions: vec![decision], result }
    }

    pub(super) fn read_failed(list: bool, error: ReadError) -> Self {
        let result = ReconcileResult::Error(error.to_string());
        Plan::done(Decision::ReadFailed { list, error, ignored: false }, result)
    }

    /// A failed read the reconciler shrugs off: it succeeds with nothing to do.
    pub(super) fn not_found(error: ReadError) -> Self {
        Plan::done(Decision::ReadFailed { list: false, error, ignored: true }, ReconcileResult::Success)
    }
}

/// The owner reference marked as the object's controller.
pub fn controller_of(obj: &ApiObject) -> Option<&OwnerReference> {
    obj.metadata.owner_references.iter().find(|r| r.controller == Some(true))
}
