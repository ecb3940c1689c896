//! The objects in the cluster, with their resourceVersion; each can be loaded into the editor
//! or deleted.

use informer_sim::cluster::Kind;
use informer_sim::i18n::Lang;
use informer_sim::session::Action;
use informer_sim::views::ObjectRow;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub rows: Vec<ObjectRow>,
    pub total: usize,
    pub lang: Lang,
    /// Opens an object (kind, key) in the write form.
    pub on_edit: Callback<(Kind, String)>,
    pub on_action: Callback<Action>,
}

#[function_component(ObjectsTable)]
pub fn objects_table(props: &Props) -> Html {
    let lang = props.lang;
    if props.rows.is_empty() {
        return html! { <p class="empty">{ tr!(lang, "No objects yet: create one above.") }</p> };
    }
    let rows = props.rows.iter().map(|(kind, key, rv)| {
        let label = format!("{kind}/{key}");
        let edit = {
            let (on_edit, kind, key) = (props.on_edit.clone(), *kind, key.clone());
            Callback::from(move |_| on_edit.emit((kind, key.clone())))
        };
        let delete = {
            let kind = *kind;
            let (namespace, name) = key.split_once('/').map(|(n, m)| (n.to_string(), m.to_string())).unwrap_or_default();
            props.on_action.reform(move |_| Action::Delete { kind, namespace: namespace.clone(), name: name.clone() })
        };
        html! {
            <tr>
                <td><span class="kind">{ kind.name() }</span><span class="mono">{ key }</span></td>
                <td class="num">{ rv }</td>
                <td class="row-actions">
                    <button type="button" class="small" aria-label={trf!(lang, "Edit {label}", &[("label", &label)])} onclick={edit}>{ tr!(lang, "Edit") }</button>
                    <button type="button" class="small danger" aria-label={trf!(lang, "Delete {label}", &[("label", &label)])} onclick={delete}>{ tr!(lang, "Delete") }</button>
                </td>
            </tr>
        }
    });
    html! {
        <table class="objects" aria-label={tr!(lang, "Objects")}>
            <thead><tr><th>{ tr!(lang, "Object") }</th><th class="num">{ "RV" }</th><th><span class="visually-hidden">{ tr!(lang, "Actions") }</span></th></tr></thead>
            <tbody>
                { for rows }
                if props.total > props.rows.len() {
                    <tr><td colspan="3" class="more">{ trf!(lang, "… and {n} more", &[("n", &(props.total - props.rows.len()))]) }</td></tr>
                }
            </tbody>
        </table>
    }
}
