//! The lesson: a scenario picker, the narration that follows the step (and rewinds with it),
//! the stage to look at, and predict-then-reveal questions.

use super::challenge_panel::ChallengePanel;
use super::marked::marked;
use informer_sim::i18n::tr;
use informer_sim::i18n::Lang;
use informer_sim::session::Action;
use informer_sim::views::diagram::label;
use informer_sim::views::progress::{self, Progress};
use informer_sim::views::{Closing, LessonEntry, LessonView, Narration};
use yew::prelude::*;

/// Where the person's progress is kept on their device.
const PROGRESS_KEY: &str = "informer-playground.progress";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The person's progress, read once, and kept as the lesson view shows more done.
#[hook]
fn use_progress(view: &LessonView) -> UseStateHandle<Progress> {
    let progress = use_state(|| {
        Progress::read(&storage().and_then(|s| s.get_item(PROGRESS_KEY).ok().flatten()).unwrap_or_default())
    });
    {
        let progress = progress.clone();
        let done = progress::done(view).map(|(id, mark)| (id.to_string(), mark, progress::met(view)));
        use_effect_with(done, move |done| {
            let mut next = (*progress).clone();
            let recorded = done.as_ref().is_some_and(|(id, mark, met)| {
                let marked = next.record((id, *mark));
                next.record_solved(id, met) || marked
            });
            if recorded {
                if let Some(storage) = storage() {
                    let _ = storage.set_item(PROGRESS_KEY, &next.write());
                }
                progress.set(next);
            }
        });
    }
    progress
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: LessonView,
    /// The address of the state shown (a solved challenge's proof).
    pub link: AttrValue,
    pub lang: Lang,
    pub on_action: Callback<Action>,
    /// In a workshop room: its questions are voted on there, its challenges counted.
    #[prop_or_default]
    pub room: Option<super::in_room::InRoom>,
    /// The Korean phrasebook, asked for by the language switch, could not arrive.
    #[prop_or_default]
    pub korean_failed: bool,
}

#[function_component(LessonPanel)]
pub fn lesson_panel(props: &Props) -> Html {
    let era = use_context::<informer_sim::era::Era>().unwrap_or_default();
    let room_votes = props.room.as_ref().is_some_and(|room| room.votes);
    let (lang, v) = (props.lang, &props.view);
    let progress = use_progress(v);
    let clean_slate = {
        let progress = progress.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(storage) = storage() {
                let _ = storage.remove_item(PROGRESS_KEY);
            }
            progress.set(Progress::default());
        })
    };
    let current = v.current.clone().unwrap_or_default();
    let on_pick = props
        .on_action
        .reform(|e: Event| Action::LoadScenario(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()));
    let set_lang = |l: Lang| props.on_action.reform(move |_| Action::SetLang(l));
    let on_compare = props.on_action.reform(|e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::Compare(informer_sim::era::Era::parse(&value))
    });
    let on_era = props.on_action.reform(|e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        Action::SetEra(informer_sim::era::Era::parse(&value).unwrap_or_default())
    });
    let next_note = props.on_action.reform(|_: MouseEvent| Action::NextNote);
    let next_note_button = html! {
        <button type="button" class="small secondary next-note" aria-keyshortcuts="N" onclick={next_note}>{ tr!(lang, "Next note") }</button>
    };
    let narration = v.narration.as_ref().map(|Narration { text, look_at: look, corrects_article, offer }| {
        let offers = offer.iter().map(|line| {
            let run = props.on_action.reform({
                let line = line.clone();
                move |_| Action::Kubectl(line.clone())
            });
            let name = trf!(lang, "Run in the console: {line}", &[("line", line)]);
            html! { <button type="button" class="small secondary offer mono" aria-label={name} onclick={run}>{ format!("$ {line}") }</button> }
        });
        html! {
            <div class={classes!("narration", corrects_article.then_some("corrects-article"))} aria-live="polite">
                if *corrects_article {
                    <p class="article-mark">{ tr!(lang, "Where the article is wrong or out of date") }</p>
                }
                <p lang={lang.code()}>{ marked(text.get(lang)) }</p>
                if !offer.is_empty() {
                    <div class="offers">{ for offers }</div>
                }
                <div class="narration-foot">
                    if let Some(stage) = look {
                        <p class="look-at">{ format!("{}: {}", tr!(lang, "Look at"), tr(lang, label(*stage, era))) }</p>
                    }
                    { next_note_button.clone() }
                </div>
            </div>
        }
    });
    let summary = v.summary.as_ref().map(|s| html! { <p class="summary">{ marked(s.get(lang)) }</p> });
    let questions = v.questions.iter().map(|q| {
        let i = q.index;
        let choices = q.choices.iter().enumerate().map(|(c, text)| {
            let pick = props.on_action.reform(move |_| Action::Answer(i, c));
            let class = match q.given {
                Some(_) if c == q.answer => "choice right",
                Some(a) if a == c => "choice wrong",
                _ => "choice",
            };
            html! { <button type="button" class={class} disabled={q.given.is_some()} onclick={pick}>{ marked(text.get(lang)) }</button> }
        });
        // In a room the question is voted on in the room's bar, together, not answered alone.
        if room_votes && q.given.is_none() {
            return html! {
                <div class="question" role="group" aria-label={trf!(lang, "Question {n}", &[("n", &(i + 1))])}>
                    <p class="ask">{ marked(q.ask.get(lang)) }</p>
                    <p class="hint">{ tr!(lang, "The room votes on this question: answer in the room's bar when the facilitator opens the vote.") }</p>
                </div>
            };
        }
        html! {
            <div class="question" role="group" aria-label={trf!(lang, "Question {n}", &[("n", &(i + 1))])}>
                <p class="ask">{ marked(q.ask.get(lang)) }</p>
                <div class="choices">{ for choices }</div>
                { match q.given {
                    Some(a) => html! { <p class="reveal" role="status">
                        <strong>{ if a == q.answer { tr!(lang, "Correct.") } else { tr!(lang, "Not quite.") } }</strong>{ " " }{ marked(q.explain.get(lang)) }
                        if q.explains_a_step {
                            { " " }<button type="button" class="link" onclick={props.on_action.reform(move |_| Action::ShowExplained(i))}>{ tr!(lang, "See it on the timeline") }</button>
                        }
                    </p> },
                    None => html! { <p class="hint">{ tr!(lang, "Answer to continue; autoplay waits.") }</p> },
                } }
            </div>
        }
    });
    html! {
        <div class="lesson">
            <div class="lesson-bar">
                <label class="inline" for="scenario">{ tr!(lang, "Scenario") }</label>
                <select id="scenario" onchange={on_pick}>
                    <option value="" selected={current.is_empty()}>{ tr!(lang, "Free play (Deployment, Pods, kubelet)") }</option>
                    { for v.lessons.iter().enumerate().map(|(n, LessonEntry { id, title, extra, outside })| html! {
                        <option value={id.clone()} selected={*id == current}>{
                            format!("{}{}{}", if progress.mark(id).finished { "✓ " } else { "" },
                                if progress.solved_in(id) > 0 { "★ " } else { "" },
                                if *outside { trf!(lang, "{title} (opened from outside)", &[("title", &title.get(lang))]) }
                                else if *extra { trf!(lang, "{n}. {title} (beyond the articles)", &[("n", &(n + 1)), ("title", &title.get(lang))]) }
                                else { format!("{}. {}", n + 1, title.get(lang)) })
                        }</option>
                    }) }
                </select>
                if !progress.is_empty() {
                    <button type="button" class="small secondary clean-slate" onclick={clean_slate}>{ tr!(lang, "Forget my progress") }</button>
                }
                <label class="inline" for="era">{ tr!(lang, "Kubernetes release") }</label>
                <select id="era" onchange={on_era}>
                    { for v.eras.iter().map(|e| html! {
                        <option value={e.name()} selected={*e == v.era}>{
                            if *e == informer_sim::era::Era::CURRENT { trf!(lang, "{release} (current)", &[("release", e)]) } else { e.to_string() }
                        }</option>
                    }) }
                </select>
                <label class="inline" for="compare">{ tr!(lang, "Compare with") }</label>
                <select id="compare" onchange={on_compare}>
                    <option value="" selected={v.compared.is_none()}>{ tr!(lang, "no other release") }</option>
                    { for v.eras.iter().filter(|e| **e != v.era).map(|e| html! {
                        <option value={e.name()} selected={v.compared == Some(*e)}>{ e.to_string() }</option>
                    }) }
                </select>
                <span class="lang" role="group" aria-label={tr!(lang, "Language")}>
                    <button type="button" class="small secondary" lang="ko" aria-pressed={(lang == Lang::Ko).to_string()} onclick={set_lang(Lang::Ko)}>{ "한국어" }</button>
                    <button type="button" class="small secondary" lang="en" aria-pressed={(lang == Lang::En).to_string()} onclick={set_lang(Lang::En)}>{ "English" }</button>
                </span>
            </div>
            if props.korean_failed {
                { super::modules::failed(super::modules::Module::Korean, lang) }
            }
            { for summary }
            if v.live {
                <p class="hint">{ tr!(lang, "Live mode: real clients write to serve-api's world, so this lesson's notes, questions and challenges are left out.") }</p>
            }
            { for narration }
            // Before the first note, the button stands alone.
            if v.current.is_some() && v.narration.is_none() && !v.live {
                { next_note_button }
            }
            { for questions }
            { for v.challenges.iter().map(|c| html! {
                <ChallengePanel tell_room={props.room.as_ref().map(|r| r.on_challenge.clone())} key={format!("{current}/{}", c.id)} challenge={c.clone()}
                    solved_before={progress.is_solved(&current, &c.id)} link={props.link.clone()}
                    {lang} on_action={props.on_action.clone()} />
            }) }
            if let Some(Closing { recap, discuss }) = &v.closing {
                <section class="closing" aria-label={tr!(lang, "End of the lesson")}>
                    <h3>{ tr!(lang, "End of the lesson") }</h3>
                    if let Some(recap) = recap {
                        <p class="recap"><strong>{ tr!(lang, "Remember:") }</strong>{ " " }{ marked(recap.get(lang)) }</p>
                    }
                    if !discuss.is_empty() {
                        <p class="discuss-title">{ tr!(lang, "To discuss") }</p>
                        <ul class="discuss">{ for discuss.iter().map(|q| html! { <li>{ marked(q.get(lang)) }</li> }) }</ul>
                    }
                </section>
            }
        </div>
    }
}
