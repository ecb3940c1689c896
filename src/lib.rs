//! informer-playground: the Kubernetes list-watch machinery as a deterministic simulation,
//! with a browser view (Yew, on wasm32) and a command-line runner.
//!
//! Layers, lowest first: [`cluster`] (store, API server), then the page ([`ui`], wasm32 only).

// Messages carry whole objects from stage to stage, once per step; boxing them would only
// add indirection to every hop.
#![allow(clippy::large_enum_variant)]

pub mod base64;
pub mod bench;
pub mod client;
pub mod cluster;
pub mod compare;
pub mod controller;
pub mod diagram;
pub mod era;
pub mod export;
pub mod fast_forward;
pub mod glance;
pub mod guide;
pub mod host;
pub mod i18n;
pub mod kubectl;
pub mod limits;
pub mod link;
pub mod scenario;
pub mod session;
pub mod sim;
pub mod swarm;
pub mod views;
pub mod world;
pub mod yaml;

#[cfg(not(target_arch = "wasm32"))]
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod ui;
