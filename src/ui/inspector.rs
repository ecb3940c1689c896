//! One inspector per stage, showing its state at the current step.

use super::app::PageState;
use super::metrics_panel::MetricsPanel;
use super::pipeline_diagram::label;
use super::revision_timeline::RevisionTimeline;
use crate::session::Action;
use crate::sim::Stage;
use crate::world::{InformerStack, Worker};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: PageState,
    pub on_action: Callback<Action>,
}

/// Rows shown at most in any list; the rest are counted.
const SHOWN: usize = 40;

fn more(total: usize) -> Html {
    if total > SHOWN {
        html! { <li class="more">{ format!("… +{}", total - SHOWN) }</li> }
    } else {
        html! {}
    }
}

/// A reflector phase in Korean.
fn phase_ko(phase: &str) -> &'static str {
    match phase {
        "idle" => "대기",
        "listing" => "LIST 중",
        "opening watch" => "watch 여는 중",
        "watching" => "watch 중",
        _ => "백오프 중",
    }
}

fn informer_heading(stack: &InformerStack) -> Html {
    html! { <h4>{ format!("{} informer", stack.config.reflector.kind) }</h4> }
}

#[function_component(Inspector)]
pub fn inspector(props: &Props) -> Html {
    let session = props.session.read();
    let world = session.world();
    let stage = session.inspected;
    let ko = session.lang == crate::i18n::Lang::Ko;
    let body = match stage {
        Stage::Store => html! { <RevisionTimeline session={props.session.clone()} /> },
        Stage::ApiServer | Stage::User | Stage::Kubelet => html! { <MetricsPanel session={props.session.clone()} /> },
        Stage::Reflector => world.informers.iter().map(|s| {
            let r = &s.reflector;
            let next = match r.phase { crate::client::reflector::Phase::BackingOff { until, .. } if ko => format!(", 다음 시도 {}.{:03}s", until / 1000, until % 1000), crate::client::reflector::Phase::BackingOff { until, .. } => format!(", next try at {}.{:03}s", until / 1000, until % 1000), _ => String::new() };
            html! { <section>
                { informer_heading(s) }
                <p>{ if ko {
                    format!("{}{next}; lastSyncResourceVersion {:?}; LIST {}회, WATCH {}회", phase_ko(r.phase.name()), r.last_sync_resource_version, r.lists, r.watches)
                } else {
                    format!("{}{next}; lastSyncResourceVersion {:?}; {} LISTs, {} WATCHes", r.phase.name(), r.last_sync_resource_version, r.lists, r.watches)
                } }</p>
                <pre class="log" aria-label={format!("{} reflector log", s.config.reflector.kind)}>{ for r.log.iter().skip(r.log.len().saturating_sub(12)).map(|l| format!("{l}\n")) }</pre>
            </section> }
        }).collect::<Html>(),
        Stage::DeltaFifo => world.informers.iter().map(|s| {
            let view = s.informer.fifo.view(SHOWN);
            html! { <section>
                { informer_heading(s) }
                <p>{ if ko { format!("{}: 대기 {}개; HasSynced: {}", view.name, view.len, view.has_synced) } else { format!("{}: {} waiting; HasSynced: {}", view.name, view.len, view.has_synced) } }</p>
                <ol class="keys">
                    { for view.entries.iter().map(|e| {
                        let text = e.deltas.iter().map(|(kind, rv)| format!("{}@{rv}", kind.name())).collect::<Vec<_>>().join(", ");
                        html! { <li><span class="mono">{ &e.key }</span>{ format!(": [{text}]") }</li> }
                    }) }
                    { more(view.len) }
                </ol>
            </section> }
        }).collect::<Html>(),
        Stage::Indexer | Stage::Informer => {
            let opened = session.opened.as_ref().and_then(|key| {
                world.informers.iter().find_map(|s| s.informer.indexer.get_by_key(key))
            });
            let lists = world.informers.iter().map(|s| {
                let ix = &s.informer.indexer;
                html! { <section>
                    { informer_heading(s) }
                    <p>{ if ko {
                        format!("오브젝트 {}개; 최신 RV {}; 마지막 읽기가 살펴본 오브젝트 {}개", ix.len(), ix.last_store_sync_resource_version(), ix.last_scanned)
                    } else {
                        format!("{} objects; newest RV {}; last read examined {} objects", ix.len(), ix.last_store_sync_resource_version(), ix.last_scanned)
                    } }</p>
                    <ul class="objects-list">
                        { for ix.objects().take(SHOWN).map(|o| {
                            let key = o.key();
                            let open = props.on_action.reform(move |_| Action::Open(key.clone()));
                            html! { <li><button type="button" class="link" aria-label={format!("Open {}", o.key())} onclick={open}>{ o.key() }</button>{ format!(" rv {}", o.metadata.resource_version) }</li> }
                        }) }
                        { more(ix.len()) }
                    </ul>
                    <p class="indices">{ for ix.indexers().map(|(name, _)| html! { <span>{ if ko { format!("인덱스 {name}: 값 {}개", ix.list_index_func_values(name).len()) } else { format!("index {name}: {} values", ix.list_index_func_values(name).len()) } }</span> }) }</p>
                </section> }
            }).collect::<Html>();
            html! { <>
                { lists }
                if let Some(obj) = opened {
                    <h4>{ format!("{} {} (resourceVersion {})", obj.kind, obj.key(), obj.metadata.resource_version) }</h4>
                    <pre class="yaml" aria-label="Object YAML">{ crate::yaml::to_yaml(&serde_json::to_value(obj).unwrap_or_default()) }</pre>
                }
            </> }
        }
        Stage::Handler => world.informers.iter().map(|s| html! { <section>
            { informer_heading(s) }
            <ul>{ for s.informer.listeners.iter().map(|l| html! {
                <li>{ if ko {
                    format!("{}: 버퍼 {}개, 전달 {}개, resync {}", l.name, l.buffer.len(), l.delivered, if l.resync_period_ms == 0 { "없음".to_string() } else { format!("{}초마다", l.resync_period_ms / 1000) })
                } else { format!("{}: {} buffered, {} delivered, resync every {}", l.name, l.buffer.len(), l.delivered, if l.resync_period_ms == 0 { "never".to_string() } else { format!("{} s", l.resync_period_ms / 1000) }) } }</li>
            }) }</ul>
        </section> }).collect::<Html>(),
        Stage::Workqueue => {
            let q = &world.queue;
            let list = |items: Vec<String>| html! { <span class="mono">{ if items.is_empty() { "—".to_string() } else { items.join(", ") } }</span> };
            html! { <dl class="sets">
                <dt>{ "queue" }</dt><dd>{ list(q.queued().take(SHOWN).cloned().collect()) }</dd>
                <dt>{ "dirty" }</dt><dd>{ list(q.dirty().take(SHOWN).cloned().collect()) }</dd>
                <dt>{ "processing" }</dt><dd>{ list(q.processing().take(SHOWN).cloned().collect()) }</dd>
                <dt>{ "waiting" }</dt><dd>{ list(q.waiting().take(SHOWN).map(|(k, at)| format!("{k} until {}.{:03}s", at / 1000, at % 1000)).collect()) }</dd>
            </dl> }
        }
        Stage::Reconciler => {
            let costs = world.costs();
            html! { <>
                <ul>{ for world.workers.iter().enumerate().map(|(i, w)| html! { <li>{ match w {
                    Worker::Idle if ko => format!("워커 {i}: 대기"),
                    Worker::Idle => format!("worker {i}: idle"),
                    Worker::Reconciling { key, since, .. } if ko => format!("워커 {i}: {key} reconcile 중 ({}.{:03}s부터)", since / 1000, since % 1000),
                    Worker::Reconciling { key, since, .. } => format!("worker {i}: reconciling {key} since {}.{:03}s", since / 1000, since % 1000),
                } }</li> }) }</ul>
                <p>{ if ko { format!("reconcile {}회, 재시도 {}회", costs.reconciles, costs.requeues) } else { format!("{} reconciles, {} requeues", costs.reconciles, costs.requeues) } }</p>
                <h4>{ crate::i18n::page::tr(session.lang, "Last results") }</h4>
                <ol class="results">
                    { for session.visible_trace().iter().rev().filter(|e| e.kind == crate::sim::TraceKind::ReconcileEnd).take(6).map(|e| html! {
                        <li class="mono">{ format!("#{} {}", e.step, crate::i18n::summary(e, session.lang)) }</li>
                    }) }
                </ol>
            </> }
        }
    };
    html! {
        <section class="panel inspector" aria-labelledby="inspector-heading">
            <h2 id="inspector-heading">{ format!("{}: {}", crate::i18n::page::tr(session.lang, "Inspector"), crate::i18n::page::tr(session.lang, label(stage))) }</h2>
            { body }
        </section>
    }
}
