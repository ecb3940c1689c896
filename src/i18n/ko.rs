//! Step summaries in Korean. Names from the code (Pop, Replace, OnAdd, queue.Add,
//! resourceVersion, DeletedFinalStateUnknown) and upstream errors stay as they are, as Korean
//! engineers write them; the sentence around them is Korean.

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
        Outcome::ListAndWatchStarts { next: n } => join("ListAndWatch 시작".into(), next(n)),
        Outcome::ListServed { request, answer } => match answer {
            Ok(l) => format!("{} → 항목 {}개, rv {}", list_query(request), l.items, l.resource_version),
            Err(s) => format!("{} → {} {}", list_query(request), s.code, s.reason),
        },
        Outcome::ListReceived { answer, next: n } => match answer {
            Ok(l) => join(format!("항목 {}개, rv {}", l.items, l.resource_version), next(n)),
            Err(s) => join(s.to_string(), next(n)),
        },
        Outcome::WatchServed { resource_version, timeout_secs, send_initial_events, answer } => match answer {
            Ok(id) => {
                let initial = if *send_initial_events { ", sendInitialEvents=true" } else { "" };
                format!("watch #{id}: rv={resource_version:?}부터, timeoutSeconds={timeout_secs}{initial}")
            }
            Err(s) => format!("{} {}", s.code, s.reason),
        },
        Outcome::WatchOpened { answer, next: n } => match answer {
            Ok(id) => join(format!("watch #{id} 스트리밍 시작"), next(n)),
            Err(s) => join(s.to_string(), next(n)),
        },
        Outcome::WatchEvent { event, initial_events_end, next: n, .. } => {
            let head = if *initial_events_end {
                format!("{} (k8s.io/initial-events-end): 초기 목록 끝", event.name())
            } else if key.is_empty() {
                event.name().to_string()
            } else {
                format!("{} {key}", event.name())
            };
            join(head, next(n))
        }
        Outcome::WatchError { status, next: n, .. } => join(status.to_string(), next(n)),
        Outcome::EventLost { watch, event } => format!("watch #{watch}의 {} 유실: 스트림이 닫혔습니다", event.name()),
        Outcome::WatchTimedOut { watch, already_closed: true } => format!("watch #{watch}는 이미 닫혔습니다"),
        Outcome::WatchTimedOut { watch, .. } => format!("watch #{watch} 타임아웃: 서버가 스트림을 닫습니다"),
        Outcome::WatchEnded { watch, read: false, .. } => format!("watch #{watch} 종료 (더 이상 읽지 않음)"),
        Outcome::WatchEnded { watch, next: n, .. } => join(format!("watch #{watch} 종료"), next(n)),
        Outcome::BackoffElapsed { stale: true, .. } => "지난 backoff 타이머".into(),
        Outcome::BackoffElapsed { next: n, .. } => join("backoff 끝".into(), next(n)),
        Outcome::Resync(r) => match r {
            ResyncOutcome::Stopped => "resync 타이머 멈춤".into(),
            ResyncOutcome::NotDue => "resync 확인: 차례가 된 핸들러 없음".into(),
            ResyncOutcome::Queued { deltas } => format!("Resync: 알려진 오브젝트에 Sync delta {deltas}개"),
            ResyncOutcome::SyncAll => "Resync: 모든 오브젝트에 SyncAll delta 하나".into(),
        },
        Outcome::Queued { op, waiting } => {
            let head = match op {
                FifoOp::Replace { objects, resource_version, queued } => {
                    format!("Replace(오브젝트 {objects}개, rv {resource_version}): key {queued}개 대기")
                }
                FifoOp::ReplacedAll { objects, resource_version } => {
                    format!("Replace(오브젝트 {objects}개, rv {resource_version}): ReplacedAll delta 하나")
                }
                FifoOp::Bookmark { resource_version } => format!("Bookmark(rv {resource_version})"),
                FifoOp::Added => format!("Added {key}"),
                FifoOp::Updated => format!("Updated {key}"),
                FifoOp::Deleted { ignored: false } => format!("Deleted {key}"),
                FifoOp::Deleted { ignored: true } => format!("Deleted {key} 무시: 모르는 오브젝트"),
            };
            if *waiting > 1 {
                format!("{head} (delta {waiting}개 대기)")
            } else {
                head
            }
        }
        Outcome::Popped { deltas, initial_list, batch } => {
            let types: Vec<&str> = deltas.iter().map(|d| d.name()).collect();
            let initial = if *initial_list { " (초기 목록)" } else { "" };
            if *batch > 1 {
                format!("PopBatch: key {batch}개 [{}]{initial}", types.join(", "))
            } else {
                format!("Pop {key} [{}]{initial}", types.join(", "))
            }
        }
        Outcome::PopEmpty => "큐가 비었습니다".into(),
        Outcome::Processed { delta, write, call, tombstone, notified, listeners } => {
            let write = match write {
                IndexerWrite::Add => "추가",
                IndexerWrite::Update => "갱신",
                IndexerWrite::Delete => "삭제",
                IndexerWrite::Replace => "교체",
                IndexerWrite::None => "없음",
            };
            let call = call.map_or("핸들러 없음", |c| c.name());
            let what = if *tombstone { " (DeletedFinalStateUnknown)" } else { "" };
            let sync = if notified < listeners {
                format!(", 핸들러 {listeners}개 중 {notified}개에 알림")
            } else {
                String::new()
            };
            format!("{} {key}: indexer {write} → {call}{what}{sync}", delta.name())
        }
        Outcome::NothingToProcess => "처리할 것 없음".into(),
        Outcome::HandlerCalled { handler, call, lost: true, .. } => {
            format!("{handler}.{}({key}) 핸들러가 실행되기 전에 유실 (장애 주입)", call.name())
        }
        Outcome::HandlerCalled { handler, call, note, enqueued, .. } => {
            let note = match note {
                CallNote::InitialList => " (isInInitialList)",
                CallNote::ResyncSameRv => " (resync: 같은 rv)",
                CallNote::Tombstone => " (DeletedFinalStateUnknown)",
                CallNote::None => "",
            };
            let add = enqueued.as_ref().map(|t| format!(" → queue.Add({t})")).unwrap_or_default();
            format!("{handler}.{}({key}){note}{add}", call.name())
        }
        Outcome::NothingBuffered => "버퍼가 비었습니다".into(),
        Outcome::WorkqueueAdd(add) => format!("Add({key}): {}", added(*add)),
        Outcome::WorkqueueReady(Some(add)) => format!("{key} 지연 시간 끝: {}", added(*add)),
        Outcome::WorkqueueReady(None) => format!("{key}: 더 이른 타이머로 대체됨"),
        Outcome::ReconcileStarts { worker, decisions, reads } => {
            let mut parts: Vec<String> = decisions.iter().map(|d| decision(d, key)).collect();
            parts.extend(reads.iter().map(read));
            format!("worker {worker}: Get() → {key}: {}", parts.join("; "))
        }
        Outcome::NothingQueued => "할 일 없음".into(),
        Outcome::ApiWrite { op, kind, sent_rv, answer } => {
            let sent = sent_rv.map(|rv| format!(" (rv {rv})")).unwrap_or_default();
            let result = match answer {
                Ok(rv) => format!("성공, rv {rv}"),
                Err(s) => format!("{} {}", s.code, s.reason),
            };
            format!("{} {kind} {key}{sent} → {result}", write_op(*op))
        }
        Outcome::ApiAnswer { kind, answer, reads } => {
            let head = match answer {
                Ok(rv) => format!("{} {key} 기록됨, rv {rv}", kind.map_or("오브젝트".into(), |k| k.to_string())),
                Err(s) => s.to_string(),
            };
            join(head, reads.iter().map(read).collect())
        }
        Outcome::ReconcileEnds { result, then } => {
            let what = match (result, then) {
                (ReconcileResult::Error(err), Requeue::RateLimited { delay_ms, requeues }) => {
                    format!("오류: {err} → AddRateLimited: {delay_ms} ms 뒤 재시도 (requeue {requeues}번)")
                }
                (ReconcileResult::RequeueAfter(d), _) => format!("RequeueAfter {d} ms → Forget + AddAfter"),
                (ReconcileResult::Terminal(err), _) => format!("terminal 오류: {err} → 다시 넣지 않음"),
                _ => "성공 → Forget".into(),
            };
            format!("reconcile {key}: {what}")
        }
        Outcome::WorkqueueDone { again: false } => format!("Done({key}): 끝"),
        Outcome::WorkqueueDone { again: true } => format!("Done({key}): 처리 중 다시 추가됨: 다시 대기"),
        Outcome::WorkerIdle => "쉬는 중".into(),
        Outcome::KubeletReport { gone: true, .. } => format!("kubelet: {key}가 사라졌습니다"),
        Outcome::KubeletReport { phase, answer, .. } => match answer {
            Ok(rv) => format!("kubelet: {key} → {} (rv {rv})", pod_phase(*phase)),
            Err(s) => format!("kubelet: {key} → {} 실패: {s}", pod_phase(*phase)),
        },
        Outcome::Polled { kind, answer } => match answer {
            Ok(l) => format!("폴링 LIST {} → 항목 {}개, rv {}", kind.resource(), l.items, l.resource_version),
            Err(s) => format!("폴링 LIST {} → {s}", kind.resource()),
        },
        Outcome::BookmarksSent => "bookmark를 허용한 watch에 bookmark 전송".into(),
        Outcome::UserWrite { verb, kind, answer, no_match } => {
            let verb = user_verb(*verb);
            match (answer, no_match) {
                (_, Some(selector)) => {
                    format!("{verb} 실패: {selector}에 맞는 {}가 없습니다", kind.map_or("오브젝트", |k| k.resource()))
                }
                (Ok(_), None) => format!("{verb} {} {key}", kind.map_or("오브젝트".into(), |k| k.to_string())),
                (Err(s), None) => format!("{verb} 실패: {s}"),
            }
        }
        Outcome::ConsoleWatch { kind, answer } => match answer {
            Ok(id) => format!("kubectl get {} -w: watch #{id} 열림", kind.resource()),
            Err(s) => format!("kubectl watch 실패: {s}"),
        },
        Outcome::Fault { effect, .. } => match effect {
            FaultEffect::WatchesCut { ids } => {
                let ids: Vec<String> = ids.iter().map(|id| format!("#{id}")).collect();
                format!("watch {} 끊김: 아직 전송 중이던 이벤트는 사라집니다", ids.join(", "))
            }
            FaultEffect::NoWatchOpen => "끊을 watch가 없습니다".into(),
            FaultEffect::Compacted { revision } => format!("etcd 리비전 {revision}에서 컴팩션"),
            FaultEffect::CompactFailed { message } => format!("컴팩션 실패: {message}"),
            FaultEffect::ApiServerRestarted => {
                "API 서버 재시작: watch가 모두 닫히고 watch cache는 LIST로 다시 채워집니다".into()
            }
            FaultEffect::Revoked { verb, user } => format!("RBAC: {user}의 {verb} 권한 회수"),
            FaultEffect::Granted { verb, user } => format!("RBAC: {user}에게 {verb} 권한 부여"),
            FaultEffect::NextNotificationLost => "다음 핸들러 알림 하나를 잃습니다 (가정 상황)".into(),
            FaultEffect::Latency { ms } => format!("네트워크 지연 {ms} ms"),
        },
    }
}

fn added(add: AddOutcome) -> &'static str {
    match add {
        AddOutcome::Queued => "대기열에 넣음",
        AddOutcome::AlreadyQueued => "이미 대기 중: 중복 제거",
        AddOutcome::WhileProcessing => "reconcile 중: dirty로 표시, Done 뒤에 다시 실행",
        AddOutcome::AlreadyDirty => "reconcile 중이고 이미 다시 실행하도록 표시됨: 변화 없음",
        AddOutcome::ShuttingDown => "종료 중: 무시",
    }
}

fn decision(d: &Decision, key: &str) -> String {
    match d {
        Decision::Found { rv } => format!("Get: rv {rv}에서 찾음"),
        Decision::ReadFailed { list: true, error, .. } => format!("List Pods: {error}"),
        Decision::ReadFailed { error, ignored: true, .. } if error.is_not_found() => {
            format!("Get: {error}: 할 일 없음")
        }
        Decision::ReadFailed { error, .. } => format!("Get: {error}"),
        Decision::Counted { owner, want, have, from_events } => {
            let source = if *from_events { "이벤트로 센 수" } else { "캐시에 있는 수" };
            format!("{owner} {key}: 원하는 수 {want}, {source} {have}")
        }
        Decision::WaitingExpectations { adds, dels } => {
            format!("아직 캐시에 보이지 않은 생성 {adds}개, 삭제 {dels}개를 기다립니다")
        }
        Decision::WillCreate { count } => format!("{count}개 생성"),
        Decision::WillDelete { count } => format!("{count}개 삭제"),
        Decision::AlreadyStamped { rv } => format!("Get: rv {rv}, data.updated가 이미 \"true\": 할 일 없음"),
        Decision::Stamp { rv } => format!("Get: rv {rv}; data.updated=\"true\"로 설정"),
        Decision::Attempt { n, failures } if n <= failures => format!("{n}번째 시도 실패"),
        Decision::Attempt { n, .. } => format!("{n}번째 시도 성공"),
        Decision::TerminalFailure => "terminal 실패".into(),
        Decision::CheckAgainIn { ms } => format!("{ms} ms 뒤 다시 확인"),
    }
}

fn read(r: &Read) -> String {
    match r {
        Read::CacheGet { result: Ok(rv), stale: None } => format!("캐시에서 다시 Get: rv {rv}"),
        Read::CacheGet { result: Ok(rv), stale: Some(written) } => format!(
            "캐시에서 다시 Get: rv {rv} — 오래된 값: Update는 rv {written}을 썼지만 그 watch 이벤트가 아직 캐시에 오지 않았습니다"
        ),
        Read::CacheGet { result: Err(e), .. } => format!("캐시에서 다시 Get: {e}"),
        Read::ApiGet { answer: Ok(rv) } => format!("APIReader Get: rv {rv} (API 서버에서 바로 읽음)"),
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
        UserVerb::Create => "생성",
        UserVerb::Update => "수정",
        UserVerb::UpdateStatus => "status 수정",
        UserVerb::Delete => "삭제",
        UserVerb::Scale => "scale",
        UserVerb::Patch => "patch",
    }
}
