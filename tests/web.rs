//! Browser tests (wasm-bindgen-test in headless Chromium): the page's components render and
//! react to actions (semantics §7, §8).
#![cfg(target_arch = "wasm32")]

use informer_playground::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Renders the app into a fresh `<div>` of its own and returns it.
async fn render() -> Element {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    root
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

#[wasm_bindgen_test]
async fn semantics_7_an_empty_store_is_at_revision_1() {
    let root = render().await;
    assert_eq!(text(&root, "[data-testid=store-revision]"), "1");
    assert!(text(&root, "table[aria-label='Revision history']").contains("the first write is revision 2"));
}

#[wasm_bindgen_test]
async fn semantics_7_create_adds_revision_2_to_the_history() {
    let root = render().await;
    button(&root, "Create").click();
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "[data-testid=store-revision]"), "2");
    assert_eq!(text(&root, "[role=status]"), "configmap/demo created (resourceVersion 2)");
    let first_row = text(&root, "table[aria-label='Revision history'] tbody tr");
    assert!(first_row.starts_with("2PUT/registry/configmaps/default/demo"), "{first_row}");
    assert!(text(&root, "table[aria-label='Requests']").contains("POSTconfigmaps2011"));
}

#[wasm_bindgen_test]
async fn semantics_8_a_second_create_is_an_alert_and_changes_nothing() {
    let root = render().await;
    button(&root, "Create").click();
    yew::scheduler::flush().await;
    button(&root, "Create").click();
    yew::scheduler::flush().await;
    assert_eq!(text(&root, "[role=alert]"), r#"Error from server (AlreadyExists): configmaps "demo" already exists"#);
    assert_eq!(text(&root, "[data-testid=store-revision]"), "2");
}
