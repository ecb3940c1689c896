//! `serve-api`: the simulated cluster on the wire. An adapter around the sans-IO world: axum
//! (on tokio) speaks HTTP/1.1 on loopback and hands each request to one thread that owns the
//! world; there it is read into a typed request (`request.rs`), authenticated by its bearer
//! token (and `Impersonate-User`), answered by the world as one step of its trace, and written
//! back as kube-apiserver writes it (`encode.rs`). The world runs in real time: between
//! requests its thread moves the virtual clock with the wall clock (times `--speed`), delivers
//! whatever is due and pumps the outside watch streams: each holds what its reader has not
//! taken yet (a watch-list's initial events go out at the reader's pace), and a reader that
//! falls more than `WATCH_BACKLOG` events behind has its stream closed (it relists), as the
//! cacher closes a watcher whose buffer stays full; the others lose nothing.
//! Faults come through `POST /playground/faults` (`{"fault": …}`) or standard input, one name
//! a line (`compact-store`, `restart-api-server`, `latency 500`, …).

use super::discovery;
use super::encode;
use super::fields::Directive;
use super::kubeconfig::{self, Tokens};
use super::request::{Request, Subresource, Target, Verb};
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use informer_sim::cluster::api_errors::{FieldError, FieldProblem};
use informer_sim::cluster::patch::{PatchRequest, PatchType};
use informer_sim::cluster::rbac::RequestAttributes;
use informer_sim::cluster::registry::Preconditions;
use informer_sim::cluster::watch::ApiWatchId;
use informer_sim::cluster::{ApiObject, Kind, Status, UserInfo};
use informer_sim::era::Era;
use informer_sim::world::{
    Fault, OutsideAnswer, OutsideCall, OutsideRequest, ServedChange, ServedInput, ServedResult, TraceEvent, World,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// kube-apiserver's `MaxRequestBodyBytes` (3 MiB).
pub const MAX_BODY: usize = 3 * 1024 * 1024;
/// Encoded events handed to a stream's connection at once.
pub const WATCH_BUFFER: usize = 1_000;
/// Events a watch stream may hold for a slow reader before it is closed (more than the largest
/// list a link can ask for, so initial events never close a stream).
pub const WATCH_BACKLOG: usize = 120_000;
/// Outside watch streams open at once, at most.
pub const MAX_WATCHES: usize = 2_000;

/// How serve-api runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub address: String,
    pub port: u16,
    /// Virtual milliseconds per wall-clock millisecond.
    pub speed: f64,
    /// Print each step as JSON (else as `run` prints it).
    pub json: bool,
    /// Print no steps.
    pub quiet: bool,
    /// Where to write the kubeconfig.
    pub kubeconfig: std::path::PathBuf,
    /// Where to write the outside conversation (every request, answer and streamed event, one
    /// JSON object a line), to replay it through the simulator's own client pipeline.
    pub record: Option<std::path::PathBuf>,
    /// The loopback port of the page and its live feed (`live.rs`; 0: any free port).
    pub page_port: u16,
    /// The release bundle the page port serves.
    pub dist: std::path::PathBuf,
    /// The lesson or run the world is made from (a live page makes it from the same).
    pub scenario: String,
}

/// An outside watch stream.
struct Stream {
    kind: Kind,
    table: bool,
    /// Metadata alone (`as=PartialObjectMetadata`).
    metadata: bool,
    tx: mpsc::Sender<Bytes>,
    /// Encoded events the connection has no room for yet.
    backlog: std::collections::VecDeque<Bytes>,
    deadline: Option<Instant>,
}

/// What the server guards: the world, its clock, the outside streams.
struct Served {
    world: World,
    /// This start's bearer tokens.
    tokens: Tokens,
    clock: super::live::Clock,
    streams: BTreeMap<ApiWatchId, Stream>,
    /// Every input the world took, and the live pages that follow it.
    live: super::live::Feed,
    json: bool,
    quiet: bool,
    record: Option<std::io::BufWriter<std::fs::File>>,
}

/// A request as the world's thread receives it.
struct Incoming {
    method: Method,
    path: String,
    query: String,
    headers: HeaderMap,
    body: Bytes,
}

/// What the world's thread answers: a document, or a stream of watch events.
enum Reply {
    /// A status, a JSON body and the `Warning` headers.
    Document(u16, Value, Vec<String>),
    Stream(mpsc::Receiver<Bytes>),
}

/// What the HTTP side sends the world's thread.
enum Command {
    Request(Incoming, oneshot::Sender<Reply>),
    Fault(String),
    /// A live page asks to follow the world, or controls it (`live.rs`).
    Live(super::live::Ask),
}

type Inbox = std::sync::mpsc::Sender<Command>;

impl Served {
    fn print(&self, event: &TraceEvent) {
        if !self.quiet {
            let line = if self.json { informer_sim::i18n::json_line(event) } else { informer_sim::i18n::line(event) };
            println!("{line}");
        }
    }

    /// Writes one line of the conversation's record, stamped with the wall-clock
    /// milliseconds since the server started (`t`).
    fn record(&mut self, mut entry: Value) {
        let t = self.clock.started.elapsed().as_millis() as u64;
        if let Some(out) = self.record.as_mut() {
            use std::io::Write;
            entry["t"] = json!(t);
            let _ = writeln!(out, "{entry}");
            let _ = out.flush();
        }
    }

    /// Every input is written to the feed before the world takes it (the step it comes
    /// before, the virtual time), so a live page makes the same world.
    fn input(&mut self, input: &ServedInput) {
        self.live.push(self.world.steps(), self.world.now(), input);
    }

    /// Serves an outside request: its answer and its step.
    fn request(&mut self, request: OutsideRequest) -> (Result<OutsideAnswer, Status>, TraceEvent) {
        self.input(&ServedInput::Request { request: Box::new(request.clone()) });
        self.world.request(request)
    }

    /// Makes a served change: what it gave.
    fn change(&mut self, change: ServedChange) -> ServedResult {
        self.input(&ServedInput::Change { change: change.clone() });
        self.world.change(change)
    }

    fn fault(&mut self, fault: Fault) {
        let input = ServedInput::Fault { fault };
        self.input(&input);
        self.world.act(input.intervention());
    }

    fn end_watch(&mut self, id: ApiWatchId, why: &str) {
        self.streams.remove(&id);
        self.change(ServedChange::EndWatch { watch: id });
        self.record(json!({"watch": id, "closed": why}));
    }

    /// Playing, the world's clock follows the wall clock (times the speed) and the streams get
    /// everything due; paused, only the streams' connections are served. A dropped connection
    /// (the disconnect fault) drops the outside streams too. Live pages hear the step reached.
    fn tick(&mut self) {
        if let Some(now) = self.clock.virtual_now() {
            for e in self.world.advance_to(now) {
                self.took(&e);
            }
            self.deliver(usize::MAX);
        }
        self.pump();
        self.live.status(self.world.steps(), self.world.now(), &self.clock);
    }

    /// A step the world took: printed; the disconnect fault drops the outside streams too.
    fn took(&mut self, e: &TraceEvent) {
        self.print(e);
        if matches!(e.outcome, informer_sim::world::Outcome::Fault { fault: Fault::DisconnectWatch, .. }) {
            for id in self.streams.keys().copied().collect::<Vec<_>>() {
                self.end_watch(id, "disconnected");
            }
        }
    }

    /// Hands each outside stream at most `at_most` of the events it is owed (the first streams
    /// first); how many were handed over.
    fn deliver(&mut self, at_most: usize) -> usize {
        let mut left = at_most;
        let mut batch = Vec::new();
        let ids: Vec<ApiWatchId> = self.streams.keys().copied().collect();
        for id in ids {
            if left == 0 {
                break;
            }
            if self.world.api.events_owed(id) == 0 {
                continue;
            }
            let at_most = u32::try_from(left).unwrap_or(u32::MAX);
            if let ServedResult::Delivered(events) = self.change(ServedChange::Deliver { watch: id, at_most }) {
                left -= events.len().min(left);
                batch.push((id, events));
            }
        }
        self.send(batch);
        at_most - left
    }

    /// One step of a paused world: an event owed to an outside stream, else the world's next step.
    fn step_once(&mut self) -> Value {
        if self.deliver(1) == 1 {
            return json!({"stepped": "delivered"});
        }
        match self.world.step() {
            Some(e) => {
                self.took(&e);
                json!({"stepped": "world"})
            }
            None => json!({"stepped": "nothing"}),
        }
    }

    /// A live page's control.
    fn control(&mut self, control: super::live::Control) -> Result<Value, String> {
        use super::live::Control;
        let now = self.world.now();
        let done = match control {
            Control::Pause => {
                self.clock.pause();
                json!({"paused": true})
            }
            Control::Play => {
                self.clock.play(now, self.clock.speed);
                json!({"paused": false})
            }
            Control::Speed(speed) => {
                match self.clock.paused {
                    true => self.clock.speed = speed,
                    false => self.clock.play(now, speed),
                }
                json!({"speed": speed})
            }
            Control::Step if !self.clock.paused => return Err("the world is playing: pause it to step".into()),
            Control::Step => self.step_once(),
            Control::Fault(text) => {
                let fault = fault_of(&text)?;
                self.fault(fault);
                if self.clock.paused {
                    // Paused, the fault is the step taken now.
                    if let Some(e) = self.world.step() {
                        self.took(&e);
                    }
                }
                json!({"fault": text})
            }
        };
        self.tick();
        Ok(done)
    }

    /// Encodes events for their outside streams' connections.
    fn send(&mut self, batch: Vec<(ApiWatchId, Vec<informer_sim::cluster::WatchEvent>)>) {
        let now = self.world.api.wall_now();
        let mut sent = Vec::new();
        // An event fanned out to many watchers is encoded once.
        let mut encoded: std::collections::HashMap<(bool, bool, &'static str, String, i64), Bytes> = Default::default();
        for (id, events) in batch {
            let Some(s) = self.streams.get_mut(&id) else { continue };
            for e in events {
                if self.record.is_some() {
                    sent.push(json!({"watch": id, "event": encode::event(s.kind, &e, s.metadata)}));
                }
                let encode = |e: &informer_sim::cluster::WatchEvent| {
                    let line = match e {
                        informer_sim::cluster::WatchEvent::Added(o)
                        | informer_sim::cluster::WatchEvent::Modified(o)
                        | informer_sim::cluster::WatchEvent::Deleted(o)
                            if s.table =>
                        {
                            json!({"type": e.type_name(), "object": encode::table(s.kind, &[o], None, now)})
                        }
                        _ => encode::event(s.kind, e, s.metadata),
                    };
                    let mut bytes = line.to_string().into_bytes();
                    bytes.push(b'\n');
                    Bytes::from(bytes)
                };
                let bytes = match &e {
                    informer_sim::cluster::WatchEvent::Added(o)
                    | informer_sim::cluster::WatchEvent::Modified(o)
                    | informer_sim::cluster::WatchEvent::Deleted(o) => encoded
                        .entry((s.table, s.metadata, e.type_name(), o.key(), o.resource_version()))
                        .or_insert_with(|| encode(&e))
                        .clone(),
                    _ => encode(&e),
                };
                s.backlog.push_back(bytes);
            }
        }
        for entry in sent {
            self.record(entry);
        }
    }

    /// Moves each outside stream's encoded events to its connection; ends the streams that
    /// closed, timed out, or whose reader went away or fell too far behind.
    fn pump(&mut self) {
        let mut done = Vec::new();
        for (id, s) in &mut self.streams {
            let mut alive = s.backlog.len() <= WATCH_BACKLOG;
            while let Some(bytes) = s.backlog.pop_front() {
                match s.tx.try_send(bytes) {
                    Ok(()) => {}
                    Err(mpsc::error::TrySendError::Full(bytes)) => {
                        s.backlog.push_front(bytes);
                        break;
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => {
                        alive = false;
                        break;
                    }
                }
            }
            let expired = s.deadline.is_some_and(|d| Instant::now() >= d);
            if !alive || expired || !self.world.api.watch_is_open(*id) || s.tx.is_closed() {
                done.push(*id);
            }
        }
        for id in done {
            self.end_watch(id, "ended");
        }
    }
}

/// The world's thread: requests and faults as they come, and between them the clock.
fn world_thread(mut served: Served, inbox: std::sync::mpsc::Receiver<Command>) {
    loop {
        match inbox.recv_timeout(Duration::from_millis(5)) {
            Ok(Command::Request(incoming, reply)) => {
                served.tick();
                let _ = reply.send(respond(&mut served, incoming));
            }
            Ok(Command::Fault(text)) => match fault_of(&text) {
                Ok(fault) => served.fault(fault),
                Err(e) => eprintln!("error: {e}"),
            },
            Ok(Command::Live(super::live::Ask::Follow(follower))) => served.live.follow(follower),
            Ok(Command::Live(super::live::Ask::Control(control, reply))) => {
                let _ = reply.send(served.control(control));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        }
        served.tick();
    }
}

/// Runs serve-api until interrupted; an error says why it could not start or stopped. `make`
/// builds the world, on the thread that will own it (a world is not `Send`: it shares objects with `Rc`).
pub fn run(make: impl FnOnce() -> Result<World, String> + Send + 'static, options: Options) -> Result<(), String> {
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            return Err(format!("cannot start the server's runtime: {e}"));
        }
    };
    let certificates = match super::tls::make() {
        Ok(c) => c,
        Err(e) => {
            return Err(e.to_string());
        }
    };
    let listener = match std::net::TcpListener::bind((options.address.as_str(), options.port)) {
        Ok(l) => l,
        Err(e) => {
            return Err(format!("cannot listen on {}:{}: {e}", options.address, options.port));
        }
    };
    let address = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
    // The page port is loopback's alone, whatever address the API is served on.
    let page_listener = match std::net::TcpListener::bind(("127.0.0.1", options.page_port)) {
        Ok(l) => l,
        Err(e) => return Err(format!("cannot listen on 127.0.0.1:{} for the page: {e}", options.page_port)),
    };
    let page_origin = format!("http://{}", page_listener.local_addr().map(|a| a.to_string()).unwrap_or_default());
    let page_token = crate::room::terminal::random_hex(16)?;
    let (inbox, receive) = std::sync::mpsc::channel();
    let (started, start) = std::sync::mpsc::channel::<Result<(), String>>();
    let thread_options = options.clone();
    let authority = certificates.authority.clone();
    std::thread::spawn(move || {
        let world = match make() {
            Ok(w) => w,
            Err(e) => return drop(started.send(Err(e))),
        };
        let (ns, name) = (world.config.controller_namespace.clone(), world.config.controller_name.clone());
        let tokens = match Tokens::new() {
            Ok(t) => t,
            Err(e) => return drop(started.send(Err(e))),
        };
        let mut accounts = world.api.rbac().service_accounts();
        if !accounts.contains(&(ns.clone(), name.clone())) {
            accounts.push((ns.clone(), name.clone()));
        }
        let config = kubeconfig::kubeconfig(&format!("https://{address}"), &authority, &tokens, &accounts);
        // Written whole, then renamed into place: whoever waits for the file reads all of it.
        let path = &thread_options.kubeconfig;
        let partial = path.with_extension("partial");
        if let Err(e) = std::fs::write(&partial, config).and_then(|()| std::fs::rename(&partial, path)) {
            let path = thread_options.kubeconfig.display();
            return drop(started.send(Err(format!("cannot write the kubeconfig {path}: {e}"))));
        }
        eprintln!(
            "serving Kubernetes {} (the playground's) on https://{address}; kubeconfig: {} (contexts playground, {ns}-{name})",
            world.config.era,
            thread_options.kubeconfig.display()
        );
        let _ = started.send(Ok(()));
        // Objects are stamped with the wall clock's time (virtual time 0 is 2025-01-01).
        const PLAYGROUND_EPOCH_MS: u64 = 1_735_689_600_000;
        let unix_ms =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let mut world = world;
        let clock_offset_ms = unix_ms.saturating_sub(PLAYGROUND_EPOCH_MS);
        world.api.set_clock_offset(clock_offset_ms);
        let origin = super::live::Origin {
            scenario: thread_options.scenario.clone(),
            era: world.config.era.to_string(),
            seed: world.config.seed,
            clock_offset_ms,
        };
        let served = Served {
            world,
            tokens,
            clock: super::live::Clock::new(thread_options.speed),
            live: super::live::Feed::new(origin),
            streams: BTreeMap::new(),
            json: thread_options.json,
            quiet: thread_options.quiet,
            record: None,
        };
        let mut served = served;
        if let Some(path) = &thread_options.record {
            match std::fs::File::create(path) {
                Ok(f) => served.record = Some(std::io::BufWriter::new(f)),
                Err(e) => eprintln!("error: cannot write the record {}: {e}", path.display()),
            }
        }
        world_thread(served, receive);
    });
    match start.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            return Err(e.to_string());
        }
        Err(_) => {
            return Err("the world did not start".into());
        }
    }
    eprintln!("live page: {page_origin}/?live={page_token}");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let page_inbox = std::sync::Mutex::new(inbox.clone());
    let page_port = std::sync::Arc::new(super::live::PagePort {
        token: page_token,
        origin: page_origin,
        dist: options.dist.clone(),
        ask: Box::new(move |ask| page_inbox.lock().is_ok_and(|inbox| inbox.send(Command::Live(ask)).is_ok())),
    });
    let served = runtime.block_on(async move {
        let _ = page_listener.set_nonblocking(true);
        let page_app = axum::Router::new().fallback(super::live::handle).with_state(page_port);
        match tokio::net::TcpListener::from_std(page_listener) {
            Ok(listener) => drop(tokio::spawn(async move { axum::serve(listener, page_app).await })),
            Err(e) => return Err(format!("cannot serve the page: {e}")),
        }
        let tls = match axum_server::tls_rustls::RustlsConfig::from_pem(
            certificates.serving.into_bytes(),
            certificates.serving_key.into_bytes(),
        )
        .await
        {
            Ok(c) => c,
            Err(e) => {
                return Err(format!("cannot use the server's certificate: {e}"));
            }
        };
        let faults = inbox.clone();
        tokio::spawn(async move { read_faults(faults).await });
        let app = axum::Router::new().fallback(handle).with_state(inbox);
        let handle = axum_server::Handle::new();
        let stopper = handle.clone();
        tokio::spawn(async move {
            let _ = tokio::signal::ctrl_c().await;
            stopper.graceful_shutdown(Some(Duration::from_secs(1)));
        });
        let serving = axum_server::from_tcp_rustls(listener, tls).handle(handle).serve(app.into_make_service()).await;
        serving.map_err(|e| format!("the server stopped: {e}"))
    });
    // Standard input's reader blocks on a read no one may ever finish: the runtime is not
    // waited for (it would hang after Ctrl-C until a line is typed).
    runtime.shutdown_timeout(Duration::from_millis(200));
    served
}

/// Standard input: one fault a line.
async fn read_faults(inbox: Inbox) {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line = line.trim();
        if !line.is_empty() && inbox.send(Command::Fault(line.to_string())).is_err() {
            return;
        }
    }
}

/// A fault by name (`latency 500` with its milliseconds).
pub fn fault_of(text: &str) -> Result<Fault, String> {
    let mut words = text.split_whitespace();
    match (words.next(), words.next()) {
        (Some("latency"), Some(ms)) => {
            ms.parse().ok().filter(|ms| *ms <= informer_sim::limits::MAX_LATENCY_MS).map(Fault::Latency).ok_or_else(
                || format!("latency takes milliseconds from 0 to {}, not {ms:?}", informer_sim::limits::MAX_LATENCY_MS),
            )
        }
        (Some(name), None) => Fault::named(name).ok_or_else(|| {
            format!("unknown fault {name:?}, expected one of {}, latency <ms>", Fault::NAMES.join(", "))
        }),
        _ => Err(format!("unknown fault {text:?}")),
    }
}

fn json_response(code: u16, body: &Value) -> Reply {
    Reply::Document(code, body.clone(), Vec::new())
}

/// `reply` with a `Warning` header for each of `texts` (`warning.rs`).
fn warned(reply: Reply, texts: &[String]) -> Reply {
    match reply {
        Reply::Document(code, body, _) if !texts.is_empty() => {
            Reply::Document(code, body, super::warning::headers(texts))
        }
        other => other,
    }
}

fn error(s: &Status) -> Reply {
    json_response(s.code, &encode::status(s))
}

fn unauthorized() -> Reply {
    error(&Status::new(401, "Unauthorized", "Unauthorized".into()))
}

/// The identity a request acts as: its bearer token's, or the one it impersonates.
fn identify(headers: &HeaderMap, tokens: &Tokens, world: &World) -> Result<UserInfo, Reply> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    // No credentials at all is the anonymous user, whom RBAC then judges; a token the server
    // did not give out is a 401.
    let user = match header("authorization") {
        None => UserInfo { name: "system:anonymous".into(), groups: vec!["system:unauthenticated".into()] },
        Some(auth) => {
            let token = auth.strip_prefix("Bearer ").ok_or_else(unauthorized)?;
            tokens.user_of(token.trim()).ok_or_else(unauthorized)?
        }
    };
    let Some(target) = header("impersonate-user") else { return Ok(user) };
    let attrs = RequestAttributes {
        verb: "impersonate",
        group: "",
        resource: "users",
        subresource: "",
        namespace: "",
        name: Some(target),
    };
    world.api.rbac().authorize(&user, &attrs).map_err(|s| error(&s))?;
    Ok(match target.strip_prefix("system:serviceaccount:").and_then(|r| r.split_once(':')) {
        Some((ns, name)) => UserInfo::service_account(ns, name),
        None => {
            let mut groups: Vec<String> =
                headers.get_all("impersonate-group").iter().filter_map(|v| v.to_str().ok()).map(String::from).collect();
            groups.push("system:authenticated".into());
            UserInfo { name: target.to_string(), groups }
        }
    })
}

/// The HTTP side: hands the request to the world's thread and writes what comes back.
async fn handle(
    axum::extract::State(inbox): axum::extract::State<Inbox>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    // At most the limit and one byte more are read (`limitedReadBody`); a longer body is
    // refused in kube-apiserver's words, whatever its length.
    let body = axum::body::to_bytes(body, MAX_BODY + 1).await.ok().filter(|b| b.len() <= MAX_BODY);
    let reply = if let Some(body) = body {
        let (path, query) = (uri.path().to_string(), uri.query().unwrap_or("").to_string());
        let (tx, rx) = oneshot::channel();
        let incoming = Incoming { method, path, query, headers, body };
        match inbox.send(Command::Request(incoming, tx)).ok().map(|()| rx) {
            Some(rx) => rx.await.unwrap_or_else(|_| error(&Status::internal("the world stopped".into()))),
            None => error(&Status::internal("the world stopped".into())),
        }
    } else {
        let s = Status::new(413, "RequestEntityTooLarge", format!("Request entity too large: limit is {MAX_BODY}"));
        error(&s)
    };
    match reply {
        Reply::Document(code, body, warnings) => {
            let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut response = (status, [("content-type", "application/json")], body.to_string()).into_response();
            for warning in warnings.into_iter().filter_map(|w| HeaderValue::from_str(&w).ok()) {
                response.headers_mut().append("warning", warning);
            }
            // A Status that asks for a retry says when in a header too (`responsewriters.ErrorNegotiated`).
            let retry_after = (body["kind"] == "Status").then(|| body.pointer("/details/retryAfterSeconds")).flatten();
            if let Some(seconds) = retry_after.and_then(Value::as_u64).filter(|seconds| *seconds > 0) {
                response.headers_mut().insert("retry-after", seconds.into());
            }
            response
        }
        Reply::Stream(rx) => {
            let stream = tokio_stream::wrappers::ReceiverStream::new(rx);
            let body = Body::from_stream(tokio_stream::StreamExt::map(stream, Ok::<Bytes, std::convert::Infallible>));
            (StatusCode::OK, [("content-type", "application/json"), ("cache-control", "no-cache")], body)
                .into_response()
        }
    }
}

/// The world's answer to one request.
fn respond(served: &mut Served, incoming: Incoming) -> Reply {
    let Incoming { method, path, query, headers, body } = incoming;
    if path == "/playground/faults" && method == Method::POST {
        return match identify(&headers, &served.tokens, &served.world) {
            Ok(user) if user.groups.iter().any(|g| g == "system:masters") => admin_fault(served, &body),
            Ok(user) if user.name == "system:anonymous" => unauthorized(),
            Ok(user) => error(&Status::new(
                403,
                "Forbidden",
                format!("faults are the administrator's: user {:?} may not inject them", user.name),
            )),
            Err(reply) => reply,
        };
    }
    let mut request = match Request::parse(method.as_str(), &path, &query) {
        Ok(r) => r,
        Err(s) => return error(&s),
    };
    if let Target::Discovery(path) = &request.target {
        return match discovery::document(path, served.world.config.era) {
            Some(doc) => json_response(200, &doc),
            None => error(&Status::no_such_resource()),
        };
    }
    let user = match identify(&headers, &served.tokens, &served.world) {
        Ok(u) => u,
        Err(reply) => return reply,
    };
    let accept = headers.get("accept").and_then(|v| v.to_str().ok()).unwrap_or("");
    let table = encode::wants_table(accept);
    // `transformObject`: a list's metadata is asked for as a list, an object's or a watch's as
    // objects; the other form is refused once there is an answer to transform.
    let asked = encode::wants_metadata(accept);
    let metadata = asked.is_some();
    let wrong_form = asked.filter(|&asked| (request.verb == Verb::List) != (asked == "PartialObjectMetadataList"));
    request.list.metadata_only = metadata;
    request.watch.metadata_only = metadata;
    let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let protobuf = content_type.starts_with(super::protobuf::MEDIA_TYPE);
    if protobuf && request.target != Target::SelfSubjectAccessReview {
        let s = Status::new(
            415,
            "UnsupportedMediaType",
            format!("the body of the request was in an unknown format - accepted media types include: application/json, application/merge-patch+json, application/strategic-merge-patch+json (not {content_type:?})"),
        );
        return error(&s);
    }
    match request.target.clone() {
        Target::SelfSubjectAccessReview => review(served, &user, &body, protobuf),
        Target::Namespaces { name } => namespaces(served, &user, request.verb, name.as_deref(), &body),
        Target::Discovery(_) => unreachable_response(),
        Target::Resource { kind, namespace, name, subresource } => {
            let ns = namespace.clone().unwrap_or_default();
            let era = served.world.config.era;
            // Authorised first (a 403 before anything else), then the options (422), then the
            // body (400), as the handlers take them.
            let refuse = |served: &Served, problem: Status| {
                let attrs = RequestAttributes {
                    verb: request.verb.rbac(),
                    group: kind.group(),
                    resource: kind.resource(),
                    subresource: "",
                    namespace: &ns,
                    name: name.as_deref(),
                };
                error(&served.world.api.rbac().authorize(&user, &attrs).err().unwrap_or(problem))
            };
            let options = match super::options::write_options(request.verb, &query, &body, era) {
                Ok(options) => options,
                Err(invalid) => return refuse(served, invalid),
            };
            let body_of = WriteBody { bytes: &body, content_type: &content_type, fields: options.fields, era };
            let (call, warnings) = match call_of(&request, kind, &ns, name.as_deref(), subresource, body_of) {
                Ok(call) => call,
                Err(s) => return refuse(served, s),
            };
            if matches!(call, OutsideCall::Watch { .. }) && served.streams.len() >= MAX_WATCHES {
                let s = Status::new(429, "TooManyRequests", "too many watch streams open; try again later".into());
                return error(&s);
            }
            let dry_run = options.dry_run;
            let agent = headers.get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
            let (answer, event) = served.request(OutsideRequest { user, agent: agent.clone(), call, dry_run });
            served.print(&event);
            if served.record.is_some() {
                let answered = match &answer {
                    Err(s) => json!({"error": encode::status(s)}),
                    Ok(OutsideAnswer::Object(o)) => json!({"object": encode::object(o)}),
                    Ok(OutsideAnswer::List(l)) => json!({"list": encode::list(kind, l, metadata)}),
                    Ok(OutsideAnswer::Watch(id)) => json!({"watch": id}),
                };
                let entry = json!({"agent": agent, "method": method.as_str(), "path": path, "query": query, "answer": answered});
                served.record(entry);
            }
            let now = served.world.api.wall_now();
            if let (Some(asked), Ok(answered)) = (wrong_form, &answer) {
                if let OutsideAnswer::Watch(id) = answered {
                    served.end_watch(*id, "not acceptable");
                }
                // The handler's object is of the internal version: `*core.ConfigMap`.
                let internal =
                    format!("*{}.{}", if kind.group().is_empty() { "core" } else { kind.group() }, kind.name());
                let (what, type_name) = match request.verb == Verb::List {
                    true => ("a list", format!("{internal}List")),
                    false => ("not a list", internal),
                };
                let why = format!("you requested {asked}, but the requested object is {what} ({type_name})");
                return error(&Status::new(406, "NotAcceptable", why));
            }
            let reply = match answer {
                Err(s) => error(&s),
                Ok(OutsideAnswer::Object(o)) if subresource == Some(Subresource::Scale) => {
                    json_response(200, &encode::scale(&o))
                }
                Ok(OutsideAnswer::Object(o)) if table => {
                    json_response(200, &encode::table(kind, &[&o], Some(o.resource_version()), now))
                }
                Ok(OutsideAnswer::Object(o)) if request.verb == Verb::Delete => {
                    json_response(200, &encode::deleted(kind, &o))
                }
                Ok(OutsideAnswer::Object(o)) if metadata => json_response(200, &encode::object(&o.partial_metadata())),
                Ok(OutsideAnswer::Object(o)) => {
                    let code = if request.verb == Verb::Create { 201 } else { 200 };
                    json_response(code, &encode::object(&o))
                }
                Ok(OutsideAnswer::List(l)) if table => {
                    let objects: Vec<&ApiObject> = l.items.iter().map(|o| &**o).collect();
                    let mut t = encode::table(kind, &objects, Some(l.resource_version), now);
                    if !l.continue_token.is_empty() {
                        t["metadata"]["continue"] = json!(l.continue_token);
                    }
                    json_response(200, &t)
                }
                Ok(OutsideAnswer::List(l)) => json_response(200, &encode::list(kind, &l, metadata)),
                Ok(OutsideAnswer::Watch(id)) => {
                    let (tx, rx) = mpsc::channel(WATCH_BUFFER);
                    let deadline = (request.watch.timeout_secs > 0)
                        .then(|| Instant::now() + Duration::from_secs(request.watch.timeout_secs));
                    let stream = Stream { kind, table, metadata, tx, backlog: Default::default(), deadline };
                    served.streams.insert(id, stream);
                    if !served.clock.paused {
                        served.deliver(usize::MAX);
                    }
                    served.pump();
                    Reply::Stream(rx)
                }
            };
            warned(reply, &warnings)
        }
    }
}

fn unreachable_response() -> Reply {
    error(&Status::internal("discovery is answered before identification".into()))
}

/// A request's body and how it is read.
struct WriteBody<'a> {
    bytes: &'a [u8],
    content_type: &'a str,
    fields: Directive,
    era: Era,
}

/// The world call a resource request makes, and the warnings its body earned.
fn call_of(
    request: &Request,
    kind: Kind,
    namespace: &str,
    name: Option<&str>,
    subresource: Option<Subresource>,
    body: WriteBody,
) -> Result<(OutsideCall, Vec<String>), Status> {
    let WriteBody { bytes: body, content_type, fields, era } = body;
    let name = name.unwrap_or_default().to_string();
    let mut warnings = Vec::new();
    let parse = || -> Result<Value, Status> {
        serde_json::from_slice(body)
            .map_err(|e| Status::bad_request(format!("the object provided is unrecognized: json parse error: {e}")))
    };
    let mut object = || -> Result<ApiObject, Status> {
        // As kube-apiserver decodes into the endpoint's type, a body may leave out its kind
        // and apiVersion (the Python client sends them only when set).
        let mut value = parse()?;
        if let Some(fields) = value.as_object_mut() {
            fields.entry("kind").or_insert_with(|| json!(kind.name()));
            fields.entry("apiVersion").or_insert_with(|| json!(kind.api_version()));
        }
        if value.is_object() {
            let text = |field: &str| value[field].as_str().unwrap_or_default().to_string();
            super::decode::body_kind(kind, &text("kind"), &text("apiVersion"))?;
            let problems = super::fields::problems(era, kind.name(), body);
            match fields {
                Directive::Strict if !problems.is_empty() => {
                    let why = super::fields::strict_decoding_error(&problems);
                    return Err(super::decode::cannot_be_handled(kind, &text("kind"), &text("apiVersion"), &why));
                }
                Directive::Strict | Directive::Ignore => {}
                Directive::Warn => warnings.extend(problems.iter().map(ToString::to_string)),
            }
            super::fields::prune(era, kind.name(), &mut value);
        }
        let mut o: ApiObject = serde_json::from_value(value)
            .map_err(|e| Status::bad_request(format!("the object provided is unrecognized: {e}")))?;
        if o.metadata.namespace.is_empty() {
            o.metadata.namespace = namespace.to_string();
        }
        // The handlers' `checkName`: the body names the object the URL names.
        if o.metadata.namespace != namespace && !namespace.is_empty() {
            let why = "the namespace of the provided object does not match the namespace sent on the request";
            return Err(Status::bad_request(why.into()));
        }
        if !name.is_empty() && o.metadata.name != name {
            return Err(Status::bad_request(format!(
                "the name of the object ({}) does not match the name on the URL ({name})",
                o.metadata.name
            )));
        }
        Ok(o)
    };
    let call = match (request.verb, subresource) {
        (Verb::Get, _) => OutsideCall::Get {
            kind,
            namespace: namespace.into(),
            name,
            resource_version: request.list.resource_version.clone(),
        },
        (Verb::List, _) => OutsideCall::List { kind, options: request.list.clone() },
        (Verb::Watch, _) => OutsideCall::Watch { kind, options: request.watch.clone() },
        (Verb::Create, _) => OutsideCall::Create { kind, object: object()? },
        (Verb::Update, Some(Subresource::Scale)) | (Verb::Patch, Some(Subresource::Scale)) => {
            let scale = parse()?;
            let replicas = scale["spec"]["replicas"]
                .as_i64()
                .ok_or_else(|| Status::bad_request("a Scale needs spec.replicas".into()))?;
            OutsideCall::Patch {
                patch: PatchRequest {
                    kind,
                    namespace: namespace.into(),
                    name,
                    status: false,
                    body: json!({"spec": {"replicas": replicas}}),
                    patch_type: PatchType::Merge,
                },
            }
        }
        (Verb::Update, sub) => {
            OutsideCall::Update { kind, object: object()?, status: sub == Some(Subresource::Status) }
        }
        (Verb::Patch, sub) => {
            let patch_type = PatchType::from_content_type(content_type)?;
            let mut patch = parse()?;
            let read = patch.clone();
            let problems = super::fields::patch_problems(era, kind.name(), patch_type, body, &mut patch);
            match fields {
                Directive::Strict if !problems.is_empty() => return Err(strict_patch(patch_type, &read, &problems)),
                Directive::Strict | Directive::Ignore => {}
                Directive::Warn => warnings.extend(problems.iter().map(ToString::to_string)),
            }
            let status = sub == Some(Subresource::Status);
            OutsideCall::Patch {
                patch: PatchRequest { kind, namespace: namespace.into(), name, status, body: patch, patch_type },
            }
        }
        (Verb::Delete, _) => {
            OutsideCall::Delete { kind, namespace: namespace.into(), name, preconditions: preconditions(body)? }
        }
    };
    Ok((call, warnings))
}

/// A PATCH refused under `Strict` (`handlers/patch.go`): a 422 on `patch` whose value is the
/// patch as Go prints the map it read (strategic merge) or the patched object's JSON (merge and
/// JSON patches; here the patch's own JSON: the world applies the patch after this is decided).
fn strict_patch(patch_type: PatchType, patch: &Value, problems: &[super::fields::FieldProblem]) -> Status {
    let value = match patch_type {
        PatchType::StrategicMerge => super::fields::go_printed(patch),
        PatchType::Merge | PatchType::Json => patch.to_string(),
    };
    let detail = super::fields::strict_decoding_error(problems);
    let invalid = FieldError::new("patch", FieldProblem::Invalid { value: format!("{value:?}"), detail });
    Status::invalid_fields("", "", "", &[invalid])
}

/// A DELETE body's `preconditions` (`DeleteOptions`; no body: none).
fn preconditions(body: &[u8]) -> Result<Preconditions, Status> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Preconditions::default());
    }
    let options: Value = serde_json::from_slice(body)
        .map_err(|e| Status::bad_request(format!("the object provided is unrecognized: json parse error: {e}")))?;
    let field = |name: &str| options["preconditions"][name].as_str().map(String::from);
    Ok(Preconditions { uid: field("uid"), resource_version: field("resourceVersion") })
}

/// `POST /playground/faults`, as the administrator: `{"fault": "compact-store"}` or
/// `{"fault": "latency", "ms": 500}`.
fn admin_fault(served: &mut Served, body: &[u8]) -> Reply {
    let request: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return error(&Status::bad_request(format!("the body is not JSON: {e}"))),
    };
    let name = request["fault"].as_str().unwrap_or_default();
    let text = match request["ms"].as_u64() {
        Some(ms) => format!("{name} {ms}"),
        None => name.to_string(),
    };
    match fault_of(&text) {
        Ok(fault) => {
            served.fault(fault);
            served.tick();
            json_response(200, &encode::success())
        }
        Err(e) => error(&Status::bad_request(e)),
    }
}

/// `SelfSubjectAccessReview`: may the asker do this?
fn review(served: &Served, user: &UserInfo, body: &[u8], protobuf: bool) -> Reply {
    let request: Value = if protobuf {
        match super::protobuf::self_subject_access_review_spec(body) {
            Ok(spec) => json!({"spec": spec}),
            Err(s) => return error(&s),
        }
    } else {
        match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => {
                return error(&Status::bad_request(format!(
                    "the object provided is unrecognized: json parse error: {e}"
                )))
            }
        }
    };
    let a = &request["spec"]["resourceAttributes"];
    let s = |f: &str| a[f].as_str().unwrap_or_default();
    let name = a["name"].as_str().filter(|n| !n.is_empty());
    let attrs = RequestAttributes {
        verb: s("verb"),
        group: s("group"),
        resource: s("resource"),
        subresource: s("subresource"),
        namespace: s("namespace"),
        name,
    };
    let allowed = served.world.api.rbac().allows(user, &attrs);
    json_response(
        201,
        &json!({
            "kind": "SelfSubjectAccessReview",
            "apiVersion": "authorization.k8s.io/v1",
            "metadata": {"creationTimestamp": null},
            "spec": request["spec"],
            "status": {"allowed": allowed},
        }),
    )
}

/// Namespaces: those that hold an object (the playground keeps no Namespace objects).
/// `/api/v1/namespaces[/name]`: the namespaces the world's API server has (`namespaces.rs`):
/// read, made (POST) and deleted, with RBAC on `namespaces` at the cluster scope.
fn namespaces(served: &mut Served, user: &UserInfo, verb: Verb, name: Option<&str>, body: &[u8]) -> Reply {
    let namespace = |n: &str, phase: &str| json!({"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": n, "labels": {"kubernetes.io/metadata.name": n}}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": phase}});
    let api = &served.world.api;
    let answered = |result: ServedResult, phase: &str, n: &str| match result {
        ServedResult::Namespace(Err(s)) => error(&s),
        _ => json_response(if phase == "Active" { 201 } else { 200 }, &namespace(n, phase)),
    };
    if matches!(verb, Verb::Get | Verb::List) {
        if let Err(s) = api.authorize_namespaces(user, verb.rbac(), name) {
            return error(&s);
        }
    }
    match (verb, name) {
        (Verb::Get, Some(n)) if api.namespaces().has(n) => json_response(200, &namespace(n, "Active")),
        (Verb::Get, Some(n)) => error(&informer_sim::cluster::namespaces::not_found(n)),
        (Verb::List, None) => {
            let items: Vec<Value> = api.namespaces().names().map(|n| namespace(n, "Active")).collect();
            json_response(200, &json!({"kind": "NamespaceList", "apiVersion": "v1", "metadata": {}, "items": items}))
        }
        (Verb::Create, None) => {
            let named = serde_json::from_slice::<Value>(body)
                .ok()
                .and_then(|b| b["metadata"]["name"].as_str().map(String::from));
            let Some(n) = named else {
                return error(&Status::bad_request("a Namespace to create names itself in metadata.name".into()));
            };
            let made = served.change(ServedChange::CreateNamespace { user: user.clone(), name: n.clone() });
            answered(made, "Active", &n)
        }
        (Verb::Delete, Some(n)) => {
            let deleted = served.change(ServedChange::DeleteNamespace { user: user.clone(), name: n.to_string() });
            answered(deleted, "Terminating", n)
        }
        _ => error(&Status::new(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource".into(),
        )),
    }
}
