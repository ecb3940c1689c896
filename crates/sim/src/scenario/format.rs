//! The scenario file format: a named, reproducible situation with narration in Korean and
//! English, predict-then-reveal questions, and expectations the tests check. Every field is
//! described by `static/scenarios/schema.json`; unknown fields are refused.

use crate::client::delta::DeltaType;
use crate::cluster::{Kind, Verb};
use crate::era::Era;
pub use crate::i18n::Lang;
use crate::kernel::{sort, Stage, TraceKind};
use crate::world::{Fault, Tag};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A field the page never uses, passed over unread (its default in its place): a lesson's
/// checks where the `checks` feature is off (only the command line and the tests judge runs),
/// the guide's handout where `bundled` is (only the command line writes it).
#[cfg(any(not(feature = "checks"), not(feature = "bundled")))]
pub(super) fn unread<'de, D: serde::Deserializer<'de>, T: Default>(reader: D) -> Result<T, D::Error> {
    serde::de::IgnoredAny::deserialize(reader).map(|_| T::default())
}

/// Text in both languages of the playground.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub ko: String,
    pub en: String,
}

impl Text {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ko => &self.ko,
            Lang::En => &self.en,
        }
    }
}

/// Which controller runs, and how.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "kebab-case", tag = "kind")]
pub enum ControllerSpec {
    /// An informer on `watch` feeding a controller that reads each object from its cache.
    Observe {
        #[serde(default = "default_watch")]
        watch: Kind,
    },
    /// A ReplicaSet-style controller for `owner` (Deployment or ReplicaSet) and its Pods.
    Replicas {
        #[serde(default = "default_owner")]
        owner: Kind,
        #[serde(default)]
        edge_triggered: bool,
    },
    /// The stale-read ConfigMap reconciler.
    Stamp,
    /// A reconciler that fails `failures` times per key before it succeeds.
    Failing { failures: u32 },
    /// An informer on `watch` feeding a reconciler that succeeds with
    /// `Result{RequeueAfter: after_ms}`: it checks each object again after a while.
    RequeueAfter {
        #[serde(default = "default_watch")]
        watch: Kind,
        after_ms: u64,
    },
    /// No informer: LIST `watch` every `every_ms`.
    Polling {
        #[serde(default = "default_watch")]
        watch: Kind,
        every_ms: u64,
    },
}

pub(super) fn default_watch() -> Kind {
    Kind::Pod
}

pub(super) fn default_owner() -> Kind {
    Kind::Deployment
}

impl Default for ControllerSpec {
    fn default() -> Self {
        ControllerSpec::Observe { watch: default_watch() }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub controller: ControllerSpec,
    /// The informers' default resync period, in seconds (0: none).
    #[serde(default)]
    pub resync_seconds: u64,
    /// Serve watches from the API server's watch cache (true) or straight from etcd.
    #[serde(default = "yes")]
    pub watch_cache: bool,
    #[serde(default = "default_window")]
    pub watch_cache_size: usize,
    #[serde(default = "default_latency")]
    pub latency_ms: u64,
    /// How often each watcher gets a bookmark, in seconds (upstream: 60; 0: never).
    #[serde(default = "default_bookmarks")]
    pub bookmark_seconds: u64,
    /// Cache scope: one namespace, and a label selector, for the first informer.
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub label_selector: String,
    /// A field selector for the first informer (controller-runtime's `ByObject.Field`), e.g.
    /// `spec.nodeName=node-1`: the server sends only the objects it selects.
    #[serde(default)]
    pub field_selector: String,
    /// The first informer's transform (controller-runtime's `Transform`): the fields each
    /// object loses before the cache, as JSON pointers
    /// (`/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration`).
    #[serde(default)]
    pub transform: Vec<String>,
    /// The first informer caches metadata alone (controller-runtime's `builder.OnlyMetadata`,
    /// a watch of `PartialObjectMetadata`): its requests ask for `PartialObjectMetadata`.
    #[serde(default)]
    pub metadata_only: bool,
    /// Field indexes on the first informer, e.g. `spec.nodeName`.
    #[serde(default)]
    pub indexes: Vec<String>,
    /// Indexes over a computed value on the first informer: each object by the name of the
    /// object of a kind that controls it (`metav1.GetControllerOf`).
    #[serde(default)]
    pub owner_indexes: Vec<OwnerIndex>,
    /// RBAC verbs the controller has (default: what its controller needs).
    #[serde(default)]
    pub rbac: Option<Vec<crate::cluster::Verb>>,
    #[serde(default = "one")]
    pub max_concurrent: usize,
    /// How long one reconcile takes, in virtual milliseconds.
    #[serde(default = "default_reconcile")]
    pub reconcile_ms: u64,
    /// Also run a client that LISTs the first informer's kind this often (the cost of polling).
    #[serde(default)]
    pub poll_every_ms: Option<u64>,
    /// Kinds the controller's role also covers (with the `rbac` verbs): kinds it reads without
    /// watching them from the start.
    #[serde(default)]
    pub grants: Vec<Kind>,
    /// controller-runtime predicates on the controller's handler (`generation-changed`,
    /// `resource-version-changed`): an update any of them turns away is not enqueued.
    #[serde(default)]
    pub predicates: Vec<crate::controller::predicate::Predicate>,
    /// controller-runtime's `client.Options.Cache.DisableFor`: kinds the controller's client
    /// reads from the API server, never from the cache (no informer, a request per read).
    #[serde(default)]
    pub disable_for: Vec<Kind>,
    /// controller-runtime's `UnsafeDisableDeepCopy` for the controller's cache: reads hand out
    /// the cache's own objects, not deep copies.
    #[serde(default)]
    pub unsafe_disable_deep_copy: bool,
    /// controller-runtime's `ReaderFailOnMissingInformer`: a cache read of a kind no informer
    /// watches fails (`is not cached`) instead of starting an informer and waiting for it.
    #[serde(default)]
    pub reader_fail_on_missing_informer: bool,
    /// When the manager starts the cache, in virtual milliseconds (0: at once): a cache read
    /// before then fails with `the cache is not started, can not read objects`.
    #[serde(default)]
    pub cache_start_ms: u64,
}

/// An index over a computed value, as Kubebuilder's CronJob tutorial indexes a Job by its
/// controlling CronJob: `IndexField(obj, name, extractor)` whose extractor returns the name of
/// the owner that controls the object when that owner is of `controller_kind`, and nothing
/// otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct OwnerIndex {
    /// The index's name, which a `MatchingFields` read names (`.metadata.controller`).
    pub name: String,
    pub controller_kind: Kind,
}

pub(super) fn default_reconcile() -> u64 {
    10
}

pub(super) fn yes() -> bool {
    true
}
pub(super) fn one() -> usize {
    1
}
pub(super) fn default_window() -> usize {
    100
}
pub(super) fn default_latency() -> u64 {
    5
}
pub(super) fn default_bookmarks() -> u64 {
    60
}

impl Default for Config {
    /// Every field's default, as a lesson that names none of them gets.
    fn default() -> Self {
        Config {
            controller: ControllerSpec::default(),
            resync_seconds: 0,
            watch_cache: yes(),
            watch_cache_size: default_window(),
            latency_ms: default_latency(),
            bookmark_seconds: default_bookmarks(),
            namespace: None,
            label_selector: String::new(),
            field_selector: String::new(),
            transform: Vec::new(),
            metadata_only: false,
            indexes: Vec::new(),
            owner_indexes: Vec::new(),
            rbac: None,
            max_concurrent: one(),
            reconcile_ms: default_reconcile(),
            poll_every_ms: None,
            grants: Vec::new(),
            predicates: Vec::new(),
            unsafe_disable_deep_copy: false,
            disable_for: Vec::new(),
            reader_fail_on_missing_informer: false,
            cache_start_ms: 0,
        }
    }
}

/// One thing that happens at a virtual time (`at_ms`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "kebab-case", tag = "do")]
pub enum Event {
    Create {
        at_ms: u64,
        object: Value,
    },
    /// Set top-level fields (`spec`, `data`, …) and labels of an object as it is then.
    Patch {
        at_ms: u64,
        kind: Kind,
        #[serde(default = "default_namespace")]
        namespace: String,
        name: String,
        #[serde(default)]
        set: Map<String, Value>,
        #[serde(default)]
        labels: BTreeMap<String, String>,
    },
    Delete {
        at_ms: u64,
        kind: Kind,
        #[serde(default = "default_namespace")]
        namespace: String,
        name: String,
    },
    /// Write an object's status through its status subresource (`kubectl patch
    /// --subresource=status`), as another controller would: `status` replaces what it was.
    PatchStatus {
        at_ms: u64,
        kind: Kind,
        #[serde(default = "default_namespace")]
        namespace: String,
        name: String,
        status: Value,
    },
    Scale {
        at_ms: u64,
        kind: Kind,
        #[serde(default = "default_namespace")]
        namespace: String,
        name: String,
        replicas: i64,
    },
    /// Delete the first object (in key order) that matches a label selector, as it is then.
    DeleteOne {
        at_ms: u64,
        kind: Kind,
        #[serde(default = "default_namespace")]
        namespace: String,
        selector: String,
    },
    /// `disconnect-watch`, `compact-store`, `restart-api-server`, `revoke-list`,
    /// `revoke-watch`, `grant-list`, `grant-watch`, `drop-next-event`.
    Fault {
        at_ms: u64,
        fault: FaultName,
    },
    Latency {
        at_ms: u64,
        ms: u64,
    },
    /// The controller reads one object from its cache (controller-runtime's client `Get`).
    CacheGet(GetRead),
    /// The controller lists from its cache (controller-runtime's client `List`): in a
    /// namespace, with an exact field match (`MatchingFields{field: value}`, which needs an
    /// index on the field) and/or a label selector.
    CacheList(ListRead),
    /// The controller gets one object from its cache and sets labels on what it got, without
    /// writing it (a deep copy, unless the cache hands out its own objects).
    CacheMutate {
        at_ms: u64,
        kind: Kind,
        #[serde(default = "default_namespace")]
        namespace: String,
        name: String,
        labels: BTreeMap<String, String>,
    },
    /// The controller reads one object through the APIReader: a GET on the API server.
    ApiGet(GetRead),
    /// The controller lists through the APIReader: a LIST on the API server (a field match
    /// becomes a `fieldSelector`).
    ApiList(ListRead),
    /// The controller creates an object through its client (controller-runtime's `Create`),
    /// with its own credentials: the answer carries the object as stored.
    ApiCreate {
        at_ms: u64,
        object: Value,
    },
}

/// A `Get` of one object, as a timeline event.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GetRead {
    pub at_ms: u64,
    pub kind: Kind,
    #[serde(default = "default_namespace")]
    pub namespace: String,
    pub name: String,
}

/// A `List`, as a timeline event: in a namespace (all when absent), with an exact field match
/// and/or a label selector.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ListRead {
    pub at_ms: u64,
    pub kind: Kind,
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default)]
    pub field: Option<String>,
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub labels: Option<String>,
    /// `client.Limit`: at most so many (the API server pages; the cache truncates).
    #[serde(default)]
    pub limit: Option<usize>,
    /// `client.Continue`: a continue token (the cache refuses any).
    #[serde(default, rename = "continue")]
    pub continue_token: Option<String>,
}

impl Event {
    pub fn at_ms(&self) -> u64 {
        match self {
            Event::Create { at_ms, .. }
            | Event::ApiCreate { at_ms, .. }
            | Event::Patch { at_ms, .. }
            | Event::Delete { at_ms, .. }
            | Event::PatchStatus { at_ms, .. }
            | Event::CacheMutate { at_ms, .. }
            | Event::DeleteOne { at_ms, .. }
            | Event::Scale { at_ms, .. }
            | Event::Fault { at_ms, .. }
            | Event::Latency { at_ms, .. } => *at_ms,
            Event::CacheGet(read) | Event::ApiGet(read) => read.at_ms,
            Event::CacheList(read) | Event::ApiList(read) => read.at_ms,
        }
    }
}

pub(super) fn default_namespace() -> String {
    "default".into()
}

/// One of a closed set of names, or an error that lists them.
fn one_of<'de, D: serde::Deserializer<'de>, T: Copy>(
    reader: D,
    what: &str,
    names: impl Iterator<Item = (&'static str, T)> + Clone,
) -> Result<T, D::Error> {
    let name = String::deserialize(reader)?;
    names.clone().find(|(n, _)| *n == name).map(|(_, value)| value).ok_or_else(|| {
        let all: Vec<&str> = names.map(|(n, _)| n).collect();
        serde::de::Error::custom(format!("unknown {what} {name:?}, expected one of {}", all.join(", ")))
    })
}

/// The JSON Schema of a closed set of names.
#[cfg(feature = "schema")]
fn names_schema(description: &str, names: Vec<&str>) -> schemars::Schema {
    schemars::json_schema!({ "description": description, "type": "string", "enum": names })
}

/// A fault by the name a lesson's timeline and a challenge's moves give it (`compact-store`,
/// `revoke-list`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultName(pub Fault);

impl<'de> Deserialize<'de> for FaultName {
    fn deserialize<D: serde::Deserializer<'de>>(reader: D) -> Result<Self, D::Error> {
        let named = Fault::NAMES.iter().enumerate().map(|(i, name)| (*name, i));
        let at = one_of(reader, "fault", named)?;
        Ok(FaultName(Fault::named(Fault::NAMES[at]).expect("every name names a fault")))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for FaultName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FaultName".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        names_schema("A fault, by name.", Fault::NAMES.to_vec())
    }
}

/// A verb as the API server's request metrics name it (`LIST`, `POST`, …), in a lesson's
/// `requests` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricVerb(pub Verb);

impl<'de> Deserialize<'de> for MetricVerb {
    fn deserialize<D: serde::Deserializer<'de>>(reader: D) -> Result<Self, D::Error> {
        one_of(reader, "verb", Verb::ALL.into_iter().map(|v| (v.metric(), v))).map(MetricVerb)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for MetricVerb {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "MetricVerb".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        names_schema("A verb as the API server's request metrics name it.", Verb::ALL.map(Verb::metric).to_vec())
    }
}

/// A kind of step, by its name in the event log (`Pop`, `ERROR`, `LIST response`, …; any
/// case), as a lesson's step patterns name it. (A trace's exports spell kinds otherwise.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepKind(pub TraceKind);

impl<'de> Deserialize<'de> for StepKind {
    fn deserialize<D: serde::Deserializer<'de>>(reader: D) -> Result<Self, D::Error> {
        let name = String::deserialize(reader)?;
        TraceKind::named(&name).map(StepKind).ok_or_else(|| {
            let all: Vec<&str> = TraceKind::ALL.iter().map(|k| k.name()).collect();
            serde::de::Error::custom(format!("unknown kind of step {name:?}, expected one of {}", all.join(", ")))
        })
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for StepKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StepKind".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        names_schema("A kind of step, by its name in the event log.", TraceKind::ALL.iter().map(|k| k.name()).collect())
    }
}

/// Which steps a lesson means, by the typed fields of each step — never by its words. Every
/// field given must hold; `nth` picks the n-th such step (from 1), `after` only counts steps
/// after the step another pattern finds. `at_step` names a step by number instead.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StepPattern {
    #[serde(default)]
    pub at_step: Option<u64>,
    /// The step's kind, as the event log names it: `Pop`, `ERROR`, `LIST response`, …
    #[serde(default)]
    pub on: Option<StepKind>,
    /// The stage the message left (`from`) or reached (`to`), by its trace name.
    #[serde(default)]
    pub from: Option<Stage>,
    #[serde(default)]
    pub to: Option<Stage>,
    /// The object's `namespace/name`.
    #[serde(default)]
    pub key: Option<String>,
    /// A fact the step's outcome carries (`deduplicated`, `tombstone`, `stale-read`, …).
    #[serde(default)]
    pub tag: Option<Tag>,
    /// The HTTP status code of an error the step carries (`410`, `403`, `409`, …).
    #[serde(default)]
    pub code: Option<u16>,
    /// The resourceVersion the step carries.
    #[serde(default)]
    pub rv: Option<i64>,
    /// A Pop's delta types, oldest first (`["Updated", "Deleted"]`).
    #[serde(default)]
    pub deltas: Option<Vec<DeltaType>>,
    #[serde(default)]
    pub nth: Option<u64>,
    #[serde(default)]
    pub after: Option<Box<StepPattern>>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Note {
    /// The step the note appears on.
    #[serde(rename = "match")]
    pub when: StepPattern,
    pub text: Text,
    /// The stage to look at (its name in the trace, e.g. `reflector`).
    #[serde(default)]
    pub look_at: Option<Stage>,
    /// The note sets right what one of the two articles says (wrong, or out of date in this
    /// release); the page marks it.
    #[serde(default)]
    pub corrects_article: bool,
    /// Console lines the note offers to run (`kubectl get pods -w`): a button each.
    #[serde(default)]
    pub offer: Vec<String>,
    /// What the text says the run shows, as checks of the finished run.
    #[serde(default)]
    #[cfg_attr(not(feature = "checks"), serde(deserialize_with = "unread"))]
    pub claims: Vec<Expectation>,
    /// Why the text says nothing the run could show (instead of `claims`).
    #[serde(default)]
    pub claims_none: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The step the question is asked on.
    #[serde(rename = "match")]
    pub when: StepPattern,
    pub ask: Text,
    pub choices: Vec<Text>,
    pub answer: usize,
    pub explain: Text,
    /// The step the explanation points at (the page links it: the timeline jumps there).
    #[serde(default)]
    pub explain_at: Option<StepPattern>,
    /// What the right answer and the explanation say the run shows, as checks of the
    /// finished run.
    #[serde(default)]
    #[cfg_attr(not(feature = "checks"), serde(deserialize_with = "unread"))]
    pub claims: Vec<Expectation>,
    /// Why they say nothing the run could show (instead of `claims`).
    #[serde(default)]
    pub claims_none: Option<String>,
}

/// The one thing to remember, in both languages, with what it says the run shows.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Recap {
    pub ko: String,
    pub en: String,
    /// What the recap says the run shows, as checks of the finished run.
    #[serde(default)]
    #[cfg_attr(not(feature = "checks"), serde(deserialize_with = "unread"))]
    pub claims: Vec<Expectation>,
    /// Why it says nothing the run could show (instead of `claims`).
    #[serde(default)]
    pub claims_none: Option<String>,
}

impl Recap {
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ko => &self.ko,
            Lang::En => &self.en,
        }
    }

    pub fn text(&self) -> Text {
        Text { ko: self.ko.clone(), en: self.en.clone() }
    }
}

/// A condition the run must meet at its end.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "kebab-case", tag = "check")]
pub enum Expectation {
    /// How many steps match a pattern (`at_most: 0`: none does). At least one bound.
    Steps {
        #[serde(rename = "match")]
        pattern: StepPattern,
        #[serde(default)]
        at_least: Option<u64>,
        #[serde(default)]
        at_most: Option<u64>,
    },
    /// A reflector log line contains the text (log lines are upstream text: the text is the
    /// point).
    LogContains { text: String },
    /// The first informer's cache holds exactly what the store holds for its kind.
    CacheMatchesStore,
    /// How many objects of a kind the store holds (optionally owned by `owner`, directly or
    /// through what it owns: a Deployment's Pods through its ReplicaSets).
    Count {
        kind: Kind,
        #[serde(default)]
        owner: Option<String>,
        equals: usize,
    },
    /// How many API requests of a verb the run made.
    Requests {
        verb: MetricVerb,
        #[serde(default)]
        at_least: Option<u64>,
        #[serde(default)]
        at_most: Option<u64>,
    },
    /// A controller-runtime List from the first informer's cache: with an exact field match
    /// and/or a label selector; either it fails with `error`, or it finds `found` objects
    /// having examined at least `examined_at_least` and at most `examined_at_most`.
    CacheList {
        #[serde(default)]
        namespace: Option<String>,
        #[serde(default)]
        field: Option<String>,
        #[serde(default)]
        value: Option<String>,
        #[serde(default)]
        labels: Option<String>,
        #[serde(default)]
        found: Option<usize>,
        #[serde(default)]
        examined_at_least: Option<usize>,
        #[serde(default)]
        examined_at_most: Option<usize>,
        #[serde(default)]
        error: Option<String>,
    },
    /// A controller-runtime Get from the cache: it succeeds, or fails with `error`; found, the
    /// object has no field at the JSON pointer `lacks` (what a transform dropped) and one at
    /// `has`.
    CacheGet {
        kind: Kind,
        #[serde(default = "default_namespace")]
        namespace: String,
        name: String,
        #[serde(default)]
        error: Option<String>,
        #[serde(default)]
        lacks: Option<String>,
        #[serde(default)]
        has: Option<String>,
    },
    /// Every informer's index entries: a key listed under a value, in any index (the costs
    /// panel's figure).
    IndexEntries {
        #[serde(default)]
        at_least: Option<u64>,
        #[serde(default)]
        at_most: Option<u64>,
    },
    /// The bytes every informer's cache holds, as JSON (the costs panel's figure).
    CacheBytes {
        #[serde(default)]
        at_least: Option<u64>,
        #[serde(default)]
        at_most: Option<u64>,
    },
    /// How many reconciles ran.
    Reconciles {
        #[serde(default)]
        at_least: Option<u64>,
        #[serde(default)]
        at_most: Option<u64>,
    },
}

/// Labels for some of a scale lesson's load Pods: the first of every `every`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LoadLabels {
    pub every: usize,
    pub labels: BTreeMap<String, String>,
}

/// How long a run lasts: until this virtual time, and at most this many steps.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RunLength {
    pub until_ms: u64,
    #[serde(default = "default_max_steps")]
    pub max_steps: u64,
}

pub(super) fn default_max_steps() -> u64 {
    100_000
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The lesson's id in links and on the command line: lower-case letters, digits, `-`.
    pub id: String,
    pub title: Text,
    /// A lesson beyond the two articles the playground teaches (`docs/semantics.md`, "Sources
    /// outside the code"); the picker marks it.
    #[serde(default)]
    pub extra: bool,
    /// What the lesson shows, in a sentence or two.
    pub summary: Text,
    /// The Kubernetes release the lesson is told in; it opens in this era (default: the
    /// current release).
    #[serde(default)]
    pub era: Era,
    /// The releases the lesson runs in (`era` among them), each with what holds only there:
    /// notes, questions and expectations. Those at the top level hold in every one. Empty: the
    /// lesson runs in `era` only.
    #[serde(default)]
    pub eras: BTreeMap<Era, EraPart>,
    /// The seed of the random source (backoff jitter, watch timeouts).
    #[serde(default = "one_u64")]
    pub seed: u64,
    /// Objects in the cluster before the first step (manifests, as `kubectl apply` takes them).
    #[serde(default)]
    pub objects: Vec<Value>,
    /// Extra Pods (namespace `load`, no owner) for scale lessons.
    #[serde(default)]
    pub load_pods: usize,
    /// Labels every `every`-th load Pod carries (over `app=load`): the few a selector looks
    /// for among many.
    #[serde(default)]
    pub load_labels: Option<LoadLabels>,
    #[serde(default)]
    pub config: Config,
    /// Writes and faults at virtual times, in time order.
    #[serde(default)]
    pub timeline: Vec<Event>,
    /// Notes shown from the step they name until the next note.
    #[serde(default)]
    pub narration: Vec<Note>,
    /// Predict-then-reveal questions; they pause autoplay until answered.
    #[serde(default)]
    pub questions: Vec<Question>,
    /// What the run must show; `cargo test` checks every bundled lesson.
    #[serde(default)]
    #[cfg_attr(not(feature = "checks"), serde(deserialize_with = "unread"))]
    pub expect: Vec<Expectation>,
    pub run: RunLength,
    /// The one thing to remember, shown when the run has ended (and every question is
    /// answered).
    #[serde(default)]
    pub recap: Option<Recap>,
    /// Questions for the room to discuss at the end (the articles' closing questions).
    #[serde(default)]
    pub discuss: Vec<Text>,
    /// Tasks for the learner, checked as they act.
    #[serde(default)]
    pub challenges: Vec<Challenge>,
}

/// A task for the learner in a lesson's world: a goal the page checks as they act (console
/// lines, fault buttons, writes), hints shown one at a time, and a solution that meets it.
/// The lesson's run without the learner's actions must not meet the goal; the solution must,
/// in every release the lesson runs in (`informer-playground validate` checks both).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// Its id within the lesson: lower-case letters, digits, `-`.
    pub id: String,
    pub task: Text,
    /// Checks of the run so far, in the forms of `expect`; met all at once, the task is done.
    /// They should stay met once met (at least, never at most).
    pub goal: Vec<Expectation>,
    /// Hints, shown one at a time.
    #[serde(default)]
    pub hints: Vec<Text>,
    /// Said when the goal is met: what the learner's actions showed.
    pub solved: Text,
    /// Moves that meet the goal.
    pub solution: Vec<Move>,
}

/// One of the learner's moves, at a step: a fault (by its timeline name) or a console line.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Move {
    pub at_step: u64,
    #[serde(default)]
    pub fault: Option<FaultName>,
    #[serde(default)]
    pub console: Option<String>,
}

pub(super) fn one_u64() -> u64 {
    1
}

/// What a lesson says and expects in one release only: its title, summary and recap there
/// (when they differ from the lesson's), and notes, questions and expectations added to the
/// lesson's.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct EraPart {
    #[serde(default)]
    pub title: Option<Text>,
    #[serde(default)]
    pub summary: Option<Text>,
    #[serde(default)]
    pub recap: Option<Recap>,
    #[serde(default)]
    pub narration: Vec<Note>,
    #[serde(default)]
    pub questions: Vec<Question>,
    #[serde(default)]
    #[cfg_attr(not(feature = "checks"), serde(deserialize_with = "unread"))]
    pub expect: Vec<Expectation>,
}

/// The longest id of a lesson or a challenge (what a link, a room and a journal carry).
pub const MAX_ID: usize = 64;

/// Whether `id` may name a lesson or a challenge: 1 to [`MAX_ID`] lower-case letters, digits
/// and `-`.
pub fn is_id(id: &str) -> bool {
    (1..=MAX_ID).contains(&id.len()) && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// What a [`Move`] does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Fault(crate::world::Fault),
    Console(String),
}

impl Move {
    /// What the move does, or why it does nothing.
    pub fn kind(&self) -> Result<MoveKind, String> {
        match (&self.fault, &self.console) {
            (Some(FaultName(fault)), None) => Ok(MoveKind::Fault(fault.clone())),
            (None, Some(line)) if !line.trim().is_empty() => Ok(MoveKind::Console(line.clone())),
            (None, Some(_)) => Err("expected a console line, found an empty one".into()),
            _ => Err("expected one of `fault` or `console`".into()),
        }
    }
}

impl Scenario {
    /// The releases the lesson runs in, oldest first.
    pub fn declared_eras(&self) -> Vec<Era> {
        let mut eras: Vec<Era> = self.eras.keys().copied().collect();
        if !eras.contains(&self.era) {
            eras.push(self.era);
        }
        sort::sort(&mut eras);
        eras
    }

    /// The lesson's title as told in `era`.
    pub fn title_in(&self, era: Era) -> &Text {
        self.eras.get(&era).and_then(|p| p.title.as_ref()).unwrap_or(&self.title)
    }

    /// The lesson as told in `era`: its notes, questions and expectations for that release
    /// joined to those of every release (the release's own notes first: a lesson's
    /// release-specific part tells how it starts). `None` when the lesson does not run in
    /// `era`.
    pub fn in_era(&self, era: Era) -> Option<Scenario> {
        if !self.declared_eras().contains(&era) {
            return None;
        }
        let mut told = self.clone();
        told.era = era;
        if let Some(part) = told.eras.get(&era).cloned() {
            told.title = part.title.unwrap_or(told.title);
            told.summary = part.summary.unwrap_or(told.summary);
            told.recap = part.recap.or(told.recap);
            told.narration.splice(0..0, part.narration);
            told.questions.extend(part.questions);
            told.expect.extend(part.expect);
        }
        told.eras.clear();
        Some(told)
    }
}
