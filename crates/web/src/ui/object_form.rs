//! The manifest editor: pick a kind for an example, edit the JSON, create, update or delete
//! it (as the cluster administrator).

use informer_sim::cluster::Kind;
use informer_sim::i18n::Lang;
use informer_sim::session::{Action, Session};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub manifest: String,
    pub on_edit: Callback<String>,
    pub on_action: Callback<Action>,
    pub lang: Lang,
}

#[function_component(ObjectForm)]
pub fn object_form(props: &Props) -> Html {
    let lang = props.lang;
    let on_kind = {
        let on_edit = props.on_edit.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Some(kind) = Kind::parse(&value) {
                on_edit.emit(Session::example(kind, "default", &format!("demo-{}", kind.name().to_ascii_lowercase())));
            }
        })
    };
    let on_text = {
        let on_edit = props.on_edit.clone();
        Callback::from(move |e: InputEvent| {
            on_edit.emit(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value())
        })
    };
    let act = |make: fn(String) -> Action| {
        let (on_action, manifest) = (props.on_action.clone(), props.manifest.clone());
        Callback::from(move |_| on_action.emit(make(manifest.clone())))
    };
    html! {
        <div class="object-form">
            <label for="kind">{ tr!(lang, "Example kind") }</label>
            <select id="kind" onchange={on_kind}>
                { for Kind::ALL.iter().map(|k| html! { <option value={k.name()} selected={*k == Kind::ConfigMap}>{ k.name() }</option> }) }
            </select>
            <label for="manifest">{ tr!(lang, "Manifest (JSON)") }</label>
            <textarea id="manifest" rows="12" spellcheck="false" value={props.manifest.clone()} oninput={on_text} />
            <div class="buttons">
                <button type="button" onclick={act(Action::Create)}>{ tr!(lang, "Create") }</button>
                <button type="button" onclick={act(Action::Update)}>{ tr!(lang, "Update") }</button>
                <button type="button" class="danger" onclick={act(Action::DeleteManifest)}>{ tr!(lang, "Delete") }</button>
            </div>
        </div>
    }
}
