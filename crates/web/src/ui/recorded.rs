//! A link's recorded actions: their reader (the actions' JSON, which a link without actions
//! never reads) is a later module, fetched before the page opens a link that carries them.

/// The reader's module: nothing to call, it installs the reader into the session's link.
pub struct RecordedModule;

super::modules::split_point!(recorded, recorded_module, RecordedModule, {
    use informer_sim::session::link;
    link::install_actions_reader(link::decode_actions);
    RecordedModule
});

/// Whether the page's query carries recorded actions (read before the link is).
pub fn in_query(query: &str) -> bool {
    query.trim_start_matches('?').split('&').any(|pair| pair.split('=').next() == Some("actions"))
}
