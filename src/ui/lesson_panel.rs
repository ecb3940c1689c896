//! The lesson: a scenario picker, the narration that follows the step (and rewinds with it),
//! the stage to look at, and predict-then-reveal questions.

use super::pipeline_diagram::label;
use crate::i18n::page::tr;
use crate::i18n::Lang;
use crate::scenario::library;
use crate::session::Action;
use crate::sim::Stage;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: super::app::PageState,
    pub on_action: Callback<Action>,
}

#[function_component(LessonPanel)]
pub fn lesson_panel(props: &Props) -> Html {
    let session = props.session.read();
    let lang = session.lang;
    let current = session.scenario.as_ref().map(|s| s.id.clone()).unwrap_or_default();
    let scenarios = library::all().unwrap_or_default();
    let on_pick = props
        .on_action
        .reform(|e: Event| Action::LoadScenario(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()));
    let set_lang = |l: Lang| props.on_action.reform(move |_| Action::SetLang(l));
    let narration = session.narration().map(|(text, look)| {
        let look = look.and_then(Stage::named);
        html! {
            <div class="narration" aria-live="polite">
                <p lang={if lang == Lang::Ko { "ko" } else { "en" }}>{ text.get(lang) }</p>
                if let Some(stage) = look {
                    <p class="look-at">{ format!("{}: {}", tr(lang, "Look at"), tr(lang, label(stage))) }</p>
                }
            </div>
        }
    });
    let summary = session.scenario.as_ref().map(|s| html! { <p class="summary">{ s.summary.get(lang) }</p> });
    let questions = session.questions().into_iter().map(|(i, q, answer)| {
        let choices = q.choices.iter().enumerate().map(|(c, text)| {
            let pick = props.on_action.reform(move |_| Action::Answer(i, c));
            let class = match answer {
                Some(_) if c == q.answer => "choice right",
                Some(a) if a == c => "choice wrong",
                _ => "choice",
            };
            html! { <button type="button" class={class} disabled={answer.is_some()} onclick={pick}>{ text.get(lang) }</button> }
        });
        html! {
            <div class="question" role="group" aria-label={format!("{} {}", tr(lang, "Question"), i + 1)}>
                <p class="ask">{ q.ask.get(lang) }</p>
                <div class="choices">{ for choices }</div>
                { match answer {
                    Some(a) => html! { <p class="reveal" role="status">
                        <strong>{ if a == q.answer { tr(lang, "Correct.") } else { tr(lang, "Not quite.") } }</strong>{ " " }{ q.explain.get(lang) }
                    </p> },
                    None => html! { <p class="hint">{ tr(lang, "Answer to continue; autoplay waits.") }</p> },
                } }
            </div>
        }
    });
    html! {
        <div class="lesson">
            <div class="lesson-bar">
                <label class="inline" for="scenario">{ tr(lang, "Scenario") }</label>
                <select id="scenario" onchange={on_pick}>
                    <option value="" selected={current.is_empty()}>{ tr(lang, "Free play (Deployment, Pods, kubelet)") }</option>
                    { for scenarios.iter().enumerate().map(|(n, s)| html! {
                        <option value={s.id.clone()} selected={s.id == current}>{ format!("{}. {}", n + 1, s.title.get(lang)) }</option>
                    }) }
                </select>
                <span class="lang" role="group" aria-label={tr(lang, "Language")}>
                    <button type="button" class="small secondary" lang="ko" aria-pressed={(lang == Lang::Ko).to_string()} onclick={set_lang(Lang::Ko)}>{ "한국어" }</button>
                    <button type="button" class="small secondary" lang="en" aria-pressed={(lang == Lang::En).to_string()} onclick={set_lang(Lang::En)}>{ "English" }</button>
                </span>
            </div>
            { for summary }
            { for narration }
            { for questions }
        </div>
    }
}
