//! Words for people, in Korean and English. English is the key, checked by the compiler: a
//! [`Phrase`] is made only by `phrase!("Step forward")`, which does not compile when the
//! phrasebook (`ko.rs`) lacks that English; `tr!(lang, "Step forward")` is a word,
//! `trf!(lang, "{n} waiting", &[("n", …)])` a sentence with values. A step's summary is
//! rendered from its typed outcome (`summary.rs`) the same way. Upstream texts — log lines, API
//! errors, kubectl output, YAML — stay as Kubernetes prints them in every language; nothing in
//! the program decides by reading these words.

/// The phrasebook's two halves from one list of (English, Korean): the English, the key, which
/// `phrase!` reads while compiling (each phrase then carries its own); the Korean, which only a
/// Korean page reads, in a module of its own in the page ([`korean`]).
macro_rules! phrasebook {
    ($(($en:expr, $ko:expr $(,)?)),* $(,)?) => {
        /// Every English word and sentence of the page, by its phrase's place.
        pub const ENGLISH: &[&str] = &[$($en),*];
        /// The Korean of each, in the same places.
        pub const KOREAN: &[&str] = &[$($ko),*];
    };
}
use phrasebook;

mod ko;
mod summary;

pub use ko::KOREAN;

crate::kernel::later::later!(
    /// The Korean phrasebook: always natively; in the page, once its module has arrived (a page
    /// shown in Korean asks for it before it draws).
    korean, install_korean: &'static [&'static str] = ko::KOREAN
);

use crate::world::outcome::ListParams;
use crate::world::TraceEvent;
use serde::Serialize;

/// A word or sentence template of the page: its place in the phrasebook (where its Korean is)
/// and its English, the literal it was made from. The English travels with the code that says
/// it, so the phrasebook's English half is read only while compiling: a later module's words are
/// not in the first one's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Phrase {
    at: u16,
    en: &'static str,
}

impl Phrase {
    /// The phrase whose English is `en`, if the phrasebook has it.
    pub const fn find(en: &'static str) -> Option<Phrase> {
        let mut i = 0;
        while i < ko::ENGLISH.len() {
            if same(ko::ENGLISH[i], en) {
                return Some(Phrase { at: i as u16, en });
            }
            i += 1;
        }
        None
    }

    /// The phrase whose English is `en`; evaluated as a constant (`phrase!`), English the
    /// phrasebook lacks is a compile error.
    pub const fn of(en: &'static str) -> Phrase {
        match Phrase::find(en) {
            Some(phrase) => phrase,
            None => panic!("the Korean phrasebook (i18n/ko.rs) has no entry for this English"),
        }
    }

    /// The English (the key).
    pub fn en(self) -> &'static str {
        self.en
    }
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The languages of the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Ko,
    #[default]
    En,
}

impl Lang {
    /// Every language, in the order the page offers them.
    pub const ALL: [Lang; 2] = [Lang::Ko, Lang::En];

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

/// The page's word in `lang` (in English until the Korean phrasebook has arrived).
pub fn tr(lang: Lang, phrase: Phrase) -> &'static str {
    match (lang, korean()) {
        (Lang::Ko, Some(korean)) => korean[phrase.at as usize],
        _ => phrase.en,
    }
}

/// A sentence with values: the template for `lang`, its `{name}`s filled in.
pub fn trf(lang: Lang, template: Phrase, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut text = tr(lang, template).to_string();
    for (name, value) in args {
        text = text.replace(&format!("{{{name}}}"), &value.to_string());
    }
    text
}

/// What went beyond the playground's own limits, in `lang`.
pub fn exceeded(exceeded: &crate::limits::Exceeded, lang: Lang) -> String {
    use crate::limits::{self, Exceeded};
    match exceeded {
        Exceeded::Replicas { field, asked } => trf!(
            lang,
            "{what} {value} is more than the playground runs (at most {max}; kube-apiserver itself allows more)",
            &[("what", field), ("value", asked), ("max", &limits::MAX_REPLICAS)],
        ),
        Exceeded::Latency { ms } => trf!(
            lang,
            "{what} {value} is more than the playground runs (at most {max}; kube-apiserver itself allows more)",
            &[("what", &tr(lang, phrase!("network latency (ms)"))), ("value", ms), ("max", &limits::MAX_LATENCY_MS)],
        ),
        Exceeded::ManifestBytes { bytes } => trf!(
            lang,
            "the manifest is {bytes} bytes; the playground takes at most {max}",
            &[("bytes", bytes), ("max", &limits::MAX_MANIFEST_BYTES)],
        ),
        Exceeded::ManifestDepth => {
            trf!(lang, "the manifest nests deeper than {max} levels", &[("max", &limits::MAX_DEPTH)])
        }
        Exceeded::ConsoleBytes { bytes } => trf!(
            lang,
            "the entry is {bytes} bytes; the console takes at most {max}",
            &[("bytes", bytes), ("max", &limits::MAX_CONSOLE_BYTES)],
        ),
    }
}

/// Every Korean word and sentence of the page's phrasebook (for the glossary's test).
pub fn korean_words() -> Vec<&'static str> {
    ko::KOREAN.to_vec()
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
    trf!(
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

/// A number as the page writes one, to a thousandth without trailing zeros: `12`, `12.5`,
/// `2.907`, `-0.25`. Worked in whole thousandths, so the page carries no float formatter.
pub fn decimal(x: f64) -> String {
    debug_assert!(x.is_finite(), "the page writes finite numbers, not {x}");
    thousandths((x * 1000.0).round() as i64)
}

/// Whole thousandths as a decimal without trailing zeros: 1500 → `1.5`, -250 → `-0.25`.
pub fn thousandths(n: i64) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let (whole, part) = (n.unsigned_abs() / 1000, n.unsigned_abs() % 1000);
    if part == 0 {
        return format!("{sign}{whole}");
    }
    let digits = format!("{part:03}");
    format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
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
    if !p.field_selector.is_empty() {
        parts.push(format!("fieldSelector={}", p.field_selector));
    }
    parts.join("&") + &metadata_accept(p.metadata_only, "PartialObjectMetadataList")
}

/// A metadata-only request's `Accept` header, as the step shows it: ` (as=PartialObjectMetadataList)`.
pub fn metadata_accept(metadata_only: bool, kind: &str) -> String {
    if metadata_only {
        format!(" (Accept: as={kind})")
    } else {
        String::new()
    }
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

    #[test]
    fn every_word_has_one_korean_translation() {
        assert_eq!(ko::ENGLISH.len(), ko::KOREAN.len());
        let words: Vec<(&str, &str)> = ko::ENGLISH.iter().copied().zip(ko::KOREAN.iter().copied()).collect();
        let mut keys: Vec<&str> = ko::ENGLISH.to_vec();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "a key appears twice");
        assert!(words.iter().all(|(_, ko)| !ko.trim().is_empty()));
        for (en, ko) in words {
            for placeholder in en.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(name, _)| name) {
                assert!(ko.contains(&format!("{{{placeholder}}}")), "{en:?}: the Korean lacks {{{placeholder}}}");
            }
        }
    }

    #[test]
    fn a_phrase_is_found_by_its_english_and_shown_in_either_language() {
        let share = Phrase::find("Share").unwrap();
        assert_eq!((tr(Lang::En, share), tr(Lang::Ko, share)), ("Share", "공유"));
        assert_eq!(share, crate::phrase!("Share"));
        assert_eq!(share.en(), "Share");
        assert_eq!(Phrase::find("Shar"), None, "English the phrasebook lacks is no phrase");
        assert_eq!(trf(Lang::Ko, crate::phrase!("{n} queued"), &[("n", &3)]), "큐 3");
    }

    #[test]
    fn a_decimal_reads_as_f64_display_would_to_a_thousandth() {
        for x in [0.0, 12.0, 12.5, -0.25, 1000.0 / 344.0, 41.0 + 2.0 / 3.0, -176.0, 0.0004, 99.9996] {
            let shown = decimal(x);
            assert_eq!(shown.parse::<f64>().unwrap(), (x * 1000.0).round() / 1000.0, "{x} shown as {shown}");
            assert!(!shown.contains('.') || !shown.ends_with('0'), "{shown}: a trailing zero");
        }
        assert_eq!(
            [decimal(12.0), decimal(1.5), decimal(-0.25), decimal(1000.0 / 344.0)],
            ["12", "1.5", "-0.25", "2.907"]
        );
    }
}
