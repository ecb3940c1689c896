//! A lesson's challenges: the task, hints shown one at a time, the goal checked as the learner
//! acts (`Session::challenges`), the link that proves a solved one, and the solution played on
//! request.

use super::marked::marked;
use informer_sim::i18n::Lang;
use informer_sim::session::Action;
use informer_sim::views::ChallengeView;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub challenge: ChallengeView,
    /// Solved before, on this device.
    pub solved_before: bool,
    /// The address of the state shown: with the learner's moves, the proof of a solved one.
    pub link: AttrValue,
    pub lang: Lang,
    pub on_action: Callback<Action>,
    /// In a workshop room: where each hint opened and a solution played is counted.
    #[prop_or_default]
    pub tell_room: Option<Callback<(usize, informer_sim::room::ChallengeMark)>>,
}

#[function_component(ChallengePanel)]
pub fn challenge_panel(props: &Props) -> Html {
    let (lang, c) = (props.lang, &props.challenge);
    let hints_shown = use_state(|| 0usize);
    let index = c.index;
    let tell_room = props.tell_room.clone();
    let show_hint = {
        let (hints_shown, tell_room) = (hints_shown.clone(), tell_room.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(tell) = &tell_room {
                tell.emit((index, informer_sim::room::ChallengeMark::Hint(*hints_shown)));
            }
            hints_shown.set(*hints_shown + 1)
        })
    };
    let play_solution = {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(tell) = &tell_room {
                tell.emit((index, informer_sim::room::ChallengeMark::Solution));
            }
            on_action.emit(Action::PlaySolution(index))
        })
    };
    let shown = (*hints_shown).min(c.hints.len());
    html! {
        <section class={classes!("challenge", c.met.then_some("met"))} aria-label={trf!(lang, "Challenge: {task}", &[("task", &informer_sim::scenario::marked::plain(c.task.get(lang)))])}>
            <h3>{ tr!(lang, "Challenge") }
                if props.solved_before && !c.met {
                    { " " }<span class="solved-before">{ tr!(lang, "(solved before)") }</span>
                }
            </h3>
            <p class="task" lang={lang.code()}>{ marked(c.task.get(lang)) }</p>
            <ol class="hints">
                { for c.hints[..shown].iter().map(|h| html! { <li lang={lang.code()}>{ marked(h.get(lang)) }</li> }) }
            </ol>
            <p class="goal-state" role="status">
                if c.met {
                    <strong>{ tr!(lang, "Solved.") }</strong>{ " " }{ marked(c.solved.get(lang)) }
                } else {
                    { tr!(lang, "Not solved yet: the page checks the goal as you act.") }
                }
            </p>
            <div class="challenge-actions">
                if c.met {
                    <a class="proof" href={props.link.clone()}>{ tr!(lang, "Link to your solution") }</a>
                }
                if shown < c.hints.len() && !c.met {
                    <button type="button" class="small secondary" onclick={show_hint}>{
                        trf!(lang, "Show a hint ({n} of {all})", &[("n", &(shown + 1)), ("all", &c.hints.len())])
                    }</button>
                }
                <button type="button" class="small secondary" onclick={play_solution}>{ tr!(lang, "Play the solution") }</button>
            </div>
        </section>
    }
}
