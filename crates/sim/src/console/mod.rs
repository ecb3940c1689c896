//! The console: kubectl commands turned into outputs or world actions (`kubectl`), the
//! manifests a person writes (`manifest`), and the YAML they read and print (`yaml`).

pub mod kubectl;
pub mod manifest;
pub mod yaml;
