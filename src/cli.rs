//! The command line: runs the simulation headless and prints its trace.

use informer_playground::world::{self, World};

const HELP: &str = "informer-playground — the Kubernetes list-watch machinery, step by step

USAGE:
    informer-playground run <SCENARIO> [--seed N] [--steps N] [--json]
    informer-playground help

COMMANDS:
    run     Run a scenario headless and print its trace, one line per step
    help    Print this help

SCENARIOS:
    basic   Three Pods and a ConfigMap, one Pod informer and one controller, writes over six
            seconds
    scale   A Deployment-style controller and a kubelet; the Deployment is scaled from 3 to 5
            replicas at 5 s and to 2 at 10 s
    (scenario files arrive with the scenario library)

OPTIONS:
    --seed N    Seed of the random source (backoff jitter, watch timeouts); default 1
    --steps N   Stop after N steps; default: run until the pipeline is idle (at most 100000)
    --json      One JSON object per step: step, time_ms, from, to, kind, key, rv, summary
";

/// Runs one command line; returns the process exit code.
pub fn run(args: Vec<String>) -> i32 {
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            0
        }
        Some("run") => match RunArgs::parse(&args[1..]).and_then(|a| a.execute()) {
            Ok(()) => 0,
            Err(message) => {
                eprintln!("error: {message}\n\nRun `informer-playground help` for usage.");
                2
            }
        },
        Some(other) => {
            eprintln!("error: unknown command {other:?}\n\nRun `informer-playground help` for usage.");
            2
        }
    }
}

struct RunArgs {
    scenario: String,
    seed: u64,
    steps: Option<u64>,
    json: bool,
}

fn number(flag: &str, value: Option<&String>) -> Result<u64, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value.parse().map_err(|_| format!("{flag} takes a whole number, not {value:?}"))
}

impl RunArgs {
    fn parse(args: &[String]) -> Result<Self, String> {
        let mut parsed = RunArgs { scenario: String::new(), seed: 1, steps: None, json: false };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--seed" => parsed.seed = number("--seed", it.next())?,
                "--steps" => parsed.steps = Some(number("--steps", it.next())?),
                "--json" => parsed.json = true,
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

    fn world(&self) -> Result<World, String> {
        match self.scenario.as_str() {
            "basic" => world::basic(self.seed).map_err(|e| e.to_string()),
            "scale" => world::scale(self.seed).map_err(|e| e.to_string()),
            other if other.ends_with(".json") => Err(format!(
                "cannot run {other:?}: scenario files are not supported yet; built-in scenarios: basic, scale"
            )),
            other => Err(format!("unknown scenario {other:?}; built-in scenarios: basic, scale")),
        }
    }

    fn execute(&self) -> Result<(), String> {
        use std::io::Write;
        let mut world = self.world()?;
        let limit = self.steps.unwrap_or(100_000);
        let mut out = std::io::stdout().lock();
        let mut taken = 0;
        while taken < limit && (self.steps.is_some() || !world.is_idle()) {
            let Some(event) = world.step() else { break };
            taken += 1;
            let line =
                if self.json { serde_json::to_string(&event).map_err(|e| e.to_string())? } else { event.to_string() };
            // A closed pipe (`| head`) ends the run quietly.
            if writeln!(out, "{line}").is_err() {
                break;
            }
        }
        Ok(())
    }
}
