//! The console: kubectl commands turned into outputs or world actions (`kubectl`), and the
//! YAML they read and print (`yaml`).

pub mod kubectl;
pub mod yaml;
