//! The pipeline's drawing, shared by the page's diagram and the SVG export: where each stage
//! sits, what it is called, how a step's token looks, and the arrows an event follows. The
//! export is a standalone SVG file (its colours inline, no page stylesheet) of one step.

use crate::era::{Era, FifoKind};
use crate::i18n::{tr, trf, Lang, Phrase};
use crate::kernel::{Stage, TraceKind};
use crate::scenario::marked::escape;
use crate::views::glance::{Glance, ReflectorState};
use crate::world::TraceEvent;
use std::fmt::Write;

/// The wide drawing's size (the page's `viewBox` on a wide screen, the export's).
pub const WIDTH: f64 = 1000.0;
pub const HEIGHT: f64 = 344.0;
/// A stage's box: its name above, what it holds below.
pub const BOX_W: f64 = 176.0;
pub const BOX_H: f64 = 72.0;

/// How the stages are laid out: in three rows, left to right as the articles draw the
/// pipeline; or, on a narrow screen (a phone), in two columns read top to bottom, so the
/// drawing is scaled down less and its words stay readable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    #[default]
    Wide,
    Tall,
}

impl Layout {
    /// The drawing's width and height (its `viewBox`).
    pub fn size(self) -> (f64, f64) {
        match self {
            Layout::Wide => (WIDTH, HEIGHT),
            Layout::Tall => (420.0, 716.0),
        }
    }

    /// Where each stage sits (x, y of its centre).
    pub fn position(self, stage: Stage) -> (f64, f64) {
        match self {
            Layout::Wide => {
                let (top, middle, bottom) = (48.0, 172.0, 296.0);
                match stage {
                    Stage::User => (92.0, top),
                    Stage::Store => (92.0, middle),
                    Stage::ApiServer => (300.0, middle),
                    Stage::Kubelet => (300.0, top),
                    Stage::Poller => (520.0, top),
                    Stage::Reflector => (520.0, middle),
                    Stage::Fifo => (730.0, middle),
                    Stage::Informer => (908.0, middle),
                    Stage::Indexer => (908.0, top),
                    Stage::Handler => (908.0, bottom),
                    Stage::Workqueue => (680.0, bottom),
                    Stage::Reconciler => (450.0, bottom),
                }
            }
            // The watch path down the right column, the controller's back up the left.
            Layout::Tall => {
                let (left, right) = (100.0, 320.0);
                let row = |n: f64| 48.0 + 124.0 * n;
                match stage {
                    Stage::User => (left, row(0.0)),
                    Stage::Kubelet => (right, row(0.0)),
                    Stage::Store => (left, row(1.0)),
                    Stage::ApiServer => (right, row(1.0)),
                    Stage::Poller => (left, row(2.0)),
                    Stage::Reflector => (right, row(2.0)),
                    Stage::Reconciler => (left, row(3.0)),
                    Stage::Fifo => (right, row(3.0)),
                    Stage::Workqueue => (left, row(4.0)),
                    Stage::Informer => (right, row(4.0)),
                    Stage::Indexer => (left, row(5.0)),
                    Stage::Handler => (right, row(5.0)),
                }
            }
        }
    }

    /// Where a message leaves its sender's box and enters its receiver's, on the straight
    /// line between their centres (a token travels between these two points).
    pub fn edge_points(self, from: Stage, to: Stage) -> ((f64, f64), (f64, f64)) {
        let ((x1, y1), (x2, y2)) = (self.position(from), self.position(to));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let exit = |d: f64, half: f64| if d.abs() < f64::EPSILON { f64::INFINITY } else { half / d.abs() };
        let s = exit(dx, BOX_W / 2.0).min(exit(dy, BOX_H / 2.0)).min(0.5);
        ((x1 + dx * s, y1 + dy * s), (x2 - dx * s, y2 - dy * s))
    }

    /// Where a step's label rides, clear of the stage boxes: wide, above a level arrow, left
    /// of an upright one, on a slanted one's middle (between the rows); tall, on the arrow's
    /// middle, in the gap between two rows.
    pub fn label_point(self, from: Stage, to: Stage) -> (f64, f64) {
        let ((x1, y1), (x2, y2)) = (self.position(from), self.position(to));
        let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
        match self {
            Layout::Wide if (x1 - x2).abs() < 1.0 => (mx - 62.0, my),
            Layout::Wide if (y1 - y2).abs() < 1.0 => (mx, my - 52.0),
            _ => (mx, my),
        }
    }
}

/// Where each stage sits in the wide drawing.
pub fn position(stage: Stage) -> (f64, f64) {
    Layout::Wide.position(stage)
}

/// [`Layout::label_point`] in the wide drawing.
pub fn label_point(from: Stage, to: Stage) -> (f64, f64) {
    Layout::Wide.label_point(from, to)
}

/// A stage's name on the page (a phrase); the FIFO is named after the era's.
pub fn label(stage: Stage, era: Era) -> Phrase {
    match stage {
        Stage::User => phrase!("You"),
        Stage::Store => phrase!("etcd"),
        Stage::ApiServer => phrase!("API server"),
        Stage::Kubelet => phrase!("kubelet"),
        Stage::Poller => phrase!("Poller"),
        Stage::Reflector => phrase!("Reflector"),
        Stage::Fifo => match era.fifo() {
            FifoKind::DeltaFifo => phrase!("DeltaFIFO"),
            FifoKind::RealFifo | FifoKind::AtomicRealFifo => phrase!("RealFIFO"),
        },
        Stage::Informer => phrase!("Informer"),
        Stage::Indexer => phrase!("Indexer"),
        Stage::Handler => phrase!("Handlers"),
        Stage::Workqueue => phrase!("Workqueue"),
        Stage::Reconciler => phrase!("Reconciler"),
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
        TraceKind::CacheRead | TraceKind::ApiRead => ("request", "READ"),
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

/// Whether a stage has a box at all: the poller only in a world that polls.
pub fn drawn(stage: Stage, g: &Glance) -> bool {
    stage != Stage::Poller || g.poll_every.is_some()
}

/// A stage whose box shows only its name (centred).
pub fn name_only(stage: Stage) -> bool {
    matches!(stage, Stage::User | Stage::Kubelet | Stage::Informer)
}

/// What a stage's box says under its name (the FIFO shows [`chips`] instead).
pub fn holds(stage: Stage, g: &Glance, lang: Lang) -> String {
    let n = |template: Phrase, value: &dyn std::fmt::Display| trf(lang, template, &[("n", value)]);
    match stage {
        Stage::Store => match g.compacted {
            Some(c) => trf!(lang, "rev {rev} · compacted {c}", &[("rev", &g.revision), ("c", &c)]),
            None => n(phrase!("rev {n}"), &g.revision),
        },
        Stage::ApiServer => {
            g.window.map_or_else(String::new, |(a, b)| trf!(lang, "cache {a}…{b}", &[("a", &a), ("b", &b)]))
        }
        Stage::Reflector => match g.reflector {
            Some(ReflectorState::Idle) => tr!(lang, "idle").into(),
            Some(ReflectorState::Listing) => tr!(lang, "listing").into(),
            Some(ReflectorState::Watching) => tr!(lang, "watching").into(),
            Some(ReflectorState::Opening) => tr!(lang, "opening a watch").into(),
            Some(ReflectorState::BackingOff { until }) => {
                let left = until.saturating_sub(g.now);
                n(phrase!("backing off {n} s"), &format!("{}.{}", left / 1000, left % 1000 / 100))
            }
            None => String::new(),
        },
        Stage::Indexer => n(phrase!("{n} objects"), &g.objects),
        Stage::Handler => n(phrase!("{n} pending"), &g.pending),
        Stage::Workqueue if g.processing > 0 => {
            trf!(lang, "{q} queued · {p} active", &[("q", &g.queued), ("p", &g.processing)])
        }
        Stage::Workqueue => n(phrase!("{n} queued"), &g.queued),
        Stage::Reconciler => trf!(lang, "{b}/{w} busy", &[("b", &g.busy), ("w", &g.workers)]),
        Stage::Poller => g
            .poll_every
            .map_or_else(String::new, |ms| n(phrase!("LIST every {n} s"), &crate::i18n::thousandths(ms as i64))),
        Stage::Fifo | Stage::User | Stage::Kubelet | Stage::Informer => String::new(),
    }
}

/// The FIFO's keys as chips: each key's name (cut short) with its delta count, then `+N`.
pub fn chips(g: &Glance) -> Vec<String> {
    let mut chips: Vec<String> = g
        .fifo
        .iter()
        .map(|(key, n)| {
            let name = key.rsplit('/').next().unwrap_or(key);
            let short: String = name.chars().take(5).collect();
            if *n > 1 {
                format!("{short}×{n}")
            } else {
                short
            }
        })
        .collect();
    if g.fifo_more > 0 {
        chips.push(format!("+{}", g.fifo_more));
    }
    chips
}

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

/// The drawing's colours (the page's light and dark themes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    pub background: &'static str,
    pub line: &'static str,
    pub box_fill: &'static str,
    pub box_stroke: &'static str,
    pub text: &'static str,
    pub muted: &'static str,
    pub active_fill: &'static str,
    pub active_stroke: &'static str,
}

impl Palette {
    pub const LIGHT: Palette = Palette {
        background: "#ffffff",
        line: "#9aa5b8",
        box_fill: "#ffffff",
        box_stroke: "#5d6b82",
        text: "#1c2430",
        muted: "#4a5568",
        active_fill: "#fff4d6",
        active_stroke: "#f0a500",
    };
    pub const DARK: Palette = Palette {
        background: "#161b22",
        line: "#6b778a",
        box_fill: "#1f2630",
        box_stroke: "#8b98ad",
        text: "#e6edf3",
        muted: "#b3bfcf",
        active_fill: "#3a2f12",
        active_stroke: "#f0a500",
    };
}

/// The diagram at one step as a standalone SVG document: the stages, the arrows, the step's
/// token on its arrow and the step's headline beneath, in the page's language and colours.
pub fn standalone_svg(current: Option<&TraceEvent>, glance: &Glance, era: Era, lang: Lang, p: &Palette) -> String {
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 384\" font-family=\"system-ui, sans-serif\">\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" \
         orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"{}\"/></marker></defs>\n\
         <rect width=\"1000\" height=\"384\" fill=\"{}\"/>\n",
        p.line, p.background
    );
    for (a, b) in FLOW {
        let ((x1, y1), (x2, y2)) = (position(a), position(b));
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"2\" marker-end=\"url(#arrow)\"/>",
            p.line
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
    for stage in Stage::ALL.into_iter().filter(|s| drawn(*s, glance)) {
        let (x, y) = position(stage);
        let active = current.is_some_and(|e| e.to == stage);
        let (fill, stroke, width) =
            if active { (p.active_fill, p.active_stroke, 4) } else { (p.box_fill, p.box_stroke, 2) };
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"10\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-size=\"26\" font-weight=\"650\" fill=\"{}\">{}</text>",
            x - BOX_W / 2.0,
            y - BOX_H / 2.0,
            if name_only(stage) { y + 9.0 } else { y - 6.0 },
            p.text,
            escape(tr(lang, label(stage, era)))
        );
        let held = if stage == Stage::Fifo { chips(glance).join(" ") } else { holds(stage, glance, lang) };
        if !held.is_empty() {
            let _ = writeln!(
                out,
                "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-size=\"18\" fill=\"{}\">{}</text>",
                y + 25.0,
                p.muted,
                escape(&held)
            );
        }
    }
    if let Some((e, (class, text))) = hop {
        let (mx, my) = label_point(e.from, e.to);
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"104\" height=\"30\" rx=\"15\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>\
             <text x=\"{mx}\" y=\"{}\" text-anchor=\"middle\" font-family=\"ui-monospace, monospace\" font-size=\"17\" font-weight=\"700\" fill=\"#ffffff\">{text}</text>",
            mx - 52.0,
            my - 15.0,
            colour(class),
            p.background,
            my + 6.0
        );
        let _ = writeln!(
            out,
            "<text x=\"20\" y=\"372\" font-size=\"18\" fill=\"{}\">{}</text>",
            p.text,
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
        let svg = standalone_svg(
            Some(e),
            &crate::views::glance::glance(session.world()),
            Era::default(),
            Lang::En,
            &Palette::LIGHT,
        );
        assert!(svg.contains(">watching</text>") || svg.contains(">listing</text>"), "what the Reflector is doing");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        for stage in Stage::ALL.into_iter().filter(|s| *s != Stage::Poller) {
            assert!(svg.contains(&format!(">{}</text>", escape(label(stage, Era::default()).en()))), "{stage:?}");
        }
        assert!(!svg.contains(">Poller</text>"), "a world that does not poll draws no poller");
        assert!(svg.contains(">ADDED</text>"));
        assert!(svg.contains("#17663a"), "the ADDED token's colour");
        assert!(svg.contains(&escape(&crate::i18n::headline(e, Lang::En))), "the step's headline");
        let korean = standalone_svg(None, &Glance::default(), Era::default(), Lang::Ko, &Palette::LIGHT);
        assert!(!korean.contains("ADDED"), "no token before the first step");
        assert_eq!(korean.matches("<rect x=").count(), Stage::ALL.len() - 1, "no poller box without a poller");
    }

    #[test]
    fn a_world_that_polls_draws_its_poller_and_the_poll_leaves_from_it() {
        let mut session = crate::session::Session::from_query("?scenario=polling-vs-watch");
        session.apply(crate::session::Action::StepForward);
        session.apply(crate::session::Action::StepForward);
        let poll = session.current().unwrap();
        assert_eq!((poll.from, poll.to, poll.kind), (Stage::Poller, Stage::ApiServer, TraceKind::ListRequest));
        let glance = crate::views::glance::glance(session.world());
        assert!(drawn(Stage::Poller, &glance));
        let svg = standalone_svg(Some(poll), &glance, Era::default(), Lang::En, &Palette::LIGHT);
        assert!(svg.contains(">Poller</text>") && svg.contains(">LIST every 1 s</text>"), "{svg}");
    }

    #[test]
    fn in_either_layout_every_box_is_inside_the_drawing_and_no_two_overlap() {
        for layout in [Layout::Wide, Layout::Tall] {
            let (width, height) = layout.size();
            let boxes: Vec<(Stage, f64, f64)> =
                Stage::ALL.iter().map(|s| (*s, layout.position(*s).0, layout.position(*s).1)).collect();
            for &(stage, x, y) in &boxes {
                assert!(x - BOX_W / 2.0 >= 0.0 && x + BOX_W / 2.0 <= width, "{layout:?}: {stage:?} across the sides");
                assert!(
                    y - BOX_H / 2.0 >= 0.0 && y + BOX_H / 2.0 <= height,
                    "{layout:?}: {stage:?} across the top or bottom"
                );
                for &(other, ox, oy) in boxes.iter().filter(|(o, ..)| *o != stage) {
                    let apart = (x - ox).abs() >= BOX_W || (y - oy).abs() >= BOX_H;
                    assert!(apart, "{layout:?}: {stage:?} and {other:?} overlap");
                }
            }
        }
    }

    #[test]
    fn text_is_never_markup() {
        assert_eq!(escape("default/<a&\"b\">"), "default/&lt;a&amp;&quot;b&quot;&gt;");
    }
}
