//! The Korean the playground shows: one term per concept, as the facilitator's guide's
//! glossary fixes it (its `avoid` lists the words not to use), and, as proxies of a natural
//! 합니다체, sentences that end in its forms, no English-style colon inside a Korean sentence,
//! no particle after a placeholder that does not fit every value put there, and no English word
//! outside code but the names Korean engineers keep in English.

use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Every Korean text of a JSON document (the `ko` of each text), with where it is.
fn korean_texts(path: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(ko)) = map.get("ko") {
                out.push((path.to_string(), ko.clone()));
            }
            for (key, v) in map {
                korean_texts(&format!("{path}.{key}"), v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                korean_texts(&format!("{path}[{i}]"), v, out);
            }
        }
        _ => {}
    }
}

/// The lessons' and the guide's Korean texts: (where, text).
fn prose() -> Vec<(String, String)> {
    let mut texts = Vec::new();
    let lessons = std::fs::read_dir(root().join("static/scenarios")).unwrap().map(|e| e.unwrap().path());
    for path in lessons.filter(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("schema.json")) {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        korean_texts(&name, &value, &mut texts);
    }
    let mut guide: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("static/guide.json")).unwrap()).unwrap();
    guide.as_object_mut().unwrap().remove("glossary");
    korean_texts("guide.json", &guide, &mut texts);
    texts
}

/// `text` without what is inside backticks (code, log lines, field names) or braces (a
/// placeholder's name).
fn outside_code(text: &str) -> String {
    let prose = text.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    prose.split('{').map(|part| part.split_once('}').map_or(part, |(_, after)| after)).collect::<Vec<_>>().join(" ")
}

/// Whether `word` occurs in `text`: as a whole word when it is written in Latin letters
/// (`key` is not in `keyFunc`, `revision` not in `mod_revision`).
fn uses(text: &str, word: &str) -> bool {
    if !word.is_ascii() {
        return text.contains(word);
    }
    let part_of_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(part_of_word) && !after.is_some_and(part_of_word)
    })
}

fn is_hangul(c: char) -> bool {
    ('가'..='힣').contains(&c)
}

#[test]
fn no_korean_text_uses_a_word_the_glossary_rules_out() {
    let guide = informer_sim::scenario::guide::bundled().unwrap();
    let avoided: Vec<String> = guide.glossary.iter().flat_map(|t| t.avoid.clone()).collect();
    for must in ["객체", "relist", "Costs", "하위 리소스"] {
        assert!(avoided.iter().any(|w| w == must), "the glossary rules out {must:?}");
    }
    let mut texts = prose();
    texts.extend(
        informer_sim::i18n::korean_words().into_iter().map(|w| ("the page's phrasebook".into(), w.to_string())),
    );
    let mut found = Vec::new();
    for (place, text) in &texts {
        let prose = outside_code(text);
        found.extend(avoided.iter().filter(|w| uses(&prose, w)).map(|w| format!("{place}: {w:?} in {text:?}")));
    }
    assert!(found.is_empty(), "words the glossary rules out:\n{}", found.join("\n"));
}

/// The sentences of a Korean text, each with the mark that ends it (none at the text's end
/// without one). A mark ends a sentence only before a space or the end (`1.37` is one word).
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.trim().chars().peekable();
    while let Some(c) = chars.next() {
        current.push(c);
        if matches!(c, '.' | '?' | '!') && chars.peek().is_none_or(|n| n.is_whitespace()) {
            out.push(current.trim().to_string());
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// Whether a Korean sentence ends as 합니다체 does: `…다.`, a question `…까?` (or the
/// softer `…까요?`, `…나요?`, `…가요?`), a polite request `…세요.`.
fn ends_politely(sentence: &str) -> bool {
    let bare = sentence.trim_end_matches(['"', '\'', ')', '」', '”']);
    // A closing aside written before the mark, as Korean does: `…사라집니다(가정 상황).`
    let bare =
        match (bare.chars().last(), bare.strip_suffix(|c| matches!(c, '.' | '?')).and_then(|b| b.strip_suffix(')'))) {
            (Some(mark), Some(aside)) => {
                aside.rfind('(').map_or(bare.to_string(), |open| format!("{}{mark}", &aside[..open]))
            }
            _ => bare.to_string(),
        };
    ["다.", "까?", "까요?", "나요?", "가요?", "세요.", "다!"].iter().any(|end| bare.ends_with(end))
}

/// Texts that are sentences, not fragments: titles, answer choices and the handout's pipeline
/// diagrams are fragments.
fn is_prose(place: &str) -> bool {
    !(place.ends_with(".title") || place.contains(".choices[") || place.contains(".pipelines["))
}

#[test]
fn korean_sentences_end_in_the_formal_polite_style_and_have_no_english_colon() {
    let mut wrong = Vec::new();
    for (place, text) in prose().iter().filter(|(place, _)| is_prose(place)) {
        let text = outside_code(text);
        for sentence in sentences(&text).iter().filter(|s| s.chars().any(is_hangul)) {
            if !ends_politely(sentence) {
                wrong.push(format!("{place}: ends as 합니다체 does not: {sentence:?}"));
            }
            // `A: B` inside a Korean sentence reads as English; a Korean sentence says it.
            if sentence.contains(": ") {
                wrong.push(format!("{place}: an English-style colon: {sentence:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{} Korean sentences:\n{}", wrong.len(), wrong.join("\n"));
}

/// The words in Latin letters a Korean text keeps as they are, besides the ones shaped as
/// names (see `kept_in_latin`): what Korean Kubernetes engineers write as upstream spells it,
/// a line a kind of name. Any other English word is said in Korean (the glossary's term, the
/// page's own word) or is code, a command or a message, and goes in backticks.
const KEPT_IN_LATIN: &[&str] = &[
    // Kinds, programs and projects, by their names.
    "Pod Deployment Secret Kubernetes etcd kubectl kubelet kube-apiserver",
    "client-go controller-runtime apimachinery playground Go",
    // The API's verbs as RBAC grants them, and the watch the glossary keeps in English.
    "get list watch list-watch watch-list",
    // Terms the glossary or the page's phrasebook keeps in English.
    "informer reconcile resync tombstone dirty progress rv predicate lister",
    // Upstream's types, calls, deltas and statuses spelled with one capital.
    "Reflector Indexer Reconciler Reconcile Replace Replaced Added Updated Deleted Sync Resync",
    "Pop Add Done Forget Get List Create Update Running Forbidden Conflict Gone Expired Transform",
    // The two halves of an object the lessons are about, as the API names them.
    "spec status",
    // A parameter's value, a unit, a title's versus.
    "true false ms vs",
    // The names the lessons give their objects, namespaces, labels and values.
    "default web app debug load batch fresh cfg green tier gold silver",
];

/// The glossary's and the page's terms of two words kept in English.
const TERMS_KEPT_IN_LATIN: [&str; 3] = ["stale read", "watch cache", "priority queue"];

/// Whether a Latin-letter word may stand in a Korean sentence: a name shaped as code or as
/// the API spells it (a capital after the first letter, as in `LIST`, `ConfigMap` or
/// `resourceVersion`; a digit, as in `web-1` or `int64`), one letter (the objects `a` to `e`,
/// the keys `F` and `N`), or a word of `KEPT_IN_LATIN`.
fn kept_in_latin(word: &str) -> bool {
    let named = word.chars().skip(1).any(|c| c.is_ascii_uppercase()) || word.chars().any(|c| c.is_ascii_digit());
    named || word.chars().count() == 1 || KEPT_IN_LATIN.iter().flat_map(|line| line.split(' ')).any(|w| w == word)
}

/// The words in Latin letters of `text`: runs of ASCII letters, digits, `-` and `_` with a
/// letter in them (`watch-list` is one word, `default/a` two), once the terms of
/// `TERMS_KEPT_IN_LATIN` are taken out.
fn latin_words(text: &str) -> Vec<String> {
    let mut text = text.to_string();
    for term in TERMS_KEPT_IN_LATIN {
        text = text.replace(term, " ");
    }
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .map(|w| w.trim_matches('-'))
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .map(str::to_string)
        .collect()
}

#[test]
fn no_korean_text_keeps_an_english_word_outside_code_but_the_names_kept_in_english() {
    let mut found = Vec::new();
    for (place, text) in prose() {
        let words: Vec<String> = latin_words(&outside_code(&text)).into_iter().filter(|w| !kept_in_latin(w)).collect();
        if !words.is_empty() {
            found.push(format!("{place}: {words:?} in {text:?}"));
        }
    }
    assert!(
        found.is_empty(),
        "{} Korean texts with English words (say them in Korean, or mark code with backticks):\n{}",
        found.len(),
        found.join("\n")
    );
}

/// Particles whose form follows the last sound of the word before them.
const PARTICLES: [&str; 10] = ["을", "를", "은", "는", "이", "가", "과", "와", "으로", "로"];

#[test]
fn no_particle_follows_a_placeholder_it_does_not_fit_for_every_value() {
    let mut wrong = Vec::new();
    for word in informer_sim::i18n::korean_words() {
        for (at, _) in word.match_indices('}') {
            let rest = &word[at + 1..];
            let Some(particle) = PARTICLES.iter().find(|p| rest.starts_with(**p)) else { continue };
            // A particle is a word's end: `{n}개` or `{n}이상` is a word going on.
            let next = rest[particle.len()..].chars().next();
            if !next.is_some_and(is_hangul) {
                wrong.push(format!("{word:?}: {particle:?} after a placeholder"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_checks_find_what_they_look_for() {
    assert!(uses("relist를 합니다", "relist") && !uses("relisted", "relist"));
    assert!(!uses("`mod_revision`", "revision") && uses("revision이", "revision"));
    assert_eq!(outside_code("a `b c` d"), "a   d");
    assert_eq!(outside_code("{key} 사라짐"), "  사라짐");
    assert_eq!(sentences("v1.37에서 다릅니다. 왜일까요? 끝"), ["v1.37에서 다릅니다.", "왜일까요?", "끝"]);
    assert!(ends_politely("다시 LIST합니다.") && ends_politely("무엇을 할까요?") && ends_politely("보세요."));
    assert!(ends_politely("사라집니다(가정 상황).") && !ends_politely("사라짐(가정 상황)."));
    assert!(!ends_politely("다시 LIST함.") && !ends_politely("다시 LIST해요.") && !ends_politely("끝"));
    assert_eq!(latin_words("stale read로 default/a의 watch-list를 read합니다"), ["default", "a", "watch-list", "read"]);
    assert!(kept_in_latin("resourceVersion") && kept_in_latin("LIST") && kept_in_latin("web-1") && kept_in_latin("a"));
    assert!(kept_in_latin("watch") && !kept_in_latin("cache") && !kept_in_latin("watcher") && !kept_in_latin("update"));
}
