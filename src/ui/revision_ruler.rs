//! Who is behind, and by how much: the store's revision, the watch cache's window, the
//! reflector's lastSyncResourceVersion, the indexer's newest resourceVersion and the
//! controller's last write, on one axis.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: super::app::PageState,
}

#[function_component(RevisionRuler)]
pub fn revision_ruler(props: &Props) -> Html {
    let session = props.session.read();
    let tr = |en| crate::i18n::page::tr(session.lang, en);
    let world = session.world();
    let store = world.api.store().revision();
    let kind = world.reconciler.primary();
    let cache = world.api.watch_cache(kind);
    let stack = world.informer_for(kind).or(world.informers.first());
    let reflector_rv: i64 = stack.and_then(|s| s.reflector.last_sync_resource_version.parse().ok()).unwrap_or(0);
    let indexer_rv = stack.map_or(0, |s| s.informer.indexer.last_store_sync_resource_version());
    let mut marks = vec![(tr("etcd revision"), store, "store")];
    if let Some(c) = world.api.store().compact_revision() {
        marks.push((tr("compacted at"), c, "compact"));
    }
    if let Some(cache) = cache {
        marks.push((tr("watch cache oldest RV"), cache.oldest_servable(), "window"));
        marks.push((tr("watch cache RV"), cache.revision(), "window"));
    }
    marks.push((tr("reflector lastSyncResourceVersion"), reflector_rv, "reflector"));
    marks.push((tr("indexer newest RV"), indexer_rv, "indexer"));
    let scale = store.max(1) as f64;
    html! {
        <div class="ruler" role="group" aria-label={tr("Revision ruler")}>
            { for marks.into_iter().map(|(name, rv, class)| {
                let behind = store - rv;
                let width = format!("width: {:.1}%", 100.0 * rv as f64 / scale);
                html! {
                    <div class={classes!("mark", class)}>
                        <span class="name">{ name }</span>
                        <span class="bar"><span style={width}></span></span>
                        <span class="value">{ rv }{ if behind > 0 && class != "compact" { format!(" (−{behind})") } else { String::new() } }</span>
                    </div>
                }
            }) }
        </div>
    }
}
