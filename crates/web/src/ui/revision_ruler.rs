//! Who is behind, and by how much: the store's revision, the watch cache's window, the
//! reflector's lastSyncResourceVersion and the indexer's newest resourceVersion, on one axis.

use informer_sim::i18n::Lang;
use informer_sim::i18n::{decimal, tr, Phrase};
use informer_sim::views::Mark;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub marks: Vec<(Mark, i64)>,
    pub lang: Lang,
}

fn name(mark: Mark) -> (Phrase, &'static str) {
    match mark {
        Mark::Etcd => (phrase!("etcd revision"), "store"),
        Mark::Compacted => (phrase!("compacted at"), "compact"),
        Mark::CacheOldest => (phrase!("watch cache oldest RV"), "window"),
        Mark::Cache => (phrase!("watch cache RV"), "window"),
        Mark::Reflector => (phrase!("reflector lastSyncResourceVersion"), "reflector"),
        Mark::Indexer => (phrase!("indexer newest RV"), "indexer"),
    }
}

#[function_component(RevisionRuler)]
pub fn revision_ruler(props: &Props) -> Html {
    let lang = props.lang;
    let store = props.marks.iter().find(|(m, _)| *m == Mark::Etcd).map_or(1, |(_, rv)| *rv);
    let scale = store.max(1) as f64;
    html! {
        <div class="ruler" role="group" aria-label={tr!(lang, "Revision ruler")}>
            { for props.marks.iter().map(|(mark, rv)| {
                let (label, class) = name(*mark);
                let behind = store - rv;
                let width = format!("width: {}%", decimal(100.0 * *rv as f64 / scale));
                html! {
                    <div class={classes!("mark", class)}>
                        <span class="name">{ tr(lang, label) }</span>
                        <span class="bar"><span style={width}></span></span>
                        <span class="value">{ rv }{ if behind > 0 && *mark != Mark::Compacted { format!(" (−{behind})") } else { String::new() } }</span>
                    </div>
                }
            }) }
        </div>
    }
}
