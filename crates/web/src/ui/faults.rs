//! Fault injection: each a real button, taking effect at the current step.

use informer_sim::cluster::Verb;
use informer_sim::i18n::Lang;
use informer_sim::i18n::{tr, Phrase};
use informer_sim::session::Action;
use informer_sim::world::Fault;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub latency_ms: u64,
    pub on_action: Callback<Action>,
    pub lang: Lang,
}

#[function_component(Faults)]
pub fn faults(props: &Props) -> Html {
    let lang = props.lang;
    let button = |name: Phrase, fault: Fault| {
        let on_action = props.on_action.clone();
        let onclick = Callback::from(move |_| on_action.emit(Action::Fault(fault.clone())));
        html! { <button type="button" class="fault" {onclick}>{ tr(lang, name) }</button> }
    };
    let on_latency = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            if let Ok(ms) = value.parse() {
                on_action.emit(Action::Fault(Fault::Latency(ms)));
            }
        })
    };
    html! {
        <div class="faults" role="group" aria-label={tr!(lang, "Faults")}>
            { button(phrase!("Disconnect watch"), Fault::DisconnectWatch) }
            { button(phrase!("Compact store"), Fault::CompactStore) }
            { button(phrase!("Restart API server"), Fault::RestartApiServer) }
            { button(phrase!("Revoke list"), Fault::Revoke(Verb::List)) }
            { button(phrase!("Revoke watch"), Fault::Revoke(Verb::Watch)) }
            { button(phrase!("Grant list"), Fault::Grant(Verb::List)) }
            { button(phrase!("Grant watch"), Fault::Grant(Verb::Watch)) }
            { button(phrase!("Drop next event"), Fault::DropNextEvent) }
            <label class="inline" for="latency">{ tr!(lang, "Network latency") }</label>
            <input id="latency" type="number" min="0" max="10000" step="5" value={props.latency_ms.to_string()} onchange={on_latency} />
            <span class="unit">{ "ms" }</span>
        </div>
    }
}
