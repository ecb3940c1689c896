//! Share: the current state's link (copied, and as a QR code for the room), an iframe snippet
//! for a documentation page, the run as files (JSON lines, Mermaid, the diagram as SVG), and,
//! when the link is too long for an address, the state as a file that opens here again.
//!
//! The QR code is drawn by the `qrcode-generator` script, fetched only when this dialog
//! opens (nothing of it is in the first load).

use gloo::events::EventListener;
use informer_sim::i18n::Lang;
use informer_sim::session::Session;
use informer_sim::views::export::{self, Share};
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// A file the dialog offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Download {
    /// The state's link (when it is too long for an address).
    State,
    TraceJsonl,
    TraceMermaid,
    DiagramSvg,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub share: Share,
    pub lang: Lang,
    pub on_download: Callback<Download>,
    pub on_close: Callback<()>,
}

#[function_component(ShareDialog)]
pub fn share_dialog(props: &Props) -> Html {
    let lang = props.lang;
    let copied = use_state(|| None::<Result<&'static str, ()>>);
    let qr = use_state(|| None::<String>);
    {
        let (qr, link) = (qr.clone(), props.share.link.clone());
        use_effect_with(link, move |link| {
            let link = link.clone();
            with_qr_script(move || qr.set(qr_data_url(&link)));
        });
    }
    let copy = |what: &'static str, field: &'static str, text: String| {
        let copied = copied.clone();
        Callback::from(move |_| {
            // Plain http on a room's network is no secure context: no clipboard there. The text
            // is selected instead, for the person to copy.
            let Some(clipboard) = clipboard() else {
                select(field);
                copied.set(Some(Err(())));
                return;
            };
            let promise = clipboard.write_text(&text);
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let done = wasm_bindgen_futures::JsFuture::from(promise).await;
                copied.set(Some(done.map(|_| what).map_err(|_| ())));
            });
        })
    };
    let download = |what: Download| {
        let on_download = props.on_download.clone();
        Callback::from(move |_| on_download.emit(what))
    };
    let on_close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_| on_close.emit(()))
    };
    let status = match *copied {
        Some(Ok("link")) => tr!(lang, "The link is copied."),
        Some(Ok(_)) => tr!(lang, "The snippet is copied."),
        Some(Err(())) => {
            tr!(lang, "The browser did not allow copying: the text is selected, copy it with Ctrl+C (⌘C).")
        }
        None => "",
    };
    let share = &props.share;
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="share-heading">
            <div class="panel share">
                <h2 id="share-heading">{ tr!(lang, "Share this moment") }</h2>
                if share.too_long {
                    <p>{ trf!(lang, "This link is {n} characters long, too long for an address: save the state as a file, and open the file here to restore it.", &[("n", &share.link.len())]) }</p>
                    <button type="button" onclick={download(Download::State)}>{ tr!(lang, "Save the state as a file") }</button>
                } else {
                    <label for="share-link">{ tr!(lang, "Link") }</label>
                    <div class="share-row">
                        <input id="share-link" type="text" readonly=true value={share.link.clone()} />
                        <button type="button" onclick={copy("link", "share-link", share.link.clone())}>{ tr!(lang, "Copy the link") }</button>
                    </div>
                    if let Some(src) = (*qr).clone() {
                        <img class="qr" {src} alt={tr!(lang, "QR code of the link")} />
                    }
                    if opened_on_loopback() {
                        <p class="warning" role="note">{ tr!(lang, "This page is open at this machine's own address: no one else can open the link. To share it with a room, serve the bundle on the network (make room).") }</p>
                    }
                }
                <label for="share-snippet">{ tr!(lang, "Embed in a page") }</label>
                <div class="share-row">
                    <textarea id="share-snippet" readonly=true rows="3" value={share.snippet.clone()} />
                    <button type="button" onclick={copy("snippet", "share-snippet", share.snippet.clone())}>{ tr!(lang, "Copy the snippet") }</button>
                </div>
                <p class="copied" role="status">{ status }</p>
                <h3>{ tr!(lang, "Download") }</h3>
                <div class="share-row" role="group" aria-label={tr!(lang, "Download")}>
                    <button type="button" onclick={download(Download::TraceJsonl)}>{ tr!(lang, "The run as JSON lines") }</button>
                    <button type="button" onclick={download(Download::TraceMermaid)}>{ tr!(lang, "The run as a Mermaid diagram") }</button>
                    <button type="button" onclick={download(Download::DiagramSvg)}>{ tr!(lang, "This step's diagram as SVG") }</button>
                </div>
                <label for="share-open">{ tr!(lang, "Open a saved state") }</label>
                <input id="share-open" type="file" accept=".txt,text/plain" onchange={Callback::from(open_saved_state)} />
                <button type="button" onclick={on_close} aria-keyshortcuts="Escape">{ tr!(lang, "Close") }</button>
            </div>
        </div>
    }
}

/// The browser's clipboard, where the page may use it (a secure context).
fn clipboard() -> Option<web_sys::Clipboard> {
    let navigator = web_sys::window()?.navigator();
    let there = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).ok()?;
    (!there.is_undefined()).then(|| navigator.clipboard())
}

/// Selects the text of a field by its id.
fn select(id: &str) {
    let Some(element) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
        input.select();
    } else if let Some(area) = element.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        area.select();
    }
}

/// Whether the page was opened at a loopback address, which a link cannot take to anyone else.
fn opened_on_loopback() -> bool {
    let host = web_sys::window().and_then(|w| w.location().hostname().ok()).unwrap_or_default();
    host == "localhost" || host.starts_with("127.") || host == "[::1]"
}

/// Runs `then` once the QR script is on the page (adding it the first time).
fn with_qr_script(then: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else { return };
    if js_sys::Reflect::has(&window, &JsValue::from_str("qrcode")).unwrap_or(false) {
        return then();
    }
    let Some(document) = window.document() else { return };
    let Ok(script) = document.create_element("script") else { return };
    let _ = script.set_attribute("src", "qrcode.js");
    let mut then = Some(then);
    EventListener::once(&script, "load", move |_| {
        if let Some(then) = then.take() {
            then()
        }
    })
    .forget();
    if let Some(head) = document.head() {
        let _ = head.append_child(&script);
    }
}

/// The link as a QR code image (`data:` URL), by the `qrcode-generator` script.
fn qr_data_url(text: &str) -> Option<String> {
    let window = web_sys::window()?;
    let call = |target: &JsValue, name: &str, args: &[JsValue]| -> Option<JsValue> {
        let method =
            js_sys::Reflect::get(target, &JsValue::from_str(name)).ok()?.dyn_into::<js_sys::Function>().ok()?;
        method.apply(target, &args.iter().collect::<js_sys::Array>()).ok()
    };
    let qr = call(&window, "qrcode", &[JsValue::from(0), JsValue::from_str("M")])?;
    call(&qr, "addData", &[JsValue::from_str(text)])?;
    call(&qr, "make", &[])?;
    call(&qr, "createDataURL", &[JsValue::from(4), JsValue::from(8)])?.as_string()
}

/// Opens a saved state file: its text is a link (or just its query), which the page opens
/// like any link (so a bad file gets the link's notices, never a broken page).
fn open_saved_state(e: Event) {
    let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
    let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
    let text = file.text();
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(text) = wasm_bindgen_futures::JsFuture::from(text).await else { return };
        let text = text.as_string().unwrap_or_default();
        let query = text.trim().split_once('?').map_or(text.trim(), |(_, q)| q).to_string();
        if let Some(window) = web_sys::window() {
            let _ = window.location().set_search(&query);
        }
    });
}

/// Offers `text` as a file named `name`.
pub fn save(name: &str, mime: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = document.create_element("a").map(|a| a.unchecked_into::<web_sys::HtmlAnchorElement>()) {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    gloo::timers::callback::Timeout::new(1_000, move || drop(web_sys::Url::revoke_object_url(&url))).forget();
}

/// Saves what `what` names of the session's state, named after the lesson and the step.
fn download(session: &Session, what: Download) {
    let lang = session.lang();
    let name = session.link().scenario.unwrap_or_else(|| "sandbox".into());
    let step = session.world().steps();
    match what {
        Download::State => {
            let link = export::share(&super::page_address(), &session.link()).link;
            save(&format!("{name}-step-{step}.txt"), "text/plain", &link)
        }
        Download::TraceJsonl => save(
            &format!("{name}-{step}-steps.jsonl"),
            "application/jsonl",
            &export::jsonl(session.visible_trace(), lang),
        ),
        Download::TraceMermaid => {
            save(&format!("{name}-{step}-steps.mmd"), "text/plain", &export::mermaid(session.visible_trace(), lang))
        }
        Download::DiagramSvg => save(
            &format!("{name}-step-{step}.svg"),
            "image/svg+xml",
            &export::diagram_svg(session, &informer_sim::views::diagram::Palette::LIGHT),
        ),
    }
}

/// Share's module: the dialog and the files it offers.
pub struct ShareModule {
    /// The dialog for the link of what is on the screen.
    pub dialog: fn(&informer_sim::session::link::Link, Lang, Callback<Download>, Callback<()>) -> Html,
    pub download: fn(&Session, Download),
}

super::modules::split_point!(
    share,
    share_module,
    ShareModule,
    ShareModule {
        dialog: |link, lang, on_download, on_close| {
            let share = export::share(&super::page_address(), link);
            html! { <ShareDialog {share} {lang} {on_download} {on_close} /> }
        },
        download,
    }
);
