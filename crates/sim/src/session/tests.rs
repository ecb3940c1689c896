//! The session's own tests: time travel, lessons, writes, the console and links.

use super::*;
use crate::world::fast_forward;

#[test]
fn fast_forward_passes_over_a_watch_lists_initial_events_in_one_jump() {
    let mut s = Session::from_query("?scenario=polling-vs-watch");
    s.apply(Action::FastForward);
    assert_eq!((s.world().steps(), &s.jump), (0, &None), "no phase under way: nothing moves");
    for _ in 0..fast_forward::WINDOW + 4 {
        s.apply(Action::StepForward);
    }
    let here = s.world().steps();
    s.apply(Action::FastForward);
    let jump = s.jump.clone().expect("a jump");
    assert_eq!((jump.from, jump.to), (here, s.world().steps()));
    assert!(jump.skipped() > 4_000, "{jump:?}");
    assert_eq!(jump.counts[0].0.kind, TraceKind::Added);
    let landed = s.current().expect("a step");
    assert_ne!(landed.kind, TraceKind::Added, "it lands on the step that leaves the phase");
    assert_eq!(s.visible_trace().len() as u64, jump.to, "the steps passed over are in the trace");
    s.apply(Action::StepBack);
    assert_eq!((s.world().steps(), &s.jump), (jump.to - 1, &None), "any other move forgets the jump");
    assert_eq!(s.current().map(|e| e.kind), Some(TraceKind::Added));
}

#[test]
fn next_note_goes_to_each_notes_step_in_turn_and_stops_after_the_last() {
    let mut s = Session::from_query("?scenario=disconnect-and-resume");
    let notes = s.scenario.as_ref().unwrap().narration.len();
    let mut visited = Vec::new();
    for _ in 0..notes + 2 {
        s.apply(Action::NextNote);
        let step = s.world().steps();
        if visited.last() == Some(&step) {
            break;
        }
        let (shown_at, _) = crate::scenario::note_at(s.scenario.as_ref().unwrap(), s.visible_trace()).unwrap();
        assert_eq!(shown_at, step, "a note appears on the step it jumped to");
        visited.push(step);
    }
    assert!(visited.windows(2).all(|w| w[0] < w[1]), "{visited:?}");
    assert!(visited.len() >= 2, "{visited:?}");
    let last = *visited.last().unwrap();
    s.apply(Action::NextNote);
    assert_eq!(s.world().steps(), last, "after the last note it stays");
}
use crate::kernel::TraceKind;

#[test]
fn an_explanation_shows_the_step_it_points_at_running_ahead_when_not_yet_reached() {
    let mut s = Session::from_query("?scenario=compaction-410-relist");
    let at = s.scenario.as_ref().unwrap().questions[0].explain_at.clone().expect("the question points at a step");
    s.apply(Action::ShowExplained(0));
    let step = s.world().steps();
    assert_eq!(crate::scenario::find(&at, s.visible_trace()), Some(step), "it stands on the step explained");
    s.apply(Action::JumpTo(0));
    s.apply(Action::ShowExplained(7));
    assert_eq!(s.world().steps(), 0, "no such question: it stays");
}

fn failed(s: &Session) -> String {
    match &s.message {
        Some(failed @ Message::Failed(_)) => failed.text(Lang::En),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn semantics_8_writes_report_like_kubectl() {
    let mut s = Session::default();
    s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
    let said = |s: &Session, lang| s.message.as_ref().map(|m| m.text(lang));
    assert_eq!(said(&s, Lang::En).as_deref(), Some("configmap/demo created (resourceVersion 3)"));
    s.apply(Action::DeleteManifest(Session::example(Kind::ConfigMap, "default", "demo")));
    // As the console's kubectl words it in this release (1.32+ names the namespace).
    assert_eq!(said(&s, Lang::En).as_deref(), Some(r#"configmap "demo" deleted from default namespace"#));
    assert_eq!(s.current().unwrap().kind, TraceKind::ApiWrite);
}

#[test]
fn another_era_replays_the_same_lesson_actions_and_step_in_that_release() {
    let mut s = Session::from_query("?scenario=delta-fifo-grouping&lang=ko");
    assert_eq!(s.era, Era::V1_30, "a lesson opens in the release it is told in");
    s.apply(Action::JumpTo(10));
    s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "extra")));
    s.apply(Action::JumpTo(30));
    s.apply(Action::SetEra(Era::V1_37));
    assert_eq!((s.era, s.world().config.era, s.world().steps()), (Era::V1_37, Era::V1_37, 30));
    assert_eq!(s.scenario.as_ref().map(|l| l.id.as_str()), Some("delta-fifo-grouping"));
    assert_eq!(s.lang, Lang::Ko);
    assert!(s.visible_trace().iter().any(|e| e.key == "default/extra"), "the create was replayed");
    assert_eq!(s.link().era, Some(Era::V1_37), "the link names an era other than the lesson's");
    s.apply(Action::SetEra(Era::V1_30));
    assert_eq!(s.link().era, None, "the lesson's own era goes without saying");
}

#[test]
fn bad_input_is_answered_and_keeps_the_world() {
    let mut s = Session::default();
    s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
    let steps = s.world().steps();
    s.apply(Action::Create("{not json".into()));
    assert!(failed(&s)
        .starts_with("Error from server (BadRequest): the object provided is unrecognized: json parse error:"));
    assert_eq!(s.world().steps(), steps, "a malformed manifest never reaches the world");
    s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "demo")));
    assert_eq!(failed(&s), r#"Error from server (AlreadyExists): configmaps "demo" already exists"#);
    s.apply(Action::Create(Session::example(Kind::ConfigMap, "default", "Not_Valid")));
    assert!(failed(&s).contains("a lowercase RFC 1123 subdomain"));
    s.apply(Action::Create(r#"{"kind":"Widget","metadata":{"name":"w"}}"#.into()));
    assert_eq!(failed(&s), r#"Error from server (NotFound): no matches for kind "Widget" in version """#);
}

#[test]
fn the_console_reads_writes_and_watches() {
    let mut s = Session::default();
    s.apply(Action::JumpTo(60));
    s.apply(Action::Kubectl("kubectl get deploy".into()));
    assert!(
        s.console_text(Lang::En).starts_with("$ kubectl get deploy\nNAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb"),
        "{}",
        s.console_text(Lang::En)
    );
    s.apply(Action::Kubectl("kubectl get pods -w".into()));
    s.apply(Action::Kubectl("kubectl apply -f -\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: flags\n".into()));
    assert!(s.console_text(Lang::En).contains("$ kubectl apply -f -\nconfigmap/flags created"));
    s.apply(Action::Kubectl(
        "kubectl apply -f -\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: Bad_Name\n".into(),
    ));
    assert!(s.console_text(Lang::En).contains("Error from server (Invalid): ConfigMap \"Bad_Name\" is invalid"));
    let before = s.console_text(Lang::En).lines().count();
    s.apply(Action::JumpTo(400));
    assert!(s.console_text(Lang::En).lines().count() > before, "the watch prints Pod changes as they happen");
    s.apply(Action::Kubectl("kubectl get nothings".into()));
    assert!(s.console_text(Lang::En).ends_with(r#"error: the server doesn't have a resource type "nothings""#));
}

#[test]
fn a_scenario_narrates_asks_and_resets_to_itself() {
    let mut s = Session::from_query("?scenario=list-then-watch&lang=ko");
    assert!(s.message.is_none());
    assert_eq!(s.lang, Lang::Ko);
    assert!(s.narration().is_none(), "nothing is said before the first step");
    s.apply(Action::StepForward);
    let note = s.narration().unwrap();
    let (text, look) = (&note.text, note.look_at);
    assert!(text.ko.starts_with("Reflector가 ListAndWatch를 시작합니다"));
    assert_eq!(look, Some(crate::kernel::Stage::Reflector));
    s.apply(Action::JumpTo(3));
    let asked = s.questions();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].2, None);
    s.apply(Action::Answer(0, 1));
    s.apply(Action::Answer(0, 0));
    assert_eq!(s.questions()[0].2, Some(1), "the first answer stands");
    s.apply(Action::JumpTo(1));
    assert!(s.questions().is_empty(), "stepping back hides what came later");
    s.apply(Action::Reset);
    assert_eq!(s.scenario.as_ref().map(|s| s.id.as_str()), Some("list-then-watch"));
    assert_eq!(s.lang, Lang::Ko);
    s.apply(Action::LoadScenario("nope".into()));
    assert_eq!(failed(&s), r#"error: there is no lesson "nope""#);
    // The same refusal, worded again in the page's language when it switches.
    let korean = s.message.as_ref().unwrap().text(Lang::Ko);
    assert!(korean.contains(r#""nope""#) && korean != failed(&s), "{korean}");
}

#[test]
fn a_new_branch_forgets_what_the_old_one_did_at_its_first_step() {
    let mut s = Session::default();
    s.apply(Action::JumpTo(30));
    s.apply(Action::Fault(Fault::CompactStore));
    s.apply(Action::JumpTo(40));
    s.apply(Action::JumpTo(30));
    s.apply(Action::Fault(Fault::DisconnectWatch));
    let faults: Vec<_> =
        s.visible_trace().iter().filter(|e| e.kind == TraceKind::Fault).map(|e| e.outcome.clone()).collect();
    assert_eq!(faults.len(), 1, "only the new branch's fault: {faults:?}");
    assert!(matches!(&faults[0], crate::world::Outcome::Fault { fault: Fault::DisconnectWatch, .. }));
    assert_eq!(s.world().api.store().compact_revision(), None, "the abandoned compaction never happened");
}

#[test]
fn url_parameters_are_checked() {
    let s = Session::from_query("?seed=7&objects=20");
    assert!(s.notices.is_empty());
    assert_eq!(s.world().api.count(Kind::Pod), 20);
    let bad = Session::from_query("?objects=lots&speedy=9&scenario=nope");
    let params: Vec<&str> = bad.notices.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(params, ["objects", "speedy", "scenario"]);
    assert_eq!(bad.world().api.count(Kind::Deployment), 1, "the page still opens on the default lesson");
    let seeded = Session::from_query("?scenario=stale-read&seed=9");
    assert_eq!(seeded.seed, 9, "a seed beside a lesson is used, not ignored");
}

#[test]
fn a_link_restores_the_same_world_at_the_same_step_and_inspector() {
    let mut s = Session::from_query("?scenario=list-then-watch&lang=ko");
    s.apply(Action::JumpTo(12));
    s.apply(Action::Fault(Fault::DisconnectWatch));
    s.apply(Action::JumpTo(20));
    s.apply(Action::Kubectl("kubectl get pods".into()));
    s.apply(Action::Inspect(Stage::Fifo));
    s.apply(Action::JumpTo(30));
    let query = s.link().to_query();
    let restored = Session::from_query(&query);
    assert!(restored.notices.is_empty(), "{:?}", restored.notices);
    assert_eq!(restored.world().steps(), 30);
    assert_eq!(restored.visible_trace(), s.visible_trace(), "the same steps, outcome for outcome");
    assert_eq!(restored.inspected, Stage::Fifo);
    assert_eq!(restored.lang, Lang::Ko);
    assert_eq!(restored.console_text(Lang::En), s.console_text(Lang::En));
}

#[test]
fn semantics_9_stepping_back_and_forth_replays_the_same_trace() {
    let mut s = Session::default();
    for _ in 0..40 {
        s.apply(Action::StepForward);
    }
    let seen = s.visible_trace().to_vec();
    s.apply(Action::JumpTo(10));
    assert_eq!(s.world().steps(), 10);
    assert_eq!(s.visible_trace(), &seen[..10]);
    s.apply(Action::StepBack);
    assert_eq!(s.world().steps(), 9);
    s.apply(Action::JumpTo(40));
    assert_eq!(s.visible_trace(), &seen[..]);
    s.apply(Action::JumpTo(300));
    assert_eq!(s.world().steps(), 300, "scrubbing past the horizon runs ahead");
    assert_eq!(&s.visible_trace()[..40], &seen[..]);
    s.apply(Action::JumpTo(40));
    s.apply(Action::JumpTo(20));
    s.apply(Action::Fault(Fault::DisconnectWatch));
    assert_eq!(s.trace.len(), 21, "acting in the past starts a new branch");
    assert_eq!(s.current().unwrap().kind, TraceKind::Fault);
    s.apply(Action::Reset);
    assert_eq!(s.world().steps(), 0);
}

#[test]
fn a_branch_cuts_the_trace_the_actions_and_the_console_by_one_rule() {
    let mut s = Session::default();
    s.apply(Action::JumpTo(20));
    s.apply(Action::Kubectl("kubectl get pods".into()));
    s.apply(Action::Fault(Fault::CompactStore));
    s.apply(Action::JumpTo(30));
    s.apply(Action::JumpTo(10));
    // A console line behind the furthest step reached starts a branch at step 10: what the
    // old branch recorded at step 10 or later is forgotten, in every record alike.
    s.apply(Action::Kubectl("kubectl get configmaps".into()));
    assert_eq!((s.history().horizon(), s.trace().len()), (10, 10));
    assert!(s.console().iter().all(|(step, _)| *step == 10), "{:?}", s.console());
    // At the horizon now, a fault at the same step keeps the line typed before it.
    s.apply(Action::Fault(Fault::DisconnectWatch));
    let typed: Vec<&ConsoleLine> =
        s.console().iter().map(|(_, l)| l).filter(|l| matches!(l, ConsoleLine::Typed(_))).collect();
    assert_eq!(typed, [&ConsoleLine::Typed("kubectl get configmaps".into())]);
    let link = s.link();
    assert_eq!(link.actions.iter().map(|(step, _)| *step).collect::<Vec<_>>(), [10, 10]);
    let again = Session::from_link(&link, Vec::new());
    assert_eq!(again.visible_trace(), s.visible_trace(), "the link replays the new branch");
    assert_eq!(again.console_text(Lang::En), s.console_text(Lang::En));
}

#[test]
fn refused_input_behind_the_horizon_keeps_the_branch() {
    let mut s = Session::default();
    s.apply(Action::JumpTo(30));
    s.apply(Action::JumpTo(10));
    let (horizon, trace) = (s.history().horizon(), s.trace().to_vec());
    s.apply(Action::Create("{not json".into()));
    s.apply(Action::Fault(Fault::Latency(crate::limits::MAX_LATENCY_MS + 1)));
    assert!(matches!(s.message(), Some(Message::Failed(_))));
    assert_eq!((s.history().horizon(), s.trace()), (horizon, &trace[..]), "nothing reached the world");
    s.apply(Action::Fault(Fault::CompactStore));
    assert_eq!(s.history().horizon(), 11, "a fault that reaches the world starts a branch");
}

#[test]
fn every_console_line_a_note_offers_runs_where_the_note_shows() {
    let mut offered = 0;
    for lesson in crate::scenario::library::all().unwrap() {
        for era in lesson.declared_eras() {
            let told = lesson.in_era(era).unwrap();
            if told.narration.iter().all(|n| n.offer.is_empty()) {
                continue;
            }
            let trace = crate::scenario::run(&told).unwrap().1;
            for note in told.narration.iter().filter(|n| !n.offer.is_empty()) {
                let step = crate::scenario::find(&note.when, &trace).unwrap();
                let mut s = Session::from_query(&format!("?scenario={}&era={era}", lesson.id));
                s.apply(Action::JumpTo(step));
                for line in &note.offer {
                    s.apply(Action::Kubectl(line.clone()));
                    let out = s.console_text(Lang::En);
                    let answer = &out[out.rfind(&format!("$ {line}")).expect("the line is echoed")..];
                    assert!(!answer.contains("error"), "{} in {era}: {answer}", lesson.id);
                    offered += 1;
                }
            }
        }
    }
    assert!(offered >= 6, "the hands-on commands: {offered}");
}
