//! The host-page API of an embed: what a documentation page may tell the playground inside
//! its frame over `postMessage`, and what the playground tells it back.
//!
//! Messages are JSON objects (sent as objects or as JSON text) whose `type` starts with
//! `informer-playground:`. Commands: `load` (`scenario`, optional `step`), `goto` (`step`),
//! `play`, `pause`, `lang` (`lang`: `ko` or `en`), `theme` (`theme`: `light` or `dark`: a
//! documentation page's own, followed as it changes). Events: `ready`, `step` (the step number and
//! its trace line, after every change of step), `answered` (a question, the choice, whether it
//! was right) and `refused` (a command that could not be obeyed, and why). The frame's own
//! height is reported separately ([`HEIGHT`]).
//!
//! A command is obeyed only from the frame's own origin or an origin its link lists in
//! `host=`; every field is checked, and a refusal names what was wrong. Nothing here touches
//! the page: the view turns a [`Command`] into actions.

use crate::i18n::Lang;
use crate::limits;
use serde_json::{json, Value};

/// The prefix of every message type.
pub const PREFIX: &str = "informer-playground:";
/// The type of the frame's height report.
pub const HEIGHT: &str = "informer-playground:height";

/// What a host page asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Open a bundled lesson, at its first step or the one given.
    Load {
        scenario: String,
        step: Option<u64>,
    },
    /// Go to a step of the current run.
    GoTo(u64),
    Play,
    Pause,
    Lang(Lang),
    Theme(crate::session::link::Theme),
}

/// Why a message was not obeyed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not a JSON object.
    NotJson,
    /// Not meant for the playground (another library's message): ignored without an answer.
    NotOurs,
    UnknownType(String),
    MissingField(&'static str),
    BadField {
        field: &'static str,
        value: String,
    },
    UnknownScenario(String),
}

impl Refusal {
    /// Whether the sender should be told (only messages that were meant for the playground).
    pub fn answered(&self) -> bool {
        !matches!(self, Refusal::NotJson | Refusal::NotOurs)
    }

    /// The refusal in words, for the `refused` event (English: host pages are code).
    pub fn describe(&self) -> String {
        match self {
            Refusal::NotJson => "not a JSON object".into(),
            Refusal::NotOurs => "not an informer-playground message".into(),
            Refusal::UnknownType(t) => format!("unknown message type {t:?}"),
            Refusal::MissingField(f) => format!("the field {f:?} is missing"),
            Refusal::BadField { field, value } => format!("the field {field:?} cannot be {value}"),
            Refusal::UnknownScenario(id) => format!("there is no lesson {id:?}"),
        }
    }
}

/// Reads a message a host page posted.
pub fn parse(text: &str) -> Result<Command, Refusal> {
    let Ok(Value::Object(message)) = serde_json::from_str::<Value>(text) else { return Err(Refusal::NotJson) };
    let Some(kind) = message.get("type").and_then(Value::as_str).and_then(|t| t.strip_prefix(PREFIX)) else {
        return Err(Refusal::NotOurs);
    };
    let step = |required: bool| -> Result<Option<u64>, Refusal> {
        match message.get("step") {
            None | Some(Value::Null) if !required => Ok(None),
            None | Some(Value::Null) => Err(Refusal::MissingField("step")),
            Some(v) => match v.as_u64().filter(|n| *n <= limits::MAX_STEPS) {
                Some(n) => Ok(Some(n)),
                None => Err(Refusal::BadField { field: "step", value: v.to_string() }),
            },
        }
    };
    match kind {
        "load" => {
            let scenario = match message.get("scenario") {
                None => return Err(Refusal::MissingField("scenario")),
                Some(Value::String(id)) => id.clone(),
                Some(other) => return Err(Refusal::BadField { field: "scenario", value: other.to_string() }),
            };
            if crate::scenario::library::file_of(&scenario).is_none() {
                return Err(Refusal::UnknownScenario(scenario));
            }
            Ok(Command::Load { scenario, step: step(false)? })
        }
        "goto" => Ok(Command::GoTo(step(true)?.unwrap_or_default())),
        "play" => Ok(Command::Play),
        "pause" => Ok(Command::Pause),
        "lang" => match message.get("lang") {
            None => Err(Refusal::MissingField("lang")),
            Some(v) => v
                .as_str()
                .and_then(Lang::from_code)
                .map(Command::Lang)
                .ok_or_else(|| Refusal::BadField { field: "lang", value: v.to_string() }),
        },
        "theme" => match message.get("theme") {
            None => Err(Refusal::MissingField("theme")),
            Some(v) => v
                .as_str()
                .and_then(crate::session::link::Theme::named)
                .map(Command::Theme)
                .ok_or_else(|| Refusal::BadField { field: "theme", value: v.to_string() }),
        },
        other => Err(Refusal::UnknownType(format!("{PREFIX}{other}"))),
    }
}

/// Whether a message from `origin` may drive a frame served from `own` whose link lists
/// `hosts`. Origins compare exactly (scheme, host and port), as the browser reports them.
pub fn allowed(origin: &str, own: &str, hosts: &[String]) -> bool {
    origin == own || hosts.iter().any(|h| h.trim_end_matches('/') == origin)
}

/// What the playground tells its host page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The frame is listening; the step it shows.
    Ready {
        scenario: String,
        step: u64,
    },
    /// The step changed; its trace line (empty before the first step).
    Step {
        step: u64,
        line: String,
    },
    Answered {
        question: usize,
        choice: usize,
        correct: bool,
    },
    Refused {
        why: String,
    },
}

impl Event {
    /// The event as the JSON text posted to the host.
    pub fn to_json(&self) -> String {
        let kind = |k: &str| format!("{PREFIX}{k}");
        match self {
            Event::Ready { scenario, step } => json!({"type": kind("ready"), "scenario": scenario, "step": step}),
            Event::Step { step, line } => json!({"type": kind("step"), "step": step, "line": line}),
            Event::Answered { question, choice, correct } => {
                json!({"type": kind("answered"), "question": question, "choice": choice, "correct": correct})
            }
            Event::Refused { why } => json!({"type": kind("refused"), "why": why}),
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_with_their_fields() {
        assert_eq!(
            parse(r#"{"type":"informer-playground:load","scenario":"stale-read","step":12}"#),
            Ok(Command::Load { scenario: "stale-read".into(), step: Some(12) })
        );
        assert_eq!(
            parse(r#"{"type":"informer-playground:load","scenario":"stale-read"}"#),
            Ok(Command::Load { scenario: "stale-read".into(), step: None })
        );
        assert_eq!(parse(r#"{"type":"informer-playground:goto","step":7}"#), Ok(Command::GoTo(7)));
        assert_eq!(parse(r#"{"type":"informer-playground:play"}"#), Ok(Command::Play));
        assert_eq!(parse(r#"{"type":"informer-playground:pause"}"#), Ok(Command::Pause));
        assert_eq!(parse(r#"{"type":"informer-playground:lang","lang":"ko"}"#), Ok(Command::Lang(Lang::Ko)));
        assert_eq!(
            parse(r#"{"type":"informer-playground:theme","theme":"dark"}"#),
            Ok(Command::Theme(crate::session::link::Theme::Dark))
        );
        assert_eq!(
            parse(r#"{"type":"informer-playground:theme","theme":"slate"}"#),
            Err(Refusal::BadField { field: "theme", value: "\"slate\"".into() })
        );
        assert_eq!(parse(r#"{"type":"informer-playground:theme"}"#), Err(Refusal::MissingField("theme")));
    }

    #[test]
    fn bad_messages_are_refused_naming_what_was_wrong() {
        assert_eq!(parse("<b>hi</b>"), Err(Refusal::NotJson));
        assert_eq!(parse("[1,2]"), Err(Refusal::NotJson));
        assert_eq!(parse(r#"{"type":"webpackOk"}"#), Err(Refusal::NotOurs));
        assert!(!Refusal::NotOurs.answered());
        assert_eq!(
            parse(r#"{"type":"informer-playground:rm-rf"}"#),
            Err(Refusal::UnknownType("informer-playground:rm-rf".into()))
        );
        assert_eq!(parse(r#"{"type":"informer-playground:goto"}"#), Err(Refusal::MissingField("step")));
        assert_eq!(
            parse(r#"{"type":"informer-playground:goto","step":-1}"#),
            Err(Refusal::BadField { field: "step", value: "-1".into() })
        );
        assert_eq!(
            parse(r#"{"type":"informer-playground:goto","step":99999999999}"#),
            Err(Refusal::BadField { field: "step", value: "99999999999".into() })
        );
        assert_eq!(
            parse(r#"{"type":"informer-playground:load","scenario":"nope"}"#),
            Err(Refusal::UnknownScenario("nope".into()))
        );
        assert_eq!(
            parse(r#"{"type":"informer-playground:lang","lang":"fr"}"#),
            Err(Refusal::BadField { field: "lang", value: "\"fr\"".into() })
        );
        let refused = parse(r#"{"type":"informer-playground:load","scenario":7}"#).unwrap_err();
        assert!(refused.answered());
        assert_eq!(refused.describe(), "the field \"scenario\" cannot be 7");
    }

    #[test]
    fn only_the_own_origin_and_listed_hosts_may_drive_the_frame() {
        let hosts = vec!["https://docs.example.com/".to_string()];
        assert!(allowed("https://play.example.com", "https://play.example.com", &hosts));
        assert!(allowed("https://docs.example.com", "https://play.example.com", &hosts));
        assert!(!allowed("https://evil.example.com", "https://play.example.com", &hosts));
        assert!(!allowed("https://docs.example.com:8443", "https://play.example.com", &hosts));
        assert!(!allowed("null", "https://play.example.com", &[]));
    }

    #[test]
    fn events_are_json_with_the_prefixed_type() {
        let event: Value = serde_json::from_str(&Event::Step { step: 3, line: "a → b".into() }.to_json()).unwrap();
        assert_eq!(event["type"], "informer-playground:step");
        assert_eq!(event["step"], 3);
        assert_eq!(event["line"], "a → b");
        let answered: Value =
            serde_json::from_str(&Event::Answered { question: 0, choice: 2, correct: true }.to_json()).unwrap();
        assert_eq!(answered["correct"], true);
    }
}
