//! What the run costs: requests by verb, bytes sent, cached objects, reconciles, and a small
//! chart of API requests against watch events over the last steps — the polling-versus-watch
//! story at a glance.

use crate::sim::TraceKind;
use crate::world::TraceEvent;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: super::app::PageState,
}

/// Steps the chart covers, and its bars.
const WINDOW: usize = 400;
const BARS: usize = 40;

fn is_request(e: &TraceEvent) -> bool {
    matches!(e.kind, TraceKind::ListRequest | TraceKind::WatchRequest | TraceKind::ApiWrite | TraceKind::RequestFailed)
        && e.to.name() == "api-server"
}

fn is_event(e: &TraceEvent) -> bool {
    matches!(e.kind, TraceKind::Added | TraceKind::Modified | TraceKind::Deleted | TraceKind::Bookmark)
}

#[function_component(CostPanel)]
pub fn cost_panel(props: &Props) -> Html {
    let session = props.session.read();
    let lang = session.lang;
    let tr = |en| crate::i18n::page::tr(lang, en);
    let costs = session.world().costs();
    let cached: usize = costs.cached.iter().map(|(_, n, _)| n).sum();
    let cached_bytes: usize = costs.cached.iter().map(|(_, _, b)| b).sum();
    let trace = session.visible_trace();
    let recent = &trace[trace.len().saturating_sub(WINDOW)..];
    let per_bar = recent.len().div_ceil(BARS).max(1);
    let bins: Vec<(usize, usize)> = recent
        .chunks(per_bar)
        .map(|c| (c.iter().filter(|e| is_request(e)).count(), c.iter().filter(|e| is_event(e)).count()))
        .collect();
    let top = bins.iter().map(|(r, e)| (*r).max(*e)).max().unwrap_or(1).max(1) as f64;
    let bars = bins.iter().enumerate().map(|(i, (requests, events))| {
        let x = i as f64 * 10.0;
        let h = |n: usize| n as f64 / top * 50.0;
        html! { <>
            <rect class="requests" x={x.to_string()} y={(50.0 - h(*requests)).to_string()} width="4" height={h(*requests).to_string()} />
            <rect class="events" x={(x + 4.5).to_string()} y={(50.0 - h(*events)).to_string()} width="4" height={h(*events).to_string()} />
        </> }
    });
    let (requests, events): (usize, usize) = bins.iter().fold((0, 0), |(a, b), (r, e)| (a + r, b + e));
    html! {
        <>
            <dl class="figures costs" aria-label={tr("Costs")}>
                { for costs.requests.iter().map(|(verb, n)| html! { <div><dt>{ verb }</dt><dd>{ n }</dd></div> }) }
                <div><dt>{ tr("Bytes sent") }</dt><dd>{ costs.bytes_sent }</dd></div>
                <div><dt>{ tr("Cached objects") }</dt><dd>{ format!("{cached} ({} KiB)", cached_bytes / 1024) }</dd></div>
                <div><dt>{ tr("Reconciles") }</dt><dd>{ costs.reconciles }</dd></div>
            </dl>
            <figure class="chart">
                <svg viewBox="0 0 400 52" role="img" aria-label={format!("Over the last {} steps: {requests} API requests, {events} watch events", recent.len())}>
                    { for bars }
                </svg>
                <figcaption><span class="key requests"></span>{ tr("API requests") }<span class="key events"></span>{ tr("watch events") }{ match lang { crate::i18n::Lang::En => format!(" — last {} steps", recent.len()), crate::i18n::Lang::Ko => format!(" — 최근 {}단계", recent.len()) } }</figcaption>
            </figure>
        </>
    }
}
