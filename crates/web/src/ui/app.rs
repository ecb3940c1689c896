//! The playground page: the pipeline diagram with the current step's token, the revision
//! ruler, stepping and time travel, faults, an inspector per stage, the event log, writes and
//! the cost figures.

use super::hooks::{self, Dialog};
use super::modules::{self, Module};
use super::parts::{self, Context, Part, Play, Settings};
use super::share_dialog::Download;
use super::state::PageState;
use informer_sim::cluster::Kind;
use informer_sim::i18n::Lang;
use informer_sim::session::link::{Link, Notice, Theme};
use informer_sim::session::page_contract;
use informer_sim::session::{Action, Session};
use informer_sim::views;
use yew::prelude::*;

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

/// The language the page opens in ([`Link::opening_lang`], with what this browser remembers).
pub(super) fn opening_lang(link: &Link) -> Lang {
    let remembered = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(page_contract::LANGUAGE_KEY).ok().flatten());
    link.opening_lang(remembered.as_deref())
}

/// The session the page opens on: the link's, in its opening language.
fn opening(link: Link, notices: Vec<Notice>) -> Opening {
    let mut session = Session::from_link(&link, notices);
    if link.lang.is_none() && opening_lang(&link) == Lang::Ko {
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
    let dialog = use_state(|| None::<Dialog>);
    let editing = use_state(|| Session::example(Kind::ConfigMap, "default", "demo"));
    let playing = use_state(|| false);
    let speed = use_state(|| opened.speed.unwrap_or(4));
    let send = hooks::use_send(state.clone(), range);
    // A later module's arrival (or failure) redraws the page.
    let redraw = use_force_update();
    use_effect_with((), move |_| modules::on_change(Callback::from(move |_| redraw.force_update())));
    let on_play = use_callback(playing.clone(), |on: bool, playing| playing.set(on));
    let on_speed = use_callback(speed.clone(), |s: u32, speed| speed.set(s.clamp(1, 50)));
    hooks::use_play(state.clone(), playing.clone(), *speed);
    let drawn = hooks::use_staged_parts(state.read().world().steps(), send.clone());
    hooks::use_shortcuts(send.clone(), playing.clone(), dialog.clone());
    let lang = state.read().lang();
    hooks::use_remembered_language(lang, opened.embed);
    hooks::use_theme(display.theme);
    let shown_link = shown_link(&state.read(), &display, *speed, opened);
    hooks::use_address(shown_link.to_query(), *playing);
    let set_theme = {
        let (display, present, embed) = (display.clone(), opened.present, opened.embed);
        Callback::from(move |theme| display.set(Display { theme: Some(theme), present, embed }))
    };
    hooks::use_host_api(state.clone(), send.clone(), playing.clone(), opened.hosts.clone(), set_theme);
    hooks::use_host_reports(&state, &opened.hosts);
    hooks::use_embed_height(display.embed);
    let on_dialog = use_callback(dialog.clone(), |d: Dialog, dialog| dialog.set((**dialog != Some(d)).then_some(d)));
    let close = use_callback(dialog.clone(), |(), dialog| dialog.set(None));
    // Made once (they read the shared session when called): a panel given one is not drawn
    // again at every step or keystroke.
    let on_download = {
        let state = state.clone();
        use_callback((), move |what: Download, _| {
            if let Some(share) = modules::share() {
                (share.download)(&state.read(), what)
            }
        })
    };
    let open_manifest = {
        let (state, editing) = (state.clone(), editing.setter());
        use_callback((), move |(kind, key): (Kind, String), _| {
            if let Some(manifest) = views::manifest(&state.read(), kind, &key) {
                editing.set(manifest);
            }
        })
    };
    let edit = {
        let editing = editing.setter();
        use_callback((), move |manifest: String, _| editing.set(manifest))
    };
    let session = state.read();
    let query = session.link().to_query();
    // The crash panel offers this state's link.
    use_effect_with((query, lang), |(query, lang)| super::crash::remember(query, *lang));
    let motion = hooks::use_motion(&session, *playing, *speed);
    hooks::use_idle_settle(state.clone(), session.world().steps(), !*playing);
    let lesson = (drawn >= Part::Diagram).then(|| views::lesson(&session));
    let look_at = lesson.as_ref().and_then(|l| l.narration.as_ref()).and_then(|n| n.look_at);
    let cx = Context { session: &session, lang, send: &send };
    let settings = Settings {
        present: display.present,
        theme: display.theme,
        dialog: *dialog,
        on_present: display_setter(&display, |d| Display { present: !d.present, ..d }),
        on_theme: theme_setter(&display),
        on_dialog,
    };
    let play = Play { playing: *playing, speed: *speed, range, on_play, on_speed };
    let in_room = use_memo(opened.room.clone(), |room| room.as_ref().map(super::in_room::context));
    html! {
        <ContextProvider<informer_sim::era::Era> context={session.world().config.era}>
        <div class={classes!("page", display.present.then_some("present"), display.embed.then_some("embed"))}>
            if display.embed {
                <a class="open-full" href={super::embed::full_playground_href(&shown_link)} target="_blank" rel="noopener">{ tr!(lang, "Open in the full playground") }</a>
            }
            if drawn >= Part::Masthead {
                { parts::masthead(cx, settings) }
            }
            { match *dialog {
                Some(Dialog::Help) => parts::help(lang, close.reform(|_| ())),
                Some(Dialog::Guide) => match modules::guide() {
                    Some(guide) => (guide.dialog)(lang, send.clone(), close),
                    None => modules::waiting_dialog(Module::Guide, tr!(lang, "Facilitator's guide"), lang, close),
                },
                Some(Dialog::Share) => share(&shown_link, lang, on_download, close),
                Some(Dialog::Build) => match modules::builder() {
                    Some(builder) => (builder.panel)(state.clone(), send.clone(), lang, close),
                    None => modules::waiting(Module::Builder, lang),
                },
                Some(Dialog::Open) => match modules::opener() {
                    Some(opener) => (opener.dialog)(lang, send.clone(), close),
                    None => modules::waiting_dialog(Module::Opener, tr!(lang, "Open a lesson"), lang, close),
                },
                None => html! {},
            } }
            { parts::notices(cx) }
            { crash_button() }
            if let Some(room) = &opened.room {
                { parts::room(room.clone(), state.clone(), lang) }
            }
            if let Some(live) = &opened.live {
                { parts::live(live.clone(), state.clone(), lang) }
            }
            if drawn >= Part::Controls {
                { parts::controls(cx, play) }
            }
            <main class="stage-area">
                <div class="stage-column">
                    if drawn >= Part::Diagram {
                        { parts::diagram(cx, motion, look_at, opened.room.is_some()) }
                    }
                    if drawn >= Part::Log {
                        { parts::log(cx) }
                    }
                </div>
                if let Some(lesson) = lesson.filter(|_| drawn >= Part::Side) {
                    { parts::side(cx, lesson, (*in_room).clone()) }
                }
                if drawn >= Part::Faults {
                    { parts::faults(cx) }
                }
                if drawn >= Part::Console {
                    { parts::console(cx) }
                }
                if drawn >= Part::Write {
                    { parts::write(cx, (*editing).clone(), edit, open_manifest) }
                }
            </main>
        </div>
        </ContextProvider<informer_sim::era::Era>>
    }
}

/// The link of what is on the screen: the session's state and the page's settings.
fn shown_link(session: &Session, display: &Display, speed: u32, opened: &Link) -> Link {
    let mut link = session.link();
    link.present = display.present;
    link.theme = display.theme;
    link.speed = Some(speed).filter(|s| *s != 4);
    link.embed = display.embed;
    (link.from, link.to, link.hosts) = (opened.from, opened.to, opened.hosts.clone());
    // The room stays in the address; the facilitator's key never does.
    link.room = opened.room.clone().map(|room| informer_sim::session::link::RoomLink { key: None, ..room });
    // So is live mode; its token never is.
    link.live = opened.live.as_ref().map(|_| informer_sim::session::link::LiveLink { token: None });
    link
}

/// A button's callback that changes the page's display settings by `change`.
fn display_setter(display: &UseStateHandle<Display>, change: fn(Display) -> Display) -> Callback<MouseEvent> {
    let display = display.clone();
    Callback::from(move |_| display.set(change(*display)))
}

/// The theme select's callback: the chosen theme, or the system's.
fn theme_setter(display: &UseStateHandle<Display>) -> Callback<Event> {
    let display = display.clone();
    Callback::from(move |e: Event| {
        // (The system's option, "", names none.)
        let theme = Theme::named(&e.target_unchecked_into::<web_sys::HtmlSelectElement>().value());
        display.set(Display { theme, ..*display });
    })
}

/// The Share dialog for the link of what is on the screen, once its module is here.
fn share(link: &Link, lang: Lang, on_download: Callback<Download>, on_close: Callback<()>) -> Html {
    match modules::share() {
        Some(share) => (share.dialog)(link, lang, on_download, on_close),
        None => modules::waiting_dialog(Module::Share, tr!(lang, "Share"), lang, on_close),
    }
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
