//! Build step: the bundled lessons (`static/scenarios/*.json`, the one list of them) are built
//! into the command line and the tests without the whitespace between JSON tokens (the files
//! stay readable; `files.rs` names them in teaching order), and their index — each file with
//! the head of its lesson (id, title and the titles it has in other releases, releases) — is
//! what the page builds in, as data (`index.rs`: nothing to read at run time): the page
//! fetches a lesson's file when it opens it. The page's contract with its scripts
//! (`www/contract.json`): the values the page reads become constants (`page_contract.rs`), so it
//! reads no JSON for them.

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

/// A lesson's head, as Rust data (`LessonHead`): its file, id and title, the titles it has in
/// other releases, the release it is told in and the others it runs in, and whether it goes
/// beyond the articles.
fn head(file: &str, text: &str) -> String {
    let lesson: serde_json::Value = serde_json::from_str(text).expect("a lesson is JSON");
    let text =
        |t: &serde_json::Value| format!("({:?}, {:?})", t["ko"].as_str().unwrap_or(""), t["en"].as_str().unwrap_or(""));
    let eras = lesson.get("eras").and_then(|e| e.as_object()).cloned().unwrap_or_default();
    let titles: Vec<String> =
        eras.iter().filter_map(|(era, part)| Some(format!("({era:?}, {})", text(part.get("title")?)))).collect();
    let names: Vec<String> = eras.keys().map(|era| format!("{era:?}")).collect();
    format!(
        "    LessonHead {{ file: {file:?}, id: {:?}, title: {}, titles: &[{}], era: {:?}, eras: &[{}], extra: {} }},\n",
        lesson["id"].as_str().expect("a lesson has an id"),
        text(&lesson["title"]),
        titles.join(", "),
        lesson["era"].as_str().unwrap_or(""),
        names.join(", "),
        lesson["extra"].as_bool().unwrap_or(false),
    )
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
    let mut index = String::from("pub const INDEX: &[LessonHead] = &[\n");
    let mut files = String::from("pub const FILES: &[(&str, &str)] = &[\n");
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a readable lesson");
        let name = path.file_name().expect("a file name");
        std::fs::write(Path::new(&out).join(name), compact(&text)).expect("OUT_DIR is writable");
        let name = name.to_string_lossy();
        index.push_str(&head(&name, &text));
        files.push_str(&format!("    ({name:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/{name}\"))),\n"));
    }
    files.push_str("];\n");
    index.push_str("];\n");
    std::fs::write(Path::new(&out).join("files.rs"), files).expect("OUT_DIR is writable");
    std::fs::write(Path::new(&out).join("index.rs"), index).expect("OUT_DIR is writable");
    std::fs::write(Path::new(&out).join("page_contract.rs"), page_contract()).expect("OUT_DIR is writable");
}

/// `www/contract.json`'s values the page reads, as Rust constants.
fn page_contract() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/contract.json");
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).expect("www/contract.json exists");
    let contract: serde_json::Value = serde_json::from_str(&text).expect("www/contract.json is JSON");
    let text = |name: &str| contract[name].as_str().unwrap_or_else(|| panic!("contract: {name} is text")).to_string();
    let texts = |name: &str| -> Vec<String> {
        let list = contract[name].as_array().unwrap_or_else(|| panic!("contract: {name} is a list"));
        list.iter().map(|v| v.as_str().unwrap_or_else(|| panic!("contract: {name} holds text")).to_string()).collect()
    };
    format!(
        "pub const LANGUAGE_KEY: &str = {:?};\npub const LANGUAGES: &[&str] = &{:?};\npub const EMBED_YES: &[&str] = &{:?};\n",
        text("languageKey"),
        texts("languages"),
        texts("embedYes"),
    )
}
