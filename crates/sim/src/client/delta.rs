//! Deltas (client-go `tools/cache/delta_fifo.go`: `Delta`, `DeltaType`,
//! `DeletedFinalStateUnknown`), semantics §2.1: what a FIFO queues for the informer — the
//! kind of change and the object, or the tombstone of an object whose deletion was only
//! inferred from a relist — and what a FIFO asks of the objects it was told about.

use crate::cluster::{ApiObject, Shared};

/// The kinds of change a delta records (§2.1). Informers emit `Replaced` on relist; a bare
/// DeltaFIFO emits `Sync` there unless told otherwise (`EmitDeltaTypeReplaced`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum DeltaType {
    Added,
    Updated,
    Deleted,
    Replaced,
    Sync,
    /// Atomic RealFIFO (client-go ≥ 1.36, `AtomicFIFO`): a whole relist as one delta.
    ReplacedAll,
    /// Atomic RealFIFO: a resync of every known object as one delta.
    SyncAll,
    /// Atomic RealFIFO: a bookmark's resourceVersion for the indexer.
    Bookmark,
}

impl DeltaType {
    pub const ALL: [DeltaType; 8] = [
        DeltaType::Added,
        DeltaType::Updated,
        DeltaType::Deleted,
        DeltaType::Replaced,
        DeltaType::Sync,
        DeltaType::ReplacedAll,
        DeltaType::SyncAll,
        DeltaType::Bookmark,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DeltaType::Added => "Added",
            DeltaType::Updated => "Updated",
            DeltaType::Deleted => "Deleted",
            DeltaType::Replaced => "Replaced",
            DeltaType::Sync => "Sync",
            DeltaType::ReplacedAll => "ReplacedAll",
            DeltaType::SyncAll => "SyncAll",
            DeltaType::Bookmark => "Bookmark",
        }
    }
}

/// An object, or the tombstone of one whose deletion was inferred from a relist.
#[derive(Clone, Debug, PartialEq)]
pub enum DeltaObject {
    Object(Shared),
    /// `DeletedFinalStateUnknown{Key, Obj}`: the object was deleted while the watch was
    /// down; `obj` is the last state known, which may be stale (or missing).
    Tombstone {
        key: String,
        obj: Option<Shared>,
    },
    /// `ReplacedAllInfo`: a whole relist in one delta (atomic RealFIFO).
    All {
        objects: Vec<Shared>,
        resource_version: i64,
    },
    /// `SyncAllInfo` (resourceVersion 0) or `BookmarkInfo`: no object, at most a resourceVersion.
    Marker {
        resource_version: i64,
    },
}

impl DeltaObject {
    /// The key (`KeyOf`): a tombstone's own key, else `namespace/name`.
    /// `All` and `Marker` have no key.
    pub fn key(&self) -> String {
        match self {
            DeltaObject::Object(o) => o.key(),
            DeltaObject::Tombstone { key, .. } => key.clone(),
            DeltaObject::All { .. } | DeltaObject::Marker { .. } => String::new(),
        }
    }

    /// The object itself, unwrapping a tombstone, shared.
    pub fn shared(&self) -> Option<&Shared> {
        match self {
            DeltaObject::Object(o) => Some(o),
            DeltaObject::Tombstone { obj, .. } => obj.as_ref(),
            DeltaObject::All { .. } | DeltaObject::Marker { .. } => None,
        }
    }

    /// The object itself, unwrapping a tombstone.
    pub fn object(&self) -> Option<&ApiObject> {
        match self {
            DeltaObject::Object(o) => Some(o),
            DeltaObject::Tombstone { obj, .. } => obj.as_deref(),
            DeltaObject::All { .. } | DeltaObject::Marker { .. } => None,
        }
    }

    pub fn is_tombstone(&self) -> bool {
        matches!(self, DeltaObject::Tombstone { .. })
    }

    pub fn resource_version(&self) -> i64 {
        match self {
            DeltaObject::All { resource_version, .. } | DeltaObject::Marker { resource_version } => *resource_version,
            _ => self.object().map_or(0, ApiObject::resource_version),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Delta {
    pub kind: DeltaType,
    pub object: DeltaObject,
}

/// What the FIFO asks of the objects it was told about (the indexer): `knownObjects`.
pub trait KnownObjects {
    fn list_keys(&self) -> Vec<String>;
    fn get_by_key(&self, key: &str) -> Option<&Shared>;
}

impl Delta {
    /// `PopBatch` batches only deltas about one object (`batchable`).
    pub fn is_batchable(&self) -> bool {
        matches!(
            self.kind,
            DeltaType::Sync | DeltaType::Replaced | DeltaType::Added | DeltaType::Updated | DeltaType::Deleted
        )
    }
}
