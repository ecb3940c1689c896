//! controller-runtime's predicates (`pkg/predicate/predicate.go`, v0.18.5, v0.21.0, v0.25.2,
//! the same in all three), applied in the informer's event handler before the controller's
//! handler and its queue (`pkg/internal/source/event_handler.go`: every predicate must hold).
//!
//! Both predicates here judge updates only (creates and deletes pass). A resync is an update
//! whose old and new object are the same, so both filter it. A status write leaves
//! `metadata.generation` as it is; so does every write to a kind that keeps no generation (a
//! ConfigMap, a Pod before 1.33), which `GenerationChangedPredicate` therefore filters
//! entirely.
//!
//! Left out: the label, annotation and generic predicates, and predicates on other events.

use crate::cluster::ApiObject;
use serde::Serialize;

/// A predicate, named in a lesson file as `generation-changed` or `resource-version-changed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Predicate {
    /// `GenerationChangedPredicate`: an update passes when `metadata.generation` changed.
    GenerationChanged,
    /// `ResourceVersionChangedPredicate`: an update passes when the resourceVersion changed.
    ResourceVersionChanged,
}

impl Predicate {
    pub const ALL: [Predicate; 2] = [Predicate::GenerationChanged, Predicate::ResourceVersionChanged];

    /// Its name as Go code names it.
    pub fn name(self) -> &'static str {
        match self {
            Predicate::GenerationChanged => "GenerationChangedPredicate",
            Predicate::ResourceVersionChanged => "ResourceVersionChangedPredicate",
        }
    }

    /// Its name in a lesson file.
    pub fn file_name(self) -> &'static str {
        match self {
            Predicate::GenerationChanged => "generation-changed",
            Predicate::ResourceVersionChanged => "resource-version-changed",
        }
    }

    /// `Update(e)`: whether the update reaches the handler.
    pub fn update(self, old: &ApiObject, new: &ApiObject) -> bool {
        match self {
            Predicate::GenerationChanged => new.metadata.generation != old.metadata.generation,
            Predicate::ResourceVersionChanged => new.metadata.resource_version != old.metadata.resource_version,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Kind;

    fn deployment(generation: i64, rv: &str) -> ApiObject {
        let mut o = ApiObject::new(Kind::Deployment, "default", "web");
        o.metadata.generation = generation;
        o.metadata.resource_version = rv.into();
        o
    }

    #[test]
    fn semantics_6_generation_changed_passes_spec_changes_only_and_both_filter_a_resync() {
        let g = Predicate::GenerationChanged;
        assert!(g.update(&deployment(1, "5"), &deployment(2, "6")), "a spec change");
        assert!(!g.update(&deployment(1, "5"), &deployment(1, "6")), "a status write");
        assert!(!g.update(&deployment(1, "5"), &deployment(1, "5")), "a resync");
        let rv = Predicate::ResourceVersionChanged;
        assert!(rv.update(&deployment(1, "5"), &deployment(1, "6")), "a status write is a new version");
        assert!(!rv.update(&deployment(1, "5"), &deployment(1, "5")), "a resync");
    }
}
