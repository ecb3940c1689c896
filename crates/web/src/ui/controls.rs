//! Stepping and time travel: "Step back", "Step forward", "Play"/"Pause", "Reset", "Speed"
//! "Fast-forward" over a bulk phase and the "Timeline" slider. Keyboard: Space plays or
//! pauses, Right/Left step, F fast-forwards, Home resets.

use informer_sim::i18n::Lang;
use informer_sim::session::Action;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub step: u64,
    /// The furthest step of this branch (the timeline's end).
    pub horizon: u64,
    /// The steps the timeline may show (an embed's `from`/`to`; else all).
    pub range: (u64, u64),
    pub playing: bool,
    /// A bulk phase is under way: Fast-forward can pass over it.
    pub bulk: bool,
    pub speed: u32,
    pub on_action: Callback<Action>,
    pub on_play: Callback<bool>,
    pub on_speed: Callback<u32>,
    pub lang: Lang,
}

#[function_component(Controls)]
pub fn controls(props: &Props) -> Html {
    let lang = props.lang;
    let send = |action: Action| {
        let on_action = props.on_action.clone();
        Callback::from(move |_| on_action.emit(action.clone()))
    };
    let toggle = {
        let (on_play, playing) = (props.on_play.clone(), props.playing);
        Callback::from(move |_| on_play.emit(!playing))
    };
    let on_speed = {
        let on_speed = props.on_speed.clone();
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            on_speed.emit(value.parse().unwrap_or(4));
        })
    };
    let on_scrub = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            if let Ok(step) = value.parse() {
                on_action.emit(Action::JumpTo(step));
            }
        })
    };
    // The timeline reaches past the horizon (to at least step 10,000), so scrubbing right
    // also runs the simulation ahead.
    let end = (props.horizon.max(props.step) + 1_000).max(10_000).min(props.range.1);
    let start = props.range.0;
    html! {
        <div class="controls" role="toolbar" aria-label={tr!(lang, "Stepping")}>
            <button type="button" class="step-back" onclick={send(Action::StepBack)} disabled={props.step <= start} aria-keyshortcuts="ArrowLeft">{ tr!(lang, "Step back") }</button>
            <button type="button" class="step-forward" onclick={send(Action::StepForward)} disabled={props.step >= props.range.1} aria-keyshortcuts="ArrowRight">{ tr!(lang, "Step forward") }</button>
            <button type="button" class="secondary" onclick={send(Action::FastForward)} disabled={!props.bulk} aria-keyshortcuts="F" title={tr!(lang, "Pass over the bulk phase under way (thousands of steps of the same kind) in one jump")}>{ tr!(lang, "Fast-forward") }</button>
            <button type="button" class="play" onclick={toggle} aria-keyshortcuts="Space">{ if props.playing { tr!(lang, "Pause") } else { tr!(lang, "Play") } }</button>
            <button type="button" class="secondary" onclick={send(Action::Reset)} aria-keyshortcuts="Home">{ tr!(lang, "Reset") }</button>
            <label class="inline" for="speed">{ tr!(lang, "Speed") }</label>
            <input id="speed" type="range" min="1" max="50" value={props.speed.to_string()} oninput={on_speed} aria-valuetext={trf!(lang, "{n} steps per second", &[("n", &props.speed)])} />
            <label class="inline" for="timeline">{ tr!(lang, "Timeline") }</label>
            <input id="timeline" class="timeline" type="range" min={start.to_string()} max={end.to_string()} value={props.step.to_string()} oninput={on_scrub} aria-valuetext={trf!(lang, "step {n}", &[("n", &props.step)])} />
            <span class="step-count" aria-live="off">{ trf!(lang, "step {n}", &[("n", &props.step)]) }</span>
        </div>
    }
}
