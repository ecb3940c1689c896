//! Judging a finished run by its scenario's expectations.

use super::format::{Expectation, Scenario};
use super::pattern::Pattern;
use crate::cluster::{ApiObject, KeyRange, Kind};
use crate::controller::cache_reader::{CacheAnswer, ClientRead};
use crate::kernel::sort;
use crate::world::{TraceEvent, World};

/// The outcome of one expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub expectation: String,
    pub met: bool,
    pub detail: String,
}

fn within(n: u64, at_least: Option<u64>, at_most: Option<u64>) -> bool {
    at_least.is_none_or(|min| n >= min) && at_most.is_none_or(|max| n <= max)
}

/// Judges the expectations against a finished run.
pub fn judge(scenario: &Scenario, world: &World, trace: &[TraceEvent]) -> Vec<Verdict> {
    judge_each(&scenario.expect, world, trace)
}

/// Where a text of the lesson is (`narration[2]`, `questions[0]`, `recap`), what it claims
/// the run shows, and why it claims nothing when it does not.
struct Said<'a> {
    place: String,
    claims: &'a [Expectation],
    claims_none: Option<&'a str>,
}

/// Every text of a lesson (as told in one release) that speaks of its run: notes, questions
/// (their right answer and explanation) and the recap.
fn said(scenario: &Scenario) -> Vec<Said<'_>> {
    let notes = scenario.narration.iter().enumerate().map(|(i, n)| Said {
        place: format!("narration[{i}]"),
        claims: &n.claims,
        claims_none: n.claims_none.as_deref(),
    });
    let questions = scenario.questions.iter().enumerate().map(|(i, q)| Said {
        place: format!("questions[{i}]"),
        claims: &q.claims,
        claims_none: q.claims_none.as_deref(),
    });
    let recap = scenario.recap.iter().map(|r| Said {
        place: "recap".into(),
        claims: &r.claims,
        claims_none: r.claims_none.as_deref(),
    });
    notes.chain(questions).chain(recap).collect()
}

/// Judges what the lesson's texts claim against a finished run: one verdict per claim, named
/// by the text it belongs to, and an unmet one for a text that neither claims nor says why not.
pub fn judge_claims(scenario: &Scenario, world: &World, trace: &[TraceEvent]) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    for said in said(scenario) {
        if said.claims.is_empty() && said.claims_none.is_none_or(|why| why.trim().is_empty()) {
            verdicts.push(Verdict {
                expectation: said.place.clone(),
                met: false,
                detail: "no claims, and no `claims_none` saying why".into(),
            });
        }
        for mut v in judge_each(said.claims, world, trace) {
            v.expectation = format!("{}: {}", said.place, v.expectation);
            verdicts.push(v);
        }
    }
    verdicts
}

/// Judges a challenge's goal against the run so far: one verdict per check.
pub fn judge_goal(goal: &[Expectation], world: &World, trace: &[TraceEvent]) -> Vec<Verdict> {
    judge_each(goal, world, trace)
}

/// Judges each expectation against a finished run.
fn judge_each(expect: &[Expectation], world: &World, trace: &[TraceEvent]) -> Vec<Verdict> {
    expect
        .iter()
        .map(|e| {
            let (met, detail) = match e {
                Expectation::Steps { pattern, at_least, at_most } => match Pattern::resolve("", "", pattern) {
                    Ok(p) => {
                        let n = p.count(trace);
                        let first = p.find(trace).map_or(String::new(), |s| format!(", first at step {s}"));
                        (within(n, *at_least, *at_most), format!("{n} steps{first}"))
                    }
                    Err(e) => (false, e.to_string()),
                },
                Expectation::LogContains { text } => {
                    let found = world.log_lines().iter().any(|l| l.contains(text.as_str()));
                    (found, format!("{} log lines", world.log_lines().len()))
                }
                Expectation::CacheMatchesStore if world.informers.is_empty() => (false, "no informer".into()),
                Expectation::CacheMatchesStore => match world.cache_vs_store(0) {
                    Ok(both) => {
                        let detail = format!("store {} objects, cache {}", both.stored.len(), both.cached.len());
                        (both.equal(), detail)
                    }
                    Err(status) => (false, format!("the store could not be listed: {status}")),
                },
                Expectation::Count { kind: k, owner, equals } => {
                    let stored = |kind: Kind| -> Vec<ApiObject> {
                        let prefix = crate::cluster::storage::prefix(kind, None);
                        let kvs = world.api.store().range(&KeyRange::prefix(prefix), 0, 0).map(|r| r.kvs);
                        kvs.unwrap_or_default().iter().map(crate::cluster::storage::decode).collect()
                    };
                    let owners = owner.as_ref().map(|name| descendants(name, &Kind::ALL.map(stored).concat()));
                    let n = stored(*k)
                        .iter()
                        .filter(|o| {
                            owners
                                .as_ref()
                                .is_none_or(|names| o.metadata.owner_references.iter().any(|r| names.contains(&r.name)))
                        })
                        .count();
                    (n == *equals, format!("{n}"))
                }
                Expectation::Requests { verb, at_least, at_most } => {
                    let n = world.costs().requests.get(&verb.0).copied().unwrap_or(0);
                    (within(n, *at_least, *at_most), format!("{n}"))
                }
                Expectation::CacheList {
                    namespace,
                    field,
                    value,
                    labels,
                    found,
                    examined_at_least,
                    examined_at_most,
                    error,
                } => {
                    let mut world = world.clone();
                    let read = ClientRead::List {
                        kind: world.informers.first().map_or(Kind::Pod, |s| s.config.reflector.kind),
                        namespace: namespace.clone(),
                        labels: labels.clone().unwrap_or_default(),
                        field: field.clone().zip(value.clone()),
                        limit: 0,
                        continue_token: String::new(),
                    };
                    match (world.read_cache(&read), error) {
                        (Err(e), Some(want)) => (e.to_string() == *want, e.to_string()),
                        (Err(e), None) => (false, e.to_string()),
                        (Ok(CacheAnswer::Listed { found: n, .. }), Some(_)) => (false, format!("found {n} objects")),
                        (Ok(CacheAnswer::Listed { found: n, examined, .. }), None) => {
                            let ok = found.is_none_or(|f| f == n)
                                && examined_at_least.is_none_or(|m| examined >= m)
                                && examined_at_most.is_none_or(|m| examined <= m);
                            (ok, format!("found {n}, examined {examined}"))
                        }
                        (Ok(CacheAnswer::Got), _) => (false, "a Get's answer to a List".into()),
                    }
                }
                Expectation::CacheGet { kind: k, namespace, name, error, lacks, has } => {
                    let mut world = world.clone();
                    match (world.cache_get(*k, namespace, name), error) {
                        (Ok(o), None) => match (
                            lacks.as_deref().filter(|p| has_field(&o, p)),
                            has.as_deref().filter(|p| !has_field(&o, p)),
                        ) {
                            (Some(p), _) => (false, format!("found, with {p}")),
                            (_, Some(p)) => (false, format!("found, without {p}")),
                            _ => (true, "found".into()),
                        },
                        (Ok(_), Some(_)) => (false, "found".into()),
                        (Err(e), Some(want)) => (e.to_string() == *want, e.to_string()),
                        (Err(e), None) => (false, e.to_string()),
                    }
                }
                Expectation::IndexEntries { at_least, at_most } => {
                    let entries = world.costs().index_entries.0;
                    (within(entries as u64, *at_least, *at_most), format!("{entries} entries"))
                }
                Expectation::CacheBytes { at_least, at_most } => {
                    let bytes: usize = world.costs().cached.iter().map(|(_, _, b)| b).sum();
                    (within(bytes as u64, *at_least, *at_most), format!("{bytes} bytes"))
                }
                Expectation::Reconciles { at_least, at_most } => {
                    (within(world.reconciles(), *at_least, *at_most), format!("{}", world.reconciles()))
                }
            };
            Verdict { expectation: format!("{e:?}"), met, detail }
        })
        .collect()
}

/// Whether `obj` has a field at the JSON pointer `pointer`.
fn has_field(obj: &ApiObject, pointer: &str) -> bool {
    serde_json::to_value(obj).is_ok_and(|v| v.pointer(pointer).is_some())
}

/// `name` and the names of everything it owns, directly or through what it owns (a
/// Deployment's ReplicaSets, whose Pods then count as the Deployment's).
fn descendants(name: &str, objects: &[ApiObject]) -> std::collections::BTreeSet<String> {
    let mut names = sort::set_of([name.to_string()]);
    loop {
        let before = names.len();
        for o in objects {
            if o.metadata.owner_references.iter().any(|r| names.contains(&r.name)) {
                names.insert(o.metadata.name.clone());
            }
        }
        if names.len() == before {
            return names;
        }
    }
}
