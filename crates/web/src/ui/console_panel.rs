//! The `kubectl` console: a command on the first line, a manifest below it for `-f -`;
//! Ctrl+Enter (or "Run") runs it. Buttons fill in the common commands.

use informer_sim::cluster::Kind;
use informer_sim::i18n::Lang;
use informer_sim::session::Action;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub transcript: String,
    /// The resource the presets ask about (Pods, when the controller watches them; else
    /// the one it watches), whether it watches Deployments (to scale one), and its user.
    pub kind: Kind,
    pub deployments: bool,
    pub account: String,
    pub on_action: Callback<Action>,
    pub lang: Lang,
}

/// The preset commands: (button label, command line), for the resource the controller
/// watches and its user — so lesson 8 asks about ConfigMaps, and about get beside list.
fn presets(kind: Kind, deployments: bool, account: &str, lang: Lang) -> Vec<(String, String)> {
    let resource = kind.resource();
    let mut presets = vec![
        (format!("kubectl get {resource}"), format!("kubectl get {resource}")),
        (format!("kubectl get {resource} -w"), format!("kubectl get {resource} -w")),
    ];
    if deployments {
        presets.push((tr!(lang, "Scale web to 5").into(), "kubectl scale deployment web --replicas=5".into()));
    }
    for verb in ["get", "list"] {
        presets.push((
            trf!(lang, "Can the controller {verb} {resource}?", &[("verb", &verb), ("resource", &resource)]),
            format!("kubectl auth can-i {verb} {resource} --as={account}"),
        ));
    }
    presets
}

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
    let quick = presets(props.kind, props.deployments, &props.account, lang).into_iter().map(|(name, command)| {
        let on_action = props.on_action.clone();
        html! { <button type="button" class="small secondary" onclick={Callback::from(move |_| on_action.emit(Action::Kubectl(command.clone())))}>{ name }</button> }
    });
    html! {
        <div class="console">
            <pre class="transcript" role="log" aria-live="polite" aria-label={tr!(lang, "kubectl output")}>{ &props.transcript }</pre>
            <label for="kubectl">{ "kubectl" }</label>
            <textarea id="kubectl" rows="3" spellcheck="false" value={(*entry).clone()} oninput={on_input} onkeydown={on_key}
                aria-describedby="kubectl-help" />
            <p id="kubectl-help" class="hint">{ tr!(lang, "get, get -w, create -f -, apply -f - (manifest on the next lines, YAML or JSON), scale, label, delete, auth can-i. Ctrl+Enter runs.") }</p>
            <div class="buttons">
                <button type="button" onclick={run.reform(|_: MouseEvent| ())}>{ tr!(lang, "Run") }</button>
                { for quick }
            </div>
        </div>
    }
}

/// The console's module: kubectl and the manifest reader for the session (installed when it
/// arrives), and the panels that write (the console, the object form).
pub struct ConsoleModule {
    pub console: fn(Props) -> Html,
    pub form: fn(super::object_form::Props) -> Html,
}

super::modules::split_point!(console, console_module, ConsoleModule, {
    // The session reaches kubectl and the manifest reader through the engine from now on.
    informer_sim::console::install(informer_sim::console::Engine::linked());
    ConsoleModule {
        console: |props| html! { <Console ..props /> },
        form: |props| html! { <super::object_form::ObjectForm ..props /> },
    }
});
