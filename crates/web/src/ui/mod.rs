//! The page (wasm32 only): Yew components that show a [`Session`](informer_sim::session::Session)
//! and send it actions. Components never change the world themselves.

mod app;
mod challenge_panel;
mod compare_panel;
mod console_panel;
mod controls;
mod cost_panel;
pub mod crash;
mod embed;
mod event_log;
mod faults;
mod figures;
mod first_screen;
mod guide_dialog;
mod hooks;
mod in_room;
mod inspector;
mod korean;
mod lesson_builder;
mod lesson_opener;
mod lesson_panel;
mod lessons;
mod live_client;
mod live_panel;
mod marked;
mod metrics_panel;
mod modules;
mod object_form;
mod objects_table;
mod parts;
mod pipeline_diagram;
mod recorded;
mod revision_ruler;
mod revision_timeline;
mod room_client;
mod room_panel;
mod share_dialog;
mod state;

pub use app::App;
pub use state::PageState;

/// Mounts the playground on the page's `<div id="playground">` (or the body), once the lesson
/// its link names is loaded. The opening session and the first render run as tasks of their
/// own, after the one that started the wasm: each is shorter than the three together, so the
/// browser answers input between them.
pub fn start() {
    crash::install();
    let query = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    // A link's recorded actions are read by a module of their own.
    match recorded::in_query(&query) {
        true => opening_with(vec![modules::Module::Recorded], open_link),
        false => open_link(),
    }
}

/// Runs `then` once the modules the page opens with are here. One that cannot arrive (offline
/// without the worker's copy, or a page updated since) stops the start: the page says it could
/// not start, with a way to reload it (`www/index.html`'s notice), instead of waiting.
fn opening_with(needs: Vec<modules::Module>, then: impl FnOnce() + 'static) {
    modules::with_all(needs, move |arrived| match arrived {
        Ok(()) => then(),
        Err(_) => first_screen::mark_start_failed(),
    });
}

/// Opens the page on its link: first, in the opener's module, the lesson it carries or names the
/// address of, if any.
fn open_link() {
    let (link, notices) = app::page_link();
    if link.lesson.is_none() {
        return open_on(link, notices);
    }
    opening_with(vec![modules::Module::Opener], move || {
        if let Some(opener) = modules::opener() {
            (opener.start)(link, notices)
        }
    });
}

/// Opens the page on `link`, once what it needs has arrived.
pub(crate) fn open_on(link: informer_sim::session::link::Link, notices: Vec<informer_sim::session::link::Notice>) {
    let lesson = link.scenario.clone();
    // What the opening needs first: the console's module for a link whose actions write or
    // type in the console, the Korean phrasebook for a page that opens in Korean.
    let mut needs = Vec::new();
    if link.actions.iter().any(|(_, action)| hooks::needs_console(action)) {
        needs.push(modules::Module::Console);
    }
    if app::opening_lang(&link) == informer_sim::i18n::Lang::Ko {
        needs.push(modules::Module::Korean);
    }
    let open = move || {
        opening_with(needs, move || {
            // The figures are read, not operated: asked for once the page is live, they arrive
            // while the reader reads, their compiling off the start's path.
            modules::ask_once_live(modules::Module::Figures);
            later(move || {
                app::prepare(link, notices);
                later(render);
            })
        })
    };
    match lesson {
        // A lesson's file is fetched before the page opens on it.
        Some(lesson) => lessons::ensure(&lesson, move |_| open()),
        None => open(),
    }
}

fn render() {
    let document = web_sys::window().and_then(|w| w.document());
    match document.and_then(|d| d.get_element_by_id("playground")) {
        Some(root) => yew::Renderer::<App>::with_root(first_screen::mount_point(root)).render(),
        None => yew::Renderer::<App>::new().render(),
    };
}

/// The page's origin and path: where a shared link points.
pub(crate) fn page_address() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return String::new() };
    format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default())
}

/// Runs `f` as a task of its own.
pub(crate) fn later(f: impl FnOnce() + 'static) {
    gloo::timers::callback::Timeout::new(0, f).forget();
}
