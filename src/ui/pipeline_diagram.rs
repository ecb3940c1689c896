//! The pipeline as an SVG diagram ([`crate::diagram`]'s drawing): every stage a box, the
//! current step a token travelling along its arrow, coloured (and labelled) by its kind.
//! Clicking a stage opens its inspector.

use crate::diagram::{label, position, token, FLOW};
use crate::i18n::Lang;
use crate::i18n::{tr, trf};
use crate::session::Action;
use crate::sim::Stage;
use crate::world::TraceEvent;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub current: Option<TraceEvent>,
    pub inspected: Stage,
    /// The stage the narration points at.
    pub look_at: Option<Stage>,
    pub on_action: Callback<Action>,
    pub lang: Lang,
}

#[function_component(PipelineDiagram)]
pub fn pipeline_diagram(props: &Props) -> Html {
    let lang = props.lang;
    let era = use_context::<crate::era::Era>().unwrap_or_default();
    let active = props.current.as_ref().map(|e| e.to);
    let arrows = FLOW.iter().map(|(a, b)| {
        let ((x1, y1), (x2, y2)) = (position(*a), position(*b));
        html! { <line class="flow" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} marker-end="url(#arrow)" /> }
    });
    let boxes = Stage::ALL.iter().map(|stage| {
        let (x, y) = position(*stage);
        let class = classes!(
            "stage",
            (Some(*stage) == active).then_some("active"),
            (*stage == props.inspected).then_some("inspected"),
            (Some(*stage) == props.look_at).then_some("look")
        );
        let inspect = {
            let on_action = props.on_action.clone();
            let stage = *stage;
            Callback::from(move |_| on_action.emit(Action::Inspect(stage)))
        };
        let on_key = {
            let on_action = props.on_action.clone();
            let stage = *stage;
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    on_action.emit(Action::Inspect(stage));
                }
            })
        };
        html! {
            <g class={class} role="button" tabindex="0" aria-label={trf(lang, "Inspect {stage}", &[("stage", &tr(lang, label(*stage, era)))])} aria-pressed={(*stage == props.inspected).to_string()} onclick={inspect} onkeydown={on_key}>
                <rect x={(x - 88.0).to_string()} y={(y - 30.0).to_string()} width="176" height="60" rx="10" />
                <text x={x.to_string()} y={(y + 9.0).to_string()} text-anchor="middle">{ tr(lang, label(*stage, era)) }</text>
            </g>
        }
    });
    let hop = props.current.as_ref().map(|e| {
        let ((x1, y1), (x2, y2)) = (position(e.from), position(e.to));
        let (class, text) = token(e.kind);
        // The label rides just above the arrow's middle, clear of the stage boxes.
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0 - 22.0);
        let line = html! {
            <g class={classes!("token", class)} aria-hidden="true">
                <line class="hop" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} />
            </g>
        };
        let label = html! {
            <g class={classes!("token", class)} aria-hidden="true">
                <rect x={(mx - 52.0).to_string()} y={(my - 15.0).to_string()} width="104" height="30" rx="15" />
                <text x={mx.to_string()} y={(my + 6.0).to_string()} text-anchor="middle">{ text }</text>
            </g>
        };
        (line, label)
    });
    let (hop_line, hop_label) = hop.unzip();
    html! {
        <svg class="pipeline" viewBox="0 0 1000 330" role="group" aria-label={tr(lang, "Pipeline")}>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" />
                </marker>
            </defs>
            { for arrows }
            { for hop_line }
            { for boxes }
            { for hop_label }
        </svg>
    }
}
