//! The console: kubectl commands turned into outputs or world actions (`kubectl`), the
//! manifests a person writes (`manifest`), the YAML they read and print (`yaml`) and the
//! JSONPath templates `-o jsonpath=` prints with (`jsonpath`).
//!
//! A first step never runs any of it, so the page loads it as a module of its own: the
//! session reaches kubectl and the manifest reader through the [`Engine`] installed when that
//! module arrives. Natively (the command line, the tests, `serve-api`) the engine is linked
//! in at once (feature `linked-console`).

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
}

impl Engine {
    /// The console itself.
    pub fn linked() -> Engine {
        Engine { kubectl: kubectl::run, manifest: manifest::read }
    }
}

#[cfg(not(feature = "linked-console"))]
thread_local! {
    static INSTALLED: std::cell::Cell<Option<Engine>> = const { std::cell::Cell::new(None) };
}

/// Installs the console once its module has arrived (the page).
#[cfg(not(feature = "linked-console"))]
pub fn install(engine: Engine) {
    INSTALLED.set(Some(engine));
}

/// The console, if it is here: always natively; in the page, once its module has loaded.
pub fn engine() -> Option<Engine> {
    #[cfg(feature = "linked-console")]
    return Some(Engine::linked());
    #[cfg(not(feature = "linked-console"))]
    INSTALLED.get()
}
