//! Step summaries in English.

use super::{join, list_query, next_moves};
use crate::client::workqueue::AddOutcome;
use crate::controller::reconciler::{Decision, ReconcileResult, WriteOp};
use crate::world::outcome::{
    CallNote, FaultEffect, FifoOp, IndexerWrite, Outcome, PodPhase, Read, Requeue, ResyncOutcome, UserVerb,
};
use crate::world::TraceEvent;

fn next(n: &[crate::world::outcome::Next]) -> Vec<String> {
    next_moves(n, "backoff")
}

pub(super) fn summary(e: &TraceEvent) -> String {
    let key = e.key.as_str();
    match &e.outcome {
        Outcome::ListAndWatchStarts { next: n } => join("ListAndWatch starts".into(), next(n)),
        Outcome::ListServed { request, answer } => match answer {
            Ok(l) => format!("{} → {} items at rv {}", list_query(request), l.items, l.resource_version),
            Err(s) => format!("{} → {} {}", list_query(request), s.code, s.reason),
        },
        Outcome::ListReceived { answer, next: n } => match answer {
            Ok(l) => join(format!("{} items at rv {}", l.items, l.resource_version), next(n)),
            Err(s) => join(s.to_string(), next(n)),
        },
        Outcome::WatchServed { resource_version, timeout_secs, send_initial_events, answer } => match answer {
            Ok(id) => {
                let initial = if *send_initial_events { ", sendInitialEvents=true" } else { "" };
                format!("watch #{id} from rv={resource_version:?}, timeoutSeconds={timeout_secs}{initial}")
            }
            Err(s) => format!("{} {}", s.code, s.reason),
        },
        Outcome::WatchOpened { answer, next: n } => match answer {
            Ok(id) => join(format!("watch #{id} streaming"), next(n)),
            Err(s) => join(s.to_string(), next(n)),
        },
        Outcome::WatchEvent { event, initial_events_end, next: n, .. } => {
            let head = if *initial_events_end {
                format!("{} with k8s.io/initial-events-end: the initial list is complete", event.name())
            } else if key.is_empty() {
                event.name().to_string()
            } else {
                format!("{} {key}", event.name())
            };
            join(head, next(n))
        }
        Outcome::WatchError { status, next: n, .. } => join(status.to_string(), next(n)),
        Outcome::EventLost { watch, event } => {
            format!("{} on watch #{watch} lost: the stream was closed", event.name())
        }
        Outcome::WatchTimedOut { watch, already_closed: true } => format!("watch #{watch} already closed"),
        Outcome::WatchTimedOut { watch, .. } => {
            format!("watch #{watch} reached its timeout: the server ends the stream")
        }
        Outcome::WatchEnded { watch, read: false, .. } => format!("watch #{watch} ended (no longer read)"),
        Outcome::WatchEnded { watch, next: n, .. } => join(format!("watch #{watch} ended"), next(n)),
        Outcome::BackoffElapsed { stale: true, .. } => "stale backoff timer".into(),
        Outcome::BackoffElapsed { next: n, .. } => join("backoff elapsed".into(), next(n)),
        Outcome::Resync(r) => match r {
            ResyncOutcome::Stopped => "resync timer stopped".into(),
            ResyncOutcome::NotDue => "resync check: no handler due".into(),
            ResyncOutcome::Queued { deltas } => format!("Resync: {deltas} Sync deltas for known objects"),
            ResyncOutcome::SyncAll => "Resync: one SyncAll delta for every known object".into(),
        },
        Outcome::Queued { op, waiting } => {
            let head = match op {
                FifoOp::Replace { objects, resource_version, queued } => {
                    format!("Replace({objects} objects, rv {resource_version}): {queued} keys queued")
                }
                FifoOp::ReplacedAll { objects, resource_version } => {
                    format!("Replace({objects} objects, rv {resource_version}): one ReplacedAll delta")
                }
                FifoOp::Bookmark { resource_version } => format!("Bookmark(rv {resource_version})"),
                FifoOp::Added => format!("Added {key}"),
                FifoOp::Updated => format!("Updated {key}"),
                FifoOp::Deleted { ignored: false } => format!("Deleted {key}"),
                FifoOp::Deleted { ignored: true } => format!("Deleted {key} ignored: not known"),
            };
            if *waiting > 1 {
                format!("{head} ({waiting} deltas waiting)")
            } else {
                head
            }
        }
        Outcome::Popped { deltas, initial_list, batch } => {
            let types: Vec<&str> = deltas.iter().map(|d| d.name()).collect();
            let initial = if *initial_list { " (initial list)" } else { "" };
            if *batch > 1 {
                format!("PopBatch: {batch} keys [{}]{initial}", types.join(", "))
            } else {
                format!("Pop {key} [{}]{initial}", types.join(", "))
            }
        }
        Outcome::PopEmpty => "queue empty".into(),
        Outcome::Processed { delta, write, call, tombstone, notified, listeners } => {
            let write = match write {
                IndexerWrite::Add => "add",
                IndexerWrite::Update => "update",
                IndexerWrite::Delete => "delete",
                IndexerWrite::Replace => "replace",
                IndexerWrite::None => "none",
            };
            let call = call.map_or("no handler", |c| c.name());
            let what = if *tombstone { " (DeletedFinalStateUnknown)" } else { "" };
            let partial = notified < listeners;
            let sync = if partial { format!(", {notified} of {listeners} handlers notified") } else { String::new() };
            format!("{} {key}: indexer {write} → {call}{what}{sync}", delta.name())
        }
        Outcome::NothingToProcess => "nothing to process".into(),
        Outcome::HandlerCalled { handler, call, lost: true, .. } => {
            format!("{handler}.{}({key}) lost before the handler ran (injected fault)", call.name())
        }
        Outcome::HandlerCalled { handler, call, note, enqueued, .. } => {
            let note = match note {
                CallNote::InitialList => " (isInInitialList)",
                CallNote::ResyncSameRv => " (resync: same rv)",
                CallNote::Tombstone => " (DeletedFinalStateUnknown)",
                CallNote::None => "",
            };
            let add = enqueued.as_ref().map(|t| format!(" → queue.Add({t})")).unwrap_or_default();
            format!("{handler}.{}({key}){note}{add}", call.name())
        }
        Outcome::NothingBuffered => "nothing buffered".into(),
        Outcome::WorkqueueAdd(add) => format!("Add({key}): {}", added(*add)),
        Outcome::WorkqueueReady(Some(add)) => format!("{key} is due after its delay: {}", added(*add)),
        Outcome::WorkqueueReady(None) => format!("{key}: timer superseded"),
        Outcome::ReconcileStarts { worker, decisions, reads } => {
            let mut parts: Vec<String> = decisions.iter().map(|d| decision(d, key)).collect();
            parts.extend(reads.iter().map(read));
            format!("worker {worker}: Get() → {key}: {}", parts.join("; "))
        }
        Outcome::NothingQueued => "nothing to do".into(),
        Outcome::ApiWrite { op, kind, sent_rv, answer } => {
            let sent = sent_rv.map(|rv| format!(" (rv {rv})")).unwrap_or_default();
            let result = match answer {
                Ok(rv) => format!("ok, rv {rv}"),
                Err(s) => format!("{} {}", s.code, s.reason),
            };
            format!("{} {kind} {key}{sent} → {result}", write_op(*op))
        }
        Outcome::ApiAnswer { kind, answer, reads } => {
            let head = match answer {
                Ok(rv) => format!("{} {key} written at rv {rv}", kind.map_or("object".into(), |k| k.to_string())),
                Err(s) => s.to_string(),
            };
            join(head, reads.iter().map(read).collect())
        }
        Outcome::ReconcileEnds { result, then } => {
            let what = match (result, then) {
                (ReconcileResult::Error(err), Requeue::RateLimited { delay_ms, requeues }) => {
                    format!("error: {err} → AddRateLimited: retry in {delay_ms} ms (requeues {requeues})")
                }
                (ReconcileResult::RequeueAfter(d), _) => format!("RequeueAfter {d} ms → Forget + AddAfter"),
                (ReconcileResult::Terminal(err), _) => format!("terminal error: {err} → not requeued"),
                _ => "success → Forget".into(),
            };
            format!("reconcile {key}: {what}")
        }
        Outcome::WorkqueueDone { again: false } => format!("Done({key}): done"),
        Outcome::WorkqueueDone { again: true } => format!("Done({key}): re-added meanwhile: queued again"),
        Outcome::WorkerIdle => "idle".into(),
        Outcome::KubeletReport { gone: true, .. } => format!("kubelet: {key} is gone"),
        Outcome::KubeletReport { phase, answer, .. } => match answer {
            Ok(rv) => format!("kubelet: {key} → {} (rv {rv})", pod_phase(*phase)),
            Err(s) => format!("kubelet: {key} → {} failed: {s}", pod_phase(*phase)),
        },
        Outcome::Polled { kind, answer } => match answer {
            Ok(l) => format!("polling LIST {} → {} items at rv {}", kind.resource(), l.items, l.resource_version),
            Err(s) => format!("polling LIST {} → {s}", kind.resource()),
        },
        Outcome::BookmarksSent => "bookmark sent to watchers that allow them".into(),
        Outcome::UserWrite { verb, kind, answer, no_match } => {
            let verb = user_verb(*verb);
            match (answer, no_match) {
                (_, Some(selector)) => {
                    format!("{verb} failed: no {} matches {selector}", kind.map_or("objects", |k| k.resource()))
                }
                (Ok(_), None) => format!("{verb} {} {key}", kind.map_or("object".into(), |k| k.to_string())),
                (Err(s), None) => format!("{verb} failed: {s}"),
            }
        }
        Outcome::ConsoleWatch { kind, answer } => match answer {
            Ok(id) => format!("kubectl get {} -w: watch #{id} opened", kind.resource()),
            Err(s) => format!("kubectl watch failed: {s}"),
        },
        Outcome::Fault { effect, .. } => match effect {
            FaultEffect::WatchesCut { ids } => {
                let ids: Vec<String> = ids.iter().map(|id| format!("#{id}")).collect();
                format!("watch {} disconnected: events in flight are lost", ids.join(", "))
            }
            FaultEffect::NoWatchOpen => "no watch open to disconnect".into(),
            FaultEffect::Compacted { revision } => format!("etcd compacted at revision {revision}"),
            FaultEffect::CompactFailed { message } => format!("compaction failed: {message}"),
            FaultEffect::ApiServerRestarted => {
                "API server restarted: watches closed, watch cache re-initialised from a LIST".into()
            }
            FaultEffect::Revoked { verb, user } => format!("RBAC: {verb} revoked from {user}"),
            FaultEffect::Granted { verb, user } => format!("RBAC: {verb} granted to {user}"),
            FaultEffect::NextNotificationLost => "the next notification to a handler will be lost (what-if)".into(),
            FaultEffect::Latency { ms } => format!("network latency set to {ms} ms"),
        },
    }
}

fn added(add: AddOutcome) -> &'static str {
    match add {
        AddOutcome::Queued => "queued",
        AddOutcome::AlreadyQueued => "already queued: deduplicated",
        AddOutcome::WhileProcessing => "being reconciled: marked dirty, runs again after Done",
        AddOutcome::AlreadyDirty => "being reconciled and already marked to run again: nothing changes",
        AddOutcome::ShuttingDown => "shutting down: ignored",
    }
}

fn decision(d: &Decision, key: &str) -> String {
    match d {
        Decision::Found { rv } => format!("Get: found at rv {rv}"),
        Decision::ReadFailed { list: true, error, .. } => format!("List Pods: {error}"),
        Decision::ReadFailed { error, ignored: true, .. } if error.is_not_found() => {
            format!("Get: {error}: nothing to do")
        }
        Decision::ReadFailed { error, .. } => format!("Get: {error}"),
        Decision::Counted { owner, want, have, from_events } => {
            let source = if *from_events { "events say" } else { "cache has" };
            format!("{owner} {key}: want {want}, {source} {have}")
        }
        Decision::WaitingExpectations { adds, dels } => {
            format!("waiting for {adds} creates and {dels} deletes to be observed")
        }
        Decision::WillCreate { count } => format!("create {count}"),
        Decision::WillDelete { count } => format!("delete {count}"),
        Decision::AlreadyStamped { rv } => format!("Get: rv {rv}, data.updated is already \"true\": nothing to do"),
        Decision::Stamp { rv } => format!("Get: rv {rv}; set data.updated=\"true\""),
        Decision::Attempt { n, failures } if n <= failures => format!("attempt {n} fails"),
        Decision::Attempt { n, .. } => format!("attempt {n} succeeds"),
        Decision::TerminalFailure => "terminal failure".into(),
        Decision::CheckAgainIn { ms } => format!("check again in {ms} ms"),
    }
}

fn read(r: &Read) -> String {
    match r {
        Read::CacheGet { result: Ok(rv), stale: None } => format!("cache Get again: rv {rv}"),
        Read::CacheGet { result: Ok(rv), stale: Some(written) } => format!(
            "cache Get again: rv {rv} — stale: the Update wrote rv {written}, its watch event has not reached the cache"
        ),
        Read::CacheGet { result: Err(e), .. } => format!("cache Get again: {e}"),
        Read::ApiGet { answer: Ok(rv) } => format!("APIReader Get: rv {rv} (fresh from the API server)"),
        Read::ApiGet { answer: Err(s) } => format!("APIReader Get: {s}"),
    }
}

fn write_op(op: WriteOp) -> &'static str {
    match op {
        WriteOp::Create => "Create",
        WriteOp::Update => "Update",
        WriteOp::UpdateStatus => "Status().Update",
        WriteOp::Delete => "Delete",
    }
}

fn pod_phase(p: PodPhase) -> &'static str {
    match p {
        PodPhase::ContainerCreating => "ContainerCreating",
        PodPhase::Running => "Running",
    }
}

fn user_verb(v: UserVerb) -> &'static str {
    match v {
        UserVerb::Create => "create",
        UserVerb::Update => "update",
        UserVerb::UpdateStatus => "update status",
        UserVerb::Delete => "delete",
        UserVerb::Scale => "scale",
        UserVerb::Patch => "patch",
    }
}
