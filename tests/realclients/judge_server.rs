//! The server judge (`make test`'s fourth layer, beside the real clients): the same request
//! scripts sent to a real kube-apiserver of a release and to `serve-api` of that release, and the
//! answers compared as a client sees them — status, reason, message and details; a list's
//! resourceVersion, items and `continue`; a watch's events, bookmarks and how its stream ends.
//!
//! The real server (`tests/realclients/kube-apiserver-v1.*`, built by set-up) runs on loopback
//! on a fresh current etcd, with a token file and service-account keys made here; the model is
//! `serve-api --scenario bare`, an API server with no controllers, as a kube-apiserver alone is.
//! Both get the same bearer tokens, and the identities of `world::BARE_ACCOUNTS` with the same
//! ClusterRoles. Requests go through `http-script` (raw HTTP, no client library between).
//!
//! A real server writes objects of its own all the time, so a resourceVersion compares as its
//! place among the script's own writes (`w3`: the third write's, or after it and before the
//! fourth), never as a number. Fields that differ by nature (uid, creationTimestamp,
//! managedFields) are masked by name; numbers inside messages too. Bookmarks and stream ends
//! compare their times within `TIME_TOLERANCE_MS`.
//!
//! Releases: `JUDGE_RELEASES` (all three unless told, in `make test` and `make judge-server`).
//! Seeded scripts: `JUDGE_SCRIPTS` (200); `JUDGE_ONLY=name` keeps the named scripts whose
//! names contain it (while a difference is being worked on); `JUDGE_DUMP=file` writes the
//! scripts there. Under `CI=true` a real server that is missing or
//! does not start fails the test.

#![cfg(feature = "real-clients")]

#[path = "server_judge/mod.rs"]
mod server_judge;

use server_judge::{compare, fields, known, scripts, sides};

/// Every named script and the seeded ones, in each release judged: no difference beyond the
/// known ones, and each known one seen is listed.
#[test]
fn serve_api_answers_as_the_real_kube_apiserver_of_each_release() {
    let releases = sides::releases();
    let mut failures = Vec::new();
    for release in &releases {
        let Some(real) = sides::Real::start(release) else { continue };
        let model = sides::Model::start(release);
        let only = std::env::var("JUDGE_ONLY").unwrap_or_default();
        let named: Vec<_> =
            scripts::named().into_iter().filter(|s| s["name"].as_str().unwrap().contains(&only)).collect();
        let seeded = scripts::seeded(scripts::seed_count());
        if let Ok(path) = std::env::var("JUDGE_DUMP") {
            let all: Vec<_> = named.iter().chain(&seeded).collect();
            std::fs::write(&path, serde_json::to_string_pretty(&all).unwrap()).expect("JUDGE_DUMP is writable");
        }
        let report = compare::judge(release, &real, &model, &named, &seeded);
        println!("{}", report.summary());
        let written =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/judge-server-{release}.txt"));
        std::fs::write(&written, report.details()).expect("the judge's report");
        let unexplained = report.unexplained();
        if !unexplained.is_empty() {
            // The first few in the failure itself: a CI log may be all there is to read.
            let first: Vec<&str> = unexplained.iter().take(3).map(String::as_str).collect();
            failures.push(format!(
                "release {release}: {} differences (all in {}); the first:\n{}",
                unexplained.len(),
                written.display(),
                first.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "serve-api differs from kube-apiserver:\n{}", failures.join("\n\n"));
}

/// The comparison itself can fail: two answers that differ in a way a client sees are told
/// apart; two that differ only in what is masked are not.
#[test]
fn the_comparison_tells_a_client_visible_difference_from_a_masked_one() {
    compare::self_test();
    known::self_test();
}

/// The fields serve-api knows for each kind (what it keeps, warns about or refuses under
/// `fieldValidation`) are those of the release's own OpenAPI documents, read again here from
/// k8s.io/kubernetes at the tag its kube-apiserver builds from. `UPDATE_KNOWN_FIELDS=1` writes
/// them.
#[test]
fn serve_apis_known_fields_are_each_releases_own() {
    for release in ["1.30", "1.33", "1.37"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("src/wire/fields/{release}.json"));
        let wanted = fields::of_release(release);
        let text = serde_json::to_string(&wanted).unwrap() + "\n";
        if std::env::var("UPDATE_KNOWN_FIELDS").is_ok() {
            std::fs::write(&path, &text).unwrap();
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == text,
            "{} is not release {release}'s OpenAPI (UPDATE_KNOWN_FIELDS=1 writes it)",
            path.display()
        );
    }
}
