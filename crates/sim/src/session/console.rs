//! The console: a person's kubectl lines, each printed with what kubectl (or the playground,
//! for its own limits) answers, and the rows its watches print as changes happen.

use super::write::refusal;
use super::{Refusal, Session};
use crate::kernel::sort;
use crate::scenario::Lang;
use crate::world;

/// A line of the console's transcript: what was typed, what kubectl printed, or what the
/// playground refused, worded when the transcript is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleLine {
    Typed(String),
    Printed(String),
    Refused(Refusal),
}

impl ConsoleLine {
    pub fn text(&self, lang: Lang) -> String {
        match self {
            ConsoleLine::Typed(line) => format!("$ {line}"),
            ConsoleLine::Printed(text) => text.clone(),
            ConsoleLine::Refused(refusal) => refusal.text(lang),
        }
    }
}

impl Session {
    pub(super) fn kubectl(&mut self, entry: &str) {
        use crate::console::kubectl::Outcome;
        let (line, stdin) = entry.split_once('\n').unwrap_or((entry, ""));
        let at = self.world().steps();
        self.console.record((at, ConsoleLine::Typed(line.trim().to_string())));
        let Some(console) = crate::console::engine() else {
            self.console.record((at, ConsoleLine::Refused(Refusal::NotLoaded)));
            return;
        };
        let printed = match (console.kubectl)(line, stdin, self.world()) {
            Outcome::Output(text) | Outcome::Error(text) => ConsoleLine::Printed(text),
            Outcome::Exceeded(exceeded) => ConsoleLine::Refused(Refusal::Limit(exceeded)),
            Outcome::Refused(e) => ConsoleLine::Refused(refusal(e)),
            Outcome::Watch(kind, namespace, text) => {
                self.act(world::Intervention::ConsoleWatch { kind, namespace });
                ConsoleLine::Printed(text)
            }
            Outcome::Write(action, done) => self.console_write(action, done),
            Outcome::Writes(writes) => {
                let last = writes.len().saturating_sub(1);
                let mut printed = None;
                for (n, (action, done)) in writes.into_iter().enumerate() {
                    let line = self.console_write(action, done);
                    match n == last {
                        true => printed = Some(line),
                        false => self.console.record((at, line)),
                    }
                }
                printed.unwrap_or(ConsoleLine::Printed(String::new()))
            }
        };
        self.console.record((at, printed));
    }

    /// A write the console makes: kubectl's line when it succeeds, else what refused it.
    fn console_write(&mut self, action: world::Intervention, done: String) -> ConsoleLine {
        self.act(action);
        match self.write_answer() {
            Some(Err(refused)) => ConsoleLine::Refused(refused),
            _ => ConsoleLine::Printed(done),
        }
    }

    /// The console's transcript up to the current step, with the rows its watches printed
    /// in between, in the order they came, in `lang`.
    pub fn console_text(&self, lang: Lang) -> String {
        let here = self.world().steps();
        // Each watch row shows the object as it was when the event arrived.
        let rows = self.world().console_events().iter().filter_map(|(step, at, kind, event)| {
            let row = crate::cluster::printers::align(&[crate::cluster::printers::row(*kind, event.object()?, *at)]);
            Some((*step, 1, row))
        });
        let mut lines: Vec<(u64, u8, String)> = self
            .console
            .iter()
            .filter(|(step, _)| *step <= here)
            .map(|(step, line)| (*step, 0, line.text(lang)))
            .chain(rows)
            .collect();
        sort::sort_by_key(&mut lines, |(step, order, _)| (*step, *order));
        lines.into_iter().map(|(_, _, text)| text).collect::<Vec<_>>().join("\n")
    }
}
