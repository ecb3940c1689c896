//! The crash panel in headless Chromium: a test-only button (feature `crash-button`) panics;
//! the page shows what happened, in its language, with a link that reloads the same state.
#![cfg(all(target_arch = "wasm32", feature = "crash-button"))]

use informer_sim::i18n::Lang;
use informer_web::ui::{crash, App};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn text(root: &Element, selector: &str) -> String {
    root.query_selector(selector).unwrap().and_then(|e| e.text_content()).unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_panic_shows_the_crash_panel_with_a_link_to_the_state_in_both_languages() {
    let window = web_sys::window().unwrap();
    window
        .local_storage()
        .unwrap()
        .unwrap()
        .set_item(informer_sim::session::page_contract::LANGUAGE_KEY, "ko")
        .unwrap();
    let document = window.document().unwrap();
    let root = document.create_element("div").unwrap();
    root.set_id("playground");
    document.body().unwrap().append_child(&root).unwrap();
    crash::install();
    // A Korean page's start installs the phrasebook's module before it draws (`ui::start`);
    // this test mounts the page itself, so it installs the phrasebook as the module does.
    informer_sim::i18n::install_korean(informer_sim::i18n::KOREAN);
    yew::Renderer::<App>::with_root(root.clone()).render();
    yew::scheduler::flush().await;
    let forward: HtmlElement = root.query_selector("button.step-forward").unwrap().unwrap().unchecked_into();
    forward.click();
    yew::scheduler::flush().await;
    let button: HtmlElement = root.query_selector("#crash").unwrap().unwrap().unchecked_into();
    button.click();
    yew::scheduler::flush().await;
    let panel = document.query_selector(".crash[role=alert]").unwrap().expect("the crash panel");
    assert_eq!(panel.get_attribute("lang").as_deref(), Some("ko"));
    assert_eq!(text(&panel, "h2"), "playground가 멈췄습니다. 버그입니다");
    assert!(text(&panel, "pre").contains("crash button pressed"));
    let link = panel.query_selector("a").unwrap().unwrap();
    let href = link.get_attribute("href").unwrap();
    assert!(href.contains("lang=ko") && href.contains("step=1"), "the link reopens this state: {href}");
    assert_eq!(link.text_content().as_deref(), Some("이 상태로 다시 불러오기"));

    crash::remember("?step=7&lang=en", Lang::En);
    crash::show("another message");
    let english = document.query_selector(".crash[lang=en]").unwrap().expect("an English panel");
    assert_eq!(text(&english, "h2"), "The playground stopped: this is a bug");
    assert!(text(&english, "a").contains("Reload at this state"));
    assert!(english.query_selector("a").unwrap().unwrap().get_attribute("href").unwrap().ends_with("?step=7&lang=en"));
}
