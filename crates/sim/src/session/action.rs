//! What a person does on the page ([`Action`]) and what their last write came to
//! ([`Message`]): the only ways the page changes a session.

use crate::cluster::Kind;
use crate::era::Era;
use crate::kernel::Stage;
use crate::limits::Exceeded;
use crate::scenario::Lang;
use crate::session::link::Notice;
use crate::world::outcome::UserVerb;
use crate::world::Fault;

/// What a person does on the page.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "do", content = "with", rename_all = "kebab-case")]
pub enum Action {
    StepForward,
    StepBack,
    /// Scrub to a step of this branch.
    JumpTo(u64),
    /// Go to the step where the lesson's next narration note appears (running ahead if it
    /// has not been reached yet).
    NextNote,
    /// Pass over the bulk phase under way as one jump (`crate::world::fast_forward`).
    FastForward,
    /// One tick of Play: a step, or a jump over the bulk phase under way.
    PlayTick,
    Reset,
    Fault(Fault),
    /// Create the object a JSON manifest describes.
    Create(String),
    /// Replace an object with the manifest (its resourceVersion, if given, must be current).
    Update(String),
    /// Delete the object a manifest names.
    DeleteManifest(String),
    Delete {
        kind: Kind,
        namespace: String,
        name: String,
    },
    /// Open a stage's inspector.
    Inspect(Stage),
    /// Show only the log lines that touch a stage (`None`: all).
    Filter(Option<Stage>),
    /// A console entry: a `kubectl` command line, then any manifest lines for `-f -`.
    Kubectl(String),
    /// Run the same lesson and actions in another Kubernetes release.
    SetEra(Era),
    /// Show another release beside this one, advancing with it (`None`: stop comparing).
    Compare(Option<Era>),
    /// Open a cached object (`namespace/name`) as YAML in the inspector.
    Open(String),
    /// Start a bundled scenario by id (the empty id: the default lesson).
    LoadScenario(String),
    /// Go where another page's link (its query) says — lesson, release, recorded actions,
    /// step — keeping this page's language and panels: a room's attendee follows the
    /// facilitator so.
    Follow(String),
    SetLang(Lang),
    /// Answer a question of the scenario: (question, choice).
    Answer(usize, usize),
    /// Go to the step a question's explanation points at (running ahead if it has not been
    /// reached yet).
    ShowExplained(usize),
    /// Play a challenge's solution: the lesson from its start with the solution's moves, up to
    /// the step its goal is met.
    PlaySolution(usize),
    /// Live mode: follow the served world made from this (`session::live`). Live mode's
    /// actions come from serve-api's feed, never from a link.
    #[serde(skip)]
    Serve(super::live::Origin),
    /// Live mode: an input the served world took.
    #[serde(skip)]
    Served(super::live::Fed),
    /// Live mode: where the served world is.
    #[serde(skip)]
    ServedStatus {
        steps: u64,
        paused: bool,
    },
}

impl Action {
    /// Faults, writes and console commands: what changes the world, so a branch records it
    /// (and a link replays it) at the step it was taken.
    pub(super) fn acts_on_world(&self) -> bool {
        matches!(
            self,
            Action::Fault(_)
                | Action::Create(_)
                | Action::Update(_)
                | Action::DeleteManifest(_)
                | Action::Delete { .. }
                | Action::Kubectl(_)
        )
    }
}

/// The outcome of the last write: typed, and worded in the page's language when it is shown
/// ([`Message::text`]), so a message on the screen follows a language switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Done(Written),
    Failed(Refusal),
}

/// A write the API server took: kubectl's `<type>/<name> created` (or `replaced`, or
/// `<type> "<name>" deleted`), and the revision it was stored at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub kind: Kind,
    pub name: String,
    pub verb: UserVerb,
    /// The store's revision after the write (none for a delete).
    pub revision: Option<i64>,
    /// The namespace a delete names, where the release's kubectl names it (1.32+).
    pub from: Option<String>,
}

/// Why a person's write, console line or setting was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// kubectl's or the API server's own words, shown as Kubernetes prints them in every
    /// language.
    Upstream(String),
    /// Beyond the playground's own limits.
    Limit(Exceeded),
    /// A lesson or release the session could not open.
    Notice(Notice),
    /// The write never reached the API server.
    NotReached,
    /// A lesson's delete-one found nothing its selector selects.
    NoMatch { kind: Option<Kind>, selector: String },
    /// The console (kubectl, the manifest reader) has not arrived yet.
    NotLoaded,
    /// Live mode: the world is the server's; a write goes to it, not to the page's copy.
    Live,
}

impl Message {
    /// The message in `lang`: the page's own words from the phrasebook, upstream's as printed.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Message::Done(written) => written.text(lang),
            Message::Failed(refusal) => refusal.text(lang),
        }
    }
}

impl Written {
    pub fn text(&self, lang: Lang) -> String {
        let kubectl = crate::console::kubectl::kubectl_type(self.kind);
        let done = match self.verb {
            UserVerb::Create => format!("{kubectl}/{} created", self.name),
            UserVerb::Update => format!("{kubectl}/{} replaced", self.name),
            _ => match &self.from {
                Some(namespace) => format!("{kubectl} {:?} deleted from {namespace} namespace", self.name),
                None => format!("{kubectl} {:?} deleted", self.name),
            },
        };
        match self.revision {
            Some(rv) if rv > 0 => done + &trf!(lang, " (resourceVersion {rv})", &[("rv", &rv)]),
            _ => done,
        }
    }
}

impl Refusal {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Refusal::Upstream(text) => text.clone(),
            Refusal::Limit(exceeded) => format!("error: {}", crate::i18n::exceeded(exceeded, lang)),
            Refusal::Notice(notice) => format!("error: {}", notice.describe(lang)),
            Refusal::NotReached => tr!(lang, "the write did not reach the API server").to_string(),
            Refusal::NotLoaded => tr!(lang, "the console is still loading: try again in a moment").to_string(),
            Refusal::Live => {
                tr!(lang, "live mode: the world is serve-api's — write with kubectl or your controller, inject faults with the live bar").to_string()
            }
            Refusal::NoMatch { kind, selector } => {
                let resource = kind.map_or("objects", |k| k.resource());
                trf!(
                    lang,
                    "error: no {resource} matches {selector}",
                    &[("resource", &resource), ("selector", selector)]
                )
            }
        }
    }
}
