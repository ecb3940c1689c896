//! The page's later modules: the code a first step never runs — the console, compare, Share
//! and its exports, the guide, the figures — is compiled into modules of its own, each fetched
//! the first time it is asked for (or once the page is live, to arrive while the reader reads:
//! a module the page draws without is never compiled on the start's path). A module is a table
//! of functions its split point returns; once it has arrived the page calls them as it calls its
//! own. While one is on its way the control that waits for it says so; a module that cannot
//! arrive says that, and the rest of the page goes on.
//!
//! The release build splits the wasm at each module's split point (`scripts/split.mjs`, with
//! the `split` feature); without it — the browser tests — every module is in the one module
//! and "arrives" at once, through the same code.

use informer_sim::i18n::Lang;
use informer_sim::kernel::SmallMap;
use std::any::Any;
use std::cell::RefCell;
use yew::prelude::*;

/// Where a module stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Absent,
    Loading,
    Here,
    Failed,
}

/// Declares a module's split point: the function that returns its table, in a wasm module of
/// its own when the page is split (the body runs when the module has arrived, once).
macro_rules! split_point {
    ($module:ident, $name:ident, $table:ty, $body:expr) => {
        #[cfg(feature = "split")]
        #[wasm_split_helpers::wasm_split($module, fallible)]
        fn $name() -> Result<$table, wasm_split_helpers::SplitLoaderError> {
            Ok($body)
        }

        #[cfg(not(feature = "split"))]
        async fn $name() -> Result<$table, ()> {
            Ok($body)
        }

        /// Fetches the module (once it has arrived, at once).
        pub async fn load() -> Result<$table, ()> {
            $name().await.map_err(|_| ())
        }
    };
}
pub(crate) use split_point;

/// The later modules: each its name as the page says it, its table, and where it is loaded.
macro_rules! modules {
    ($($(#[$doc:meta])* $module:ident ($what:literal): $table:ty = $from:ident, $get:ident;)*) => {
        /// A later module.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Module {
            $($(#[$doc])* $module,)*
        }

        impl Module {
            /// What the page waits for, as it says so.
            fn what(self, lang: Lang) -> &'static str {
                match self {
                    $(Module::$module => tr!(lang, $what),)*
                }
            }
        }

        /// Fetches `module` and keeps its table.
        async fn fetch(module: Module) -> Result<(), ()> {
            let table: &'static dyn Any = match module {
                $(Module::$module => Box::leak(Box::new(super::$from::load().await?)),)*
            };
            TABLES.with(|t| t.borrow_mut().insert(module, table));
            Ok(())
        }

        $(
            #[doc = concat!("The ", $what, " module's table, once it is here.")]
            #[allow(dead_code)]
            pub fn $get() -> Option<&'static $table> {
                table(Module::$module)
            }
        )*
    };
}

modules! {
    /// kubectl, the manifest reader and the panels that write (the console, the object form).
    Console("the console"): super::console_panel::ConsoleModule = console_panel, console;
    /// The costs panel and the servers' inspectors' tables (etcd's revisions, the API server's
    /// metrics).
    Figures("the figures"): super::figures::FiguresModule = figures, figures;
    /// Share: the link, the QR code, the iframe snippet, the exports and saved states.
    Share("Share"): super::share_dialog::ShareModule = share_dialog, share;
    /// Two releases side by side.
    Compare("the comparison"): super::compare_panel::CompareModule = compare_panel, compare;
    /// The facilitator's guide.
    Guide("the guide"): super::guide_dialog::GuideModule = guide_dialog, guide;
    /// The host-page API (the reader of its commands, what the page tells), in another page's
    /// frame.
    Host("the host page's commands"): super::embed::HostModule = embed, host;
    /// The Korean phrasebook.
    Korean("Korean"): super::korean::KoreanModule = korean, korean;
    /// The reader of a link's recorded actions.
    Recorded("the link's recorded actions"): super::recorded::RecordedModule = recorded, recorded;
    /// A workshop room's bar: following, votes, the facilitator's controls.
    Room("the room"): super::room_panel::RoomModule = room_panel, room;
    /// Lessons opened from a file, an address or the link itself, and their checks.
    Opener("the lesson opener"): super::lesson_opener::OpenerModule = lesson_opener, opener;
    /// The lesson builder.
    Builder("the lesson builder"): super::lesson_builder::BuilderModule = lesson_builder, builder;
    /// Live mode: serve-api's world and a lane for each real client.
    Live("live mode"): super::live_panel::LiveModule = live_panel, live;
}

thread_local! {
    static STATUS: RefCell<SmallMap<Module, Status>> = const { RefCell::new(SmallMap::new()) };
    /// The tables of the modules here.
    static TABLES: RefCell<SmallMap<Module, &'static dyn Any>> = const { RefCell::new(SmallMap::new()) };
    /// Told when a module arrives or fails: the page draws again.
    static NOTIFY: RefCell<Option<Callback<Module>>> = const { RefCell::new(None) };
    /// What waits for a module to arrive, to run once it has.
    static WAITING: RefCell<Vec<(Module, Then)>> = const { RefCell::new(Vec::new()) };
    /// What waits for a module to arrive or fail, told which.
    static SETTLING: RefCell<Vec<(Module, Settled)>> = const { RefCell::new(Vec::new()) };
    /// The modules asked for once the page is live, until it is (then `None`).
    static ONCE_LIVE: RefCell<Option<Vec<Module>>> = const { RefCell::new(Some(Vec::new())) };
}

/// What runs once a module has arrived.
type Then = Box<dyn FnOnce()>;

/// What runs once a module has arrived (`true`) or failed to (`false`).
type Settled = Box<dyn FnOnce(bool)>;

fn table<T: 'static>(module: Module) -> Option<&'static T> {
    TABLES.with(|t| t.borrow().get(&module).copied()).and_then(|table| table.downcast_ref())
}

/// Where `module` stands.
pub fn status(module: Module) -> Status {
    STATUS.with(|s| s.borrow().get(&module).copied().unwrap_or(Status::Absent))
}

fn set(module: Module, status: Status) {
    let asked_first = status == Status::Loading && self::status(module) == Status::Absent;
    STATUS.with(|s| s.borrow_mut().insert(module, status));
    if status == Status::Here {
        let ready: Vec<Then> = WAITING.with(|w| {
            let mut waiting = w.borrow_mut();
            let (ready, rest) = waiting.drain(..).partition::<Vec<_>, _>(|(m, _)| *m == module);
            *waiting = rest;
            ready.into_iter().map(|(_, then)| then).collect()
        });
        ready.into_iter().for_each(|then| then());
    }
    if matches!(status, Status::Here | Status::Failed) {
        let settled: Vec<Settled> = SETTLING.with(|w| {
            let mut settling = w.borrow_mut();
            let (settled, rest) = settling.drain(..).partition::<Vec<_>, _>(|(m, _)| *m == module);
            *settling = rest;
            settled.into_iter().map(|(_, then)| then).collect()
        });
        settled.into_iter().for_each(|then| then(status == Status::Here));
    }
    // A module on its way is drawn as one not yet asked for ("Loading …"): the page is drawn
    // again when one arrives or fails, or is asked for again after failing.
    if asked_first {
        return;
    }
    if let Some(notify) = NOTIFY.with(|n| n.borrow().clone()) {
        notify.emit(module);
    }
}

/// The page's callback for a module arriving or failing.
pub fn on_change(notify: Callback<Module>) {
    NOTIFY.with(|n| *n.borrow_mut() = Some(notify));
}

/// Starts fetching `module` unless it is here or on its way (a failed one is tried again).
pub fn ask(module: Module) {
    if matches!(status(module), Status::Here | Status::Loading) {
        return;
    }
    set(module, Status::Loading);
    wasm_bindgen_futures::spawn_local(async move {
        let arrived = fetch(module).await;
        set(module, if arrived.is_ok() { Status::Here } else { Status::Failed });
    });
}

/// Asks for `module` once the page is live (at once when it is): a module the page draws
/// without, whose arriving (its compiling, the page drawn again) stays off the start's path.
pub fn ask_once_live(module: Module) {
    let waits = ONCE_LIVE.with(|once| once.borrow_mut().as_mut().map(|waiting| waiting.push(module)).is_some());
    if !waits {
        ask(module);
    }
}

/// The page is live: asks for the modules that waited for it, each in a task of its own after
/// this one. Asking fetches a module and the chunks it imports, a few milliseconds of the main
/// thread each on a phone: asked in the task that marks the page live, they made it one long
/// task.
pub fn page_live() {
    for module in ONCE_LIVE.with(|once| once.borrow_mut().take()).unwrap_or_default() {
        super::later(move || ask(module));
    }
}

/// Runs `then` once every one of `modules` is here, or with the first that cannot arrive.
pub fn with_all(mut modules: Vec<Module>, then: impl FnOnce(Result<(), Module>) + 'static) {
    match modules.pop() {
        Some(module) => settled(module, move |here| match here {
            true => with_all(modules, then),
            false => then(Err(module)),
        }),
        None => then(Ok(())),
    }
}

/// Runs `then` once `module` has arrived (`true`, at once when it is here) or failed to
/// (`false`; a module that failed before is asked for again).
pub fn settled(module: Module, then: impl FnOnce(bool) + 'static) {
    if status(module) == Status::Here {
        return then(true);
    }
    SETTLING.with(|w| w.borrow_mut().push((module, Box::new(then))));
    ask(module);
}

/// Runs `then` once `module` is here (at once when it already is).
pub fn with(module: Module, then: impl FnOnce() + 'static) {
    if status(module) == Status::Here {
        return then();
    }
    WAITING.with(|w| w.borrow_mut().push((module, Box::new(then))));
    ask(module);
}

#[derive(Properties, PartialEq)]
pub struct WaitingProps {
    pub module: Module,
    /// Where it stands (a prop, so the panel is drawn again when it changes).
    pub status: Status,
    pub lang: Lang,
    /// Asked for at once, not once the page is live: a module the link opens with.
    pub now: bool,
}

/// In a module's place until it is here: "loading …", or what failed and a way to try again.
/// The page is live without it: it is asked for once the page is.
pub fn waiting(module: Module, lang: Lang) -> Html {
    html! { <Waiting {module} status={status(module)} {lang} now={false} /> }
}

/// As `waiting`, for a module the link opens with (live mode, a room's bar): asked for at once.
pub fn waiting_now(module: Module, lang: Lang) -> Html {
    html! { <Waiting {module} status={status(module)} {lang} now={true} /> }
}

#[function_component(Waiting)]
fn waiting_panel(props: &WaitingProps) -> Html {
    let (module, lang) = (props.module, props.lang);
    use_effect_with((module, props.now), |(module, now)| match now {
        true => ask(*module),
        false => ask_once_live(*module),
    });
    match props.status {
        Status::Failed => failed(module, lang),
        _ => html! {
            <p class="module-loading" role="status" aria-busy="true">{ trf!(lang, "Loading {what}…", &[("what", &module.what(lang))]) }</p>
        },
    }
}

/// That `module` could not arrive, and a way to ask for it again (what waited for it then runs).
pub fn failed(module: Module, lang: Lang) -> Html {
    let what = module.what(lang);
    html! {
        <p class="module-failed" role="alert">
            { trf!(lang, "Could not load {what} (offline, or the page was updated).", &[("what", &what)]) }
            { " " }
            <button type="button" class="small" onclick={Callback::from(move |_| ask(module))}>{ tr!(lang, "Try again") }</button>
        </p>
    }
}

/// A dialog whose module is on its way: the dialog's frame, named `label`, saying so (and
/// closing as the dialog would).
pub fn waiting_dialog(module: Module, label: &'static str, lang: Lang, on_close: Callback<()>) -> Html {
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-label={label}>
            <div class="panel">
                { waiting(module, lang) }
                <button type="button" onclick={on_close.reform(|_| ())} aria-keyshortcuts="Escape">{ tr!(lang, "Close") }</button>
            </div>
        </div>
    }
}
