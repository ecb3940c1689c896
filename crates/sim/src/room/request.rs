//! What pages ask of a room, and why a request is refused. Each request names what it acts
//! on; the server adds who may send it (the facilitator's key) and the time it was taken.

use crate::era::Era;
use crate::i18n::Lang;
use crate::limits::MAX_LESSON_BYTES;
use crate::session::link::Link;
use crate::session::Session;
use serde::{Deserialize, Serialize};

/// An attendee's anonymous id: made at random on their device and kept there.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AttendeeId(pub String);

impl AttendeeId {
    /// 8 to 64 letters, digits, `-` or `_`.
    pub fn well_formed(&self) -> bool {
        (8..=64).contains(&self.0.len()) && url_safe(&self.0)
    }
}

/// Whether `text` is only letters, digits, `-` and `_` (base64url's alphabet).
fn url_safe(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Where the facilitator is: a lesson (empty: the default cluster) in a release, the
/// facilitator's own moves in it (a link's recorded actions: faults, writes, console lines),
/// at a step. Every page that follows runs the same world to the same step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    pub lesson: String,
    pub era: Era,
    pub step: u64,
    /// The recorded actions as a link carries them (`actions=`, base64url), or empty.
    #[serde(default)]
    pub actions: String,
}

impl Place {
    /// Where `session` is.
    pub fn of(session: &Session) -> Place {
        let link = session.link();
        let moves = Link { actions: link.actions, ..Link::default() }.to_query();
        Place {
            lesson: link.scenario.unwrap_or_default(),
            era: session.world().config.era,
            step: session.world().steps(),
            actions: moves.strip_prefix("?actions=").unwrap_or_default().to_string(),
        }
    }

    /// The link's query that opens a page here (a lesson's id and the actions' base64url need
    /// no escaping).
    pub fn query(&self) -> String {
        let mut query = format!("?era={}&step={}", self.era.name(), self.step);
        if !self.lesson.is_empty() {
            query += &format!("&scenario={}", self.lesson);
        }
        if !self.actions.is_empty() {
            query += &format!("&actions={}", self.actions);
        }
        query
    }

    /// Whether `other` is the same run (lesson, release, moves), at whatever step.
    pub fn same_run(&self, other: &Place) -> bool {
        (&self.lesson, self.era, &self.actions) == (&other.lesson, other.era, &other.actions)
    }
}

/// A question of a lesson as told in a release.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct VoteKey {
    pub lesson: String,
    pub era: Era,
    pub question: usize,
}

/// What an attendee did in a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChallengeMark {
    Solved,
    /// Opened the hint with this index.
    Hint(usize),
    Solution,
}

/// A request to the room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Request {
    /// An attendee arrives (again, after a reload: their id is kept on the device).
    Join {
        attendee: AttendeeId,
        #[serde(default)]
        nickname: Option<String>,
    },
    /// An attendee steps away from the facilitator's step, or comes back to it.
    Follow { attendee: AttendeeId, following: bool },
    /// An attendee's choice in the open round of the question the facilitator is on.
    Vote { attendee: AttendeeId, key: VoteKey, round: usize, choice: usize },
    /// An attendee solved a challenge, opened a hint or played the solution.
    Challenge { attendee: AttendeeId, lesson: String, challenge: usize, mark: ChallengeMark },
    /// The facilitator's page is at a place (and in a language).
    Place { place: Place, lang: Lang },
    /// A lesson the facilitator opened from outside: its file, checked as `validate` checks
    /// it and kept by the room under its id, for the pages that follow to open.
    Lesson { text: String },
    /// The facilitator opens the vote on a question asked by their step.
    OpenVote { question: usize },
    /// The facilitator closes the open round.
    CloseVote,
    /// The facilitator opens a second round after the room has discussed.
    VoteAgain,
    /// The facilitator shows the histogram and the right answer (closing the round).
    Reveal,
    /// How many attendees are connected (the server's own, never a page's).
    Attendance { connected: usize },
}

/// A journal's line: a request the room took, and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub at_s: u64,
    pub request: Request,
}

/// The longest nickname, in characters.
pub const MAX_NICKNAME: usize = 32;
/// The longest lesson id.
const MAX_LESSON: usize = crate::scenario::format::MAX_ID;

impl Request {
    /// Whether only the facilitator may send it.
    pub fn needs_key(&self) -> bool {
        matches!(
            self,
            Request::Place { .. }
                | Request::Lesson { .. }
                | Request::OpenVote { .. }
                | Request::CloseVote
                | Request::VoteAgain
                | Request::Reveal
        )
    }

    /// Whether only the server itself makes it.
    pub fn server_only(&self) -> bool {
        matches!(self, Request::Attendance { .. })
    }

    /// The attendee it speaks for, if any.
    pub fn attendee(&self) -> Option<&AttendeeId> {
        match self {
            Request::Join { attendee, .. }
            | Request::Follow { attendee, .. }
            | Request::Vote { attendee, .. }
            | Request::Challenge { attendee, .. } => Some(attendee),
            _ => None,
        }
    }

    /// Its fields' forms, checked before anything is looked up.
    pub(super) fn check(&self) -> Result<(), Refusal> {
        if self.attendee().is_some_and(|a| !a.well_formed()) {
            return Err(Refusal::BadAttendee);
        }
        if let Request::Place { place, .. } = self {
            if !url_safe(&place.actions) {
                return Err(Refusal::NoSuchLesson);
            }
        }
        match self {
            Request::Lesson { text } if text.len() > MAX_LESSON_BYTES => {
                Err(Refusal::TooLarge { max: MAX_LESSON_BYTES })
            }
            Request::Join { nickname: Some(name), .. }
                if name.chars().count() > MAX_NICKNAME
                    || name.chars().any(char::is_control)
                    || name.trim().is_empty() =>
            {
                Err(Refusal::BadNickname { max: MAX_NICKNAME })
            }
            Request::Challenge { lesson, .. } | Request::Place { place: Place { lesson, .. }, .. }
                if lesson.len() > MAX_LESSON || lesson.bytes().any(|b| !(b.is_ascii_alphanumeric() || b == b'-')) =>
            {
                Err(Refusal::NoSuchLesson)
            }
            _ => Ok(()),
        }
    }
}

/// Why the room refused a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refused", rename_all = "kebab-case")]
pub enum Refusal {
    /// The body is not a request ([`Request`]'s JSON).
    NotARequest {
        detail: String,
    },
    TooLarge {
        max: usize,
    },
    /// The facilitator's key is missing or wrong.
    NeedsKey,
    ServerOnly,
    BadAttendee,
    BadNickname {
        max: usize,
    },
    NotJoined,
    RoomFull {
        max: usize,
    },
    TooFast {
        per_minute: u32,
    },
    NoSuchLesson,
    /// A lesson from outside that does not pass the checks: every reason, as `validate`
    /// gives them.
    BadLesson {
        reasons: Vec<String>,
    },
    /// The room takes at most this many lesson files from outside.
    TooManyLessons {
        max: usize,
    },
    /// The lesson has no such challenge, or the challenge no such hint.
    NoSuchChallenge,
    /// The question is not asked by the facilitator's step.
    NotAsked,
    /// No vote is open or shown.
    NoVote,
    /// The vote names another question than the one the facilitator is on.
    NotTheOpenQuestion,
    NotTheRound {
        round: usize,
    },
    NoSuchChoice {
        offered: usize,
    },
    VoteClosed,
    VoteStillOpen,
    NoMoreRounds {
        rounds: usize,
    },
    /// Not the room's code.
    NoSuchRoom,
    /// Nothing is served at that path.
    NotFound,
    /// The path is served, not with that method.
    WrongMethod {
        allowed: String,
    },
    /// Too many pages are listening.
    TooManyStreams {
        max: usize,
    },
    /// The journal could not be written: the request was not taken.
    NotSaved,
}

impl Refusal {
    /// The HTTP status it is answered with.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::NeedsKey => 401,
            Refusal::ServerOnly => 403,
            Refusal::NoSuchRoom | Refusal::NotFound => 404,
            Refusal::TooLarge { .. } => 413,
            Refusal::WrongMethod { .. } => 405,
            Refusal::TooManyStreams { .. } | Refusal::NotSaved => 503,
            Refusal::TooFast { .. } => 429,
            Refusal::NotARequest { .. } | Refusal::BadAttendee | Refusal::BadNickname { .. } => 400,
            Refusal::BadLesson { .. } => 422,
            _ => 409,
        }
    }

    /// Why, in `lang`.
    pub fn reason(&self, lang: Lang) -> String {
        match self {
            Refusal::NotARequest { detail } => trf!(lang, "not a room request: {detail}", &[("detail", detail)]),
            Refusal::TooLarge { max } => trf!(lang, "a request is at most {max} bytes", &[("max", max)]),
            Refusal::NeedsKey => {
                tr!(lang, "only the facilitator may do this: the facilitator's key is missing or wrong").into()
            }
            Refusal::ServerOnly => tr!(lang, "only the room's server records attendance").into(),
            Refusal::BadAttendee => tr!(lang, "an attendee's id is 8 to 64 letters, digits, - or _").into(),
            Refusal::BadNickname { max } => {
                trf!(lang, "a nickname is 1 to {max} characters, without control characters", &[("max", max)])
            }
            Refusal::NotJoined => tr!(lang, "join the room first").into(),
            Refusal::RoomFull { max } => trf!(lang, "the room is full: {max} attendees", &[("max", max)]),
            Refusal::TooFast { per_minute } => {
                trf!(lang, "too many requests: at most {n} a minute", &[("n", per_minute)])
            }
            Refusal::NoSuchLesson => {
                tr!(lang, "no such lesson in this release, or its moves cannot be replayed").into()
            }
            Refusal::BadLesson { reasons } => {
                trf!(lang, "the lesson does not pass its checks: {reasons}", &[("reasons", &reasons.join("; "))])
            }
            Refusal::TooManyLessons { max } => {
                trf!(lang, "a room takes at most {max} lesson files from outside", &[("max", max)])
            }
            Refusal::NoSuchChallenge => tr!(lang, "the lesson has no such challenge or hint").into(),
            Refusal::NotAsked => tr!(lang, "the facilitator's step does not ask that question").into(),
            Refusal::NoVote => tr!(lang, "no vote is open").into(),
            Refusal::NotTheOpenQuestion => tr!(lang, "the room is not voting on that question").into(),
            Refusal::NotTheRound { round } => trf!(lang, "the room is voting in round {round}", &[("round", round)]),
            Refusal::NoSuchChoice { offered } => {
                trf!(lang, "the question offers {n} choices", &[("n", offered)])
            }
            Refusal::VoteClosed => tr!(lang, "the vote is closed: a closed vote cannot change").into(),
            Refusal::VoteStillOpen => tr!(lang, "close the vote before voting again").into(),
            Refusal::NoMoreRounds { rounds } => {
                trf!(lang, "a question is voted on at most {n} times", &[("n", rounds)])
            }
            Refusal::NoSuchRoom => tr!(lang, "no such room on this server").into(),
            Refusal::NotFound => tr!(lang, "nothing is served at this path").into(),
            Refusal::WrongMethod { allowed } => trf!(lang, "this path takes {allowed} only", &[("allowed", allowed)]),
            Refusal::TooManyStreams { max } => {
                trf!(lang, "the room has {max} pages listening: try again later", &[("max", max)])
            }
            Refusal::NotSaved => tr!(lang, "the room could not write its journal: nothing was changed").into(),
        }
    }
}
