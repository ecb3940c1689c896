//! The store's revision history, newest first: one row per change, with the compaction line
//! below which only each key's newest revision survives (semantics §7).

use informer_sim::i18n::Lang;
use informer_sim::views::HistoryRow;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub rows: Vec<HistoryRow>,
    pub hidden: usize,
    pub lang: Lang,
}

#[function_component(RevisionTimeline)]
pub fn revision_timeline(props: &Props) -> Html {
    let lang = props.lang;
    let rows = props.rows.iter().map(|row| match row {
        HistoryRow::Compaction(rev) => html! {
            <tr class="compaction">
                <td colspan="4" role="note">{ trf!(lang, "compacted at revision {rev}: reads below it fail; at or below it only each key's newest revision remains", &[("rev", rev)]) }</td>
            </tr>
        },
        HistoryRow::Change { rev, put, key, version, created } => {
            let (op, class) = if *put { ("PUT", "put") } else { ("DELETE", "delete") };
            let detail = if *put { trf!(lang, "v{version} · created {created}", &[("version", version), ("created", created)]) } else { tr!(lang, "tombstone").to_string() };
            html! {
                <tr class={class}>
                    <td class="num">{ rev }</td>
                    <td><span class={classes!("op", class)}>{ op }</span></td>
                    <td class="mono">{ key }</td>
                    <td class="detail">{ detail }</td>
                </tr>
            }
        }
    });
    html! {
        <table class="timeline" aria-label={tr!(lang, "Revision history")}>
            <thead><tr><th class="num">{ tr!(lang, "Rev") }</th><th>{ tr!(lang, "Event") }</th><th>{ tr!(lang, "Key") }</th><th>{ tr!(lang, "Version") }</th></tr></thead>
            <tbody>
                { for rows }
                if props.hidden > 0 {
                    <tr><td colspan="4" class="more">{ format!("… +{}", props.hidden) }</td></tr>
                }
                <tr class="origin"><td class="num">{ 1 }</td><td colspan="3">{ tr!(lang, "empty store: the first write is revision 2") }</td></tr>
            </tbody>
        </table>
    }
}
