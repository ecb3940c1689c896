//! The command line, as an author runs it.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_informer-playground")).args(args).output().expect("run the binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn help_explains_every_option() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    for option in ["run <SCENARIO", "list", "validate <FILE.json>", "--seed N", "--steps N", "--json", "basic"] {
        assert!(out.contains(option), "help lacks {option}");
    }
}

#[test]
fn semantics_9_run_basic_prints_the_same_trace_twice() {
    let (code, first, _) = run(&["run", "basic", "--seed", "7"]);
    assert_eq!(code, 0);
    let (_, second, _) = run(&["run", "basic", "--seed", "7"]);
    assert_eq!(first, second);
    let lines: Vec<&str> = first.lines().collect();
    assert!(lines[0].starts_with("#1 "));
    assert!(lines
        .iter()
        .any(|l| l.contains("api-server → reflector") && l.contains("DELETED") && l.contains("default/web-2")));
    assert!(lines.iter().any(|l| l.contains("create ConfigMap default/feature-flags")));
}

#[test]
fn json_lines_carry_every_field() {
    let (code, out, _) = run(&["run", "basic", "--era", "1.30", "--json", "--steps", "5"]);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(lines.len(), 5);
    for field in ["step", "time_ms", "from", "to", "kind", "key", "rv", "summary"] {
        assert!(lines[0].get(field).is_some(), "missing {field}");
    }
    assert_eq!(lines[1]["from"], "reflector");
    assert_eq!(lines[1]["to"], "api-server");
    assert_eq!(lines[1]["kind"], "list-request");
}

#[test]
fn bad_arguments_exit_non_zero_with_a_clear_message() {
    for (args, message) in [
        (&["run"][..], "run needs a scenario"),
        (&["run", "nope"][..], "unknown scenario \"nope\""),
        (&["validate"][..], "validate needs a scenario file"),
        (&["run", "basic", "--seed", "x"][..], "--seed takes a whole number, not \"x\""),
        (&["run", "basic", "--steps"][..], "--steps needs a value"),
        (&["run", "basic", "--fast"][..], "unknown option \"--fast\""),
        (&["run", "basic", "--era", "1.31"][..], "--era takes one of 1.30, 1.33, 1.37, not \"1.31\""),
        (&["dance"][..], "unknown command \"dance\""),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn run_scale_converges_and_a_closed_pipe_is_not_an_error() {
    let (code, out, _) = run(&["run", "scale"]);
    assert_eq!(code, 0);
    assert!(out.contains("kubelet: default/web-"));
    assert!(out.lines().last().unwrap().contains("Done(default/web"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_informer-playground"))
        .args(["run", "scale"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Closing our end of the pipe at once: the first write fails.
    child.stdout = None;
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn list_validate_and_run_serve_scenario_authors() {
    let (code, out, _) = run(&["list"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), library_size());
    assert!(out.lines().next().unwrap().starts_with("list-then-watch"));

    let dir = std::env::temp_dir().join(format!("informer-playground-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, include_str!("../static/scenarios/05-disconnect-and-resume.json")).unwrap();
    let (code, out, _) = run(&["validate", good.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with("ok (disconnect-and-resume: 4 narration notes, 2 questions, 1 challenges, 3 expectations)\n"),
        "{out}"
    );

    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"id": "x", "title": {"ko": "", "en": "T"}, "summary": {"ko": "s", "en": "s"}, "run": {"until_ms": 1}}"#,
    )
    .unwrap();
    let (code, _, err) = run(&["validate", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.json: title.ko: expected text in Korean, found none"), "{err}");

    // A lesson whose expectation fails makes `run` exit non-zero.
    let failing = dir.join("failing.json");
    std::fs::write(&failing, r#"{"id": "x", "title": {"ko": "t", "en": "t"}, "summary": {"ko": "s", "en": "s"}, "expect": [{"check": "reconciles", "at_least": 1}], "run": {"until_ms": 100}}"#).unwrap();
    let (code, out, _) = run(&["run", failing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("expect NOT MET: Reconciles"), "{out}");
    // So does a note that claims nothing about its run and does not say why.
    let unclaimed = dir.join("unclaimed.json");
    std::fs::write(&unclaimed, r#"{"id": "x", "title": {"ko": "t", "en": "t"}, "summary": {"ko": "s", "en": "s"}, "narration": [{"match": {"on": "workers start"}, "text": {"ko": "시작합니다.", "en": "It starts."}}], "run": {"until_ms": 100}}"#).unwrap();
    let (code, out, _) = run(&["run", unclaimed.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("claim NOT MET: narration[0] (no claims, and no `claims_none` saying why)"), "{out}");
    let (code, out, _) = run(&["run", "stale-read"]);
    assert_eq!(code, 0);
    assert!(out.contains("expect met: Steps") && out.contains("claim met: narration[0]: "), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// How many lessons the library bundles (one file each).
fn library_size() -> usize {
    informer_sim::scenario::library::FILES.len()
}
