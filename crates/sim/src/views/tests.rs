//! The views' tests: what each panel shows of a session.

use super::*;
use crate::session::Action;

#[test]
fn an_objects_row_opens_as_its_manifest() {
    let s = Session::from_query("");
    let (rows, total) = objects(&s, 50);
    assert!(!rows.is_empty() && total >= rows.len());
    for (kind, key, rv) in rows {
        let manifest: serde_json::Value = serde_json::from_str(&manifest(&s, kind, &key).unwrap()).unwrap();
        assert_eq!(manifest["kind"], kind.name());
        assert_eq!(
            format!(
                "{}/{}",
                manifest["metadata"]["namespace"].as_str().unwrap(),
                manifest["metadata"]["name"].as_str().unwrap()
            ),
            key
        );
        assert_eq!(manifest["metadata"]["resourceVersion"], rv.as_str());
    }
    assert_eq!(manifest(&s, Kind::Pod, "default/no-such-pod"), None);
}

#[test]
fn two_releases_advance_together_and_their_differences_are_marked() {
    let mut s = Session::from_query("?scenario=delta-fifo-grouping&compare=1.33");
    let other = s.compared().expect("compared");
    assert_eq!((s.era(), other.era()), (crate::era::Era::V1_30, crate::era::Era::V1_33));
    s.apply(Action::JumpTo(120));
    let other = s.compared().unwrap();
    assert!(other.world().now() <= s.world().now());
    assert!(other.world().next_time().is_none_or(|t| t > s.world().now()), "the other side is at the same instant");
    let view = compare(&s, 200).unwrap();
    let pops = |col: &CompareColumn| col.lines.iter().filter(|l| l.unmatched && l.line.kind == TraceKind::Pop).count();
    assert!(pops(&view.left) >= 1, "1.30's grouped Pop has no counterpart");
    assert!(pops(&view.right) >= 3, "1.33 pops each delta on its own");
    assert_eq!(s.link().compare, Some(crate::era::Era::V1_33));
    s.apply(Action::Fault(crate::world::Fault::DisconnectWatch));
    let other = s.compared().unwrap();
    assert!(other.visible_trace().iter().any(|e| e.kind == TraceKind::Fault), "the fault reaches both releases");
    s.apply(Action::StepBack);
    s.apply(Action::Compare(None));
    assert!(s.compared().is_none());
}

#[test]
fn a_lessons_summary_waits_until_its_question_is_answered() {
    let mut s = Session::with_scenario("disconnect-and-resume").unwrap();
    assert_eq!(lesson(&s).summary, None, "the summary would give the answer away");
    let end = crate::scenario::run(s.scenario().unwrap()).unwrap().1.len() as u64;
    s.apply(Action::JumpTo(end));
    let asked = lesson(&s).questions.len();
    assert!(asked >= 2, "two moments worth predicting: {asked}");
    for i in 0..asked - 1 {
        s.apply(Action::Answer(i, 0));
    }
    assert_eq!(lesson(&s).summary, None, "one question still open");
    s.apply(Action::Answer(asked - 1, 0));
    assert!(lesson(&s).summary.is_some(), "every question answered: the summary shows");
}

#[test]
fn a_lessons_recap_and_questions_for_the_room_come_at_its_end_once_its_question_is_answered() {
    let mut s = Session::with_scenario("resync").unwrap();
    let end = {
        let lesson = s.scenario().unwrap();
        crate::scenario::run(lesson).unwrap().1.len() as u64
    };
    s.apply(Action::JumpTo(end));
    assert!(s.lesson_ended());
    assert_eq!(lesson(&s).closing, None, "the question is not answered yet");
    s.apply(Action::Answer(0, 1));
    let Closing { recap, discuss } = lesson(&s).closing.expect("the end, answered");
    assert!(recap.is_some_and(|r| r.en.contains("not a relist")));
    assert_eq!(discuss.len(), 1, "the article's question on the resync period");
    s.apply(Action::JumpTo(end - 1));
    assert!(!s.lesson_ended() && lesson(&s).closing.is_none(), "one step back, the run is not over");
}

#[test]
fn a_step_changes_only_the_newest_bar_of_the_cost_chart() {
    let mut s = Session::default();
    for n in [30, 39, 400, 401, 1_000] {
        s.apply(Action::JumpTo(n));
        let before = costs(&s, 400, 40);
        s.apply(Action::StepForward);
        let after = costs(&s, 400, 40);
        let trace = s.visible_trace();
        let counted = |v: &CostsView| v.bars.iter().map(|b| b.requests + b.events).sum::<usize>();
        let recent = &trace[trace.len() - after.window..];
        assert_eq!(counted(&after), recent.iter().filter(|e| is_request(e) || is_event(e)).count(), "at {n}");
        assert!(after.bars.len() <= 40 && after.window <= 400 && after.window + 10 > trace.len().min(400), "at {n}");
        assert!(after.bars.windows(2).all(|w| w[1].at == w[0].at + 1), "at {n}: bars in order");
        let kept: Vec<_> = before.bars.iter().filter(|b| after.bars.iter().any(|a| a.at == b.at)).collect();
        let unchanged = kept.iter().filter(|b| after.bars.contains(b)).count();
        assert!(unchanged + 1 >= kept.len(), "at {n}: a step changed more than the newest bar");
    }
}

#[test]
fn views_follow_the_session_and_compare_equal_when_nothing_changed() {
    let mut s = Session::default();
    s.apply(Action::JumpTo(40));
    let before = (log(&s, None, 5), costs(&s, 400, 40), ruler(&s));
    assert_eq!(before, (log(&s, None, 5), costs(&s, 400, 40), ruler(&s)), "the same step, the same views");
    assert_eq!(before.0[0].step, 40);
    s.apply(Action::Inspect(Stage::Fifo));
    assert!(matches!(inspector(&s), InspectorView::Fifos(f) if f.len() == 3 && f[0].queue.name == "RealFIFO"));
    s.apply(Action::StepForward);
    assert_ne!(before.0, log(&s, None, 5), "a step moves the log");
    let english = log(&s, None, 40);
    s.apply(Action::SetLang(Lang::Ko));
    let korean = log(&s, None, 40);
    assert!(english.iter().zip(&korean).any(|(en, ko)| en.summary != ko.summary), "summaries follow the language");
}
