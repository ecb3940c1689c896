//! The link is the state: everything a page's URL can carry, parsed into typed values and
//! written back. Opening a link restores the same world at the same step (the lesson, era,
//! seed, load and the person's own actions replayed), the same inspector and language, and
//! the page's settings (speed, presenter mode, theme, an embed's frame and step range, the
//! origins a host page may drive it from).
//!
//! Bad parameters never break the page: each is reported as a [`Notice`] naming it, and the
//! rest still applies. Percent-escapes are decoded; a parameter given twice is a notice, not a
//! silent override.

use crate::base64;
use crate::era::Era;
use crate::i18n::Lang;
use crate::kernel::Stage;
use crate::limits;
use crate::percent::{percent_decode, percent_encode};
use crate::scenario::library::Source;
use crate::session::page_contract;
use crate::session::{Action, Session};
use serde::{Deserialize, Serialize};

/// Fastest play speed, in steps per second.
pub const MAX_SPEED: u32 = 50;
/// A link longer than this is offered as a file instead.
pub const MAX_URL: usize = 8_000;
/// Actions a link may replay.
pub const MAX_ACTIONS: usize = 1_000;

/// Light or dark page (by default the system's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 2] = [Theme::Light, Theme::Dark];

    /// Its name in links, host-page messages, poster files and the page's `data-theme`.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn named(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Everything a link can say. `None` and empty values mean the default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Link {
    pub scenario: Option<String>,
    /// Where a lesson that is not bundled comes from (the page opens it before the link).
    pub lesson: Option<Source>,
    pub era: Option<Era>,
    /// A second release shown beside the first, advancing with it.
    pub compare: Option<Era>,
    pub step: Option<u64>,
    pub lang: Option<Lang>,
    pub seed: Option<u64>,
    pub objects: Option<usize>,
    pub speed: Option<u32>,
    pub inspect: Option<Stage>,
    pub present: bool,
    pub embed: bool,
    pub theme: Option<Theme>,
    /// The step range an embed's timeline is limited to.
    pub from: Option<u64>,
    pub to: Option<u64>,
    /// Origins whose messages an embed obeys (besides its own).
    pub hosts: Vec<String>,
    /// The person's actions, each with the step it was taken at.
    pub actions: Vec<(u64, Action)>,
    /// The workshop room the page joins.
    pub room: Option<RoomLink>,
    /// Live mode: the page follows the world of the serve-api that serves it (`live=<token>`;
    /// the token is never written back into an address: the page keeps it for the tab, and
    /// `live=kept` says to use it).
    pub live: Option<LiveLink>,
}

/// A page in live mode: this start's token, when the address carried it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveLink {
    pub token: Option<String>,
}

/// A page in a room: the room's code, and either the facilitator's key (never written back
/// into an address: the page keeps it for the tab) or the projector's view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoomLink {
    pub code: String,
    pub key: Option<String>,
    pub projector: bool,
}

/// What was wrong with a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    Unknown,
    Repeated,
    NotANumber {
        value: String,
    },
    OutOfRange {
        value: String,
        min: u64,
        max: u64,
    },
    NotOneOf {
        value: String,
        allowed: Vec<String>,
    },
    UnknownScenario {
        id: String,
    },
    BadActions(BadActions),
    /// Given, but a lesson sets this itself.
    IgnoredWithScenario,
    /// `from` after `to`.
    EmptyRange,
    /// Neither a lesson file's address nor a lesson carried in the link.
    BadLesson,
    /// The lesson the link names could not be opened: every reason (`session::verify`'s, or
    /// why it could not be fetched).
    LessonRefused {
        reasons: Vec<String>,
    },
    /// Not a room's code or key (letters and digits), or given without a room.
    BadRoom {
        value: String,
    },
    /// Not a live page's token (32 hexadecimal digits) or `kept`.
    BadLive {
        value: String,
    },
    /// The lesson could not be built (a bundled lesson never fails: its tests build it).
    LessonBroken(LessonBroken),
    /// The lesson is not told in this era: it opens in its own.
    NotInEra {
        id: String,
        era: String,
        eras: Vec<String>,
    },
}

/// A parameter the page could not use, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub param: String,
    pub problem: Problem,
}

impl Notice {
    /// The reasons listed under the notice, when it has them.
    pub fn reasons(&self) -> &[String] {
        match &self.problem {
            Problem::LessonRefused { reasons } => reasons,
            _ => &[],
        }
    }

    /// The notice in words, in the page's language (values shown as typed, never as markup).
    pub fn describe(&self, lang: Lang) -> String {
        let p: &dyn std::fmt::Display = &self.param;
        match &self.problem {
            Problem::Unknown => trf!(lang, "unknown parameter {param} (ignored)", &[("param", p)]),
            Problem::Repeated => trf!(lang, "{param} is given more than once: the first one counts", &[("param", p)]),
            Problem::NotANumber { value } => {
                trf!(lang, "{param}={value} is not a whole number", &[("param", p), ("value", &format!("{value:?}"))])
            }
            Problem::OutOfRange { value, min, max } => trf!(
                lang,
                "{param}={value} must be from {min} to {max}",
                &[("param", p), ("value", value), ("min", min), ("max", max)],
            ),
            Problem::NotOneOf { value, allowed } => trf!(
                lang,
                "{param}={value} must be one of {allowed}",
                &[("param", p), ("value", &format!("{value:?}")), ("allowed", &allowed.join(", "))],
            ),
            Problem::UnknownScenario { id } => trf!(lang, "there is no lesson {id}", &[("id", &format!("{id:?}"))]),
            Problem::BadActions(bad) => {
                let why = match bad {
                    BadActions::TooLong => tr!(lang, "too long").to_string(),
                    BadActions::NotBase64 => tr!(lang, "not base64url").to_string(),
                    BadActions::NotUtf8 => tr!(lang, "not UTF-8").to_string(),
                    BadActions::NotJson(detail) => {
                        trf!(lang, "not the actions' JSON ({detail})", &[("detail", detail)])
                    }
                    BadActions::TooMany => trf!(lang, "more than {n} actions", &[("n", &MAX_ACTIONS)]),
                    BadActions::OutOfOrder => tr!(lang, "actions out of step order").to_string(),
                    BadActions::NotLoaded => tr!(lang, "their reader did not arrive").to_string(),
                };
                trf!(lang, "the recorded actions cannot be replayed: {why}", &[("why", &why)])
            }
            Problem::IgnoredWithScenario => {
                trf!(lang, "{param} is ignored: the lesson sets its own cluster", &[("param", p)])
            }
            Problem::EmptyRange => trf!(lang, "{param}: from is after to (the range is ignored)", &[("param", p)]),
            Problem::BadRoom { value } => {
                trf!(
                    lang,
                    "{param}={value} is not a room's (letters and digits, with room=)",
                    &[("param", p), ("value", value)]
                )
            }
            Problem::BadLive { value } => trf!(
                lang,
                "{param}={value} is not serve-api's token (the link serve-api printed)",
                &[("param", p), ("value", value)]
            ),
            Problem::BadLesson => trf!(
                lang,
                "{param} is neither a lesson file's https address nor a lesson carried in the link",
                &[("param", p)]
            ),
            Problem::LessonRefused { .. } => tr!(lang, "the lesson could not be opened:").to_string(),
            Problem::LessonBroken(broken) => {
                let why = match broken {
                    LessonBroken::NotLoaded { file } => {
                        trf!(lang, "scenarios/{file} could not be loaded", &[("file", file)])
                    }
                    LessonBroken::Invalid(error) => error.clone(),
                };
                trf!(lang, "the lesson cannot start: {why}", &[("why", &why)])
            }
            Problem::NotInEra { id, era, eras } => trf!(
                lang,
                "the lesson {id} is told in {eras}, not in {era}: it opens in its own release",
                &[("id", &format!("{id:?}")), ("eras", &eras.join(", ")), ("era", era)],
            ),
        }
    }
}

const KNOWN: [&str; 22] = [
    "lesson", "scenario", "era", "compare", "step", "lang", "seed", "objects", "speed", "inspect", "present", "embed",
    "theme", "from", "to", "host", "actions", "v", "room", "key", "view", "live",
];

/// The longest lesson a link carries (base64url characters: about 48 KB compressed).
pub const MAX_CARRIED: usize = 64 * 1024;

/// A `lesson` parameter's source: an http(s) address, or a lesson carried in base64url.
fn lesson_source(value: &str) -> Option<Source> {
    let address = value.starts_with("https://") || value.starts_with("http://");
    match address {
        true => (value.len() <= 2048 && !value.chars().any(|c| c.is_whitespace() || c.is_control()))
            .then(|| Source::Address(value.into())),
        false => ((1..=MAX_CARRIED).contains(&value.len())
            && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        .then(|| Source::Carried(value.into())),
    }
}

fn number(param: &str, value: &str, max: u64, notices: &mut Vec<Notice>) -> Option<u64> {
    match value.parse::<u64>() {
        Ok(n) if n <= max => Some(n),
        Ok(_) => {
            notices.push(Notice {
                param: param.into(),
                problem: Problem::OutOfRange { value: value.into(), min: 0, max },
            });
            None
        }
        Err(_) => {
            notices.push(Notice { param: param.into(), problem: Problem::NotANumber { value: value.into() } });
            None
        }
    }
}

/// A flag's value that means yes, as the page's scripts read it too (the page's contract).
fn flag(value: &str) -> bool {
    page_contract::EMBED_YES.contains(&value)
}

fn one_of<T: Copy>(param: &str, value: &str, options: &[(&str, T)], notices: &mut Vec<Notice>) -> Option<T> {
    let found = options.iter().find(|(name, _)| *name == value).map(|(_, v)| *v);
    if found.is_none() {
        let allowed = options.iter().map(|(n, _)| n.to_string()).collect();
        notices.push(Notice { param: param.into(), problem: Problem::NotOneOf { value: value.into(), allowed } });
    }
    found
}

/// The recorded actions as one parameter: base64url of their JSON.
///
/// The actions' JSON code is large: kept out of [`Link::to_query`] and [`Link::parse`] (never
/// inlined), a browser compiles it only for a link that has actions.
#[inline(never)]
fn encode_actions(actions: &[(u64, Action)]) -> String {
    let json = serde_json::to_string(actions).unwrap_or_default();
    base64::encode_url(json.as_bytes())
}

/// Reads a link's recorded actions, each with its step.
pub type ActionsReader = fn(&str) -> Result<Vec<(u64, Action)>, BadActions>;

crate::kernel::later::later!(
    /// The reader of a link's recorded actions (JSON, which a link without actions never
    /// reads): always natively; in the page, once its module has arrived.
    actions_reader, install_actions_reader: ActionsReader = decode_actions
);

/// Reads a link's recorded actions.
pub fn decode_actions(text: &str) -> Result<Vec<(u64, Action)>, BadActions> {
    if text.len() > limits::MAX_CONSOLE_BYTES * 2 {
        return Err(BadActions::TooLong);
    }
    let bytes = base64::decode_url(text).ok_or(BadActions::NotBase64)?;
    // (From text, as every other reader of the page's: one copy of the JSON reader.)
    let json = String::from_utf8(bytes).map_err(|_| BadActions::NotUtf8)?;
    let actions: Vec<(u64, Action)> = serde_json::from_str(&json).map_err(|e| BadActions::NotJson(e.to_string()))?;
    if actions.len() > MAX_ACTIONS {
        return Err(BadActions::TooMany);
    }
    if actions.windows(2).any(|w| w[1].0 < w[0].0) {
        return Err(BadActions::OutOfOrder);
    }
    Ok(actions)
}

/// Why a link's recorded actions cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadActions {
    TooLong,
    NotBase64,
    NotUtf8,
    /// The JSON reader's own words.
    NotJson(String),
    TooMany,
    OutOfOrder,
    /// The reader has not arrived (the page asks for it before it reads such a link).
    NotLoaded,
}

/// Why a lesson could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonBroken {
    /// Its file could not be fetched or read (in the page).
    NotLoaded { file: String },
    /// The file's checks refused it (a `ScenarioError`, in the author's terms: a field path and
    /// what is wrong with it).
    Invalid(String),
}

impl Link {
    /// The language the page opens in: the link's, else the one another visit remembered
    /// (`remembered`, a code); an embed's language is the host page's choice, never another
    /// tab's. The first screen's script decides the same (the page's contract holds the cases).
    pub fn opening_lang(&self, remembered: Option<&str>) -> Lang {
        let remembered = Lang::ALL.into_iter().find(|lang| Some(lang.code()) == remembered);
        match (self.lang, remembered) {
            (Some(lang), _) => lang,
            (None, Some(lang)) if !self.embed => lang,
            _ => Lang::En,
        }
    }

    /// Reads a query string (`?a=b&c=d`, the `?` optional). Never fails: what cannot be used
    /// becomes a notice.
    pub fn parse(query: &str) -> (Link, Vec<Notice>) {
        let mut link = Link::default();
        let mut notices = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for pair in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
            let (raw_name, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
            let (name, value) = (percent_decode(raw_name), percent_decode(raw_value));
            if !KNOWN.contains(&name.as_str()) {
                notices.push(Notice { param: name, problem: Problem::Unknown });
                continue;
            }
            if seen.contains(&name) && name != "host" {
                notices.push(Notice { param: name, problem: Problem::Repeated });
                continue;
            }
            seen.push(name.clone());
            let n = &mut notices;
            match name.as_str() {
                "scenario" => link.scenario = Some(value).filter(|v| !v.is_empty()),
                "lesson" => match lesson_source(&value) {
                    Some(source) => link.lesson = Some(source),
                    None => n.push(Notice { param: name.clone(), problem: Problem::BadLesson }),
                },
                "era" => {
                    let eras: Vec<(&str, Era)> = Era::ALL.iter().map(|e| (e.name(), *e)).collect();
                    link.era = one_of("era", &value, &eras, n);
                }
                "compare" => {
                    let eras: Vec<(&str, Era)> = Era::ALL.iter().map(|e| (e.name(), *e)).collect();
                    link.compare = one_of("compare", &value, &eras, n);
                }
                "step" => link.step = number("step", &value, limits::MAX_STEPS, n),
                "lang" => link.lang = one_of("lang", &value, &Lang::ALL.map(|lang| (lang.code(), lang)), n),
                "seed" => link.seed = number("seed", &value, u64::MAX, n),
                "objects" => link.objects = number("objects", &value, limits::MAX_LOAD as u64, n).map(|v| v as usize),
                "speed" => match number("speed", &value, u64::from(MAX_SPEED), n) {
                    Some(0) => n.push(Notice {
                        param: "speed".into(),
                        problem: Problem::OutOfRange { value, min: 1, max: u64::from(MAX_SPEED) },
                    }),
                    s => link.speed = s.map(|s| s as u32),
                },
                "inspect" => {
                    let stages: Vec<(&str, Stage)> = Stage::ALL.iter().map(|s| (s.name(), *s)).collect();
                    link.inspect = one_of("inspect", &value, &stages, n);
                }
                "present" => link.present = flag(&value),
                "embed" => link.embed = flag(&value),
                "theme" => link.theme = one_of("theme", &value, &[("light", Theme::Light), ("dark", Theme::Dark)], n),
                "from" => link.from = number("from", &value, limits::MAX_STEPS, n),
                "to" => link.to = number("to", &value, limits::MAX_STEPS, n),
                "room" | "key" | "view" => {
                    let room = link.room.get_or_insert_with(RoomLink::default);
                    let plain = (1..=64).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_alphanumeric());
                    match name.as_str() {
                        "room" if plain => room.code = value,
                        "key" if plain => room.key = Some(value),
                        "view" if value == "projector" => room.projector = true,
                        _ => n.push(Notice { param: name.clone(), problem: Problem::BadRoom { value } }),
                    }
                }
                "live" if value == "kept" => link.live = Some(LiveLink { token: None }),
                "live" if value.len() == 32 && value.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    link.live = Some(LiveLink { token: Some(value) })
                }
                "live" => n.push(Notice { param: name.clone(), problem: Problem::BadLive { value } }),
                "host" => {
                    link.hosts.extend(value.split(',').map(str::trim).filter(|h| !h.is_empty()).map(String::from))
                }
                "actions" => match actions_reader().map(|read| read(&value)) {
                    Some(Ok(actions)) => link.actions = actions,
                    Some(Err(why)) => n.push(Notice { param: "actions".into(), problem: Problem::BadActions(why) }),
                    None => {
                        n.push(Notice { param: "actions".into(), problem: Problem::BadActions(BadActions::NotLoaded) })
                    }
                },
                _ => {}
            }
        }
        if let (Some(from), Some(to)) = (link.from, link.to) {
            if from > to {
                notices.push(Notice { param: "from".into(), problem: Problem::EmptyRange });
                link.from = None;
                link.to = None;
            }
        }
        if link.scenario.is_some() && link.objects.is_some() {
            notices.push(Notice { param: "objects".into(), problem: Problem::IgnoredWithScenario });
            link.objects = None;
        }
        // A key or a view without a room's code names no room.
        if link.room.as_ref().is_some_and(|room| room.code.is_empty()) {
            if !notices.iter().any(|n| n.param == "room") {
                notices.push(Notice { param: "room".into(), problem: Problem::BadRoom { value: String::new() } });
            }
            link.room = None;
        }
        (link, notices)
    }

    /// The query string for this state (`?` included; empty for the default page).
    pub fn to_query(&self) -> String {
        let mut params: Vec<(&str, String)> = Vec::new();
        match &self.lesson {
            Some(Source::Address(address)) => params.push(("lesson", address.clone())),
            Some(Source::Carried(carried)) => params.push(("lesson", carried.clone())),
            Some(Source::Local) | None => {}
        }
        if let Some(s) = &self.scenario {
            params.push(("scenario", s.clone()));
        }
        if let Some(e) = self.era {
            params.push(("era", e.name().into()));
        }
        if let Some(e) = self.compare {
            params.push(("compare", e.name().into()));
        }
        if let Some(l) = self.lang {
            params.push(("lang", l.code().into()));
        }
        if let Some(s) = self.seed {
            params.push(("seed", s.to_string()));
        }
        if let Some(o) = self.objects {
            params.push(("objects", o.to_string()));
        }
        if let Some(s) = self.step {
            params.push(("step", s.to_string()));
        }
        if let Some(s) = self.inspect {
            params.push(("inspect", s.name().into()));
        }
        if let Some(s) = self.speed {
            params.push(("speed", s.to_string()));
        }
        if self.present {
            params.push(("present", "1".into()));
        }
        if self.embed {
            params.push(("embed", "1".into()));
        }
        if let Some(t) = self.theme {
            params.push(("theme", t.name().into()));
        }
        if let Some(f) = self.from {
            params.push(("from", f.to_string()));
        }
        if let Some(t) = self.to {
            params.push(("to", t.to_string()));
        }
        if !self.hosts.is_empty() {
            params.push(("host", self.hosts.join(",")));
        }
        if !self.actions.is_empty() {
            params.push(("actions", encode_actions(&self.actions)));
        }
        if self.live.is_some() {
            params.push(("live", "kept".into()));
        }
        if let Some(room) = &self.room {
            params.push(("room", room.code.clone()));
            if room.projector {
                params.push(("view", "projector".into()));
            }
        }
        if params.is_empty() {
            return String::new();
        }
        let joined: Vec<String> = params.iter().map(|(k, v)| format!("{k}={}", percent_encode(v))).collect();
        format!("?{}", joined.join("&"))
    }
}

impl Session {
    /// A session from the page's query string; what cannot be used is kept as notices.
    pub fn from_query(query: &str) -> Self {
        let (link, notices) = Link::parse(query);
        Self::from_link(&link, notices)
    }

    /// The state a link describes: its lesson or cluster, era, language and inspector, its
    /// actions replayed at their steps, and its step.
    pub fn from_link(link: &Link, mut notices: Vec<Notice>) -> Self {
        let cluster = |era| Self::with_load(link.seed.unwrap_or(1), link.objects.unwrap_or(0), era);
        let mut session = match &link.scenario {
            Some(id) => match Self::lesson(id, link.seed, link.era) {
                Ok(session) => session,
                Err(problem @ Problem::NotInEra { .. }) => {
                    notices.push(Notice { param: "era".into(), problem });
                    Self::lesson(id, link.seed, None).unwrap_or_else(|_| cluster(Era::CURRENT))
                }
                Err(problem) => {
                    notices.push(Notice { param: "scenario".into(), problem });
                    cluster(link.era.unwrap_or(Era::CURRENT))
                }
            },
            None => cluster(link.era.unwrap_or(Era::CURRENT)),
        };
        session.lang = link.lang.unwrap_or_default();
        if let Some(stage) = link.inspect {
            session.inspected = stage;
        }
        for (step, action) in &link.actions {
            session.apply(Action::JumpTo(*step));
            session.apply(action.clone());
        }
        if let Some(step) = link.step {
            session.apply(Action::JumpTo(step));
        }
        if let Some(other) = link.compare {
            session.apply(Action::Compare(Some(other)));
        }
        session.notices = notices;
        session
    }

    /// The link that restores this state (the page adds its own settings).
    pub fn link(&self) -> Link {
        let scenario_seed = self.scenario.as_ref().map(|s| s.seed);
        Link {
            scenario: self.scenario.as_ref().map(|s| s.id.clone()),
            lesson: self.scenario.as_ref().and_then(|s| crate::scenario::library::source_of(&s.id)),
            era: Some(self.era).filter(|e| *e != self.default_era()),
            step: Some(self.world().steps()).filter(|s| *s > 0),
            lang: Some(self.lang),
            seed: Some(self.seed).filter(|s| Some(*s) != scenario_seed && (scenario_seed.is_some() || *s != 1)),
            objects: Some(self.load).filter(|n| *n > 0 && self.scenario.is_none()),
            inspect: Some(self.inspected).filter(|s| *s != Stage::Reflector),
            compare: self.compared.as_ref().map(|c| c.era),
            actions: self.log.to_vec(),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Fault;

    #[test]
    fn a_link_round_trips_every_parameter() {
        let link = Link {
            scenario: Some("stale-read".into()),
            era: Some(Era::V1_33),
            step: Some(42),
            lang: Some(Lang::Ko),
            seed: Some(7),
            speed: Some(8),
            inspect: Some(Stage::Fifo),
            present: true,
            theme: Some(Theme::Dark),
            from: Some(10),
            to: Some(80),
            hosts: vec!["https://docs.example.com".into()],
            actions: vec![
                (30, Action::Fault(Fault::CompactStore)),
                (31, Action::Kubectl("kubectl get pods -w".into())),
            ],
            room: Some(RoomLink { code: "a1b2c3".into(), key: None, projector: true }),
            ..Default::default()
        };
        let (back, notices) = Link::parse(&link.to_query());
        assert_eq!(notices, vec![]);
        assert_eq!(back, link);
    }

    #[test]
    fn bad_parameters_become_notices_and_the_rest_applies() {
        let (link, notices) = Link::parse(
            "?seed=7&seed=8&objects=lots&lang=fr&wat=1&speed=0&scenario=stale%2Dread&from=9&to=3&actions=%%%",
        );
        assert_eq!(link.seed, Some(7), "the first of a repeated parameter counts");
        assert_eq!(link.scenario.as_deref(), Some("stale-read"), "percent-escapes are decoded");
        let said: Vec<(&str, &Problem)> = notices.iter().map(|n| (n.param.as_str(), &n.problem)).collect();
        assert!(said.contains(&("seed", &Problem::Repeated)));
        assert!(said.contains(&("objects", &Problem::NotANumber { value: "lots".into() })));
        assert!(said.iter().any(|(p, pr)| *p == "lang" && matches!(pr, Problem::NotOneOf { .. })));
        assert!(said.contains(&("wat", &Problem::Unknown)));
        assert!(said.iter().any(|(p, _)| *p == "speed"));
        assert!(said.contains(&("from", &Problem::EmptyRange)));
        assert!(said.iter().any(|(p, pr)| *p == "actions" && matches!(pr, Problem::BadActions(_))));
        let text = notices[0].describe(Lang::Ko);
        assert!(!text.is_empty());
        let (_, notices) = Link::parse("?scenario=x&objects=5");
        assert_eq!(notices[0].problem, Problem::IgnoredWithScenario);
    }

    #[test]
    fn a_live_pages_token_is_read_but_never_written_back_into_an_address() {
        let token = "5b0c".repeat(8);
        let (link, notices) = Link::parse(&format!("?live={token}"));
        assert_eq!((link.live, notices.len()), (Some(LiveLink { token: Some(token) }), 0));
        assert_eq!(Link::parse("?live=kept").0.to_query(), "?live=kept");
        let (link, notices) = Link::parse("?live=%3Cscript%3E");
        assert_eq!(link.live, None);
        assert!(matches!(notices[..], [Notice { problem: Problem::BadLive { .. }, .. }]), "{notices:?}");
    }

    #[test]
    fn a_rooms_key_is_read_but_never_written_back_into_an_address() {
        let (link, notices) = Link::parse("?room=a1b2c3&key=00ff");
        assert_eq!(notices, vec![]);
        assert_eq!(link.room, Some(RoomLink { code: "a1b2c3".into(), key: Some("00ff".into()), projector: false }));
        assert_eq!(link.to_query(), "?room=a1b2c3");
        for query in ["?key=00ff", "?room=%3Cb%3E", "?room=a1&view=wall"] {
            let (_, notices) = Link::parse(query);
            assert!(matches!(notices[..], [Notice { problem: Problem::BadRoom { .. }, .. }]), "{query}: {notices:?}");
        }
    }

    #[test]
    fn recorded_actions_that_are_not_text_are_named_so() {
        let (link, notices) = Link::parse(&format!("?actions={}", base64::encode_url(b"[[1,\xff]]")));
        assert!(link.actions.is_empty());
        assert_eq!(notices[0].problem, Problem::BadActions(BadActions::NotUtf8));
        let json = encode_actions(&[(3, Action::StepForward)]);
        assert_eq!(Link::parse(&format!("?actions={json}")).0.actions, vec![(3, Action::StepForward)]);
    }

    #[test]
    fn the_page_opens_in_the_language_every_case_of_the_rule_names() {
        for (query, remembered, lang) in page_contract::opening_cases() {
            let (link, notices) = Link::parse(&query);
            assert!(notices.is_empty(), "{query}: {notices:?}");
            assert_eq!(link.opening_lang(remembered.as_deref()).code(), lang, "{query} with {remembered:?} remembered");
        }
    }

    #[test]
    fn a_link_names_exactly_the_languages_of_the_contract() {
        let codes: Vec<&str> = Lang::ALL.iter().map(|lang| lang.code()).collect();
        assert_eq!(codes, page_contract::LANGUAGES);
        for code in page_contract::LANGUAGES {
            assert_eq!(Link::parse(&format!("?lang={code}")).0.lang.map(Lang::code), Some(*code));
        }
    }

    #[test]
    fn a_flag_means_yes_exactly_for_the_contracts_values() {
        for yes in page_contract::EMBED_YES {
            assert!(Link::parse(&format!("?embed={yes}")).0.embed, "embed={yes}");
        }
        assert!(!Link::parse("?embed=no").0.embed);
        assert!(!Link::parse("?embed=0").0.embed);
    }
}

#[cfg(test)]
mod lesson_param {
    use super::*;

    #[test]
    fn a_lesson_from_outside_travels_in_the_link_by_address_or_carried() {
        for value in ["https://example.org/lessons/mine.json", "eJzLSM3JyVcozy_KSQEAGgQEXQ"] {
            let (link, notices) = Link::parse(&format!("?lesson={}&scenario=mine", percent_encode(value)));
            assert!(notices.is_empty(), "{notices:?}");
            let expected = match value.starts_with("https") {
                true => Source::Address(value.into()),
                false => Source::Carried(value.into()),
            };
            assert_eq!(link.lesson, Some(expected));
            assert_eq!(Link::parse(&link.to_query()).0, link, "round trip");
        }
        // A file opened on the person's machine is not in any link.
        let local = Link { lesson: Some(Source::Local), scenario: Some("mine".into()), ..Default::default() };
        assert_eq!(local.to_query(), "?scenario=mine");
    }

    #[test]
    fn a_lesson_parameter_that_is_neither_is_named() {
        for bad in ["ftp://x/y.json", "not base64!", "https://a b", ""] {
            let (link, notices) = Link::parse(&format!("?lesson={}", percent_encode(bad)));
            assert_eq!(link.lesson, None, "{bad}");
            assert_eq!(notices, [Notice { param: "lesson".into(), problem: Problem::BadLesson }], "{bad}");
            assert!(notices[0].describe(Lang::En).contains("neither a lesson file's https address"));
        }
    }
}
