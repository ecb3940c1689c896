//! Lessons from outside the bundle: a lesson file opened from the person's machine (chosen, or
//! dropped on the dialog), fetched from an address (`?lesson=https://…`, served with CORS), or
//! carried in the link itself (its JSON compressed with raw DEFLATE, in base64url). Every one is
//! checked by `session::verify` — what `informer-playground validate` checks, in every release
//! it declares — and taken into the library only when it passes; otherwise every reason is
//! shown and nothing of it is loaded. The file is data: its texts are drawn as text, its size
//! is bounded before it is read, and it plays in the same world as a bundled lesson. A module of
//! its own, fetched when a lesson is opened this way.

use informer_sim::i18n::Lang;
use informer_sim::limits::MAX_LESSON_BYTES;
use informer_sim::scenario::library::{self, Source};
use informer_sim::session::link::{Link, Notice, Problem};
use informer_sim::session::open_lesson;
use informer_sim::session::Action;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// A lesson opened (its id), or every reason it was not.
pub type Opened = Result<String, Vec<String>>;

pub struct OpenerModule {
    /// The dialog that opens a lesson file or address.
    pub dialog: fn(Lang, Callback<Action>, Callback<()>) -> Html,
    /// Opens the page on a link that names a lesson from outside: the lesson first, then the
    /// page on the link with its id, or, refused, without it and with every reason among the
    /// link's notices (in the language the page opens in).
    pub start: fn(Link, Vec<Notice>),
    /// Checks a lesson's file from elsewhere (a room's) and takes it into the library: its id,
    /// or every reason, told to the callback.
    pub adopt: fn(String, Callback<Opened>),
}

super::modules::split_point!(
    opener,
    opener_module,
    OpenerModule,
    OpenerModule {
        dialog: |lang, on_action, on_close| html! { <OpenDialog {lang} {on_action} {on_close} /> },
        start: |link, notices| wasm_bindgen_futures::spawn_local(start(link, notices)),
        adopt: |text, told| {
            wasm_bindgen_futures::spawn_local(async move { told.emit(take("lesson.json", &text, Source::Local).await) })
        },
    }
);

#[wasm_bindgen]
extern "C" {
    /// The browser's `CompressionStream` / `DecompressionStream` (web-sys has them only behind
    /// its unstable flag): a transform stream for one format.
    type CodecStream;
    #[wasm_bindgen(constructor, catch, js_class = "DecompressionStream", js_name = "DecompressionStream")]
    fn decompression(format: &str) -> Result<CodecStream, JsValue>;
    #[wasm_bindgen(constructor, catch, js_class = "CompressionStream", js_name = "CompressionStream")]
    fn compression(format: &str) -> Result<CodecStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &CodecStream) -> web_sys::ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &CodecStream) -> web_sys::WritableStream;
}

async fn start(mut link: Link, mut notices: Vec<Notice>) {
    let Some(source) = link.lesson.clone() else { return super::open_on(link, notices) };
    match open(source, super::app::opening_lang(&link)).await {
        Ok(id) => {
            link.scenario.get_or_insert(id);
        }
        Err(reasons) => {
            notices.push(Notice { param: "lesson".into(), problem: Problem::LessonRefused { reasons } });
            link.lesson = None;
            // Nor what it would have done in that lesson: the page opens as it would without it.
            if link.scenario.as_deref().is_some_and(|id| library::file_of(id).is_none()) {
                (link.scenario, link.step) = (None, None);
                link.actions.clear();
            }
        }
    }
    super::open_on(link, notices)
}

/// Opens the lesson at `source`: fetched or decoded, checked, and taken into the library.
async fn open(source: Source, lang: Lang) -> Opened {
    let (file, read) = match &source {
        Source::Address(address) => (address.clone(), fetch(address).await),
        Source::Carried(carried) => ("lesson=".to_string(), uncarry(carried).await),
        Source::Local => return Err(Vec::new()),
    };
    let text = read.map_err(|unread| vec![format!("{file}: {}", unread.describe(lang))])?;
    take(&file, &text, source).await
}

/// Why a lesson's file could not be read (before any check of what it says).
enum Unread {
    Fetch,
    Http(u16),
    TooLong(usize),
    NotUtf8,
    NotBase64,
    NotDeflate,
    NoCodec,
}

impl Unread {
    fn describe(&self, lang: Lang) -> String {
        match self {
            Unread::Fetch => {
                tr!(lang, "could not be fetched (offline, or its host does not let other sites read it: CORS)").into()
            }
            Unread::Http(status) => trf!(lang, "the host answered HTTP {status}", &[("status", status)]),
            Unread::TooLong(bytes) => trf!(
                lang,
                "the file is {bytes} bytes or more; a lesson is at most {max}",
                &[("bytes", bytes), ("max", &MAX_LESSON_BYTES)]
            ),
            Unread::NotUtf8 => tr!(lang, "not UTF-8 text").into(),
            Unread::NotBase64 => tr!(lang, "not base64url").into(),
            Unread::NotDeflate => tr!(lang, "not a lesson compressed with raw DEFLATE").into(),
            Unread::NoCodec => tr!(lang, "this browser cannot decompress it").into(),
        }
    }
}

/// Once the console's module is here: a challenge's console moves are checked by playing them.
async fn console_here() {
    let here = js_sys::Promise::new(&mut |resolve, _| {
        super::modules::with(super::modules::Module::Console, move || drop(resolve.call0(&JsValue::NULL)))
    });
    let _ = JsFuture::from(here).await;
}

/// Checks a lesson's text and takes it into the library: its id, or every reason.
async fn take(file: &str, text: &str, source: Source) -> Opened {
    console_here().await;
    Ok(open_lesson(file, text, source)?.id.clone())
}

/// A lesson file at an address, refused unread when it says it is too long.
async fn fetch(address: &str) -> Result<String, Unread> {
    let init = web_sys::RequestInit::new();
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_credentials(web_sys::RequestCredentials::Omit);
    let window = web_sys::window().ok_or(Unread::Fetch)?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str_and_init(address, &init))
        .await
        .map_err(|_| Unread::Fetch)?
        .unchecked_into();
    if !response.ok() {
        return Err(Unread::Http(response.status()));
    }
    let length = response.headers().get("content-length").ok().flatten().and_then(|l| l.parse::<usize>().ok());
    if let Some(length) = length.filter(|l| *l > MAX_LESSON_BYTES) {
        return Err(Unread::TooLong(length));
    }
    let body = response.body().ok_or(Unread::Fetch)?;
    text_of(read_bounded(&body).await.map_err(|e| e.unwrap_or(Unread::Fetch))?)
}

/// A lesson carried in a link: base64url, then raw DEFLATE, then UTF-8.
async fn uncarry(carried: &str) -> Result<String, Unread> {
    let bytes = informer_sim::base64::decode_url(carried).ok_or(Unread::NotBase64)?;
    let codec = CodecStream::decompression("deflate-raw").map_err(|_| Unread::NoCodec)?;
    let stream =
        blob(&bytes).stream().pipe_through(&web_sys::ReadableWritablePair::new(&codec.readable(), &codec.writable()));
    text_of(read_bounded(&stream).await.map_err(|e| e.unwrap_or(Unread::NotDeflate))?)
}

/// A lesson's text as a link carries it: raw DEFLATE, then base64url (`None` where the browser
/// cannot compress).
pub async fn carry(text: &str) -> Option<String> {
    let codec = CodecStream::compression("deflate-raw").ok()?;
    let stream = blob(text.as_bytes())
        .stream()
        .pipe_through(&web_sys::ReadableWritablePair::new(&codec.readable(), &codec.writable()));
    Some(informer_sim::base64::encode_url(&read_bounded(&stream).await.ok()?))
}

fn blob(bytes: &[u8]) -> web_sys::Blob {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    web_sys::Blob::new_with_u8_array_sequence(&parts).unwrap_or_else(|_| web_sys::Blob::new().expect("an empty blob"))
}

/// A stream's bytes, refused once they pass a lesson's bound (a small compressed lesson may
/// expand without end); `Err(None)`: the stream failed.
async fn read_bounded(stream: &web_sys::ReadableStream) -> Result<Vec<u8>, Option<Unread>> {
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut bytes = Vec::new();
    loop {
        let chunk: web_sys::ReadableStreamReadResult =
            JsFuture::from(reader.read()).await.map_err(|_| None)?.unchecked_into();
        if chunk.get_done().unwrap_or(true) {
            return Ok(bytes);
        }
        bytes.extend(js_sys::Uint8Array::new(&chunk.get_value()).to_vec());
        if bytes.len() > MAX_LESSON_BYTES {
            let _ = reader.cancel();
            return Err(Some(Unread::TooLong(bytes.len())));
        }
    }
}

fn text_of(bytes: Vec<u8>) -> Result<String, Unread> {
    String::from_utf8(bytes).map_err(|_| Unread::NotUtf8)
}

/// A file the person chose or dropped: read (when not too long), checked, and taken in, carried
/// in the page's link when it is short enough to be.
async fn open_file(file: web_sys::File, lang: Lang) -> Opened {
    let name = file.name();
    let size = file.size() as usize;
    if size > MAX_LESSON_BYTES {
        return Err(vec![informer_sim::session::too_long(&name, size).to_string()]);
    }
    let bytes = JsFuture::from(file.array_buffer()).await.map(|b| js_sys::Uint8Array::new(&b).to_vec());
    let text = bytes.ok().and_then(|b| String::from_utf8(b).ok());
    let text = text.ok_or_else(|| vec![format!("{name}: {}", Unread::NotUtf8.describe(lang))])?;
    let source = match carry(&text).await {
        Some(carried) if carried.len() <= informer_sim::session::link::MAX_CARRIED => Source::Carried(carried),
        _ => Source::Local,
    };
    take(&name, &text, source).await
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub lang: Lang,
    pub on_action: Callback<Action>,
    pub on_close: Callback<()>,
}

/// Where the dialog stands.
#[derive(Clone, PartialEq)]
enum Stand {
    Ready,
    Checking(String),
    Refused(String, Vec<String>),
}

#[function_component(OpenDialog)]
fn open_dialog(props: &Props) -> Html {
    let lang = props.lang;
    let stand = use_state(|| Stand::Ready);
    let address = use_state(String::new);
    // What comes back from a check: the lesson opened (and the dialog closed), or its reasons.
    let settle = {
        let (stand, on_action, on_close) = (stand.clone(), props.on_action.clone(), props.on_close.clone());
        move |what: String, opened: Opened| match opened {
            Ok(id) => {
                on_action.emit(Action::LoadScenario(id));
                on_close.emit(());
            }
            Err(reasons) => stand.set(Stand::Refused(what, reasons)),
        }
    };
    let open_files = {
        let (stand, settle) = (stand.clone(), settle.clone());
        Callback::from(move |files: Option<web_sys::FileList>| {
            let Some(file) = files.and_then(|f| f.get(0)) else { return };
            stand.set(Stand::Checking(file.name()));
            let settle = settle.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.name();
                settle(name, open_file(file, lang).await);
            });
        })
    };
    let on_pick = open_files.reform(|e: Event| e.target_unchecked_into::<web_sys::HtmlInputElement>().files());
    let on_drop = open_files.reform(|e: DragEvent| {
        e.prevent_default();
        e.data_transfer().and_then(|d| d.files())
    });
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let on_address = {
        let address = address.clone();
        Callback::from(move |e: InputEvent| address.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let on_fetch = {
        let (stand, address, settle) = (stand.clone(), address.clone(), settle.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let value = address.trim().to_string();
            let (link, _) = informer_sim::session::link::Link::parse(&format!(
                "?lesson={}",
                informer_sim::percent::percent_encode(&value)
            ));
            let Some(source @ Source::Address(_)) = link.lesson else {
                stand.set(Stand::Refused(value, vec![tr!(lang, "expected an https address of a lesson file").into()]));
                return;
            };
            stand.set(Stand::Checking(value.clone()));
            let settle = settle.clone();
            wasm_bindgen_futures::spawn_local(async move { settle(value, open(source, lang).await) });
        })
    };
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    let outcome = match &*stand {
        Stand::Ready => html! {},
        Stand::Checking(what) => html! {
            <p role="status" aria-busy="true">{ trf!(lang, "Checking {what} in every release it runs in…", &[("what", what)]) }</p>
        },
        Stand::Refused(what, reasons) => html! {
            <div class="refused" role="alert">
                <p>{ trf!(lang, "{what} could not be opened:", &[("what", what)]) }</p>
                <ul>{ for reasons.iter().map(|r| html! { <li class="mono">{ r }</li> }) }</ul>
            </div>
        },
    };
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="open-heading">
            <div class="panel opener">
                <h2 id="open-heading">{ tr!(lang, "Open a lesson") }</h2>
                <p>{ tr!(lang, "A lesson file (JSON, checked as informer-playground validate checks it) from this computer, or from an https address whose host lets other sites read it (CORS).") }</p>
                <label class="drop-zone" ondragover={on_drag_over} ondrop={on_drop}>
                    { tr!(lang, "Choose a lesson file, or drop it here") }
                    <input type="file" accept=".json,application/json" onchange={on_pick} />
                </label>
                <form class="opener-address" onsubmit={on_fetch}>
                    <label for="lesson-address">{ tr!(lang, "Address of a lesson file") }</label>
                    <input id="lesson-address" type="url" value={(*address).clone()} oninput={on_address} />
                    <button type="submit">{ tr!(lang, "Open") }</button>
                </form>
                { outcome }
                <button type="button" onclick={on_close} aria-keyshortcuts="Escape">{ tr!(lang, "Close") }</button>
            </div>
        </div>
    }
}
