//! A page in live mode (`?live=`), loaded as a module of its own: the live bar above the stage
//! and a lane for each real client. The page makes serve-api's world from its feed and takes
//! every input it took (`informer_sim::session::live`), so the stage, the inspectors and the
//! log show the served world; the bar pauses, plays, steps and paces the server, and the page's
//! own Step forward (at the newest step) and fault buttons reach the server too.

use super::live_client::{self, Feed, Heard};
use super::marked::marked;
use super::state::PageState;
use informer_sim::i18n::Lang;
use informer_sim::session::link::LiveLink;
use informer_sim::session::live::{Ask, Fed, Lane};
use informer_sim::session::Action;
use serde_json::json;
use yew::prelude::*;

/// The live module: the bar with the lanes.
pub struct LiveModule {
    pub bar: fn(LiveLink, UseReducerHandle<PageState>, Lang) -> Html,
}

super::modules::split_point!(live, live_module, LiveModule, {
    informer_sim::session::live::install_live_actions(informer_sim::session::Session::apply_live);
    informer_sim::world::install_outside_server(informer_sim::world::OUTSIDE_SERVER);
    LiveModule { bar: |live, state, lang| html! { <LiveBar {live} {state} {lang} /> } }
});

#[derive(Properties, PartialEq)]
struct Props {
    live: LiveLink,
    state: UseReducerHandle<PageState>,
    lang: Lang,
}

/// How the page hears serve-api.
#[derive(Clone, PartialEq)]
enum Line {
    Connecting,
    Following,
    Lost,
    Refused,
    NoToken,
    /// The feed said what this page cannot read: following would show another world.
    Unreadable(String),
}

/// The speeds the bar offers (virtual seconds a second).
const SPEEDS: [f64; 6] = [0.1, 0.25, 0.5, 1.0, 2.0, 10.0];

#[function_component(LiveBar)]
fn live_bar(props: &Props) -> Html {
    let lang = props.lang;
    let token = use_memo(props.live.clone(), live_client::token);
    let line = use_state(|| if token.is_some() { Line::Connecting } else { Line::NoToken });
    let speed = use_state(|| 1.0_f64);
    let refused = use_state(|| None::<String>);
    {
        let (state, line, speed) = (props.state.clone(), line.clone(), speed.clone());
        use_effect_with((*token).clone(), move |token| {
            // While the lesson the world was made from loads, what the feed says waits, in order.
            let held: std::rc::Rc<std::cell::RefCell<Option<Vec<Action>>>> = Default::default();
            let feed = token.as_ref().and_then(|token| {
                Feed::open(
                    token,
                    Callback::from(move |heard| {
                        let action = match heard {
                            Heard::World(origin) => {
                                line.set(Line::Following);
                                *held.borrow_mut() = Some(Vec::new());
                                let (state, held) = (state.clone(), held.clone());
                                let id = origin.scenario.clone();
                                super::lessons::ensure(&id, move |_| {
                                    state.dispatch(Action::Serve(origin));
                                    for action in held.borrow_mut().take().unwrap_or_default() {
                                        state.dispatch(action);
                                    }
                                });
                                return;
                            }
                            Heard::Entry(entry) => Action::Served(Fed(std::rc::Rc::new(*entry))),
                            Heard::Status { steps, paused, speed: s } => {
                                speed.set(s);
                                Action::ServedStatus { steps, paused }
                            }
                            Heard::Lost { closed } => {
                                line.set(if closed { Line::Refused } else { Line::Lost });
                                return;
                            }
                            Heard::Unreadable(why) => {
                                line.set(Line::Unreadable(why));
                                return;
                            }
                        };
                        match held.borrow_mut().as_mut() {
                            Some(waiting) => waiting.push(action),
                            None => state.dispatch(action),
                        }
                    }),
                )
            });
            move || drop(feed)
        });
    }
    let send = {
        let (token, refused) = ((*token).clone(), refused.clone());
        Callback::from(move |body: serde_json::Value| {
            let (token, refused) = (token.clone(), refused.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let Some(token) = token else { return };
                let answer = live_client::control(&token, body).await;
                refused.set(answer.err().map(|why| why.unwrap_or_else(|| "unreachable".into())));
            });
        })
    };
    let session = props.state.read();
    let served = session.live();
    // What the person asked of the server through the page's own controls, sent once each.
    let sent = use_mut_ref(|| 0usize);
    {
        let send = send.clone();
        use_effect_with(served.map(|l| l.asked().to_vec()).unwrap_or_default(), move |asked| {
            let mut sent = sent.borrow_mut();
            for ask in asked.iter().skip(*sent) {
                match ask {
                    Ask::Step => send.emit(json!({"do": "step"})),
                    Ask::Fault(fault) => send.emit(json!({"do": "fault", "fault": fault})),
                }
            }
            *sent = asked.len();
        });
    }
    let paused = served.is_some_and(|l| l.paused);
    let steps = session.world().steps();
    let waiting = served.map_or(0, |l| l.behind(steps));
    let toggle = ["pause", "play"][usize::from(paused)];
    let on_pause = send.reform(move |_: MouseEvent| json!({ "do": toggle }));
    let on_step = send.reform(|_: MouseEvent| json!({"do": "step"}));
    let on_speed = send.reform(|e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        json!({"do": "speed", "speed": value.parse::<f64>().unwrap_or(1.0)})
    });
    let said = match &*line {
        Line::Connecting => tr!(lang, "Connecting to serve-api…").to_string(),
        Line::Following if paused => tr!(lang, "serve-api, paused").to_string(),
        Line::Following => tr!(lang, "serve-api, playing").to_string(),
        Line::Lost => {
            tr!(lang, "The live feed was lost: is serve-api still running? The page tries again.").to_string()
        }
        Line::Refused => {
            tr!(lang, "The live feed refused this page: open the link serve-api printed at its start.").to_string()
        }
        Line::NoToken => {
            tr!(lang, "This page has no live token: open the link serve-api printed at its start.").to_string()
        }
        Line::Unreadable(why) => trf!(
            lang,
            "The live feed sent what this page cannot read ({why}): is the page from the same build as serve-api?",
            &[("why", why)]
        ),
    };
    let following = *line == Line::Following;
    html! {
        <section class="live-bar" aria-label={tr!(lang, "Live mode")}>
            <div class="live-controls">
                <strong>{ tr!(lang, "Live mode") }</strong>
                <span role="status" class="live-state">{ marked(&said) }</span>
                if following {
                    <button type="button" onclick={on_pause}>{ if paused { tr!(lang, "Play") } else { tr!(lang, "Pause") } }</button>
                    <button type="button" onclick={on_step} disabled={!paused}>{ tr!(lang, "Step the server") }</button>
                    <label class="inline" for="live-speed">{ tr!(lang, "Server speed") }</label>
                    <select id="live-speed" onchange={on_speed}>
                        { for SPEEDS.iter().map(|s| html! { <option value={s.to_string()} selected={(*s - *speed).abs() < 1e-9}>{ format!("×{s}") }</option> }) }
                    </select>
                }
                if waiting > 0 {
                    <span class="live-waiting">{ marked(&trf!(lang, "{n} steps waiting: Step forward takes them one by one", &[("n", &waiting.to_string())])) }</span>
                }
                if let Some(why) = &*refused {
                    <span class="live-refused" role="alert">{ marked(&trf!(lang, "serve-api refused: {why}", &[("why", why)])) }</span>
                }
            </div>
            if following {
                { lanes(&session, lang) }
            }
        </section>
    }
}

/// A lane per real client, as it was at the step shown.
fn lanes(session: &informer_sim::session::Session, lang: Lang) -> Html {
    let step = session.world().steps();
    let shown: Vec<&Lane> =
        session.lanes().iter().filter(|l| l.requests.first().is_some_and(|r| r.step <= step)).collect();
    html! {
        <div class="lanes" role="group" aria-label={tr!(lang, "Real clients")}>
            if shown.is_empty() {
                <p class="lanes-empty">{ marked(tr!(lang, "No real client has sent a request yet: point kubectl or your controller at serve-api's kubeconfig.")) }</p>
            }
            { for shown.into_iter().map(|lane| lane_view(session, lane, step, lang)) }
        </div>
    }
}

fn lane_view(session: &informer_sim::session::Session, lane: &Lane, step: u64, lang: Lang) -> Html {
    let at = lane.at(step);
    let agent = match lane.agent.as_str() {
        "" => tr!(lang, "(no User-Agent)").to_string(),
        agent => agent.split_whitespace().next().unwrap_or(agent).to_string(),
    };
    let name = trf!(lang, "{agent} as {user}", &[("agent", &agent), ("user", &lane.user)]);
    let recent = at.requests.iter().rev().take(6).rev();
    let summary = |s: u64| {
        let event = session.trace().get(s.saturating_sub(1) as usize);
        event.map(|e| informer_sim::i18n::summary(e, lang)).unwrap_or_default()
    };
    html! {
        <section class="lane" aria-label={name.clone()}>
            <h3>{ name }</h3>
            <ul class="lane-watches">
                { for at.open.iter().map(|(w, handed)| {
                    let mut text = trf!(lang, "watch #{id} of {kind} from resourceVersion \"{rv}\"", &[("id", &w.id.to_string()), ("kind", &w.kind.name()), ("rv", &w.resource_version)]);
                    if w.bookmarks {
                        text += tr!(lang, ", bookmarks");
                    }
                    if w.initial_events {
                        text += tr!(lang, ", initial events");
                    }
                    text += &trf!(lang, ": {n} events handed over", &[("n", &handed.to_string())]);
                    html! { <li>{ marked(&text) }</li> }
                }) }
                if at.ended > 0 {
                    <li class="lane-ended">{ marked(&trf!(lang, "{n} watches ended", &[("n", &at.ended.to_string())])) }</li>
                }
            </ul>
            <ol class="lane-requests">
                { for recent.map(|r| html! {
                    <li class={classes!(r.code.map(|c| ["refused", "failed"][usize::from(c >= 500)]))}>{ format!("#{} {}", r.step, summary(r.step)) }</li>
                }) }
            </ol>
            if !at.notices.is_empty() {
                <ul class="lane-notices">
                    { for at.notices.iter().map(|n| html! { <li role="note">{ marked(&n.text(lang)) }</li> }) }
                </ul>
            }
        </section>
    }
}
