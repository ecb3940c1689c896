//! Build step: the bundled lessons (`static/scenarios/*.json`) are built into the program
//! without the whitespace between JSON tokens (the files stay readable; the bundle is smaller).

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

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    println!("cargo:rerun-if-changed=static/scenarios");
    for entry in std::fs::read_dir("static/scenarios").expect("static/scenarios exists") {
        let path = entry.expect("a readable directory").path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).expect("a readable lesson");
            let name = path.file_name().expect("a file name");
            std::fs::write(Path::new(&out).join(name), compact(&text)).expect("OUT_DIR is writable");
        }
    }
}
