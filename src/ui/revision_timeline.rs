//! The store's revision history, newest first: one row per change, with the compaction line
//! below which only each key's newest revision survives (semantics §7).

use super::app::PageState;
use crate::cluster::mvcc_store::Event;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub session: PageState,
}

/// Rows shown at most; older ones are counted.
const SHOWN: usize = 200;

#[function_component(RevisionTimeline)]
pub fn revision_timeline(props: &Props) -> Html {
    let session = props.session.read();
    let lang = session.lang;
    let tr = |en| crate::i18n::page::tr(lang, en);
    let store = session.world().api.store();
    let compacted = store.compact_revision();
    let history: Vec<_> = store.history().rev().take(SHOWN).collect();
    let mut rows = Vec::new();
    let mut line_drawn = false;
    for (rev, event) in &history {
        if let Some(c) = compacted.filter(|c| *rev <= *c && !line_drawn) {
            rows.push(compaction_row(c, lang));
            line_drawn = true;
        }
        let (op, class, detail) = match event {
            Event::Put(kv) => ("PUT", "put", format!("v{} · created {}", kv.version, kv.create_revision)),
            Event::Delete { .. } => ("DELETE", "delete", "tombstone".to_string()),
        };
        rows.push(html! {
            <tr class={class}>
                <td class="num">{ rev }</td>
                <td><span class={classes!("op", class)}>{ op }</span></td>
                <td class="mono">{ event.key() }</td>
                <td class="detail">{ detail }</td>
            </tr>
        });
    }
    if let Some(c) = compacted.filter(|_| !line_drawn) {
        rows.push(compaction_row(c, lang));
    }
    let hidden = store.history_len().saturating_sub(SHOWN);
    html! {
        <table class="timeline" aria-label={crate::i18n::page::tr(lang, "Revision history")}>
            <thead><tr><th class="num">{ tr("Rev") }</th><th>{ tr("Event") }</th><th>{ tr("Key") }</th><th>{ tr("Version") }</th></tr></thead>
            <tbody>
                { for rows }
                if hidden > 0 {
                    <tr><td colspan="4" class="more">{ format!("… +{hidden}") }</td></tr>
                }
                <tr class="origin"><td class="num">{ 1 }</td><td colspan="3">{ tr("empty store: the first write is revision 2") }</td></tr>
            </tbody>
        </table>
    }
}

fn compaction_row(rev: i64, lang: crate::i18n::Lang) -> Html {
    let text = match lang {
        crate::i18n::Lang::Ko => format!(
            "리비전 {rev}에서 컴팩션: 그 아래 리비전은 읽을 수 없고, 그 이하에는 key마다 가장 최신 리비전만 남습니다"
        ),
        crate::i18n::Lang::En => {
            format!("compacted at revision {rev}: reads below it fail; at or below it only each key's newest revision remains")
        }
    };
    html! {
        <tr class="compaction">
            <td colspan="4" role="note">{ text }</td>
        </tr>
    }
}
