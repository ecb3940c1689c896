//! A step's one-line summary, rendered from its typed outcome. The sentences are English
//! templates, translated through the phrasebook (`ko.rs`) like every word of the page; names
//! from the code (Pop, Replace, OnAdd, queue.Add, resourceVersion) and upstream errors stay as
//! they are in every language.

use super::Phrase;
use super::{join, list_query, metadata_accept, seconds, tr, Lang};
use crate::client::pipeline::Fed;
use crate::client::workqueue::AddOutcome;
use crate::controller::reconciler::{Decision, ReconcileResult, WriteOp};
use crate::world::outcome::{
    CallNote, FaultEffect, IndexerWrite, Next, Outcome, Read, Requeue, ResyncOutcome, UserVerb,
};
use crate::world::TraceEvent;

/// The reflector's next moves in request form, the same in every language:
/// `LIST resourceVersion="0"&limit=500`, `WATCH from rv="7"`, `backoff 1.205s`.
fn next(n: &[Next]) -> Vec<String> {
    n.iter()
        .map(|n| match n {
            Next::List(p) => format!("LIST {}", list_query(p)),
            Next::Watch { resource_version, send_initial_events, field_selector, metadata_only } => {
                let initial = if *send_initial_events { " sendInitialEvents=true" } else { "" };
                let fields =
                    if field_selector.is_empty() { String::new() } else { format!(" fieldSelector={field_selector}") };
                let accept = metadata_accept(*metadata_only, "PartialObjectMetadata");
                format!("WATCH from rv={resource_version:?}{initial}{fields}{accept}")
            }
            Next::Backoff { ms } => format!("backoff {}", seconds(*ms)),
        })
        .collect()
}

pub fn summary(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    match &e.outcome {
        Outcome::ListAndWatchStarts { next: n } => join(tr!(lang, "ListAndWatch starts").into(), next(n)),
        Outcome::ListServed { request, answer } => match answer {
            Ok(l) => trf!(
                lang,
                "{query} → {items} items at rv {rv}",
                &[("query", &list_query(request)), ("items", &l.items), ("rv", &l.resource_version)],
            ),
            Err(s) => format!("{} → {} {}", list_query(request), s.code, s.reason),
        },
        Outcome::ListReceived { answer, next: n } => match answer {
            Ok(l) => join(
                trf!(lang, "{items} items at rv {rv}", &[("items", &l.items), ("rv", &l.resource_version)]),
                next(n),
            ),
            Err(s) => join(s.to_string(), next(n)),
        },
        Outcome::WatchServed { .. } => watch_served(e, lang),
        Outcome::WatchOpened { answer, next: n } => match answer {
            Ok(id) => join(trf!(lang, "watch #{id} streaming", &[("id", id)]), next(n)),
            Err(s) => join(s.to_string(), next(n)),
        },
        Outcome::WatchEvent { .. } => watch_event(e, lang),
        Outcome::WatchError { status, next: n, .. } => join(status.to_string(), next(n)),
        Outcome::EventLost { watch, event } => {
            trf!(lang, "{event} on watch #{id} lost: the stream was closed", &[("event", &event.name()), ("id", watch)])
        }
        Outcome::WatchTimedOut { watch, already_closed: true } => {
            trf!(lang, "watch #{id} already closed", &[("id", watch)])
        }
        Outcome::WatchTimedOut { watch, .. } => {
            trf!(lang, "watch #{id} reached its timeout: the server ends the stream", &[("id", watch)])
        }
        Outcome::WatchEnded { watch, read: false, .. } => {
            trf!(lang, "watch #{id} ended (no longer read)", &[("id", watch)])
        }
        Outcome::WatchEnded { watch, next: n, .. } => join(trf!(lang, "watch #{id} ended", &[("id", watch)]), next(n)),
        Outcome::BackoffElapsed { stale: true, .. } => tr!(lang, "stale backoff timer").into(),
        Outcome::BackoffElapsed { next: n, .. } => join(tr!(lang, "backoff elapsed").into(), next(n)),
        Outcome::Resync(_) => resync(e, lang),
        Outcome::Queued { .. } => queued(e, lang),
        Outcome::Popped { .. } => popped(e, lang),
        Outcome::PopEmpty => tr!(lang, "queue empty").into(),
        Outcome::Processed { .. } => processed(e, lang),
        Outcome::NothingToProcess => tr!(lang, "nothing to process").into(),
        Outcome::HandlerCalled { handler, call, lost: true, .. } => {
            let call = format!("{handler}.{}({key})", call.name());
            trf!(lang, "{call} lost before the handler ran (injected fault)", &[("call", &call)])
        }
        Outcome::HandlerCalled { handler, call, note: CallNote::FilteredOut, .. } => {
            let call = format!("{handler}.{}({key})", call.name());
            trf!(lang, "{call}: the filter does not select it, the handler is not called", &[("call", &call)])
        }
        Outcome::HandlerCalled { handler, call, note: CallNote::PredicateFalse { predicate }, .. } => {
            let call = format!("{handler}.{}({key})", call.name());
            trf!(
                lang,
                "{call}: {predicate} returns false, the controller's handler is not called",
                &[("call", &call), ("predicate", &predicate.name())],
            )
        }
        Outcome::HandlerCalled { .. } => handler_called(e, lang),
        Outcome::NothingBuffered => tr!(lang, "nothing buffered").into(),
        Outcome::WorkqueueAdd { added: add, priority: None } => format!("Add({key}): {}", tr(lang, added(*add))),
        Outcome::WorkqueueAdd { added: add, priority: Some(p) } => {
            format!("AddWithOpts({key}, Priority={p}): {}", tr(lang, added(*add)))
        }
        Outcome::WorkqueueReady(Some(add)) => {
            trf!(lang, "{key} is due after its delay: {what}", &[("key", &key), ("what", &tr(lang, added(*add)))])
        }
        Outcome::WorkqueueReady(None) => trf!(lang, "{key}: timer superseded", &[("key", &key)]),
        Outcome::ReconcileStarts { worker, decisions, reads, .. } => {
            let mut parts: Vec<String> = decisions.iter().map(|d| decision(d, key, lang)).collect();
            parts.extend(reads.iter().map(|r| read(r, lang)));
            format!("worker {worker}: Get() → {key}: {}", parts.join("; "))
        }
        Outcome::NothingQueued => tr!(lang, "nothing to do").into(),
        Outcome::ApiWrite { .. } => api_write(e, lang),
        Outcome::ApiAnswer { .. } => api_answer(e, lang),
        Outcome::ReconcileEnds { .. } => reconcile_ends(e, lang),
        Outcome::WorkqueueDone { again: false } => trf!(lang, "Done({key}): done", &[("key", &key)]),
        Outcome::WorkqueueDone { again: true } => {
            trf!(lang, "Done({key}): re-added meanwhile: queued again", &[("key", &key)])
        }
        Outcome::WorkerIdle => tr!(lang, "idle").into(),
        Outcome::KubeletReport { gone: true, .. } => trf!(lang, "kubelet: {key} is gone", &[("key", &key)]),
        Outcome::KubeletReport { phase, answer, .. } => match answer {
            Ok(rv) => format!("kubelet: {key} → {} (rv {rv})", phase.name()),
            Err(s) => trf!(
                lang,
                "kubelet: {key} → {phase} failed: {err}",
                &[("key", &key), ("phase", &phase.name()), ("err", s)],
            ),
        },
        Outcome::Polled { kind, answer } => match answer {
            Ok(l) => trf!(
                lang,
                "polling LIST {resource} → {items} items at rv {rv}",
                &[("resource", &kind.resource()), ("items", &l.items), ("rv", &l.resource_version)],
            ),
            Err(s) => trf!(lang, "polling LIST {resource} → {err}", &[("resource", &kind.resource()), ("err", s)]),
        },
        Outcome::BookmarksSent { watchers } => {
            trf!(lang, "bookmark to {n} watchers, each at its watch cache's revision", &[("n", watchers)])
        }
        Outcome::WorkersStarted { controller, workers, queued } => trf!(
            lang,
            "{controller}: caches synced: Starting workers (worker count {workers}), {queued} keys waiting",
            &[("controller", controller), ("workers", workers), ("queued", queued)],
        ),
        Outcome::Outside { user, verb, kind, code, dry_run } => {
            let said = match code {
                None => trf!(
                    lang,
                    "{user}: {verb} {kind} {key}",
                    &[("user", user), ("verb", &verb.metric()), ("kind", kind), ("key", &key)],
                ),
                Some(code) => trf!(
                    lang,
                    "{user}: {verb} {kind} {key} → {code}",
                    &[("user", user), ("verb", &verb.metric()), ("kind", kind), ("key", &key), ("code", code)],
                ),
            };
            match dry_run {
                true => said + tr!(lang, " (dry run: nothing stored)"),
                false => said,
            }
        }
        Outcome::ProgressNotified => {
            trf!(lang, "etcd progress notification: watch caches now at rv {rv}", &[("rv", &e.rv)])
        }
        Outcome::UserWrite { .. } => user_write(e, lang),
        Outcome::CacheRead { .. } => cache_read(e, lang),
        Outcome::CacheMutated { kind, labels, found, shared } => {
            let labels: Vec<String> = labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let labels = labels.join(",");
            let key = format!("{kind} {key}");
            match (found, shared) {
                (false, _) => trf!(lang, "client.Get({key}) → not found: nothing to change", &[("key", &key)]),
                (true, true) => trf!(
                    lang,
                    "client.Get({key}), then labels {labels} set on what it returned: the cache's own object (UnsafeDisableDeepCopy)",
                    &[("key", &key), ("labels", &labels)],
                ),
                (true, false) => trf!(
                    lang,
                    "client.Get({key}), then labels {labels} set on what it returned: a deep copy, the cache is untouched",
                    &[("key", &key), ("labels", &labels)],
                ),
            }
        }
        Outcome::CacheReadWaits { read, started } => {
            let call = client_call("client", read);
            let kind = read.kind().to_string();
            match started {
                true => trf!(
                    lang,
                    "{call} → no {kind} informer: one starts, and the read waits for its sync",
                    &[("call", &call), ("kind", &kind)],
                ),
                false => {
                    trf!(lang, "{call} → waits for the {kind} informer's sync", &[("call", &call), ("kind", &kind)],)
                }
            }
        }
        Outcome::ApiRead { .. } => api_read(e, lang),
        Outcome::ConsoleWatch { kind, answer } => match answer {
            Ok(id) => trf!(
                lang,
                "kubectl get {resource} -w: watch #{id} opened",
                &[("resource", &kind.resource()), ("id", id)],
            ),
            Err(s) => trf!(lang, "kubectl watch failed: {err}", &[("err", s)]),
        },
        Outcome::Fault { .. } => fault(e, lang),
    }
}

// The longer summaries, a function each; `summary`'s match above stays exhaustive.

fn watch_served(e: &TraceEvent, lang: Lang) -> String {
    let Outcome::WatchServed { resource_version, timeout_secs, send_initial_events, answer } = &e.outcome else {
        return String::new();
    };
    match answer {
        Ok(id) => {
            let initial = if *send_initial_events { ", sendInitialEvents=true" } else { "" };
            let rv = format!("{resource_version:?}");
            trf!(
                lang,
                "watch #{id} from rv={rv}, timeoutSeconds={timeout}",
                &[("id", id), ("rv", &rv), ("timeout", timeout_secs)],
            ) + initial
        }
        Err(s) => format!("{} {}", s.code, s.reason),
    }
}

fn watch_event(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::WatchEvent { event, initial_events_end, next: n, .. } = &e.outcome else { return String::new() };
    let head = if *initial_events_end {
        trf!(lang, "{event} with k8s.io/initial-events-end: the initial list is complete", &[("event", &event.name())])
    } else if key.is_empty() {
        event.name().to_string()
    } else {
        format!("{} {key}", event.name())
    };
    join(head, next(n))
}

fn resync(e: &TraceEvent, lang: Lang) -> String {
    let Outcome::Resync(r) = &e.outcome else { return String::new() };
    match r {
        ResyncOutcome::Stopped => tr!(lang, "resync timer stopped").into(),
        ResyncOutcome::NotDue => tr!(lang, "resync check: no handler due").into(),
        ResyncOutcome::Queued { deltas } => trf!(lang, "Resync: {n} Sync deltas for known objects", &[("n", deltas)]),
        ResyncOutcome::SyncAll => tr!(lang, "Resync: one SyncAll delta for every known object").into(),
    }
}

fn queued(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::Queued { op, waiting } = &e.outcome else { return String::new() };
    let head = match op {
        Fed::Replaced { objects, resource_version, queued } => trf!(
            lang,
            "Replace({n} objects, rv {rv}): {queued} keys queued",
            &[("n", objects), ("rv", resource_version), ("queued", queued)],
        ),
        Fed::ReplacedAll { objects, resource_version } => trf!(
            lang,
            "Replace({n} objects, rv {rv}): one ReplacedAll delta",
            &[("n", objects), ("rv", resource_version)],
        ),
        Fed::Bookmark { resource_version } => format!("Bookmark(rv {resource_version})"),
        Fed::Added => format!("Added {key}"),
        Fed::Updated => format!("Updated {key}"),
        Fed::Deleted { ignored: false } => format!("Deleted {key}"),
        Fed::Deleted { ignored: true } => trf!(lang, "Deleted {key} ignored: not known", &[("key", &key)]),
    };
    if *waiting > 1 {
        head + &trf!(lang, " ({n} deltas waiting)", &[("n", waiting)])
    } else {
        head
    }
}

fn popped(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::Popped { deltas, initial_list, batch } = &e.outcome else { return String::new() };
    let types: Vec<&str> = deltas.iter().map(|d| d.name()).collect();
    let initial = if *initial_list { tr!(lang, " (initial list)") } else { "" };
    if *batch > 1 {
        trf!(lang, "PopBatch: {n} keys [{types}]", &[("n", batch), ("types", &types.join(", "))]) + initial
    } else {
        format!("Pop {key} [{}]{initial}", types.join(", "))
    }
}

fn processed(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::Processed { delta, batch, write, call, calls, tombstone, notified, listeners } = &e.outcome else {
        return String::new();
    };
    let write = tr(
        lang,
        match write {
            IndexerWrite::Add => phrase!("add"),
            IndexerWrite::Update => phrase!("update"),
            IndexerWrite::Delete => phrase!("delete"),
            IndexerWrite::Replace => phrase!("replace"),
            IndexerWrite::None => phrase!("none"),
        },
    );
    let counted = [("OnAdd", calls.add), ("OnUpdate", calls.update), ("OnDelete", calls.delete)]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(name, n)| format!("{n}× {name}"))
        .collect::<Vec<_>>()
        .join(", ");
    let call = match call {
        Some(c) => c.name().to_string(),
        None if counted.is_empty() => tr!(lang, "no handler").into(),
        None => counted,
    };
    let what = if *tombstone { " (DeletedFinalStateUnknown)" } else { "" };
    let partial = if notified < listeners {
        trf!(lang, ", {notified} of {listeners} handlers notified", &[("notified", notified), ("listeners", listeners)])
    } else {
        String::new()
    };
    let head = if *batch {
        trf!(lang, "batch from {key}: indexer transaction → {call}", &[("key", &key), ("call", &call)])
    } else if key.is_empty() {
        trf!(
            lang,
            "{delta} at rv {rv}: indexer {write} → {call}",
            &[("delta", &delta.name()), ("rv", &e.rv), ("write", &write), ("call", &call)],
        )
    } else {
        trf!(
            lang,
            "{delta} {key}: indexer {write} → {call}",
            &[("delta", &delta.name()), ("key", &key), ("write", &write), ("call", &call)],
        )
    };
    head + what + &partial
}

fn handler_called(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::HandlerCalled { handler, call, note, enqueued, .. } = &e.outcome else { return String::new() };
    let turned;
    let note = match note {
        CallNote::InitialList => " (isInInitialList)",
        CallNote::ResyncSameRv => tr!(lang, " (resync: same rv)"),
        CallNote::Tombstone => " (DeletedFinalStateUnknown)",
        CallNote::FilterTurned { from } => {
            turned = trf!(lang, " (the filter turned {from} into it)", &[("from", &from.name())]);
            turned.as_str()
        }
        CallNote::None | CallNote::FilteredOut | CallNote::PredicateFalse { .. } => "",
    };
    let add = enqueued.as_ref().map(|t| format!(" → queue.Add({t})")).unwrap_or_default();
    format!("{handler}.{}({key}){note}{add}", call.name())
}

fn api_write(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::ApiWrite { op, kind, sent_rv, answer } = &e.outcome else { return String::new() };
    let sent = sent_rv.map(|rv| format!(" (rv {rv})")).unwrap_or_default();
    let result = match answer {
        Ok(rv) => trf!(lang, "ok, rv {rv}", &[("rv", rv)]),
        Err(s) => format!("{} {}", s.code, s.reason),
    };
    format!("{} {kind} {key}{sent} → {result}", write_op(*op))
}

fn api_answer(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::ApiAnswer { kind, answer, reads } = &e.outcome else { return String::new() };
    let head = match answer {
        Ok(rv) => {
            let what = kind.map_or(tr!(lang, "object").to_string(), |k| k.to_string());
            trf!(lang, "{what} {key} written at rv {rv}", &[("what", &what), ("key", &key), ("rv", rv)])
        }
        Err(s) => s.to_string(),
    };
    join(head, reads.iter().map(|r| read(r, lang)).collect())
}

fn reconcile_ends(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::ReconcileEnds { result, then } = &e.outcome else { return String::new() };
    let what = match (result, then) {
        (ReconcileResult::Error(err), Requeue::RateLimited { delay_ms, requeues }) => trf!(
            lang,
            "error: {err} → AddRateLimited: retry in {delay} ms (requeues {requeues})",
            &[("err", err), ("delay", delay_ms), ("requeues", requeues)],
        ),
        (ReconcileResult::Requeue, Requeue::RateLimited { delay_ms, requeues }) => trf!(
            lang,
            "Requeue: true → AddRateLimited: again in {delay} ms (requeues {requeues})",
            &[("delay", delay_ms), ("requeues", requeues)],
        ),
        (ReconcileResult::RequeueAfter(d), _) => trf!(lang, "RequeueAfter {d} ms → Forget + AddAfter", &[("d", d)]),
        (ReconcileResult::Terminal(err), _) => trf!(lang, "terminal error: {err} → not requeued", &[("err", err)]),
        _ => tr!(lang, "success → Forget").into(),
    };
    format!("reconcile {key}: {what}")
}

fn user_write(e: &TraceEvent, lang: Lang) -> String {
    let key = e.key.as_str();
    let Outcome::UserWrite { verb, kind, answer, no_match } = &e.outcome else { return String::new() };
    let verb = tr(lang, user_verb(*verb));
    match (answer, no_match) {
        (_, Some(selector)) => trf!(
            lang,
            "{verb} failed: no {resource} matches {selector}",
            &[("verb", &verb), ("resource", &kind.map_or("objects", |k| k.resource())), ("selector", selector)],
        ),
        (Ok(_), None) => {
            format!("{verb} {} {key}", kind.map_or(tr!(lang, "object").to_string(), |k| k.to_string()))
        }
        (Err(s), None) => trf!(lang, "{verb} failed: {err}", &[("verb", &verb), ("err", s)]),
    }
}

fn cache_read(e: &TraceEvent, lang: Lang) -> String {
    let Outcome::CacheRead { read, answer, waited_ms } = &e.outcome else { return String::new() };
    use crate::controller::cache_reader::CacheAnswer;
    let call = client_call("client", read);
    let answered = match answer {
        Ok(CacheAnswer::Got) => trf!(lang, "{call} → found", &[("call", &call)]),
        Ok(CacheAnswer::Listed { found, examined, continue_token }) => {
            let listed = trf!(
                lang,
                "{call} → {found} found, {examined} examined",
                &[
                    ("call", &call),
                    ("found", &crate::i18n::grouped(*found as u64)),
                    ("examined", &crate::i18n::grouped(*examined as u64)),
                ],
            );
            listed + &pages(continue_token, None)
        }
        Err(e) => format!("{call} → {e}"),
    };
    match waited_ms {
        0 => answered,
        ms => trf!(
            lang,
            "{answered} (after {time} waiting for the sync)",
            &[("answered", &answered), ("time", &seconds(*ms))]
        ),
    }
}

fn api_read(e: &TraceEvent, lang: Lang) -> String {
    let Outcome::ApiRead { read, answer, uncached } = &e.outcome else { return String::new() };
    use crate::controller::api_reader::ApiAnswer;
    let call = match uncached {
        true => format!("{} (DisableFor)", client_call("client", read)),
        false => client_call("apiReader", read),
    };
    match answer {
        Ok(ApiAnswer::Got { resource_version, bytes }) => trf!(
            lang,
            "{call} → GET found at rv {rv}, {bytes} bytes sent",
            &[("call", &call), ("rv", resource_version), ("bytes", &crate::i18n::grouped(*bytes))],
        ),
        Ok(ApiAnswer::Listed { items, bytes, continue_token, remaining }) => {
            let listed = trf!(
                lang,
                "{call} → LIST of {items} items, {bytes} bytes sent",
                &[
                    ("call", &call),
                    ("items", &crate::i18n::grouped(*items as u64)),
                    ("bytes", &crate::i18n::grouped(*bytes)),
                ],
            );
            listed + &pages(continue_token, *remaining)
        }
        // What the Go client's error says (`err.Error()`: the status's message), not kubectl's wording.
        Err(e) => format!("{call} → {}", e.message),
    }
}

/// A list's page marks as the Go client reads them: `; continue "…", remainingItemCount 400`.
fn pages(continue_token: &str, remaining: Option<i64>) -> String {
    let mut marks = Vec::new();
    if !continue_token.is_empty() {
        let shown: String = continue_token.chars().take(24).collect();
        let cut = if shown.len() < continue_token.len() { "…" } else { "" };
        marks.push(format!("continue {shown:?}{cut}"));
    }
    marks.extend(remaining.map(|n| format!("remainingItemCount {n}")));
    if marks.is_empty() {
        String::new()
    } else {
        format!("; {}", marks.join(", "))
    }
}

fn fault(e: &TraceEvent, lang: Lang) -> String {
    let Outcome::Fault { effect, .. } = &e.outcome else { return String::new() };
    match effect {
        FaultEffect::WatchesCut { ids } => {
            let ids: Vec<String> = ids.iter().map(|id| format!("#{id}")).collect();
            trf!(lang, "watch {ids} disconnected: events in flight are lost", &[("ids", &ids.join(", "))])
        }
        FaultEffect::NoWatchOpen => tr!(lang, "no watch open to disconnect").into(),
        FaultEffect::Compacted { revision } => trf!(lang, "etcd compacted at revision {rev}", &[("rev", revision)]),
        FaultEffect::CompactFailed { message } => trf!(lang, "compaction failed: {err}", &[("err", message)]),
        FaultEffect::ApiServerRestarted => {
            tr!(lang, "API server restarted: watches closed, watch cache re-initialised from a LIST").into()
        }
        FaultEffect::Revoked { verb, user } => {
            trf!(lang, "RBAC: {verb} revoked from {user}", &[("verb", verb), ("user", user)])
        }
        FaultEffect::Granted { verb, user } => {
            trf!(lang, "RBAC: {verb} granted to {user}", &[("verb", verb), ("user", user)])
        }
        FaultEffect::NextNotificationLost => {
            tr!(lang, "the next notification to a handler will be lost (what-if)").into()
        }
        FaultEffect::Latency { ms } => trf!(lang, "network latency set to {ms} ms", &[("ms", ms)]),
    }
}

pub(super) fn added(add: AddOutcome) -> Phrase {
    match add {
        AddOutcome::Queued => phrase!("queued"),
        AddOutcome::AlreadyQueued => phrase!("already queued: deduplicated"),
        AddOutcome::PriorityRaised => phrase!("already queued: deduplicated, moved up to the higher priority"),
        AddOutcome::WhileProcessing => phrase!("being reconciled: marked dirty, runs again after Done"),
        AddOutcome::AlreadyDirty => phrase!("being reconciled and already marked to run again: nothing changes"),
        AddOutcome::ShuttingDown => phrase!("shutting down: ignored"),
    }
}

fn decision(d: &Decision, key: &str, lang: Lang) -> String {
    match d {
        Decision::Found { rv } => trf!(lang, "Get: found at rv {rv}", &[("rv", rv)]),
        Decision::ReadFailed { list: true, error, .. } => format!("List: {error}"),
        Decision::ReadFailed { error, ignored: true, .. } if error.is_not_found() => {
            trf!(lang, "Get: {err}: nothing to do", &[("err", error)])
        }
        Decision::ReadFailed { error, .. } => format!("Get: {error}"),
        Decision::Counted { owner, want, have, from_events: true } => trf!(
            lang,
            "{owner} {key}: want {want}, events say {have}",
            &[("owner", owner), ("key", &key), ("want", want), ("have", have)],
        ),
        Decision::Counted { owner, want, have, .. } => trf!(
            lang,
            "{owner} {key}: want {want}, cache has {have}",
            &[("owner", owner), ("key", &key), ("want", want), ("have", have)],
        ),
        Decision::WaitingExpectations { adds, dels } => trf!(
            lang,
            "waiting for {adds} creates and {dels} deletes to be observed",
            &[("adds", adds), ("dels", dels)],
        ),
        Decision::WillCreate { count } => trf!(lang, "create {n}", &[("n", count)]),
        Decision::WillDelete { count } => trf!(lang, "delete {n}", &[("n", count)]),
        Decision::AlreadyStamped { rv } => {
            trf!(lang, "Get: rv {rv}, data.updated is already \"true\": nothing to do", &[("rv", rv)])
        }
        Decision::Stamp { rv } => trf!(lang, "Get: rv {rv}; set data.updated=\"true\"", &[("rv", rv)]),
        Decision::Attempt { n, failures } if n <= failures => trf!(lang, "attempt {n} fails", &[("n", n)]),
        Decision::Attempt { n, .. } => trf!(lang, "attempt {n} succeeds", &[("n", n)]),
        Decision::TerminalFailure => tr!(lang, "terminal failure").into(),
        Decision::CheckAgainIn { ms } => trf!(lang, "check again in {ms} ms", &[("ms", ms)]),
        Decision::NewReplicaSet { name, replicas } => trf!(
            lang,
            "no ReplicaSet for the template: create {name} with {n} replicas",
            &[("name", name), ("n", replicas)],
        ),
        Decision::ScaleReplicaSet { name, from, to } => {
            trf!(lang, "scale ReplicaSet {name} from {from} to {to}", &[("name", name), ("from", from), ("to", to)])
        }
    }
}

fn read(r: &Read, lang: Lang) -> String {
    match r {
        Read::CacheGet { result: Ok(rv), stale: None } => trf!(lang, "cache Get again: rv {rv}", &[("rv", rv)]),
        Read::CacheGet { result: Ok(rv), stale: Some(written) } => trf!(
            lang, "cache Get again: rv {rv} — stale: the Update wrote rv {written}, its watch event has not reached the cache",
            &[("rv", rv), ("written", written)],
        ),
        Read::CacheGet { result: Err(e), .. } => trf!(lang, "cache Get again: {err}", &[("err", e)]),
        Read::ApiGet { answer: Ok(rv) } => trf!(lang, "APIReader Get: rv {rv} (fresh from the API server)", &[("rv", rv)]),
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

fn user_verb(v: UserVerb) -> Phrase {
    match v {
        UserVerb::Create => phrase!("create"),
        UserVerb::Update => phrase!("update"),
        UserVerb::UpdateStatus => phrase!("update status"),
        UserVerb::Delete => phrase!("delete"),
        UserVerb::Scale => phrase!("scale"),
        UserVerb::Patch => phrase!("patch"),
    }
}

/// A `client.Reader` call as Go code reads: `client.Get(Pod default/web-1)`,
/// `apiReader.List(PodList, InNamespace("default"))`.
fn client_call(reader: &str, read: &crate::controller::cache_reader::ClientRead) -> String {
    use crate::controller::cache_reader::ClientRead;
    match read {
        ClientRead::Get { kind, namespace, name } => format!("{reader}.Get({kind} {namespace}/{name})"),
        ClientRead::List { kind, namespace, labels, field, limit, continue_token } => {
            let mut options: Vec<String> = Vec::new();
            options.extend(namespace.as_ref().map(|ns| format!("InNamespace({ns:?})")));
            options.extend(field.as_ref().map(|(path, value)| format!("MatchingFields{{{path:?}: {value:?}}}")));
            if !labels.is_empty() {
                options.push(format!("MatchingLabels({labels})"));
            }
            if *limit > 0 {
                options.push(format!("Limit({limit})"));
            }
            if !continue_token.is_empty() {
                options.push(format!("Continue({continue_token:?})"));
            }
            format!("{reader}.List({}List{})", kind, options.iter().map(|o| format!(", {o}")).collect::<String>())
        }
    }
}
