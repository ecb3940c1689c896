//! The scenario library: every bundled lesson loads, runs to its end, meets its expectations,
//! says only what its run shows in each release, speaks both languages, fires every note and
//! question, asks questions worth answering, and matches the published schema.

use informer_sim::scenario::{self, library, Scenario};
use serde_json::Value;

#[test]
fn every_bundled_scenario_runs_and_meets_its_expectations() {
    let all = library::all().expect("every bundled file parses");
    for (file, text) in library::FILES {
        Scenario::parse(file, text).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(all.len() >= 18);
    let mut ids: Vec<&str> = all.iter().map(|s| s.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "ids are unique");
    let mut failures = Vec::new();
    // What any lesson must pass, opened anywhere (`session::verify`): its expectations and
    // claims in every release, its notes and questions coming up, its challenges solved.
    for (file, text) in library::FILES {
        if let Err(problems) = informer_sim::session::verify(file, text) {
            failures.extend(problems.iter().map(ToString::to_string));
        }
    }
    // And what the bundled ones must besides.
    for lesson in all {
        for era in lesson.declared_eras() {
            let s = lesson.in_era(era).expect("a declared era");
            let id = format!("{} in {era}", s.id);
            assert!(!s.expect.is_empty(), "{id}: a lesson states what it shows");
            // Every lesson asks for a prediction (the sandbox is free play).
            if s.id != "sandbox" && s.questions.is_empty() {
                failures.push(format!("{id}: no question"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn error(text: &str) -> String {
    Scenario::parse("lesson.json", text).unwrap_err().to_string()
}

const MINIMAL: &str = r#"{"id": "x", "title": {"ko": "제목", "en": "Title"}, "summary": {"ko": "요약", "en": "Summary"}, "run": {"until_ms": 10}}"#;

#[test]
fn malformed_scenarios_name_the_file_the_field_and_what_was_expected() {
    assert!(Scenario::parse("lesson.json", MINIMAL).is_ok());
    let unknown = MINIMAL.replace(r#""id": "x""#, r#""id": "x", "colour": "red""#);
    assert!(
        error(&unknown).starts_with("lesson.json: colour: unknown field `colour`, expected one of `id`"),
        "{}",
        error(&unknown)
    );
    let no_ko = MINIMAL.replace(r#""ko": "요약""#, r#""ko": """#);
    assert_eq!(error(&no_ko), "lesson.json: summary.ko: expected text in Korean, found none");
    let bad_kind = MINIMAL.replace(r#""run""#, r#""objects": [{"kind": "Widget", "metadata": {"name": "w"}}], "run""#);
    assert_eq!(error(&bad_kind), "lesson.json: objects[0].kind: unknown kind \"Widget\", expected one of Pod, ReplicaSet, Deployment, ConfigMap, Secret");
    let bad_type = MINIMAL.replace(r#""until_ms": 10"#, r#""until_ms": "soon""#);
    assert!(
        error(&bad_type).starts_with("lesson.json: run.until_ms: invalid type: string \"soon\", expected u64"),
        "{}",
        error(&bad_type)
    );
    let bad_fault =
        MINIMAL.replace(r#""run""#, r#""timeline": [{"at_ms": 5, "do": "fault", "fault": "meteor"}], "run""#);
    // (Inside a tagged entry the reader names the entry, and the line and column.)
    assert!(
        error(&bad_fault)
            .starts_with("lesson.json: timeline[0]: unknown fault \"meteor\", expected one of disconnect-watch"),
        "{}",
        error(&bad_fault)
    );
    let one_choice = MINIMAL.replace(
        r#""run""#,
        r#""questions": [{"match": {"at_step": 1}, "ask": {"ko": "?", "en": "?"}, "choices": [{"ko": "a", "en": "a"}], "answer": 0, "explain": {"ko": "e", "en": "e"}}], "run""#,
    );
    assert_eq!(error(&one_choice), "lesson.json: questions[0].choices: expected 2 to 4 choices, found 1");
    let backwards = MINIMAL.replace(
        r#""run""#,
        r#""timeline": [{"at_ms": 5, "do": "latency", "ms": 9}, {"at_ms": 1, "do": "latency", "ms": 9}], "run""#,
    );
    assert_eq!(
        error(&backwards),
        "lesson.json: timeline[1].at_ms: expected 5 or later (the timeline is in time order), found 1"
    );
    assert!(error("{").starts_with("lesson.json: EOF while parsing an object at line 1 column 1"));
}

fn with_expect(check: &str) -> String {
    MINIMAL.replace(r#""run""#, &format!(r#""expect": [{check}], "run""#))
}

#[test]
fn checks_that_could_never_fail_or_mean_something_else_are_refused() {
    assert_eq!(
        error(&with_expect(r#"{"check": "requests", "verb": "LSIT", "at_most": 1}"#)),
        "lesson.json: expect[0]: unknown verb \"LSIT\", expected one of GET, LIST, WATCH, POST, PUT, PATCH, DELETE at line 1 column 163"
    );
    assert_eq!(
        error(&with_expect(r#"{"check": "reconciles"}"#)),
        "lesson.json: expect[0]: expected `at_least` and/or `at_most`: a check without a bound cannot fail"
    );
    assert!(error(&with_expect(r#"{"check": "steps", "match": {"on": "Pop"}, "at_least": 3, "at_most": 1}"#))
        .contains("no run can meet it"));
    assert!(error(&with_expect(r#"{"check": "count", "kind": "Pdo", "equals": 1}"#))
        .starts_with("lesson.json: expect[0]: unknown kind \"Pdo\""));
    assert!(
        error(&with_expect(r#"{"check": "cache-get", "kind": "pod", "name": "x"}"#))
            .starts_with("lesson.json: expect[0]: unknown kind \"pod\""),
        "kinds are spelled exactly"
    );
    assert!(
        error(&with_expect(r#"{"check": "cache-list", "labels": "app in (((", "found": 1}"#))
            .starts_with("lesson.json: expect[0].labels: unable to parse requirement"),
        "{}",
        error(&with_expect(r#"{"check": "cache-list", "labels": "app in (((", "found": 1}"#))
    );
    assert!(error(&with_expect(r#"{"check": "cache-list", "field": "spec.nodeName"}"#))
        .contains("both `field` and `value`"));
    assert!(error(&with_expect(r#"{"check": "cache-list", "labels": "app=web"}"#)).contains("cannot fail"));
    assert!(
        error(&with_expect(r#"{"check": "steps", "match": {"nth": 2}, "at_least": 1}"#)).contains("to say which step")
    );
    assert!(error(&with_expect(r#"{"check": "steps", "match": {"on": "Popp"}, "at_least": 1}"#))
        .contains("expect[0]: unknown kind of step \"Popp\", expected one of LIST request"));
    // Outside a tagged entry the path goes down to the field.
    let narrated = MINIMAL.replace(
        r#""run""#,
        r#""narration": [{"match": {"from": "reflectr"}, "text": {"ko": "가", "en": "a"}}], "run""#,
    );
    assert!(
        error(&narrated).starts_with("lesson.json: narration[0].match.from: unknown variant `reflectr`"),
        "{}",
        error(&narrated)
    );
    assert!(error(&with_expect(r#"{"check": "steps", "match": {"tag": "dedup"}, "at_least": 1}"#))
        .contains("unknown variant `dedup`"));
    assert!(error(&with_expect(r#"{"check": "log-contains", "text": " "}"#)).contains("would match every line"));
}

/// Checks a value against the subset of JSON Schema the published schema uses: `type` (one or
/// several), `properties`, `required`, `additionalProperties: false`, `items`, `enum`,
/// `const`, `minItems`, `maxItems`, `minimum`, `maximum`, `oneOf`, `anyOf`, `$ref` to
/// `#/$defs/…`.
fn validate(schema: &Value, root: &Value, value: &Value, path: &str) -> Result<(), String> {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.trim_start_matches("#/$defs/");
        return validate(&root["$defs"][name], root, value, path);
    }
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let passing = options.iter().filter(|s| validate(s, root, value, path).is_ok()).count();
        return if passing == 1 { Ok(()) } else { Err(format!("{path}: matches {passing} of oneOf")) };
    }
    if let Some(options) = schema.get("anyOf").and_then(Value::as_array) {
        if !options.iter().any(|s| validate(s, root, value, path).is_ok()) {
            return Err(format!("{path}: matches none of anyOf"));
        }
    }
    if let Some(constant) = schema.get("const") {
        if value != constant {
            return Err(format!("{path}: {value} is not {constant}"));
        }
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let is = |t: &str| match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    };
    if !types.is_empty() && !types.iter().any(|t| is(t)) {
        return Err(format!("{path}: expected {types:?}"));
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            return Err(format!("{path}: {value} not in enum"));
        }
    }
    if let (Some(min), Some(n)) = (schema.get("minimum").and_then(Value::as_f64), value.as_f64()) {
        if n < min {
            return Err(format!("{path}: below minimum"));
        }
    }
    if let (Some(max), Some(n)) = (schema.get("maximum").and_then(Value::as_f64), value.as_f64()) {
        if n > max {
            return Err(format!("{path}: above maximum"));
        }
    }
    if let Some(obj) = value.as_object() {
        for req in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
            let key = req.as_str().unwrap_or_default();
            if !obj.contains_key(key) {
                return Err(format!("{path}: missing {key}"));
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (k, v) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => validate(s, root, v, &format!("{path}.{k}"))?,
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    return Err(format!("{path}: unexpected {k}"))
                }
                None => {}
            }
        }
    }
    if let Some(items) = value.as_array() {
        let len = items.len() as u64;
        if schema.get("minItems").and_then(Value::as_u64).is_some_and(|m| len < m)
            || schema.get("maxItems").and_then(Value::as_u64).is_some_and(|m| len > m)
        {
            return Err(format!("{path}: {len} items"));
        }
        if let Some(item_schema) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                validate(item_schema, root, item, &format!("{path}[{i}]"))?;
            }
        }
    }
    Ok(())
}

#[test]
fn the_published_schema_is_the_one_derived_from_the_format() {
    assert!(
        include_str!("../../../static/scenarios/schema.json") == scenario::schema(),
        "static/scenarios/schema.json is stale: run `cargo run -- schema > static/scenarios/schema.json`"
    );
}

#[test]
fn the_published_schema_validates_every_bundled_file() {
    let schema: Value =
        serde_json::from_str(include_str!("../../../static/scenarios/schema.json")).expect("the schema is JSON");
    for (file, text) in library::FILES {
        let value: Value = serde_json::from_str(text).unwrap();
        validate(&schema, &schema, &value, file).unwrap_or_else(|e| panic!("{e}"));
    }
    let bad: Value = serde_json::from_str(&MINIMAL.replace(r#""id": "x""#, r#""id": "x", "colour": "red""#)).unwrap();
    assert!(validate(&schema, &schema, &bad, "bad").is_err(), "the schema refuses unknown fields too");
}

#[test]
fn validate_refuses_every_file_that_run_cannot_run() {
    let with = |field: &str| MINIMAL.replace(r#""run": {"until_ms": 10}"#, field);
    let cases = [
        (with(r#""load_pods": 4294967296, "run": {"until_ms": 10}"#), "load_pods: expected at most 50000"),
        (
            with(r#""config": {"max_concurrent": 4294967296}, "run": {"until_ms": 10}"#),
            "config.max_concurrent: expected at most 64",
        ),
        (
            with(r#""config": {"max_concurrent": 0}, "run": {"until_ms": 10}"#),
            "config.max_concurrent: expected at least 1",
        ),
        (
            with(r#""config": {"poll_every_ms": 0}, "run": {"until_ms": 10}"#),
            "config.poll_every_ms: expected at least 100",
        ),
        (with(r#""run": {"until_ms": 18446744073709551615}"#), "run.until_ms: expected at most"),
        (
            with(
                r#""timeline": [{"at_ms": 1, "do": "scale", "kind": "Deployment", "name": "web", "replicas": -1}], "run": {"until_ms": 10}"#,
            ),
            "timeline[0].replicas: expected 0 or more",
        ),
        (
            with(
                r#""timeline": [{"at_ms": 1, "do": "scale", "kind": "Deployment", "name": "web", "replicas": 1000000}], "run": {"until_ms": 10}"#,
            ),
            "timeline[0].replicas: expected at most 1000",
        ),
        (
            with(r#""timeline": [{"at_ms": 1, "do": "latency", "ms": 18446744073709551615}], "run": {"until_ms": 10}"#),
            "timeline[0].ms: expected at most 60000",
        ),
        (
            with(
                r#""objects": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}], "run": {"until_ms": 10}"#,
            ),
            r#"configmaps "a" already exists"#,
        ),
        (
            with(
                r#""objects": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Bad_Name"}}], "run": {"until_ms": 10}"#,
            ),
            "is invalid: metadata.name",
        ),
        (
            with(
                r#""objects": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "resourceVersion": "5"}}], "run": {"until_ms": 10}"#,
            ),
            "resourceVersion should not be set",
        ),
        (
            with(
                r#""objects": [{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 1000000}}], "run": {"until_ms": 10}"#,
            ),
            "spec.replicas 1000000 is more than the playground runs",
        ),
    ];
    for (text, want) in cases {
        let e = error(&text);
        assert!(e.contains(want), "expected {want:?} in {e:?}");
    }
}

#[test]
fn a_lesson_runs_in_the_eras_it_declares_with_what_each_adds() {
    use informer_sim::era::Era;
    let one = Scenario::parse("lesson.json", &MINIMAL.replace(r#""run""#, r#""era": "1.30", "run""#)).unwrap();
    assert_eq!(one.declared_eras(), vec![Era::V1_30]);
    assert!(one.in_era(Era::V1_37).is_none(), "told in 1.30 only");
    let two = MINIMAL.replace(
        r#""run""#,
        r#""era": "1.30", "eras": {"1.37": {"expect": [{"check": "requests", "verb": "LIST", "at_most": 0}]}}, "run""#,
    );
    let two = Scenario::parse("lesson.json", &two).unwrap();
    assert_eq!(two.declared_eras(), vec![Era::V1_30, Era::V1_37]);
    assert!(two.in_era(Era::V1_30).unwrap().expect.is_empty());
    assert_eq!(two.in_era(Era::V1_37).unwrap().expect.len(), 1, "the 1.37 part adds its expectation");
    let bad = MINIMAL.replace(r#""run""#, r#""eras": {"1.31": {}}, "run""#);
    assert!(
        error(&bad)
            .starts_with("lesson.json: eras.1.31: unknown variant `1.31`, expected one of `1.30`, `1.33`, `1.37`"),
        "{}",
        error(&bad)
    );
    let bad_part = MINIMAL.replace(
        r#""run""#,
        r#""eras": {"1.33": {"narration": [{"match": {"on": "nope"}, "text": {"ko": "x", "en": "x"}}]}}, "run""#,
    );
    assert!(
        error(&bad_part).starts_with(r#"lesson.json: eras.1.33.narration[0].match.on: unknown kind of step "nope""#),
        "{}",
        error(&bad_part)
    );
}

/// Lesson 16's point is memory: the scope must keep most of the cluster's Pods out of the
/// cache, and the Costs panel's figures must show it.
#[test]
fn the_cache_scope_lesson_keeps_two_of_two_thousand_pods_in_memory_in_every_era() {
    use informer_sim::cluster::Kind;
    let lesson = library::find("cache-scope").unwrap();
    for era in lesson.declared_eras() {
        let (world, _, _) = scenario::run(&lesson.in_era(era).unwrap()).unwrap();
        let costs = world.costs();
        let (kind, cached, cached_bytes) = costs.cached[0];
        assert_eq!((kind, cached), (Kind::Pod, 2), "{era}: web-1 and web-2");
        assert_eq!(costs.in_cluster.len(), 1, "{era}: the scoped informer's kind in the cluster");
        let (kind, stored, stored_bytes) = costs.in_cluster[0];
        assert_eq!((kind, stored), (Kind::Pod, 2_005), "{era}: 2,000 load Pods, 3 batch, 2 web");
        assert!(stored_bytes > 500 * cached_bytes, "{era}: {cached_bytes} bytes cached of {stored_bytes}");
    }
}

#[test]
fn the_built_in_lessons_are_the_published_files_without_whitespace() {
    for (file, built) in library::FILES {
        let published =
            std::fs::read_to_string(format!("{}/../../static/scenarios/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let (a, b): (Value, Value) = (serde_json::from_str(built).unwrap(), serde_json::from_str(&published).unwrap());
        assert_eq!(a, b, "{file}: the same JSON");
        assert!(built.len() < published.len() && !built.contains("\n "), "{file}: compacted");
    }
}

/// Play's default speed (steps a second) and the time a lesson may take at it.
const DEFAULT_PLAY_SPEED: u64 = 4;
const WORKSHOP_MINUTES: u64 = 10;

#[test]
fn every_lesson_played_at_the_default_speed_ends_within_ten_minutes_and_stops_on_each_note_and_question() {
    use informer_sim::session::{Action, Session};
    let mut report = Vec::new();
    for lesson in library::all().expect("lessons") {
        let (_, trace, _) = scenario::run(lesson).expect("runs");
        let end = trace.len() as u64;
        // The steps where a note shows or a question is asked.
        let whens = lesson.narration.iter().map(|n| &n.when).chain(lesson.questions.iter().map(|q| &q.when));
        let notes: Vec<u64> = whens.filter_map(|when| scenario::find(when, &trace)).collect();
        let mut s = Session::from_query(&format!("?scenario={}", lesson.id));
        let (mut ticks, mut jumps, mut landed) = (0u64, 0u64, Vec::new());
        while s.world().steps() < end && ticks < 100_000 {
            let before = s.world().steps();
            s.apply(Action::PlayTick);
            ticks += 1;
            if let Some(jump) = s.jump() {
                jumps += 1;
                assert_eq!(
                    (jump.from, jump.to),
                    (before, s.world().steps()),
                    "{}: the jump names its steps",
                    lesson.id
                );
                assert_eq!(jump.skipped(), jump.to - jump.from - 1, "{}: every skipped step is counted", lesson.id);
                assert!(
                    !notes.iter().any(|n| *n > jump.from && *n < jump.to),
                    "{}: a jump from {} to {} passed over a note or a question",
                    lesson.id,
                    jump.from,
                    jump.to
                );
            }
            landed.push(s.world().steps());
            assert!(s.world().steps() > before, "{}: Play moved at step {before}", lesson.id);
        }
        for n in notes.iter().filter(|n| **n <= end) {
            assert!(landed.contains(n), "{}: Play never showed the note or question of step {n}", lesson.id);
        }
        let seconds = ticks / DEFAULT_PLAY_SPEED;
        report.push(format!(
            "{} {end} steps: {ticks} ticks ({jumps} jumps), {}m{:02}s",
            lesson.id,
            seconds / 60,
            seconds % 60
        ));
        assert!(
            seconds <= WORKSHOP_MINUTES * 60,
            "{}: {ticks} ticks take {seconds} s at Play's default speed",
            lesson.id
        );
    }
    println!("{}", report.join("\n"));
}

/// One guide for the page and the docs: it names every lesson once, in the part it belongs
/// to, and `docs/facilitator-guide.md` is what `informer-playground guide` writes from it.
#[test]
fn the_facilitators_guide_names_every_lesson_once_and_the_docs_are_written_from_it() {
    use informer_sim::scenario::guide;
    let guide = guide::bundled().unwrap();
    assert_eq!(guide::problems(&guide), Vec::<String>::new());
    assert!(guide.parts.iter().filter(|p| !p.extra).count() == 2, "two parts, one per article");
    assert!(guide.minutes() <= 120, "the articles' lessons fit in two hours: {} minutes", guide.minutes());
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/facilitator-guide.md")).unwrap();
    assert!(
        docs == guide::markdown(&guide),
        "docs/facilitator-guide.md is out of date: run `cargo run -q -- guide > docs/facilitator-guide.md`"
    );
    let handout = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/handout.html")).unwrap();
    assert!(
        handout == guide::handout(&guide),
        "www/handout.html is out of date: run `cargo run -q -- handout > www/handout.html`"
    );
    for erratum in ["64-bit", "CacheSyncTimeout", "SyncPeriod", "sendInitialEvents=true"] {
        assert!(handout.contains(erratum), "the handout lists the articles' errata: {erratum}");
    }
    let mut broken = guide.clone();
    let first = broken.parts[0].lessons[0].clone();
    broken.parts[0].lessons.push(first.clone());
    let left_out = std::mem::replace(&mut broken.parts[1].lessons[0].id, "no-such-lesson".into());
    assert_eq!(
        guide::problems(&broken),
        vec![
            format!("{}: named twice", first.id),
            "no-such-lesson: no such lesson".to_string(),
            format!("{left_out}: not in the guide")
        ]
    );
}

/// Questions worth answering, in each release: three choices or more, the right one not
/// where a guess would look (no position right in more than 40 % of the questions, the longest
/// choice right in at most a third, in either language), and some lessons asking twice.
#[test]
fn the_questions_of_each_release_make_a_room_think() {
    let all = library::all().unwrap();
    for era in informer_sim::era::Era::ALL {
        let told: Vec<Scenario> = all.iter().filter_map(|lesson| lesson.in_era(era)).collect();
        let questions: Vec<(&str, &scenario::format::Question)> =
            told.iter().flat_map(|s| s.questions.iter().map(move |q| (s.id.as_str(), q))).collect();
        let n = questions.len();
        assert!(n >= told.len() - 1, "{era}: a question in every lesson but the sandbox");
        for (id, q) in &questions {
            assert!(q.choices.len() >= 3, "{era} {id}: {} choices: {:?}", q.choices.len(), q.ask.en);
        }
        for position in 0..4 {
            let right = questions.iter().filter(|(_, q)| q.answer == position).count();
            assert!(right * 5 <= n * 2, "{era}: choice {} is right in {right} of {n} questions", position + 1);
        }
        for lang in [scenario::Lang::En, scenario::Lang::Ko] {
            let longest_right = questions
                .iter()
                .filter(|(_, q)| {
                    let length = |t: &scenario::Text| t.get(lang).chars().count();
                    let right = length(&q.choices[q.answer]);
                    q.choices.iter().enumerate().all(|(i, c)| i == q.answer || length(c) < right)
                })
                .count();
            assert!(longest_right * 3 <= n, "{era} {lang:?}: the longest choice is right in {longest_right} of {n}");
        }
        let asking_twice = told.iter().filter(|s| s.questions.len() >= 2).count();
        assert!(asking_twice >= 2, "{era}: {asking_twice} lessons ask at the two moments worth predicting");
    }
}

/// A claim a text makes that its run does not show is found: lesson 06 in 1.37 relists
/// through a streaming WATCH, so a note saying "it LISTs again" there fails the check.
#[test]
fn a_text_claiming_what_its_run_does_not_show_is_found() {
    let lesson = library::find("compaction-410-relist").unwrap();
    let mut told = lesson.in_era(informer_sim::era::Era::V1_37).unwrap();
    let (world, trace, _) = scenario::run(&told).unwrap();
    assert!(scenario::judge_claims(&told, &world, &trace).iter().all(|v| v.met), "as bundled, every claim holds");
    told.narration[0].claims = vec![scenario::Expectation::Requests {
        verb: scenario::format::MetricVerb(informer_sim::cluster::Verb::List),
        at_least: Some(1),
        at_most: None,
    }];
    told.narration[0].claims_none = None;
    let verdicts = scenario::judge_claims(&told, &world, &trace);
    let broken: Vec<_> = verdicts.iter().filter(|v| !v.met).collect();
    assert_eq!(broken.len(), 1, "{verdicts:?}");
    assert!(broken[0].expectation.starts_with("narration[0]: Requests"), "{}", broken[0].expectation);
    told.narration[0].claims.clear();
    assert!(scenario::judge_claims(&told, &world, &trace).iter().any(|v| !v.met && v.detail.contains("claims_none")));
}

/// The points a review of the lessons found their runs did not show, each checked by name in
/// the releases it concerns (the lessons' own claims say the same; these keep the items
/// listed in one place).
#[test]
fn the_reviewed_lessons_show_their_point_in_each_release() {
    use informer_sim::era::Era::{V1_30, V1_33, V1_37};
    let items: &[(&str, &str, &[informer_sim::era::Era], &str)] = &[
        (
            "01: the list's RV (6) is not the newest Pod's (4)",
            "list-then-watch",
            &[V1_30, V1_33],
            r#"{"check": "steps", "match": {"on": "LIST response", "rv": 6}, "at_least": 1}"#,
        ),
        (
            "01: the watch-list ends its initial events at 6",
            "list-then-watch",
            &[V1_37],
            r#"{"check": "steps", "match": {"on": "BOOKMARK", "tag": "initial-events-end", "rv": 6}, "at_least": 1}"#,
        ),
        (
            "02: the Pod is created between the poller's ticks: the watch delivers it first",
            "polling-vs-watch",
            &[V1_30, V1_33, V1_37],
            r#"{"check": "steps", "match": {"on": "LIST request", "from": "poller", "rv": 5002, "after": {"on": "ADDED", "key": "default/web-1"}}, "at_least": 1}"#,
        ),
        (
            "04: the ReplicaSet controller, not the Deployment's, creates the Pods",
            "spec-and-status",
            &[V1_30, V1_33, V1_37],
            r#"{"check": "steps", "match": {"on": "API write", "from": "reconciler", "key": "default/web-6c8d7489d5"}, "at_least": 1}"#,
        ),
        (
            "06: 1.37 re-lists by a watch-list, no LIST",
            "compaction-410-relist",
            &[V1_37],
            r#"{"check": "requests", "verb": "LIST", "at_most": 0}"#,
        ),
        (
            "06: 1.30 and 1.33 LIST again after the 410",
            "compaction-410-relist",
            &[V1_30, V1_33],
            r#"{"check": "steps", "match": {"on": "LIST request", "after": {"on": "ERROR", "code": 410}}, "at_least": 1}"#,
        ),
        (
            "11: a key added while it waits in the queue is deduplicated",
            "workqueue-dedup",
            &[V1_30, V1_33, V1_37],
            r#"{"check": "steps", "match": {"tag": "deduplicated"}, "at_least": 1}"#,
        ),
        (
            "14: 1.37 resyncs with one SyncAll, not a Sync per object",
            "resync",
            &[V1_37],
            r#"{"check": "steps", "match": {"on": "Pop", "deltas": ["Sync"]}, "at_most": 0}"#,
        ),
        (
            "14: 1.30 and 1.33 resync with a Sync per object",
            "resync",
            &[V1_30, V1_33],
            r#"{"check": "steps", "match": {"on": "Pop", "deltas": ["Sync"]}, "at_least": 1}"#,
        ),
        (
            "15: a label List finds 200 and examines 20,000",
            "field-index",
            &[V1_30, V1_33, V1_37],
            r#"{"check": "cache-list", "labels": "app=web", "found": 200, "examined_at_least": 20000}"#,
        ),
        (
            "18: 1.37's empty start is a bookmark, not a LIST",
            "sandbox",
            &[V1_37],
            r#"{"check": "steps", "match": {"on": "BOOKMARK", "tag": "initial-events-end", "rv": 1}, "at_least": 1}"#,
        ),
        (
            "19: 1.37 resyncs with one SyncAll",
            "level-triggered-heals",
            &[V1_37],
            r#"{"check": "steps", "match": {"on": "Pop", "deltas": ["SyncAll"]}, "at_least": 1}"#,
        ),
    ];
    let mut failures = Vec::new();
    for (item, id, eras, check) in items {
        let check: scenario::Expectation = serde_json::from_str(check).unwrap_or_else(|e| panic!("{item}: {e}"));
        for era in *eras {
            let mut told = library::find(id).unwrap().in_era(*era).unwrap();
            told.expect = vec![check.clone()];
            let (_, _, verdicts) = scenario::run(&told).unwrap();
            if !verdicts[0].met {
                failures.push(format!("{item}, in {era}: {}", verdicts[0].detail));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A release's own title where the lesson's would be false there: the picker shows it.
    let lesson = library::find("compaction-410-relist").unwrap();
    assert_ne!(lesson.title_in(V1_37).en, lesson.title_in(V1_30).en, "06's title names a LIST only where there is one");
}

/// Every bundled challenge, in every release its lesson runs in: the lesson alone does not
/// meet its goal, its solution does; each part of the guide has one.
#[test]
fn every_challenge_is_solved_by_its_solution_and_not_by_the_lesson_alone() {
    let mut problems = Vec::new();
    let mut lessons_with_challenges = Vec::new();
    for head in library::index() {
        let lesson = library::find(head.id).unwrap();
        problems.extend(informer_sim::session::challenge_problems(lesson));
        if !lesson.challenges.is_empty() {
            lessons_with_challenges.push(lesson.id.clone());
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let guide = informer_sim::scenario::guide::bundled().unwrap();
    for part in &guide.parts {
        assert!(
            part.lessons.iter().any(|l| lessons_with_challenges.contains(&l.id)),
            "the part {:?} has no lesson with a challenge",
            part.title.en
        );
    }
}

/// The checks can fail: a goal the lesson meets alone, a solution that falls short and a move
/// the console refuses are each found.
#[test]
fn a_challenge_met_without_moves_or_not_met_by_its_solution_is_refused() {
    let lesson = library::find("disconnect-and-resume").unwrap().clone();
    let problems_with = |edit: &dyn Fn(&mut informer_sim::scenario::format::Challenge)| {
        let mut broken = lesson.clone();
        edit(&mut broken.challenges[0]);
        informer_sim::session::challenge_problems(&broken).join("\n")
    };
    assert_eq!(problems_with(&|_| {}), "", "as bundled");
    let met_alone = problems_with(&|c| c.goal = vec![scenario::Expectation::CacheMatchesStore]);
    assert!(met_alone.contains("meets the goal without a move"), "{met_alone}");
    let short = problems_with(&|c| c.solution.truncate(1));
    assert!(short.contains("the solution does not meet the goal") && short.contains("CacheGet"), "{short}");
    let refused = problems_with(&|c| c.solution[1].console = Some("kubectl create configmap e".into()));
    assert!(refused.contains("is refused: error: must specify -f -"), "{refused}");
}

/// The embed loader's posters and lessons' index in `www/posters/` are what `posters` makes
/// now: every lesson's opening, in each language and theme, and nothing else.
#[test]
fn the_published_posters_are_the_ones_the_lessons_make() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/posters");
    let made = informer_sim::views::poster::openings().unwrap();
    for (name, text) in &made {
        let published = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        assert!(published == *text, "www/posters/{name} is stale: run `cargo run -- posters www/posters`");
    }
    let mut published: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let mut names: Vec<String> = made.into_iter().map(|(name, _)| name).collect();
    published.sort();
    names.sort();
    assert_eq!(published, names, "www/posters holds exactly what `posters` writes");
}

/// Lesson 05 (three releases, notes with claims, a question, a challenge) with `change` made
/// to its JSON, as an author outside might have written it.
fn lesson_05_with(change: impl FnOnce(&mut Value)) -> String {
    let text = library::FILES.iter().find(|(file, _)| file.starts_with("05-")).expect("lesson 05").1;
    let mut json: Value = serde_json::from_str(text).unwrap();
    json["id"] = "my-copy".into();
    change(&mut json);
    json.to_string()
}

fn reasons(text: &str) -> Vec<String> {
    informer_sim::session::verify("mine.json", text)
        .map(|_| Vec::new())
        .unwrap_or_else(|e| e.iter().map(ToString::to_string).collect())
}

#[test]
fn verify_refuses_a_lesson_with_every_reason_named_by_its_field_and_release() {
    assert_eq!(reasons(&lesson_05_with(|_| {})), Vec::<String>::new(), "the copy as it is plays");
    let huge = lesson_05_with(|j| j["summary"]["en"] = "x".repeat(5 << 20).into());
    assert_eq!(reasons(&huge), [format!("mine.json: the file is {} bytes; a lesson is at most 262144", huge.len())]);
    let html = lesson_05_with(|j| j["narration"][1]["text"]["en"] = "The <b>cache</b> keeps `<none>`".into());
    assert_eq!(
        reasons(&html),
        ["mine.json: narration[1].text.en: expected plain text (it is shown as text, code between backticks), found markup \"<b>\""]
    );
    // A claim the run does not bear out, in every release.
    let false_claim = lesson_05_with(|j| {
        j["narration"][0]["claims"][0]["at_least"] = 3.into();
        j["narration"][0]["claims"][0]["at_most"] = 3.into();
    });
    let found = reasons(&false_claim);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].starts_with("mine.json: narration[0]: in 1.30: a claim is not met: "), "{found:?}");
    // A note only one release has that never shows there: named by its place in the file.
    let never = lesson_05_with(|j| {
        j["eras"]["1.33"]["narration"] = serde_json::json!([{"match": {"on": "Replace", "nth": 2}, "text": {"ko": "다시 LIST", "en": "A relist"}, "claims_none": "a note"}]);
    });
    assert_eq!(
        reasons(&never),
        ["mine.json: eras.1.33.narration[0].match: in 1.33: no step of the run matches it: the note never shows"]
    );
    // A challenge its solution no longer solves.
    let unsolved = lesson_05_with(|j| j["challenges"][0]["solution"].as_array_mut().unwrap().truncate(1));
    let found = reasons(&unsolved);
    assert!(!found.is_empty() && found.iter().all(|r| r.contains("the solution does not meet the goal")), "{found:?}");
}
