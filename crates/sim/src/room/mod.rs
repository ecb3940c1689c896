//! A workshop room as its server keeps it: where the facilitator is (lesson, release, step),
//! who attends and who follows, the votes on the lessons' questions (a first and a second
//! round, each closed for good once closed, the answer revealed on the facilitator's word),
//! the challenges' counts and attendance over time, and the files of lessons the facilitator
//! brought from outside. Only these are shared: every page runs the same deterministic world,
//! so the room never carries what a page draws.
//!
//! Pure: the server (`informer-playground room`) applies each request it takes with the time
//! it took it, and writes the applied ones to its journal; [`Room::replay`] of the journal
//! gives the same room. Peer instruction's rules are held here, not in a page: the share of
//! right answers is not in the projector's view before Reveal (Runestone's rs#849), a closed
//! round refuses every vote, a reload's included (rs#1129), and both rounds stay (rs#275).

#[cfg(feature = "bundled")]
mod bundled;
mod report;
mod request;
mod view;

#[cfg(feature = "bundled")]
pub use bundled::Bundled;
pub use report::{Report, ReportChallenge, ReportQuestion};
pub use request::{AttendeeId, ChallengeMark, Entry, Place, Refusal, Request, VoteKey};
pub use view::{Role, RoomView, VoteView};

use crate::era::Era;
use crate::i18n::Lang;
use crate::scenario::format::{Challenge, Question};
use crate::scenario::library;
use std::collections::BTreeMap;

/// At most this many attendees join a room.
pub const MAX_ATTENDEES: usize = 500;
/// A request's largest body, in bytes.
pub const MAX_MESSAGE: usize = 4096;
/// A question is voted on at most twice: before and after the room discusses it.
pub const ROUNDS: usize = 2;
/// A room takes at most this many lesson files from outside (each version of a lesson counts,
/// and the journal keeps the count across restarts).
pub const MAX_LESSONS: usize = 32;

/// What the room knows of the lessons: the bundled ones on the server, and those the
/// facilitator brought ([`Bundled`]).
pub trait Lessons {
    /// Checks a lesson's file from outside as `validate` does and takes it in under its id
    /// (in place of one taken before with that id): the id, or every reason.
    fn adopt(&self, text: &str) -> Result<String, Vec<String>>;
    /// The questions asked by `place`'s step, by index; `None` when the place names no
    /// lesson that runs in its release.
    fn asked(&self, place: &Place) -> Option<Vec<usize>>;
    /// A lesson's question as told in a release.
    fn question(&self, key: &VoteKey) -> Option<Question>;
    /// A lesson's challenge.
    fn challenge(&self, lesson: &str, index: usize) -> Option<Challenge>;
}

/// An attendee as the room knows them: anonymous, with a nickname only if they gave one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attendee {
    pub nickname: Option<String>,
    pub following: bool,
    /// When they joined, in seconds since the room opened.
    pub joined_s: u64,
}

/// One round of a vote: each attendee's choice, and whether it still takes votes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub choices: BTreeMap<AttendeeId, usize>,
    pub open: bool,
}

/// A question's votes: its rounds (one or two), how many choices it offers, and whether its
/// answer has been revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vote {
    pub rounds: Vec<Round>,
    pub offered: usize,
    pub answer: usize,
    pub revealed: bool,
}

impl Vote {
    /// How many chose each choice in each round.
    pub fn histogram(&self) -> Vec<Vec<usize>> {
        self.rounds
            .iter()
            .map(|round| {
                let mut counts = vec![0; self.offered];
                round.choices.values().for_each(|&c| counts[c] += 1);
                counts
            })
            .collect()
    }

    fn current(&self) -> &Round {
        self.rounds.last().expect("a vote has a round from its opening")
    }
}

/// A challenge's counts: who solved it, who opened each hint, who played the solution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChallengeCounts {
    pub solved: std::collections::BTreeSet<AttendeeId>,
    pub hints: BTreeMap<usize, std::collections::BTreeSet<AttendeeId>>,
    pub solution: std::collections::BTreeSet<AttendeeId>,
}

/// The room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    /// The code attendees' links carry.
    pub code: String,
    /// The facilitator's language: the report's.
    pub lang: Lang,
    pub place: Place,
    pub attendees: BTreeMap<AttendeeId, Attendee>,
    /// The vote the facilitator's step is on, if one is open or shown.
    pub current: Option<VoteKey>,
    pub votes: BTreeMap<VoteKey, Vote>,
    /// Per lesson, per challenge index.
    pub challenges: BTreeMap<(String, usize), ChallengeCounts>,
    /// How many were connected, at each change (seconds since the room opened).
    pub attendance: Vec<(u64, usize)>,
    /// The lessons the facilitator opened from outside: each file (with its
    /// [`library::digest`]) by its lesson's id, for the pages that follow to open.
    pub outside: BTreeMap<String, (String, std::sync::Arc<str>)>,
    /// How many lesson files from outside the room has taken.
    pub taken: usize,
}

impl Room {
    pub fn new(code: &str) -> Room {
        Room {
            code: code.into(),
            lang: Lang::En,
            place: Place { lesson: String::new(), era: Era::CURRENT, step: 0, actions: String::new() },
            attendees: BTreeMap::new(),
            current: None,
            votes: BTreeMap::new(),
            challenges: BTreeMap::new(),
            attendance: Vec::new(),
            outside: BTreeMap::new(),
            taken: 0,
        }
    }

    /// The room a journal's entries make, in order (the first opened it).
    pub fn replay(code: &str, entries: &[Entry], lessons: &dyn Lessons) -> Result<Room, (usize, Refusal)> {
        let mut room = Room::new(code);
        for (i, entry) in entries.iter().enumerate() {
            room.apply(&entry.request, entry.at_s, lessons).map_err(|r| (i, r))?;
        }
        Ok(room)
    }

    /// Applies one request taken at `at_s` (seconds since the room opened), or says why not;
    /// a refused request changes nothing. Who may send it (the facilitator's key) is the
    /// server's to check: see [`Request::needs_key`].
    pub fn apply(&mut self, request: &Request, at_s: u64, lessons: &dyn Lessons) -> Result<(), Refusal> {
        request.check()?;
        match request {
            Request::Join { attendee, nickname } => {
                if !self.attendees.contains_key(attendee) && self.attendees.len() >= MAX_ATTENDEES {
                    return Err(Refusal::RoomFull { max: MAX_ATTENDEES });
                }
                let joined = self.attendees.entry(attendee.clone()).or_insert(Attendee {
                    nickname: None,
                    following: true,
                    joined_s: at_s,
                });
                if nickname.is_some() {
                    joined.nickname = nickname.clone();
                }
            }
            Request::Follow { attendee, following } => self.attendee(attendee)?.following = *following,
            Request::Vote { attendee, key, round, choice } => {
                self.attendee(attendee)?;
                let vote = match self.current.as_ref().filter(|current| *current == key) {
                    Some(current) => self.votes.get_mut(current).expect("the current vote is kept"),
                    None => return Err(Refusal::NotTheOpenQuestion),
                };
                if *round != vote.rounds.len() {
                    return Err(Refusal::NotTheRound { round: vote.rounds.len() });
                }
                if *choice >= vote.offered {
                    return Err(Refusal::NoSuchChoice { offered: vote.offered });
                }
                let open = vote.rounds.last_mut().expect("a vote has a round");
                if !open.open {
                    return Err(Refusal::VoteClosed);
                }
                open.choices.insert(attendee.clone(), *choice);
            }
            Request::Challenge { attendee, lesson, challenge, mark } => {
                self.attendee(attendee)?;
                let known = lessons.challenge(lesson, *challenge).ok_or(Refusal::NoSuchChallenge)?;
                if let ChallengeMark::Hint(n) = mark {
                    if *n >= known.hints.len() {
                        return Err(Refusal::NoSuchChallenge);
                    }
                }
                let counts = self.challenges.entry((lesson.clone(), *challenge)).or_default();
                let who = attendee.clone();
                match mark {
                    ChallengeMark::Solved => counts.solved.insert(who),
                    ChallengeMark::Hint(n) => counts.hints.entry(*n).or_default().insert(who),
                    ChallengeMark::Solution => counts.solution.insert(who),
                };
            }
            Request::Place { place, lang } => {
                if !place.lesson.is_empty() {
                    // A lesson from outside only once the room has taken its file.
                    let kept = library::file_of(&place.lesson).is_some() || self.outside.contains_key(&place.lesson);
                    if !kept || lessons.asked(place).is_none() {
                        return Err(Refusal::NoSuchLesson);
                    }
                }
                self.lang = *lang;
                if self.place.lesson != place.lesson || self.place.era != place.era {
                    self.current = None;
                }
                self.place = place.clone();
            }
            Request::Lesson { text } => {
                if self.holds(request) {
                    return Ok(());
                }
                if self.taken >= MAX_LESSONS {
                    return Err(Refusal::TooManyLessons { max: MAX_LESSONS });
                }
                let id = lessons.adopt(text).map_err(|reasons| Refusal::BadLesson { reasons })?;
                self.outside.insert(id, (library::digest(text), text.as_str().into()));
                self.taken += 1;
            }
            Request::OpenVote { question } => {
                let asked = lessons.asked(&self.place).ok_or(Refusal::NoSuchLesson)?;
                if !asked.contains(question) {
                    return Err(Refusal::NotAsked);
                }
                let key = VoteKey { lesson: self.place.lesson.clone(), era: self.place.era, question: *question };
                let asking = lessons.question(&key).ok_or(Refusal::NotAsked)?;
                self.votes.entry(key.clone()).or_insert_with(|| Vote {
                    rounds: vec![Round { choices: BTreeMap::new(), open: true }],
                    offered: asking.choices.len(),
                    answer: asking.answer,
                    revealed: false,
                });
                self.current = Some(key);
            }
            Request::CloseVote => self.current_vote()?.rounds.last_mut().expect("a vote has a round").open = false,
            Request::VoteAgain => {
                let vote = self.current_vote()?;
                if vote.current().open {
                    return Err(Refusal::VoteStillOpen);
                }
                if vote.rounds.len() >= ROUNDS {
                    return Err(Refusal::NoMoreRounds { rounds: ROUNDS });
                }
                vote.rounds.push(Round { choices: BTreeMap::new(), open: true });
                vote.revealed = false;
            }
            Request::Reveal => {
                let vote = self.current_vote()?;
                vote.rounds.last_mut().expect("a vote has a round").open = false;
                vote.revealed = true;
            }
            Request::Attendance { connected } => {
                if self.attendance.last().map(|(_, n)| n) != Some(connected) {
                    self.attendance.push((at_s, *connected));
                }
            }
        }
        Ok(())
    }

    fn attendee(&mut self, id: &AttendeeId) -> Result<&mut Attendee, Refusal> {
        self.attendees.get_mut(id).ok_or(Refusal::NotJoined)
    }

    fn current_vote(&mut self) -> Result<&mut Vote, Refusal> {
        let key = self.current.as_ref().ok_or(Refusal::NoVote)?;
        Ok(self.votes.get_mut(key).expect("the current vote is kept"))
    }

    /// The digest of the file of the lesson the facilitator is on, when it came from outside:
    /// a page that has another (or none) asks the room for it.
    pub fn outside_digest(&self) -> Option<String> {
        self.outside.get(&self.place.lesson).map(|(digest, _)| digest.clone())
    }

    /// Whether `request` would change nothing: a lesson file the room already keeps (sent
    /// again after a page's reload; not journaled again).
    pub fn holds(&self, request: &Request) -> bool {
        matches!(request, Request::Lesson { text } if self.outside.values().any(|(_, kept)| **kept == **text))
    }

    /// How many attendees follow the facilitator.
    pub fn following(&self) -> usize {
        self.attendees.values().filter(|a| a.following).count()
    }
}

#[cfg(test)]
mod tests;
