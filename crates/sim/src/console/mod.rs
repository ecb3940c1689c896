//! The console: kubectl commands turned into outputs or world actions (`kubectl`), the
//! manifests a person writes (`manifest`), the YAML they read and print (`yaml`) and the
//! JSONPath templates `-o jsonpath=` prints with (`jsonpath`).

pub mod jsonpath;
pub mod kubectl;
pub mod manifest;
pub mod yaml;
