//! Build step: the bundled lessons (`static/scenarios/*.json`, the one list of them) are built
//! into the command line and the tests without the whitespace between JSON tokens (the files
//! stay readable; `files.rs` names them in teaching order), and their index — each file with
//! the head of its lesson (id, title, releases, run length) — is what the page builds in: the
//! page fetches a lesson's file when it opens it.

use std::path::Path;

/// `json` without whitespace outside strings.
fn compact(json: &str) -> String {
    let (mut out, mut in_string, mut escaped) = (String::with_capacity(json.len()), false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            (escaped, in_string) = match (escaped, c) {
                (true, _) => (false, true),
                (false, '\\') => (true, true),
                (false, '"') => (false, false),
                _ => (false, true),
            };
        } else if !c.is_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// A lesson's head: what the picker shows and what choosing a release needs (the summary is
/// left empty; of the releases' parts, only a title of their own).
fn head(text: &str) -> serde_json::Value {
    let lesson: serde_json::Value = serde_json::from_str(text).expect("a lesson is JSON");
    let mut head = serde_json::Map::new();
    for key in ["id", "title", "extra", "era", "run"] {
        if let Some(value) = lesson.get(key) {
            head.insert(key.into(), value.clone());
        }
    }
    head.insert("summary".into(), serde_json::json!({"ko": "", "en": ""}));
    if let Some(eras) = lesson.get("eras").and_then(|e| e.as_object()) {
        let title = |part: &serde_json::Value| match part.get("title") {
            Some(title) => serde_json::json!({ "title": title }),
            None => serde_json::json!({}),
        };
        let parts: serde_json::Map<_, _> = eras.iter().map(|(k, part)| (k.clone(), title(part))).collect();
        head.insert("eras".into(), parts.into());
    }
    head.into()
}

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../static/scenarios");
    println!("cargo:rerun-if-changed={}", lessons.display());
    let mut paths: Vec<_> = std::fs::read_dir(&lessons)
        .expect("static/scenarios exists")
        .map(|entry| entry.expect("a readable directory").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json") && !path.ends_with("schema.json"))
        .collect();
    paths.sort();
    let (mut index, mut files) = (Vec::new(), String::from("pub const FILES: &[(&str, &str)] = &[\n"));
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a readable lesson");
        let name = path.file_name().expect("a file name");
        std::fs::write(Path::new(&out).join(name), compact(&text)).expect("OUT_DIR is writable");
        index.push(serde_json::json!([name.to_string_lossy(), head(&text)]));
        let name = name.to_string_lossy();
        files.push_str(&format!("    ({name:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/{name}\"))),\n"));
    }
    files.push_str("];\n");
    std::fs::write(Path::new(&out).join("files.rs"), files).expect("OUT_DIR is writable");
    std::fs::write(Path::new(&out).join("index.json"), serde_json::Value::from(index).to_string())
        .expect("OUT_DIR is writable");
}
