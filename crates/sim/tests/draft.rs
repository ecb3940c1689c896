//! The builder's draft: a copy changes only what the author edits, what the author does becomes
//! the timeline, a note's step and a challenge's goal are proposed from the run, and the result
//! is a lesson `verify` accepts in every release.

use informer_sim::scenario::draft::{self, Draft};
use informer_sim::scenario::library;
use informer_sim::session::verify;
use informer_sim::session::{Action, Session};
use informer_sim::world::Fault;
use serde_json::{json, Value};

fn source(prefix: &str) -> Value {
    let text = library::FILES.iter().find(|(file, _)| file.starts_with(prefix)).expect("a bundled lesson").1;
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_copy_changes_only_what_the_author_edits() {
    let original = source("07-");
    let mut copy = Draft::copy(&original, "bookmarks-ours").unwrap();
    assert!(copy.set("/title/en", "Bookmarks, ours".into()));
    let exported: Value = serde_json::from_str(&copy.text()).unwrap();
    let mut expected = original.clone();
    expected["id"] = "bookmarks-ours".into();
    expected["title"]["en"] = "Bookmarks, ours".into();
    assert_eq!(exported, expected, "every other field as the source has it");
    assert!(!copy.set("/narration/99/text/en", "x".into()), "nothing made where there is no item");
    // A list inside the file, by its pointer: a release's own notes.
    let notes = |d: &Draft| d.get("/eras/1.37/narration").and_then(Value::as_array).map_or(0, Vec::len);
    let before = notes(&copy);
    assert_eq!(copy.push("/eras/1.37/narration", json!({})), Some(before));
    copy.remove("/eras/1.37/narration", before);
    assert_eq!(notes(&copy), before);
    assert_eq!(copy.push("/eras/1.99/narration", json!({})), None, "no list there, none made");
}

fn create(name: &str) -> String {
    format!("kubectl create -f -\napiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n  - name: main\n    image: busybox:1.36")
}

#[test]
fn an_authors_moves_become_a_lesson_that_verifies_in_every_release() {
    let sandbox = source("18-");
    let mut draft = Draft::copy(&sandbox, "my-lesson").unwrap();
    for list in ["narration", "challenges"] {
        while !draft.list(list).is_empty() {
            draft.remove(list, 0);
        }
    }
    draft.set("/eras", json!({"1.30": {}, "1.33": {}, "1.37": {}}));
    // The author plays the sandbox: a Pod, then the watch cut, two more Pods and a compaction
    // while it is down.
    // Without the watch cache, a watch from before a compaction is answered 410 by etcd.
    draft.set("/config/watch_cache", false.into());
    let playing = verify("my-lesson.json", &draft.text()).unwrap_or_else(|p| panic!("{p:?}"));
    let mut session = Session::playing(playing.in_era(informer_sim::era::Era::CURRENT).unwrap()).unwrap();
    session.apply(Action::JumpTo(12));
    session.apply(Action::Kubectl(create("a")));
    session.apply(Action::JumpTo(30));
    session.apply(Action::Fault(Fault::DisconnectWatch));
    session.apply(Action::Kubectl(create("b")));
    session.apply(Action::Kubectl(create("c")));
    session.apply(Action::Fault(Fault::CompactStore));
    let acts = session.acts();
    assert_eq!(acts.len(), 5, "{acts:?}");
    for (at_ms, act) in &acts {
        assert!(draft.record(*at_ms, act), "{act:?}");
    }
    let timeline = draft.list("timeline");
    assert_eq!(
        timeline.iter().map(|e| e["do"].as_str().unwrap()).collect::<Vec<_>>(),
        ["create", "fault", "create", "create", "fault"]
    );
    // A note on the 410, at the step the author is looking at.
    session.apply(Action::JumpTo(session.world().steps() + 40));
    let gone =
        session.visible_trace().iter().find(|e| e.outcome.codes().contains(&410)).expect("a 410 after the compaction");
    let when = draft::pattern_of(session.visible_trace(), gone.step).unwrap();
    let note = json!({"match": when, "text": draft::text("410: 만료", "410 Gone: expired"), "claims": [draft::happens(&when)]});
    draft.push("narration", note);
    // A challenge whose goal holds now.
    let goal = draft::goal_now(session.world(), session.visible_trace());
    assert!(goal.iter().any(|c| c["check"] == "cache-matches-store"), "{goal:?}");
    // The sandbox's own expectation (no reconcile) no longer holds once Pods are made: the
    // check says so in each release, and the author takes it out.
    let problems = verify("my-lesson.json", &draft.text()).unwrap_err();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems.iter().all(|p| p.path == "expect[0]" && p.what.contains("not met: Reconciles")), "{problems:?}");
    draft.remove("expect", 0);
    let lesson = verify("my-lesson.json", &draft.text()).unwrap_or_else(|p| panic!("{p:?}"));
    assert_eq!(lesson.timeline.len(), 5);
    assert_eq!(lesson.narration.len(), 1);
}

#[test]
fn each_note_is_shown_where_it_matches_in_each_release() {
    let mut draft = Draft::copy(&source("05-"), "mine").unwrap();
    let lesson = verify("mine.json", &draft.text()).unwrap();
    let shown = draft::shown_at(&lesson);
    assert_eq!(shown.len(), 3);
    for draft::Shown { era, notes, questions } in &shown {
        assert_eq!(notes.len(), lesson.narration.len(), "{era}");
        assert_eq!(notes[0], Some(24), "{era}: the first note at the fault, step 24");
        assert!(questions.iter().all(Option::is_some), "{era}");
    }
    // A note no step matches says so, in every release.
    draft.set("/narration/0/match", json!({"on": "Replace", "nth": 9}));
    let lesson = informer_sim::scenario::Scenario::parse("mine.json", &draft.text()).unwrap();
    assert!(draft::shown_at(&lesson).iter().all(|shown| shown.notes[0].is_none()));
}

#[test]
fn a_value_is_unset_where_it_is_and_nowhere_else() {
    let mut draft = Draft::copy(&source("05-"), "mine").unwrap();
    assert!(draft.set("/narration/0/look_at", "indexer".into()));
    assert!(draft.unset("/narration/0/look_at"));
    assert!(draft.get("/narration/0/look_at").is_none());
    assert!(!draft.unset("/narration/0/look_at"), "nothing left to unset");
    assert!(!draft.unset("/eras/9.99/title"), "no such release");
    assert!(draft.set("/recap", serde_json::json!({"en": "x", "ko": "x"})));
    assert!(draft.unset("/recap") && draft.get("/recap").is_none());
}
