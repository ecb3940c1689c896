//! What a person does on the page ([`Action`]) and what their last write came to
//! ([`Message`]): the only ways the page changes a session.

use crate::cluster::Kind;
use crate::era::Era;
use crate::kernel::Stage;
use crate::scenario::Lang;
use crate::world::Fault;

/// What a person does on the page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    SetLang(Lang),
    /// Answer a question of the scenario: (question, choice).
    Answer(usize, usize),
    /// Go to the step a question's explanation points at (running ahead if it has not been
    /// reached yet).
    ShowExplained(usize),
    /// Play a challenge's solution: the lesson from its start with the solution's moves, up to
    /// the step its goal is met.
    PlaySolution(usize),
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

/// The outcome of the last write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Done(String),
    Failed(String),
}
