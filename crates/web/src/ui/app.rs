//! The playground page: the pipeline diagram with the current step's token, the revision
//! ruler, stepping and time travel, faults, an inspector per stage, the event log, writes and
//! the cost figures.

use super::guide_dialog::GuideDialog;
use super::parts::{self, Context, Motion, Part, Play, Settings};
use super::share_dialog::{save, Download, ShareDialog};
use super::state::PageState;
use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::Interval;
use informer_sim::cluster::Kind;
use informer_sim::i18n::tr;
use informer_sim::i18n::Lang;
use informer_sim::session::link::{Link, Notice, Theme};
use informer_sim::session::{Action, Session};
use informer_sim::views;
use informer_sim::views::export;
use informer_sim::views::host::{self, Command};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Where the chosen language is remembered.
const LANG_KEY: &str = "informer-playground.lang";
/// How long the state rests before the address bar follows it (a step or a scrub in between
/// restarts the wait).
const ADDRESS_REST_MS: u32 = 200;

/// Keys that drive the page, unless the person is typing in a field.
fn shortcut(event: &KeyboardEvent) -> Option<&'static str> {
    let typing = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    if typing || event.ctrl_key() || event.meta_key() || event.alt_key() {
        return None;
    }
    match event.key().as_str() {
        " " => Some("play"),
        // Presentation clickers send PageDown and PageUp.
        "ArrowRight" | "PageDown" => Some("forward"),
        "ArrowLeft" | "PageUp" => Some("back"),
        "Home" => Some("reset"),
        "n" | "N" => Some("next-note"),
        "f" | "F" => Some("fast-forward"),
        "?" => Some("help"),
        "Escape" => Some("close"),
        _ => None,
    }
}

/// The page's own settings, which its link carries beside the session's state.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Display {
    /// Presenter mode: larger type, only the stage, the narration and the step controls.
    present: bool,
    /// `None`: the system's.
    theme: Option<Theme>,
    /// Inside another page (`embed=1`): the stage, the step controls and the narration,
    /// sized to the frame, which is told the page's height.
    embed: bool,
}

thread_local! {
    /// What the page opens on, when it was made ahead of the first render ([`prepare`]).
    static OPENING: std::cell::Cell<Option<Opening>> = const { std::cell::Cell::new(None) };
}

/// What the page opens on: its link (whose settings are the page's own) and the session the
/// link describes.
struct Opening {
    link: Link,
    session: Session,
}

/// The page's link: its address's query, read once.
pub(super) fn page_link() -> (Link, Vec<Notice>) {
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    Link::parse(&query)
}

/// The session the page opens on: the link's, in the remembered language.
fn opening(link: Link, notices: Vec<Notice>) -> Opening {
    let mut session = Session::from_link(&link, notices);
    // The remembered language, unless the link names one; an embed's language is the host
    // page's choice, never another tab's.
    let remembered = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(LANG_KEY).ok().flatten());
    if link.lang.is_none() && !link.embed && remembered.as_deref() == Some("ko") {
        session.apply(Action::SetLang(Lang::Ko));
    }
    // An embed limited to a range of steps opens at its first.
    if let Some(from) = link.from.filter(|from| *from > session.world().steps()) {
        session.apply(Action::JumpTo(from));
    }
    Opening { link, session }
}

/// Makes what the page opens on ahead of the first render, so the page's start is spread over
/// tasks the browser can answer input between.
pub fn prepare(link: Link, notices: Vec<Notice>) {
    OPENING.set(Some(opening(link, notices)));
}

#[function_component(App)]
pub fn app() -> Html {
    // What the page opens on, taken by the first render (or made then, when nothing prepared
    // it): the link stays for the page's own settings, the session goes into the state.
    let opening = use_memo((), |_| {
        let Opening { link, session } = OPENING.take().unwrap_or_else(|| {
            let (link, notices) = page_link();
            opening(link, notices)
        });
        (link, std::cell::Cell::new(Some(session)))
    });
    let opened = &opening.0;
    let state =
        use_reducer(|| PageState::new(opening.1.take().expect("the first render takes the opening session once")));
    let display = use_state(|| Display { present: opened.present, theme: opened.theme, embed: opened.embed });
    // An embed's timeline may be limited to a range of steps.
    let range = (opened.from.unwrap_or(0), opened.to.unwrap_or(u64::MAX));
    let help = use_state(|| false);
    let sharing = use_state(|| false);
    let guiding = use_state(|| false);
    let told_answers = use_mut_ref(Vec::<(usize, usize, bool)>::new);
    let last_step = use_mut_ref(|| (0u64, 0u32));
    let editing = use_state(|| Session::example(Kind::ConfigMap, "default", "demo"));
    let playing = use_state(|| false);
    let speed = use_state(|| opened.speed.unwrap_or(4));
    // Callbacks are made once (they read the shared session when called), so a panel whose
    // view did not change is not drawn again at a step.
    let send = {
        let state = state.clone();
        use_callback(range, move |action: Action, &(from, to)| {
            // A lesson is fetched the first time it is opened.
            if let Action::LoadScenario(id) = &action {
                let state = state.clone();
                let load = action.clone();
                return super::lessons::ensure(id, move |_| state.dispatch(load));
            }
            let step = state.read().world().steps();
            let outside = match &action {
                Action::StepForward => step >= to,
                Action::StepBack => step <= from,
                Action::JumpTo(n) => *n < from || *n > to,
                Action::Reset => from > 0,
                // (An embed limited to a range of steps does not jump to notes beyond it.)
                Action::NextNote => (from, to) != (0, u64::MAX),
                _ => false,
            };
            if !outside {
                state.dispatch(action);
            }
        })
    };
    let on_play = {
        let playing = playing.clone();
        use_callback((), move |on: bool, _| playing.set(on))
    };
    let on_speed = {
        let speed = speed.clone();
        use_callback((), move |s: u32, _| speed.set(s.clamp(1, 50)))
    };
    {
        // Play: one step per tick; the interval goes away with Pause or a new speed.
        let state = state.clone();
        use_effect_with((*playing, *speed), move |(on, speed)| {
            let interval = on.then(|| Interval::new(1000 / *speed, move || state.dispatch(Action::PlayTick)));
            move || drop(interval)
        });
    }
    // While the build-time first screen covers the page, the page is drawn in parts, a task
    // each, then shown in its place.
    let drawn = use_state(|| if super::first_screen::covering() { Part::Shell } else { Part::Write });
    {
        let drawn = drawn.clone();
        use_effect_with(*drawn, move |part| {
            if let Some(next) = part.next() {
                super::later(move || drawn.set(next));
            } else {
                super::first_screen::reveal();
                super::first_screen::mark_live();
            }
        });
    }
    {
        let (send, playing, help, sharing, guiding) =
            (send.clone(), playing.clone(), help.clone(), sharing.clone(), guiding.clone());
        use_effect_with((), move |_| {
            let document = web_sys::window().and_then(|w| w.document());
            let listener = document.map(|d| {
                EventListener::new_with_options(
                    &d,
                    "keydown",
                    EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(e) = e.dyn_ref::<KeyboardEvent>() else { return };
                        match shortcut(e) {
                            Some("play") => playing.set(!*playing),
                            Some("forward") => send.emit(Action::StepForward),
                            Some("back") => send.emit(Action::StepBack),
                            Some("reset") => send.emit(Action::Reset),
                            Some("next-note") => send.emit(Action::NextNote),
                            Some("fast-forward") => send.emit(Action::FastForward),
                            Some("help") => help.set(!*help),
                            Some("close") if *help || *sharing || *guiding => {
                                help.set(false);
                                sharing.set(false);
                                guiding.set(false);
                            }
                            _ => return,
                        }
                        e.prevent_default();
                    },
                )
            });
            move || drop(listener)
        });
    }
    let lang = state.read().lang();
    {
        // The language is remembered (outside embeds), and the document says which one it is in.
        let embed = opened.embed;
        use_effect_with(lang, move |lang| {
            let code = lang.code();
            if let Some(window) = web_sys::window() {
                if let Ok(Some(storage)) = window.local_storage().map(|s| s.filter(|_| !embed)) {
                    let _ = storage.set_item(LANG_KEY, code);
                }
                if let Some(root) = window.document().and_then(|d| d.document_element()) {
                    let _ = root.set_attribute("lang", code);
                }
            }
        });
    }
    {
        // A question that waits for an answer stops autoplay.
        let waiting = state.read().questions().iter().any(|(_, _, answer)| answer.is_none());
        let playing = playing.clone();
        use_effect_with(waiting, move |waiting| {
            if *waiting {
                playing.set(false);
            }
        });
    }
    {
        // Reaching a lesson's end stops autoplay once (Play goes on past it when asked).
        let ended = state.read().lesson_ended();
        let playing = playing.clone();
        use_effect_with(ended, move |ended| {
            if *ended {
                playing.set(false);
            }
        });
    }
    {
        // The theme: the system's unless one was chosen.
        use_effect_with(display.theme, |theme| {
            if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                let _ = match theme {
                    Some(Theme::Dark) => root.set_attribute("data-theme", "dark"),
                    Some(Theme::Light) => root.set_attribute("data-theme", "light"),
                    None => root.remove_attribute("data-theme"),
                };
            }
        });
    }
    // The link of what is on the screen: the session's state and the page's settings.
    let shown_link = {
        let mut link = state.read().link();
        link.present = display.present;
        link.theme = display.theme;
        link.speed = Some(*speed).filter(|s| *s != 4);
        link.embed = display.embed;
        (link.from, link.to, link.hosts) = (opened.from, opened.to, opened.hosts.clone());
        link
    };
    {
        // The address is the state: kept in step in place (no reload, no history entry),
        // written once the state has rested for a moment (and left alone during Play), so a
        // step's frame never pays for a same-document navigation.
        let query = shown_link.to_query();
        use_effect_with((query, *playing), |(query, playing)| {
            let write = (!*playing).then(|| {
                let query = query.clone();
                gloo::timers::callback::Timeout::new(ADDRESS_REST_MS, move || {
                    if let Some(window) = web_sys::window() {
                        let path = window.location().pathname().unwrap_or_default();
                        let url = format!("{path}{query}");
                        if let Ok(history) = window.history() {
                            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
                        }
                    }
                })
            });
            move || drop(write)
        });
    }
    {
        // The host-page API: commands from the frame's own origin and the link's `host`s.
        let (state, playing, hosts) = (state.clone(), playing.clone(), opened.hosts.clone());
        let send = send.clone();
        use_effect_with((), move |_| {
            let scenario = state.read().link().scenario.unwrap_or_default();
            super::embed::tell(&host::Event::Ready { scenario, step: state.read().world().steps() }, &hosts);
            let listener = super::embed::listen(hosts, move |command| match command {
                Command::Load { scenario, step } => {
                    let state = state.clone();
                    super::lessons::ensure(&scenario.clone(), move |_| {
                        state.dispatch(Action::LoadScenario(scenario));
                        if let Some(step) = step {
                            state.dispatch(Action::JumpTo(step));
                        }
                    });
                }
                Command::GoTo(step) => send.emit(Action::JumpTo(step)),
                Command::Play => playing.set(true),
                Command::Pause => playing.set(false),
                Command::Lang(lang) => state.dispatch(Action::SetLang(lang)),
            });
            move || drop(listener)
        });
    }
    {
        // …and tells them every change of step and every answer.
        let hosts = opened.hosts.clone();
        let session = state.read();
        let line = session.current().map(|e| informer_sim::i18n::headline(e, session.lang())).unwrap_or_default();
        use_effect_with((session.world().steps(), line), move |(step, line)| {
            super::embed::tell(&host::Event::Step { step: *step, line: line.clone() }, &hosts)
        });
        let hosts = opened.hosts.clone();
        let told = told_answers.clone();
        let answers: Vec<_> =
            session.questions().iter().filter_map(|(i, q, a)| a.map(|a| (*i, a, a == q.answer))).collect();
        use_effect_with(answers, move |answers| {
            for &(question, choice, correct) in answers.iter().filter(|a| !told.borrow().contains(a)) {
                super::embed::tell(&host::Event::Answered { question, choice, correct }, &hosts);
            }
            *told.borrow_mut() = answers.clone();
        });
    }
    {
        // An embed tells the page around it how tall it is, after every render.
        let embed = display.embed;
        use_effect(move || {
            if embed {
                super::embed::report_height();
            }
        });
    }
    let toggle_present = {
        let display = display.clone();
        Callback::from(move |_| display.set(Display { present: !display.present, ..*display }))
    };
    let on_theme = {
        let display = display.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let theme = match value.as_str() {
                "dark" => Some(Theme::Dark),
                "light" => Some(Theme::Light),
                _ => None,
            };
            display.set(Display { theme, ..*display });
        })
    };
    let toggle_help = {
        let help = help.clone();
        Callback::from(move |_| help.set(!*help))
    };
    let toggle_share = {
        let sharing = sharing.clone();
        Callback::from(move |_| sharing.set(!*sharing))
    };
    let toggle_guide = {
        let guiding = guiding.clone();
        Callback::from(move |_| guiding.set(!*guiding))
    };
    let close_guide = {
        let guiding = guiding.clone();
        Callback::from(move |()| guiding.set(false))
    };
    let close_share = {
        let sharing = sharing.clone();
        Callback::from(move |()| sharing.set(false))
    };
    let on_download = {
        let state = state.clone();
        use_callback((), move |what: Download, _| {
            let session = state.read();
            let (lang, era) = (session.lang(), session.world().config.era);
            let name = session.link().scenario.unwrap_or_else(|| "sandbox".into());
            let step = session.world().steps();
            match what {
                Download::State => {
                    let link = export::share(&page_address(), &session.link()).link;
                    save(&format!("{name}-step-{step}.txt"), "text/plain", &link)
                }
                Download::TraceJsonl => save(
                    &format!("{name}-{step}-steps.jsonl"),
                    "application/jsonl",
                    &export::jsonl(session.visible_trace(), lang),
                ),
                Download::TraceMermaid => save(
                    &format!("{name}-{step}-steps.mmd"),
                    "text/plain",
                    &export::mermaid(session.visible_trace(), lang),
                ),
                Download::DiagramSvg => save(
                    &format!("{name}-step-{step}.svg"),
                    "image/svg+xml",
                    &informer_sim::views::diagram::standalone_svg(
                        session.current(),
                        &informer_sim::views::glance::glance(session.world()),
                        era,
                        lang,
                    ),
                ),
            }
        })
    };
    let open_manifest = {
        let (state, editing) = (state.clone(), editing.clone());
        use_callback((), move |(kind, key): (Kind, String), _| {
            if let Some(manifest) = views::manifest(&state.read(), kind, &key) {
                editing.set(manifest);
            }
        })
    };
    let edit = {
        let editing = editing.clone();
        use_callback((), move |manifest: String, _| editing.set(manifest))
    };
    let session = state.read();
    let world = session.world();
    {
        // The crash panel offers this state's link.
        let query = session.link().to_query();
        use_effect_with((query, lang), |(query, lang)| super::crash::remember(query, *lang));
    }
    // A step forward by one travels (faster as Play speeds up, parked when too fast to
    // follow); a jump, a step back or a scrub shows the token parked.
    // (A render that does not change the step keeps the motion it started with.)
    let step = world.steps();
    let (before, motion) = *last_step.borrow();
    let travel_ms = match (step, *playing) {
        _ if step == before => motion,
        _ if step != before + 1 => 0,
        (_, false) => 450,
        (_, true) => Some(1_800 / *speed).filter(|ms| *ms >= 80).map_or(0, |ms| ms.min(600)),
    };
    *last_step.borrow_mut() = (step, travel_ms);
    let travelling: Vec<_> = if *playing && travel_ms > 0 {
        let trace = session.visible_trace();
        let shown = (travel_ms * *speed / 1_000 + 1) as usize;
        trace[trace.len().saturating_sub(shown)..trace.len().saturating_sub(1)].to_vec()
    } else {
        Vec::new()
    };
    {
        // Once the step is drawn and the page is idle, it does what the step put off and works
        // out the steps on either side (a browser without idle callbacks has the snapshot
        // made at the next step, and steps as before).
        let state = state.clone();
        use_effect_with((step, !*playing), move |&(_, paused)| {
            use wasm_bindgen::JsCast;
            let settle = wasm_bindgen::closure::Closure::once_into_js(move || state.settle(paused));
            if let Some(window) = web_sys::window() {
                let _ = window.request_idle_callback(settle.unchecked_ref());
            }
        });
    }
    let lesson = (*drawn >= Part::Diagram).then(|| views::lesson(&session));
    let look_at = lesson.as_ref().and_then(|l| l.narration.as_ref()).and_then(|(_, look)| *look);
    let era = world.config.era;
    let cx = Context { session: &session, lang, send: &send };
    let settings = Settings {
        present: display.present,
        theme: display.theme,
        help: *help,
        guiding: *guiding,
        sharing: *sharing,
        on_present: toggle_present,
        on_theme,
        on_help: toggle_help.clone(),
        on_guide: toggle_guide,
        on_share: toggle_share,
    };
    html! {
        <ContextProvider<informer_sim::era::Era> context={era}>
        <div class={classes!("page", display.present.then_some("present"), display.embed.then_some("embed"))}>
            if display.embed {
                <a class="open-full" href={super::embed::full_playground_href(&shown_link)} target="_blank" rel="noopener">{ tr(lang, "Open in the full playground") }</a>
            }
            if *drawn >= Part::Masthead {
                { parts::masthead(cx, settings) }
            }
            if *help {
                { parts::help(lang, toggle_help) }
            }
            if *guiding {
                <GuideDialog {lang} on_action={send.clone()} on_close={close_guide} />
            }
            if *sharing {
                { share(&shown_link, lang, on_download, close_share) }
            }
            { parts::notices(cx) }
            { crash_button() }
            if *drawn >= Part::Controls {
                { parts::controls(cx, Play { playing: *playing, speed: *speed, range, on_play, on_speed }) }
            }
            <main class="stage-area">
                <div class="stage-column">
                    if *drawn >= Part::Diagram {
                        { parts::diagram(cx, Motion { travelling, travel_ms }, look_at) }
                    }
                    if *drawn >= Part::Log {
                        { parts::log(cx) }
                    }
                </div>
                if let Some(lesson) = lesson.filter(|_| *drawn >= Part::Side) {
                    { parts::side(cx, lesson) }
                }
                if *drawn >= Part::Faults {
                    { parts::faults(cx) }
                }
                if *drawn >= Part::Console {
                    { parts::console(cx) }
                }
                if *drawn >= Part::Write {
                    { parts::write(cx, (*editing).clone(), edit, open_manifest) }
                }
            </main>
        </div>
        </ContextProvider<informer_sim::era::Era>>
    }
}

/// The Share dialog for the link of what is on the screen (a function of its own, like the
/// page's parts, so its code is compiled when Share first opens).
#[inline(never)]
fn share(link: &Link, lang: Lang, on_download: Callback<Download>, on_close: Callback<()>) -> Html {
    html! { <ShareDialog share={export::share(&page_address(), link)} {lang} {on_download} {on_close} /> }
}

/// The page's origin and path: where a shared link points.
fn page_address() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return String::new() };
    format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default())
}

/// A button that panics, compiled only into the browser test of the crash panel.
#[cfg(feature = "crash-button")]
fn crash_button() -> Html {
    html! { <button type="button" id="crash" onclick={Callback::from(|_| panic!("crash button pressed"))}>{ "crash" }</button> }
}

#[cfg(not(feature = "crash-button"))]
fn crash_button() -> Html {
    html! {}
}
