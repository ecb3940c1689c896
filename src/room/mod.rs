//! `informer-playground room`: a workshop room's server. It serves the release bundle and the
//! room's API on this machine's network address. Attendees open the room's link
//! (`?room=<code>`); the facilitator's link carries a key drawn at random at each start and
//! shown only in the terminal; the projector's link carries none, so nothing on the projector
//! can act for the facilitator. The room (`informer_sim::room`) lives in memory, and every
//! request it takes is written to its journal (JSON lines) before it is answered, so a
//! restart brings the room back as it was. Pages hear the room over server-sent events (a
//! page that reconnects is sent the whole room again) and speak to it by POST.
//!
//! Bounds: 500 attendees, 4 KB a request (the facilitator's: a lesson file, 256 KB, escaped in
//! JSON), 32 lesson files from outside, 60 requests a minute from an attendee, 1,000 event
//! streams; what exceeds them is refused with its reason. Nothing outside the bundle and the
//! room's API is served.

mod http;
mod journal;
mod lessons;
mod shared;
pub(crate) mod terminal;

use shared::Shared;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

/// How the room is served.
#[derive(Clone, Debug)]
pub struct Options {
    /// The release bundle.
    pub dist: PathBuf,
    /// Where the room is kept: replayed at start when it exists, appended to as it changes.
    pub journal: Option<PathBuf>,
    /// `None`: this machine's network address (loopback when it has none).
    pub address: Option<IpAddr>,
    pub port: u16,
}

/// A room being served.
pub struct Running {
    pub address: SocketAddr,
    pub code: String,
    pub key: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Running {
    /// The attendees', the facilitator's and the projector's links.
    pub fn links(&self) -> [String; 3] {
        let base = format!("http://{}/?room={}", self.address, self.code);
        [base.clone(), format!("{base}&key={}", self.key), format!("{base}&view=projector")]
    }

    /// Stops serving (the journal is already written) and waits for the server to end.
    pub fn stop(mut self) -> Result<(), String> {
        self.stop_now()
    }

    fn stop_now(&mut self) -> Result<(), String> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take() {
            Some(thread) => thread.join().map_err(|_| "the room's server panicked".to_string())?,
            None => Ok(()),
        }
    }

    /// Serves until Ctrl-C.
    pub fn wait(mut self) -> Result<(), String> {
        match self.thread.take() {
            Some(thread) => thread.join().map_err(|_| "the room's server panicked".to_string())?,
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop_now();
    }
}

/// Opens the room (from its journal, when there is one) and serves it on a thread of its own.
pub fn start(options: Options) -> Result<Running, String> {
    if !options.dist.join("index.html").is_file() {
        return Err(format!("no release bundle in {} (make dist builds it)", options.dist.display()));
    }
    let key = terminal::random_hex(16)?;
    let shared = Arc::new(Shared::open(&options, key.clone())?);
    let code = shared.code();
    let host = options.address.unwrap_or_else(terminal::network_address);
    let listener = std::net::TcpListener::bind((host, options.port))
        .map_err(|e| format!("cannot serve on {host}:{}: {e} (choose another port with --port)", options.port))?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).map_err(|e| e.to_string())?;
            tokio::spawn(shared::sample_attendance(shared.clone()));
            let app = axum::Router::new().fallback(http::handle).with_state(shared);
            // Event streams never end by themselves: once told to stop, the server waits a
            // second for answers in flight, then ends them all.
            let (told, heard) = tokio::sync::watch::channel(false);
            let stopping = async move {
                tokio::select! {
                    _ = stopped => {},
                    _ = tokio::signal::ctrl_c() => {},
                }
                let _ = told.send(true);
            };
            let mut deadline = heard;
            let serving = axum::serve(listener, app).with_graceful_shutdown(stopping);
            tokio::select! {
                served = serving => served.map_err(|e| format!("the room's server stopped: {e}")),
                _ = async move {
                    let _ = deadline.wait_for(|stop| *stop).await;
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                } => Ok(()),
            }
        })
    });
    Ok(Running { address, code, key, stop: Some(stop), thread: Some(thread) })
}

/// `informer-playground room`: serves the room and prints its links until Ctrl-C.
pub fn run(options: Options) -> Result<(), String> {
    let running = start(options.clone())?;
    let [attendees, facilitator, projector] = running.links();
    if running.address.ip().is_loopback() {
        println!("This machine has no network address other than loopback: only this machine can join.");
    }
    println!("The room {}: attendees open\n  {attendees}\n{}", running.code, terminal::qr(&attendees));
    println!("The projector (nothing on it can act, nothing on it names anyone):\n  {projector}");
    println!(
        "The facilitator's link, with the key drawn at this start (keep it off the projector):\n  {facilitator}\n{}",
        terminal::qr(&facilitator)
    );
    match &options.journal {
        Some(path) => println!("The room is kept in {} (a restart brings it back).", path.display()),
        None => println!("The room is kept in memory only (--journal FILE keeps it across restarts)."),
    }
    println!("Ctrl-C stops it.");
    running.wait()
}
