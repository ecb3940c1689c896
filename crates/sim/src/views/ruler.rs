//! The revision ruler: who is behind the store, and by how much.

use super::*;

/// One mark of the revision ruler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Etcd,
    Compacted,
    CacheOldest,
    Cache,
    Reflector,
    Indexer,
}

/// Who is behind the store, and by how much.
pub fn ruler(session: &Session) -> Vec<(Mark, i64)> {
    let world = session.world();
    let store = world.api.store();
    let kind = world.controllers.first().map_or(Kind::Pod, |c| c.reconciler.primary());
    let stack = world.informer_for(kind).or(world.informers.first());
    let mut marks = vec![(Mark::Etcd, store.revision())];
    if let Some(c) = store.compact_revision() {
        marks.push((Mark::Compacted, c));
    }
    if let Some(cache) = world.api.watch_cache(kind) {
        marks.push((Mark::CacheOldest, cache.oldest_servable()));
        marks.push((Mark::Cache, cache.revision()));
    }
    let reflector = stack.and_then(|s| s.pipeline.reflector.last_sync_resource_version.parse().ok()).unwrap_or(0);
    marks.push((Mark::Reflector, reflector));
    marks.push((Mark::Indexer, stack.map_or(0, |s| s.pipeline.informer.indexer.last_store_sync_resource_version())));
    marks
}
