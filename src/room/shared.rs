//! The room behind the server's lock: the room itself, its journal, who is connected, and the
//! rates attendees send at. Every change is told to the event streams by a version number.

use super::journal::{self, Journal};
use super::lessons::LessonsThread;
use super::Options;
use informer_sim::room::{AttendeeId, Entry, Refusal, Request, Role, Room, RoomView};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// Requests a minute an attendee may send.
pub const ATTENDEE_PER_MINUTE: u32 = 60;
/// Requests a minute the facilitator may send (each step is one).
pub const FACILITATOR_PER_MINUTE: u32 = 1200;
/// Event streams open at once.
pub const MAX_STREAMS: usize = 1000;

pub struct Shared {
    inner: Mutex<Inner>,
    changed: tokio::sync::watch::Sender<u64>,
    /// The lessons, with the facilitator's run kept from one place to the next.
    lessons: LessonsThread,
    pub key: String,
    pub dist: std::path::PathBuf,
}

struct Inner {
    room: Room,
    /// When the room opened, in seconds since the Unix epoch (its journal's).
    opened: u64,
    journal: Option<Journal>,
    streams: usize,
    /// Attendees with an event stream open, and how many each has.
    connected: BTreeMap<AttendeeId, usize>,
    /// Per sender (an attendee, or the facilitator as `None`): the minute and its count.
    rates: HashMap<Option<AttendeeId>, (u64, u32)>,
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Shared {
    pub fn open(options: &Options, key: String) -> Result<Shared, String> {
        let code = super::terminal::random_hex(3)?;
        let lessons = LessonsThread::start();
        let (room, opened, journal) = journal::open(options.journal.as_deref(), code, now(), &lessons)?;
        Ok(Shared {
            inner: Mutex::new(Inner {
                room,
                opened,
                journal,
                streams: 0,
                connected: BTreeMap::new(),
                rates: HashMap::new(),
            }),
            lessons,
            changed: tokio::sync::watch::channel(0).0,
            key,
            dist: options.dist.clone(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere never leaves the room half-changed: changes are made on a copy.
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn code(&self) -> String {
        self.lock().room.code.clone()
    }

    /// Takes a request: within its sender's rate, applied to a copy of the room, written to
    /// the journal, then kept, and the streams told.
    pub fn take(&self, request: Request) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let minute = now() / 60;
        let sender = request.attendee().cloned();
        let limit = if sender.is_some() { ATTENDEE_PER_MINUTE } else { FACILITATOR_PER_MINUTE };
        let count = {
            let rate = inner.rates.entry(sender).or_insert((minute, 0));
            if rate.0 != minute {
                *rate = (minute, 0);
            }
            rate.1 += 1;
            rate.1
        };
        if count > limit {
            return Err(Refusal::TooFast { per_minute: limit });
        }
        if inner.rates.len() > 4 * informer_sim::room::MAX_ATTENDEES {
            inner.rates.retain(|_, (m, _)| *m == minute);
        }
        if inner.room.holds(&request) {
            return Ok(());
        }
        let at_s = now().saturating_sub(inner.opened);
        let mut changed = inner.room.clone();
        changed.apply(&request, at_s, &self.lessons)?;
        if let Some(journal) = inner.journal.as_mut() {
            journal.write(&Entry { at_s, request }).map_err(|why| {
                eprintln!("error: {why}");
                Refusal::NotSaved
            })?;
        }
        inner.room = changed;
        drop(inner);
        self.changed.send_modify(|v| *v += 1);
        Ok(())
    }

    /// The room as `role` sees it now.
    pub fn view(&self, role: &Role) -> RoomView {
        let inner = self.lock();
        inner.room.view(role, inner.connected.len())
    }

    /// The file of the lesson `id` the facilitator brought from outside.
    pub fn lesson(&self, id: &str) -> Option<std::sync::Arc<str>> {
        self.lock().room.outside.get(id).map(|(_, text)| text.clone())
    }

    pub fn report(&self) -> informer_sim::room::Report {
        self.lock().room.report(&self.lessons)
    }

    /// Told of every change.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// A stream opens for `attendee` (or the facilitator or the projector); `None` when
    /// [`MAX_STREAMS`] are open.
    pub fn stream_opens(self: &Arc<Self>, attendee: Option<AttendeeId>) -> Option<StreamGuard> {
        let mut inner = self.lock();
        if inner.streams >= MAX_STREAMS {
            return None;
        }
        inner.streams += 1;
        if let Some(id) = &attendee {
            *inner.connected.entry(id.clone()).or_insert(0) += 1;
        }
        drop(inner);
        self.changed.send_modify(|v| *v += 1);
        Some(StreamGuard { shared: self.clone(), attendee })
    }
}

/// An open event stream: counted until dropped.
pub struct StreamGuard {
    shared: Arc<Shared>,
    attendee: Option<AttendeeId>,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        let mut inner = self.shared.lock();
        inner.streams -= 1;
        if let Some(id) = &self.attendee {
            if let Some(n) = inner.connected.get_mut(id) {
                *n -= 1;
                if *n == 0 {
                    inner.connected.remove(id);
                }
            }
        }
        drop(inner);
        self.shared.changed.send_modify(|v| *v += 1);
    }
}

/// Every ten seconds, how many attendees are connected goes into the room (and its journal)
/// when it has changed.
pub async fn sample_attendance(shared: Arc<Shared>) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(10));
    loop {
        tick.tick().await;
        let (connected, last) = {
            let inner = shared.lock();
            (inner.connected.len(), inner.room.attendance.last().map(|(_, n)| *n))
        };
        if last != Some(connected) && (connected > 0 || last.is_some()) {
            let _ = shared.take(Request::Attendance { connected });
        }
    }
}
