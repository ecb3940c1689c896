//! What the run costs: requests by verb (what a real server's `apiserver_request_total`
//! counts), bytes sent, cached objects, reconciles, and a small
//! chart of API requests against watch events over the last steps — the polling-versus-watch
//! story at a glance.

use informer_sim::i18n::Lang;
use informer_sim::i18n::{decimal, grouped};
use informer_sim::views::CostsView;
use yew::prelude::*;

/// A bar's width in the chart's units, with the gap to the next.
const BAR: f64 = 10.0;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: CostsView,
    pub lang: Lang,
}

#[function_component(CostPanel)]
pub fn cost_panel(props: &Props) -> Html {
    let (lang, v) = (props.lang, &props.view);
    let top = v.bars.iter().map(|b| b.requests.max(b.events)).max().unwrap_or(1).max(1) as f64;
    // Each bar stays where it was drawn (keyed by its place in the run); the row slides left
    // as one, so a step redraws only its own bar.
    let end = v.bars.last().map_or(0, |b| b.at + 1);
    let slide = format!("translate({} 0)", decimal((v.room as f64 - end as f64) * BAR));
    let bars = v.bars.iter().map(|b| {
        let x = b.at as f64 * BAR;
        let h = |n: usize| n as f64 / top * 50.0;
        html! {
            <g key={b.at}>
                <rect class="requests" x={decimal(x)} y={decimal(50.0 - h(b.requests))} width="4" height={decimal(h(b.requests))} />
                <rect class="events" x={decimal(x + 4.5)} y={decimal(50.0 - h(b.events))} width="4" height={decimal(h(b.events))} />
            </g>
        }
    });
    let (requests, events) = v.bars.iter().fold((0, 0), |(a, b), bar| (a + bar.requests, b + bar.events));
    let chart_label = trf!(
        lang,
        "Over the last {n} steps: {requests} API requests, {events} watch events",
        &[("n", &v.window), ("requests", &requests), ("events", &events)],
    );
    html! {
        <>
            <p class="hint">{ tr!(lang, "API requests by verb: on a real server, the apiserver_request_total metric counts them") }</p>
            <dl class="figures costs" aria-label={tr!(lang, "Costs")}>
                { for v.requests.iter().map(|(verb, n)| html! { <div><dt>{ verb.metric() }</dt><dd>{ n }</dd></div> }) }
                <div><dt>{ tr!(lang, "Bytes sent") }</dt><dd>{ v.bytes_sent }</dd></div>
                <div><dt>{ tr!(lang, "Cached objects") }</dt><dd>{ objects_and_size(v.cached_objects, v.cached_bytes) }</dd></div>
                <div><dt>{ tr!(lang, "Index entries") }</dt><dd>{ objects_and_size(v.index_entries.0, v.index_entries.1) }</dd></div>
                if let Some(bytes) = v.whole_bytes {
                    <div><dt>{ tr!(lang, "Cached with objects whole") }</dt><dd>{ size(bytes) }</dd></div>
                }
                if let Some((objects, bytes)) = v.in_cluster {
                    <div><dt>{ tr!(lang, "Same kind in the cluster") }</dt><dd>{ objects_and_size(objects, bytes) }</dd></div>
                }
                <div><dt>{ tr!(lang, "Reconciles") }</dt><dd>{ v.reconciles }</dd></div>
            </dl>
            <figure class="chart">
                <svg viewBox={format!("0 0 {} 52", decimal(v.room as f64 * BAR))} role="img" aria-label={chart_label}>
                    <g transform={slide}>{ for bars }</g>
                </svg>
                <figcaption><span class="key requests"></span>{ tr!(lang, "API requests") }<span class="key events"></span>{ tr!(lang, "watch events") }{ trf!(lang, " — last {n} steps", &[("n", &v.window)]) }</figcaption>
            </figure>
        </>
    }
}

/// `2,005 (1,563 KiB)`; a small size in bytes: `2 (1,204 B)`.
fn objects_and_size(objects: usize, bytes: usize) -> String {
    format!("{} ({})", grouped(objects as u64), size(bytes))
}

/// `1,204 B`; from 10 KiB on, `1,563 KiB`.
fn size(bytes: usize) -> String {
    if bytes < 10 * 1024 {
        format!("{} B", grouped(bytes as u64))
    } else {
        format!("{} KiB", grouped(bytes as u64 / 1024))
    }
}
