//! The room's journal: a JSON line naming the room and when it opened, then one line a request
//! the room took. Read at start (a line that cannot be read stops the start, naming it: a
//! journal is never overwritten), appended to and flushed before the request is answered.

use informer_sim::room::{Entry, Lessons, Room};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal's first line.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Head {
    room: String,
    /// Seconds since the Unix epoch.
    opened: u64,
}

pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
}

/// The room a journal keeps and when it opened (its lessons from outside taken into `lessons`
/// again); a new room when there is no journal or it is empty.
pub fn open(
    path: Option<&Path>,
    new_code: String,
    now: u64,
    lessons: &dyn Lessons,
) -> Result<(Room, u64, Option<Journal>), String> {
    let Some(path) = path else { return Ok((Room::new(&new_code), now, None)) };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read the journal {}: {e}", path.display())),
    };
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let bad = |n: usize, why: String| format!("the journal {} line {}: {why}", path.display(), n + 1);
    let (room, opened, fresh) = match lines.next() {
        None => (Room::new(&new_code), now, true),
        Some((n, line)) => {
            let head: Head = serde_json::from_str(line).map_err(|e| bad(n, format!("not the room's head: {e}")))?;
            let mut entries = Vec::new();
            let mut numbers = Vec::new();
            for (n, line) in lines {
                entries.push(serde_json::from_str::<Entry>(line).map_err(|e| bad(n, e.to_string()))?);
                numbers.push(n);
            }
            let room = Room::replay(&head.room, &entries, lessons)
                .map_err(|(i, why)| bad(numbers[i], why.reason(informer_sim::i18n::Lang::En)))?;
            (room, head.opened, false)
        }
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot write the journal {}: {e}", path.display()))?;
    let mut journal = Journal { path: path.into(), file };
    if fresh {
        journal.write(&Head { room: room.code.clone(), opened })?;
    }
    Ok((room, opened, Some(journal)))
}

impl Journal {
    /// Appends a line and flushes it.
    pub fn write(&mut self, value: &impl Serialize) -> Result<(), String> {
        let mut line = serde_json::to_string(value).map_err(|e| e.to_string())?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write the journal {}: {e}", self.path.display()))
    }
}
