//! Fuzzing what people type: links (URL parameters), console lines, manifests (YAML and JSON)
//! and scenario files, with a seeded mutator over the shipped examples. Nothing may panic;
//! every refusal says something; the session stays usable (a step still works) after any
//! input. Each target runs for `FUZZ_SECONDS` (1 by default; `make fuzz` runs 60), and the
//! counts are printed. A failing input is printed whole, with the seed that made it.

use informer_sim::i18n::Lang;
use informer_sim::kernel::Rng;
use informer_sim::scenario::{library, Scenario};
use informer_sim::session::{Action, Message, Session};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Fragments that tend to break parsers: structure, numbers at the edges, escapes.
const TOKENS: [&str; 28] = [
    "[",
    "]",
    "{",
    "}",
    ":",
    ": ",
    "- ",
    "#",
    "'",
    "\"",
    "\\",
    "%",
    "%zz",
    "%00",
    "&",
    "=",
    "\n",
    "\n  ",
    "\t",
    "\u{0}",
    "9999999999999999999999",
    "-1",
    "-9223372036854775808",
    "18446744073709551615",
    "1e309",
    "..",
    "한",
    "\u{feff}",
];

fn budget() -> Duration {
    let seconds: f64 = std::env::var("FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    Duration::from_secs_f64(seconds)
}

/// One mutation of `input`, drawing on the corpus for splices.
fn mutate(rng: &mut Rng, input: &str, corpus: &[String]) -> String {
    let mut bytes = input.as_bytes().to_vec();
    for _ in 0..1 + rng.next_u64() % 4 {
        let at = if bytes.is_empty() { 0 } else { (rng.next_u64() % bytes.len() as u64) as usize };
        match rng.next_u64() % 6 {
            0 => {
                let token = TOKENS[(rng.next_u64() % TOKENS.len() as u64) as usize];
                bytes.splice(at..at, token.bytes());
            }
            1 if !bytes.is_empty() => {
                let end = (at + 1 + (rng.next_u64() % 16) as usize).min(bytes.len());
                bytes.drain(at..end);
            }
            2 if !bytes.is_empty() => {
                let end = (at + 1 + (rng.next_u64() % 32) as usize).min(bytes.len());
                let chunk: Vec<u8> = bytes[at..end].to_vec();
                let times = 1 + rng.next_u64() % 40;
                for _ in 0..times {
                    bytes.splice(at..at, chunk.iter().copied());
                }
            }
            3 if !corpus.is_empty() => {
                let other = corpus[(rng.next_u64() % corpus.len() as u64) as usize].as_bytes();
                let from = (rng.next_u64() % (other.len() as u64 + 1)) as usize;
                let to = (from + (rng.next_u64() % 64) as usize).min(other.len());
                bytes.splice(at..at, other[from..to].iter().copied());
            }
            4 if !bytes.is_empty() => bytes[at] ^= 1 << (rng.next_u64() % 8),
            _ => {
                let token = TOKENS[(rng.next_u64() % TOKENS.len() as u64) as usize];
                bytes.extend(token.bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs `target` on mutations of the corpus until the budget is spent; returns inputs tried.
fn fuzz(name: &str, corpus: Vec<String>, seed: u64, mut target: impl FnMut(&str) -> Result<(), String>) -> u64 {
    let started = Instant::now();
    let mut rng = Rng::new(seed);
    let mut tried = 0;
    while started.elapsed() < budget() {
        let base = &corpus[(rng.next_u64() % corpus.len() as u64) as usize];
        let input =
            if tried < corpus.len() as u64 { corpus[tried as usize].clone() } else { mutate(&mut rng, base, &corpus) };
        match catch_unwind(AssertUnwindSafe(|| target(&input))) {
            Ok(Ok(())) => {}
            Ok(Err(why)) => panic!("{name}: input {tried} (seed {seed}) {why}:\n{input:?}"),
            Err(_) => panic!("{name}: input {tried} (seed {seed}) panicked:\n{input:?}"),
        }
        tried += 1;
    }
    println!("fuzz {name}: {tried} inputs, 0 panics");
    tried
}

/// The session still takes a step, and a refusal says what was wrong.
fn usable(s: &mut Session) -> Result<(), String> {
    if let Some(failed @ Message::Failed(_)) = s.message() {
        if failed.text(Lang::En).trim().is_empty() || failed.text(Lang::Ko).trim().is_empty() {
            return Err("refused without a word".into());
        }
    }
    let before = s.world().steps();
    s.apply(Action::StepForward);
    if s.world().steps() != before + 1 && s.world().next_time().is_some() {
        return Err("the session no longer steps".into());
    }
    Ok(())
}

#[test]
fn fuzz_links() {
    let corpus: Vec<String> = [
        "?scenario=stale-read&lang=ko&step=12",
        "?seed=7&objects=200&inspect=delta-fifo&speed=8&present=1",
        "?scenario=list-then-watch&era=1.33&from=3&to=40&embed=1&host=https%3A%2F%2Fdocs.example.com",
        "?scenario=bookmarks&actions=W1szLHsiZG8iOiJmYXVsdCIsIndpdGgiOnsiZmF1bHQiOiJjb21wYWN0LXN0b3JlIn19XV0&step=9",
        "?theme=dark&lang=en&step=30",
    ]
    .map(String::from)
    .to_vec();
    fuzz("links", corpus, 1, |query| {
        let mut s = Session::from_query(query);
        for n in s.notices() {
            if n.describe(informer_sim::i18n::Lang::Ko).trim().is_empty() {
                return Err("a notice says nothing".into());
            }
        }
        usable(&mut s)
    });
}

#[test]
fn fuzz_console_lines() {
    let corpus: Vec<String> = [
        "kubectl get pods",
        "kubectl get pods -w",
        "kubectl get deploy web -o yaml",
        "kubectl scale deployment web --replicas=5",
        "kubectl label pod web-1 tier=front --overwrite",
        "kubectl delete pod web-1",
        "kubectl auth can-i list pods --as=system:serviceaccount:default:playground-controller",
        "kubectl apply -f -\nkind: ConfigMap\napiVersion: v1\nmetadata:\n  name: flags\ndata:\n  beta: \"on\"\n",
        "kubectl create -f -\n{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"j\"}}",
    ]
    .map(String::from)
    .to_vec();
    let mut session = Session::default();
    session.apply(Action::JumpTo(40));
    let mut n = 0;
    fuzz("console", corpus, 2, |entry| {
        n += 1;
        // A fresh session now and then keeps the console's transcript small.
        if n % 200 == 0 {
            session = Session::default();
        }
        session.apply(Action::Kubectl(entry.to_string()));
        if !session.console_text(Lang::En).contains('$') {
            return Err("the console lost its transcript".into());
        }
        usable(&mut session)
    });
}

#[test]
fn fuzz_manifests() {
    let mut corpus: Vec<String> =
        informer_sim::cluster::Kind::ALL.iter().map(|k| Session::example(*k, "default", "demo")).collect();
    corpus.push("{\"apiVersion\": \"apps/v1\", \"kind\": \"Deployment\", \"metadata\": {\"name\": \"web\", \"labels\": {\"app\": \"web\"}}, \"spec\": {\"replicas\": 3}}".into());
    let mut session = Session::default();
    let mut n = 0;
    fuzz("manifests", corpus, 3, |manifest| {
        n += 1;
        if n % 200 == 0 {
            session = Session::default();
        }
        session.apply(Action::Create(manifest.to_string()));
        session.apply(Action::Update(manifest.to_string()));
        session.apply(Action::Kubectl(format!("kubectl apply -f -\n{manifest}")));
        if let Ok(value) = informer_sim::console::yaml::parse(manifest) {
            let again = informer_sim::console::yaml::parse(&informer_sim::console::yaml::to_yaml(&value));
            if again.as_ref() != Ok(&value) {
                return Err(format!("YAML does not read back: {again:?}"));
            }
        }
        usable(&mut session)
    });
}

#[test]
fn fuzz_scenario_files() {
    let corpus: Vec<String> = library::FILES.iter().map(|(_, text)| text.to_string()).collect();
    fuzz("scenarios", corpus, 4, |text| {
        match Scenario::parse("fuzz.json", text) {
            Err(e) if e.to_string().trim().is_empty() => Err("refused without a word".into()),
            Err(_) => Ok(()),
            Ok(s) => {
                // Whatever validates must run: a bounded slice of it.
                let mut world = s.world().map_err(|e| format!("validated but does not build: {e}"))?;
                world.run_until(2_000, |_, _| false);
                Ok(())
            }
        }
    });
}
