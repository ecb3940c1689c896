//! The playground session: a world with its history, the trace so far, and what the page is
//! looking at. The page is a view of a [`Session`] and sends it [`Action`]s;
//! [`Session::apply`] is the only place anything changes. Every outcome of a person's write is
//! a [`Message`] worded as kubectl would word it, so bad input is answered in the page and
//! nothing already there is lost.

pub mod link;

use crate::cluster::api_errors::Status;
use crate::cluster::{ApiObject, ApiServer, Kind};
use crate::era::Era;
use crate::kernel::Stage;
use crate::scenario::{library, Lang, Scenario, Text};
use crate::session::link::{Link, Notice, Problem};
use crate::world::fast_forward::{self, Jump};
use crate::world::TraceEvent;
use crate::world::{self, Fault, History, World};

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
}

impl Action {
    /// Faults, writes and console commands: what changes the world, so a branch records it
    /// (and a link replays it) at the step it was taken.
    fn acts_on_world(&self) -> bool {
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

/// How far one scrub may run the simulation past the furthest step reached.
const RUN_AHEAD: u64 = 20_000;
/// The most steps one fast-forward passes over.
const MAX_JUMP: usize = 100_000;
/// How far a fast-forward runs ahead at a time while looking for the end of a phase.
const FAST_FORWARD_CHUNK: u64 = 4_096;

/// Snapshots every this many steps: jumping replays at most this many.
const SNAPSHOT_EVERY: u64 = 8;

#[derive(Clone, Debug)]
pub struct Session {
    pub history: History,
    /// Every trace event of this branch up to its horizon; the world is at `world().steps()`.
    pub trace: Vec<TraceEvent>,
    pub message: Option<Message>,
    pub inspected: Stage,
    pub filter: Option<Stage>,
    /// The cached object opened in the inspector (`namespace/name`).
    pub opened: Option<String>,
    /// The lesson being played, if any.
    pub scenario: Option<Scenario>,
    /// Answers given: question index → choice.
    pub answers: std::collections::BTreeMap<usize, usize>,
    pub lang: Lang,
    /// The console's transcript: each command and what it printed, with the step it was at.
    pub console: Vec<(u64, String)>,
    /// The Kubernetes release the world behaves as.
    pub era: Era,
    /// The same lesson and actions in another release, kept at the same virtual time.
    pub compared: Option<Box<Session>>,
    /// The jump that brought the world here, when the last move was one.
    pub jump: Option<Jump>,
    /// Parameters of the link the page was opened with that could not be used.
    pub notices: Vec<Notice>,
    /// The person's actions on this branch, with the step each was taken at: what a link
    /// replays to restore this state.
    log: Vec<(u64, Action)>,
    seed: u64,
    load: usize,
}

impl Default for Session {
    fn default() -> Self {
        Self::new(1)
    }
}

fn parse_manifest(text: &str) -> Result<ApiObject, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        Status::bad_request(format!("the object provided is unrecognized: json parse error: {e}")).to_string()
    })?;
    crate::limits::check_value(&value, text.len()).map_err(|e| format!("error: {e}"))?;
    let obj: ApiObject = serde_json::from_value(value).map_err(|e| {
        Status::bad_request(format!("the object provided is unrecognized: json parse error: {e}")).to_string()
    })?;
    crate::limits::check_object(&obj).map_err(|e| format!("error: {e}"))?;
    Ok(obj)
}

/// kubectl's `<type>/<name>`, e.g. `deployment.apps/web`.
fn kubectl_ref(kind: Kind, name: &str) -> String {
    format!("{}/{name}", crate::console::kubectl::kubectl_type(kind))
}

impl Session {
    /// The default lesson: a Deployment-style controller, its Pods and a kubelet.
    pub fn new(seed: u64) -> Self {
        Self::with_load(seed, 0, Era::CURRENT)
    }

    /// The default lesson in a cluster with `load` more Pods, in `era`.
    pub fn with_load(seed: u64, load: usize, era: Era) -> Self {
        let world = world::scale_with_load(seed, load, era)
            .or_else(|_| World::new(world::WorldConfig::new(Kind::Pod), vec![]))
            .expect("an empty world always builds");
        Session {
            history: History::new(world, SNAPSHOT_EVERY),
            trace: Vec::new(),
            message: None,
            inspected: Stage::Reflector,
            filter: None,
            console: Vec::new(),
            opened: None,
            scenario: None,
            answers: Default::default(),
            lang: Lang::En,
            era,
            compared: None,
            jump: None,
            notices: Vec::new(),
            log: Vec::new(),
            seed,
            load,
        }
    }

    /// A session playing a bundled scenario in its own era (the empty id: the default lesson).
    pub fn with_scenario(id: &str) -> Result<Self, String> {
        Self::lesson(id, None, None).map_err(|problem| {
            let notice = Notice { param: "scenario".into(), problem };
            format!("error: {}", notice.describe(Lang::En))
        })
    }

    /// A session playing a bundled lesson with another seed or era if given.
    fn lesson(id: &str, seed: Option<u64>, era: Option<Era>) -> Result<Self, Problem> {
        if id.is_empty() {
            return Ok(Self::with_load(seed.unwrap_or(1), 0, era.unwrap_or(Era::CURRENT)));
        }
        // (In the page a bundled lesson is known from the index before its file is loaded.)
        let lesson = library::find(id).ok_or_else(|| match library::file_of(id) {
            Some(file) => Problem::LessonBroken { why: format!("scenarios/{file} could not be loaded") },
            None => Problem::UnknownScenario { id: id.into() },
        })?;
        let era = era.unwrap_or(lesson.era);
        let mut scenario = lesson.in_era(era).ok_or_else(|| Problem::NotInEra {
            id: id.into(),
            era: era.to_string(),
            eras: lesson.declared_eras().iter().map(ToString::to_string).collect(),
        })?;
        if let Some(seed) = seed {
            scenario.seed = seed;
        }
        let world = scenario.world().map_err(|e| Problem::LessonBroken { why: e.to_string() })?;
        let mut session = Self::new(scenario.seed);
        session.history = History::new(world, SNAPSHOT_EVERY);
        session.seed = scenario.seed;
        session.era = era;
        session.scenario = Some(scenario);
        Ok(session)
    }

    /// The era a link need not name: the lesson's own, or the current release.
    fn default_era(&self) -> Era {
        self.scenario.as_ref().and_then(|s| library::find(&s.id)).map_or(Era::CURRENT, |l| l.era)
    }

    /// The narration note in force at the current step, and the stage it points at.
    pub fn narration(&self) -> Option<(&Text, Option<&str>)> {
        let scenario = self.scenario.as_ref()?;
        let (_, note) = crate::scenario::note_at(scenario, self.visible_trace())?;
        Some((&note.text, note.look_at.as_deref()))
    }

    /// The questions that have come up by now: (index, question, answer given).
    pub fn questions(&self) -> Vec<(usize, &crate::scenario::format::Question, Option<usize>)> {
        let Some(scenario) = self.scenario.as_ref() else { return Vec::new() };
        scenario
            .questions
            .iter()
            .enumerate()
            .filter(|(_, q)| crate::scenario::find(&q.when, self.visible_trace()).is_some())
            .map(|(i, q)| (i, q, self.answers.get(&i).copied()))
            .collect()
    }

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
            era: Some(self.era).filter(|e| *e != self.default_era()),
            step: Some(self.world().steps()).filter(|s| *s > 0),
            lang: Some(self.lang),
            seed: Some(self.seed).filter(|s| Some(*s) != scenario_seed && (scenario_seed.is_some() || *s != 1)),
            objects: Some(self.load).filter(|n| *n > 0 && self.scenario.is_none()),
            inspect: Some(self.inspected).filter(|s| *s != Stage::Reflector),
            compare: self.compared.as_ref().map(|c| c.era),
            actions: self.log.clone(),
            ..Default::default()
        }
    }

    pub fn world(&self) -> &World {
        self.history.world()
    }

    /// The steps taken so far, as the page shows them.
    pub fn visible_trace(&self) -> &[TraceEvent] {
        let n = (self.world().steps() as usize).min(self.trace.len());
        &self.trace[..n]
    }

    /// The step that brought the world here.
    pub fn current(&self) -> Option<&TraceEvent> {
        self.visible_trace().last()
    }

    pub fn apply(&mut self, action: Action) {
        let mirrored = action.acts_on_world() || matches!(action, Action::SetLang(_) | Action::Answer(..));
        if let (true, Some(other)) = (mirrored, self.compared.as_mut()) {
            // The other release takes the same action at the same moment.
            other.apply(action.clone());
        }
        self.apply_here(action);
        self.keep_compared_in_step();
    }

    /// Runs the compared release to the virtual time this one is at.
    fn keep_compared_in_step(&mut self) {
        let now = self.world().now();
        if let Some(other) = self.compared.as_mut() {
            other.run_to_time(now);
        }
    }

    /// Moves to the last step at or before virtual time `t`, running ahead as needed.
    pub fn run_to_time(&mut self, t: crate::kernel::Millis) {
        while self.world().now() <= t && self.world().next_time().is_some_and(|next| next <= t) {
            if self.world().steps() as usize >= self.trace.len() + RUN_AHEAD as usize || !self.step_forward() {
                break;
            }
        }
        let at_or_before = self.trace[..self.world().steps() as usize].partition_point(|e| e.time_ms <= t);
        if (at_or_before as u64) < self.world().steps() {
            self.history.jump_to(at_or_before as u64);
        }
    }

    fn apply_here(&mut self, action: Action) {
        if action.acts_on_world() {
            let step = self.world().steps();
            if step < self.history.horizon() {
                // A new branch: what the old one did from here on is forgotten.
                self.log.retain(|(at, _)| *at < step);
            }
            self.log.push((step, action.clone()));
        }
        // A jump stays shown until the world moves or is replaced.
        let (jumped, here) = (self.jump.take(), self.world().steps());
        let keeps_world = !matches!(action, Action::Reset | Action::LoadScenario(_) | Action::SetEra(_));
        match action {
            Action::StepForward => {
                self.step_forward();
            }
            Action::FastForward => self.jump = self.fast_forward(),
            Action::PlayTick => {
                self.jump = self.fast_forward();
                if self.jump.is_none() {
                    self.step_forward();
                }
            }
            Action::StepBack => self.history.step_back(),
            Action::NextNote => {
                if let Some(step) = self.next_note() {
                    self.apply(Action::JumpTo(step));
                }
            }
            Action::JumpTo(n) => {
                // Past the horizon the simulation runs ahead (at most `RUN_AHEAD` steps).
                let n = n.min(self.trace.len() as u64 + RUN_AHEAD);
                if n > self.trace.len() as u64 {
                    self.history.jump_to(self.trace.len() as u64);
                    let ahead = self.history.run_to(n);
                    self.trace.extend(ahead);
                }
                self.history.jump_to(n.min(self.trace.len() as u64));
            }
            Action::Reset => {
                let fresh = match &self.scenario {
                    Some(s) => Self::lesson(&s.id, Some(self.seed), Some(self.era))
                        .unwrap_or_else(|_| Session::with_load(self.seed, self.load, self.era)),
                    None => Session::with_load(self.seed, self.load, self.era),
                };
                *self =
                    Session { inspected: self.inspected, filter: self.filter, lang: self.lang, era: self.era, ..fresh };
            }
            Action::Inspect(stage) => self.inspected = stage,
            Action::Filter(stage) => self.filter = stage,
            Action::Fault(Fault::Latency(ms)) if ms > crate::limits::MAX_LATENCY_MS => {
                let why = crate::limits::out_of_range("network latency (ms)", ms, crate::limits::MAX_LATENCY_MS);
                self.message = Some(Message::Failed(format!("error: {why}")));
            }
            Action::Fault(fault) => self.act(world::Action::Fault(fault)),
            Action::Kubectl(entry) => self.kubectl(&entry),
            Action::Open(key) => self.opened = Some(key),
            Action::SetLang(lang) => self.lang = lang,
            Action::Answer(question, choice) => {
                self.answers.entry(question).or_insert(choice);
            }
            Action::LoadScenario(id) => match Self::with_scenario(&id) {
                Ok(mut next) => {
                    next.lang = self.lang;
                    *self = next;
                }
                Err(e) => self.message = Some(Message::Failed(e)),
            },
            Action::Compare(None) => self.compared = None,
            Action::Compare(Some(era)) => {
                let mut link = self.link();
                (link.era, link.compare) = (Some(era), None);
                let mut other = Session::from_link(&link, Vec::new());
                other.lang = self.lang;
                match other.notices.first() {
                    Some(notice) => self.message = Some(Message::Failed(notice.describe(self.lang))),
                    None => self.compared = Some(Box::new(other)),
                }
            }
            Action::SetEra(era) => {
                // The same lesson, actions and step, in another release.
                let mut link = self.link();
                link.era = Some(era);
                let mut next = Session::from_link(&link, Vec::new());
                match next.notices.first() {
                    Some(notice) => self.message = Some(Message::Failed(notice.describe(self.lang))),
                    None => {
                        (next.inspected, next.filter, next.lang) = (self.inspected, self.filter, self.lang);
                        *self = next;
                    }
                }
            }
            write => self.message = Some(self.write(write)),
        }
        if self.jump.is_none() && keeps_world && self.world().steps() == here {
            self.jump = jumped;
        }
    }

    /// Whether a lesson's run is over ([`crate::scenario::Scenario::over`], as the command line
    /// and the tests run it). Time travel back makes it not over again.
    pub fn lesson_ended(&self) -> bool {
        self.scenario.as_ref().is_some_and(|s| s.over(self.world()))
    }

    /// The step of the first narration note after the current step: in the branch's trace so
    /// far, or within [`RUN_AHEAD`] steps beyond it.
    fn next_note(&mut self) -> Option<u64> {
        let now = self.world().steps();
        let after = |scenario: &crate::scenario::Scenario, trace: &[TraceEvent]| {
            scenario.narration.iter().filter_map(|n| crate::scenario::find(&n.when, trace)).filter(|s| *s > now).min()
        };
        let scenario = self.scenario.clone()?;
        if let Some(step) = after(&scenario, &self.trace) {
            return Some(step);
        }
        self.apply(Action::JumpTo(self.trace.len() as u64 + RUN_AHEAD));
        let found = after(&scenario, &self.trace);
        if found.is_none() {
            self.apply(Action::JumpTo(now));
        }
        found
    }

    /// Passes over the bulk phase the last steps are in, landing on the first step that leaves
    /// it — or sooner, on a step where the lesson shows a note or asks a question, or after
    /// `MAX_JUMP` steps. `None` (and nothing moves) when no phase is under way or it would
    /// skip fewer than `fast_forward::MIN_JUMP` steps.
    fn fast_forward(&mut self) -> Option<Jump> {
        let here = self.world().steps();
        let routes = fast_forward::phase(self.visible_trace())?;
        let limit = here as usize + MAX_JUMP;
        let mut scanned = here as usize;
        let mut land = loop {
            if let Some(i) = fast_forward::end(&routes, &self.trace[scanned..]) {
                break scanned + i + 1;
            }
            scanned = self.trace.len();
            if scanned >= limit || !self.run_ahead(FAST_FORWARD_CHUNK) {
                break scanned.min(limit);
            }
        } as u64;
        if let Some(scenario) = &self.scenario {
            let shown = scenario.narration.iter().map(|n| &n.when).chain(scenario.questions.iter().map(|q| &q.when));
            let first_shown =
                shown.filter_map(|when| crate::scenario::find(when, &self.trace)).filter(|s| *s > here).min();
            land = land.min(first_shown.unwrap_or(u64::MAX));
        }
        if land < here + fast_forward::MIN_JUMP {
            self.history.jump_to(here);
            return None;
        }
        self.history.jump_to(land);
        Some(Jump::over(here, land, &self.trace[here as usize..land as usize - 1]))
    }

    /// Runs the simulation `n` steps past the furthest step reached, extending the trace;
    /// returns whether it went any further.
    fn run_ahead(&mut self, n: u64) -> bool {
        let known = self.trace.len() as u64;
        self.history.jump_to(known);
        let ahead = self.history.run_to(known + n);
        let more = !ahead.is_empty();
        self.trace.extend(ahead);
        more
    }

    /// Work a step put off so as to be shown sooner (the time-travel snapshot it is due), and
    /// the next step worked out ahead — the one before too when `paused` (during Play nobody
    /// steps back); a page calls it once the step is drawn. Nothing visible changes.
    pub fn settle(&mut self, paused: bool) {
        self.history.settle();
        self.history.look_ahead();
        if paused {
            self.history.look_behind();
        }
        if let Some(other) = self.compared.as_mut() {
            other.settle(paused);
        }
    }

    fn step_forward(&mut self) -> bool {
        let at = self.world().steps() as usize;
        let Some(event) = self.history.step() else { return false };
        if at < self.trace.len() {
            self.trace[at] = event;
        } else {
            self.trace.push(event);
        }
        true
    }

    /// Takes a world action now; behind the horizon it starts a new branch.
    fn act(&mut self, action: world::Action) {
        self.trace.truncate(self.world().steps() as usize);
        self.history.act(action);
        self.step_forward();
    }

    fn write(&mut self, action: Action) -> Message {
        let parsed = match &action {
            Action::Create(text) | Action::Update(text) | Action::DeleteManifest(text) => match parse_manifest(text) {
                Ok(obj) => Some(obj),
                Err(e) => return Message::Failed(e),
            },
            _ => None,
        };
        let (world_action, kind, name, verb) = match (action, parsed) {
            (Action::Delete { kind, namespace, name }, _) => {
                (world::Action::Delete { kind, namespace, name: name.clone() }, kind, name, "deleted")
            }
            (action, Some(obj)) => {
                let kind = match ApiServer::kind_of(&obj) {
                    Ok(kind) => kind,
                    Err(e) => return Message::Failed(e.to_string()),
                };
                let name = obj.metadata.name.clone();
                match action {
                    Action::Create(_) => (world::Action::Create(obj), kind, name, "created"),
                    Action::Update(_) => (world::Action::Update(obj), kind, name, "replaced"),
                    _ => {
                        let namespace =
                            if obj.metadata.namespace.is_empty() { "default".into() } else { obj.metadata.namespace };
                        (world::Action::Delete { kind, namespace, name: name.clone() }, kind, name, "deleted")
                    }
                }
            }
            _ => return Message::Failed("nothing to write".into()),
        };
        self.act(world_action);
        match self.write_failure() {
            Some(Err(failure)) => Message::Failed(failure),
            Some(Ok(rv)) => {
                let at = if rv > 0 { format!(" (resourceVersion {rv})") } else { String::new() };
                Message::Done(format!("{} {verb}{at}", kubectl_ref(kind, &name)))
            }
            None => Message::Failed("the write did not reach the API server".into()),
        }
    }

    /// The answer to the write the current step made: its resourceVersion, or what refused it
    /// in kubectl's words. `None` when the current step is not a person's write.
    fn write_failure(&self) -> Option<Result<i64, String>> {
        let crate::world::Outcome::UserWrite { answer, no_match, kind, .. } = &self.current()?.outcome else {
            return None;
        };
        Some(match (answer, no_match) {
            (_, Some(selector)) => {
                Err(format!("error: no {} matches {selector}", kind.map_or("objects", |k| k.resource())))
            }
            (Ok(rv), None) => Ok(*rv),
            (Err(status), None) => Err(status.to_string()),
        })
    }

    fn kubectl(&mut self, entry: &str) {
        let (line, stdin) = entry.split_once('\n').unwrap_or((entry, ""));
        let at = self.world().steps();
        self.console.retain(|(step, _)| *step <= at);
        self.console.push((at, format!("$ {}", line.trim())));
        let printed = match crate::console::kubectl::run(line, stdin, self.world()) {
            crate::console::kubectl::Outcome::Output(text) | crate::console::kubectl::Outcome::Error(text) => text,
            crate::console::kubectl::Outcome::Watch(kind, namespace, text) => {
                self.act(world::Action::ConsoleWatch { kind, namespace });
                text
            }
            crate::console::kubectl::Outcome::Write(action, done) => {
                self.act(action);
                match self.write_failure() {
                    Some(Err(failure)) => failure,
                    _ => done,
                }
            }
        };
        self.console.push((at, printed));
    }

    /// The console's transcript up to the current step, with the rows its watches printed
    /// in between, in the order they came.
    pub fn console_text(&self) -> String {
        let here = self.world().steps();
        // Each watch row shows the object as it was when the event arrived.
        let rows = self.world().console_events().iter().filter_map(|(step, at, kind, event)| {
            let row = crate::cluster::printers::align(&[crate::cluster::printers::row(*kind, event.object()?, *at)]);
            Some((*step, 1, row))
        });
        let mut lines: Vec<(u64, u8, String)> = self
            .console
            .iter()
            .filter(|(step, _)| *step <= here)
            .map(|(step, text)| (*step, 0, text.clone()))
            .chain(rows)
            .collect();
        lines.sort_by_key(|(step, order, _)| (*step, *order));
        lines.into_iter().map(|(_, _, text)| text).collect::<Vec<_>>().join("\n")
    }

    /// An example manifest for a kind, to start editing from.
    pub fn example(kind: Kind, namespace: &str, name: &str) -> String {
        use serde_json::json;
        let obj = ApiObject::new(kind, namespace, name);
        let obj = match kind {
            Kind::ConfigMap => obj.with("data", json!({"greeting": "hello"})),
            Kind::Secret => obj.with("data", json!({"token": "c2VjcmV0"})),
            Kind::Pod => obj.with_label("app", "web").with("spec", json!({"containers": [{"name": "web", "image": "nginx:1.27"}]})),
            Kind::ReplicaSet | Kind::Deployment => obj.with_label("app", "web").with(
                "spec",
                json!({
                    "replicas": 3,
                    "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}
                }),
            ),
        };
        obj.to_json_pretty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_forward_passes_over_a_watch_lists_initial_events_in_one_jump() {
        let mut s = Session::from_query("?scenario=polling-vs-watch");
        s.apply(Action::FastForward);
        assert_eq!((s.world().steps(), &s.jump), (0, &None), "no phase under way: nothing moves");
        for _ in 0..fast_forward::WINDOW + 4 {
            s.apply(Action::StepForward);
        }
        let here = s.world().steps();
        s.apply(Action::FastForward);
        let jump = s.jump.clone().expect("a jump");
        assert_eq!((jump.from, jump.to), (here, s.world().steps()));
        assert!(jump.skipped() > 4_000, "{jump:?}");
        assert_eq!(jump.counts[0].0.kind, TraceKind::Added);
        let landed = s.current().expect("a step");
        assert_ne!(landed.kind, TraceKind::Added, "it lands on the step that leaves the phase");
        assert_eq!(s.visible_trace().len() as u64, jump.to, "the steps passed over are in the trace");
        s.apply(Action::StepBack);
        assert_eq!((s.world().steps(), &s.jump), (jump.to - 1, &None), "any other move forgets the jump");
        assert_eq!(s.current().map(|e| e.kind), Some(TraceKind::Added));
    }

    #[test]
    fn next_note_goes_to_each_notes_step_in_turn_and_stops_after_the_last() {
        let mut s = Session::from_query("?scenario=disconnect-and-resume");
        let notes = s.scenario.as_ref().unwrap().narration.len();
        let mut visited = Vec::new();
        for _ in 0..notes + 2 {
            s.apply(Action::NextNote);
            let step = s.world().steps();
            if visited.last() == Some(&step) {
                break;
            }
            let (shown_at, _) = crate::scenario::note_at(s.scenario.as_ref().unwrap(), s.visible_trace()).unwrap();
            assert_eq!(shown_at, step, "a note appears on the step it jumped to");
            visited.push(step);
        }
        assert!(visited.windows(2).all(|w| w[0] < w[1]), "{visited:?}");
        assert!(visited.len() >= 2, "{visited:?}");
        let last = *visited.last().unwrap();
        s.apply(Action::NextNote);
        assert_eq!(s.world().steps(), last, "after the last note it stays");
    }
    use crate::kernel::TraceKind;

    fn failed(s: &Session) -> String {
        match &s.message {
            Some(Message::Failed(text)) => text.clone(),
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn semantics_8_writes_report_like_kubectl() {
        let mut s = Session::default();
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
        assert_eq!(s.message, Some(Message::Done("configmap/demo created (resourceVersion 3)".into())));
        s.apply(Action::DeleteManifest(Session::example(Kind::ConfigMap, "default", "demo")));
        assert_eq!(s.message, Some(Message::Done("configmap/demo deleted".into())));
        assert_eq!(s.current().unwrap().kind, TraceKind::ApiWrite);
    }

    #[test]
    fn another_era_replays_the_same_lesson_actions_and_step_in_that_release() {
        let mut s = Session::from_query("?scenario=delta-fifo-grouping&lang=ko");
        assert_eq!(s.era, Era::V1_30, "a lesson opens in the release it is told in");
        s.apply(Action::JumpTo(10));
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "extra")));
        s.apply(Action::JumpTo(30));
        s.apply(Action::SetEra(Era::V1_37));
        assert_eq!((s.era, s.world().config.era, s.world().steps()), (Era::V1_37, Era::V1_37, 30));
        assert_eq!(s.scenario.as_ref().map(|l| l.id.as_str()), Some("delta-fifo-grouping"));
        assert_eq!(s.lang, Lang::Ko);
        assert!(s.visible_trace().iter().any(|e| e.key == "default/extra"), "the create was replayed");
        assert_eq!(s.link().era, Some(Era::V1_37), "the link names an era other than the lesson's");
        s.apply(Action::SetEra(Era::V1_30));
        assert_eq!(s.link().era, None, "the lesson's own era goes without saying");
    }

    #[test]
    fn bad_input_is_answered_and_keeps_the_world() {
        let mut s = Session::default();
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
        let steps = s.world().steps();
        s.apply(Action::Create("{not json".into()));
        assert!(failed(&s)
            .starts_with("Error from server (BadRequest): the object provided is unrecognized: json parse error:"));
        assert_eq!(s.world().steps(), steps, "a malformed manifest never reaches the world");
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
        assert_eq!(failed(&s), r#"Error from server (AlreadyExists): configmaps "demo" already exists"#);
        s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "Not_Valid")));
        assert!(failed(&s).contains("a lowercase RFC 1123 subdomain"));
        s.apply(Action::Create(r#"{"kind":"Widget","metadata":{"name":"w"}}"#.into()));
        assert_eq!(failed(&s), r#"Error from server (NotFound): no matches for kind "Widget" in version """#);
    }

    #[test]
    fn the_console_reads_writes_and_watches() {
        let mut s = Session::default();
        s.apply(Action::JumpTo(60));
        s.apply(Action::Kubectl("kubectl get deploy".into()));
        assert!(
            s.console_text().starts_with("$ kubectl get deploy\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb"),
            "{}",
            s.console_text()
        );
        s.apply(Action::Kubectl("kubectl get pods -w".into()));
        s.apply(Action::Kubectl(
            "kubectl apply -f -\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: flags\n".into(),
        ));
        assert!(s.console_text().contains("$ kubectl apply -f -\nconfigmap/flags created"));
        s.apply(Action::Kubectl(
            "kubectl apply -f -\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: Bad_Name\n".into(),
        ));
        assert!(s.console_text().contains("Error from server (Invalid): ConfigMap \"Bad_Name\" is invalid"));
        let before = s.console_text().lines().count();
        s.apply(Action::JumpTo(400));
        assert!(s.console_text().lines().count() > before, "the watch prints Pod changes as they happen");
        s.apply(Action::Kubectl("kubectl get nothings".into()));
        assert!(s.console_text().ends_with(r#"error: the server doesn't have a resource type "nothings""#));
    }

    #[test]
    fn a_scenario_narrates_asks_and_resets_to_itself() {
        let mut s = Session::from_query("?scenario=list-then-watch&lang=ko");
        assert!(s.message.is_none());
        assert_eq!(s.lang, Lang::Ko);
        assert!(s.narration().is_none(), "nothing is said before the first step");
        s.apply(Action::StepForward);
        let (text, look) = s.narration().unwrap();
        assert!(text.ko.starts_with("Reflector가 ListAndWatch를 시작합니다"));
        assert_eq!(look, Some("reflector"));
        s.apply(Action::JumpTo(3));
        let asked = s.questions();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].2, None);
        s.apply(Action::Answer(0, 1));
        s.apply(Action::Answer(0, 0));
        assert_eq!(s.questions()[0].2, Some(1), "the first answer stands");
        s.apply(Action::JumpTo(1));
        assert!(s.questions().is_empty(), "stepping back hides what came later");
        s.apply(Action::Reset);
        assert_eq!(s.scenario.as_ref().map(|s| s.id.as_str()), Some("list-then-watch"));
        assert_eq!(s.lang, Lang::Ko);
        s.apply(Action::LoadScenario("nope".into()));
        assert_eq!(s.message, Some(Message::Failed(r#"error: there is no lesson "nope""#.into())));
    }

    #[test]
    fn a_new_branch_forgets_what_the_old_one_did_at_its_first_step() {
        let mut s = Session::default();
        s.apply(Action::JumpTo(30));
        s.apply(Action::Fault(Fault::CompactStore));
        s.apply(Action::JumpTo(40));
        s.apply(Action::JumpTo(30));
        s.apply(Action::Fault(Fault::DisconnectWatch));
        let faults: Vec<_> =
            s.visible_trace().iter().filter(|e| e.kind == TraceKind::Fault).map(|e| e.outcome.clone()).collect();
        assert_eq!(faults.len(), 1, "only the new branch's fault: {faults:?}");
        assert!(matches!(&faults[0], crate::world::Outcome::Fault { fault: Fault::DisconnectWatch, .. }));
        assert_eq!(s.world().api.store().compact_revision(), None, "the abandoned compaction never happened");
    }

    #[test]
    fn url_parameters_are_checked() {
        let s = Session::from_query("?seed=7&objects=20");
        assert!(s.notices.is_empty());
        assert_eq!(s.world().api.count(Kind::Pod), 20);
        let bad = Session::from_query("?objects=lots&speedy=9&scenario=nope");
        let params: Vec<&str> = bad.notices.iter().map(|n| n.param.as_str()).collect();
        assert_eq!(params, ["objects", "speedy", "scenario"]);
        assert_eq!(bad.world().api.count(Kind::Deployment), 1, "the page still opens on the default lesson");
        let seeded = Session::from_query("?scenario=stale-read&seed=9");
        assert_eq!(seeded.seed, 9, "a seed beside a lesson is used, not ignored");
    }

    #[test]
    fn a_link_restores_the_same_world_at_the_same_step_and_inspector() {
        let mut s = Session::from_query("?scenario=list-then-watch&lang=ko");
        s.apply(Action::JumpTo(12));
        s.apply(Action::Fault(Fault::DisconnectWatch));
        s.apply(Action::JumpTo(20));
        s.apply(Action::Kubectl("kubectl get pods".into()));
        s.apply(Action::Inspect(Stage::Fifo));
        s.apply(Action::JumpTo(30));
        let query = s.link().to_query();
        let restored = Session::from_query(&query);
        assert!(restored.notices.is_empty(), "{:?}", restored.notices);
        assert_eq!(restored.world().steps(), 30);
        assert_eq!(restored.visible_trace(), s.visible_trace(), "the same steps, outcome for outcome");
        assert_eq!(restored.inspected, Stage::Fifo);
        assert_eq!(restored.lang, Lang::Ko);
        assert_eq!(restored.console_text(), s.console_text());
    }

    #[test]
    fn semantics_9_stepping_back_and_forth_replays_the_same_trace() {
        let mut s = Session::default();
        for _ in 0..40 {
            s.apply(Action::StepForward);
        }
        let seen = s.visible_trace().to_vec();
        s.apply(Action::JumpTo(10));
        assert_eq!(s.world().steps(), 10);
        assert_eq!(s.visible_trace(), &seen[..10]);
        s.apply(Action::StepBack);
        assert_eq!(s.world().steps(), 9);
        s.apply(Action::JumpTo(40));
        assert_eq!(s.visible_trace(), &seen[..]);
        s.apply(Action::JumpTo(300));
        assert_eq!(s.world().steps(), 300, "scrubbing past the horizon runs ahead");
        assert_eq!(&s.visible_trace()[..40], &seen[..]);
        s.apply(Action::JumpTo(40));
        s.apply(Action::JumpTo(20));
        s.apply(Action::Fault(Fault::DisconnectWatch));
        assert_eq!(s.trace.len(), 21, "acting in the past starts a new branch");
        assert_eq!(s.current().unwrap().kind, TraceKind::Fault);
        s.apply(Action::Reset);
        assert_eq!(s.world().steps(), 0);
    }
}
