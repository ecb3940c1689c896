//! The host-page API (`informer_sim::views::host`): commands from the frame's own origin and
//! the link's `host`s, and what the page tells them — ready, every change of step, every
//! answer — and, in an embed, its height after every render.

use super::super::embed;
use super::super::modules::{self, Module};
use super::super::state::PageState;
use informer_sim::session::Action;
use informer_sim::views::host::Event;
use yew::prelude::*;

/// In another page's frame, says the page is ready, then takes the hosts' commands for as long
/// as the page lives. The host-page API — its reader of commands, what it tells — arrives as a
/// module of its own: a page not in a frame has no host and loads none.
#[hook]
pub fn use_host_api(
    state: UseReducerHandle<PageState>,
    send: Callback<Action>,
    playing: UseStateHandle<bool>,
    hosts: Vec<String>,
    set_theme: Callback<informer_sim::session::link::Theme>,
) {
    let listener = use_mut_ref(|| None::<gloo::events::EventListener>);
    use_effect_with((), move |_| {
        if embed::framed() {
            let kept = listener.clone();
            modules::with(Module::Host, move || {
                let Some(host) = modules::host() else { return };
                *kept.borrow_mut() = (host.serve)(embed::Driven { state, send, playing, hosts, set_theme });
            });
        }
        move || drop(listener.borrow_mut().take())
    });
}

/// Tells the hosts every change of step (with its headline) and every answer, once each, once
/// the host-page API's module is here (what happened before it arrived is told then: the step
/// after the ready it says, answers not told yet).
#[hook]
pub fn use_host_reports(state: &PageState, hosts: &[String]) {
    let told = use_mut_ref(Vec::<(usize, usize, bool)>::new);
    let here = modules::host().is_some();
    let session = state.read();
    let line = session.current().map(|e| informer_sim::i18n::headline(e, session.lang())).unwrap_or_default();
    {
        let hosts = hosts.to_vec();
        use_effect_with((session.world().steps(), line, here), move |(step, line, _)| match modules::host() {
            Some(host) => (host.tell)(&Event::Step { step: *step, line: line.clone() }, &hosts),
            // A framed page whose module could not arrive asks again at each step.
            None if embed::framed() => modules::ask(Module::Host),
            None => {}
        });
    }
    let answers: Vec<_> =
        session.questions().iter().filter_map(|(i, q, a)| a.map(|a| (*i, a, a == q.answer))).collect();
    let hosts = hosts.to_vec();
    use_effect_with((answers, here), move |(answers, _)| {
        let Some(host) = modules::host() else { return };
        for &(question, choice, correct) in answers.iter().filter(|a| !told.borrow().contains(a)) {
            (host.tell)(&Event::Answered { question, choice, correct }, &hosts);
        }
        *told.borrow_mut() = answers.clone();
    });
}

/// An embed tells the page around it how tall it is, after every render.
#[hook]
pub fn use_embed_height(embed: bool) {
    use_effect(move || {
        if embed {
            embed::report_height();
        }
    });
}
