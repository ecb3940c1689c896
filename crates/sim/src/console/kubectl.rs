//! The console's `kubectl`: enough of it to drive a lesson, with kubectl's output and errors.
//!
//! `get <type> [name] [-n ns | -A] [-l selector] [-o yaml|json] [-w]`, `create -f -` and
//! `apply -f -` (the manifest, YAML or JSON, on the lines after the command), `scale`,
//! `label`, `delete` and `auth can-i`. Reads look at the API server without counting in the
//! run's metrics (they are the audience's, not the controller's); writes become world
//! actions, so they are steps of the trace like any other write. `apply` creates, or
//! replaces the fields the manifest names (no three-way merge).

use super::manifest;
use crate::cluster::api_errors::Status;
use crate::cluster::api_server::ListOptions;
use crate::cluster::printers::{align, columns, row};
use crate::cluster::rbac::{RequestAttributes, UserInfo};
use crate::cluster::{Kind, Shared};
use crate::kernel::Millis;
use crate::limits::Exceeded;
use crate::world::{Intervention, World};

/// What a command line comes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Text to print.
    Output(String),
    /// A write to carry out; the text is printed when it succeeds (`pod/x created`).
    Write(Intervention, String),
    /// Writes to carry out one after another (a manifest of several documents).
    Writes(Vec<(Intervention, String)>),
    /// `get -w`: print the text, then every change of `kind` as it happens.
    Watch(Kind, Option<String>, String),
    /// An error, printed as kubectl prints it.
    Error(String),
    /// A manifest refused: in kubectl's or the API server's words, or beyond the playground's
    /// limits.
    Refused(manifest::ManifestError),
    /// Beyond the playground's own limits, worded where it is shown.
    Exceeded(Exceeded),
}

fn kind_of(word: &str) -> Result<Kind, String> {
    Kind::parse(word).ok_or_else(|| format!("error: the server doesn't have a resource type {word:?}"))
}

/// Flags and words of a command line.
struct Args<'a> {
    words: Vec<&'a str>,
    namespace: Option<String>,
    all_namespaces: bool,
    output: Option<String>,
    watch: bool,
    selector: String,
    replicas: Option<String>,
    user: Option<String>,
    filename: Option<String>,
}

fn parse_args<'a>(tokens: &[&'a str]) -> Result<Args<'a>, String> {
    let mut args = Args {
        words: Vec::new(),
        namespace: None,
        all_namespaces: false,
        output: None,
        watch: false,
        selector: String::new(),
        replicas: None,
        user: None,
        filename: None,
    };
    let mut it = tokens.iter();
    while let Some(token) = it.next() {
        let (flag, inline) = match token.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v.to_string())),
            _ => (*token, None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().map(|s| s.to_string()))
                .ok_or_else(|| format!("error: flag needs an argument: {name}"))
        };
        match flag {
            "-n" | "--namespace" => args.namespace = Some(value(flag)?),
            "-A" | "--all-namespaces" => args.all_namespaces = true,
            "-o" | "--output" => args.output = Some(value(flag)?),
            "-w" | "--watch" => args.watch = true,
            "-l" | "--selector" => args.selector = value(flag)?,
            "--replicas" => args.replicas = Some(value(flag)?),
            "--as" => args.user = Some(value(flag)?),
            "-f" | "--filename" => args.filename = Some(value(flag)?),
            "--overwrite" => {}
            f if f.starts_with('-') && f.len() > 1 => return Err(format!("error: unknown flag: {f}")),
            _ => args.words.push(token),
        }
    }
    Ok(args)
}

/// `type/name` or `type name`.
fn target<'a>(words: &[&'a str]) -> Result<(Kind, &'a str), String> {
    match words {
        [one] if one.contains('/') => {
            let (kind, name) = one.split_once('/').unwrap_or_default();
            Ok((kind_of(kind)?, name))
        }
        [kind, name, ..] => Ok((kind_of(kind)?, name)),
        [kind] => Err(format!("error: resource name may not be empty (type {kind:?})")),
        [] => Err("error: you must specify the type of resource".into()),
    }
}

/// Runs one command line (`kubectl` may be left out); `stdin` holds a manifest for `-f -`.
pub fn run(line: &str, stdin: &str, world: &World) -> Outcome {
    if line.len() + stdin.len() > crate::limits::MAX_CONSOLE_BYTES {
        return Outcome::Exceeded(Exceeded::ConsoleBytes { bytes: line.len() + stdin.len() });
    }
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let tokens = match tokens.first() {
        Some(&"kubectl") => &tokens[1..],
        _ => &tokens[..],
    };
    let Some((command, rest)) = tokens.split_first() else {
        return Outcome::Error(
            "error: you must specify a command (get, create, apply, scale, label, delete, auth)".into(),
        );
    };
    let args = match parse_args(rest) {
        Ok(a) => a,
        Err(e) => return Outcome::Error(e),
    };
    let namespace = args.namespace.clone().unwrap_or_else(|| "default".into());
    let result = match *command {
        "get" => get(&args, &namespace, world),
        "create" | "apply" => write_manifest(command, &args, stdin, &namespace, world),
        "scale" => scale(&args, &namespace),
        "label" => label(&args, &namespace, world),
        "delete" => target(&args.words).map(|(kind, name)| {
            let action = Intervention::Delete { kind, namespace: namespace.clone(), name: name.into() };
            // Every kind the playground has is namespaced.
            let from = if world.config.era.kubectl_delete_names_namespace() {
                format!(" from {namespace} namespace")
            } else {
                String::new()
            };
            Outcome::Write(action, format!("{} {name:?} deleted{from}", kubectl_type(kind)))
        }),
        "auth" => can_i(&args, &namespace, world),
        other => Err(format!("error: unknown command {other:?} for \"kubectl\"")),
    };
    result.unwrap_or_else(Outcome::Error)
}

fn admin() -> UserInfo {
    UserInfo::admin()
}

fn get(args: &Args, namespace: &str, world: &World) -> Result<Outcome, String> {
    let (kind, name) = match args.words.as_slice() {
        [] => return Err("error: you must specify the type of resource to get".into()),
        [one] if one.contains('/') => target(&args.words).map(|(k, n)| (k, Some(n)))?,
        [kind] => (kind_of(kind)?, None),
        [kind, name, ..] => (kind_of(kind)?, Some(*name)),
    };
    let scope = if args.all_namespaces { None } else { Some(namespace.to_string()) };
    let objects = match name {
        Some(name) => {
            let obj = world.api.peek_get(&admin(), kind, namespace, name).map_err(|s| s.to_string())?;
            vec![Shared::new(obj)]
        }
        None => {
            let opts =
                ListOptions { namespace: scope.clone(), label_selector: args.selector.clone(), ..Default::default() };
            world.api.peek_list(&admin(), kind, &opts).map_err(|s| s.to_string())?.items
        }
    };
    let text = match args.output.as_deref() {
        Some("yaml") => objects.iter().map(|o| crate::console::yaml::to_yaml(&serde_json::to_value(&**o).unwrap_or_default())).collect::<Vec<_>>().join("---\n"),
        Some("json") => objects.iter().map(|o| o.to_json_pretty()).collect::<Vec<_>>().join("\n"),
        Some("wide") | None if objects.is_empty() => match &scope {
            Some(ns) => format!("No resources found in {ns} namespace."),
            None => "No resources found".into(),
        },
        Some("wide") | None => table(kind, &objects, world.now(), args.all_namespaces),
        Some(format) if format.starts_with("jsonpath=") => {
            let object = match name {
                Some(_) => serde_json::to_value(&*objects[0]).unwrap_or_default(),
                // kubectl prints a list as a `List` with an empty resourceVersion.
                None => serde_json::json!({
                    "apiVersion": "v1",
                    "items": objects.iter().map(|o| serde_json::to_value(&**o).unwrap_or_default()).collect::<Vec<_>>(),
                    "kind": "List",
                    "metadata": {"resourceVersion": ""},
                }),
            };
            crate::console::jsonpath::print(&format["jsonpath=".len()..], &object)?
        }
        Some(other) => return Err(format!("error: unable to match a printer suitable for the output format {other:?}, allowed formats are: json,jsonpath,yaml,wide")),
    };
    Ok(if args.watch { Outcome::Watch(kind, scope, text) } else { Outcome::Output(text) })
}

fn table(kind: Kind, objects: &[Shared], now: Millis, with_namespace: bool) -> String {
    let mut header: Vec<String> = columns(kind).iter().map(|s| s.to_string()).collect();
    if with_namespace {
        header.insert(0, "NAMESPACE".into());
    }
    let mut rows = vec![header];
    for obj in objects {
        let mut r = row(kind, obj, now);
        if with_namespace {
            r.insert(0, obj.metadata.namespace.clone());
        }
        rows.push(r);
    }
    align(&rows)
}

fn write_manifest(command: &str, args: &Args, stdin: &str, namespace: &str, world: &World) -> Result<Outcome, String> {
    if args.filename.as_deref() != Some("-") {
        return Err(format!(
            "error: must specify -f - and give the manifest on the lines below the command ({command})"
        ));
    }
    if stdin.trim().is_empty() {
        return Err(format!("error: no objects passed to {command}"));
    }
    let objects = match manifest::read_all(stdin, manifest::Source::File) {
        Ok(objects) if objects.is_empty() => return Err(format!("error: no objects passed to {command}")),
        Ok(objects) => objects,
        Err(refused) => return Ok(Outcome::Refused(refused)),
    };
    let mut writes = Vec::with_capacity(objects.len());
    for mut obj in objects {
        let kind = Kind::parse(&obj.kind)
            .filter(|k| k.name() == obj.kind)
            .ok_or_else(|| Status::no_kind_match(&obj.kind, &obj.api_version).to_string())?;
        if obj.metadata.namespace.is_empty() {
            obj.metadata.namespace = namespace.into();
        }
        let reference = format!("{}/{}", kubectl_type(kind), obj.metadata.name);
        let existing = world.api.peek_get(&admin(), kind, &obj.metadata.namespace, &obj.metadata.name).ok();
        writes.push(match (command, existing) {
            ("apply", Some(mut current)) => {
                for (field, value) in obj.body {
                    current.body.insert(field, value);
                }
                current.metadata.labels.extend(obj.metadata.labels);
                current.metadata.annotations.extend(obj.metadata.annotations);
                (Intervention::Update(current), format!("{reference} configured"))
            }
            _ => (Intervention::Create(obj), format!("{reference} created")),
        });
    }
    Ok(Outcome::Writes(writes))
}

/// kubectl's lower-case type with its group: `deployment.apps`.
pub fn kubectl_type(kind: Kind) -> String {
    match kind.group() {
        "" => kind.name().to_ascii_lowercase(),
        g => format!("{}.{g}", kind.name().to_ascii_lowercase()),
    }
}

fn scale(args: &Args, namespace: &str) -> Result<Outcome, String> {
    let (kind, name) = target(&args.words)?;
    let replicas = args.replicas.as_deref().ok_or("error: required flag(s) \"replicas\" not set")?;
    let replicas: i64 = replicas
        .parse()
        .ok()
        .filter(|n| *n >= 0 && *n <= i64::from(i32::MAX))
        .ok_or_else(|| format!("error: invalid argument {replicas:?} for \"--replicas\" flag"))?;
    if replicas > crate::limits::MAX_REPLICAS {
        return Ok(Outcome::Exceeded(Exceeded::Replicas { field: "--replicas", asked: replicas }));
    }
    if !matches!(kind, Kind::Deployment | Kind::ReplicaSet) {
        return Err(format!("error: no scaler has been implemented for {{\"\" {:?}}}", kind.name()));
    }
    let action = Intervention::Scale { kind, namespace: namespace.into(), name: name.into(), replicas };
    Ok(Outcome::Write(action, format!("{}/{name} scaled", kubectl_type(kind))))
}

fn label(args: &Args, namespace: &str, world: &World) -> Result<Outcome, String> {
    let (kind, name) = target(&args.words[..args.words.len().min(2)])?;
    let changes = &args.words[2.min(args.words.len())..];
    if changes.is_empty() {
        return Err("error: at least one label update is required".into());
    }
    let mut obj = world.api.peek_get(&admin(), kind, namespace, name).map_err(|s| s.to_string())?;
    for change in changes {
        match change.split_once('=') {
            Some((k, v)) => obj.metadata.labels.insert(k.into(), v.into()),
            None => match change.strip_suffix('-') {
                Some(k) => obj.metadata.labels.remove(k),
                None => return Err(format!("error: invalid label spec: {change}")),
            },
        };
    }
    Ok(Outcome::Write(Intervention::Update(obj), format!("{}/{name} labeled", kubectl_type(kind))))
}

fn can_i(args: &Args, namespace: &str, world: &World) -> Result<Outcome, String> {
    let [sub, verb, resource, ..] = args.words.as_slice() else {
        return Err("error: you must specify two arguments: verb resource".into());
    };
    if *sub != "can-i" {
        return Err(format!("error: unknown command \"auth {sub}\""));
    }
    let kind = kind_of(resource)?;
    let user = match args.user.as_deref() {
        None => admin(),
        Some(name) => match name.strip_prefix("system:serviceaccount:").and_then(|r| r.split_once(':')) {
            Some((ns, sa)) => UserInfo::service_account(ns, sa),
            None => UserInfo { name: name.into(), groups: vec!["system:authenticated".into()] },
        },
    };
    let ns = if args.all_namespaces { "" } else { namespace };
    let attrs = RequestAttributes {
        verb,
        group: kind.group(),
        resource: kind.resource(),
        subresource: "",
        namespace: ns,
        name: None,
    };
    Ok(Outcome::Output(if world.api.rbac().allows(&user, &attrs) { "yes".into() } else { "no".into() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn world() -> World {
        let mut w = crate::world::scale(1, crate::era::Era::CURRENT).unwrap();
        // Up to just before the scale-up at 5 s: three Pods running.
        w.run_until(10_000, |_, w| w.next_time().is_some_and(|t| t >= 5_000));
        w
    }

    fn output(o: Outcome) -> String {
        match o {
            Outcome::Output(t) | Outcome::Watch(_, _, t) => t,
            other => panic!("expected output, got {other:?}"),
        }
    }

    #[test]
    fn delete_names_the_namespace_from_kubectl_1_32() {
        let said = |era| match run("kubectl delete deployment web", "", &crate::world::scale(1, era).unwrap()) {
            Outcome::Write(_, done) => done,
            other => panic!("expected a write, got {other:?}"),
        };
        assert_eq!(said(crate::era::Era::V1_30), r#"deployment.apps "web" deleted"#);
        assert_eq!(said(crate::era::Era::V1_33), r#"deployment.apps "web" deleted from default namespace"#);
    }

    #[test]
    fn get_prints_kubectl_tables() {
        let w = world();
        let pods = output(run("kubectl get pods", "", &w));
        let lines: Vec<&str> = pods.lines().collect();
        assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), vec!["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
        assert_eq!(lines[0].find("READY"), lines[1].find("1/1"), "columns line up");
        assert_eq!(lines.len(), 4);
        assert!(lines[1].starts_with("web-") && lines[1].contains("   1/1     Running   0          "), "{}", lines[1]);
        let deploy = output(run("get deploy web", "", &w));
        assert_eq!(
            deploy.lines().nth(1).unwrap().split_whitespace().take(4).collect::<Vec<_>>(),
            vec!["web", "3/3", "3", "3"]
        );
        let sets = output(run("get rs", "", &w));
        let set: Vec<&str> = sets.lines().nth(1).unwrap().split_whitespace().collect();
        assert!(set[0].starts_with("web-") && set[1..4] == ["3", "3", "3"], "the Deployment's ReplicaSet: {sets}");
        assert!(lines[1].starts_with(&format!("{}-", set[0])), "its Pods are named after it");
        assert_eq!(output(run("get cm", "", &w)), "No resources found in default namespace.");
        assert!(output(run("get deploy web -o yaml", "", &w)).contains("\nspec:\n  replicas: 3\n"));
        assert!(matches!(run("get pods -w", "", &w), Outcome::Watch(Kind::Pod, Some(_), _)));
    }

    #[test]
    fn errors_are_worded_like_kubectl() {
        let w = world();
        let err = |line: &str| match run(line, "", &w) {
            Outcome::Error(e) => e,
            Outcome::Exceeded(e) => format!("error: {e}"),
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(err("get foos"), r#"error: the server doesn't have a resource type "foos""#);
        assert_eq!(err("get pod nope"), r#"Error from server (NotFound): pods "nope" not found"#);
        assert_eq!(err("frobnicate"), r#"error: unknown command "frobnicate" for "kubectl""#);
        assert_eq!(err("scale deploy/web"), r#"error: required flag(s) "replicas" not set"#);
        assert_eq!(err("apply -f -"), "error: no objects passed to apply");
        assert!(err("get pods -o table").starts_with("error: unable to match a printer"));
        assert!(err("get pods --fast").starts_with("error: unknown flag: --fast"));
        assert_eq!(
            err("scale deploy web --replicas=1000000"),
            "error: --replicas 1000000 is more than the playground runs (at most 1000; kube-apiserver itself allows more)"
        );
        assert_eq!(
            err("scale deploy web --replicas=-9223372036854775808"),
            r#"error: invalid argument "-9223372036854775808" for "--replicas" flag"#
        );
        let deep = format!(
            "kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: x\ndata: {}{}",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        let deep_err = match run("apply -f -", &deep, &w) {
            Outcome::Refused(e) => e.to_string(),
            other => panic!("{other:?}"),
        };
        assert!(deep_err.starts_with("error: "), "{deep_err}");
        let huge = format!("apply -f -\n{}", "x".repeat(crate::limits::MAX_CONSOLE_BYTES));
        assert!(err(&huge).contains("the console takes at most"));
    }

    #[test]
    fn writes_become_world_actions() {
        let w = world();
        let manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: blue\n";
        let Outcome::Writes(writes) = run("kubectl apply -f -", manifest, &w) else { panic!() };
        let [(Intervention::Create(obj), text)] = writes.as_slice() else { panic!("{writes:?}") };
        assert_eq!((obj.key().as_str(), text.as_str()), ("default/settings", "configmap/settings created"));
        let Outcome::Writes(writes) = run(
            "apply -f -",
            "kind: Deployment\napiVersion: apps/v1\nmetadata:\n  name: web\nspec:\n  replicas: 5\n---\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: b}\n",
            &w,
        ) else {
            panic!()
        };
        let [(Intervention::Update(d), text), (Intervention::Create(b), created)] = writes.as_slice() else {
            panic!("{writes:?}")
        };
        assert_eq!((b.metadata.name.as_str(), created.as_str()), ("b", "configmap/b created"), "each document");
        assert_eq!(
            (d.spec().unwrap()["replicas"].as_i64(), text.as_str()),
            (Some(5), "deployment.apps/web configured")
        );
        let Outcome::Write(Intervention::Scale { replicas, .. }, text) =
            run("kubectl scale deployment web --replicas=2", "", &w)
        else {
            panic!()
        };
        assert_eq!((replicas, text.as_str()), (2, "deployment.apps/web scaled"));
        let Outcome::Write(Intervention::Update(l), _) = run("label deploy web tier=front", "", &w) else { panic!() };
        assert_eq!(l.metadata.labels["tier"], "front");
        assert!(matches!(run("delete pod web-x", "", &w), Outcome::Write(Intervention::Delete { .. }, _)));
    }

    #[test]
    fn semantics_8_auth_can_i_asks_rbac() {
        let w = world();
        let sa = "--as=system:serviceaccount:default:playground-controller";
        assert_eq!(output(run(&format!("auth can-i list deployments {sa}"), "", &w)), "yes");
        assert_eq!(output(run(&format!("auth can-i delete secrets {sa}"), "", &w)), "no");
        assert_eq!(output(run("auth can-i delete secrets", "", &w)), "yes");
    }
}
