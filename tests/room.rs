//! The room's server over HTTP, in this process on loopback: joining, following, the votes'
//! rounds, Reveal, a reload that tries to change a closed vote, a restart from the journal,
//! the facilitator's key, the event stream, the bundle's files, and bad requests each refused
//! with a 4xx status and its reason.

use informer_playground::room::{start, Options, Running};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::path::{Path, PathBuf};

const LESSON: &str = "cache-scope";

/// A directory of its own under the target directory, emptied.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("room-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("dist")).unwrap();
    std::fs::write(dir.join("dist/index.html"), "<!doctype html><title>playground</title>").unwrap();
    std::fs::write(dir.join("secret.txt"), "outside the bundle").unwrap();
    dir
}

fn serve(dir: &Path) -> Running {
    start(Options {
        dist: dir.join("dist"),
        journal: Some(dir.join("room.jsonl")),
        address: Some(Ipv4Addr::LOCALHOST.into()),
        port: 0,
    })
    .expect("the room starts")
}

/// An HTTP/1.1 exchange: the status and the body (as JSON when it is).
fn http(room: &Running, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(room.address).unwrap();
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: room\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for (name, value) in headers {
        head += &format!("{name}: {value}\r\n");
    }
    stream.write_all(format!("{head}\r\n").as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

fn post(room: &Running, request: Value, key: Option<&str>) -> (u16, Value) {
    let auth = key.map(|k| format!("Bearer {k}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
    let (status, body) =
        http(room, "POST", &format!("/room/{}/requests", room.code), &headers, request.to_string().as_bytes());
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn facilitate(room: &Running, request: Value) {
    let (status, body) = post(room, request, Some(&room.key.clone()));
    assert_eq!(status, 200, "{body}");
}

fn view(room: &Running, who: &str) -> Value {
    let (status, body) = http(room, "GET", &format!("/room/{}/view?{who}", room.code), &[], b"");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

fn attendee(n: u32) -> String {
    format!("attendee-{n:04}")
}

fn join(room: &Running, n: u32) {
    let (status, body) = post(room, json!({"type": "join", "attendee": attendee(n)}), None);
    assert_eq!(status, 200, "{body}");
}

fn vote(room: &Running, n: u32, round: usize, choice: usize) -> (u16, Value) {
    let key = json!({"lesson": LESSON, "era": "1.37", "question": 0});
    post(room, json!({"type": "vote", "attendee": attendee(n), "key": key, "round": round, "choice": choice}), None)
}

/// Three attendees in, the facilitator on the lesson's question, its vote open.
fn voting(room: &Running) {
    (0..3).for_each(|n| join(room, n));
    facilitate(room, json!({"type": "place", "place": {"lesson": LESSON, "era": "1.37", "step": 1}, "lang": "en"}));
    facilitate(room, json!({"type": "open-vote", "question": 0}));
}

#[test]
fn attendees_follow_vote_twice_and_see_the_answer_only_after_reveal() {
    let dir = scratch("votes");
    let room = serve(&dir);
    voting(&room);
    assert_eq!(view(&room, &format!("attendee={}", attendee(0)))["place"]["step"], 1);
    assert_eq!(vote(&room, 0, 1, 0).0, 200);
    assert_eq!(vote(&room, 1, 1, 1).0, 200);
    let projector = view(&room, "view=projector");
    assert_eq!(projector["vote"]["answered"], 2);
    assert!(projector["vote"]["histogram"].is_null() && projector["vote"]["answer"].is_null(), "{projector}");
    let facilitator = view(&room, &format!("key={}", room.key));
    assert_eq!(facilitator["vote"]["histogram"][0][0], 1);
    facilitate(&room, json!({"type": "close-vote"}));
    facilitate(&room, json!({"type": "vote-again"}));
    assert_eq!(vote(&room, 1, 2, 0).0, 200);
    facilitate(&room, json!({"type": "reveal"}));
    let revealed = view(&room, "view=projector");
    assert_eq!(revealed["vote"]["histogram"].as_array().unwrap().len(), 2, "both rounds: {revealed}");
    assert!(revealed["vote"]["answer"].is_number());
    let (status, report) = http(&room, "GET", &format!("/room/{}/report.json?key={}", room.code, room.key), &[], b"");
    assert_eq!(status, 200);
    let report: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["questions"][0]["rounds"].as_array().unwrap().len(), 2);
    assert_eq!(report["joined"], 3);
}

#[test]
fn a_reload_cannot_change_a_closed_vote() {
    let dir = scratch("reload");
    let room = serve(&dir);
    voting(&room);
    assert_eq!(vote(&room, 0, 1, 0).0, 200);
    facilitate(&room, json!({"type": "close-vote"}));
    // The reloaded page joins again with the id its device kept, and votes again.
    join(&room, 0);
    let (status, refused) = vote(&room, 0, 1, 1);
    assert_eq!((status, refused["refused"].as_str()), (409, Some("vote-closed")), "{refused}");
    let mine = view(&room, &format!("attendee={}", attendee(0)));
    assert_eq!(mine["vote"]["yours"], 0, "the closed round keeps the first choice");
}

#[test]
fn a_restart_brings_the_room_back_from_its_journal() {
    let dir = scratch("restart");
    let room = serve(&dir);
    voting(&room);
    vote(&room, 0, 1, 1);
    vote(&room, 2, 1, 0);
    let before = view(&room, &format!("key={}", room.key));
    let code = room.code.clone();
    room.stop().unwrap();
    let again = serve(&dir);
    assert_eq!(again.code, code, "the attendees' links still lead to the room");
    let after = view(&again, &format!("key={}", again.key));
    assert_eq!(after["vote"], before["vote"]);
    assert_eq!(after["place"], before["place"]);
    // The vote is still open after the restart: the third attendee's vote is taken.
    assert_eq!(vote(&again, 1, 1, 1).0, 200);
}

#[test]
fn the_facilitators_actions_need_the_key_drawn_at_this_start() {
    let dir = scratch("key");
    let room = serve(&dir);
    voting(&room);
    let actions = [
        json!({"type": "place", "place": {"lesson": LESSON, "era": "1.37", "step": 2}, "lang": "en"}),
        json!({"type": "open-vote", "question": 0}),
        json!({"type": "close-vote"}),
        json!({"type": "vote-again"}),
        json!({"type": "reveal"}),
    ];
    for action in &actions {
        for key in [None, Some("0".repeat(32)), Some(format!("{}0", room.key))] {
            let (status, body) = post(&room, action.clone(), key.as_deref());
            assert_eq!((status, body["refused"].as_str()), (401, Some("needs-key")), "{action} with {key:?}");
        }
    }
    let (status, _) = http(&room, "GET", &format!("/room/{}/report.html", room.code), &[], b"");
    assert_eq!(status, 401);
    let (status, _) = http(&room, "GET", &format!("/room/{}/events?key=wrong", room.code), &[], b"");
    assert_eq!(status, 401);
}

#[test]
fn every_page_hears_each_change_on_its_event_stream() {
    let dir = scratch("events");
    let room = serve(&dir);
    join(&room, 0);
    let mut stream = TcpStream::connect(room.address).unwrap();
    let path = format!("/room/{}/events?attendee={}", room.code, attendee(0));
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: room\r\nAccept: text/event-stream\r\n\r\n").as_bytes())
        .unwrap();
    let mut lines = BufReader::new(stream);
    let mut next_view = || -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            lines.read_line(&mut line).unwrap();
            if let Some(data) = line.strip_prefix("data: ") {
                return serde_json::from_str(data.trim()).unwrap();
            }
        }
    };
    let first = next_view();
    assert_eq!(first["place"]["step"], 0);
    facilitate(&room, json!({"type": "place", "place": {"lesson": LESSON, "era": "1.37", "step": 4}, "lang": "en"}));
    // Each view is whole: the step arrives in a later one, whichever change came between.
    let arrived = (0..10).map(|_| next_view()).find(|v| v["place"]["step"] == 4);
    assert!(arrived.is_some(), "the facilitator's step reached the attendee's stream");
}

#[test]
fn the_bundle_is_served_and_nothing_outside_it() {
    let dir = scratch("files");
    let room = serve(&dir);
    let (status, body) = http(&room, "GET", "/?room=x", &[], b"");
    assert_eq!((status, body.contains("playground")), (200, true));
    for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "//etc/passwd", "/nothing.js"] {
        let (status, body) = http(&room, "GET", path, &[], b"");
        assert!((400..500).contains(&status), "{path}: {status} {body}");
        assert!(!body.contains("outside the bundle"), "{path}");
    }
}

/// What is wrong, the path, the body, the key sent, the status and refusal expected.
type BadRequest = (&'static str, String, Vec<u8>, Option<String>, u16, &'static str);

#[test]
fn bad_requests_are_each_refused_with_a_status_and_a_reason() {
    let dir = scratch("bad");
    let room = serve(&dir);
    voting(&room);
    let code = room.code.clone();
    let requests = format!("/room/{code}/requests");
    let key = room.key.clone();
    let big = "x".repeat(5000);
    let ok_key = json!({"lesson": LESSON, "era": "1.37", "question": 0});
    let cases: Vec<BadRequest> = vec![
        ("not JSON", requests.clone(), b"{".to_vec(), None, 400, "not-a-request"),
        ("an unknown type", requests.clone(), br#"{"type":"shout"}"#.to_vec(), None, 400, "not-a-request"),
        ("an unknown field", requests.clone(), json!({"type": "join", "attendee": attendee(5), "admin": true}).to_string().into_bytes(), None, 400, "not-a-request"),
        ("too large", requests.clone(), big.clone().into_bytes(), None, 413, "too-large"),
        ("a short attendee id", requests.clone(), json!({"type": "join", "attendee": "abc"}).to_string().into_bytes(), None, 400, "bad-attendee"),
        ("markup in an attendee id", requests.clone(), json!({"type": "join", "attendee": "<script>alert1</script>"}).to_string().into_bytes(), None, 400, "bad-attendee"),
        ("a long nickname", requests.clone(), json!({"type": "join", "attendee": attendee(6), "nickname": "n".repeat(40)}).to_string().into_bytes(), None, 400, "bad-nickname"),
        ("a control character in a nickname", requests.clone(), json!({"type": "join", "attendee": attendee(6), "nickname": "a\u{7}"}).to_string().into_bytes(), None, 400, "bad-nickname"),
        ("a vote before joining", requests.clone(), json!({"type": "vote", "attendee": attendee(77), "key": ok_key, "round": 1, "choice": 0}).to_string().into_bytes(), None, 409, "not-joined"),
        ("a choice out of range", requests.clone(), json!({"type": "vote", "attendee": attendee(0), "key": ok_key, "round": 1, "choice": 99}).to_string().into_bytes(), None, 409, "no-such-choice"),
        ("a negative choice", requests.clone(), json!({"type": "vote", "attendee": attendee(0), "key": ok_key, "round": 1, "choice": -1}).to_string().into_bytes(), None, 400, "not-a-request"),
        ("another question", requests.clone(), json!({"type": "vote", "attendee": attendee(0), "key": {"lesson": LESSON, "era": "1.37", "question": 5}, "round": 1, "choice": 0}).to_string().into_bytes(), None, 409, "not-the-open-question"),
        ("another release", requests.clone(), json!({"type": "vote", "attendee": attendee(0), "key": {"lesson": LESSON, "era": "1.30", "question": 0}, "round": 1, "choice": 0}).to_string().into_bytes(), None, 409, "not-the-open-question"),
        ("a round not open", requests.clone(), json!({"type": "vote", "attendee": attendee(0), "key": ok_key, "round": 2, "choice": 0}).to_string().into_bytes(), None, 409, "not-the-round"),
        ("an unknown release", requests.clone(), json!({"type": "place", "place": {"lesson": LESSON, "era": "1.99", "step": 0}, "lang": "en"}).to_string().into_bytes(), Some(key.clone()), 400, "not-a-request"),
        ("an unknown lesson", requests.clone(), json!({"type": "place", "place": {"lesson": "no-such", "era": "1.37", "step": 0}, "lang": "en"}).to_string().into_bytes(), Some(key.clone()), 409, "no-such-lesson"),
        ("a question the step does not ask", requests.clone(), json!({"type": "open-vote", "question": 9}).to_string().into_bytes(), Some(key.clone()), 409, "not-asked"),
        ("attendance from a page", requests.clone(), json!({"type": "attendance", "connected": 400}).to_string().into_bytes(), Some(key.clone()), 403, "server-only"),
        ("a hint the challenge lacks", requests.clone(), json!({"type": "challenge", "attendee": attendee(0), "lesson": LESSON, "challenge": 0, "mark": {"hint": 9}}).to_string().into_bytes(), None, 409, "no-such-challenge"),
        ("a challenge the lesson lacks", requests.clone(), json!({"type": "challenge", "attendee": attendee(0), "lesson": LESSON, "challenge": 4, "mark": "solved"}).to_string().into_bytes(), None, 409, "no-such-challenge"),
        ("another room", "/room/ffffff/requests".into(), json!({"type": "join", "attendee": attendee(8)}).to_string().into_bytes(), None, 404, "no-such-room"),
        ("a path the API lacks", format!("/room/{code}/admin"), Vec::new(), None, 404, "not-found"),
    ];
    assert!(cases.len() >= 20);
    for (what, path, body, key, status, kind) in cases {
        let auth = key.map(|k| format!("Bearer {k}"));
        let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        let method = if path.ends_with("/admin") { "GET" } else { "POST" };
        let (got, answer) = http(&room, method, &path, &headers, &body);
        let answer: Value = serde_json::from_str(&answer).unwrap_or(Value::Null);
        assert_eq!((got, answer["refused"].as_str()), (status, Some(kind)), "{what}: {answer}");
        assert!(answer["reason"].as_str().is_some_and(|r| r.len() > 10), "{what} has a reason: {answer}");
    }
    // Methods the paths do not take.
    for (method, path, allowed) in [("GET", requests.as_str(), "POST"), ("DELETE", "/index.html", "GET")] {
        let (status, answer) = http(&room, method, path, &[], b"");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!((status, answer["allowed"].as_str()), (405, Some(allowed)), "{method} {path}");
    }
    // An attendee past the rate.
    let sent: Vec<u16> = (0..70)
        .map(|_| post(&room, json!({"type": "follow", "attendee": attendee(2), "following": true}), None).0)
        .collect();
    assert!(sent.contains(&429), "the 61st request in a minute is refused");
    // Nothing refused changed the room: the vote is as it was.
    assert_eq!(view(&room, &format!("key={}", room.key))["vote"]["answered"], 0);
}

/// Lesson `LESSON`'s file under another id: a lesson from outside, larger than any other request.
fn outside_copy(id: &str) -> String {
    let mut lesson: Value =
        serde_json::from_str(&std::fs::read_to_string("static/scenarios/16-cache-scope.json").unwrap()).unwrap();
    assert_eq!(lesson["id"], LESSON);
    lesson["id"] = id.into();
    lesson.to_string()
}

#[test]
fn a_lesson_the_facilitator_brings_is_served_to_the_room_and_kept_across_a_restart() {
    let dir = scratch("outside");
    let room = serve(&dir);
    let text = outside_copy("our-scope");
    assert!(text.len() > 4096, "a lesson's file is larger than an attendee's request may be");
    // An attendee's request that large is refused before it is read; the facilitator's is taken.
    let (status, body) = post(&room, json!({"type": "lesson", "text": text}), None);
    assert_eq!((status, &body["refused"]), (413, &json!("too-large")), "{body}");
    facilitate(&room, json!({"type": "lesson", "text": text}));
    let place = json!({"lesson": "our-scope", "era": "1.37", "step": 1});
    facilitate(&room, json!({"type": "place", "place": place, "lang": "en"}));
    join(&room, 0);
    let seen = view(&room, &format!("attendee={}", attendee(0)));
    assert_eq!(seen["place"]["lesson"], "our-scope");
    let digest = seen["lesson"].as_str().expect("the view names the file's digest").to_string();
    let (status, served) = http(&room, "GET", &format!("/room/{}/lesson?id=our-scope", room.code), &[], b"");
    assert_eq!((status, served.as_str()), (200, text.as_str()), "the file as the facilitator brought it");
    assert_eq!(http(&room, "GET", &format!("/room/{}/lesson?id={LESSON}", room.code), &[], b"").0, 404);
    // A file that does not pass is refused with validate's reasons.
    let (status, body) =
        post(&room, json!({"type": "lesson", "text": text.replace("\"title\"", "\"titel\"")}), Some(&room.key.clone()));
    assert_eq!((status, &body["refused"]), (422, &json!("bad-lesson")), "{body}");
    assert!(body["reason"].as_str().unwrap().contains("titel"), "{body}");
    let (status, body) =
        post(&room, json!({"type": "lesson", "text": outside_copy(&"x".repeat(65))}), Some(&room.key.clone()));
    assert_eq!((status, &body["refused"]), (422, &json!("bad-lesson")), "an id longer than a place may name: {body}");
    // Only a lesson file may be that large: the facilitator's other requests keep the bound.
    let long = json!({"lesson": "our-scope", "era": "1.37", "step": 1, "actions": "a".repeat(5000)});
    let (status, body) = post(&room, json!({"type": "place", "place": long, "lang": "en"}), Some(&room.key.clone()));
    assert_eq!((status, &body["refused"]), (413, &json!("too-large")), "{body}");
    // The same file again (a page reloaded) is taken without a line more in the journal.
    let lines = || std::fs::read_to_string(dir.join("room.jsonl")).unwrap().lines().count();
    let before = lines();
    facilitate(&room, json!({"type": "lesson", "text": text}));
    assert_eq!(lines(), before);
    facilitate(&room, json!({"type": "open-vote", "question": 0}));
    let key = json!({"lesson": "our-scope", "era": "1.37", "question": 0});
    assert_eq!(
        post(&room, json!({"type": "vote", "attendee": attendee(0), "key": key, "round": 1, "choice": 0}), None).0,
        200
    );
    room.stop().unwrap();
    let again = serve(&dir);
    let after = view(&again, &format!("key={}", again.key));
    assert_eq!((&after["place"]["lesson"], &after["lesson"]), (&json!("our-scope"), &json!(digest)));
    assert_eq!(after["vote"]["answered"], 1);
    assert_eq!(http(&again, "GET", &format!("/room/{}/lesson?id=our-scope", again.code), &[], b"").1, text);
}

#[test]
fn a_journal_that_cannot_be_read_stops_the_start_and_names_its_line() {
    let dir = scratch("journal");
    std::fs::write(
        dir.join("room.jsonl"),
        "{\"room\":\"abc123\",\"opened\":1}\n{\"at_s\":1,\"request\":{\"type\":\"nap\"}}\n",
    )
    .unwrap();
    let refused = start(Options {
        dist: dir.join("dist"),
        journal: Some(dir.join("room.jsonl")),
        address: Some(Ipv4Addr::LOCALHOST.into()),
        port: 0,
    });
    let why = refused.err().expect("a broken journal is not overwritten");
    assert!(why.contains("line 2"), "{why}");
    assert!(std::fs::read_to_string(dir.join("room.jsonl")).unwrap().contains("nap"), "the journal is kept");
}
