//! Browser tests (wasm-bindgen-test in headless Chromium): the page's components render and
//! react to actions (semantics §1, §8).
#![cfg(target_arch = "wasm32")]

use informer_web::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Renders the app, opened at the link `query` (`?era=1.30`), into a fresh `<div>` of its own
/// and returns it.
async fn render_at(query: &str) -> Element {
    let window = web_sys::window().unwrap();
    let path = window.location().pathname().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}")))
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    modules_arrived(&root).await;
    root
}

/// Waits, a task at a time, until no panel of `root` says it is loading a module: the page asks
/// for the modules it draws without in tasks after the one that marks it live (and, built as
/// one module, each arrives as soon as it is asked for).
async fn modules_arrived(root: &Element) {
    for _ in 0..100 {
        if root.query_selector(".module-loading").unwrap().is_none() {
            return;
        }
        next_task().await;
        yew::scheduler::flush().await;
    }
    panic!("a panel still says it is loading a module after 100 tasks");
}

/// Waits for a task of its own.
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback(&resolve).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn button(root: &Element, name: &str) -> HtmlElement {
    let buttons = root.query_selector_all("button").unwrap();
    (0..buttons.length())
        .filter_map(|i| buttons.item(i))
        .map(|n| n.unchecked_into::<HtmlElement>())
        .find(|b| b.text_content().as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no button named {name}"))
}

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector).unwrap().and_then(|e| e.text_content()).unwrap_or_default()
}

async fn click(root: &Element, name: &str) {
    button(root, name).click();
    yew::scheduler::flush().await;
}

#[wasm_bindgen_test]
async fn semantics_1_2_the_first_steps_list_before_they_watch() {
    let root = render_at("?era=1.30").await;
    assert!(text(&root, "[data-testid=current-step]").starts_with("Press Step forward"));
    click(&root, "Step forward").await;
    assert!(text(&root, "[data-testid=current-step]")
        .starts_with("#1 reflector → reflector: LIST request ListAndWatch starts"));
    click(&root, "Step forward").await;
    click(&root, "Step forward").await;
    let log = text(&root, "[role=log][aria-label='Event log']");
    assert!(log.contains(r#"resourceVersion="0"&limit=500"#), "{log}");
    click(&root, "Step back").await;
    assert!(text(&root, "[data-testid=current-step]").starts_with("#2 "));
}

#[wasm_bindgen_test]
async fn semantics_1_5_the_current_release_syncs_with_a_watch_list() {
    let root = render_at("").await;
    click(&root, "Step forward").await;
    let current = text(&root, "[data-testid=current-step]");
    assert!(
        current.starts_with(
            r#"#1 reflector → reflector: WATCH request ListAndWatch starts; WATCH from rv="" sendInitialEvents=true"#
        ),
        "{current}"
    );
}

#[wasm_bindgen_test]
async fn semantics_8_a_write_reports_like_kubectl_and_a_second_one_is_an_alert() {
    let root = render_at("").await;
    click(&root, "Create").await;
    assert_eq!(text(&root, "[role=status]"), "configmap/demo created (resourceVersion 3)");
    assert_eq!(text(&root, "[data-testid=store-revision]"), "3");
    click(&root, "Create").await;
    assert_eq!(text(&root, "[role=alert]"), r#"Error from server (AlreadyExists): configmaps "demo" already exists"#);
}

#[wasm_bindgen_test]
async fn a_stage_opens_its_inspector_named_as_the_era_names_it() {
    for (query, fifo) in [("?era=1.30", "DeltaFIFO"), ("", "RealFIFO")] {
        let root = render_at(query).await;
        let stage: HtmlElement =
            root.query_selector(&format!("[aria-label='Inspect {fifo}']")).unwrap().unwrap().unchecked_into();
        let event = web_sys::MouseEvent::new("click").unwrap();
        stage.dispatch_event(&event).unwrap();
        yew::scheduler::flush().await;
        assert_eq!(text(&root, "#inspector-heading"), format!("Inspector: {fifo}"));
        root.remove();
    }
}
