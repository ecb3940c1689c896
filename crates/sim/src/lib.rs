//! informer-sim: the Kubernetes list-watch machinery as a deterministic simulation — an
//! etcd-like revisioned store, the API server, client-go's Reflector, FIFOs, Indexer, shared
//! informer and workqueue, controller-runtime's reads and reconcilers — and what a person sees
//! of it (the session, its lessons, the panels' views, the words). No clock, no threads, no I/O:
//! the page (`informer-web`) and the command line with `serve-api` (`informer-playground`) are
//! adapters around it.
//!
//! Layers, lowest first (ARCHITECTURE.md; `tests/layers.rs` holds the imports to them):
//! [`kernel`]; the leaves [`era`], [`base64`], [`percent`], [`limits`]; [`cluster`]; [`client`];
//! [`controller`]; [`world`]; [`i18n`] and [`console`]; [`scenario`]; [`session`]; [`views`];
//! and [`testing`], the tooling the swarm and the benches use.

// Messages carry whole objects from stage to stage, once per step; boxing them would only
// add indirection to every hop.
#![allow(clippy::large_enum_variant)]

/// The page's phrase whose English is the literal: a compile error when the phrasebook lacks
/// it (`i18n::Phrase::of`, evaluated as a constant).
#[macro_export]
macro_rules! phrase {
    ($en:literal) => {{
        const PHRASE: $crate::i18n::Phrase = $crate::i18n::Phrase::of($en);
        PHRASE
    }};
}

/// `tr!(lang, "Step forward")`: the page's word in `lang`, its English checked by the compiler.
#[macro_export]
macro_rules! tr {
    ($lang:expr, $en:literal $(,)?) => {
        $crate::i18n::tr($lang, $crate::phrase!($en))
    };
}

/// `trf!(lang, "{n} waiting", &[("n", &n)])`: a sentence with values, its template checked by
/// the compiler.
#[macro_export]
macro_rules! trf {
    ($lang:expr, $en:literal, $args:expr $(,)?) => {
        $crate::i18n::trf($lang, $crate::phrase!($en), $args)
    };
}

pub mod base64;
pub mod client;
pub mod cluster;
pub mod console;
pub mod controller;
pub mod era;
pub mod i18n;
pub mod kernel;
pub mod limits;
pub mod percent;
pub mod room;
pub mod scenario;
pub mod session;
pub mod testing;
pub mod views;
pub mod world;
