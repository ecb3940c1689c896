//! What each page of a room is shown: the facilitator everything but names beside answers,
//! the projector only counts until Reveal, an attendee the room's step, the open question and
//! their own choice.

use super::{AttendeeId, Place, Room, VoteKey};
use serde::{Deserialize, Serialize};

/// Who looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    Facilitator,
    /// The room's screen: nothing on it can act, nothing on it names anyone.
    Projector,
    Attendee(AttendeeId),
}

/// The room as one page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomView {
    pub code: String,
    pub place: Place,
    /// Attendees connected now.
    pub connected: usize,
    /// Attendees following the facilitator.
    pub following: usize,
    pub vote: Option<VoteView>,
    /// The facilitator's only: per challenge, who solved it, opened each hint, played the
    /// solution (counts).
    #[serde(default)]
    pub challenges: Vec<ChallengeView>,
    /// The facilitator's only: the nicknames attendees gave.
    #[serde(default)]
    pub nicknames: Vec<String>,
    /// When the facilitator's lesson came from outside: its file's digest (`library::digest`),
    /// for a page to ask the room for the file when it has another or none.
    #[serde(default)]
    pub lesson: Option<String>,
}

/// The vote the facilitator is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoteView {
    pub key: VoteKey,
    /// The round now: 1 or 2.
    pub round: usize,
    pub open: bool,
    /// How many have voted in this round.
    pub answered: usize,
    pub revealed: bool,
    /// Per round, how many chose each choice: the facilitator's always, the others' once
    /// revealed.
    pub histogram: Option<Vec<Vec<usize>>>,
    /// The right choice: the facilitator's always, the others' once revealed.
    pub answer: Option<usize>,
    /// This attendee's choice in this round.
    pub yours: Option<usize>,
}

/// A challenge's counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeView {
    pub lesson: String,
    pub challenge: usize,
    pub solved: usize,
    /// Per hint index, how many opened it.
    pub hints: Vec<(usize, usize)>,
    pub solution: usize,
}

impl Room {
    /// The room as `role` sees it, with `connected` attendees connected.
    pub fn view(&self, role: &Role, connected: usize) -> RoomView {
        let facilitator = *role == Role::Facilitator;
        let vote = self.current.as_ref().map(|key| {
            let vote = &self.votes[key];
            let round = vote.rounds.last().expect("a vote has a round");
            let shown = facilitator || vote.revealed;
            VoteView {
                key: key.clone(),
                round: vote.rounds.len(),
                open: round.open,
                answered: round.choices.len(),
                revealed: vote.revealed,
                histogram: shown.then(|| vote.histogram()),
                answer: shown.then_some(vote.answer),
                yours: match role {
                    Role::Attendee(id) => round.choices.get(id).copied(),
                    _ => None,
                },
            }
        });
        let challenges = match facilitator {
            true => self
                .challenges
                .iter()
                .map(|((lesson, challenge), c)| ChallengeView {
                    lesson: lesson.clone(),
                    challenge: *challenge,
                    solved: c.solved.len(),
                    hints: c.hints.iter().map(|(hint, who)| (*hint, who.len())).collect(),
                    solution: c.solution.len(),
                })
                .collect(),
            false => Vec::new(),
        };
        let nicknames = match facilitator {
            true => self.attendees.values().filter_map(|a| a.nickname.clone()).collect(),
            false => Vec::new(),
        };
        RoomView {
            code: self.code.clone(),
            place: self.place.clone(),
            connected,
            following: self.following(),
            vote,
            challenges,
            nicknames,
            lesson: self.outside_digest(),
        }
    }
}
