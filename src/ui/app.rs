//! The first page: write objects, watch the store's revisions grow, compact, and read the
//! API server's metrics.

use super::metrics_panel::MetricsPanel;
use super::object_form::ObjectForm;
use super::objects_table::ObjectsTable;
use super::revision_timeline::RevisionTimeline;
use crate::cluster::Kind;
use crate::session::{Action, Message, Session};
use std::rc::Rc;
use yew::prelude::*;

/// The session as Yew state: every action goes through [`Session::apply`]. Panels get a
/// cheap shared handle to read; equal handles mean nothing changed.
#[derive(Clone, Default)]
pub struct PageState(pub Rc<Session>);

impl Reducible for PageState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self.0).clone();
        next.apply(action);
        Rc::new(PageState(Rc::new(next)))
    }
}

impl PartialEq for PageState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(PageState::default);
    let editing = use_state(|| Session::example(Kind::ConfigMap, "default", "demo"));
    let send = {
        let state = state.clone();
        Callback::from(move |action: Action| state.dispatch(action))
    };
    let edit = {
        let editing = editing.clone();
        Callback::from(move |manifest: String| editing.set(manifest))
    };
    let session = &state.0;
    let message = match &session.message {
        Some(Message::Done(text)) => html! { <p class="message done" role="status">{ text }</p> },
        Some(Message::Failed(text)) => html! { <p class="message failed" role="alert">{ text }</p> },
        None => html! { <p class="message" role="status"></p> },
    };
    html! {
        <div class="page">
            <header class="masthead">
                <h1>{ "informer-playground" }</h1>
                <p class="tagline">{ "The store and the API server: every write is a new etcd revision, and every object's resourceVersion is the revision that last wrote it." }</p>
                <p class="revision" aria-live="polite">
                    { "Store revision " }<strong data-testid="store-revision">{ session.api.store().revision() }</strong>
                    { match session.api.store().compact_revision() {
                        Some(c) => html! { <>{ " · compacted at " }<strong>{ c }</strong></> },
                        None => html! {},
                    } }
                </p>
            </header>
            <main class="columns">
                <section class="panel" aria-labelledby="write-heading">
                    <h2 id="write-heading">{ "Write" }</h2>
                    <ObjectForm manifest={(*editing).clone()} on_edit={edit.clone()} on_action={send.clone()} />
                    { message }
                    <ObjectsTable session={(*state).clone()} on_edit={edit} on_action={send} />
                </section>
                <section class="panel" aria-labelledby="history-heading">
                    <h2 id="history-heading">{ "Revision history" }</h2>
                    <RevisionTimeline session={(*state).clone()} />
                </section>
                <section class="panel" aria-labelledby="metrics-heading">
                    <h2 id="metrics-heading">{ "API server" }</h2>
                    <MetricsPanel session={(*state).clone()} />
                </section>
            </main>
        </div>
    }
}
