//! The two sides: a real kube-apiserver on a fresh etcd, and serve-api's `bare` world; and the
//! runner that sends scripts to either.

use informer_sim::world::BARE_ACCOUNTS;
use serde_json::{json, Value};
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The real server's administrator token (its token file is the judge's own).
const ADMIN_TOKEN: &str = "playground-admin";

fn clients() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/realclients")
}

pub fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The releases judged: `JUDGE_RELEASES` (e.g. `1.37`), else all three.
pub fn releases() -> Vec<String> {
    let told = std::env::var("JUDGE_RELEASES").unwrap_or_else(|_| "1.30,1.33,1.37".into());
    told.split([',', ' ']).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// The real server's bearer token of each identity (`forged`: one it never gave out).
fn real_tokens() -> Value {
    let mut tokens = json!({"admin": ADMIN_TOKEN, "forged": "playground-forged"});
    for (name, _) in BARE_ACCOUNTS {
        tokens[name] = json!(format!("playground-sa.judge.{name}"));
    }
    tokens
}

/// serve-api's bearer token of each identity, read from the kubeconfig it wrote (its tokens
/// are made at each start): the user `admin` and `judge-<name>` per account.
fn model_tokens(kubeconfig: &str) -> Value {
    let mut tokens = json!({"forged": "admin.0000"});
    let mut user = None;
    for line in kubeconfig.lines() {
        if let Some(name) = line.strip_prefix("- name: ") {
            user = Some(name.trim().to_string());
        } else if let (Some(token), Some(name)) = (line.trim().strip_prefix("token: "), &user) {
            let identity = name.strip_prefix("judge-").unwrap_or(name);
            tokens[identity] = json!(token.trim());
        }
    }
    for name in ["admin"].into_iter().chain(BARE_ACCOUNTS.iter().map(|(n, _)| *n)) {
        assert!(tokens.get(name).is_some(), "serve-api's kubeconfig has no token for {name}:\n{kubeconfig}");
    }
    tokens
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free loopback port")
}

fn scratch(what: &str) -> PathBuf {
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("playground-{what}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text[text.len().saturating_sub(1500)..].to_string()
}

/// Where a side is and how a compaction reaches it.
pub trait Side {
    fn base(&self) -> &str;
    /// The bearer token of each identity the scripts act as.
    fn tokens(&self) -> Value;
    /// The runner's `faults` and `etcd` fields.
    fn fault_route(&self) -> Value;
    fn name(&self) -> String;
}

/// Sends `scripts` to `side` through `http-script`, `at_once` at a time (0: all together); one
/// result per script, in order.
pub fn run(side: &dyn Side, scripts: &[Value], at_once: usize) -> Vec<Value> {
    let mut input = json!({"base": side.base(), "tokens": side.tokens(), "scripts": scripts});
    for (k, v) in side.fault_route().as_object().unwrap() {
        input[k] = v.clone();
    }
    let mut child = Command::new(clients().join("http-script"))
        .arg(format!("-at-once={at_once}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("http-script runs (make test's set-up builds it)");
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().expect("http-script ends");
    assert!(out.status.success(), "http-script failed against {}", side.name());
    let results: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a result line")).collect();
    assert_eq!(results.len(), scripts.len(), "http-script answered every script");
    results
}

/// One request, as the administrator; its status.
fn status_of(side: &dyn Side, method: &str, path: &str, body: Option<Value>, as_: &str) -> i64 {
    let mut step = json!({"method": method, "path": path, "as": as_});
    if let Some(body) = body {
        step["body"] = body;
    }
    let result = run(side, &[json!({"name": "set-up", "namespace": "", "steps": [step]})], 1);
    result[0]["steps"][0]["status"].as_i64().unwrap_or(0)
}

/// Makes each namespace on `side` (a create in one that does not exist is refused).
pub fn make_namespaces(side: &dyn Side, names: &[String]) {
    let steps: Vec<Value> = names
        .iter()
        .map(|n| json!({"method": "POST", "path": "/api/v1/namespaces", "body": {"metadata": {"name": n}}}))
        .collect();
    let result = run(side, &[json!({"name": "namespaces", "namespace": "", "steps": steps})], 1);
    for (name, answer) in names.iter().zip(result[0]["steps"].as_array().into_iter().flatten()) {
        assert_eq!(answer["status"], 201, "namespace {name} on {}: {answer}", side.name());
    }
}

/// A real kube-apiserver of one release and its etcd.
pub struct Real {
    release: String,
    etcd: Child,
    apiserver: Child,
    dir: PathBuf,
    base: String,
    etcd_url: String,
}

impl Side for Real {
    fn base(&self) -> &str {
        &self.base
    }
    fn tokens(&self) -> Value {
        real_tokens()
    }
    fn fault_route(&self) -> Value {
        json!({"etcd": self.etcd_url})
    }
    fn name(&self) -> String {
        format!("kube-apiserver v{}", self.release)
    }
}

impl Real {
    /// Starts etcd and the release's kube-apiserver, makes the judge's identities and waits
    /// until they work. `None` (outside CI only) when the server is not built.
    pub fn start(release: &str) -> Option<Real> {
        let binary = clients().join(format!("kube-apiserver-v{release}"));
        if !binary.is_file() {
            let why = format!("{} is not built (make setup builds it)", binary.display());
            assert!(!ci(), "{why}");
            eprintln!("skipping release {release}: {why}");
            return None;
        }
        let started = Instant::now();
        let dir = scratch("kube-apiserver");
        let (etcd, etcd_url) = start_etcd(&dir);
        let key = rcgen::KeyPair::generate().expect("a service-account key");
        std::fs::write(dir.join("sa.key"), key.serialize_pem()).unwrap();
        std::fs::write(dir.join("sa.pub"), key.public_key_pem()).unwrap();
        let mut tokens = format!("{ADMIN_TOKEN},admin,admin-uid,\"system:masters\"\n");
        for (name, _) in BARE_ACCOUNTS {
            tokens += &format!(
                "playground-sa.judge.{name},system:serviceaccount:judge:{name},{name}-uid,\"system:serviceaccounts,system:serviceaccounts:judge\"\n"
            );
        }
        std::fs::write(dir.join("tokens.csv"), tokens).unwrap();
        let port = free_port();
        let arg = |flag: &str, value: &Path| format!("--{flag}={}", value.display());
        let apiserver = Command::new(&binary)
            .arg(format!("--etcd-servers={etcd_url}"))
            .arg(format!("--secure-port={port}"))
            .args(["--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--endpoint-reconciler-type=none"])
            .args(["--authorization-mode=RBAC", "--etcd-compaction-interval=0"])
            .args(["--service-account-issuer=https://kubernetes.default.svc", "--service-cluster-ip-range=10.0.0.0/24"])
            // A Pod would otherwise need its namespace's default service account, which the
            // controller manager makes; there is none, as in the model.
            .arg("--disable-admission-plugins=ServiceAccount")
            .arg(arg("token-auth-file", &dir.join("tokens.csv")))
            .arg(arg("service-account-key-file", &dir.join("sa.pub")))
            .arg(arg("service-account-signing-key-file", &dir.join("sa.key")))
            .arg(arg("cert-dir", &dir.join("certs")))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("apiserver.log")).unwrap())
            .spawn()
            .expect("kube-apiserver starts");
        let mut real =
            Real { release: release.into(), etcd, apiserver, dir, base: format!("https://127.0.0.1:{port}"), etcd_url };
        let deadline = Instant::now() + Duration::from_secs(90);
        while status_of(&real, "GET", "/readyz", None, "admin") != 200 {
            if let Ok(Some(exit)) = real.apiserver.try_wait() {
                panic!(
                    "{} exited at start ({exit}); its log ends:\n{}",
                    real.name(),
                    tail(&real.dir.join("apiserver.log"))
                );
            }
            assert!(
                Instant::now() < deadline,
                "{} not ready in 90 s:\n{}",
                real.name(),
                tail(&real.dir.join("apiserver.log"))
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        real.grant_bare_accounts();
        println!("{} ready on loopback in {:.1} s", real.name(), started.elapsed().as_secs_f64());
        Some(real)
    }

    /// The ClusterRoles and bindings of `world::bare`, then a wait until RBAC has them.
    fn grant_bare_accounts(&self) {
        for (name, verbs) in BARE_ACCOUNTS.iter().filter(|(_, verbs)| !verbs.is_empty()) {
            let role = json!({
                "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                "metadata": {"name": format!("judge-{name}")},
                "rules": [{"apiGroups": [""], "resources": ["configmaps", "pods", "secrets"], "verbs": verbs}],
            });
            let binding = json!({
                "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                "metadata": {"name": format!("judge-{name}")},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": format!("judge-{name}")},
                "subjects": [{"kind": "ServiceAccount", "namespace": "judge", "name": name}],
            });
            let rbac = "/apis/rbac.authorization.k8s.io/v1";
            assert_eq!(status_of(self, "POST", &format!("{rbac}/clusterroles"), Some(role), "admin"), 201);
            assert_eq!(status_of(self, "POST", &format!("{rbac}/clusterrolebindings"), Some(binding), "admin"), 201);
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while status_of(self, "GET", "/api/v1/configmaps", None, "reader") != 200 {
            assert!(Instant::now() < deadline, "RBAC did not take the judge's roles in 20 s");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Real {
    fn drop(&mut self) {
        for child in [&mut self.apiserver, &mut self.etcd] {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_etcd(dir: &Path) -> (Child, String) {
    let (port, peer) = (free_port(), free_port());
    let url = format!("http://127.0.0.1:{port}");
    let peer_url = format!("http://127.0.0.1:{peer}");
    let child = Command::new(clients().join("etcd"))
        .args(["--name", "default", "--data-dir"])
        .arg(dir.join("etcd"))
        .args(["--listen-client-urls", &url, "--advertise-client-urls", &url])
        .args(["--listen-peer-urls", &peer_url, "--initial-advertise-peer-urls", &peer_url])
        .args(["--initial-cluster", &format!("default={peer_url}")])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("etcd.log")).unwrap())
        .spawn()
        .expect("the current etcd starts (make test's set-up builds it)");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "etcd did not listen in 30 s:\n{}", tail(&dir.join("etcd.log")));
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, url)
}

/// serve-api's `bare` world in one release.
pub struct Model {
    release: String,
    child: Child,
    dir: PathBuf,
    base: String,
    tokens: Value,
}

impl Side for Model {
    fn base(&self) -> &str {
        &self.base
    }
    fn tokens(&self) -> Value {
        self.tokens.clone()
    }
    fn fault_route(&self) -> Value {
        json!({"faults": self.base})
    }
    fn name(&self) -> String {
        format!("serve-api {}", self.release)
    }
}

impl Model {
    pub fn start(release: &str) -> Model {
        let dir = scratch("serve-api");
        let kubeconfig = dir.join("kubeconfig");
        let child = Command::new(env!("CARGO_BIN_EXE_informer-playground"))
            .args(["serve-api", "--scenario", "bare", "--era", release, "--port", "0", "--quiet"])
            .arg("--kubeconfig")
            .arg(&kubeconfig)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("server.log")).unwrap())
            .spawn()
            .expect("serve-api starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        let (base, text) = loop {
            let text = std::fs::read_to_string(&kubeconfig).unwrap_or_default();
            if let Some(line) = text.lines().find(|l| l.trim_start().starts_with("server:")) {
                break (line.trim_start()["server:".len()..].trim().to_string(), text);
            }
            assert!(Instant::now() < deadline, "serve-api did not start: {}", tail(&dir.join("server.log")));
            std::thread::sleep(Duration::from_millis(20));
        };
        let tokens = model_tokens(&text);
        Model { release: release.into(), child, dir, base, tokens }
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
