//! What leaves the page for slides, docs and the room: the run so far as JSON lines (the
//! command line's `run --json` format) and as a Mermaid sequence diagram, the diagram at a
//! step as SVG ([`crate::views::diagram::standalone_svg`]; an embed's poster is one), and a share
//! of the current state (its link and an iframe snippet, or a file when the link is too long
//! for an address).

use crate::i18n::{self, Lang};
use crate::session::link::{Link, MAX_URL};
use crate::world::TraceEvent;

/// The most steps a Mermaid diagram draws: the latest ones (a longer diagram is unreadable).
pub const MERMAID_STEPS: usize = 200;

/// One JSON object per step: where it went, what it carried and its summary in `lang` (the
/// command line's `run --json` adds the typed outcome; the page leaves that out, as its
/// serializer would weigh more than the rest of this module).
pub fn jsonl(trace: &[TraceEvent], lang: Lang) -> String {
    let line = |e: &TraceEvent| {
        serde_json::json!({
            "step": e.step, "time_ms": e.time_ms, "from": e.from.name(), "to": e.to.name(),
            "kind": e.kind.name(), "key": e.key, "rv": e.rv, "summary": i18n::summary(e, lang),
        })
        .to_string()
            + "\n"
    };
    trace.iter().map(line).collect()
}

/// The steps as a Mermaid `sequenceDiagram`, one participant per stage in the order they
/// first appear; only the last [`MERMAID_STEPS`] steps, with a note saying how many came before.
pub fn mermaid(trace: &[TraceEvent], lang: Lang) -> String {
    let shown = &trace[trace.len().saturating_sub(MERMAID_STEPS)..];
    let mut participants = Vec::new();
    for e in shown {
        for stage in [e.from, e.to] {
            if !participants.contains(&stage) {
                participants.push(stage);
            }
        }
    }
    let id = |stage: crate::kernel::Stage| stage.to_string().replace(|c: char| !c.is_ascii_alphanumeric(), "_");
    let mut out = String::from("sequenceDiagram\n");
    for stage in &participants {
        out += &format!("    participant {} as {}\n", id(*stage), mermaid_text(&stage.to_string()));
    }
    let skipped = trace.len() - shown.len();
    if let (true, Some(first)) = (skipped > 0, participants.first()) {
        let said = crate::trf!(lang, "{n} earlier steps are not drawn", &[("n", &skipped)]);
        out += &format!("    Note over {}: {}\n", id(*first), mermaid_text(&said));
    }
    for e in shown {
        let text = format!("#{} {} {}", e.step, e.kind.name(), i18n::summary(e, lang));
        out += &format!("    {}->>{}: {}\n", id(e.from), id(e.to), mermaid_text(&text));
    }
    out
}

/// Text safe on one Mermaid line: its entity codes for the characters that end or start
/// something there (`;`, `#`, `:`), and no line breaks.
fn mermaid_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '#' => "#35;".into(),
            ';' => "#59;".into(),
            ':' => "#58;".into(),
            '\n' | '\r' => " ".into(),
            c => c.to_string(),
        })
        .collect()
}

/// The current state to pass on: its address, and an iframe snippet that embeds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Share {
    pub link: String,
    pub snippet: String,
    /// The link is longer than an address may safely be ([`MAX_URL`]): offer [`Share::link`]
    /// as a file instead (its query opens the same state when loaded back).
    pub too_long: bool,
}

/// The share of `link` for a playground served at `page` (origin and path, no query).
/// The diagram at the session's step as a standalone SVG, in its release and language: the
/// SVG download, and the poster an embed shows until the reader starts it.
pub fn diagram_svg(session: &crate::session::Session, palette: &crate::views::diagram::Palette) -> String {
    let glance = crate::views::glance::glance(session.world());
    crate::views::diagram::standalone_svg(session.current(), &glance, session.era(), session.lang(), palette)
}

pub fn share(page: &str, link: &Link) -> Share {
    let mut full = link.clone();
    (full.embed, full.from, full.to) = (false, None, None);
    full.hosts.clear();
    let address = format!("{page}{}", full.to_query());
    let mut embedded = link.clone();
    embedded.embed = true;
    let title = format!("informer-playground: {}", link.scenario.as_deref().unwrap_or("sandbox"));
    let snippet = format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"560\" style=\"border: 0\" loading=\"lazy\"></iframe>",
        attribute(&format!("{page}{}", embedded.to_query())),
        attribute(&title)
    );
    Share { too_long: address.len() > MAX_URL, link: address, snippet }
}

/// Text safe inside a double-quoted HTML attribute.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Action, Session};

    fn session_at(step: u64) -> Session {
        let mut session = Session::from_query("?scenario=list-then-watch");
        session.apply(Action::JumpTo(step));
        session
    }

    #[test]
    fn json_lines_are_one_parsable_object_per_step() {
        let session = session_at(12);
        let text = jsonl(session.visible_trace(), Lang::En);
        assert_eq!(text.lines().count(), 12);
        for (i, line) in text.lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["step"], i as u64 + 1);
            assert!(v["summary"].is_string());
        }
    }

    #[test]
    fn the_mermaid_diagram_has_a_message_per_step_between_declared_participants() {
        let session = session_at(12);
        let text = mermaid(session.visible_trace(), Lang::En);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "sequenceDiagram");
        let messages: Vec<&&str> = lines.iter().filter(|l| l.contains("->>")).collect();
        assert_eq!(messages.len(), 12);
        for m in messages {
            let (route, said) = m.trim().split_once(": ").unwrap();
            let (from, to) = route.split_once("->>").unwrap();
            for p in [from, to] {
                assert!(text.contains(&format!("participant {p} as ")), "{p} is declared");
            }
            let plain = ["#35;", "#58;", "#59;"].iter().fold(said.to_string(), |t, code| t.replace(code, ""));
            assert!(!plain.contains([';', ':', '#']), "{said}");
        }
        assert!(!text.contains("earlier steps"));
    }

    #[test]
    fn a_long_run_draws_its_last_steps_and_says_how_many_came_before() {
        let session = session_at(260);
        let text = mermaid(session.visible_trace(), Lang::En);
        assert_eq!(text.lines().filter(|l| l.contains("->>")).count(), MERMAID_STEPS);
        assert!(text.contains("60 earlier steps are not drawn"), "{}", &text[..400]);
        assert!(text.contains("#35;260 "), "the last step is drawn");
    }

    #[test]
    fn a_share_is_the_full_link_and_an_escaped_iframe_of_the_embed() {
        let (mut link, _) = Link::parse("?scenario=stale-read&step=12&lang=ko&embed=1&from=3&to=20");
        let shared = share("https://play.example.com/", &link);
        assert_eq!(shared.link, "https://play.example.com/?scenario=stale-read&lang=ko&step=12");
        assert!(shared
            .snippet
            .starts_with("<iframe src=\"https://play.example.com/?scenario=stale-read&amp;lang=ko&amp;step=12"));
        assert!(shared.snippet.contains("embed=1") && shared.snippet.contains("from=3"));
        assert!(!shared.too_long);
        link.scenario = Some("x\"><script>".into());
        assert!(!share("https://p/", &link).snippet.contains("\"><script>"), "never markup");
    }

    #[test]
    fn a_link_longer_than_an_address_is_offered_as_a_file() {
        let mut session = Session::from_query("?scenario=sandbox");
        for i in 0..200 {
            session.apply(Action::Kubectl(format!("kubectl create configmap a-rather-long-name-{i:04}")));
        }
        let shared = share("https://play.example.com/", &session.link());
        assert!(shared.link.len() > MAX_URL);
        assert!(shared.too_long);
    }
}
