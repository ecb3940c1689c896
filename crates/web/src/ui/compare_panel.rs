//! Two releases side by side: each column the newest steps of one release, both at the same
//! virtual time; a step the other release has no counterpart for is marked (`≠`, and in
//! words for screen readers), so the difference reads without colour.

use informer_sim::i18n::tr;
use informer_sim::i18n::Lang;
use informer_sim::views::diagram::{label, token};
use informer_sim::views::{CompareColumn, CompareView, ComparedLine};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub view: CompareView,
    pub lang: Lang,
}

fn column(lang: Lang, column: &CompareColumn) -> Html {
    let era = column.era;
    let heading = trf!(lang, "Kubernetes {release}", &[("release", &era)]);
    html! {
        <section class="compare-column" aria-label={heading.clone()}>
            <h3>{ heading }</h3>
            // Scrolls: focusable, so a keyboard can scroll it (WCAG 2.1.1).
            <ol class="lines" tabindex="0">{ for column.lines.iter().map(|ComparedLine { line: e, unmatched: differs }| {
                let (class, _) = token(e.kind);
                html! {
                    <li class={classes!("line", class, differs.then_some("differs"))}>
                        <span class="mark" aria-label={if *differs { tr!(lang, "only in this release") } else { "" }}>{ if *differs { "≠" } else { "" } }</span>
                        <span class="step">{ format!("#{}", e.step) }</span>
                        <span class="time">{ &e.time }</span>
                        <span class="route">{ format!("{} → {}", tr(lang, label(e.from, era)), tr(lang, label(e.to, era))) }</span>
                        <span class="summary">{ &e.summary }</span>
                    </li>
                }
            }) }</ol>
        </section>
    }
}

#[function_component(ComparePanel)]
pub fn compare_panel(props: &Props) -> Html {
    let (lang, v) = (props.lang, &props.view);
    html! {
        <section class="panel compare" aria-labelledby="compare-heading">
            <h2 id="compare-heading">{ tr!(lang, "Compare releases") }</h2>
            <p class="hint">{ tr!(lang, "Both run the same lesson and actions and stand at the same virtual time; ≠ marks a step the other release does not take.") }</p>
            <div class="compare-columns">
                { column(lang, &v.left) }
                { column(lang, &v.right) }
            </div>
        </section>
    }
}

/// The compare view's module: the second release's column beside the first.
pub struct CompareModule {
    /// The panel for a session that compares (nothing when it does not).
    pub panel: fn(&informer_sim::session::Session, Lang) -> Html,
}

super::modules::split_point!(
    compare,
    compare_module,
    CompareModule,
    CompareModule {
        panel: |session, lang| match informer_sim::views::compare(session, 30) {
            Some(view) => html! { <ComparePanel {view} {lang} /> },
            None => Html::default(),
        },
    }
);
