//! Lessons on demand: the page builds in only the lessons' index; a lesson's file, in the
//! compact form the build writes beside its JSON (`scenarios/NN-id.bin`,
//! `informer_sim::scenario::compact`), is fetched the first time it is opened and read into the
//! library. A file that cannot be fetched or read is reported as the lesson's notice.

use informer_sim::scenario::library;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Makes lesson `id` available, then calls `then` (at once when it is already loaded or is not
/// a bundled lesson: the session names what is wrong with an unknown id).
pub fn ensure(id: &str, then: impl FnOnce(Result<(), String>) + 'static) {
    let Some(file) = library::file_of(id).filter(|_| library::find(id).is_none()) else {
        return then(Ok(()));
    };
    wasm_bindgen_futures::spawn_local(async move { then(fetch(file).await) });
}

async fn fetch(file: &'static str) -> Result<(), String> {
    // The build `first-screen.js` read from the wasm's name (`data-build`), on the address it
    // preloaded: a service worker that kept this build answers from its cache.
    let build = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|html| html.get_attribute("data-build"));
    let query = build.map(|b| format!("?build={b}")).unwrap_or_default();
    let compact = file.trim_end_matches(".json");
    let bytes = fetch_bytes(&format!("scenarios/{compact}.bin{query}")).await?;
    library::provide(file, &bytes).map(|_| ()).map_err(|e| e.to_string())
}

/// The bytes of a file beside the page; an error names the file and what failed.
pub async fn fetch_bytes(path: &str) -> Result<Vec<u8>, String> {
    let response = response(path).await?;
    let failed = |what: &str| format!("{path}: {what}");
    let buffer = JsFuture::from(response.array_buffer().map_err(|_| failed("no body"))?)
        .await
        .map_err(|_| failed("the body could not be read"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// A file's response, when it is there.
async fn response(path: &str) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let failed = |what: &str| format!("{path}: {what}");
    let response = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|_| failed("the network request failed"))?
        .dyn_into::<web_sys::Response>()
        .map_err(|_| failed("not an HTTP response"))?;
    match response.ok() {
        true => Ok(response),
        false => Err(failed(&format!("HTTP {}", response.status()))),
    }
}

/// The text of a file beside the page; an error names the file and what failed.
pub async fn fetch_text(path: &str) -> Result<String, String> {
    let response = response(path).await?;
    let failed = |what: &str| format!("{path}: {what}");
    Ok(JsFuture::from(response.text().map_err(|_| failed("no body"))?)
        .await
        .map_err(|_| failed("the body could not be read"))?
        .as_string()
        .unwrap_or_default())
}
