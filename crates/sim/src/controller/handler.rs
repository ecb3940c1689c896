//! controller-runtime's handler layer (`pkg/handler`, v0.18.5–v0.25.2) over client-go's
//! `FilteringResourceEventHandler`: what an informer's notification becomes for a controller —
//! whether the handler is called at all, with which call, the key it enqueues and at which
//! priority. Pure: the world delivers the notification and schedules what comes out.
//!
//! Left out: `EnqueueRequestsFromMapFunc` and handlers of other kinds' owners than the
//! controller's primary kind.

use super::predicate::Predicate;
use crate::client::shared_informer::{HandlerFn, Notification};
use crate::cluster::selector::LabelSelector;
use crate::cluster::ApiObject;
use crate::cluster::Kind;
use serde::Serialize;

/// controller-runtime `handler.LowPriority`: what `WithLowPriorityWhenUnchanged` gives the
/// initial list and resyncs, so that changes go first in a priority queue.
pub const LOW_PRIORITY: i32 = -100;

/// Where a handler sends what it is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueue {
    /// `handler.EnqueueRequestForObject`: the object's own key.
    Object,
    /// `handler.EnqueueRequestForOwner(…, OnlyControllerOwner())`: the key of the controlling
    /// owner, when it is of the controller's kind.
    Owner,
    /// Nothing: a handler that only records what it is told.
    Nothing,
}

/// What made a handler call special.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CallNote {
    None,
    /// `OnAdd(obj, isInInitialList=true)`.
    InitialList,
    /// An update whose old and new resourceVersion are the same: a resync.
    ResyncSameRv,
    /// `OnDelete(DeletedFinalStateUnknown)`.
    Tombstone,
    /// A filtering handler's filter did not select the object: the handler was not called.
    FilteredOut,
    /// A controller-runtime predicate returned false for the update: the controller's handler
    /// was not called.
    PredicateFalse {
        predicate: Predicate,
    },
    /// A filtering handler turned the informer's call into this one (an update into an add
    /// or a delete, as the object crossed the filter's line).
    FilterTurned {
        from: HandlerFn,
    },
}

/// What one handler makes of one notification.
#[derive(Clone, Debug, PartialEq)]
pub struct Handled {
    /// The call the handler got (the informer's, or the one a filter turned it into).
    pub call: HandlerFn,
    pub note: CallNote,
    /// The notification as the handler saw it (`None`: the filter dropped it).
    pub seen: Option<Notification>,
    /// The request it enqueues, with its priority.
    pub request: Option<(String, i32)>,
}

/// `FilteringResourceEventHandler`: what a handler with `filter` is called with instead of
/// `n`, if anything.
pub fn filtered(filter: Option<&LabelSelector>, n: Notification) -> Option<Notification> {
    let Some(filter) = filter else { return Some(n) };
    let selects = |o: &ApiObject| filter.matches(&o.metadata.labels);
    match n {
        Notification::Add { ref obj, .. } => selects(obj).then_some(n),
        Notification::Update { old, new } => match (selects(&old), selects(&new)) {
            (true, true) => Some(Notification::Update { old, new }),
            (false, true) => Some(Notification::Add { obj: new, is_in_initial_list: false }),
            (true, false) => Some(Notification::Delete(crate::client::delta::DeltaObject::Object(old))),
            (false, false) => None,
        },
        Notification::Delete(ref d) => d.object().is_some_and(selects).then_some(n),
    }
}

/// `EnqueueRequestForOwner` with `OnlyControllerOwner`: the controlling owner's key, if the
/// owner is of kind `primary`.
pub fn owner_of(n: &Notification, primary: Kind) -> Option<String> {
    let obj = n.object()?;
    let owner = obj.metadata.owner_references.iter().find(|r| r.controller == Some(true))?;
    (owner.kind == primary.name()).then(|| format!("{}/{}", obj.metadata.namespace, owner.name))
}

/// `WithLowPriorityWhenUnchanged`: the initial list and resyncs wait behind changes (only a
/// priority queue tells priorities apart).
pub fn priority(note: CallNote) -> i32 {
    match note {
        CallNote::InitialList | CallNote::ResyncSameRv => LOW_PRIORITY,
        _ => 0,
    }
}

/// The first of `predicates` that turns `n` away, if one does.
fn refused_by(predicates: &[Predicate], n: &Notification) -> Option<Predicate> {
    let Notification::Update { old, new } = n else { return None };
    predicates.iter().copied().find(|p| !p.update(old, new))
}

/// A handler that enqueues to `target`, filtered by `filter` and `predicates`, told `n`;
/// `primary` is the kind its controller reconciles (none: it feeds no controller).
pub fn handle(
    target: Enqueue,
    filter: Option<&LabelSelector>,
    predicates: &[Predicate],
    primary: Option<Kind>,
    n: Notification,
) -> Handled {
    let informed = n.call();
    let Some(seen) = filtered(filter, n) else {
        return Handled { call: informed, note: CallNote::FilteredOut, seen: None, request: None };
    };
    let call = seen.call();
    if let Some(predicate) = refused_by(predicates, &seen) {
        return Handled { call, note: CallNote::PredicateFalse { predicate }, seen: None, request: None };
    }
    let note = match &seen {
        _ if call != informed => CallNote::FilterTurned { from: informed },
        Notification::Add { is_in_initial_list: true, .. } => CallNote::InitialList,
        Notification::Update { old, new } if old.metadata.resource_version == new.metadata.resource_version => {
            CallNote::ResyncSameRv
        }
        Notification::Delete(d) if d.is_tombstone() => CallNote::Tombstone,
        _ => CallNote::None,
    };
    let key = match target {
        Enqueue::Object => Some(seen.key()),
        Enqueue::Owner => primary.and_then(|primary| owner_of(&seen, primary)),
        Enqueue::Nothing => None,
    };
    Handled { call, note, request: key.map(|k| (k, priority(note))), seen: Some(seen) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::api_object::OwnerReference;
    use std::rc::Rc;

    fn pod(name: &str, rv: &str, app: &str) -> Rc<ApiObject> {
        let mut o = ApiObject::new(Kind::Pod, "default", name).with_label("app", app);
        o.metadata.resource_version = rv.into();
        Rc::new(o)
    }

    #[test]
    fn semantics_4_a_filter_turns_an_update_across_its_line_into_an_add_or_a_delete() {
        let web = LabelSelector::parse("app=web").unwrap();
        let update = |old, new| Notification::Update { old: pod("a", "1", old), new: pod("a", "2", new) };
        let into = |n| handle(Enqueue::Object, Some(&web), &[], Some(Kind::Pod), n);
        assert_eq!(into(update("db", "web")).call, HandlerFn::OnAdd);
        assert_eq!(into(update("db", "web")).note, CallNote::FilterTurned { from: HandlerFn::OnUpdate });
        assert_eq!(into(update("web", "db")).call, HandlerFn::OnDelete);
        let dropped = into(update("db", "db"));
        assert_eq!((dropped.note, dropped.request), (CallNote::FilteredOut, None));
    }

    #[test]
    fn semantics_6_the_initial_list_and_resyncs_are_enqueued_at_low_priority() {
        let initial = Notification::Add { obj: pod("a", "1", "web"), is_in_initial_list: true };
        let h = handle(Enqueue::Object, None, &[], Some(Kind::Pod), initial);
        assert_eq!(h.request, Some(("default/a".to_string(), LOW_PRIORITY)));
        let resync = Notification::Update { old: pod("a", "1", "web"), new: pod("a", "1", "web") };
        assert_eq!(handle(Enqueue::Object, None, &[], Some(Kind::Pod), resync).note, CallNote::ResyncSameRv);
        let change = Notification::Update { old: pod("a", "1", "web"), new: pod("a", "2", "web") };
        assert_eq!(
            handle(Enqueue::Object, None, &[], Some(Kind::Pod), change).request,
            Some(("default/a".to_string(), 0))
        );
    }

    #[test]
    fn semantics_6_an_owned_object_enqueues_its_controlling_owner_of_the_primary_kind() {
        let mut owned = (*pod("web-1", "3", "web")).clone();
        owned.metadata.owner_references.push(OwnerReference {
            kind: "ReplicaSet".into(),
            name: "web".into(),
            controller: Some(true),
            ..Default::default()
        });
        let n = Notification::Add { obj: Rc::new(owned), is_in_initial_list: false };
        assert_eq!(owner_of(&n, Kind::ReplicaSet), Some("default/web".into()));
        assert_eq!(owner_of(&n, Kind::Deployment), None, "not the controller's kind");
        assert_eq!(handle(Enqueue::Nothing, None, &[], Some(Kind::ReplicaSet), n).request, None);
    }
}
