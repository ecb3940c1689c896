//! informer-web: the playground's page, a Yew view of an `informer_sim` session (wasm32 only).

#![cfg(target_arch = "wasm32")]

pub mod ui;
