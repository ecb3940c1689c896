//! The pipeline as an SVG diagram ([`informer_sim::views::diagram`]'s drawing): every stage a box showing
//! what it holds ([`informer_sim::views::glance`]), the current step a token that travels along its arrow
//! from the sender's box to the receiver's, coloured (and labelled) by its kind. During Play a
//! step's token sets off while the last ones may still be on their way, so bursts look like
//! bursts; scrubbing, fast play and `prefers-reduced-motion` show it parked. The motion is CSS
//! on an HTML element keyed by the step, above the drawing: the step's state is drawn first,
//! never delayed by it, and the frames of the motion repaint only the dot.
//! Clicking a stage opens its inspector.

use informer_sim::i18n::Lang;
use informer_sim::i18n::{decimal, tr};
use informer_sim::kernel::Stage;
use informer_sim::kernel::TraceKind;
use informer_sim::session::Action;
use informer_sim::views::diagram::{chips, holds, label, name_only, token, Layout, BOX_H, BOX_W, FLOW};
use informer_sim::views::glance::Glance;
use informer_sim::world::outcome::FaultEffect;
use informer_sim::world::{Outcome, TraceEvent};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub current: Option<TraceEvent>,
    /// Earlier steps whose tokens may still be travelling (newest last).
    pub travelling: Vec<TraceEvent>,
    /// How long a token takes from box to box; 0: no motion (parked at once).
    pub travel_ms: u32,
    pub glance: Glance,
    pub inspected: Stage,
    /// The stage the narration points at.
    pub look_at: Option<Stage>,
    /// Drawn tall on a narrow screen (a room's page, where a phone is an attendee's whole
    /// screen); elsewhere the stage stays wide so a phone's first viewport holds it whole.
    #[prop_or_default]
    pub tall_when_narrow: bool,
    pub on_action: Callback<Action>,
    pub lang: Lang,
}

/// The FIFO's keys as chips with their delta counts, inside its box.
fn fifo_chips(g: &Glance, id: &str, layout: Layout) -> Html {
    let (x, y) = layout.position(Stage::Fifo);
    let chips = chips(g);
    let width = (BOX_W - 12.0) / 4.0;
    let left = x - (chips.len() as f64 * width) / 2.0;
    html! {
        <g class="chips" id={id.to_string()} aria-hidden="true" data-testid="fifo-chips">
            { for chips.iter().enumerate().map(|(i, chip)| {
                let cx = left + width * i as f64;
                html! {
                    <g class="chip">
                        <rect x={decimal(cx + 1.0)} y={decimal(y + 8.0)} width={decimal(width - 2.0)} height="20" rx="6" />
                        <text x={decimal(cx + width / 2.0)} y={decimal(y + 23.0)} text-anchor="middle">{ chip.clone() }</text>
                    </g>
                }
            }) }
        </g>
    }
}

/// A step's token: a dot that travels from the sender's box to the receiver's and rests there.
/// It is HTML above the drawing (positions in the drawing's units, `--u`), so the browser
/// moves it on its own and the diagram is not repainted for every frame of the motion.
fn travelling_token(e: &TraceEvent, travel_ms: u32, past: bool, layout: Layout) -> Html {
    let ((x1, y1), (x2, y2)) = layout.edge_points(e.from, e.to);
    let (class, _) = token(e.kind);
    let at = format!("left: calc({} * var(--u)); top: calc({} * var(--u))", decimal(x2), decimal(y2));
    let style = format!("--dx: {}; --dy: {}; --travel: {travel_ms}ms", decimal(x1 - x2), decimal(y1 - y2));
    html! {
        <span key={e.step.to_string()} class={classes!("token", class, past.then_some("past"))} style={at}>
            <span class={classes!("dot", (travel_ms > 0).then_some("moving"))} {style} data-step={e.step.to_string()}></span>
        </span>
    }
}

#[function_component(PipelineDiagram)]
pub fn pipeline_diagram(props: &Props) -> Html {
    let lang = props.lang;
    let era = use_context::<informer_sim::era::Era>().unwrap_or_default();
    let layout = use_layout(props.tall_when_narrow);
    let (width, height) = layout.size();
    let active = props.current.as_ref().map(|e| e.to);
    // A fault shows where it bites: a cut watch, a 410 on its edge, a restarting API server.
    let restarting = props
        .current
        .as_ref()
        .is_some_and(|e| matches!(&e.outcome, Outcome::Fault { effect: FaultEffect::ApiServerRestarted, .. }));
    let mark = props.current.as_ref().and_then(|e| match e.kind {
        TraceKind::WatchClosed => Some("cut"),
        TraceKind::WatchError | TraceKind::RequestFailed => Some("flash"),
        _ => None,
    });
    let arrows = FLOW.iter().map(|(a, b)| {
        let ((x1, y1), (x2, y2)) = (layout.position(*a), layout.position(*b));
        html! { <line key={format!("{}-{}", a.name(), b.name())} class="flow" x1={decimal(x1)} y1={decimal(y1)} x2={decimal(x2)} y2={decimal(y2)} marker-end="url(#arrow)" /> }
    });
    let boxes = Stage::ALL.iter().filter(|s| informer_sim::views::diagram::drawn(**s, &props.glance)).map(|stage| {
        let (x, y) = layout.position(*stage);
        let class = classes!(
            "stage",
            (Some(*stage) == active).then_some("active"),
            (*stage == props.inspected).then_some("inspected"),
            (Some(*stage) == props.look_at).then_some("look"),
            (restarting && *stage == Stage::ApiServer).then_some("restarting")
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
        let holds = holds(*stage, &props.glance, lang);
        let plain = name_only(*stage);
        // What the box holds is the button's accessible description, drawn beside the button
        // rather than in it (hidden as text, and letting clicks through): the button's name
        // is the stage's, and all its visible text is in that name.
        let described = format!("holds-{}", stage.name());
        html! {
            <g key={stage.name()} {class}>
                <g class="press" role="button" tabindex="0" aria-label={trf!(lang, "Inspect {stage}", &[("stage", &tr(lang, label(*stage, era)))])} aria-describedby={(!plain).then(|| described.clone())} aria-pressed={(*stage == props.inspected).to_string()} onclick={inspect} onkeydown={on_key}>
                    <rect x={decimal(x - BOX_W / 2.0)} y={decimal(y - BOX_H / 2.0)} width={decimal(BOX_W)} height={decimal(BOX_H)} rx="10" />
                    <text x={decimal(x)} y={decimal(y + if plain { 9.0 } else { -6.0 })} text-anchor="middle">{ tr(lang, label(*stage, era)) }</text>
                </g>
                if *stage == Stage::Reflector && !props.glance.locked.is_empty() {
                    <text class="locked" aria-hidden="true" x={decimal(x + BOX_W / 2.0)} y={decimal(y - BOX_H / 2.0 - 6.0)} text-anchor="end">
                        { props.glance.locked.iter().map(|verb| trf!(lang, "no {verb}", &[("verb", verb)])).collect::<Vec<_>>().join(" · ") }
                    </text>
                }
                if *stage == Stage::Fifo {
                    { fifo_chips(&props.glance, &described, layout) }
                } else if !plain {
                    <text id={described} class="holds" aria-hidden="true" x={decimal(x)} y={decimal(y + 23.0)} text-anchor="middle">{ holds }</text>
                }
            </g>
        }
    });
    let hop = props.current.as_ref().map(|e| {
        let ((x1, y1), (x2, y2)) = (layout.position(e.from), layout.position(e.to));
        let (class, text) = token(e.kind);
        let (mx, my) = layout.label_point(e.from, e.to);
        let line = html! {
            <g class={classes!("token", class, mark)} aria-hidden="true">
                <line class="hop" x1={decimal(x1)} y1={decimal(y1)} x2={decimal(x2)} y2={decimal(y2)} />
            </g>
        };
        let label = html! {
            <g class={classes!("token", class)} aria-hidden="true">
                <rect x={decimal(mx - 52.0)} y={decimal(my - 15.0)} width="104" height="30" rx="15" />
                <text x={decimal(mx)} y={decimal(my + 6.0)} text-anchor="middle">{ text }</text>
            </g>
        };
        (line, label)
    });
    let (hop_line, hop_label) = hop.unzip();
    let tokens = props
        .travelling
        .iter()
        .map(|e| travelling_token(e, props.travel_ms, true, layout))
        .chain(props.current.iter().map(|e| travelling_token(e, props.travel_ms, false, layout)));
    html! {
        <div class="stage-frame" style={format!("--aspect: {}", decimal(width / height))}>
        <svg class={classes!("pipeline", (layout == Layout::Tall).then_some("tall"))} viewBox={format!("0 0 {} {}", decimal(width), decimal(height))} role="group" aria-label={tr!(lang, "Pipeline")}>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" />
                </marker>
            </defs>
            // Fixed groups, so a step's hop appearing or a stage being drawn never shifts
            // the other children: arrows and boxes are keyed and stay as they are.
            <g class="arrows">{ for arrows }</g>
            <g class="hop-line">{ for hop_line }</g>
            <g class="boxes">{ for boxes }</g>
            <g class="hop-label">{ for hop_label }</g>
        </svg>
        <div class="tokens" aria-hidden="true" style={format!("--u: calc(100cqw / {})", decimal(width))}>{ for tokens }</div>
        </div>
    }
}

/// Below this width (CSS px) the stage is drawn tall.
const NARROW: f64 = 600.0;

/// The layout for the window's width now, and again whenever it is resized: tall on a
/// narrow screen when `tall_when_narrow`.
#[hook]
fn use_layout(tall_when_narrow: bool) -> Layout {
    let narrow = move || {
        tall_when_narrow
            && web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).is_some_and(|w| w < NARROW)
    };
    let layout = use_state(|| if narrow() { Layout::Tall } else { Layout::Wide });
    {
        let layout = layout.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window();
            let listener = window.map(|w| {
                gloo::events::EventListener::new(&w, "resize", move |_| {
                    layout.set(if narrow() { Layout::Tall } else { Layout::Wide });
                })
            });
            move || drop(listener)
        });
    }
    *layout
}
