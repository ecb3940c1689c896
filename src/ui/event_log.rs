//! Every step as one line, newest first, filterable by stage; a polite live region, so a
//! screen reader hears each step.

use super::pipeline_diagram::{label, token};
use crate::session::Action;
use crate::sim::Stage;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: super::app::PageState,
    pub on_action: Callback<Action>,
}

/// Lines shown at most (older steps stay one scrub away).
const SHOWN: usize = 200;

#[function_component(EventLog)]
pub fn event_log(props: &Props) -> Html {
    let session = props.session.read();
    let lang = session.lang;
    let filter = session.filter;
    let on_filter = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            on_action.emit(Action::Filter(Stage::ALL.iter().copied().find(|s| s.name() == value)));
        })
    };
    let lines = session
        .visible_trace()
        .iter()
        .rev()
        .filter(|e| filter.is_none_or(|s| e.from == s || e.to == s))
        .take(SHOWN)
        .map(|e| {
            let (class, _) = token(e.kind);
            html! {
                <li class={classes!("line", class)}>
                    <span class="step">{ format!("#{}", e.step) }</span>
                    <span class="time">{ format!("{}.{:03}s", e.time_ms / 1000, e.time_ms % 1000) }</span>
                    <span class="route">{ format!("{} → {}", crate::i18n::page::tr(lang, label(e.from)), crate::i18n::page::tr(lang, label(e.to))) }</span>
                    <span class="kind">{ e.kind.name() }</span>
                    <span class="summary">{ crate::i18n::summary(e, lang) }</span>
                </li>
            }
        });
    html! {
        <div class="event-log">
            <label class="inline" for="log-filter">{ crate::i18n::page::tr(lang, "Filter log by stage") }</label>
            <select id="log-filter" onchange={on_filter}>
                <option value="" selected={filter.is_none()}>{ crate::i18n::page::tr(lang, "All stages") }</option>
                { for Stage::ALL.iter().map(|s| html! { <option value={s.name()} selected={filter == Some(*s)}>{ crate::i18n::page::tr(lang, label(*s)) }</option> }) }
            </select>
            <ol class="lines" role="log" aria-live="polite" aria-label={crate::i18n::page::tr(lang, "Event log")}>{ for lines }</ol>
        </div>
    }
}
