//! Words for people, in Korean and English. English is the key: `tr(lang, "Step forward")` for
//! a word, `trf(lang, "{n} waiting", &[("n", …)])` for a sentence with values; the Korean is
//! in one place, the phrasebook (`ko.rs`). A step's summary is rendered from its typed outcome
//! (`summary.rs`) the same way. Upstream texts — log lines, API errors, kubectl output,
//! YAML — stay as Kubernetes prints them in every language; nothing in the program decides by
//! reading these words.

mod ko;
mod summary;

use crate::world::outcome::ListParams;
use crate::world::TraceEvent;
use serde::Serialize;

/// The languages of the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Ko,
    #[default]
    En,
}

impl Lang {
    /// The BCP 47 code: `ko`, `en`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ko => "ko",
            Lang::En => "en",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

/// The page's word for `en` in `lang`.
pub fn tr(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Ko => ko::WORDS.iter().find(|(e, _)| *e == en).map_or(en, |(_, ko)| ko),
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

/// Every Korean word and sentence of the page's phrasebook (for the glossary's test).
pub fn korean_words() -> Vec<&'static str> {
    ko::WORDS.iter().map(|(_, ko)| *ko).collect()
}

/// A step's one-line summary.
pub fn summary(event: &TraceEvent, lang: Lang) -> String {
    summary::summary(event, lang)
}

/// A step as the page announces it: `#12 reflector → fifo: delta queued Added default/a`.
pub fn headline(event: &TraceEvent, lang: Lang) -> String {
    format!("#{} {} → {}: {} {}", event.step, event.from, event.to, event.kind.name(), summary(event, lang))
}

/// What a fast-forward passed over: `» passed over 19,980 steps (#5–#19,986): ADDED
/// api-server → reflector ×19,980`.
pub fn jump(jump: &crate::world::fast_forward::Jump, lang: Lang) -> String {
    let routes: Vec<String> =
        jump.counts.iter().map(|(r, n)| format!("{} {} → {} ×{}", r.kind.name(), r.from, r.to, grouped(*n))).collect();
    let span = format!("#{}–#{}", grouped(jump.from + 1), grouped(jump.to.saturating_sub(1)));
    trf(
        lang,
        "» passed over {n} steps ({span}): {routes}",
        &[("n", &grouped(jump.skipped())), ("span", &span), ("routes", &routes.join(", "))],
    )
}

/// A count with thousands separated: `19,980`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The command line's line for a step:
/// `#12   1.205s reflector → fifo  delta queued  default/a rv=7  Added default/a`.
pub fn line(event: &TraceEvent) -> String {
    let secs = seconds(event.time_ms);
    let route = format!("{} → {}", event.from, event.to);
    let mut out = format!("#{:<5} {:>10} {:<26} {:<16}", event.step, secs, route, event.kind.name());
    if !event.key.is_empty() {
        out.push(' ');
        out.push_str(&event.key);
    }
    if event.rv > 0 {
        out.push_str(&format!(" rv={}", event.rv));
    }
    out.push_str("  ");
    out.push_str(&summary(event, Lang::En));
    out
}

/// Virtual milliseconds as seconds: `1.205s`.
pub fn seconds(ms: u64) -> String {
    format!("{}.{:03}s", ms / 1000, ms % 1000)
}

/// A LIST's query as client-go sends it: `resourceVersion="0"&limit=500`.
pub fn list_query(p: &ListParams) -> String {
    let mut parts = vec![format!("resourceVersion={:?}", p.resource_version)];
    if p.limit > 0 {
        parts.push(format!("limit={}", p.limit));
    }
    if p.continued {
        parts.push("continue=…".into());
    }
    if !p.label_selector.is_empty() {
        parts.push(format!("labelSelector={}", p.label_selector));
    }
    parts.join("&")
}

/// `head; next1; next2`.
fn join(head: String, tail: Vec<String>) -> String {
    std::iter::once(head).chain(tail).filter(|s| !s.is_empty()).collect::<Vec<_>>().join("; ")
}

/// A step as one JSON object: its typed fields and the English summary.
pub fn json_line(event: &crate::world::TraceEvent) -> String {
    let mut value = serde_json::to_value(event).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert("summary".into(), summary(event, Lang::En).into());
    }
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ko::WORDS;

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
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let call = regex_lite_calls();
        let ui = ["crates/web/src/ui", "crates/web/src/ui/hooks"]
            .iter()
            .flat_map(|dir| std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()))
            .filter(|p| p.is_file());
        let sim = ["crates/sim/src/i18n/summary.rs", "crates/sim/src/session/link.rs"].map(|p| root.join(p));
        for path in ui.chain(sim) {
            let text = std::fs::read_to_string(&path).unwrap();
            for key in call(&text) {
                assert!(WORDS.iter().any(|(en, _)| *en == key), "{}: {key:?} has no Korean", path.display());
            }
        }
    }

    /// The string literals passed as the key of `tr(…)`, `trf(…)` and `f(…)` calls.
    fn regex_lite_calls() -> impl Fn(&str) -> Vec<String> {
        |text: &str| {
            let mut keys = Vec::new();
            for marker in ["tr(lang, \"", "trf(lang, \"", " f(\"", "(f(\""] {
                let mut rest = text;
                while let Some(at) = rest.find(marker) {
                    let after = &rest[at + marker.len()..];
                    // The literal runs to the first quote not escaped by a backslash.
                    let mut key = String::new();
                    let mut chars = after.chars();
                    while let Some(c) = chars.next() {
                        match c {
                            '\\' => key.extend(chars.next()),
                            '"' => break,
                            c => key.push(c),
                        }
                    }
                    keys.push(key);
                    rest = after;
                }
            }
            keys
        }
    }

    #[test]
    fn words_chosen_by_value_are_translated_too() {
        use crate::client::workqueue::AddOutcome;
        let chosen = [
            "add",
            "update",
            "delete",
            "replace",
            "none",
            "no handler",
            "object",
            "idle",
            "create",
            "update status",
            "scale",
            "patch",
        ];
        let adds = [
            AddOutcome::Queued,
            AddOutcome::AlreadyQueued,
            AddOutcome::WhileProcessing,
            AddOutcome::AlreadyDirty,
            AddOutcome::ShuttingDown,
        ];
        for key in chosen.into_iter().chain(adds.map(summary::added)) {
            assert!(WORDS.iter().any(|(en, _)| *en == key), "{key:?} has no Korean");
        }
    }
}
