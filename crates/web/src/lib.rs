//! informer-web: the playground's page, a Yew view of an `informer_sim` session (wasm32 only).

#![cfg(target_arch = "wasm32")]

// The phrasebook's macros: `tr!`, `trf!` and `phrase!` check the English keys at compile time.
#[macro_use]
extern crate informer_sim;

pub mod ui;
