//! The API server's metrics: requests by verb, resource and code (like
//! `apiserver_request_total`), what it sent, live watchers, and each watch cache.

use super::app::PageState;
use crate::cluster::Kind;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: PageState,
}

#[function_component(MetricsPanel)]
pub fn metrics_panel(props: &Props) -> Html {
    let session = props.session.read();
    let tr = |en| crate::i18n::page::tr(session.lang, en);
    let api = &session.world().api;
    let metrics = api.metrics();
    html! {
        <div class="metrics">
            <dl class="figures">
                <div><dt>{ tr("Objects sent") }</dt><dd>{ metrics.objects_sent }</dd></div>
                <div><dt>{ tr("Bytes sent") }</dt><dd>{ metrics.bytes_sent }</dd></div>
                <div><dt>{ tr("Live watchers") }</dt><dd>{ api.live_watchers() }</dd></div>
            </dl>
            <table aria-label={tr("Requests")}>
                <thead><tr><th>{ tr("Verb") }</th><th>{ tr("Resource") }</th><th class="num">{ tr("Code") }</th><th class="num">{ tr("Count") }</th></tr></thead>
                <tbody>
                    { for metrics.requests.iter().map(|((verb, resource, code), n)| html! {
                        <tr class={classes!((*code >= 400).then_some("failed-row"))}>
                            <td>{ verb }</td><td>{ resource }</td><td class="num">{ code }</td><td class="num">{ n }</td>
                        </tr>
                    }) }
                    if metrics.requests.is_empty() {
                        <tr><td colspan="4" class="empty">{ tr("No requests yet.") }</td></tr>
                    }
                </tbody>
            </table>
            <table aria-label={tr("Watchers")}>
                <thead><tr><th>{ "#" }</th><th>{ tr("Resource") }</th><th>{ tr("User") }</th><th class="num">{ tr("Queued") }</th></tr></thead>
                <tbody>
                    { for api.watchers().filter(|(_, w)| !w.closed).take(20).map(|(id, w)| html! {
                        <tr><td class="num">{ id }</td><td>{ w.filter.kind.resource() }</td><td class="mono">{ &w.user }</td><td class="num">{ w.pending.len() }</td></tr>
                    }) }
                </tbody>
            </table>
            <table aria-label={tr("Watch caches")}>
                <thead><tr><th>{ tr("Watch caches") }</th><th class="num">{ tr("Objects") }</th><th class="num">{ "RV" }</th><th class="num" title="The oldest resourceVersion a watch can resume from">{ "Oldest RV" }</th></tr></thead>
                <tbody>
                    { for Kind::ALL.iter().filter_map(|k| api.watch_cache(*k).map(|c| (k, c))).map(|(k, c)| html! {
                        <tr><td>{ k.resource() }</td><td class="num">{ c.len() }</td><td class="num">{ c.revision() }</td><td class="num">{ c.oldest_servable() }</td></tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}
