//! The objects in the cluster, with their resourceVersion; each can be loaded into the editor
//! or deleted.

use super::app::PageState;
use crate::cluster::Kind;
use crate::session::Action;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: PageState,
    pub on_edit: Callback<String>,
    pub on_action: Callback<Action>,
}

/// More objects than this are summarised, not listed.
const SHOWN: usize = 50;

#[function_component(ObjectsTable)]
pub fn objects_table(props: &Props) -> Html {
    let session = props.session.read();
    let tr = |en| crate::i18n::page::tr(session.lang, en);
    let cluster = &session.world().api;
    let total: usize = Kind::ALL.iter().filter_map(|k| cluster.watch_cache(*k)).map(|c| c.len()).sum();
    let objects: Vec<_> =
        Kind::ALL.iter().filter_map(|k| cluster.watch_cache(*k)).flat_map(|c| c.list("")).take(SHOWN).collect();
    if objects.is_empty() {
        return html! { <p class="empty">{ tr("No objects yet: create one above.") }</p> };
    }
    let rows = objects.iter().map(|obj| {
        let label = format!("{}/{}", obj.kind, obj.key());
        let edit = {
            let (on_edit, manifest) = (props.on_edit.clone(), obj.to_json_pretty());
            Callback::from(move |_| on_edit.emit(manifest.clone()))
        };
        let delete = {
            let on_action = props.on_action.clone();
            let (kind, namespace, name) = (obj.kind().unwrap_or(Kind::ConfigMap), obj.metadata.namespace.clone(), obj.metadata.name.clone());
            Callback::from(move |_| on_action.emit(Action::Delete { kind, namespace: namespace.clone(), name: name.clone() }))
        };
        html! {
            <tr>
                <td><span class="kind">{ &obj.kind }</span><span class="mono">{ obj.key() }</span></td>
                <td class="num">{ &obj.metadata.resource_version }</td>
                <td class="row-actions">
                    <button type="button" class="small" aria-label={format!("Edit {label}")} onclick={edit}>{ tr("Edit") }</button>
                    <button type="button" class="small danger" aria-label={format!("Delete {label}")} onclick={delete}>{ tr("Delete") }</button>
                </td>
            </tr>
        }
    });
    html! {
        <table class="objects" aria-label={tr("Objects")}>
            <thead><tr><th>{ tr("Object") }</th><th class="num">{ "RV" }</th><th><span class="visually-hidden">{ tr("Actions") }</span></th></tr></thead>
            <tbody>
                { for rows }
                if total > SHOWN {
                    <tr><td colspan="3" class="more">{ format!("… and {} more", total - SHOWN) }</td></tr>
                }
            </tbody>
        </table>
    }
}
