//! Live mode's side of `serve-api`: the page and its feed on a loopback HTTP port beside the
//! API's TLS port (a browser treats loopback as a secure context, so no certificate warning).
//!
//! - `GET /playground/live?token=…`: server-sent events — `world` (what the world was made
//!   from), then every input the world took as an `entry` ([`ServedEntry`](informer_sim::world::ServedEntry): the step it came
//!   before, the virtual time, the request or change), and a `status` (the steps taken, the
//!   time, paused or playing, the speed) whenever it changes. A page makes the same world from
//!   them, so what it draws is the served world itself.
//! - `POST /playground/live/control` (`Authorization: Bearer <token>`): `{"do": "pause"}`,
//!   `"play"`, `"step"`, `{"do": "speed", "speed": 2}`, `{"do": "fault", "fault": "compact-store"}`.
//! - Everything else: the release bundle's files, under the page's content security policy.
//!
//! The token is drawn at random at each start; a request without it is a 401, one sent from
//! another origin a 403 (no CORS header is ever sent, so a browser shares nothing across
//! origins either). Bounds: [`MAX_FOLLOWERS`] pages at once; the inputs kept for a page that
//! arrives later, [`MAX_FEED_BYTES`] (past them, a new page is refused with the reason and the
//! pages already following go on); a control body, [`MAX_CONTROL`] bytes.

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use informer_sim::kernel::Millis;
use informer_sim::world::ServedInput;
use serde_json::{json, Value};
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// Live pages following the world at once, at most.
pub const MAX_FOLLOWERS: usize = 16;
/// The inputs kept for pages that arrive later, at most (encoded).
pub const MAX_FEED_BYTES: usize = 64 * 1024 * 1024;
/// A control request's body, at most.
pub const MAX_CONTROL: usize = 4 * 1024;
/// Frames a page's connection may hold before it is dropped (it reconnects and starts again).
const FOLLOWER_BUFFER: usize = 65_536;

/// What the served world was made from: a page makes it from the same.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Origin {
    /// The lesson (`sandbox`) or the built-in run (`basic`) it was made from.
    pub scenario: String,
    /// The release (`1.37`).
    pub era: String,
    pub seed: u64,
    /// Milliseconds from the playground's epoch to the wall clock at the start (objects' times).
    pub clock_offset_ms: u64,
}

/// The served world's clock: playing, virtual time follows the wall clock times the speed from
/// where it was last set; paused, it stands (a step moves it to the next thing due).
#[derive(Debug)]
pub struct Clock {
    pub started: Instant,
    base_wall: Instant,
    base_virtual: Millis,
    pub speed: f64,
    pub paused: bool,
}

impl Clock {
    pub fn new(speed: f64) -> Self {
        let now = Instant::now();
        Clock { started: now, base_wall: now, base_virtual: 0, speed, paused: false }
    }

    /// The virtual time now, when playing.
    pub fn virtual_now(&self) -> Option<Millis> {
        let run = self.base_wall.elapsed().as_secs_f64() * 1000.0 * self.speed;
        (!self.paused).then(|| self.base_virtual + run as Millis)
    }

    /// Plays (or plays on at `speed`) from the world's time `now`.
    pub fn play(&mut self, now: Millis, speed: f64) {
        (self.paused, self.speed, self.base_wall, self.base_virtual) = (false, speed, Instant::now(), now);
    }

    pub fn pause(&mut self) {
        self.paused = true;
    }
}

/// A page's control request.
#[derive(Clone, Debug, PartialEq)]
pub enum Control {
    Pause,
    Play,
    Step,
    Speed(f64),
    Fault(String),
}

impl Control {
    /// Reads a control body; an error names what is wrong.
    pub fn parse(body: &[u8]) -> Result<Control, String> {
        let value: Value = serde_json::from_slice(body).map_err(|e| format!("the body is not JSON: {e}"))?;
        match value["do"].as_str() {
            Some("pause") => Ok(Control::Pause),
            Some("play") => Ok(Control::Play),
            Some("step") => Ok(Control::Step),
            Some("speed") => value["speed"]
                .as_f64()
                .filter(|s| *s > 0.0 && *s <= 1_000.0)
                .map(Control::Speed)
                .ok_or_else(|| format!("speed takes a factor above 0, at most 1000, not {}", value["speed"])),
            Some("fault") => value["fault"]
                .as_str()
                .map(|f| Control::Fault(f.to_string()))
                .ok_or_else(|| "a fault names itself: {\"do\": \"fault\", \"fault\": \"compact-store\"}".to_string()),
            Some(other) => Err(format!("unknown control {other:?}, expected pause, play, step, speed or fault")),
            None => Err("a control says what to do: {\"do\": \"pause\"}".into()),
        }
    }
}

/// A page asking to follow: the stream of its frames, or why not.
pub type Follower = oneshot::Sender<Result<mpsc::Receiver<Bytes>, String>>;

/// Every input the world took (encoded once), and the pages that follow it.
pub struct Feed {
    origin: Origin,
    entries: Vec<Bytes>,
    bytes: usize,
    /// The inputs outgrew [`MAX_FEED_BYTES`]: none are kept, a new page is refused.
    overflowed: bool,
    followers: Vec<mpsc::Sender<Bytes>>,
    last_status: Option<Status>,
}

/// A [`ServedEntry`](informer_sim::world::ServedEntry) as sent, borrowing its input (the same JSON).
#[derive(serde::Serialize)]
struct EntryFrame<'a> {
    step: u64,
    now: Millis,
    #[serde(flatten)]
    input: &'a ServedInput,
}

/// Where the served world is, as pages hear it.
#[derive(Clone, Copy, PartialEq, serde::Serialize)]
struct Status {
    steps: u64,
    now: Millis,
    paused: bool,
    speed: f64,
}

fn frame(event: &str, data: &impl serde::Serialize) -> Bytes {
    let data = serde_json::to_string(data).unwrap_or_default();
    Bytes::from(format!("event: {event}\ndata: {data}\n\n"))
}

impl Feed {
    pub fn new(origin: Origin) -> Self {
        Feed { origin, entries: Vec::new(), bytes: 0, overflowed: false, followers: Vec::new(), last_status: None }
    }

    /// An input the world is about to take, at step `step` and virtual time `now`.
    pub fn push(&mut self, step: u64, now: Millis, input: &ServedInput) {
        let bytes = frame("entry", &EntryFrame { step, now, input });
        if !self.overflowed {
            self.bytes += bytes.len();
            self.entries.push(bytes.clone());
            if self.bytes > MAX_FEED_BYTES {
                self.overflowed = true;
                self.entries = Vec::new();
            }
        }
        self.send(&bytes);
    }

    /// Tells the pages where the world is, when that changed.
    pub fn status(&mut self, steps: u64, now: Millis, clock: &Clock) {
        let status = Status { steps, now, paused: clock.paused, speed: clock.speed };
        if self.last_status != Some(status) {
            self.last_status = Some(status);
            self.send(&frame("status", &status));
        }
    }

    /// A page's connection is dropped when it falls [`FOLLOWER_BUFFER`] frames behind or goes away.
    fn send(&mut self, bytes: &Bytes) {
        self.followers.retain(|f| f.try_send(bytes.clone()).is_ok());
    }

    /// A new page: everything so far, then what comes.
    pub fn follow(&mut self, follower: Follower) {
        self.followers.retain(|f| !f.is_closed());
        let refused = if self.overflowed {
            Some(format!("the world has taken more inputs than a page can be sent from its start ({MAX_FEED_BYTES} bytes): restart serve-api to follow it live"))
        } else if self.followers.len() >= MAX_FOLLOWERS {
            Some(format!("{MAX_FOLLOWERS} pages follow this world already"))
        } else {
            None
        };
        if let Some(why) = refused {
            let _ = follower.send(Err(why));
            return;
        }
        let (tx, rx) = mpsc::channel(self.entries.len() + FOLLOWER_BUFFER);
        let mut first = vec![frame("world", &self.origin)];
        first.extend(self.entries.iter().cloned());
        first.extend(self.last_status.iter().map(|s| frame("status", s)));
        for bytes in first {
            let _ = tx.try_send(bytes);
        }
        if follower.send(Ok(rx)).is_ok() {
            self.followers.push(tx);
        }
    }
}

/// What the page port hands the world's thread.
pub enum Ask {
    Follow(Follower),
    Control(Control, oneshot::Sender<Result<Value, String>>),
}

/// The page port's state: the token, its own origin, the bundle, the way to the world's thread.
pub struct PagePort {
    pub token: String,
    pub origin: String,
    pub dist: std::path::PathBuf,
    /// Hands an ask to the world's thread; false when it has stopped.
    pub ask: Box<dyn Fn(Ask) -> bool + Send + Sync>,
}

fn refuse(status: StatusCode, reason: &str) -> Response {
    let body = json!({"kind": "Status", "code": status.as_u16(), "reason": reason}).to_string();
    (status, [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], body).into_response()
}

/// The page port's one handler.
pub async fn handle(
    axum::extract::State(port): axum::extract::State<std::sync::Arc<PagePort>>,
    request: Request,
) -> Response {
    let path = request.uri().path().to_string();
    let headers = request.headers().clone();
    let method = request.method().clone();
    if !path.starts_with("/playground/live") {
        if method != Method::GET && method != Method::HEAD {
            return refuse(StatusCode::METHOD_NOT_ALLOWED, "the page port serves files to GET");
        }
        return match crate::bundle::file(&port.dist, &path, &headers).await {
            Some(response) => response,
            None => refuse(StatusCode::NOT_FOUND, "no such file in the bundle"),
        };
    }
    if let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        if origin != port.origin {
            return refuse(
                StatusCode::FORBIDDEN,
                &format!("the live feed answers its own page ({}) only, not {origin}", port.origin),
            );
        }
    }
    match (method, path.as_str()) {
        (Method::GET, "/playground/live") => {
            let query = request.uri().query().unwrap_or_default();
            let token = query.split('&').find_map(|p| p.strip_prefix("token=")).unwrap_or_default();
            if !crate::bundle::same_secret(token, &port.token) {
                return refuse(
                    StatusCode::UNAUTHORIZED,
                    "the live feed needs this start's token (the link serve-api printed)",
                );
            }
            follow(&port).await
        }
        (Method::POST, "/playground/live/control") => {
            if !crate::bundle::same_secret(bearer(&headers), &port.token) {
                return refuse(
                    StatusCode::UNAUTHORIZED,
                    "a control needs this start's token: Authorization: Bearer <token>",
                );
            }
            let Ok(body) = axum::body::to_bytes(request.into_body(), MAX_CONTROL).await else {
                return refuse(StatusCode::PAYLOAD_TOO_LARGE, &format!("a control is at most {MAX_CONTROL} bytes"));
            };
            let control = match Control::parse(&body) {
                Ok(c) => c,
                Err(why) => return refuse(StatusCode::BAD_REQUEST, &why),
            };
            let (tx, rx) = oneshot::channel();
            if !(port.ask)(Ask::Control(control, tx)) {
                return refuse(StatusCode::SERVICE_UNAVAILABLE, "the world stopped");
            }
            match rx.await {
                Ok(Ok(done)) => {
                    (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], done.to_string()).into_response()
                }
                Ok(Err(why)) => refuse(StatusCode::BAD_REQUEST, &why),
                Err(_) => refuse(StatusCode::SERVICE_UNAVAILABLE, "the world stopped"),
            }
        }
        (_, "/playground/live" | "/playground/live/control") => {
            refuse(StatusCode::METHOD_NOT_ALLOWED, "the feed is read with GET, a control sent with POST")
        }
        _ => refuse(StatusCode::NOT_FOUND, "no such live endpoint: /playground/live and /playground/live/control"),
    }
}

fn bearer(headers: &HeaderMap) -> &str {
    let value = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
    value.strip_prefix("Bearer ").unwrap_or_default().trim()
}

async fn follow(port: &PagePort) -> Response {
    let (tx, rx) = oneshot::channel();
    if !(port.ask)(Ask::Follow(tx)) {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "the world stopped");
    }
    match rx.await {
        Ok(Ok(frames)) => {
            let stream = tokio_stream::wrappers::ReceiverStream::new(frames);
            let body = Body::from_stream(tokio_stream::StreamExt::map(stream, Ok::<Bytes, std::convert::Infallible>));
            let headers = [(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-store")];
            (StatusCode::OK, headers, body).into_response()
        }
        Ok(Err(why)) => refuse(StatusCode::SERVICE_UNAVAILABLE, &why),
        Err(_) => refuse(StatusCode::SERVICE_UNAVAILABLE, "the world stopped"),
    }
}
