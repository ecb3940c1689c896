//! One inspector per stage, showing its state at the current step.

use super::figures;
use super::modules::{self, Module};
use informer_sim::i18n::{seconds, Lang};
use informer_sim::i18n::{tr, trf, Phrase};
use informer_sim::kernel::Stage;
use informer_sim::session::Action;
use informer_sim::views::diagram::label;
use informer_sim::views::{InspectorView, SHOWN};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub stage: Stage,
    pub view: InspectorView,
    pub lang: Lang,
    pub on_action: Callback<Action>,
}

fn more(total: usize) -> Html {
    if total > SHOWN {
        html! { <li class="more">{ format!("… +{}", total - SHOWN) }</li> }
    } else {
        html! {}
    }
}

fn heading(lang: Lang, kind: informer_sim::cluster::Kind) -> Html {
    html! { <h3>{ trf!(lang, "{kind} informer", &[("kind", &kind)]) }</h3> }
}

fn sentence(lang: Lang, template: Phrase, args: &[(&str, &dyn std::fmt::Display)]) -> Html {
    html! { <p>{ trf(lang, template, args) }</p> }
}

#[function_component(Inspector)]
pub fn inspector(props: &Props) -> Html {
    let lang = props.lang;
    let era = use_context::<informer_sim::era::Era>().unwrap_or_default();
    let body = match &props.view {
        InspectorView::Store { rows, hidden } => {
            figures::drawn(lang, |figures| (figures.revisions)(rows.clone(), *hidden, lang))
        }
        InspectorView::ApiServer(view) => figures::drawn(lang, |figures| (figures.metrics)(view.clone(), lang)),
        InspectorView::Reflectors(reflectors) => reflectors
            .iter()
            .map(|r| {
                let phase = tr(lang, r.phase);
                let (rv, lists, watches) = (format!("{:?}", r.last_sync_resource_version), r.lists, r.watches);
                let state = match r.next_try_ms {
                    Some(at) => sentence(lang, phrase!("{phase}, next try at {at}; lastSyncResourceVersion {rv}; {lists} LISTs, {watches} WATCHes"), &[
                        ("phase", &phase),
                        ("at", &seconds(at)),
                        ("rv", &rv),
                        ("lists", &lists),
                        ("watches", &watches),
                    ]),
                    None => sentence(lang, phrase!("{phase}; lastSyncResourceVersion {rv}; {lists} LISTs, {watches} WATCHes"), &[
                        ("phase", &phase),
                        ("rv", &rv),
                        ("lists", &lists),
                        ("watches", &watches),
                    ]),
                };
                html! { <section>
                    { heading(lang, r.kind) }
                    { state }
                    <pre class="log" role="log" aria-label={trf!(lang, "{kind} reflector log", &[("kind", &r.kind)])}>{ for r.log.iter().map(|l| format!("{l}\n")) }</pre>
                </section> }
            })
            .collect::<Html>(),
        InspectorView::Fifos(fifos) => fifos
            .iter()
            .map(|f| {
                let q = &f.queue;
                html! { <section>
                    { heading(lang, f.kind) }
                    { sentence(lang, phrase!("{name}: {n} waiting; HasSynced: {synced}"), &[("name", &q.name), ("n", &q.len), ("synced", &q.has_synced)]) }
                    <ol class="keys">
                        { for q.entries.iter().map(|e| {
                            let text = e.deltas.iter().map(|(kind, rv)| format!("{}@{rv}", kind.name())).collect::<Vec<_>>().join(", ");
                            html! { <li><span class="mono">{ &e.key }</span>{ format!(": [{text}]") }</li> }
                        }) }
                        { more(q.len) }
                    </ol>
                </section> }
            })
            .collect::<Html>(),
        InspectorView::Indexers { indexers, opened } => {
            let lists = indexers.iter().map(|ix| html! { <section>
                { heading(lang, ix.kind) }
                { sentence(lang, phrase!("{n} objects; newest RV {rv}; last read examined {scanned} objects"), &[("n", &ix.objects), ("rv", &ix.newest_rv), ("scanned", &ix.last_scanned)]) }
                <ul class="objects-list">
                    { for ix.shown.iter().map(|(key, rv)| {
                        let open = { let key = key.clone(); props.on_action.reform(move |_| Action::Open(key.clone())) };
                        html! { <li><button type="button" class="link" aria-label={trf!(lang, "Open {key}", &[("key", key)])} onclick={open}>{ key }</button>{ format!(" rv {rv}") }</li> }
                    }) }
                    { more(ix.objects) }
                </ul>
                <p class="indices">{ for ix.indexes.iter().map(|(name, n)| html! { <span>{ trf!(lang, "index {name}: {n} values", &[("name", name), ("n", n)]) }</span> }) }</p>
            </section> });
            html! { <>
                { for lists }
                if let Some(o) = opened {
                    <h3>{ format!("{} (resourceVersion {})", o.title, o.resource_version) }</h3>
                    { match &o.yaml {
                        Some(yaml) => html! { <pre class="yaml" role="region" aria-label={tr!(lang, "Object YAML")}>{ yaml }</pre> },
                        None => modules::waiting(Module::Console, lang),
                    } }
                }
            </> }
        }
        InspectorView::Handlers(handlers) => html! { <ul>{ for handlers.iter().map(|h| {
            let period = if h.resync_ms == 0 { tr!(lang, "never").to_string() } else { seconds(h.resync_ms) };
            html! { <li>{ format!("{} · ", h.kind) }{ trf!(lang, "{name}: {buffered} buffered, {delivered} delivered, resync every {period}", &[
                ("name", &h.name), ("buffered", &h.buffered), ("delivered", &h.delivered), ("period", &period),
            ]) }</li> }
        }) }</ul> },
        InspectorView::Workqueues(queues) => html! { <>{ for queues.iter().map(|q| {
            let list = |items: &[String]| html! { <span class="mono">{ if items.is_empty() { "—".to_string() } else { items.join(", ") } }</span> };
            let waiting: Vec<String> = q.waiting.iter().map(|(k, at)| trf!(lang, "{key} until {at}", &[("key", k), ("at", &seconds(*at))])).collect();
            let line: Vec<String> = q
                .queue
                .iter()
                .map(|(k, p)| if q.prioritised { format!("{k} ({p})") } else { k.clone() })
                .collect();
            let heading = if q.prioritised { tr!(lang, "priority queue (priority)") } else { "queue" };
            html! { <>
                <h3>{ &q.controller }</h3>
                <dl class="sets">
                    <dt>{ heading }</dt><dd>{ list(&line) }</dd>
                    <dt>{ "dirty" }</dt><dd>{ list(&q.dirty) }</dd>
                    <dt>{ "processing" }</dt><dd>{ list(&q.processing) }</dd>
                    <dt>{ "waiting" }</dt><dd>{ list(&waiting) }</dd>
                </dl>
            </> }
        }) }</> },
        InspectorView::Workers { workers, reconciles, requeues, last } => html! { <>
            <ul>{ for workers.iter().enumerate().map(|(i, w)| html! { <li>{ match w {
                None => trf!(lang, "worker {i}: idle", &[("i", &i)]),
                Some((key, since)) => trf!(lang, "worker {i}: reconciling {key} since {since}", &[("i", &i), ("key", key), ("since", &seconds(*since))]),
            } }</li> }) }</ul>
            { sentence(lang, phrase!("{reconciles} reconciles, {requeues} requeues"), &[("reconciles", reconciles), ("requeues", requeues)]) }
            <h3>{ tr!(lang, "Last results") }</h3>
            <ol class="results">
                { for last.iter().map(|e| html! { <li class="mono">{ format!("#{} {}", e.step, e.summary) }</li> }) }
            </ol>
        </> },
    };
    html! {
        <section class="panel inspector" aria-labelledby="inspector-heading">
            <h2 id="inspector-heading">{ format!("{}: {}", tr!(lang, "Inspector"), tr(lang, label(props.stage, era))) }</h2>
            { body }
        </section>
    }
}
