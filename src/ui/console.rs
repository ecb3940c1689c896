//! The `kubectl` console: a command on the first line, a manifest below it for `-f -`;
//! Ctrl+Enter (or "Run") runs it. Buttons fill in the common commands.

use crate::i18n::tr;
use crate::i18n::Lang;
use crate::session::Action;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub transcript: String,
    pub on_action: Callback<Action>,
    pub lang: Lang,
}

const COMMON: [(&str, &str); 4] = [
    ("kubectl get pods", "kubectl get pods"),
    ("kubectl get pods -w", "kubectl get pods -w"),
    ("Scale web to 5", "kubectl scale deployment web --replicas=5"),
    (
        "Can the controller list pods?",
        "kubectl auth can-i list pods --as=system:serviceaccount:default:playground-controller",
    ),
];

#[function_component(Console)]
pub fn console(props: &Props) -> Html {
    let lang = props.lang;
    let entry = use_state(|| "kubectl get pods".to_string());
    let run = {
        let (entry, on_action) = (entry.clone(), props.on_action.clone());
        Callback::from(move |_| {
            if !entry.trim().is_empty() {
                on_action.emit(Action::Kubectl((*entry).clone()));
            }
        })
    };
    let on_input = {
        let entry = entry.clone();
        Callback::from(move |e: InputEvent| {
            entry.set(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value())
        })
    };
    let on_key = {
        let run = run.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                run.emit(());
            }
        })
    };
    let quick = COMMON.iter().map(|(name, command)| {
        let on_action = props.on_action.clone();
        let command = command.to_string();
        html! { <button type="button" class="small secondary" onclick={Callback::from(move |_| on_action.emit(Action::Kubectl(command.clone())))}>{ tr(lang, name) }</button> }
    });
    html! {
        <div class="console">
            <pre class="transcript" role="log" aria-live="polite" aria-label={tr(lang, "kubectl output")}>{ &props.transcript }</pre>
            <label for="kubectl">{ "kubectl" }</label>
            <textarea id="kubectl" rows="3" spellcheck="false" value={(*entry).clone()} oninput={on_input} onkeydown={on_key}
                aria-describedby="kubectl-help" />
            <p id="kubectl-help" class="hint">{ tr(lang, "get, get -w, create -f -, apply -f - (manifest on the next lines, YAML or JSON), scale, label, delete, auth can-i. Ctrl+Enter runs.") }</p>
            <div class="buttons">
                <button type="button" onclick={run.reform(|_: MouseEvent| ())}>{ tr(lang, "Run") }</button>
                { for quick }
            </div>
        </div>
    }
}
