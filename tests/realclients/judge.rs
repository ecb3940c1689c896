//! The real-client judge (`make test`'s fourth layer): real Kubernetes clients against
//! `serve-api`. Each test names what it checks; a difference is printed side by side.
//!
//! The clients are built by `make test` (`scripts/setup.sh test`) into `target/realclients/`:
//! kubectl from `k8s.io/kubectl`, client-go informers of each era's release (`informer-v0.30`,
//! `-v0.33`, `-v0.37`), and the Python client in a virtual environment.

#![cfg(feature = "real-clients")]

use informer_playground::era::Era;
use informer_playground::wire::replay::{replay, Told};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn clients() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/realclients")
}

/// A running serve-api, recording its conversation.
struct Server {
    child: Child,
    dir: PathBuf,
}

impl Server {
    fn start(scenario: &str, era: Era, speed: f64) -> Server {
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("playground-judge-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_informer-playground"))
            .args(["serve-api", "--scenario", scenario, "--era", era.name(), "--port", "0", "--quiet"])
            .args(["--speed", &speed.to_string()])
            .arg("--kubeconfig")
            .arg(dir.join("kubeconfig"))
            .arg("--record")
            .arg(dir.join("record.jsonl"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("server.log")).unwrap())
            .spawn()
            .expect("serve-api starts");
        let server = Server { child, dir };
        let deadline = Instant::now() + Duration::from_secs(20);
        while !server.kubeconfig().exists() {
            assert!(Instant::now() < deadline, "serve-api did not start: {}", server.log());
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    fn kubeconfig(&self) -> PathBuf {
        self.dir.join("kubeconfig")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
    }

    fn record(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.dir.join("record.jsonl")).unwrap_or_default();
        text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs a real client-go informer of `era`'s release for `seconds`; its notifications.
fn informer(
    server: &Server,
    era: Era,
    resource: &str,
    namespace: Option<&str>,
    selector: &str,
    seconds: u64,
) -> (Vec<Told>, Vec<Value>) {
    let binary = clients().join(format!("informer-v0.{}", &era.name()[2..]));
    let mut command = Command::new(&binary);
    command.arg("--kubeconfig").arg(server.kubeconfig()).args(["--context", "default-playground-controller"]);
    command.args(["--resource", resource, "--seconds", &seconds.to_string(), "--selector", selector]);
    if let Some(ns) = namespace {
        command.args(["--namespace", ns]);
    }
    let output = command.output().unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
    let lines: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let told = lines
        .iter()
        .filter_map(|l| {
            let call = l["call"].as_str()?.to_string();
            let flag = l["initial"].as_bool().or(l["tombstone"].as_bool()).unwrap_or(false);
            Some(Told { call, key: l["key"].as_str()?.into(), rv: l["rv"].as_str()?.into(), flag, t: 0 })
        })
        .collect();
    (told, lines)
}

/// Notifications per key, in order.
fn per_key(told: &[Told]) -> BTreeMap<&str, Vec<&Told>> {
    let mut out: BTreeMap<&str, Vec<&Told>> = BTreeMap::new();
    for t in told {
        out.entry(&t.key).or_default().push(t);
    }
    out
}

fn show(told: &[&Told]) -> Vec<String> {
    told.iter().map(|t| format!("{} rv={}{}", t.call, t.rv, if t.flag { " *" } else { "" })).collect()
}

/// Keys whose notifications differ, side by side. The real client is stopped while the
/// simulator may still have notifications from the last `IN_FLIGHT` ms of the record to give:
/// for each key the real client's must be the simulator's, or a prefix of them missing only
/// those.
fn side_by_side(ours: &[Told], theirs: &[Told], ended: u64) -> String {
    const IN_FLIGHT: u64 = 1_000;
    const SHOWN: usize = 12;
    let (ours, theirs) = (per_key(ours), per_key(theirs));
    let keys: std::collections::BTreeSet<&str> = ours.keys().chain(theirs.keys()).copied().collect();
    let same = |a: &&Told, b: &&Told| a.call == b.call && a.rv == b.rv && a.flag == b.flag;
    let differing: Vec<&str> = keys
        .into_iter()
        .filter(|key| {
            let (a, b) = (ours.get(key).cloned().unwrap_or_default(), theirs.get(key).cloned().unwrap_or_default());
            let prefix = b.len() <= a.len() && a.iter().zip(&b).all(|(x, y)| same(x, y));
            !(prefix && a[b.len()..].iter().all(|t| t.t + IN_FLIGHT >= ended))
        })
        .collect();
    let mut out = String::new();
    for key in differing.iter().take(SHOWN) {
        let (a, b) = (ours.get(key).cloned().unwrap_or_default(), theirs.get(key).cloned().unwrap_or_default());
        out.push_str(&format!("  {key}\n    simulator: {:?}\n    client-go: {:?}\n", show(&a), show(&b)));
    }
    if differing.len() > SHOWN {
        out.push_str(&format!("  … and {} more keys\n", differing.len() - SHOWN));
    }
    out
}

/// Runs one lesson in one era with a real informer beside it; returns what differed.
fn judge_lesson(id: &str, era: Era) -> Result<usize, String> {
    let lesson =
        informer_playground::scenario::library::find(id).ok_or("no such lesson")?.in_era(era).ok_or("not in era")?;
    let world = lesson.world().map_err(|e| e.to_string())?;
    let watched = world.informers[0].config.reflector.clone();
    // Seconds become a few tens of milliseconds: a lesson lasts about 4 s of real time.
    let speed = (lesson.run.until_ms as f64 / 4_000.0).max(1.0);
    let server = Server::start(id, era, speed);
    // A debug-built server encodes a 20,000-object list in seconds: more time for more objects.
    let seconds = 6 + world.api.count(watched.kind) as u64 / 2_000;
    let (theirs, lines) =
        informer(&server, era, watched.kind.resource(), watched.namespace.as_deref(), &watched.label_selector, seconds);
    let record = server.record();
    let agent = format!("informer-v0.{}", &era.name()[2..]);
    let ours = replay(&record, &agent, era, watched.kind, watched.namespace.clone(), &watched.label_selector);
    let mut problems = ours.differences.clone();
    let diff = side_by_side(&ours.told, &theirs, ours.ended);
    if !diff.is_empty() {
        problems.push(format!("handler notifications differ:\n{diff}"));
    }
    let synced = lines.iter().any(|l| l["synced"] == true);
    if !synced && !ours.requests.is_empty() {
        problems.push(format!("the real informer did not sync in {seconds} s"));
    }
    if !problems.is_empty() {
        let requests: Vec<String> = ours.requests.iter().map(|(a, b)| format!("{a:<45} | {b}")).collect();
        problems.push(format!("requests (simulator | client-go):\n  {}", requests.join("\n  ")));
    }
    if problems.is_empty() {
        Ok(ours.requests.len())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn client_go_informers_agree_with_the_simulator_on_every_lesson_in_every_era() {
    let only = std::env::var("JUDGE_LESSON").ok();
    let mut failures = Vec::new();
    let mut runs = 0;
    for lesson in informer_playground::scenario::library::all().unwrap() {
        if only.as_deref().is_some_and(|o| o != lesson.id) {
            continue;
        }
        for era in lesson.declared_eras() {
            runs += 1;
            match judge_lesson(&lesson.id, era) {
                Ok(requests) => println!("{} in {era}: agree ({requests} requests)", lesson.id),
                Err(why) => failures.push(format!("{} in {era}:\n{why}", lesson.id)),
            }
        }
    }
    println!("{runs} lesson runs, {} differ", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
