//! The room's HTTP: the API under `/room/<code>/` and the bundle's files everywhere else.
//! Every answer is the server's own: a refusal is JSON with its kind and its reason.
//!
//! - `GET /room/<code>/events?attendee=<id>` (or `?view=projector`, or `?key=<key>`): the
//!   room as that page sees it, as server-sent events, the whole view at each change;
//! - `GET /room/<code>/view?…`: the same, once;
//! - `POST /room/<code>/requests`: a request (`informer_sim::room::Request`'s JSON), the
//!   facilitator's with `Authorization: Bearer <key>` (whose requests may be as large as a
//!   lesson file: the facilitator brings lessons from outside);
//! - `GET /room/<code>/lesson?id=<id>`: the file of a lesson the facilitator brought;
//! - `GET /room/<code>/report.json?key=…`, `report.html?key=…`: the report.

use super::shared::{Shared, StreamGuard};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use informer_sim::i18n::Lang;
use informer_sim::limits::MAX_LESSON_BYTES;
use informer_sim::room::{AttendeeId, Refusal, Role, MAX_MESSAGE};
use std::collections::HashMap;
use std::sync::Arc;

pub async fn handle(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    let query: HashMap<String, String> =
        axum::extract::Query::try_from_uri(request.uri()).map(|q| q.0).unwrap_or_default();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let method = request.method().clone();
    match segments.as_slice() {
        ["room", code, what] => {
            if *code != shared.code() {
                return refuse(Refusal::NoSuchRoom);
            }
            let needs = |allowed: Method| {
                if method == allowed {
                    Ok(())
                } else {
                    Err(Refusal::WrongMethod { allowed: allowed.to_string() })
                }
            };
            let answer = match *what {
                "events" => needs(Method::GET).and_then(|()| events(&shared, &query)),
                "view" => needs(Method::GET).and_then(|()| {
                    let role = role(&shared, &query)?;
                    Ok(json(StatusCode::OK, &shared.view(&role)))
                }),
                "requests" => match needs(Method::POST) {
                    Ok(()) => post(&shared, request).await,
                    Err(refusal) => Err(refusal),
                },
                "lesson" => needs(Method::GET).and_then(|()| {
                    let text = shared.lesson(query.get("id").map(String::as_str).unwrap_or_default());
                    let text = text.ok_or(Refusal::NotFound)?;
                    Ok(crate::bundle::file_response("lesson.json", text.as_bytes().to_vec(), None))
                }),
                "report.json" | "report.html" => needs(Method::GET).and_then(|()| {
                    keyed(&shared, query.get("key").map(String::as_str))?;
                    let report = shared.report();
                    Ok(match *what {
                        "report.json" => json(StatusCode::OK, &report),
                        _ => crate::bundle::file_response("report.html", report.html().into_bytes(), None),
                    })
                }),
                _ => Err(Refusal::NotFound),
            };
            answer.unwrap_or_else(refuse)
        }
        ["room", ..] => refuse(Refusal::NotFound),
        _ if method == Method::GET || method == Method::HEAD => bundle_file(&shared, &path, request.headers()).await,
        _ => refuse(Refusal::WrongMethod { allowed: "GET".into() }),
    }
}

/// Who is asking: the facilitator (with the key), the projector, or an attendee.
fn role(shared: &Shared, query: &HashMap<String, String>) -> Result<Role, Refusal> {
    if let Some(key) = query.get("key") {
        keyed(shared, Some(key))?;
        return Ok(Role::Facilitator);
    }
    if query.get("view").map(String::as_str) == Some("projector") {
        return Ok(Role::Projector);
    }
    let id = AttendeeId(query.get("attendee").cloned().unwrap_or_default());
    if !id.well_formed() {
        return Err(Refusal::BadAttendee);
    }
    Ok(Role::Attendee(id))
}

/// The facilitator's key, compared in constant time.
fn keyed(shared: &Shared, given: Option<&str>) -> Result<(), Refusal> {
    crate::bundle::same_secret(given.unwrap_or_default(), &shared.key).then_some(()).ok_or(Refusal::NeedsKey)
}

fn events(shared: &Arc<Shared>, query: &HashMap<String, String>) -> Result<Response, Refusal> {
    let role = role(shared, query)?;
    let attendee = match &role {
        Role::Attendee(id) => Some(id.clone()),
        _ => None,
    };
    let guard: StreamGuard =
        shared.stream_opens(attendee).ok_or(Refusal::TooManyStreams { max: super::shared::MAX_STREAMS })?;
    let shared = shared.clone();
    let changes = tokio_stream::wrappers::WatchStream::new(shared.subscribe());
    let stream = tokio_stream::StreamExt::map(changes, move |_| {
        let _counted = &guard;
        let view = shared.view(&role);
        Ok::<_, std::convert::Infallible>(
            Event::default().event("room").data(serde_json::to_string(&view).unwrap_or_default()),
        )
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}

async fn post(shared: &Shared, request: Request) -> Result<Response, Refusal> {
    let authorization = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string);
    let facilitator = keyed(shared, authorization.as_deref().and_then(|a| a.strip_prefix("Bearer ")));
    // The facilitator's request may carry a lesson file (escaped in JSON: up to twice its bytes).
    let max = match facilitator {
        Ok(()) => 2 * MAX_LESSON_BYTES + MAX_MESSAGE,
        Err(_) => MAX_MESSAGE,
    };
    let body = read_body(request.into_body(), max).await?;
    let parsed: informer_sim::room::Request =
        serde_json::from_slice(&body).map_err(|e| Refusal::NotARequest { detail: e.to_string() })?;
    if parsed.server_only() {
        return Err(Refusal::ServerOnly);
    }
    // Only a lesson file may be larger than any other request.
    if body.len() > MAX_MESSAGE && !matches!(parsed, informer_sim::room::Request::Lesson { .. }) {
        return Err(Refusal::TooLarge { max: MAX_MESSAGE });
    }
    if parsed.needs_key() {
        facilitator?;
    }
    shared.take(parsed)?;
    Ok(json(StatusCode::OK, &serde_json::json!({ "taken": true })))
}

/// The body, refused beyond `max` bytes.
async fn read_body(body: Body, max: usize) -> Result<Bytes, Refusal> {
    axum::body::to_bytes(body, max).await.map_err(|_| Refusal::TooLarge { max })
}

fn json(status: StatusCode, value: &impl serde::Serialize) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    (status, [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")], body).into_response()
}

/// A refusal: its status, its kind and its reason (in English: a page words it in its own
/// language from the kind).
fn refuse(refusal: Refusal) -> Response {
    let status = StatusCode::from_u16(refusal.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let mut value = serde_json::to_value(&refusal).unwrap_or_default();
    value["reason"] = refusal.reason(Lang::En).into();
    json(status, &value)
}

/// A file of the bundle, or a 404.
async fn bundle_file(shared: &Shared, path: &str, headers: &HeaderMap) -> Response {
    crate::bundle::file(&shared.dist, path, headers).await.unwrap_or_else(|| refuse(Refusal::NotFound))
}
