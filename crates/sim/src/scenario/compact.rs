//! The form bundled lessons reach the page in: what a lesson's JSON holds — maps, sequences,
//! strings, numbers, booleans and null — as tagged bytes, each length written before what it
//! counts, read by one small reader ([`from_bytes`]) that takes no parsing of text at all.
//! The build writes each bundled lesson's JSON in this form beside it (`NN-id.bin`,
//! `scripts/compact-lessons.mjs`); the lesson's JSON is checked by the tests, and the build opens
//! every lesson from its compact form in both languages (`scripts/prerender.mjs`), so the page
//! reads it without checking it again. A lesson from outside is read from its JSON, every field
//! checked.
//!
//! Bytes: a tag, then what it carries — `0` null; `1` false; `2` true; `3` an unsigned and `4` a
//! signed integer (LEB128, the signed one zigzag); `5` a float (8 bytes, little-endian); `6` a
//! string (its length, then UTF-8); `7` a sequence (its count, then each item); `8` a map (its
//! count, then each key, a string, and value).

use super::format::*;
use crate::client::delta::DeltaType;
use crate::cluster::{Kind, Verb};
use crate::controller::predicate::Predicate;
use crate::era::Era;
use crate::kernel::{sort, Stage, TraceKind};
use crate::world::{Fault, Tag};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

const NULL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const UNSIGNED: u8 = 3;
const SIGNED: u8 = 4;
const FLOAT: u8 = 5;
const STRING: u8 = 6;
const SEQ: u8 = 7;
const MAP: u8 = 8;

/// What is wrong with a compact lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// JSON, as a lesson file holds it, written in the compact form (the build writes the
/// bundle's with `scripts/compact-lessons.mjs`; this writer is the reader's test).
#[cfg(test)]
pub(super) fn from_json(value: &serde_json::Value) -> Vec<u8> {
    use serde_json::Value;
    fn length(out: &mut Vec<u8>, mut n: u64) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }
    fn string(out: &mut Vec<u8>, text: &str) {
        out.push(STRING);
        length(out, text.len() as u64);
        out.extend_from_slice(text.as_bytes());
    }
    fn write(out: &mut Vec<u8>, value: &Value) {
        match value {
            Value::Null => out.push(NULL),
            Value::Bool(b) => out.push(if *b { TRUE } else { FALSE }),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => {
                    out.push(UNSIGNED);
                    length(out, u);
                }
                (None, Some(i), _) => {
                    out.push(SIGNED);
                    length(out, ((i << 1) ^ (i >> 63)) as u64);
                }
                (_, _, f) => {
                    out.push(FLOAT);
                    out.extend_from_slice(&f.unwrap_or(0.0).to_le_bytes());
                }
            },
            Value::String(text) => string(out, text),
            Value::Array(items) => {
                out.push(SEQ);
                length(out, items.len() as u64);
                items.iter().for_each(|item| write(out, item));
            }
            Value::Object(map) => {
                out.push(MAP);
                length(out, map.len() as u64);
                for (key, value) in map {
                    string(out, key);
                    write(out, value);
                }
            }
        }
    }
    let mut out = Vec::new();
    write(&mut out, value);
    out
}

/// A bundled lesson from its compact form.
pub fn lesson(bytes: &[u8]) -> Result<Scenario, Error> {
    scenario(&value(bytes)?)
}

/// The JSON a compact form holds.
pub fn value(bytes: &[u8]) -> Result<Value, Error> {
    let mut reader = Reader { bytes, at: 0 };
    let value = reader.value(0)?;
    match reader.at == bytes.len() {
        true => Ok(value),
        false => Err(Error(format!("{} bytes after the value", bytes.len() - reader.at))),
    }
}

/// Nesting deeper than a lesson ever goes is refused, not followed to a stack overflow.
const MAX_DEPTH: usize = 128;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, Error> {
        let byte = *self.bytes.get(self.at).ok_or_else(|| Error("the bytes end early".into()))?;
        self.at += 1;
        Ok(byte)
    }

    fn length(&mut self) -> Result<u64, Error> {
        let (mut value, mut shift) = (0u64, 0);
        loop {
            let byte = self.byte()?;
            if shift > 63 {
                return Err(Error("a length longer than 64 bits".into()));
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// A count of what follows: every item takes a byte at least, so a count beyond what is
    /// left is broken.
    fn count(&mut self) -> Result<usize, Error> {
        let n = self.length()?;
        usize::try_from(n)
            .ok()
            .filter(|n| *n <= self.bytes.len() - self.at)
            .ok_or_else(|| Error(format!("a count of {n} past the end")))
    }

    fn text(&mut self) -> Result<String, Error> {
        let n = self.count()?;
        let text =
            std::str::from_utf8(&self.bytes[self.at..self.at + n]).map_err(|_| Error("a string not UTF-8".into()))?;
        self.at += n;
        Ok(text.to_string())
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        if depth > MAX_DEPTH {
            return Err(Error(format!("nesting deeper than {MAX_DEPTH}")));
        }
        Ok(match self.byte()? {
            NULL => Value::Null,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            UNSIGNED => Value::from(self.length()?),
            SIGNED => {
                let z = self.length()?;
                Value::from(((z >> 1) as i64) ^ -((z & 1) as i64))
            }
            FLOAT => {
                let bytes: [u8; 8] = self
                    .bytes
                    .get(self.at..self.at + 8)
                    .and_then(|b| b.try_into().ok())
                    .ok_or_else(|| Error("a float past the end".into()))?;
                self.at += 8;
                Value::from(f64::from_le_bytes(bytes))
            }
            STRING => Value::String(self.text()?),
            SEQ => Value::Array((0..self.count()?).map(|_| self.value(depth + 1)).collect::<Result<_, _>>()?),
            MAP => {
                let mut map = Map::new();
                for _ in 0..self.count()? {
                    match self.value(depth + 1)? {
                        Value::String(key) => map.insert(key, self.value(depth + 1)?),
                        _ => return Err(Error("a map's key is not a string".into())),
                    };
                }
                Value::Object(map)
            }
            tag => return Err(Error(format!("an unknown tag {tag} at byte {}", self.at - 1))),
        })
    }
}

// ----- The lesson's fields, read by hand: a few lines a type, no reader compiled per type
// and format. Defaults are the format's own (`format.rs`); the tests hold every bundled lesson
// read this way to the same lesson read from its JSON.

type Read<T> = Result<T, Error>;

fn missing(field: &str, what: &str) -> Error {
    Error(format!("{field}: expected {what}"))
}

/// A field that is there and not null.
fn field<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    v.get(name).filter(|f| !f.is_null())
}

fn string(v: &Value, name: &str) -> Read<String> {
    opt_string(v, name)?.ok_or_else(|| missing(name, "a string"))
}

fn opt_string(v: &Value, name: &str) -> Read<Option<String>> {
    field(v, name).map(|f| f.as_str().map(String::from).ok_or_else(|| missing(name, "a string"))).transpose()
}

fn opt_u64(v: &Value, name: &str) -> Read<Option<u64>> {
    field(v, name).map(|f| f.as_u64().ok_or_else(|| missing(name, "a whole number"))).transpose()
}

fn u64_or(v: &Value, name: &str, default: u64) -> Read<u64> {
    Ok(opt_u64(v, name)?.unwrap_or(default))
}

fn number(v: &Value, name: &str) -> Read<u64> {
    opt_u64(v, name)?.ok_or_else(|| missing(name, "a whole number"))
}

fn opt_usize(v: &Value, name: &str) -> Read<Option<usize>> {
    Ok(opt_u64(v, name)?.map(|n| n as usize))
}

fn flag(v: &Value, name: &str) -> Read<bool> {
    field(v, name).map_or(Ok(false), |f| f.as_bool().ok_or_else(|| missing(name, "true or false")))
}

fn list<T>(v: &Value, name: &str, read: fn(&Value) -> Read<T>) -> Read<Vec<T>> {
    match field(v, name) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items.iter().map(read).collect(),
        Some(_) => Err(missing(name, "a list")),
    }
}

fn opt<T>(v: &Value, name: &str, read: fn(&Value) -> Read<T>) -> Read<Option<T>> {
    field(v, name).map(read).transpose()
}

/// A value of a closed set, by its name.
fn named<T>(v: &Value, name: &str, lookup: impl Fn(&str) -> Option<T>) -> Read<Option<T>> {
    field(v, name).map(|f| f.as_str().and_then(&lookup).ok_or_else(|| missing(name, "a known name"))).transpose()
}

fn text(v: &Value) -> Read<Text> {
    Ok(Text { ko: string(v, "ko")?, en: string(v, "en")? })
}

fn required<T>(v: &Value, name: &str, read: fn(&Value) -> Read<T>) -> Read<T> {
    read(field(v, name).ok_or_else(|| missing(name, "a value"))?)
}

fn kind_named(v: &Value) -> Option<Kind> {
    v.as_str().and_then(|n| Kind::ALL.into_iter().find(|k| k.name() == n))
}

fn kind(v: &Value, name: &str) -> Read<Option<Kind>> {
    named(v, name, |n| Kind::ALL.into_iter().find(|k| k.name() == n))
}

/// A map of strings (labels), a value that is not one read as "".
fn strings(map: &Map<String, Value>) -> BTreeMap<String, String> {
    sort::map_of(map.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())))
}

fn scenario(v: &Value) -> Read<Scenario> {
    let eras = match field(v, "eras") {
        None => BTreeMap::new(),
        Some(Value::Object(parts)) => {
            let mut eras = BTreeMap::new();
            for (name, part) in parts {
                eras.insert(Era::parse(name).ok_or_else(|| missing("eras", "a release"))?, era_part(part)?);
            }
            eras
        }
        Some(_) => return Err(missing("eras", "a map")),
    };
    Ok(Scenario {
        id: string(v, "id")?,
        title: required(v, "title", text)?,
        extra: flag(v, "extra")?,
        summary: required(v, "summary", text)?,
        era: named(v, "era", Era::parse)?.unwrap_or_default(),
        eras,
        seed: u64_or(v, "seed", one_u64())?,
        objects: list(v, "objects", |o| Ok(o.clone()))?,
        load_pods: opt_usize(v, "load_pods")?.unwrap_or(0),
        load_labels: opt(v, "load_labels", |l| {
            let labels = field(l, "labels").and_then(Value::as_object).ok_or_else(|| missing("labels", "a map"))?;
            Ok(LoadLabels { every: number(l, "every")? as usize, labels: strings(labels) })
        })?,
        config: opt(v, "config", config)?.unwrap_or_default(),
        timeline: list(v, "timeline", event)?,
        narration: list(v, "narration", note)?,
        questions: list(v, "questions", question)?,
        expect: checks(v, "expect")?,
        run: required(v, "run", |r| {
            Ok(RunLength { until_ms: number(r, "until_ms")?, max_steps: u64_or(r, "max_steps", default_max_steps())? })
        })?,
        recap: opt(v, "recap", recap)?,
        discuss: list(v, "discuss", text)?,
        challenges: list(v, "challenges", challenge)?,
    })
}

/// A text's checks: read where runs are judged (`checks`), passed over in the page.
fn checks(v: &Value, name: &str) -> Read<Vec<Expectation>> {
    match cfg!(feature = "checks") {
        true => list(v, name, expectation),
        false => Ok(Vec::new()),
    }
}

fn era_part(v: &Value) -> Read<EraPart> {
    Ok(EraPart {
        title: opt(v, "title", text)?,
        summary: opt(v, "summary", text)?,
        recap: opt(v, "recap", recap)?,
        narration: list(v, "narration", note)?,
        questions: list(v, "questions", question)?,
        expect: checks(v, "expect")?,
    })
}

fn recap(v: &Value) -> Read<Recap> {
    Ok(Recap {
        ko: string(v, "ko")?,
        en: string(v, "en")?,
        claims: checks(v, "claims")?,
        claims_none: opt_string(v, "claims_none")?,
    })
}

fn note(v: &Value) -> Read<Note> {
    Ok(Note {
        when: required(v, "match", pattern)?,
        text: required(v, "text", text)?,
        look_at: named(v, "look_at", Stage::named)?,
        corrects_article: flag(v, "corrects_article")?,
        offer: list(v, "offer", |o| o.as_str().map(String::from).ok_or_else(|| missing("offer", "a string")))?,
        claims: checks(v, "claims")?,
        claims_none: opt_string(v, "claims_none")?,
    })
}

fn question(v: &Value) -> Read<Question> {
    Ok(Question {
        when: required(v, "match", pattern)?,
        ask: required(v, "ask", text)?,
        choices: list(v, "choices", text)?,
        answer: number(v, "answer")? as usize,
        explain: required(v, "explain", text)?,
        explain_at: opt(v, "explain_at", pattern)?,
        claims: checks(v, "claims")?,
        claims_none: opt_string(v, "claims_none")?,
    })
}

fn pattern(v: &Value) -> Read<StepPattern> {
    Ok(StepPattern {
        at_step: opt_u64(v, "at_step")?,
        on: named(v, "on", |n| TraceKind::named(n).map(StepKind))?,
        from: named(v, "from", Stage::named)?,
        to: named(v, "to", Stage::named)?,
        key: opt_string(v, "key")?,
        tag: named(v, "tag", |n| Tag::ALL.iter().copied().find(|t| t.name() == n))?,
        code: opt_u64(v, "code")?.map(|c| c as u16),
        rv: field(v, "rv").map(|f| f.as_i64().ok_or_else(|| missing("rv", "a whole number"))).transpose()?,
        deltas: opt(v, "deltas", |d| {
            let names = d.as_array().ok_or_else(|| missing("deltas", "a list"))?;
            let delta = |n: &Value| n.as_str().and_then(|n| DeltaType::ALL.into_iter().find(|d| d.name() == n));
            names.iter().map(|n| delta(n).ok_or_else(|| missing("deltas", "a delta type"))).collect()
        })?,
        nth: opt_u64(v, "nth")?,
        after: opt(v, "after", pattern)?.map(Box::new),
    })
}

fn config(v: &Value) -> Read<Config> {
    let defaults = Config::default();
    let controller = match field(v, "controller") {
        None => ControllerSpec::default(),
        Some(c) => match string(c, "kind")?.as_str() {
            "observe" => ControllerSpec::Observe { watch: kind(c, "watch")?.unwrap_or_else(default_watch) },
            "replicas" => ControllerSpec::Replicas {
                owner: kind(c, "owner")?.unwrap_or_else(default_owner),
                edge_triggered: flag(c, "edge_triggered")?,
            },
            "stamp" => ControllerSpec::Stamp,
            "failing" => ControllerSpec::Failing { failures: number(c, "failures")? as u32 },
            "requeue-after" => ControllerSpec::RequeueAfter {
                watch: kind(c, "watch")?.unwrap_or_else(default_watch),
                after_ms: number(c, "after_ms")?,
            },
            "polling" => ControllerSpec::Polling {
                watch: kind(c, "watch")?.unwrap_or_else(default_watch),
                every_ms: number(c, "every_ms")?,
            },
            other => return Err(Error(format!("controller: an unknown kind {other:?}"))),
        },
    };
    Ok(Config {
        controller,
        resync_seconds: u64_or(v, "resync_seconds", defaults.resync_seconds)?,
        watch_cache: field(v, "watch_cache").and_then(Value::as_bool).unwrap_or(defaults.watch_cache),
        watch_cache_size: opt_usize(v, "watch_cache_size")?.unwrap_or(defaults.watch_cache_size),
        latency_ms: u64_or(v, "latency_ms", defaults.latency_ms)?,
        bookmark_seconds: u64_or(v, "bookmark_seconds", defaults.bookmark_seconds)?,
        namespace: opt_string(v, "namespace")?,
        label_selector: opt_string(v, "label_selector")?.unwrap_or_default(),
        field_selector: opt_string(v, "field_selector")?.unwrap_or_default(),
        metadata_only: flag(v, "metadata_only")?,
        transform: list(v, "transform", |p| {
            p.as_str().map(String::from).ok_or_else(|| missing("transform", "a string"))
        })?,
        indexes: list(v, "indexes", |i| i.as_str().map(String::from).ok_or_else(|| missing("indexes", "a string")))?,
        owner_indexes: list(v, "owner_indexes", |i| {
            let controller_kind = kind(i, "controller_kind")?.ok_or_else(|| missing("controller_kind", "a kind"))?;
            Ok(OwnerIndex { name: string(i, "name")?, controller_kind })
        })?,
        rbac: opt(v, "rbac", |r| {
            let verbs = r.as_array().ok_or_else(|| missing("rbac", "a list"))?;
            verbs
                .iter()
                .map(|n| n.as_str().and_then(Verb::from_rbac).ok_or_else(|| missing("rbac", "a verb")))
                .collect()
        })?,
        max_concurrent: opt_usize(v, "max_concurrent")?.unwrap_or(defaults.max_concurrent),
        reconcile_ms: u64_or(v, "reconcile_ms", defaults.reconcile_ms)?,
        poll_every_ms: opt_u64(v, "poll_every_ms")?,
        grants: list(v, "grants", |k| kind_named(k).ok_or_else(|| missing("grants", "a kind")))?,
        disable_for: list(v, "disable_for", |k| kind_named(k).ok_or_else(|| missing("disable_for", "a kind")))?,
        predicates: list(v, "predicates", |p| {
            p.as_str()
                .and_then(|n| Predicate::ALL.into_iter().find(|p| p.file_name() == n))
                .ok_or_else(|| missing("predicates", "a predicate"))
        })?,
        unsafe_disable_deep_copy: flag(v, "unsafe_disable_deep_copy")?,
        reader_fail_on_missing_informer: flag(v, "reader_fail_on_missing_informer")?,
        cache_start_ms: u64_or(v, "cache_start_ms", 0)?,
    })
}

fn get_read(v: &Value) -> Read<GetRead> {
    Ok(GetRead {
        at_ms: number(v, "at_ms")?,
        kind: kind(v, "kind")?.ok_or_else(|| missing("kind", "a kind"))?,
        namespace: opt_string(v, "namespace")?.unwrap_or_else(default_namespace),
        name: string(v, "name")?,
    })
}

fn list_read(v: &Value) -> Read<ListRead> {
    Ok(ListRead {
        at_ms: number(v, "at_ms")?,
        kind: kind(v, "kind")?.ok_or_else(|| missing("kind", "a kind"))?,
        namespace: opt_string(v, "namespace")?,
        field: opt_string(v, "field")?,
        value: opt_string(v, "value")?,
        labels: opt_string(v, "labels")?,
        limit: opt_usize(v, "limit")?,
        continue_token: opt_string(v, "continue")?,
    })
}

fn event(v: &Value) -> Read<Event> {
    let at_ms = number(v, "at_ms")?;
    let the_kind = || kind(v, "kind")?.ok_or_else(|| missing("kind", "a kind"));
    let namespace = || Ok::<_, Error>(opt_string(v, "namespace")?.unwrap_or_else(default_namespace));
    Ok(match string(v, "do")?.as_str() {
        "create" => Event::Create { at_ms, object: required(v, "object", |o| Ok(o.clone()))? },
        "api-create" => Event::ApiCreate { at_ms, object: required(v, "object", |o| Ok(o.clone()))? },
        "patch" => Event::Patch {
            at_ms,
            kind: the_kind()?,
            namespace: namespace()?,
            name: string(v, "name")?,
            set: field(v, "set").and_then(Value::as_object).cloned().unwrap_or_default(),
            labels: field(v, "labels").and_then(Value::as_object).map(strings).unwrap_or_default(),
        },
        "delete" => Event::Delete { at_ms, kind: the_kind()?, namespace: namespace()?, name: string(v, "name")? },
        "patch-status" => Event::PatchStatus {
            at_ms,
            kind: the_kind()?,
            namespace: namespace()?,
            name: string(v, "name")?,
            status: required(v, "status", |o| Ok(o.clone()))?,
        },
        "scale" => Event::Scale {
            at_ms,
            kind: the_kind()?,
            namespace: namespace()?,
            name: string(v, "name")?,
            replicas: field(v, "replicas").and_then(Value::as_i64).ok_or_else(|| missing("replicas", "a number"))?,
        },
        "delete-one" => {
            Event::DeleteOne { at_ms, kind: the_kind()?, namespace: namespace()?, selector: string(v, "selector")? }
        }
        "fault" => Event::Fault { at_ms, fault: fault(v)?.ok_or_else(|| missing("fault", "a fault"))? },
        "latency" => Event::Latency { at_ms, ms: number(v, "ms")? },
        "cache-get" => Event::CacheGet(get_read(v)?),
        "cache-mutate" => Event::CacheMutate {
            at_ms,
            kind: the_kind()?,
            namespace: namespace()?,
            name: string(v, "name")?,
            labels: field(v, "labels")
                .and_then(Value::as_object)
                .map(strings)
                .ok_or_else(|| missing("labels", "a map"))?,
        },
        "cache-list" => Event::CacheList(list_read(v)?),
        "api-get" => Event::ApiGet(get_read(v)?),
        "api-list" => Event::ApiList(list_read(v)?),
        other => return Err(Error(format!("timeline: an unknown event {other:?}"))),
    })
}

fn fault(v: &Value) -> Read<Option<FaultName>> {
    named(v, "fault", |n| Fault::named(n).map(FaultName))
}

fn expectation(v: &Value) -> Read<Expectation> {
    let at_least = || opt_u64(v, "at_least");
    let at_most = || opt_u64(v, "at_most");
    Ok(match string(v, "check")?.as_str() {
        "steps" => {
            Expectation::Steps { pattern: required(v, "match", pattern)?, at_least: at_least()?, at_most: at_most()? }
        }
        "log-contains" => Expectation::LogContains { text: string(v, "text")? },
        "cache-matches-store" => Expectation::CacheMatchesStore,
        "count" => Expectation::Count {
            kind: kind(v, "kind")?.ok_or_else(|| missing("kind", "a kind"))?,
            owner: opt_string(v, "owner")?,
            equals: number(v, "equals")? as usize,
        },
        "requests" => Expectation::Requests {
            verb: named(v, "verb", |n| Verb::from_metric(n).map(MetricVerb))?
                .ok_or_else(|| missing("verb", "a verb"))?,
            at_least: at_least()?,
            at_most: at_most()?,
        },
        "cache-list" => Expectation::CacheList {
            namespace: opt_string(v, "namespace")?,
            field: opt_string(v, "field")?,
            value: opt_string(v, "value")?,
            labels: opt_string(v, "labels")?,
            found: opt_usize(v, "found")?,
            examined_at_least: opt_usize(v, "examined_at_least")?,
            examined_at_most: opt_usize(v, "examined_at_most")?,
            error: opt_string(v, "error")?,
        },
        "cache-get" => Expectation::CacheGet {
            kind: kind(v, "kind")?.ok_or_else(|| missing("kind", "a kind"))?,
            namespace: opt_string(v, "namespace")?.unwrap_or_else(default_namespace),
            name: string(v, "name")?,
            error: opt_string(v, "error")?,
            lacks: opt_string(v, "lacks")?,
            has: opt_string(v, "has")?,
        },
        "cache-bytes" => Expectation::CacheBytes { at_least: at_least()?, at_most: at_most()? },
        "index-entries" => Expectation::IndexEntries { at_least: at_least()?, at_most: at_most()? },
        "reconciles" => Expectation::Reconciles { at_least: at_least()?, at_most: at_most()? },
        other => return Err(Error(format!("an unknown check {other:?}"))),
    })
}

fn challenge(v: &Value) -> Read<Challenge> {
    Ok(Challenge {
        id: string(v, "id")?,
        task: required(v, "task", text)?,
        goal: list(v, "goal", expectation)?,
        hints: list(v, "hints", text)?,
        solved: required(v, "solved", text)?,
        solution: list(v, "solution", |m| {
            Ok(Move { at_step: number(m, "at_step")?, fault: fault(m)?, console: opt_string(m, "console")? })
        })?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_read_back_from_its_compact_form_is_the_same_json() {
        let value = json!({
            "id": "x", "n": 7, "neg": -3, "big": u64::MAX, "float": 0.25, "yes": true, "no": false,
            "none": null, "list": [1, "two", {"three": [3]}], "empty": {}, "text": "한국어 \"quoted\"",
        });
        let bytes = from_json(&value);
        assert_eq!(super::value(&bytes), Ok(value));
    }

    #[test]
    fn a_lessons_defaults_are_the_formats_own() {
        let serde_default: Config = serde_json::from_value(json!({})).unwrap();
        assert_eq!(Config::default(), serde_default);
        let minimal = json!({"id": "x", "title": {"ko": "a", "en": "b"}, "summary": {"ko": "a", "en": "b"}, "run": {"until_ms": 5}});
        let read = crate::scenario::Scenario::read("x.json", &minimal.to_string()).unwrap();
        assert_eq!(lesson(&from_json(&minimal)).unwrap(), read);
    }

    #[test]
    fn broken_bytes_are_refused_with_what_is_wrong() {
        let broken = |bytes: &[u8]| super::value(bytes).unwrap_err().0;
        assert!(broken(&[]).contains("end early"));
        assert!(broken(&[9]).contains("unknown tag 9"));
        assert!(broken(&[SEQ, 0xff, 0xff, 0x7f]).contains("past the end"));
        assert!(broken(&[STRING, 2, 0xff, 0xfe]).contains("not UTF-8"));
        assert!(broken(&[NULL, NULL]).contains("after the value"));
        assert!(broken(&[MAP, 1, TRUE, NULL]).contains("key is not a string"));
        assert!(broken(&[SEQ, 1].repeat(200)).contains("nesting deeper"));
        let wrong = super::lesson(&from_json(&json!({"id": 7}))).unwrap_err().0;
        assert_eq!(wrong, "id: expected a string");
    }
}
