//! The client side of a LIST of 50,000 Pods (`informer_playground::bench`) compiled to wasm
//! and run in headless Chromium: `make bench` prints its figures beside the native ones.
//! Not part of `make test` (a bench, not a check); it asserts only that every Pod is indexed.
#![cfg(target_arch = "wasm32")]

use informer_playground::bench::client_side;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_client_side_of_a_50000_pod_list_in_the_browser() {
    let n = 50_000;
    let run = client_side(n, &js_sys::Date::now);
    assert_eq!(run.indexed, n, "every Pod reaches the indexer");
    console_log!(
        "bench list_50k in wasm (headless Chromium), the client side alone: {n} Pods\n  DeltaFIFO.Replace {:.1} ms\n  Pop → indexer for all {n} {:.1} ms",
        run.replace_ms,
        run.pop_ms
    );
    console_log!("{}", run.json_line("wasm", n));
}
