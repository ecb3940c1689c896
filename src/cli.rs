//! The command line: runs the simulation headless and prints its trace.

use informer_sim::era::Era;
use informer_sim::i18n::{self, Lang};
use informer_sim::scenario::{self, Scenario};
use informer_sim::session::link::Theme;
use informer_sim::world::fast_forward;
use informer_sim::world::{self, TraceEvent, World};

/// Reads and checks a scenario file.
fn load_file(path: &str) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    Scenario::parse(path, &text).map_err(|e| e.to_string())
}

const HELP: &str = "informer-playground — the Kubernetes list-watch machinery, step by step

USAGE:
    informer-playground run <SCENARIO | FILE.json> [--era 1.30|1.33|1.37] [--seed N] [--steps N] [--json]
                                                 [--fast-forward]
    informer-playground list
    informer-playground validate <FILE.json>
    informer-playground schema
    informer-playground guide
    informer-playground handout
    informer-playground poster <LESSON> [--step N] [--lang ko|en] [--theme light|dark]
    informer-playground posters <DIR>
    informer-playground swarm (--seed N [--trace | --plan] | --seeds N [--from M])
    informer-playground serve-api [--scenario S] [--era E] [--seed N] [--address A] [--port P]
                                  [--speed X] [--kubeconfig FILE] [--record FILE] [--json] [--quiet]
                                  [--page-port P] [--dist DIR]
    informer-playground room [--dist DIR] [--journal FILE] [--address A] [--port P]
    informer-playground help

COMMANDS:
    run         Run a scenario headless: print its trace, one line per step, then whether each
                of its expectations and each claim its texts make was met (exit code 1 when
                one was not). --fast-forward
                prints a bulk phase (thousands of steps of the same few kinds) as one line
                naming what it passed over
    list        Print every bundled scenario's id and title
    validate    Check a scenario file against the format, with precise messages, and
                play its challenges: each solution meets its goal, the lesson alone does not
    schema      Print the JSON Schema of a scenario file (derived from the format's types)
    guide       Print the facilitator's guide (docs/facilitator-guide.md) from static/guide.json
    handout     Print the printable handout (www/handout.html): the pipeline per release, the
                numbers with their sources, the articles' errata, the lessons' QR codes
    poster      Print an embed's poster of a lesson at a step (SVG): name it in the embed's
                data-poster
    posters     Write every lesson's opening poster, in each language and theme, and the
                lessons' index the embed loader reads (www/posters/)
    swarm       Random worlds under every fault, invariants checked at every step: one seed
                (with --trace, every step; with --plan, its world and schedule, not run) or many; a
                failure prints its shrunk schedule
    serve-api   Serve the cluster over HTTP as kube-apiserver does, in real time, and write a
                kubeconfig (contexts for the administrator and the controller's service
                account): point kubectl, client-go or the Python client at it. Each request is a
                step of the printed trace. Faults on standard input, one a line
                (compact-store, restart-api-server, disconnect-watch, revoke-list, grant-list,
                revoke-watch, grant-watch, drop-next-event, latency <ms>), or
                POST /playground/faults with {\"fault\": \"compact-store\"}. Defaults: the sandbox lesson,
                127.0.0.1:6443, speed 1 (virtual ms per real ms), ./playground.kubeconfig.
                Live mode: the page (from --dist, default ./dist) and its feed on a loopback
                http port (--page-port, default any free one); the link printed at the start
                carries this start's token. Pause, step and faults from the page reach the
                clients
    room        Serve a workshop room: the release bundle (default ./dist) and the room's API on
                this machine's network address (port 8090), and print the attendees', the
                projector's and the facilitator's links (the last with a key drawn at this
                start). With --journal the room is kept in FILE and comes back from it
    help        Print this help

SCENARIOS:
    Any id that `list` prints, a scenario file, or one of the built-in runs:
    basic       Three Pods and a ConfigMap, one Pod informer and one controller, writes over
                six seconds
    scale       A Deployment-style controller and a kubelet; the Deployment is scaled from 3
                to 5 replicas at 5 s and to 2 at 10 s
    bare        An API server alone, as a kube-apiserver without controllers or kubelet: an
                empty store; the service accounts judge/reader (get, list, watch), judge/watcher
                (watch only) and judge/nobody on ConfigMaps, Pods and Secrets
    swarm:N     Swarm seed N's world and script of writes and server-side faults (what a real
                client beside serve-api shares; lost notifications and latency left out)

OPTIONS:
    --era E     The Kubernetes release to run in: 1.30, 1.33 or 1.37 (the current release);
                default: the scenario's own era, else 1.37
    --seed N    Seed of the random source (backoff jitter, watch timeouts); default 1
    --steps N   Stop after N steps; default: run until the pipeline is idle (at most 100000)
    --json      One JSON object per step: step, time_ms, from, to, kind, key, rv, outcome
                (typed, with its tags' facts) and summary
";

/// Why a command did not succeed; each says which exit code it is and how it is told.
#[derive(Debug, PartialEq, Eq)]
pub enum CliError {
    /// The command line is wrong: told with a pointer to the help; exit code 2.
    Usage(String),
    /// What the command needs could not be had (the bundled lessons, the guide); exit code 2.
    Broken(String),
    /// The command ran and its answer is no — an expectation not met, a file that is not a
    /// valid lesson, a swarm seed whose invariants failed, a server that could not serve: exit
    /// code 1, with what failed (or nothing more, when the run already printed it).
    No(Option<String>),
}

impl CliError {
    pub fn exit_code(&self) -> std::process::ExitCode {
        std::process::ExitCode::from(match self {
            CliError::Usage(_) | CliError::Broken(_) => 2,
            CliError::No(_) => 1,
        })
    }

    /// What standard error says.
    pub fn report(&self) -> Option<String> {
        match self {
            CliError::Usage(why) => Some(format!("error: {why}\n\nRun `informer-playground help` for usage.")),
            CliError::Broken(why) | CliError::No(Some(why)) => Some(format!("error: {why}")),
            CliError::No(None) => None,
        }
    }
}

/// Runs one command line.
pub fn run(args: Vec<String>) -> Result<(), CliError> {
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            Ok(())
        }
        Some("run") => match RunArgs::parse(&args[1..]).map_err(CliError::Usage)?.execute().map_err(CliError::Usage)? {
            true => Ok(()),
            false => Err(CliError::No(None)),
        },
        Some("list") => {
            for s in scenario::library::all().map_err(|e| CliError::Broken(e.to_string()))? {
                println!("{:<28} {}", s.id, s.title.en);
            }
            Ok(())
        }
        Some("swarm") => swarm(&args[1..]),
        Some("serve-api") => {
            let serve = ServeArgs::parse(&args[1..]).map_err(CliError::Usage)?;
            let run = serve.run.clone();
            informer_playground::wire::server::run(move || run.world().map(|(w, _)| w), serve.options)
                .map_err(|why| CliError::No(Some(why)))
        }
        Some("room") => {
            let options = room_options(&args[1..]).map_err(CliError::Usage)?;
            informer_playground::room::run(options).map_err(|why| CliError::No(Some(why)))
        }
        Some("schema") => {
            print!("{}", scenario::schema());
            Ok(())
        }
        Some("guide") => {
            let guide = informer_sim::scenario::guide::bundled().map_err(CliError::Broken)?;
            print!("{}", informer_sim::scenario::guide::markdown(&guide));
            Ok(())
        }
        Some("handout") => {
            let guide = informer_sim::scenario::guide::bundled().map_err(CliError::Broken)?;
            print!("{}", informer_sim::scenario::guide::handout(&guide));
            Ok(())
        }
        Some("poster") => {
            let lesson = args.get(1).filter(|a| !a.starts_with("--")).ok_or_else(|| {
                CliError::Usage("poster needs a lesson: informer-playground poster stale-read --step 12".into())
            })?;
            let (mut step, mut lang, mut theme) = (None, Lang::En, Theme::Light);
            let mut rest = args[2..].iter();
            while let Some(flag) = rest.next() {
                match flag.as_str() {
                    "--step" => step = Some(number("--step", rest.next()).map_err(CliError::Usage)?),
                    "--lang" => {
                        let value = rest.next().map(String::as_str).unwrap_or_default();
                        lang = Lang::from_code(value)
                            .ok_or_else(|| CliError::Usage(format!("--lang takes ko or en, not {value:?}")))?;
                    }
                    "--theme" => {
                        let value = rest.next().map(String::as_str).unwrap_or_default();
                        theme = Theme::named(value)
                            .ok_or_else(|| CliError::Usage(format!("--theme takes light or dark, not {value:?}")))?;
                    }
                    other => return Err(CliError::Usage(format!("poster: unknown option {other:?}"))),
                }
            }
            let svg =
                informer_sim::views::poster::poster(lesson, step, lang, theme).map_err(|e| CliError::No(Some(e)))?;
            print!("{svg}");
            Ok(())
        }
        Some("posters") => {
            let dir = args.get(1).ok_or_else(|| CliError::Usage("posters needs a directory (www/posters)".into()))?;
            let files = informer_sim::views::poster::openings().map_err(CliError::Broken)?;
            std::fs::create_dir_all(dir).map_err(|e| CliError::No(Some(format!("{dir}: {e}"))))?;
            for (name, text) in &files {
                let path = std::path::Path::new(dir).join(name);
                std::fs::write(&path, text).map_err(|e| CliError::No(Some(format!("{}: {e}", path.display()))))?;
            }
            println!("{dir}: {} posters and {}", files.len() - 1, informer_sim::views::poster::INDEX);
            Ok(())
        }
        Some("validate") => {
            let path = args.get(1).ok_or_else(|| CliError::Usage("validate needs a scenario file".into()))?;
            let text = std::fs::read_to_string(path).map_err(|e| CliError::No(Some(format!("{path}: {e}"))))?;
            let s = informer_sim::session::verify(path, &text).map_err(|problems| {
                CliError::No(Some(problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")))
            })?;
            println!(
                "{path}: ok ({}: {} narration notes, {} questions, {} challenges, {} expectations)",
                s.id,
                s.narration.len(),
                s.questions.len(),
                s.challenges.len(),
                s.expect.len()
            );
            Ok(())
        }
        Some(other) => Err(CliError::Usage(format!("unknown command {other:?}"))),
    }
}

#[derive(Clone)]
struct RunArgs {
    scenario: String,
    era: Option<Era>,
    seed: u64,
    seed_given: bool,
    steps: Option<u64>,
    json: bool,
    fast_forward: bool,
}

/// `room`'s arguments.
fn room_options(args: &[String]) -> Result<informer_playground::room::Options, String> {
    let mut options =
        informer_playground::room::Options { dist: "dist".into(), journal: None, address: None, port: 8090 };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("room: {flag} needs a value"));
        match flag.as_str() {
            "--dist" => options.dist = value()?.into(),
            "--journal" => options.journal = Some(value()?.into()),
            "--address" => {
                let given = value()?;
                options.address =
                    Some(given.parse().map_err(|_| format!("room: --address {given:?} is not an IP address"))?);
            }
            "--port" => {
                let given = value()?;
                options.port =
                    given.parse().map_err(|_| format!("room: --port {given:?} is not a port (0 to 65535)"))?;
            }
            other => return Err(format!("room: unknown option {other:?}")),
        }
    }
    Ok(options)
}

fn era(value: Option<&String>) -> Result<Era, String> {
    let value = value.ok_or("--era needs a value")?;
    Era::parse(value).ok_or_else(|| {
        let known: Vec<&str> = Era::ALL.iter().map(|e| e.name()).collect();
        format!("--era takes one of {}, not {value:?}", known.join(", "))
    })
}

fn number(flag: &str, value: Option<&String>) -> Result<u64, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value.parse().map_err(|_| format!("{flag} takes a whole number, not {value:?}"))
}

/// `serve-api`'s arguments: the world (as `run` takes it) and where and how to serve it.
struct ServeArgs {
    run: RunArgs,
    options: informer_playground::wire::server::Options,
}

impl ServeArgs {
    fn parse(args: &[String]) -> Result<Self, String> {
        let run = RunArgs::of("sandbox");
        let options = informer_playground::wire::server::Options {
            address: "127.0.0.1".into(),
            port: 6443,
            speed: 1.0,
            json: false,
            quiet: false,
            kubeconfig: "playground.kubeconfig".into(),
            record: None,
            page_port: 0,
            dist: "dist".into(),
            scenario: String::new(),
        };
        let mut parsed = ServeArgs { run, options };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let value = |it: &mut std::slice::Iter<String>| it.next().cloned().ok_or(format!("{arg} needs a value"));
            match arg.as_str() {
                "--scenario" => parsed.run.scenario = value(&mut it)?,
                "--seed" => {
                    parsed.run.seed = number("--seed", it.next())?;
                    parsed.run.seed_given = true;
                }
                "--era" => parsed.run.era = Some(era(it.next())?),
                "--address" => parsed.options.address = value(&mut it)?,
                "--port" => {
                    let port = number("--port", it.next())?;
                    parsed.options.port =
                        u16::try_from(port).map_err(|_| format!("--port takes 0 to 65535, not {port}"))?;
                }
                "--speed" => {
                    let text = value(&mut it)?;
                    parsed.options.speed = text
                        .parse::<f64>()
                        .ok()
                        .filter(|s| *s > 0.0 && *s <= 1_000.0)
                        .ok_or(format!("--speed takes a factor above 0, at most 1000, not {text:?}"))?;
                }
                "--kubeconfig" => parsed.options.kubeconfig = value(&mut it)?.into(),
                "--record" => parsed.options.record = Some(value(&mut it)?.into()),
                "--page-port" => {
                    let port = number("--page-port", it.next())?;
                    parsed.options.page_port =
                        u16::try_from(port).map_err(|_| format!("--page-port takes 0 to 65535, not {port}"))?;
                }
                "--dist" => parsed.options.dist = value(&mut it)?.into(),
                "--json" => parsed.options.json = true,
                "--quiet" => parsed.options.quiet = true,
                other => return Err(format!("unknown option {other:?}")),
            }
        }
        parsed.options.scenario = parsed.run.scenario.clone();
        Ok(parsed)
    }
}

impl RunArgs {
    /// A run of `scenario` with every option at its default.
    fn of(scenario: &str) -> Self {
        RunArgs {
            scenario: scenario.into(),
            era: None,
            seed: 1,
            seed_given: false,
            steps: None,
            json: false,
            fast_forward: false,
        }
    }

    fn parse(args: &[String]) -> Result<Self, String> {
        let mut parsed = RunArgs::of("");
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--seed" => {
                    parsed.seed = number("--seed", it.next())?;
                    parsed.seed_given = true;
                }
                "--steps" => parsed.steps = Some(number("--steps", it.next())?),
                "--era" => parsed.era = Some(era(it.next())?),
                "--json" => parsed.json = true,
                "--fast-forward" => parsed.fast_forward = true,
                flag if flag.starts_with('-') => return Err(format!("unknown option {flag:?}")),
                name if parsed.scenario.is_empty() => parsed.scenario = name.to_string(),
                extra => return Err(format!("unexpected argument {extra:?}")),
            }
        }
        if parsed.scenario.is_empty() {
            return Err("run needs a scenario, e.g. `informer-playground run basic`".into());
        }
        Ok(parsed)
    }

    /// The era of a built-in run.
    fn era(&self) -> Era {
        self.era.unwrap_or(Era::CURRENT)
    }

    /// The world to run and, for a scenario, the scenario (to judge it at the end).
    fn world(&self) -> Result<(World, Option<Scenario>), String> {
        if let Some(built) = world::built_in(&self.scenario, self.seed, self.era()) {
            return built.map(|w| (w, None)).map_err(|e| e.to_string());
        }
        let scenario = match self.scenario.as_str() {
            file if file.ends_with(".json") => load_file(file)?,
            id if id.starts_with("swarm:") => {
                let seed = id["swarm:".len()..]
                    .parse()
                    .map_err(|_| format!("swarm:SEED takes a whole number, not {:?}", &id["swarm:".len()..]))?;
                let plan = informer_sim::testing::swarm::Plan::from_seed(seed).server_side();
                return plan.world().map(|w| (w, None)).map_err(|e| e.to_string());
            }
            id => scenario::library::find(id).cloned().ok_or_else(|| {
                format!(
                    "unknown scenario {id:?}; `informer-playground list` prints them all (built-in runs: basic, scale, bare, swarm:N)"
                )
            })?,
        };
        let era = self.era.unwrap_or(scenario.era);
        let mut scenario = scenario.in_era(era).ok_or_else(|| {
            let told: Vec<String> = scenario.declared_eras().iter().map(ToString::to_string).collect();
            format!("scenario {:?} runs in {}, not in {era}", scenario.id, told.join(", "))
        })?;
        if self.seed_given {
            scenario.seed = self.seed;
        }
        let world = scenario.world().map_err(|e| e.to_string())?;
        Ok((world, Some(scenario)))
    }

    /// The lines for the steps a fast-forward held back, `trace[start..]`: one line naming
    /// them, or each step's own when there are too few to be worth a jump.
    fn passed_over(&self, trace: &[TraceEvent], start: usize) -> Vec<String> {
        let held = &trace[start..];
        if (held.len() as u64) < fast_forward::MIN_JUMP {
            return held.iter().map(|e| if self.json { i18n::json_line(e) } else { i18n::line(e) }).collect();
        }
        let jump = fast_forward::Jump::over(start as u64, trace.len() as u64 + 1, held);
        vec![if self.json { jump_json(&jump) } else { i18n::jump(&jump, i18n::Lang::En) }]
    }

    /// Prints the trace (and the verdicts); returns whether every expectation and every claim of
    /// the lesson's texts was met.
    fn execute(&self) -> Result<bool, String> {
        use std::io::Write;
        let (mut world, scenario) = self.world()?;
        let limit = self.steps.or(scenario.as_ref().map(|s| s.run.max_steps)).unwrap_or(100_000);
        let mut out = std::io::stdout().lock();
        let mut trace: Vec<TraceEvent> = Vec::new();
        // With --fast-forward: the routes of the bulk phase under way and where it started.
        let mut folding: Option<(Vec<fast_forward::StepRoute>, usize)> = None;
        while (trace.len() as u64) < limit {
            let more = match &scenario {
                Some(scenario) => !scenario.over(&world),
                None => self.steps.is_some() || !world.is_idle(),
            };
            if !more {
                break;
            }
            let Some(event) = world.step() else { break };
            if let Some((routes, _)) = &folding {
                if routes.contains(&fast_forward::StepRoute::of(&event)) {
                    trace.push(event);
                    continue;
                }
            }
            let mut lines = Vec::new();
            if let Some((_, start)) = folding.take() {
                lines.extend(self.passed_over(&trace, start));
            }
            lines.push(if self.json { i18n::json_line(&event) } else { i18n::line(&event) });
            trace.push(event);
            if self.fast_forward {
                folding = fast_forward::phase(&trace).map(|routes| (routes, trace.len()));
            }
            // A closed pipe (`| head`) ends the run quietly.
            if lines.iter().any(|line| writeln!(out, "{line}").is_err()) {
                return Ok(true);
            }
        }
        if let Some((_, start)) = folding {
            for line in self.passed_over(&trace, start) {
                if writeln!(out, "{line}").is_err() {
                    return Ok(true);
                }
            }
        }
        let Some(scenario) = scenario else { return Ok(true) };
        let expected = scenario::judge(&scenario, &world, &trace).into_iter().map(|v| ("expect", v));
        let claimed = scenario::judge_claims(&scenario, &world, &trace).into_iter().map(|v| ("claim", v));
        let mut all = true;
        for (what, v) in expected.chain(claimed) {
            all &= v.met;
            let mark = if v.met { "met" } else { "NOT MET" };
            let line = if self.json {
                serde_json::json!({what: v.expectation, "met": v.met, "detail": v.detail}).to_string()
            } else {
                format!("{what} {mark}: {} ({})", v.expectation, v.detail)
            };
            if writeln!(out, "{line}").is_err() {
                break;
            }
        }
        Ok(all)
    }
}

/// `swarm --seed N [--trace]` or `swarm --seeds N [--from M]`.
fn swarm(args: &[String]) -> Result<(), CliError> {
    use informer_sim::testing::swarm::{self, Plan};
    let value = |flag: &str| args.iter().position(|a| a == flag).map(|i| number(flag, args.get(i + 1)));
    match (value("--seed"), value("--seeds")) {
        (Some(Ok(seed)), None) if args.iter().any(|a| a == "--plan") => {
            print!("{}", Plan::from_seed(seed));
            Ok(())
        }
        (Some(Ok(seed)), None) => {
            let trace = args.iter().any(|a| a == "--trace");
            let result = Plan::from_seed(seed).run_traced(|e| {
                if trace {
                    println!("{}", i18n::line(e));
                }
            });
            match result {
                Ok(steps) => {
                    println!("seed {seed}: {steps} steps, every invariant held");
                    Ok(())
                }
                Err(failure) => {
                    println!("{}", swarm::report(seed, &failure));
                    Err(CliError::No(None))
                }
            }
        }
        (None, Some(Ok(count))) => {
            let from = value("--from").transpose().map_err(CliError::Usage)?.unwrap_or(1);
            let (run, steps, failures) = swarm::run_seeds(from, count);
            println!("swarm: {run} seeds, {steps} steps, {} failures", failures.len());
            for (seed, failure) in failures.iter().take(3) {
                println!("{}", swarm::report(*seed, failure));
            }
            if failures.is_empty() {
                Ok(())
            } else {
                Err(CliError::No(None))
            }
        }
        (Some(Err(e)), _) | (_, Some(Err(e))) => Err(CliError::Usage(e)),
        _ => Err(CliError::Usage("swarm takes --seed N [--trace | --plan] or --seeds N [--from M]".into())),
    }
}

/// A fast-forward as a JSON line: the steps it passed over, counted by route.
fn jump_json(jump: &fast_forward::Jump) -> String {
    let counts: Vec<serde_json::Value> = jump
        .counts
        .iter()
        .map(|(r, n)| serde_json::json!({"kind": r.kind, "from": r.from, "to": r.to, "steps": n}))
        .collect();
    serde_json::json!({"fast_forward": {"from": jump.from, "to": jump.to, "skipped": jump.skipped(), "counts": counts}})
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_has_its_exit_code_and_words() {
        let args = |line: &str| line.split_whitespace().map(String::from).collect::<Vec<_>>();
        let unknown = run(args("nope")).unwrap_err();
        assert_eq!(unknown, CliError::Usage("unknown command \"nope\"".into()));
        assert_eq!(unknown.exit_code(), std::process::ExitCode::from(2));
        assert!(unknown.report().unwrap().ends_with("Run `informer-playground help` for usage."));
        let missing = run(args("validate no-such-file.json")).unwrap_err();
        assert!(matches!(&missing, CliError::No(Some(why)) if why.starts_with("no-such-file.json: ")), "{missing:?}");
        assert_eq!(missing.exit_code(), std::process::ExitCode::from(1));
        assert_eq!(run(args("swarm --seeds x")).unwrap_err().exit_code(), std::process::ExitCode::from(2));
        assert_eq!(CliError::No(None).report(), None, "a run that printed its verdict adds nothing");
    }
}
