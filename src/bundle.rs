//! The release bundle as the native servers serve it (the room's and serve-api's page port):
//! its files under the page's content security policy, and a secret compared in constant time.

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use std::path::Path;

/// The policy every file is served under: no inline script, no eval, nothing from elsewhere.
const CSP: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' https:";

/// A file of the bundle in `dist`: never a path outside it, the build's brotli or gzip copy when
/// the browser takes it, hashed files cached for good; `None` when there is no such file.
pub async fn file(dist: &Path, path: &str, headers: &HeaderMap) -> Option<Response> {
    let relative = path.trim_start_matches('/');
    let relative = if relative.is_empty() || relative.ends_with('/') {
        format!("{relative}index.html")
    } else {
        relative.to_string()
    };
    let safe = relative.split('/').all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains(['\\', '\0']));
    if !safe {
        return None;
    }
    let file = dist.join(&relative);
    let accepts = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).unwrap_or_default();
    for (encoding, suffix) in [("br", "br"), ("gzip", "gz")] {
        if accepts.contains(encoding) {
            if let Ok(body) = tokio::fs::read(format!("{}.{suffix}", file.display())).await {
                return Some(file_response(&relative, body, Some(encoding)));
            }
        }
    }
    tokio::fs::read(&file).await.ok().map(|body| file_response(&relative, body, None))
}

pub fn file_response(name: &str, body: Vec<u8>, encoding: Option<&'static str>) -> Response {
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    };
    // Trunk's and the split's names carry a hash of their content: `-` and 16 hex digits.
    let hashed = name.rsplit('/').next().is_some_and(|n| {
        n.split(['-', '.', '_']).any(|part| part.len() == 16 && part.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    let mut response = Response::new(Body::from(body));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    let cache = if hashed { "public, max-age=31536000, immutable" } else { "no-cache" };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Some(encoding) = encoding {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    response
}

/// Whether `given` is `secret`, compared in constant time.
pub fn same_secret(given: &str, secret: &str) -> bool {
    let (given, secret) = (given.as_bytes(), secret.as_bytes());
    given.len() == secret.len() && given.iter().zip(secret).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}
