//! What the run costs: requests by verb, bytes sent, cached objects, reconciles.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: super::app::PageState,
}

#[function_component(CostPanel)]
pub fn cost_panel(props: &Props) -> Html {
    let costs = props.session.read().world().costs();
    let cached: usize = costs.cached.iter().map(|(_, n, _)| n).sum();
    let cached_bytes: usize = costs.cached.iter().map(|(_, _, b)| b).sum();
    html! {
        <dl class="figures costs" aria-label="Costs">
            { for costs.requests.iter().map(|(verb, n)| html! { <div><dt>{ verb }</dt><dd>{ n }</dd></div> }) }
            <div><dt>{ "Bytes sent" }</dt><dd>{ costs.bytes_sent }</dd></div>
            <div><dt>{ "Cached objects" }</dt><dd>{ format!("{cached} ({} KiB)", cached_bytes / 1024) }</dd></div>
            <div><dt>{ "Reconciles" }</dt><dd>{ costs.reconciles }</dd></div>
        </dl>
    }
}
