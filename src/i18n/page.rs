//! The page's own words in Korean and English. English is the key: `tr(lang, "Step forward")`
//! for a word, `trf(lang, "{n} waiting", &[("n", …)])` for a sentence with values in it. Every
//! key the page uses is in [`WORDS`] (a test reads the page's source to check).

use super::Lang;

/// (English, Korean) for every word of the page.
pub const WORDS: &[(&str, &str)] = &[
    ("Every event, one step at a time: etcd → API server → Reflector → DeltaFIFO → Indexer → handlers → workqueue → reconcile.", "모든 이벤트를 한 단계씩: etcd → API 서버 → Reflector → DeltaFIFO → Indexer → 핸들러 → 워크큐 → reconcile."),
    ("Store revision", "저장소 리비전"),
    ("Step back", "한 단계 뒤로"),
    ("Step forward", "한 단계 앞으로"),
    ("Play", "재생"),
    ("Pause", "일시 정지"),
    ("Reset", "처음으로"),
    ("Speed", "속도"),
    ("Timeline", "타임라인"),
    ("step", "단계"),
    ("Stepping", "단계 이동"),
    ("Pipeline", "파이프라인"),
    ("Press Step forward (→) to deliver the first message.", "한 단계 앞으로(→)를 눌러 첫 메시지를 전달하세요."),
    ("Revision ruler", "리비전 눈금자"),
    ("etcd revision", "etcd 리비전"),
    ("compacted at", "컴팩션 지점"),
    ("watch cache oldest RV", "watch cache 가장 오래된 RV"),
    ("watch cache RV", "watch cache RV"),
    ("reflector lastSyncResourceVersion", "reflector lastSyncResourceVersion"),
    ("indexer newest RV", "indexer 최신 RV"),
    ("Event log", "이벤트 로그"),
    ("Filter log by stage", "단계별 로그 필터"),
    ("All stages", "모든 단계"),
    ("Faults", "장애 주입"),
    ("Disconnect watch", "watch 끊기"),
    ("Compact store", "저장소 컴팩션"),
    ("Restart API server", "API 서버 재시작"),
    ("Revoke list", "list 권한 회수"),
    ("Revoke watch", "watch 권한 회수"),
    ("Grant list", "list 권한 부여"),
    ("Grant watch", "watch 권한 부여"),
    ("Drop next event", "다음 이벤트 유실"),
    ("Network latency", "네트워크 지연"),
    ("Costs", "비용"),
    ("Bytes sent", "보낸 바이트"),
    ("Cached objects", "캐시된 오브젝트"),
    ("Reconciles", "reconcile 횟수"),
    ("API requests", "API 요청"),
    ("watch events", "watch 이벤트"),
    ("Console", "콘솔"),
    ("Run", "실행"),
    ("Write", "쓰기"),
    ("Example kind", "예시 종류"),
    ("Manifest (JSON)", "매니페스트 (JSON)"),
    ("Create", "생성"),
    ("Update", "수정"),
    ("Delete", "삭제"),
    ("Edit", "편집"),
    ("Objects", "오브젝트"),
    ("Inspector", "인스펙터"),
    ("Scenario", "시나리오"),
    ("Free play (Deployment, Pods, kubelet)", "자유 실습 (Deployment, Pod, kubelet)"),
    ("Language", "언어"),
    ("Narration", "해설"),
    ("Look at", "볼 곳"),
    ("Question", "질문"),
    ("Correct.", "정답입니다."),
    ("Not quite.", "아쉽습니다."),
    ("Answer to continue; autoplay waits.", "답을 고르면 계속합니다. 자동 재생은 기다립니다."),
    ("You", "사용자"),
    ("API server", "API 서버"),
    ("Handlers", "핸들러"),
    ("Workqueue", "워크큐"),
    ("Inspect", "살펴보기:"),
    ("Objects sent", "보낸 오브젝트"),
    ("Live watchers", "열린 watch"),
    ("Verb", "동사"),
    ("Resource", "리소스"),
    ("Code", "코드"),
    ("Count", "횟수"),
    ("Requests", "요청"),
    ("Watch caches", "watch cache"),
    ("Watchers", "watch 목록"),
    ("User", "사용자"),
    ("Queued", "대기 이벤트"),
    ("Last results", "최근 결과"),
    ("No requests yet.", "아직 요청이 없습니다."),
    ("Object", "오브젝트"),
    ("Actions", "동작"),
    ("No objects yet: create one above.", "아직 오브젝트가 없습니다. 위에서 만들어 보세요."),
    ("kubectl get pods", "kubectl get pods"),
    ("Scale web to 5", "web을 5개로"),
    ("Can the controller list pods?", "컨트롤러가 pod를 list할 수 있나?"),
    ("kubectl output", "kubectl 출력"),
    ("get, get -w, create -f -, apply -f - (manifest on the next lines, YAML or JSON), scale, label, delete, auth can-i. Ctrl+Enter runs.", "get, get -w, create -f -, apply -f - (다음 줄에 YAML 또는 JSON 매니페스트), scale, label, delete, auth can-i. Ctrl+Enter로 실행합니다."),
    ("Revision history", "리비전 기록"),
    ("Rev", "리비전"),
    ("Event", "이벤트"),
    ("Key", "key"),
    ("Version", "버전"),
    ("empty store: the first write is revision 2", "빈 저장소: 첫 쓰기가 리비전 2입니다"),
    ("idle", "대기"),
    ("listing", "LIST 중"),
    ("opening watch", "watch 여는 중"),
    ("watching", "watch 중"),
    ("backing off", "backoff 중"),
    ("{phase}; lastSyncResourceVersion {rv}; {lists} LISTs, {watches} WATCHes", "{phase}; lastSyncResourceVersion {rv}; LIST {lists}회, WATCH {watches}회"),
    ("{phase}, next try at {at}; lastSyncResourceVersion {rv}; {lists} LISTs, {watches} WATCHes", "{phase}, 다음 시도 {at}; lastSyncResourceVersion {rv}; LIST {lists}회, WATCH {watches}회"),
    ("{kind} informer", "{kind} informer"),
    ("{kind} reflector log", "{kind} reflector 로그"),
    ("{name}: {n} waiting; HasSynced: {synced}", "{name}: 대기 {n}개; HasSynced: {synced}"),
    ("{n} objects; newest RV {rv}; last read examined {scanned} objects", "오브젝트 {n}개; 최신 RV {rv}; 마지막 읽기가 살펴본 오브젝트 {scanned}개"),
    ("index {name}: {n} values", "인덱스 {name}: 값 {n}개"),
    ("Open {key}", "{key} 열기"),
    ("Object YAML", "오브젝트 YAML"),
    ("{name}: {buffered} buffered, {delivered} delivered, resync every {period}", "{name}: 버퍼 {buffered}개, 전달 {delivered}개, resync 주기 {period}"),
    ("never", "없음"),
    ("worker {i}: idle", "워커 {i}: 대기"),
    ("worker {i}: reconciling {key} since {since}", "워커 {i}: {key} reconcile 중 ({since}부터)"),
    ("{reconciles} reconciles, {requeues} requeues", "reconcile {reconciles}회, 재시도 {requeues}회"),
    ("{key} until {at}", "{key}: {at}까지 대기"),
    ("Over the last {n} steps: {requests} API requests, {events} watch events", "최근 {n}단계: API 요청 {requests}개, watch 이벤트 {events}개"),
    (" — last {n} steps", " — 최근 {n}단계"),
    ("Oldest RV", "가장 오래된 RV"),
    ("The oldest resourceVersion a watch can resume from", "watch를 이어 갈 수 있는 가장 오래된 resourceVersion"),
    ("compacted at revision {rev}: reads below it fail; at or below it only each key's newest revision remains", "리비전 {rev}에서 컴팩션: 그보다 오래된 리비전은 읽을 수 없고, 그 이하에는 key마다 가장 최신 리비전만 남습니다"),
    ("tombstone", "tombstone"),
    ("v{version} · created {created}", "v{version} · 생성 {created}"),
    ("Edit {label}", "{label} 편집"),
    ("Delete {label}", "{label} 삭제"),
    ("… and {n} more", "… 외 {n}개"),
    ("{n} steps per second", "초당 {n}단계"),
    ("step {n}", "{n}단계"),
    ("Inspect {stage}", "{stage} 살펴보기"),
    ("{title}: {stage}", "{title}: {stage}"),
    ("{label}: {stage}", "{label}: {stage}"),
    ("Question {n}", "질문 {n}"),
];

/// The page's word for `en` in `lang`.
pub fn tr(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Ko => WORDS.iter().find(|(e, _)| *e == en).map_or(en, |(_, ko)| ko),
    }
}

/// A sentence with values: the template for `lang`, its `{name}`s filled in.
pub fn trf(lang: Lang, template: &'static str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut text = tr(lang, template).to_string();
    for (name, value) in args {
        text = text.replace(&format!("{{{name}}}"), &value.to_string());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_has_one_korean_translation() {
        let mut keys: Vec<&str> = WORDS.iter().map(|(en, _)| *en).collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "a key appears twice");
        assert!(WORDS.iter().all(|(_, ko)| !ko.trim().is_empty()));
        for (en, ko) in WORDS {
            for placeholder in en.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(name, _)| name) {
                assert!(ko.contains(&format!("{{{placeholder}}}")), "{en:?}: the Korean lacks {{{placeholder}}}");
            }
        }
    }

    #[test]
    fn every_word_the_page_uses_is_translated() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
        let call = regex_lite_calls();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            for key in call(&text) {
                assert!(WORDS.iter().any(|(en, _)| *en == key), "{}: {key:?} has no Korean", path.display());
            }
        }
    }

    /// The string literals passed as the key of `tr(…)` / `trf(…)` calls.
    fn regex_lite_calls() -> impl Fn(&str) -> Vec<String> {
        |text: &str| {
            let mut keys = Vec::new();
            for marker in ["tr(lang, \"", "trf(lang, \""] {
                let mut rest = text;
                while let Some(at) = rest.find(marker) {
                    let after = &rest[at + marker.len()..];
                    if let Some(end) = after.find('"') {
                        keys.push(after[..end].to_string());
                    }
                    rest = after;
                }
            }
            keys
        }
    }
}
