//! Every step as one line, newest first, filterable by stage; a polite live region, so a
//! screen reader hears each step.

use informer_sim::i18n::tr;
use informer_sim::i18n::Lang;
use informer_sim::kernel::Stage;
use informer_sim::session::Action;
use informer_sim::views::diagram::{label, token};
use informer_sim::views::LogLine;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lines: Vec<LogLine>,
    pub filter: Option<Stage>,
    pub lang: Lang,
    pub on_action: Callback<Action>,
}

#[function_component(EventLog)]
pub fn event_log(props: &Props) -> Html {
    let lang = props.lang;
    let era = use_context::<informer_sim::era::Era>().unwrap_or_default();
    let on_filter = props.on_action.reform(|e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::Filter(Stage::named(&value))
    });
    let lines = props.lines.iter().map(|e| {
        let (class, _) = token(e.kind);
        html! {
            <li key={e.step} class={classes!("line", class)}>
                <span class="step">{ format!("#{}", e.step) }</span>
                <span class="time">{ &e.time }</span>
                <span class="route">{ format!("{} → {}", tr(lang, label(e.from, era)), tr(lang, label(e.to, era))) }</span>
                <span class="kind">{ e.kind.name() }</span>
                <span class="summary">{ &e.summary }</span>
            </li>
        }
    });
    html! {
        <div class="event-log">
            <label class="inline" for="log-filter">{ tr!(lang, "Filter log by stage") }</label>
            <select id="log-filter" onchange={on_filter}>
                <option value="" selected={props.filter.is_none()}>{ tr!(lang, "All stages") }</option>
                { for Stage::ALL.iter().map(|s| html! { <option value={s.name()} selected={props.filter == Some(*s)}>{ tr(lang, label(*s, era)) }</option> }) }
            </select>
            <div role="log" aria-live="polite" aria-label={tr!(lang, "Event log")}><ol class="lines" tabindex="0">{ for lines }</ol></div>
        </div>
    }
}
