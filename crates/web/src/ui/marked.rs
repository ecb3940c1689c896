//! A lesson's or the guide's text drawn with its code as code (`scenario::marked`): never as
//! markup from the text, each run a text node or a `<code>` holding one.

use informer_sim::scenario::marked::{runs, Run};
use yew::prelude::*;

pub fn marked(text: &str) -> Html {
    runs(text)
        .into_iter()
        .map(|run| match run {
            Run::Prose(t) => html! { { t.to_string() } },
            Run::Code(t) => html! { <code>{ t.to_string() }</code> },
        })
        .collect()
}
