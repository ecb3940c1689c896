//! The pipeline's drawing, shared by the page's diagram and the SVG export: where each stage
//! sits, what it is called, how a step's token looks, and the arrows an event follows. The
//! export is a standalone SVG file (its colours inline, no page stylesheet) of one step.

use crate::era::Era;
use crate::i18n::{tr, Lang};
use crate::sim::{Stage, TraceKind};
use crate::world::TraceEvent;
use std::fmt::Write;

/// Where each stage sits (x, y of its centre) in a 1000 × 330 drawing.
pub fn position(stage: Stage) -> (f64, f64) {
    match stage {
        Stage::User => (92.0, 45.0),
        Stage::Store => (92.0, 165.0),
        Stage::ApiServer => (300.0, 165.0),
        Stage::Kubelet => (300.0, 45.0),
        Stage::Reflector => (520.0, 165.0),
        Stage::Fifo => (730.0, 165.0),
        Stage::Informer => (908.0, 165.0),
        Stage::Indexer => (908.0, 45.0),
        Stage::Handler => (908.0, 285.0),
        Stage::Workqueue => (680.0, 285.0),
        Stage::Reconciler => (450.0, 285.0),
    }
}

/// A stage's name on the page; the FIFO is named after the era's.
pub fn label(stage: Stage, era: Era) -> &'static str {
    match stage {
        Stage::User => "You",
        Stage::Store => "etcd",
        Stage::ApiServer => "API server",
        Stage::Kubelet => "kubelet",
        Stage::Reflector => "Reflector",
        Stage::Fifo => era.fifo().name(),
        Stage::Informer => "Informer",
        Stage::Indexer => "Indexer",
        Stage::Handler => "Handlers",
        Stage::Workqueue => "Workqueue",
        Stage::Reconciler => "Reconciler",
    }
}

/// The token's class and its short label: colour and text say the same thing.
pub fn token(kind: TraceKind) -> (&'static str, &'static str) {
    match kind {
        TraceKind::Added => ("added", "ADDED"),
        TraceKind::Modified => ("modified", "MODIFIED"),
        TraceKind::Deleted => ("deleted", "DELETED"),
        TraceKind::Bookmark => ("bookmark", "BOOKMARK"),
        TraceKind::WatchError | TraceKind::RequestFailed | TraceKind::EventLost | TraceKind::Fault => {
            ("fault", "ERROR")
        }
        TraceKind::ListRequest | TraceKind::ListResponse | TraceKind::Replace => ("list", "LIST"),
        TraceKind::WatchRequest | TraceKind::WatchStarted | TraceKind::WatchClosed => ("request", "WATCH"),
        TraceKind::ApiWrite | TraceKind::ApiResponse => ("request", "WRITE"),
        _ => ("internal", "DELTA"),
    }
}

/// The fixed arrows of the pipeline (the path an event takes).
pub const FLOW: [(Stage, Stage); 10] = [
    (Stage::Store, Stage::ApiServer),
    (Stage::ApiServer, Stage::Reflector),
    (Stage::Reflector, Stage::Fifo),
    (Stage::Fifo, Stage::Informer),
    (Stage::Informer, Stage::Indexer),
    (Stage::Informer, Stage::Handler),
    (Stage::Handler, Stage::Workqueue),
    (Stage::Workqueue, Stage::Reconciler),
    (Stage::Reconciler, Stage::ApiServer),
    (Stage::User, Stage::ApiServer),
];

/// A token class's colour in the exported drawing (the page's light theme).
fn colour(class: &str) -> &'static str {
    match class {
        "added" => "#17663a",
        "modified" => "#1f4e8c",
        "deleted" => "#6b3fa0",
        "bookmark" => "#56616f",
        "list" => "#8a4b00",
        "request" => "#006b75",
        "fault" => "#b3261e",
        _ => "#3b4656",
    }
}

/// Text made safe inside SVG markup.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The diagram at one step as a standalone SVG document: the stages, the arrows, the step's
/// token on its arrow and the step's headline beneath, in the page's language.
pub fn standalone_svg(current: Option<&TraceEvent>, era: Era, lang: Lang) -> String {
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 370\" font-family=\"system-ui, sans-serif\">\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" \
         orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#9aa5b8\"/></marker></defs>\n\
         <rect width=\"1000\" height=\"370\" fill=\"#ffffff\"/>\n",
    );
    for (a, b) in FLOW {
        let ((x1, y1), (x2, y2)) = (position(a), position(b));
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#9aa5b8\" stroke-width=\"2\" marker-end=\"url(#arrow)\"/>"
        );
    }
    let hop = current.map(|e| (e, token(e.kind)));
    if let Some((e, (class, _))) = hop {
        let ((x1, y1), (x2, y2)) = (position(e.from), position(e.to));
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"6\" stroke-linecap=\"round\" opacity=\"0.75\"/>",
            colour(class)
        );
    }
    for stage in Stage::ALL {
        let (x, y) = position(stage);
        let active = current.is_some_and(|e| e.to == stage);
        let (fill, stroke, width) = if active { ("#fff4d6", "#f0a500", 4) } else { ("#ffffff", "#5d6b82", 2) };
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"176\" height=\"60\" rx=\"10\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-size=\"26\" font-weight=\"650\" fill=\"#1c2430\">{}</text>",
            x - 88.0,
            y - 30.0,
            y + 9.0,
            escape(tr(lang, label(stage, era)))
        );
    }
    if let Some((e, (class, text))) = hop {
        let ((x1, y1), (x2, y2)) = (position(e.from), position(e.to));
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0 - 22.0);
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"104\" height=\"30\" rx=\"15\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"2\"/>\
             <text x=\"{mx}\" y=\"{}\" text-anchor=\"middle\" font-family=\"ui-monospace, monospace\" font-size=\"17\" font-weight=\"700\" fill=\"#ffffff\">{text}</text>",
            mx - 52.0,
            my - 15.0,
            colour(class),
            my + 6.0
        );
        let _ = writeln!(
            out,
            "<text x=\"20\" y=\"352\" font-size=\"18\" fill=\"#1c2430\">{}</text>",
            escape(&crate::i18n::headline(e, lang))
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Action, Session};

    #[test]
    fn the_exported_drawing_names_every_stage_and_draws_the_steps_token() {
        let mut session = Session::from_query("?scenario=list-then-watch");
        while session.current().is_none_or(|e| e.kind != TraceKind::Added) {
            session.apply(Action::StepForward);
        }
        let e = session.current().unwrap();
        let svg = standalone_svg(Some(e), Era::default(), Lang::En);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        for stage in Stage::ALL {
            assert!(svg.contains(&format!(">{}</text>", escape(label(stage, Era::default())))), "{stage:?}");
        }
        assert!(svg.contains(">ADDED</text>"));
        assert!(svg.contains("#17663a"), "the ADDED token's colour");
        assert!(svg.contains(&escape(&crate::i18n::headline(e, Lang::En))), "the step's headline");
        let korean = standalone_svg(None, Era::default(), Lang::Ko);
        assert!(!korean.contains("ADDED"), "no token before the first step");
        assert_eq!(korean.matches("<rect x=").count(), Stage::ALL.len());
    }

    #[test]
    fn text_is_never_markup() {
        assert_eq!(escape("default/<a&\"b\">"), "default/&lt;a&amp;&quot;b&quot;&gt;");
    }
}
