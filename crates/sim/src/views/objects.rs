//! The objects table and the write form's manifest of an object.

use super::*;

/// One object of the objects table: (kind, key, resourceVersion). Its manifest is written
/// only when it is opened for editing ([`manifest`]): not for every row at every step.
pub type ObjectRow = (Kind, String, String);

/// The first objects in the cluster, and how many there are.
pub fn objects(session: &Session, n: usize) -> (Vec<ObjectRow>, usize) {
    let api = &session.world().api;
    let total = Kind::ALL.iter().filter_map(|k| api.watch_cache(*k)).map(|c| c.len()).sum();
    let rows = Kind::ALL
        .iter()
        .filter_map(|k| api.watch_cache(*k).map(|c| (k, c)))
        .flat_map(|(k, c)| c.list("").map(move |o| (*k, o)))
        .take(n)
        .map(|(k, o)| (k, o.key(), o.metadata.resource_version.clone()))
        .collect();
    (rows, total)
}

/// An object of the cluster as JSON, for the write form.
pub fn manifest(session: &Session, kind: Kind, key: &str) -> Option<String> {
    session.world().api.watch_cache(kind)?.list("").find(|o| o.key() == key).map(|o| o.to_json_pretty())
}
