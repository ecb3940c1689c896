//! The console: kubectl commands turned into outputs or world actions (`kubectl`), the
//! manifests a person writes (`manifest`), the YAML they read and print (`yaml`) and the
//! JSONPath templates `-o jsonpath=` prints with (`jsonpath`).
//!
//! A first step never runs any of it, so the page loads it as a module of its own: the
//! session reaches kubectl and the manifest reader through the [`Engine`] installed when that
//! module arrives (`kernel::later`). Natively the engine is linked in at once.

pub mod jsonpath;
pub mod kubectl;
pub mod manifest;
pub mod yaml;

use crate::cluster::ApiObject;
use crate::world::World;

/// What the session calls the console through.
#[derive(Clone, Copy)]
pub struct Engine {
    /// One kubectl command line, its `-f -` manifest on the lines below.
    pub kubectl: fn(&str, &str, &World) -> kubectl::Outcome,
    /// A manifest a person writes.
    pub manifest: fn(&str, manifest::Source) -> Result<ApiObject, manifest::ManifestError>,
    /// An object printed as YAML, as `kubectl get -o yaml` prints it.
    pub yaml: fn(&serde_json::Value) -> String,
}

impl Engine {
    /// The console itself.
    pub fn linked() -> Engine {
        Engine { kubectl: kubectl::run, manifest: manifest::read, yaml: yaml::to_yaml }
    }
}

crate::kernel::later::later!(
    /// The console, if it is here: always natively; in the page, once its module has loaded.
    engine, install: Engine = Engine::linked()
);
