//! The API server's metrics: requests by verb, resource and code (like
//! `apiserver_request_total`), what it sent, live watchers, and each watch cache.

use informer_sim::i18n::Lang;
use informer_sim::views::ApiServerView;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: ApiServerView,
    pub lang: Lang,
}

#[function_component(MetricsPanel)]
pub fn metrics_panel(props: &Props) -> Html {
    let (lang, v) = (props.lang, &props.view);
    html! {
        <div class="metrics">
            <dl class="figures">
                <div><dt>{ tr!(lang, "Objects sent") }</dt><dd>{ v.objects_sent }</dd></div>
                <div><dt>{ tr!(lang, "Bytes sent") }</dt><dd>{ v.bytes_sent }</dd></div>
                <div><dt>{ tr!(lang, "Live watchers") }</dt><dd>{ v.live_watchers }</dd></div>
            </dl>
            <table aria-label={tr!(lang, "Requests")}>
                <thead><tr><th>{ tr!(lang, "Verb") }</th><th>{ tr!(lang, "Resource") }</th><th class="num">{ tr!(lang, "Code") }</th><th class="num">{ tr!(lang, "Count") }</th></tr></thead>
                <tbody>
                    { for v.requests.iter().map(|r| html! {
                        <tr class={classes!((r.code >= 400).then_some("failed-row"))}>
                            <td>{ r.verb.metric() }</td><td>{ &r.resource }</td><td class="num">{ r.code }</td><td class="num">{ r.count }</td>
                        </tr>
                    }) }
                    if v.requests.is_empty() {
                        <tr><td colspan="4" class="empty">{ tr!(lang, "No requests yet.") }</td></tr>
                    }
                </tbody>
            </table>
            <table aria-label={tr!(lang, "Watchers")}>
                <thead><tr><th>{ "#" }</th><th>{ tr!(lang, "Resource") }</th><th>{ tr!(lang, "User") }</th><th class="num">{ tr!(lang, "Queued") }</th></tr></thead>
                <tbody>
                    { for v.watchers.iter().map(|w| html! {
                        <tr><td class="num">{ w.id }</td><td>{ &w.resource }</td><td class="mono">{ &w.user }</td><td class="num">{ w.queued }</td></tr>
                    }) }
                </tbody>
            </table>
            <table aria-label={tr!(lang, "Watch caches")}>
                <thead><tr><th>{ tr!(lang, "Watch caches") }</th><th class="num">{ tr!(lang, "Objects") }</th><th class="num">{ "RV" }</th><th class="num" title={tr!(lang, "The oldest resourceVersion a watch can resume from")}>{ tr!(lang, "Oldest RV") }</th></tr></thead>
                <tbody>
                    { for v.caches.iter().map(|c| html! {
                        <tr><td>{ &c.resource }</td><td class="num">{ c.objects }</td><td class="num">{ c.revision }</td><td class="num">{ c.oldest }</td></tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}
