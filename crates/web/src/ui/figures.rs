//! The figures' module: the costs panel, and the tables the servers' inspectors show — etcd's
//! revision history and the API server's metrics. They are read, not operated, so they need
//! not be in the first module: asked for once the page is live (`ui::open_on`), they arrive
//! while the reader reads, and a panel drawn before them says they are on their way.

use super::cost_panel::CostPanel;
use super::metrics_panel::MetricsPanel;
use super::revision_timeline::RevisionTimeline;
use informer_sim::i18n::Lang;
use informer_sim::views::{ApiServerView, CostsView, HistoryRow};
use yew::prelude::*;

/// What the module draws.
pub struct FiguresModule {
    /// The costs of the run: requests by verb, bytes, cached objects, the chart.
    pub costs: fn(CostsView, Lang) -> Html,
    /// The API server's inspector: its metrics.
    pub metrics: fn(ApiServerView, Lang) -> Html,
    /// etcd's inspector: the store's revision history, newest first, and how many rows are not
    /// shown.
    pub revisions: fn(Vec<HistoryRow>, usize, Lang) -> Html,
}

/// What `draw` draws from the figures' module once it is here; until then, that it is on its way.
pub fn drawn(lang: Lang, draw: impl FnOnce(&FiguresModule) -> Html) -> Html {
    match super::modules::figures() {
        Some(figures) => draw(figures),
        None => super::modules::waiting(super::modules::Module::Figures, lang),
    }
}

super::modules::split_point!(
    figures,
    figures_module,
    FiguresModule,
    FiguresModule {
        costs: |view, lang| html! { <CostPanel {view} {lang} /> },
        metrics: |view, lang| html! { <MetricsPanel {view} {lang} /> },
        revisions: |rows, hidden, lang| html! { <RevisionTimeline {rows} {hidden} {lang} /> },
    }
);
