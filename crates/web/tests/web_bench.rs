//! The client side of a LIST of 50,000 Pods (`informer_sim::testing::bench`) compiled to wasm
//! and run in headless Chromium: `make bench` prints its figures beside the native ones.
//! Not part of `make test` (a bench, not a check); it asserts only that every Pod is indexed.
#![cfg(target_arch = "wasm32")]

use informer_sim::testing::bench::client_side_runs;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_client_side_of_a_50000_pod_list_in_the_browser() {
    let n = 50_000;
    let runs = client_side_runs(n, 5, &js_sys::Date::now);
    assert_eq!((runs.first.indexed, runs.warm.indexed), (n, n), "every Pod reaches the indexer");
    console_log!(
        "bench list_50k in wasm (headless Chromium), the client side alone: {n} Pods, median of {} runs after a first one\n  DeltaFIFO.Replace {:.1} ms\n  Pop → indexer for all {n} {:.1} ms\n  the first run: Replace {:.1} ms, Pop → indexer {:.1} ms",
        runs.warm_runs,
        runs.warm.replace_ms,
        runs.warm.pop_ms,
        runs.first.replace_ms,
        runs.first.pop_ms
    );
    console_log!("{}", runs.json_line("wasm", n));
}
