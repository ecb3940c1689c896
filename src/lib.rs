//! informer-playground: the Kubernetes list-watch machinery as a deterministic simulation,
//! with a browser view (Yew, on wasm32) and a command-line runner.
//!
//! Layers, lowest first: [`cluster`] (store, API server), then the page ([`ui`], wasm32 only).

pub mod base64;
pub mod client;
pub mod cluster;
pub mod session;
pub mod sim;
pub mod world;

#[cfg(target_arch = "wasm32")]
pub mod ui;
