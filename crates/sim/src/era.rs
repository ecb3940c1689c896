//! Kubernetes releases as eras: a named release and the behaviour of its client-go,
//! kube-apiserver and controller-runtime. A world is made in one era and keeps it; each
//! behaviour that differs is asked of the era here, by name, and settled from upstream's
//! source at the release's tag (feature gates in `client-go/features/known_features.go` and
//! `apiserver/pkg/features/kube_features.go`, and the code paths they switch):
//!
//! | behaviour | 1.30 | 1.33 | 1.37 | upstream |
//! |---|---|---|---|---|
//! | informer FIFO | DeltaFIFO | RealFIFO | atomic RealFIFO, PopBatch | `InOrderInformers`, `AtomicFIFO`, `InOrderInformersBatchProcess`; `controller.go: newQueueFIFO` |
//! | first sync | LIST | LIST | WATCH `sendInitialEvents=true` | `WatchListClient`; `reflector.go: watchList` |
//! | server streams initial events | no | no | yes | apiserver `WatchList` |
//! | reflector errors | W + E printf pair | one structured E | one structured E | `reflector.go: DefaultWatchErrorHandler`, `list` |
//! | backoff reset | after 2 min without a backoff | same | every 2 min | `wait.NewExponentialBackoffManager` / `Backoff.DelayWithReset` |
//! | workers start after | caches synced | caches synced | caches and handlers synced | controller-runtime `source/kind.go: WaitForSync` |
//! | controller-runtime queue | rate-limited workqueue | rate-limited workqueue | priority queue | `pkg/controller/controller.go: UsePriorityQueue` |

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Era {
    /// Kubernetes 1.30: client-go v0.30, controller-runtime v0.18.
    #[serde(rename = "1.30")]
    V1_30,
    /// Kubernetes 1.33: client-go v0.33, controller-runtime v0.21.
    #[serde(rename = "1.33")]
    V1_33,
    /// Kubernetes 1.37, the current release: client-go v0.37, controller-runtime v0.25.
    #[default]
    #[serde(rename = "1.37")]
    V1_37,
}

impl Era {
    pub const ALL: [Era; 3] = [Era::V1_30, Era::V1_33, Era::V1_37];
    /// The release people run today.
    pub const CURRENT: Era = Era::V1_37;

    /// The release number: `1.30`.
    pub fn name(self) -> &'static str {
        match self {
            Era::V1_30 => "1.30",
            Era::V1_33 => "1.33",
            Era::V1_37 => "1.37",
        }
    }

    pub fn parse(name: &str) -> Option<Era> {
        Era::ALL.into_iter().find(|e| e.name() == name || name.strip_prefix('v') == Some(e.name()))
    }

    /// The client-go release of this era.
    pub fn client_go(self) -> &'static str {
        match self {
            Era::V1_30 => "v0.30.14",
            Era::V1_33 => "v0.33.13",
            Era::V1_37 => "v0.37.2",
        }
    }

    /// The controller-runtime release of this era.
    pub fn controller_runtime(self) -> &'static str {
        match self {
            Era::V1_30 => "v0.18.5",
            Era::V1_33 => "v0.21.0",
            Era::V1_37 => "v0.25.2",
        }
    }
}

/// The FIFO between an informer's reflector and its processing loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FifoKind {
    DeltaFifo,
    /// One delta per pop, tombstones before `Replaced` on relist.
    RealFifo,
    /// `ReplacedAll` / `SyncAll` / `Bookmark` deltas and `PopBatch`.
    AtomicRealFifo,
}

impl FifoKind {
    /// The type's name upstream.
    pub fn name(self) -> &'static str {
        match self {
            FifoKind::DeltaFifo => "DeltaFIFO",
            FifoKind::RealFifo | FifoKind::AtomicRealFifo => "RealFIFO",
        }
    }
}

/// When the reflector's backoff starts over at 800 ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackoffReset {
    /// `exponentialBackoffManagerImpl`: when more than 2 minutes passed since the last backoff.
    AfterQuiet,
    /// `Backoff.DelayWithReset` (client-go ≥ 0.36): when more than 2 minutes passed since the
    /// last reset, however busy the reflector was.
    Periodic,
}

/// How the reflector's log lines look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogStyle {
    /// `klog.Warningf` / `utilruntime.HandleError(fmt.Errorf(…))`: printf text.
    Printf,
    /// Contextual logging: `"message" key="value" …`.
    Structured,
}

impl Era {
    /// The informers' FIFO.
    pub fn fifo(self) -> FifoKind {
        match self {
            Era::V1_30 => FifoKind::DeltaFifo,
            Era::V1_33 => FifoKind::RealFifo,
            Era::V1_37 => FifoKind::AtomicRealFifo,
        }
    }

    /// `WatchListClient`: the reflector's first sync is a streaming WATCH (off until 1.35).
    pub fn watch_list_client(self) -> bool {
        self == Era::V1_37
    }

    /// apiserver `WatchList`: WATCH accepts `sendInitialEvents` (beta, off in 1.33, on from
    /// 1.34).
    pub fn watch_list_server(self) -> bool {
        self == Era::V1_37
    }

    /// apiserver's `CacheDelegator` (1.33 on): list options checked before either store is
    /// asked, consistent reads and lists with a limit served by the watch cache; 1.30 sends
    /// such lists to etcd and checks a resourceVersion where it reads it.
    pub fn cache_delegator(self) -> bool {
        self != Era::V1_30
    }

    /// etcd's lists name a continue token's key with the slash after the list's prefix
    /// (`/name`, 1.37; before, `name`).
    pub fn etcd_continue_key_with_slash(self) -> bool {
        self == Era::V1_37
    }

    /// Pods carry `metadata.generation` (1.33 on).
    pub fn pod_generation(self) -> bool {
        self != Era::V1_30
    }

    /// A create whose name the server generates tries up to 8 names before it gives up
    /// (`RetryGenerateName`: off in 1.30, on from 1.31, the gate gone by 1.37; apiserver
    /// `registry/generic/registry/store.go: createWithGenerateNameRetry`); before, one.
    pub fn generated_name_attempts(self) -> u32 {
        match self {
            Era::V1_30 => 1,
            Era::V1_33 | Era::V1_37 => 8,
        }
    }

    /// etcd's "required revision is a future revision" on a list is told as "too large
    /// resource version" (1.37: `listReadError`); before, it passes as a 500.
    pub fn future_revision_too_large(self) -> bool {
        self == Era::V1_37
    }

    /// apiserver `ListFromCacheSnapshot` (alpha in 1.33, beta and on from 1.34): exact lists
    /// from the watch cache's snapshots.
    pub fn list_from_cache_snapshot(self) -> bool {
        self == Era::V1_37
    }

    pub fn backoff_reset(self) -> BackoffReset {
        match self {
            Era::V1_30 | Era::V1_33 => BackoffReset::AfterQuiet,
            Era::V1_37 => BackoffReset::Periodic,
        }
    }

    pub fn log_style(self) -> LogStyle {
        match self {
            Era::V1_30 => LogStyle::Printf,
            Era::V1_33 | Era::V1_37 => LogStyle::Structured,
        }
    }

    /// A too-long field says `may not be more than N bytes` from 1.33, `must have at most N
    /// bytes` before (apimachinery `util/validation/field/errors.go: TooLong`).
    pub fn too_long_may_not_be_more(self) -> bool {
        self != Era::V1_30
    }

    /// An update that changes `metadata.uid` is told so twice, by the checks every resource
    /// gets (`rest.validateCommonFields`) and by the kind's own (`ValidateObjectMetaUpdate`);
    /// from 1.37 once, the first marked as covered by declarative validation
    /// (apimachinery `api/validation/objectmeta.go: MarkCoveredByDeclarative`).
    pub fn uid_immutable_twice(self) -> bool {
        self != Era::V1_37
    }

    /// A field error prints a value that is not a string or a number as JSON (`["foo"]`) from
    /// 1.37, with Go's `%#v` (`[]string{"foo"}`) before (apimachinery
    /// `util/validation/field/errors.go: ErrorBody`).
    pub fn json_field_values(self) -> bool {
        self == Era::V1_37
    }

    /// Before its workers start, a controller waits for its caches to sync; from
    /// controller-runtime v0.23 also for each of its event handlers to have been handed the
    /// initial list (`source/kind.go: WaitForSync`, `handlerRegistration.HasSynced`).
    pub fn workers_wait_for_handlers(self) -> bool {
        self == Era::V1_37
    }

    /// `kubectl delete` names the namespace of what it deleted (`… deleted from default
    /// namespace`), from kubectl 1.32 (kubernetes#126619, `delete.go: PrintObj`).
    pub fn kubectl_delete_names_namespace(self) -> bool {
        self != Era::V1_30
    }

    /// controller-runtime's default queue is its priority queue (opt-in in v0.21, the default
    /// in v0.25): initial-list adds and unchanged updates wait behind real changes.
    pub fn priority_queue(self) -> bool {
        self == Era::V1_37
    }

    /// With `ReaderFailOnMissingInformer`, a read of a kind whose informer exists but has not
    /// synced waits for the sync as the default path does (controller-runtime v0.25
    /// `informer_cache.go: getInformerForKind` calls `Informers.Get`); v0.18 and v0.21 `Peek`
    /// the informer and read its store as it is.
    pub fn fail_fast_reader_waits_for_sync(self) -> bool {
        self == Era::V1_37
    }

    /// The `continue` of a list the cache answers: `continue-not-supported` from
    /// controller-runtime v0.21 (`cache_reader.go: List` sets it), none in v0.18.
    pub fn cache_list_continue(self) -> &'static str {
        match self {
            Era::V1_30 => "",
            _ => "continue-not-supported",
        }
    }
}

/// Read from its release number (`"1.30"`) as a string, so that where it stood can be told (a
/// lesson's `eras` keys: `eras.1.33.narration[0]`).
impl<'de> Deserialize<'de> for Era {
    fn deserialize<D: serde::Deserializer<'de>>(reader: D) -> Result<Self, D::Error> {
        let name = String::deserialize(reader)?;
        Era::ALL.into_iter().find(|e| e.name() == name).ok_or_else(|| {
            const NAMES: [&str; 3] = ["1.30", "1.33", "1.37"];
            serde::de::Error::unknown_variant(&name, &NAMES)
        })
    }
}

impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
