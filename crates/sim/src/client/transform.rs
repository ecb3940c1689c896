//! An informer's transform: client-go's `TransformFunc` (`tools/cache/delta_fifo.go`
//! `queueActionLocked` at v0.30.14; `the_real_fifo.go` `addToItems_locked` at v0.33.13, and
//! with `addReplaceToItemsLocked` at v0.37.2), set through controller-runtime's `cache.Options.DefaultTransform` or
//! `ByObject.Transform`. Every object the reflector queues passes through it once, before the
//! queue, the indexer, any handler or a cache read sees it; the API server never knows. The
//! usual one drops what the controller never reads (controller-runtime's
//! `TransformStripManagedFields`) to keep the cache small.
//!
//! Modelled as the fields it drops, each a JSON pointer
//! (`/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration`). Fields the
//! informer cannot work without (the object's kind, name, namespace, resourceVersion) are
//! refused.
//!
//! Left out: transforms that add or rewrite fields, and a transform's error (the queue's
//! `Replace` fails and the reflector lists again). The playground's objects carry no
//! `managedFields` (`cluster/api_object.rs`), so dropping them saves nothing here.

use crate::cluster::Shared;
use serde_json::Value;

/// Pointers a transform may not drop: the informer keys, versions and types objects by them.
const KEPT: &[&str] =
    &["/apiVersion", "/kind", "/metadata", "/metadata/name", "/metadata/namespace", "/metadata/resourceVersion"];

/// Why a transform was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not a JSON pointer to a field (`/spec`, `/metadata/annotations/…`).
    NotAPointer(String),
    /// A field the informer needs.
    Needed(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NotAPointer(p) => write!(f, "{p:?} is not a JSON pointer to a field (it starts with /)"),
            Refused::Needed(p) => write!(f, "{p:?} cannot be dropped: the informer keys and versions objects by it"),
        }
    }
}

/// The fields an informer's transform drops; none: objects pass unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transform {
    drop: Vec<String>,
}

impl Transform {
    /// A transform dropping each field `pointers` names.
    pub fn dropping(pointers: &[String]) -> Result<Self, Refused> {
        for p in pointers {
            if !p.starts_with('/') || p.len() < 2 {
                return Err(Refused::NotAPointer(p.clone()));
            }
            if KEPT.contains(&p.trim_end_matches('/')) {
                return Err(Refused::Needed(p.clone()));
            }
        }
        Ok(Transform { drop: pointers.to_vec() })
    }

    /// Whether objects pass unchanged.
    pub fn is_none(&self) -> bool {
        self.drop.is_empty()
    }

    /// The object as the informer keeps it: the same one when nothing was dropped.
    pub fn apply(&self, obj: Shared) -> Shared {
        if self.is_none() {
            return obj;
        }
        let Ok(mut value) = serde_json::to_value(&*obj) else { return obj };
        let mut dropped = false;
        for pointer in &self.drop {
            dropped |= remove(&mut value, pointer);
        }
        match dropped.then(|| serde_json::from_value(value)) {
            Some(Ok(object)) => Shared::new(object),
            _ => obj,
        }
    }
}

/// Removes the field `pointer` names; whether there was one.
fn remove(value: &mut Value, pointer: &str) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else { return false };
    let name = last.replace("~1", "/").replace("~0", "~");
    match value.pointer_mut(parent) {
        Some(Value::Object(fields)) => fields.remove(&name).is_some(),
        Some(Value::Array(items)) => match name.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{ApiObject, Kind};

    fn applied_pod() -> Shared {
        let mut pod = ApiObject::new(Kind::Pod, "default", "web-1")
            .with("spec", serde_json::json!({"nodeName": "node-1", "containers": [{"name": "main"}]}));
        pod.metadata.annotations.insert("kubectl.kubernetes.io/last-applied-configuration".into(), "{…}".into());
        pod.metadata.annotations.insert("team".into(), "web".into());
        Shared::new(pod)
    }

    #[test]
    fn a_transform_drops_the_fields_it_names_and_keeps_the_rest() {
        let t =
            Transform::dropping(&["/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration".into()])
                .unwrap();
        let kept = t.apply(applied_pod());
        assert_eq!(kept.metadata.annotations.keys().collect::<Vec<_>>(), ["team"]);
        assert_eq!(kept.field("spec.nodeName").as_deref(), Some("node-1"));
        assert!(ApiObject::json_len(&kept) < ApiObject::json_len(&applied_pod()));
    }

    #[test]
    fn nothing_to_drop_hands_back_the_same_object() {
        let pod = applied_pod();
        let t = Transform::dropping(&["/status".into()]).unwrap();
        assert!(Shared::ptr_eq(&t.apply(pod.clone()), &pod));
        assert!(Shared::ptr_eq(&Transform::default().apply(pod.clone()), &pod));
    }

    #[test]
    fn a_transform_may_not_drop_what_the_informer_keys_by() {
        for needed in ["/metadata/name", "/metadata", "/kind", "/metadata/resourceVersion"] {
            assert_eq!(Transform::dropping(&[needed.into()]), Err(Refused::Needed(needed.into())));
        }
        assert_eq!(Transform::dropping(&["spec".into()]), Err(Refused::NotAPointer("spec".into())));
    }

    #[test]
    fn an_array_item_is_dropped_by_its_index() {
        let t = Transform::dropping(&["/spec/containers/0".into()]).unwrap();
        assert_eq!(t.apply(applied_pod()).spec().unwrap()["containers"], serde_json::json!([]));
    }
}
