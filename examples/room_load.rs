//! `make room-load`: 300 simulated attendees against the room's server (the release binary,
//! started here on loopback). Each opens the room's event stream and joins; the facilitator
//! then steps forty times, and for each step the time until every attendee's stream has it is
//! taken; then every attendee votes once. Prints the p95 and the largest of those times
//! (target: p95 at most 250 ms), the votes lost (target 0) and the server's memory.
//! ROOM_LOAD_ATTENDEES sets how many (300).

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::watch;

const LESSON: &str = "cache-scope";
const STEPS: u64 = 40;

fn main() -> Result<(), String> {
    let attendees: usize = std::env::var("ROOM_LOAD_ATTENDEES").ok().and_then(|n| n.parse().ok()).unwrap_or(300);
    let dist = std::env::temp_dir().join("room-load-dist");
    std::fs::create_dir_all(&dist).map_err(|e| e.to_string())?;
    std::fs::write(dist.join("index.html"), "<!doctype html>").map_err(|e| e.to_string())?;
    // The binary beside this example's folder (cargo builds both: make room-load).
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let binary =
        exe.parent().and_then(|examples| examples.parent()).ok_or("no target folder")?.join("informer-playground");
    let mut server = Command::new(binary)
        .args(["room", "--address", "127.0.0.1", "--port", "0", "--dist"])
        .arg(&dist)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the room's server: {e}"))?;
    let (address, code, key) = read_links(server.stdout.take().ok_or("no output")?)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    let result = runtime.block_on(run(&address, &code, &key, attendees));
    let memory = memory(server.id());
    let _ = server.kill();
    let figures = result?;
    println!("room-load: {attendees} attendees, {STEPS} steps of the facilitator");
    println!(
        "  time from a step to every attendee having it: p95 {} ms, max {} ms (target: p95 ≤ 250 ms)",
        figures.p95, figures.max
    );
    println!("  votes lost: {} of {attendees} (target 0)", figures.lost);
    println!("  the server's memory: {memory}");
    Ok(())
}

/// The address, room code and key from the server's printed links.
fn read_links(out: std::process::ChildStdout) -> Result<(String, String, String), String> {
    use std::io::BufRead;
    for line in std::io::BufReader::new(out).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(link) = line.trim().strip_prefix("http://").filter(|l| l.contains("&key=")) {
            let (address, query) = link.split_once("/?room=").ok_or("no room in the link")?;
            let (code, key) = query.split_once("&key=").ok_or("no key in the link")?;
            return Ok((address.into(), code.into(), key.into()));
        }
    }
    Err("the server printed no facilitator's link".into())
}

/// The server's resident memory now and at its peak (Linux's /proc).
fn memory(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| status.lines().find(|l| l.starts_with(name)).map(|l| l[name.len()..].trim().to_string());
    format!("{} resident, {} at the peak", field("VmRSS:").unwrap_or("?".into()), field("VmHWM:").unwrap_or("?".into()))
}

struct Figures {
    p95: u128,
    max: u128,
    lost: usize,
}

async fn post(address: &str, code: &str, body: String, key: Option<&str>) -> Result<u16, String> {
    let mut stream = TcpStream::connect(address).await.map_err(|e| e.to_string())?;
    let auth = key.map(|k| format!("Authorization: Bearer {k}\r\n")).unwrap_or_default();
    let request = format!(
        "POST /room/{code}/requests HTTP/1.1\r\nHost: room\r\nConnection: close\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.map_err(|e| e.to_string())?;
    answer.get(9..12).and_then(|s| s.parse().ok()).ok_or_else(|| format!("not HTTP: {answer}"))
}

/// An attendee's stream: the newest step it has heard, told on `heard`.
async fn listen(address: String, code: String, id: String, heard: watch::Sender<u64>) -> Result<(), String> {
    let mut stream = TcpStream::connect(&address).await.map_err(|e| e.to_string())?;
    let request =
        format!("GET /room/{code}/events?attendee={id} HTTP/1.1\r\nHost: room\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut lines = BufReader::new(stream).lines();
    while let Some(line) = lines.next_line().await.map_err(|e| e.to_string())? {
        if let Some(data) = line.strip_prefix("data: ") {
            let view: serde_json::Value = serde_json::from_str(data).map_err(|e| e.to_string())?;
            if let Some(step) = view["place"]["step"].as_u64() {
                heard.send_if_modified(|s| std::mem::replace(s, step) != step);
            }
        }
    }
    Ok(())
}

async fn run(address: &str, code: &str, key: &str, attendees: usize) -> Result<Figures, String> {
    let ids: Vec<String> = (0..attendees).map(|n| format!("load-attendee-{n:05}")).collect();
    let mut heard = Vec::new();
    for id in &ids {
        let (tell, hear) = watch::channel(u64::MAX);
        tokio::spawn(listen(address.into(), code.into(), id.clone(), tell));
        heard.push(hear);
        let status = post(address, code, serde_json::json!({"type": "join", "attendee": id}).to_string(), None).await?;
        if status != 200 {
            return Err(format!("{id} could not join: HTTP {status}"));
        }
    }
    let heard = Arc::new(heard);
    let place = |step: u64| {
        serde_json::json!({"type": "place", "place": {"lesson": LESSON, "era": "1.37", "step": step}, "lang": "en"})
            .to_string()
    };
    let mut times = Vec::new();
    for step in 1..=STEPS {
        let started = Instant::now();
        let status = post(address, code, place(step), Some(key)).await?;
        if status != 200 {
            return Err(format!("step {step}: HTTP {status}"));
        }
        for hear in heard.iter() {
            let mut hear = hear.clone();
            tokio::time::timeout(Duration::from_secs(10), hear.wait_for(|s| *s == step))
                .await
                .map_err(|_| format!("step {step} did not reach every attendee within 10 s"))?
                .map_err(|_| "an attendee's stream ended".to_string())?;
        }
        times.push(started.elapsed().as_millis());
    }
    // Back to the question's step, the vote opened, everyone votes at once.
    post(address, code, place(1), Some(key)).await?;
    post(address, code, serde_json::json!({"type": "open-vote", "question": 0}).to_string(), Some(key)).await?;
    let votes = ids.iter().enumerate().map(|(n, id)| {
        let vote = serde_json::json!({"type": "vote", "attendee": id, "round": 1, "choice": n % 3,
            "key": {"lesson": LESSON, "era": "1.37", "question": 0}});
        let (address, code) = (address.to_string(), code.to_string());
        tokio::spawn(async move { post(&address, &code, vote.to_string(), None).await })
    });
    let mut taken = 0;
    for vote in votes.collect::<Vec<_>>() {
        if matches!(vote.await, Ok(Ok(200))) {
            taken += 1;
        }
    }
    let view = view(address, code, key).await?;
    let counted = view["vote"]["answered"].as_u64().unwrap_or(0) as usize;
    times.sort_unstable();
    let p95 = times[(times.len() * 95).div_ceil(100) - 1];
    Ok(Figures { p95, max: *times.last().unwrap_or(&0), lost: attendees - counted.min(taken) })
}

async fn view(address: &str, code: &str, key: &str) -> Result<serde_json::Value, String> {
    let mut stream = TcpStream::connect(address).await.map_err(|e| e.to_string())?;
    let request = format!("GET /room/{code}/view?key={key} HTTP/1.1\r\nHost: room\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.map_err(|e| e.to_string())?;
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    serde_json::from_str(body).map_err(|e| e.to_string())
}
