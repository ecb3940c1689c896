//! The simulator's own client pipeline fed the conversation a real client had with
//! serve-api: the judge of the real-client tests. serve-api records (`--record`) every request
//! and answer, and every event it streamed; here the requests of one client (picked by its
//! User-Agent) are replayed through a [`ClientPipeline`] — the reflector, the era's queue and
//! the informer, wired as the page's world wires them, and fed by the same rules (which
//! commands feed the queue, what a pop takes, how it is processed) — : each request the
//! reflector makes is matched with the next one the real
//! client made — its parameters compared — and gets that request's recorded answer; each
//! recorded event of the watch the reflector reads is handed to it, at the time it was sent.
//! What the handler is told is collected, to be compared with what the real client's handler
//! was told.
//!
//! Timing is the recording's: backoffs end when the real client's next request came, a watch
//! ends where its stream ended.

use informer_sim::client::pipeline::ClientPipeline;
use informer_sim::client::reflector::{Command, Input, ReflectorConfig};
use informer_sim::client::shared_informer::Notification;
use informer_sim::cluster::api_errors::{StatusCause, StatusDetails, RESOURCE_VERSION_TOO_LARGE};
use informer_sim::cluster::watch::WatchEvent;
use informer_sim::cluster::{ApiObject, Kind, ListResponse, Shared, Status};
use informer_sim::era::Era;
use informer_sim::kernel::Rng;
use serde_json::Value;
use std::collections::VecDeque;

/// One notification a handler received: `OnAdd`, `OnUpdate` or `OnDelete`, with the key, the
/// resourceVersion (the new one for an update), and for adds whether the object was in the
/// initial list, for deletes whether it came as a tombstone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    pub call: String,
    pub key: String,
    pub rv: String,
    pub flag: bool,
    /// When the answer or event that caused it was sent (ms of the record; 0 for a real
    /// client's own notifications).
    pub t: u64,
}

/// What a replay found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replayed {
    pub told: Vec<Told>,
    /// Requests whose parameters differ from the real client's, in words.
    pub differences: Vec<String>,
    /// Requests the reflector made and the real client's, in order: `LIST rv=…` / `WATCH rv=…`.
    pub requests: Vec<(String, String)>,
    /// When the client's last request or stream ended (ms of the record).
    pub ended: u64,
    /// The informer's cache at the end: `namespace/name` and resourceVersion, by key.
    pub cache: Vec<(String, String)>,
}

/// One line of the record, as the replay needs it.
enum Item {
    Request { query: std::collections::BTreeMap<String, String>, answer: Value, t: u64 },
    Event { watch: u64, event: Value, t: u64 },
    Closed { watch: u64, t: u64 },
}

fn status_of(v: &Value) -> Status {
    let reason: &'static str = match v["reason"].as_str().unwrap_or("") {
        "Expired" => "Expired",
        "Gone" => "Gone",
        "Forbidden" => "Forbidden",
        "NotFound" => "NotFound",
        "TooManyRequests" => "TooManyRequests",
        "Timeout" => "Timeout",
        "Invalid" => "Invalid",
        "InternalError" => "InternalError",
        _ => "BadRequest",
    };
    let status =
        Status::new(v["code"].as_u64().unwrap_or(500) as u16, reason, v["message"].as_str().unwrap_or("").to_string());
    // The reflector decides on a cause, never on words: `ResourceVersionTooLarge` is kept.
    let too_large = v["details"]["causes"]
        .as_array()
        .is_some_and(|causes| causes.iter().any(|c| c["reason"] == RESOURCE_VERSION_TOO_LARGE));
    match too_large {
        true => {
            let cause = StatusCause { reason: RESOURCE_VERSION_TOO_LARGE, ..StatusCause::default() };
            status.with_details(StatusDetails { causes: vec![cause], ..StatusDetails::default() })
        }
        false => status,
    }
}

fn object(v: &Value) -> Option<ApiObject> {
    serde_json::from_value(v.clone()).ok()
}

fn event_of(v: &Value) -> Option<WatchEvent> {
    let o = &v["object"];
    let rv = || o["metadata"]["resourceVersion"].as_str().and_then(|s| s.parse().ok()).unwrap_or(0);
    Some(match v["type"].as_str()? {
        "ADDED" => WatchEvent::Added(object(o)?.into()),
        "MODIFIED" => WatchEvent::Modified(object(o)?.into()),
        "DELETED" => WatchEvent::Deleted(object(o)?.into()),
        "BOOKMARK" if o["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true" => {
            WatchEvent::InitialEventsEnd(rv())
        }
        "BOOKMARK" => WatchEvent::Bookmark(rv()),
        "ERROR" => WatchEvent::Error(status_of(o)),
        _ => return None,
    })
}

/// The conversation of the client whose User-Agent contains `agent`, about `kind`.
fn conversation(record: &[Value], agent: &str, kind: Kind) -> VecDeque<Item> {
    let mut ours = std::collections::BTreeSet::new();
    let mut items = VecDeque::new();
    let resource = format!("/{}", kind.resource());
    for entry in record {
        let t = entry["t"].as_u64().unwrap_or(0);
        if let Some(path) = entry["path"].as_str() {
            let mine = entry["agent"].as_str().is_some_and(|a| a.contains(agent)) && path.ends_with(&resource);
            if !mine || entry["method"] != "GET" {
                continue;
            }
            if let Some(id) = entry["answer"]["watch"].as_u64() {
                ours.insert(id);
            }
            let query = informer_playground::wire::request::query_pairs(entry["query"].as_str().unwrap_or(""));
            items.push_back(Item::Request { query, answer: entry["answer"].clone(), t });
        } else if let Some(id) = entry["watch"].as_u64().filter(|id| ours.contains(id)) {
            if entry.get("closed").is_some() {
                items.push_back(Item::Closed { watch: id, t });
            } else {
                items.push_back(Item::Event { watch: id, event: entry["event"].clone(), t });
            }
        }
    }
    items
}

/// Replays the conversation of the client `agent` had about `kind` (in `namespace`, with
/// `selector`) through the simulator's reflector, FIFO and informer of `era`.
pub fn replay(
    record: &[Value],
    agent: &str,
    era: Era,
    kind: Kind,
    namespace: Option<String>,
    selector: &str,
) -> Replayed {
    let mut items = conversation(record, agent, kind);
    let ended = items.iter().map(Item::t).max().unwrap_or(0);
    let mut out = run(&mut items, era, kind, namespace, selector);
    out.ended = ended;
    let left: Vec<String> = items
        .iter()
        .filter_map(|i| match i {
            Item::Request { query, .. } => Some(format!("{query:?}")),
            _ => None,
        })
        .collect();
    if !left.is_empty() {
        out.differences.push(format!("the real client made {} requests the reflector did not: {left:?}", left.len()));
    }
    out
}

impl Item {
    fn t(&self) -> u64 {
        match self {
            Item::Request { t, .. } | Item::Event { t, .. } | Item::Closed { t, .. } => *t,
        }
    }
}

/// Runs the reflector until it or the recorded conversation ends; what is left unread stays in
/// `items`.
fn run(items: &mut VecDeque<Item>, era: Era, kind: Kind, namespace: Option<String>, selector: &str) -> Replayed {
    let mut config = ReflectorConfig::new(kind);
    config.namespace = namespace;
    config.label_selector = selector.to_string();
    let mut pipeline = ClientPipeline::new(config, era, 0);
    let listener = pipeline.informer.add_event_handler("judge", 0, 0);
    pipeline.start(0);
    let mut rng = Rng::new(1);
    let mut out = Replayed::default();
    let mut reading: Option<u64> = None;
    let mut now = 0;
    let mut pending: VecDeque<Input> = VecDeque::from([Input::Start]);
    'run: loop {
        let Some(input) = pending.pop_front() else {
            // The reflector waits on its watch: the next recorded event of that stream.
            let Some(watch) = reading else { break };
            let next = loop {
                match items.pop_front() {
                    Some(Item::Event { watch: w, event, t }) if w == watch => break Some((event_of(&event), t)),
                    Some(Item::Closed { watch: w, t }) if w == watch => break Some((None, t)),
                    Some(Item::Request { .. }) => {
                        out.differences
                            .push("the real client made a request while the reflector was still watching".into());
                        break None;
                    }
                    Some(_) => continue,
                    None => break None,
                }
            };
            match next {
                Some((Some(event), t)) => {
                    now = t;
                    pending.push_back(Input::Event(event));
                }
                Some((None, t)) => {
                    now = t;
                    reading = None;
                    pending.push_back(Input::WatchEnded);
                }
                None => break,
            }
            continue;
        };
        let commands = pipeline.handle(input, now, &mut rng);
        for command in commands {
            if ClientPipeline::feeds_queue(&command) {
                if let Some(op) = pipeline.fifo_op(command) {
                    pipeline.feed(op);
                }
                drain(&mut pipeline, listener, now, &mut out.told);
                continue;
            }
            match command {
                Command::List(options) => {
                    let Some((query, answer, t)) = next_request(items) else { break 'run };
                    now = t;
                    let mine = format!("LIST rv={:?} limit={}", options.resource_version, options.limit);
                    let theirs = format!(
                        "LIST rv={:?} limit={}",
                        query.get("resourceVersion").cloned().unwrap_or_default(),
                        query.get("limit").and_then(|l| l.parse::<usize>().ok()).unwrap_or(0)
                    );
                    if query.contains_key("watch") {
                        out.differences.push(format!("the reflector listed ({mine}); the real client watched"));
                    } else if mine != theirs {
                        out.differences.push(format!("{mine} where the real client sent {theirs}"));
                    }
                    out.requests.push((mine, theirs));
                    let response = match (&answer["list"], &answer["error"]) {
                        (list, _) if list.is_object() => Ok(ListResponse {
                            items: list["items"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(object)
                                .map(|mut o| {
                                    // A list's items carry its kind, not their own.
                                    let kind = list["kind"].as_str().unwrap_or_default();
                                    o.kind = kind.strip_suffix("List").unwrap_or(kind).to_string();
                                    o.api_version = list["apiVersion"].as_str().unwrap_or_default().to_string();
                                    Shared::new(o)
                                })
                                .collect(),
                            resource_version: list["metadata"]["resourceVersion"]
                                .as_str()
                                .and_then(|s| s.parse().ok())
                                .unwrap_or(0),
                            continue_token: list["metadata"]["continue"].as_str().unwrap_or("").to_string(),
                            remaining_item_count: list["metadata"]["remainingItemCount"].as_i64(),
                        }),
                        (_, error) => Err(status_of(error)),
                    };
                    pending.push_back(Input::ListResponse(response));
                }
                Command::Watch(options) => {
                    let Some((query, answer, t)) = next_request(items) else { break 'run };
                    now = t;
                    let initial = options.send_initial_events.map(|b| b.to_string()).unwrap_or_default();
                    let mine = format!("WATCH rv={:?} sendInitialEvents={initial}", options.resource_version);
                    let theirs = format!(
                        "WATCH rv={:?} sendInitialEvents={}",
                        query.get("resourceVersion").cloned().unwrap_or_default(),
                        query.get("sendInitialEvents").cloned().unwrap_or_default()
                    );
                    let timeout = query.get("timeoutSeconds").and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
                    if !query.contains_key("watch") {
                        out.differences.push(format!("the reflector watched ({mine}); the real client listed"));
                    } else if mine != theirs {
                        out.differences.push(format!("{mine} where the real client sent {theirs}"));
                    } else if !(300..600).contains(&timeout) {
                        out.differences
                            .push(format!("the real client's timeoutSeconds={timeout} is outside [300, 600)"));
                    }
                    out.requests.push((mine, theirs));
                    match answer["watch"].as_u64() {
                        Some(id) => {
                            reading = Some(id);
                            pending.push_back(Input::WatchOpened(Ok(id)));
                        }
                        None => pending.push_back(Input::WatchOpened(Err(status_of(&answer["error"])))),
                    }
                }
                Command::StopWatch(_) => reading = None,
                Command::Backoff(_) => pending.push_back(Input::BackoffElapsed),
                // Resync timers are the driver's and the replay runs none; what feeds the
                // queue went to the pipeline above.
                Command::StartResync
                | Command::StopResync
                | Command::Replace { .. }
                | Command::Add(_)
                | Command::Update(_)
                | Command::Delete(_)
                | Command::Bookmark(_) => {}
            }
        }
    }
    let mut cache: Vec<(String, String)> =
        pipeline.informer.indexer.shared().map(|o| (o.key(), o.resource_version().to_string())).collect();
    cache.sort();
    out.cache = cache;
    out
}

/// The next request of the client (skipping events of streams it no longer reads).
fn next_request(items: &mut VecDeque<Item>) -> Option<(std::collections::BTreeMap<String, String>, Value, u64)> {
    loop {
        match items.pop_front()? {
            Item::Request { query, answer, t } => return Some((query, answer, t)),
            Item::Event { .. } | Item::Closed { .. } => continue,
        }
    }
}

/// Pops and processes everything queued (the hops the world takes a step each), collecting
/// what the handler is told.
fn drain(pipeline: &mut ClientPipeline, listener: usize, now: u64, told: &mut Vec<Told>) {
    pipeline.settle();
    let informer = &mut pipeline.informer;
    while let Some(n) = informer.next_notification(listener) {
        let (call, flag) = match &n {
            Notification::Add { is_in_initial_list, .. } => ("OnAdd", *is_in_initial_list),
            Notification::Update { .. } => ("OnUpdate", false),
            Notification::Delete(d) => ("OnDelete", d.is_tombstone()),
        };
        told.push(Told { call: call.into(), key: n.key(), rv: n.resource_version().to_string(), flag, t: now });
    }
}
