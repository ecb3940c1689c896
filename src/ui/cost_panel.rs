//! What the run costs: requests by verb, bytes sent, cached objects, reconciles, and a small
//! chart of API requests against watch events over the last steps — the polling-versus-watch
//! story at a glance.

use crate::i18n::Lang;
use crate::i18n::{grouped, tr, trf};
use crate::views::CostsView;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: CostsView,
    pub lang: Lang,
}

#[function_component(CostPanel)]
pub fn cost_panel(props: &Props) -> Html {
    let (lang, v) = (props.lang, &props.view);
    let top = v.bars.iter().map(|(r, e)| (*r).max(*e)).max().unwrap_or(1).max(1) as f64;
    let bars = v.bars.iter().enumerate().map(|(i, (requests, events))| {
        let x = i as f64 * 10.0;
        let h = |n: usize| n as f64 / top * 50.0;
        html! { <>
            <rect class="requests" x={x.to_string()} y={(50.0 - h(*requests)).to_string()} width="4" height={h(*requests).to_string()} />
            <rect class="events" x={(x + 4.5).to_string()} y={(50.0 - h(*events)).to_string()} width="4" height={h(*events).to_string()} />
        </> }
    });
    let (requests, events): (usize, usize) = v.bars.iter().fold((0, 0), |(a, b), (r, e)| (a + r, b + e));
    let chart_label = trf(
        lang,
        "Over the last {n} steps: {requests} API requests, {events} watch events",
        &[("n", &v.window), ("requests", &requests), ("events", &events)],
    );
    html! {
        <>
            <dl class="figures costs" aria-label={tr(lang, "Costs")}>
                { for v.requests.iter().map(|(verb, n)| html! { <div><dt>{ verb }</dt><dd>{ n }</dd></div> }) }
                <div><dt>{ tr(lang, "Bytes sent") }</dt><dd>{ v.bytes_sent }</dd></div>
                <div><dt>{ tr(lang, "Cached objects") }</dt><dd>{ objects_and_size(v.cached_objects, v.cached_bytes) }</dd></div>
                if let Some((objects, bytes)) = v.in_cluster {
                    <div><dt>{ tr(lang, "Same kind in the cluster") }</dt><dd>{ objects_and_size(objects, bytes) }</dd></div>
                }
                <div><dt>{ tr(lang, "Reconciles") }</dt><dd>{ v.reconciles }</dd></div>
            </dl>
            <figure class="chart">
                <svg viewBox="0 0 400 52" role="img" aria-label={chart_label}>
                    { for bars }
                </svg>
                <figcaption><span class="key requests"></span>{ tr(lang, "API requests") }<span class="key events"></span>{ tr(lang, "watch events") }{ trf(lang, " — last {n} steps", &[("n", &v.window)]) }</figcaption>
            </figure>
        </>
    }
}

/// `2,005 (1,563 KiB)`; a small size in bytes: `2 (1,204 B)`.
fn objects_and_size(objects: usize, bytes: usize) -> String {
    let size = if bytes < 10 * 1024 {
        format!("{} B", grouped(bytes as u64))
    } else {
        format!("{} KiB", grouped(bytes as u64 / 1024))
    };
    format!("{} ({size})", grouped(objects as u64))
}
