//! The page's words in Korean and English. Upstream texts — log lines, error messages, trace
//! summaries, kubectl output, YAML — stay as Kubernetes prints them, in every language.

use crate::scenario::Lang;

/// The page's word for `en` in `lang` (English is the key).
pub fn tr(lang: Lang, en: &'static str) -> &'static str {
    if lang == Lang::En {
        return en;
    }
    match en {
        "Every event, one step at a time: etcd → API server → Reflector → DeltaFIFO → Indexer → handlers → workqueue → reconcile." => {
            "모든 이벤트를 한 단계씩: etcd → API 서버 → Reflector → DeltaFIFO → Indexer → 핸들러 → 워크큐 → reconcile."
        }
        "Store revision" => "저장소 리비전",
        "Step back" => "한 단계 뒤로",
        "Step forward" => "한 단계 앞으로",
        "Play" => "재생",
        "Pause" => "일시 정지",
        "Reset" => "처음으로",
        "Speed" => "속도",
        "Timeline" => "타임라인",
        "step" => "단계",
        "Stepping" => "단계 이동",
        "Pipeline" => "파이프라인",
        "Press Step forward (→) to deliver the first message." => "한 단계 앞으로(→)를 눌러 첫 메시지를 전달하세요.",
        "Revision ruler" => "리비전 눈금자",
        "etcd revision" => "etcd 리비전",
        "compacted at" => "컴팩션 지점",
        "watch cache oldest RV" => "watch cache 가장 오래된 RV",
        "watch cache RV" => "watch cache RV",
        "reflector lastSyncResourceVersion" => "reflector lastSyncResourceVersion",
        "indexer newest RV" => "indexer 최신 RV",
        "Event log" => "이벤트 로그",
        "Filter log by stage" => "단계별 로그 필터",
        "All stages" => "모든 단계",
        "Faults" => "장애 주입",
        "Disconnect watch" => "watch 끊기",
        "Compact store" => "저장소 컴팩션",
        "Restart API server" => "API 서버 재시작",
        "Revoke list" => "list 권한 회수",
        "Revoke watch" => "watch 권한 회수",
        "Grant list" => "list 권한 부여",
        "Grant watch" => "watch 권한 부여",
        "Drop next event" => "다음 이벤트 유실",
        "Network latency" => "네트워크 지연",
        "Costs" => "비용",
        "Bytes sent" => "보낸 바이트",
        "Cached objects" => "캐시된 오브젝트",
        "Reconciles" => "reconcile 횟수",
        "API requests" => "API 요청",
        "watch events" => "watch 이벤트",
        "Console" => "콘솔",
        "Run" => "실행",
        "Write" => "쓰기",
        "Example kind" => "예시 종류",
        "Manifest (JSON)" => "매니페스트 (JSON)",
        "Create" => "생성",
        "Update" => "수정",
        "Delete" => "삭제",
        "Edit" => "편집",
        "Objects" => "오브젝트",
        "Inspector" => "인스펙터",
        "Scenario" => "시나리오",
        "Free play (Deployment, Pods, kubelet)" => "자유 실습 (Deployment, Pod, kubelet)",
        "Language" => "언어",
        "Narration" => "해설",
        "Look at" => "볼 곳",
        "Question" => "질문",
        "Correct." => "정답입니다.",
        "Not quite." => "아쉽습니다.",
        "Answer to continue; autoplay waits." => "답을 고르면 계속합니다. 자동 재생은 기다립니다.",
        other => other,
    }
}
