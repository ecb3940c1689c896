//! informer-playground's native side: `serve-api`, the simulation on kube-apiserver's wire
//! ([`wire`]), for real clients; `room`, a workshop room's server ([`room`]). The command line (`src/cli.rs`) is the binary beside it.

pub mod bundle;
pub mod room;
pub mod wire;
