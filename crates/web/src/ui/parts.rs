//! The page's parts below its controls, and the order the page's start draws them in.
//!
//! Each part is drawn by a function of its own that is never inlined into the page's view: a
//! browser compiles a wasm function the first time it is called, so each part's code is
//! compiled in the task that first draws it, and no task of the page's start grows long with
//! the code of parts drawn later.

use super::controls::Controls;
use super::event_log::EventLog;
use super::faults::Faults;
use super::hooks::{Dialog, Shortcut};
use super::inspector::Inspector;
use super::lesson_panel::LessonPanel;
use super::modules::Module;
use super::objects_table::ObjectsTable;
use super::pipeline_diagram::PipelineDiagram;
use super::revision_ruler::RevisionRuler;
use informer_sim::cluster::{Kind, UserInfo};
use informer_sim::i18n::{tr, Lang};
use informer_sim::session::link::Theme;
use informer_sim::session::{Action, Message, Session};
use informer_sim::views::{self, LessonView};
use informer_sim::world::TraceEvent;
use yew::prelude::*;

/// The page's parts, in the order they are drawn behind the first screen, a task each (so that
/// no task of the page's start keeps the browser from answering input for long).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub enum Part {
    /// The page's hooks and its outline, nothing drawn in it yet.
    Shell,
    Masthead,
    Controls,
    Diagram,
    Log,
    Side,
    Faults,
    Console,
    Write,
}

impl Part {
    /// The part drawn after this one.
    pub fn next(self) -> Option<Part> {
        use Part::*;
        [Shell, Masthead, Controls, Diagram, Log, Side, Faults, Console, Write].into_iter().find(|p| *p > self)
    }
}

/// What every part draws from: the session, the page's language and where actions go.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub session: &'a Session,
    pub lang: Lang,
    pub send: &'a Callback<Action>,
}

/// The masthead's display settings: what each shows and what it does.
pub struct Settings {
    pub present: bool,
    pub theme: Option<Theme>,
    /// The dialog open, if any.
    pub dialog: Option<Dialog>,
    pub on_present: Callback<MouseEvent>,
    pub on_theme: Callback<Event>,
    /// Opens a dialog, or closes it when it is the one open.
    pub on_dialog: Callback<Dialog>,
}

/// Play's state and what changes it.
pub struct Play {
    pub playing: bool,
    pub speed: u32,
    /// The steps the timeline may show (an embed's `from`/`to`).
    pub range: (u64, u64),
    pub on_play: Callback<bool>,
    pub on_speed: Callback<u32>,
}

/// The page's name and tagline, the store's revision and clock, and the display settings.
#[inline(never)]
pub fn masthead(cx: Context, s: Settings) -> Html {
    let Context { session, lang, .. } = cx;
    let world = session.world();
    let now = world.now();
    let open = |dialog: Dialog| (s.dialog == Some(dialog)).to_string();
    let toggle = |dialog: Dialog| s.on_dialog.reform(move |_: MouseEvent| dialog);
    html! {
        <header class="masthead">
            <h1>{ "informer-playground" }</h1>
            <p class="tagline">{ views::tagline(session.era(), lang) }</p>
            <p class="revision">
                { tr!(lang, "Store revision") }{ " " }<strong data-testid="store-revision">{ world.api.store().revision() }</strong>
                { format!(" · t = {}.{:03}s", now / 1000, now % 1000) }
            </p>
            <div class="display-settings">
                <button type="button" aria-pressed={s.present.to_string()} onclick={s.on_present}>{ tr!(lang, "Presenter mode") }</button>
                <label class="inline" for="theme">{ tr!(lang, "Theme") }</label>
                <select id="theme" onchange={s.on_theme}>
                    <option value="" selected={s.theme.is_none()}>{ tr!(lang, "System") }</option>
                    <option value="light" selected={s.theme == Some(Theme::Light)}>{ tr!(lang, "Light") }</option>
                    <option value="dark" selected={s.theme == Some(Theme::Dark)}>{ tr!(lang, "Dark") }</option>
                </select>
                <button type="button" aria-keyshortcuts="?" aria-expanded={open(Dialog::Help)} onclick={toggle(Dialog::Help)}>{ tr!(lang, "Keyboard shortcuts") }</button>
                <button type="button" aria-haspopup="dialog" aria-expanded={open(Dialog::Guide)} onclick={toggle(Dialog::Guide)}>{ tr!(lang, "Guide") }</button>
                <button type="button" aria-haspopup="dialog" aria-expanded={open(Dialog::Share)} onclick={toggle(Dialog::Share)}>{ tr!(lang, "Share") }</button>
            </div>
            // Lessons of one's own: opened from a file or a link, or written here.
            <div class="lesson-tools">
                <button type="button" aria-haspopup="dialog" aria-expanded={open(Dialog::Open)} onclick={toggle(Dialog::Open)}>{ tr!(lang, "Open a lesson…") }</button>
                <button type="button" aria-expanded={open(Dialog::Build)} onclick={toggle(Dialog::Build)}>{ tr!(lang, "Write a lesson") }</button>
            </div>
        </header>
    }
}

/// The overlay listing every keyboard shortcut.
#[inline(never)]
pub fn help(lang: Lang, on_close: Callback<MouseEvent>) -> Html {
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-heading">
            <div class="panel help">
                <h2 id="help-heading">{ tr!(lang, "Keyboard shortcuts") }</h2>
                <dl>
                    { for Shortcut::ALL.iter().map(|s| html! { <><dt><kbd>{ s.keys() }</kbd></dt><dd>{ tr(lang, s.does()) }</dd></> }) }
                </dl>
                <button type="button" onclick={on_close} aria-keyshortcuts="Escape">{ tr!(lang, "Close") }</button>
            </div>
        </div>
    }
}

/// What in the page's link could not be used as it is, when anything.
#[inline(never)]
pub fn notices(cx: Context) -> Html {
    let Context { session, lang, .. } = cx;
    if session.notices().is_empty() {
        return Html::default();
    }
    html! {
        <div class="notices" role="status" aria-label={tr!(lang, "The link could not be used as it is")}>
            <p>{ tr!(lang, "The link could not be used as it is") }</p>
            <ul>{ for session.notices().iter().map(|n| html! {
                <li>
                    { n.describe(lang) }
                    if !n.reasons().is_empty() {
                        <ul class="reasons">{ for n.reasons().iter().map(|r| html! { <li class="mono">{ r }</li> }) }</ul>
                    }
                </li>
            }) }</ul>
        </div>
    }
}

/// Stepping, Play, the timeline and Reset.
#[inline(never)]
pub fn controls(cx: Context, play: Play) -> Html {
    let Context { session, lang, send } = cx;
    let bulk = informer_sim::world::fast_forward::phase(session.visible_trace()).is_some();
    html! {
        <Controls step={session.world().steps()} horizon={session.history().horizon()} range={play.range} {bulk} playing={play.playing} speed={play.speed} on_action={send.clone()} on_play={play.on_play} on_speed={play.on_speed} {lang} />
    }
}

/// The step's tokens: the current one and those still travelling during Play.
pub struct Motion {
    pub travelling: Vec<TraceEvent>,
    pub travel_ms: u32,
}

/// The pipeline diagram with the step's token, a time-travel jump's note and the step's
/// headline.
#[inline(never)]
pub fn diagram(cx: Context, motion: Motion, look_at: Option<informer_sim::kernel::Stage>, in_room: bool) -> Html {
    let Context { session, lang, send } = cx;
    let current = session.current().cloned();
    let headline = match &current {
        Some(e) => informer_sim::i18n::headline(e, lang),
        None => tr!(lang, "Press Step forward (→) to deliver the first message.").into(),
    };
    html! {
        <section class="panel diagram" aria-labelledby="pipeline-heading">
            <h2 id="pipeline-heading" class="visually-hidden">{ tr!(lang, "Pipeline") }</h2>
            <PipelineDiagram {current} travelling={motion.travelling} travel_ms={motion.travel_ms} glance={informer_sim::views::glance::glance(session.world())} inspected={session.inspected()} {look_at} tall_when_narrow={in_room} on_action={send.clone()} {lang} />
            if let Some(jump) = session.jump() {
                <p class="jump" aria-live="polite" data-testid="jump">{ informer_sim::i18n::jump(jump, lang) }</p>
            }
            <p class="now" aria-live="polite" data-testid="current-step">{ headline }</p>
        </section>
    }
}

/// The event log and the revision ruler.
#[inline(never)]
pub fn log(cx: Context) -> Html {
    let Context { session, lang, send } = cx;
    html! {
        <>
            <section class="panel log-panel" aria-labelledby="log-heading">
                <h2 id="log-heading">{ tr!(lang, "Event log") }</h2>
                <EventLog lines={views::log(session, session.filter(), 60)} filter={session.filter()} {lang} on_action={send.clone()} />
            </section>
            <section class="panel ruler-panel" aria-labelledby="ruler-heading">
                <h2 id="ruler-heading">{ tr!(lang, "Revisions") }</h2>
                <RevisionRuler marks={views::ruler(session)} {lang} />
            </section>
        </>
    }
}

/// The side column (the lesson and the inspector) and, when releases are compared, the
/// compare view.
#[inline(never)]
pub fn side(cx: Context, lesson: LessonView, room: Option<super::in_room::InRoom>) -> Html {
    let Context { session, lang, send } = cx;
    // The state's own address: a solved challenge's proof.
    let link: AttrValue = if lesson.challenges.is_empty() {
        AttrValue::default()
    } else {
        informer_sim::views::export::share(&super::page_address(), &session.link()).link.into()
    };
    html! {
        <>
            <div class="side-column">
                <LessonPanel view={lesson} {link} {lang} on_action={send.clone()} {room} korean_failed={super::modules::status(Module::Korean) == super::modules::Status::Failed} />
                <Inspector stage={session.inspected()} view={views::inspector(session)} {lang} on_action={send.clone()} />
            </div>
            if session.compared().is_some() {
                { match super::modules::compare() {
                    Some(compare) => (compare.panel)(session, lang),
                    None => super::modules::waiting(Module::Compare, lang),
                } }
            }
        </>
    }
}

/// Faults to inject and the costs they run up.
#[inline(never)]
pub fn faults(cx: Context) -> Html {
    let Context { session, lang, send } = cx;
    html! {
        <section class="panel faults-panel" aria-labelledby="faults-heading">
            <h2 id="faults-heading">{ tr!(lang, "Faults") }</h2>
            <Faults latency_ms={session.world().config.latency_ms} on_action={send.clone()} {lang} />
            <h2>{ tr!(lang, "Costs") }</h2>
            { super::figures::drawn(lang, |figures| (figures.costs)(views::costs(session, 400, 40), lang)) }
        </section>
    }
}

/// The kubectl console, offering the kinds the informers watch.
#[inline(never)]
pub fn console(cx: Context) -> Html {
    let Context { session, lang, send } = cx;
    let config = &session.world().config;
    let watched: Vec<Kind> = config.informers.iter().map(|i| i.reflector.kind).collect();
    let kind = watched.iter().copied().find(|k| *k == Kind::Pod).or(watched.first().copied()).unwrap_or(Kind::Pod);
    let account = UserInfo::service_account(&config.controller_namespace, &config.controller_name).name;
    html! {
        <section class="panel console-panel" aria-labelledby="console-heading">
            <h2 id="console-heading">{ tr!(lang, "Console") }</h2>
            { match super::modules::console() {
                Some(console) => (console.console)(super::console_panel::Props {
                    transcript: session.console_text(lang),
                    kind,
                    deployments: watched.contains(&Kind::Deployment),
                    account,
                    on_action: send.clone(),
                    lang,
                }),
                None => super::modules::waiting(Module::Console, lang),
            } }
        </section>
    }
}

/// The manifest being written, the outcome of the last write and the objects in the store.
#[inline(never)]
pub fn write(cx: Context, manifest: String, on_edit: Callback<String>, on_open: Callback<(Kind, String)>) -> Html {
    let Context { session, lang, send } = cx;
    let message = match session.message() {
        Some(done @ Message::Done(_)) => html! { <p class="message done" role="status">{ done.text(lang) }</p> },
        Some(failed @ Message::Failed(_)) => html! { <p class="message failed" role="alert">{ failed.text(lang) }</p> },
        None => html! { <p class="message" role="status"></p> },
    };
    let (rows, total) = views::objects(session, 50);
    html! {
        <section class="panel write-panel" aria-labelledby="write-heading">
            <h2 id="write-heading">{ tr!(lang, "Write") }</h2>
            { match super::modules::console() {
                Some(console) => (console.form)(super::object_form::Props { manifest, on_edit, on_action: send.clone(), lang }),
                None => super::modules::waiting(Module::Console, lang),
            } }
            { message }
            <ObjectsTable {rows} {total} {lang} on_edit={on_open} on_action={send.clone()} />
        </section>
    }
}

/// Live mode's bar and lanes, or the module on its way.
pub fn live(
    live: informer_sim::session::link::LiveLink,
    state: UseReducerHandle<super::PageState>,
    lang: Lang,
) -> Html {
    match super::modules::live() {
        Some(module) => (module.bar)(live, state, lang),
        None => super::modules::waiting_now(super::modules::Module::Live, lang),
    }
}

/// A room's bar, or the module on its way.
pub fn room(
    room: informer_sim::session::link::RoomLink,
    state: UseReducerHandle<super::PageState>,
    lang: Lang,
) -> Html {
    match super::modules::room() {
        Some(module) => (module.bar)(room, state, lang),
        None => super::modules::waiting_now(super::modules::Module::Room, lang),
    }
}
