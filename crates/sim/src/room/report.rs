//! What remains of a room: per question, each round's distribution beside the right answer;
//! per challenge, how many solved it, opened each hint, played the solution; how many were
//! connected over time. As JSON and as a printable page in the room's language.

use super::{Lessons, Room};
use crate::i18n::Lang;
use crate::scenario::marked::{escape, html};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub code: String,
    pub lang: Lang,
    /// Attendees who joined.
    pub joined: usize,
    /// (seconds since the room opened, attendees connected), at each change.
    pub attendance: Vec<(u64, usize)>,
    pub questions: Vec<ReportQuestion>,
    pub challenges: Vec<ReportChallenge>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportQuestion {
    pub lesson: String,
    pub era: crate::era::Era,
    pub question: usize,
    pub ask: String,
    pub choices: Vec<String>,
    pub answer: usize,
    /// Per round, how many chose each choice.
    pub rounds: Vec<Vec<usize>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportChallenge {
    pub lesson: String,
    pub challenge: usize,
    pub task: String,
    pub solved: usize,
    /// Per hint (by index), how many opened it.
    pub hints: Vec<usize>,
    pub solution: usize,
}

impl Room {
    /// The report, with the lessons' texts in the room's language.
    pub fn report(&self, lessons: &dyn Lessons) -> Report {
        let lang = self.lang;
        let questions = self
            .votes
            .iter()
            .filter_map(|(key, vote)| {
                let question = lessons.question(key)?;
                Some(ReportQuestion {
                    lesson: key.lesson.clone(),
                    era: key.era,
                    question: key.question,
                    ask: question.ask.get(lang).into(),
                    choices: question.choices.iter().map(|c| c.get(lang).to_string()).collect(),
                    answer: vote.answer,
                    rounds: vote.histogram(),
                })
            })
            .collect();
        let challenges = self
            .challenges
            .iter()
            .filter_map(|((lesson, index), counts)| {
                let challenge = lessons.challenge(lesson, *index)?;
                Some(ReportChallenge {
                    lesson: lesson.clone(),
                    challenge: *index,
                    task: challenge.task.get(lang).into(),
                    solved: counts.solved.len(),
                    hints: (0..challenge.hints.len()).map(|h| counts.hints.get(&h).map_or(0, |w| w.len())).collect(),
                    solution: counts.solution.len(),
                })
            })
            .collect();
        Report {
            code: self.code.clone(),
            lang,
            joined: self.attendees.len(),
            attendance: self.attendance.clone(),
            questions,
            challenges,
        }
    }
}

impl Report {
    /// A printable page: every text the lessons supply escaped.
    pub fn html(&self) -> String {
        let lang = self.lang;
        let title = escape(&trf!(lang, "Room {code}: report", &[("code", &self.code)]));
        let mut out = format!(
            "<!doctype html><html lang=\"{}\"><meta charset=\"utf-8\"><title>{}</title>\
             <style>body{{font:14px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto}}\
             table{{border-collapse:collapse}}td,th{{border:1px solid #999;padding:.2rem .5rem;text-align:left}}\
             .right{{font-weight:bold}}</style><h1>{}</h1><p>{}</p>",
            lang.code(),
            title,
            title,
            escape(&trf!(lang, "{n} attendees joined.", &[("n", &self.joined)])),
        );
        out += &format!("<h2>{}</h2>", escape(tr!(lang, "Questions")));
        if self.questions.is_empty() {
            out += &format!("<p>{}</p>", escape(tr!(lang, "No vote was held.")));
        }
        for q in &self.questions {
            out += &format!(
                "<h3>{} · {} · {}</h3><p>{}</p><table><tr><th>{}</th>",
                escape(&q.lesson),
                q.era,
                q.question + 1,
                html(&q.ask),
                escape(tr!(lang, "Choice"))
            );
            for round in 1..=q.rounds.len() {
                out += &format!("<th>{}</th>", escape(&trf!(lang, "Vote {n}", &[("n", &round)])));
            }
            out += "</tr>";
            for (i, choice) in q.choices.iter().enumerate() {
                let right = i == q.answer;
                out += &format!(
                    "<tr{}><td>{}{}</td>",
                    if right { " class=\"right\"" } else { "" },
                    html(choice),
                    if right { format!(" ({})", escape(tr!(lang, "the right answer"))) } else { String::new() }
                );
                for round in &q.rounds {
                    out += &format!("<td>{}</td>", round[i]);
                }
                out += "</tr>";
            }
            out += "</table>";
        }
        out += &format!("<h2>{}</h2>", escape(tr!(lang, "Challenges")));
        if self.challenges.is_empty() {
            out += &format!("<p>{}</p>", escape(tr!(lang, "No challenge was opened.")));
        }
        for c in &self.challenges {
            let hints: Vec<String> = c.hints.iter().enumerate().map(|(i, n)| format!("{}: {n}", i + 1)).collect();
            out += &format!(
                "<h3>{} · {}</h3><p>{}</p><p>{}</p>",
                escape(&c.lesson),
                c.challenge + 1,
                html(&c.task),
                escape(&trf!(
                    lang,
                    "solved {solved} · hints opened {hints} · solution played {solution}",
                    &[("solved", &c.solved), ("hints", &hints.join(", ")), ("solution", &c.solution)]
                ))
            );
        }
        out += &format!(
            "<h2>{}</h2><table><tr><th>{}</th><th>{}</th></tr>",
            escape(tr!(lang, "Attendance")),
            escape(tr!(lang, "minutes")),
            escape(tr!(lang, "connected"))
        );
        for (at, n) in &self.attendance {
            out += &format!("<tr><td>{}</td><td>{n}</td></tr>", at / 60);
        }
        out + "</table></html>"
    }
}
