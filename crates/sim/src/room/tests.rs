use super::*;

const LESSON: &str = "cache-scope";

fn id(n: u32) -> AttendeeId {
    AttendeeId(format!("attendee-{n:04}"))
}

fn place(step: u64) -> Request {
    Request::Place {
        place: Place { lesson: LESSON.into(), era: Era::V1_37, step, actions: String::new() },
        lang: Lang::En,
    }
}

fn key() -> VoteKey {
    VoteKey { lesson: LESSON.into(), era: Era::V1_37, question: 0 }
}

fn vote(n: u32, round: usize, choice: usize) -> Request {
    Request::Vote { attendee: id(n), key: key(), round, choice }
}

/// A room with three attendees and the facilitator on the lesson's first question, its vote
/// open.
fn voting() -> Room {
    let mut room = Room::new("r1");
    for n in 0..3 {
        room.apply(&Request::Join { attendee: id(n), nickname: None }, 0, &Bundled::default()).unwrap();
    }
    room.apply(&place(1), 1, &Bundled::default()).unwrap();
    room.apply(&Request::OpenVote { question: 0 }, 2, &Bundled::default()).unwrap();
    room
}

#[test]
fn a_vote_opens_only_on_a_question_the_facilitators_step_asks() {
    let mut room = Room::new("r1");
    room.apply(&place(0), 0, &Bundled::default()).unwrap();
    assert_eq!(room.apply(&Request::OpenVote { question: 0 }, 0, &Bundled::default()), Err(Refusal::NotAsked));
    room.apply(&place(1), 0, &Bundled::default()).unwrap();
    assert_eq!(room.apply(&Request::OpenVote { question: 1 }, 0, &Bundled::default()), Err(Refusal::NotAsked));
    room.apply(&Request::OpenVote { question: 0 }, 0, &Bundled::default()).unwrap();
    assert_eq!(room.current, Some(key()));
}

#[test]
fn votes_are_counted_per_round_and_a_closed_round_refuses_every_change() {
    let mut room = voting();
    room.apply(&vote(0, 1, 0), 3, &Bundled::default()).unwrap();
    room.apply(&vote(1, 1, 1), 3, &Bundled::default()).unwrap();
    // Changing one's mind while the round is open replaces the choice.
    room.apply(&vote(1, 1, 0), 3, &Bundled::default()).unwrap();
    room.apply(&Request::CloseVote, 4, &Bundled::default()).unwrap();
    // A reload sends the same vote again: refused, and the round keeps what it had.
    assert_eq!(room.apply(&vote(1, 1, 1), 5, &Bundled::default()), Err(Refusal::VoteClosed));
    assert_eq!(room.apply(&vote(2, 1, 1), 5, &Bundled::default()), Err(Refusal::VoteClosed));
    let offered = room.votes[&key()].offered;
    let mut first = vec![0; offered];
    first[0] = 2;
    assert_eq!(room.votes[&key()].histogram(), vec![first.clone()]);

    room.apply(&Request::VoteAgain, 6, &Bundled::default()).unwrap();
    assert_eq!(room.apply(&vote(0, 1, 1), 6, &Bundled::default()), Err(Refusal::NotTheRound { round: 2 }));
    room.apply(&vote(0, 2, 1), 6, &Bundled::default()).unwrap();
    room.apply(&Request::Reveal, 7, &Bundled::default()).unwrap();
    assert_eq!(room.apply(&vote(2, 2, 0), 8, &Bundled::default()), Err(Refusal::VoteClosed));
    assert_eq!(room.apply(&Request::VoteAgain, 8, &Bundled::default()), Err(Refusal::NoMoreRounds { rounds: ROUNDS }));
    let mut second = vec![0; offered];
    second[1] = 1;
    assert_eq!(room.votes[&key()].histogram(), vec![first, second], "both rounds are kept");
}

#[test]
fn the_projector_sees_counts_until_reveal_and_never_names() {
    let mut room = voting();
    room.apply(&Request::Join { attendee: id(9), nickname: Some("Mina".into()) }, 3, &Bundled::default()).unwrap();
    room.apply(&vote(0, 1, 0), 3, &Bundled::default()).unwrap();
    let projector = room.view(&Role::Projector, 4).vote.unwrap();
    assert_eq!((projector.answered, projector.histogram, projector.answer), (1, None, None));
    assert!(room.view(&Role::Projector, 4).nicknames.is_empty());
    let facilitator = room.view(&Role::Facilitator, 4);
    assert!(facilitator.vote.as_ref().unwrap().histogram.is_some());
    assert_eq!(facilitator.nicknames, vec!["Mina".to_string()]);
    assert_eq!(room.view(&Role::Attendee(id(0)), 4).vote.unwrap().yours, Some(0));
    room.apply(&Request::Reveal, 5, &Bundled::default()).unwrap();
    let revealed = room.view(&Role::Projector, 4).vote.unwrap();
    assert!(revealed.histogram.is_some() && revealed.answer.is_some() && !revealed.open);
}

#[test]
fn a_vote_must_name_the_open_question_and_a_choice_it_offers() {
    let mut room = voting();
    let other = VoteKey { question: 3, ..key() };
    let wrong = Request::Vote { attendee: id(0), key: other, round: 1, choice: 0 };
    assert_eq!(room.apply(&wrong, 3, &Bundled::default()), Err(Refusal::NotTheOpenQuestion));
    let offered = room.votes[&key()].offered;
    assert_eq!(room.apply(&vote(0, 1, offered), 3, &Bundled::default()), Err(Refusal::NoSuchChoice { offered }));
    assert_eq!(room.apply(&vote(42, 1, 0), 3, &Bundled::default()), Err(Refusal::NotJoined));
    let bad = Request::Vote { attendee: AttendeeId("<b>".into()), key: key(), round: 1, choice: 0 };
    assert_eq!(room.apply(&bad, 3, &Bundled::default()), Err(Refusal::BadAttendee));
}

#[test]
fn moving_to_another_lesson_or_release_leaves_the_vote_behind() {
    let mut room = voting();
    room.apply(&place(2), 3, &Bundled::default()).unwrap();
    assert_eq!(room.current, Some(key()), "a later step of the same lesson keeps the vote shown");
    let elsewhere = Request::Place {
        place: Place { lesson: LESSON.into(), era: Era::V1_33, step: 1, actions: String::new() },
        lang: Lang::Ko,
    };
    room.apply(&elsewhere, 4, &Bundled::default()).unwrap();
    assert_eq!((room.current.as_ref(), room.lang), (None, Lang::Ko));
    let unknown = Request::Place {
        place: Place { lesson: "no-such".into(), era: Era::V1_37, step: 0, actions: String::new() },
        lang: Lang::En,
    };
    assert_eq!(room.apply(&unknown, 5, &Bundled::default()), Err(Refusal::NoSuchLesson));
}

#[test]
fn challenges_are_counted_once_per_attendee() {
    let mut room = voting();
    let mark = |n, mark| Request::Challenge { attendee: id(n), lesson: LESSON.into(), challenge: 0, mark };
    room.apply(&mark(0, ChallengeMark::Hint(0)), 3, &Bundled::default()).unwrap();
    room.apply(&mark(0, ChallengeMark::Hint(0)), 3, &Bundled::default()).unwrap();
    room.apply(&mark(1, ChallengeMark::Hint(0)), 3, &Bundled::default()).unwrap();
    room.apply(&mark(1, ChallengeMark::Solved), 3, &Bundled::default()).unwrap();
    room.apply(&mark(2, ChallengeMark::Solution), 3, &Bundled::default()).unwrap();
    assert_eq!(room.apply(&mark(2, ChallengeMark::Hint(7)), 3, &Bundled::default()), Err(Refusal::NoSuchChallenge));
    let view = &room.view(&Role::Facilitator, 3).challenges[0];
    assert_eq!((view.solved, view.hints.clone(), view.solution), (1, vec![(0, 2)], 1));
}

#[test]
fn a_journal_replayed_makes_the_same_room() {
    let mut room = Room::new("r1");
    let requests = [
        Request::Join { attendee: id(0), nickname: None },
        Request::Join { attendee: id(1), nickname: Some("J".into()) },
        place(1),
        Request::OpenVote { question: 0 },
        vote(0, 1, 1),
        Request::CloseVote,
        Request::Attendance { connected: 2 },
        Request::Reveal,
    ];
    let entries: Vec<Entry> = requests
        .iter()
        .enumerate()
        .map(|(at, request)| {
            room.apply(request, at as u64, &Bundled::default()).unwrap();
            Entry { at_s: at as u64, request: request.clone() }
        })
        .collect();
    let lines: Vec<String> = entries.iter().map(|e| serde_json::to_string(e).unwrap()).collect();
    let read: Vec<Entry> = lines.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(Room::replay("r1", &read, &Bundled::default()), Ok(room));
}

#[test]
fn the_report_keeps_both_rounds_beside_the_right_answer_and_escapes_the_lessons_texts() {
    let mut room = voting();
    room.apply(&vote(0, 1, 0), 3, &Bundled::default()).unwrap();
    room.apply(&Request::CloseVote, 4, &Bundled::default()).unwrap();
    room.apply(&Request::VoteAgain, 5, &Bundled::default()).unwrap();
    room.apply(&vote(0, 2, 1), 6, &Bundled::default()).unwrap();
    let report = room.report(&Bundled::default());
    let question = &report.questions[0];
    assert_eq!(question.rounds.len(), 2);
    assert_eq!((question.rounds[0][0], question.rounds[1][1]), (1, 1));
    let page = report.html();
    assert!(page.contains("Vote 2") && page.contains("the right answer"), "{page}");
    assert!(!page.contains("<script"));
}

#[test]
fn a_place_opens_the_same_run_at_the_same_step_with_the_facilitators_moves() {
    use crate::session::{Action, Session};
    use crate::world::Fault;
    let mut facilitator = Session::from_query("?scenario=cache-scope&era=1.33");
    facilitator.apply(Action::JumpTo(3));
    facilitator.apply(Action::Fault(Fault::CompactStore));
    facilitator.apply(Action::JumpTo(9));
    let here = Place::of(&facilitator);
    assert!(!here.actions.is_empty(), "the fault is one of the facilitator's moves");
    let mut attendee = Session::from_query("?scenario=stale-read");
    attendee.apply(Action::Follow(here.query()));
    assert_eq!(Place::of(&attendee), here);
    assert_eq!(attendee.visible_trace(), facilitator.visible_trace(), "the same world, step for step");
}

#[test]
fn the_run_kept_between_places_asks_what_a_run_from_its_start_asks() {
    let kept = Bundled::default();
    let walk = [
        (LESSON, Era::V1_37, 0),
        (LESSON, Era::V1_37, 1),
        (LESSON, Era::V1_37, 30),
        (LESSON, Era::V1_37, 2),
        (LESSON, Era::V1_33, 1),
        ("stale-read", Era::V1_37, 25),
        ("stale-read", Era::V1_37, 0),
    ];
    for (lesson, era, step) in walk {
        let place = Place { lesson: lesson.into(), era, step, actions: String::new() };
        assert_eq!(kept.asked(&place), Bundled::default().asked(&place), "{lesson} in {era:?} at step {step}");
    }
}

/// Lesson `LESSON`'s file under another id: a lesson from outside.
fn outside_copy(id: &str) -> String {
    let file = crate::scenario::library::file_of(LESSON).unwrap();
    let (_, text) = crate::scenario::library::FILES.iter().find(|(name, _)| *name == file).unwrap();
    let mut lesson: serde_json::Value = serde_json::from_str(text).unwrap();
    lesson["id"] = id.into();
    lesson.to_string()
}

#[test]
fn a_lesson_the_facilitator_brings_is_checked_kept_and_voted_on_like_a_bundled_one() {
    let lessons = Bundled::default();
    let mut room = Room::new("r1");
    room.apply(&Request::Join { attendee: id(0), nickname: None }, 0, &lessons).unwrap();
    let ours = Place { lesson: "our-scope".into(), era: Era::V1_37, step: 1, actions: String::new() };
    let go = Request::Place { place: ours.clone(), lang: Lang::En };
    assert_eq!(room.apply(&go, 1, &lessons), Err(Refusal::NoSuchLesson), "not brought yet");
    // A file that does not pass is refused with validate's reasons, and nothing is kept.
    let broken = outside_copy("our-scope").replacen("\"title\"", "\"titel\"", 1);
    match room.apply(&Request::Lesson { text: broken }, 1, &lessons) {
        Err(Refusal::BadLesson { reasons }) => assert!(reasons[0].contains("titel"), "{reasons:?}"),
        other => panic!("a broken lesson was not refused: {other:?}"),
    }
    assert!(room.outside.is_empty());
    let text = outside_copy("our-scope");
    let brought = [Entry { at_s: 2, request: Request::Lesson { text: text.clone() } }, Entry { at_s: 3, request: go }];
    for entry in &brought {
        room.apply(&entry.request, entry.at_s, &lessons).unwrap();
    }
    assert_eq!(
        room.view(&Role::Attendee(id(0)), 1).lesson,
        Some(crate::scenario::library::digest(&text)),
        "a page is told which file to ask for"
    );
    room.apply(&Request::OpenVote { question: 0 }, 4, &lessons).unwrap();
    let key = VoteKey { lesson: "our-scope".into(), era: Era::V1_37, question: 0 };
    room.apply(&Request::Vote { attendee: id(0), key: key.clone(), round: 1, choice: 0 }, 5, &lessons).unwrap();
    assert_eq!(room.votes[&key].rounds[0].choices.len(), 1);
    // The same file again changes nothing; the journal's entries make the same room elsewhere.
    room.apply(&Request::Lesson { text: text.clone() }, 6, &lessons).unwrap();
    assert_eq!(room.taken, 1);
    let replayed = Room::replay("r1", &brought, &Bundled::default()).unwrap();
    assert_eq!((replayed.place, replayed.outside), (ours, room.outside.clone()));
    // A bundled lesson's id cannot be taken over.
    let taken_over = outside_copy(LESSON);
    assert!(matches!(room.apply(&Request::Lesson { text: taken_over }, 7, &lessons), Err(Refusal::BadLesson { .. })));
}

#[test]
fn a_room_takes_a_bounded_number_of_lesson_files() {
    let lessons = Bundled::default();
    let mut room = Room::new("r1");
    room.taken = MAX_LESSONS;
    let text = outside_copy("one-more");
    assert_eq!(room.apply(&Request::Lesson { text }, 0, &lessons), Err(Refusal::TooManyLessons { max: MAX_LESSONS }));
    let huge = Request::Lesson { text: " ".repeat(crate::limits::MAX_LESSON_BYTES + 1) };
    assert_eq!(room.apply(&huge, 0, &lessons), Err(Refusal::TooLarge { max: crate::limits::MAX_LESSON_BYTES }));
}
