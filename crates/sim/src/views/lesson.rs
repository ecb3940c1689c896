//! The lesson panel: the bundled lessons, the one playing, its narration and questions.

use super::*;

/// A question as the lesson panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionView {
    pub index: usize,
    pub ask: crate::scenario::Text,
    pub choices: Vec<crate::scenario::Text>,
    pub answer: usize,
    pub explain: crate::scenario::Text,
    /// Whether the explanation points at a step the page can show.
    pub explains_a_step: bool,
    pub given: Option<usize>,
}

/// The lesson panel: the bundled lessons, the one playing, its summary, the narration in
/// force and the questions asked so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonView {
    /// Every bundled lesson, in teaching order.
    pub lessons: Vec<LessonEntry>,
    /// The release the world behaves as, and those it may switch to (a lesson's declared
    /// eras; every era in free play).
    pub era: crate::era::Era,
    pub eras: Vec<crate::era::Era>,
    /// The release shown beside it, if any.
    pub compared: Option<crate::era::Era>,
    pub current: Option<String>,
    pub summary: Option<crate::scenario::Text>,
    pub narration: Option<Narration>,
    pub questions: Vec<QuestionView>,
    pub challenges: Vec<ChallengeView>,
    /// The world shows a challenge's solution played, not the learner's moves.
    pub solution_played: bool,
    /// At the end of the run, once every question is answered: the lesson's recap and its
    /// questions for the room.
    pub closing: Option<Closing>,
    /// Following serve-api: real clients write, so the lesson's notes, questions and challenges
    /// (told of its own timeline and the page's console) are left out.
    pub live: bool,
}

/// A lesson in the picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonEntry {
    pub id: String,
    pub title: crate::scenario::Text,
    /// Beyond the articles the playground teaches.
    pub extra: bool,
    /// Opened from a file or a link, not bundled.
    pub outside: bool,
}

/// The narration note in force, and the stage it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narration {
    pub text: crate::scenario::Text,
    pub look_at: Option<Stage>,
    /// The note sets right what an article says: the page marks it.
    pub corrects_article: bool,
    /// Console lines the note offers to run.
    pub offer: Vec<String>,
}

/// A challenge as the lesson panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeView {
    pub index: usize,
    pub id: String,
    pub task: crate::scenario::Text,
    pub hints: Vec<crate::scenario::Text>,
    /// What the learner's moves showed, once the goal is met.
    pub solved: crate::scenario::Text,
    /// The goal is met by the learner's moves, at this step.
    pub met: bool,
}

/// The end of a lesson: its recap and its questions for the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closing {
    pub recap: Option<crate::scenario::Text>,
    pub discuss: Vec<crate::scenario::Text>,
}

/// Whether the person has answered every question of the lesson: until then its summary,
/// which tells what happens, stays hidden (it would give the answers away).
fn every_question_answered(session: &Session) -> bool {
    let asked = session.scenario().map_or(0, |s| s.questions.len());
    session.questions().iter().filter(|(_, _, given)| given.is_some()).count() == asked
}

pub fn lesson(session: &Session) -> LessonView {
    use crate::scenario::library;
    let mut lessons: Vec<LessonEntry> = library::index()
        .iter()
        .map(|head| LessonEntry {
            id: head.id.into(),
            title: head.title_in(session.era()),
            extra: head.extra,
            outside: false,
        })
        .collect();
    // A lesson opened from outside is listed after the bundled ones while it plays.
    if let Some(s) = session.scenario().filter(|s| library::file_of(&s.id).is_none()) {
        lessons.push(LessonEntry { id: s.id.clone(), title: s.title.clone(), extra: s.extra, outside: true });
    }
    // Live, the world is serve-api's: the lesson gives it its start and nothing to read along.
    let live = session.live().is_some();
    let told = || (!live).then_some(session);
    let eras = session
        .scenario()
        .and_then(|s| library::find(&s.id))
        .map_or(crate::era::Era::ALL.to_vec(), |lesson| lesson.declared_eras());
    LessonView {
        lessons,
        era: session.era(),
        compared: session.compared().map(Session::era),
        eras,
        current: session.scenario().map(|s| s.id.clone()),
        summary: session.scenario().filter(|_| every_question_answered(session)).map(|s| s.summary.clone()),
        narration: told().and_then(Session::narration).map(|note| Narration {
            text: note.text.clone(),
            look_at: note.look_at,
            corrects_article: note.corrects_article,
            offer: note.offer.clone(),
        }),
        questions: told()
            .map(Session::questions)
            .unwrap_or_default()
            .into_iter()
            .map(|(index, q, given)| QuestionView {
                index,
                ask: q.ask.clone(),
                choices: q.choices.clone(),
                answer: q.answer,
                explain: q.explain.clone(),
                explains_a_step: q.explain_at.is_some(),
                given,
            })
            .collect(),
        challenges: told()
            .map(Session::challenges)
            .unwrap_or_default()
            .into_iter()
            .map(|c| ChallengeView {
                index: c.index,
                id: c.challenge.id.clone(),
                task: c.challenge.task.clone(),
                hints: c.challenge.hints.clone(),
                solved: c.challenge.solved.clone(),
                met: c.met,
            })
            .collect(),
        solution_played: session.solution_played(),
        closing: told()
            .and_then(Session::scenario)
            .filter(|s| s.recap.is_some() || !s.discuss.is_empty())
            .filter(|_| session.lesson_ended() && every_question_answered(session))
            .map(|s| Closing { recap: s.recap.as_ref().map(|r| r.text()), discuss: s.discuss.clone() }),
        live,
    }
}

#[cfg(test)]
mod tests {
    use crate::session::{live::Origin, Session};

    #[test]
    fn a_live_page_leaves_out_its_lessons_notes_questions_and_challenges() {
        let origin = Origin { scenario: "sandbox".into(), era: "1.30".into(), seed: 7, clock_offset_ms: 5 };
        let live = super::lesson(&Session::served(&origin).expect("a bundled lesson"));
        assert!(live.live && live.narration.is_none() && live.challenges.is_empty(), "the lesson's texts are left out");
        let played = super::lesson(&Session::with_scenario("sandbox").unwrap());
        assert!(!played.live && !played.challenges.is_empty());
    }
}
