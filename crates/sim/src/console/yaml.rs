//! The YAML that manifests are written in — block mappings and sequences (nested too, `- - x`),
//! plain and quoted scalars and keys, comments, single documents, and flow sequences and empty
//! flow mappings — read into JSON values, and JSON values written back as YAML the way
//! `kubectl get -o yaml` lays objects out. Whatever the writer prints, the reader reads back
//! to the same value (a property test checks).
//!
//! Not a full YAML parser: anchors, tags, block scalars (`|`, `>`) and flow mappings with
//! content are refused with a message naming the line; nesting deeper than
//! [`MAX_DEPTH`](crate::limits::MAX_DEPTH) is refused rather than followed.

use crate::limits::MAX_DEPTH;
use serde_json::{Map, Number, Value};

/// One meaningful line: (line number, indentation, text without comment or indentation).
type Line<'a> = (usize, usize, &'a str);

fn error(line: usize, what: &str) -> String {
    format!("error converting YAML to JSON: yaml: line {line}: {what}")
}

fn too_deep(line: usize) -> String {
    error(line, &format!("nesting deeper than {MAX_DEPTH} levels is not supported"))
}

/// Parses one YAML document into a JSON value.
pub fn parse(text: &str) -> Result<Value, String> {
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .filter_map(|(n, raw)| {
            let content = strip_comment(raw).trim_end();
            let trimmed = content.trim_start();
            (!trimmed.is_empty() && trimmed != "---").then(|| (n + 1, content.len() - trimmed.len(), trimmed))
        })
        .collect();
    if lines.is_empty() {
        return Err("error converting YAML to JSON: empty document".into());
    }
    let mut pos = 0;
    let value = block(&lines, &mut pos, lines[0].1, 0)?;
    match lines.get(pos) {
        Some((n, _, _)) => Err(error(*n, "did not find expected key")),
        None => Ok(value),
    }
}

/// The line without its comment: a `#` at the start or after a space, outside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match (c, quote) {
            (_, Some('"')) if escaped => escaped = false,
            ('\\', Some('"')) => escaped = true,
            ('"' | '\'', None) => quote = Some(c),
            (q, Some(open)) if q == open => quote = None,
            ('#', None) if i == 0 || line[..i].ends_with(' ') => return &line[..i],
            _ => {}
        }
    }
    line
}

fn is_item(text: &str) -> bool {
    text.starts_with("- ") || text == "-"
}

fn block(lines: &[Line], pos: &mut usize, indent: usize, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(too_deep(lines[*pos].0));
    }
    if is_item(lines[*pos].2) {
        sequence(lines, pos, indent, depth)
    } else {
        mapping(lines, pos, indent, depth)
    }
}

fn mapping(lines: &[Line], pos: &mut usize, indent: usize, depth: usize) -> Result<Value, String> {
    let mut map = Map::new();
    while let Some(&(n, ind, text)) = lines.get(*pos) {
        if ind < indent || (ind == indent && is_item(text)) {
            break;
        }
        if ind > indent {
            return Err(error(n, "mapping values are not allowed in this context"));
        }
        let (key, rest) = split_key(text, n)?.ok_or_else(|| error(n, "could not find expected ':'"))?;
        *pos += 1;
        let value = if rest.is_empty() {
            match lines.get(*pos) {
                Some(&(_, next, t)) if next > indent || (next == indent && is_item(t)) => {
                    block(lines, pos, next, depth + 1)?
                }
                _ => Value::Null,
            }
        } else {
            scalar(rest, n, depth + 1)?
        };
        map.insert(key, value);
    }
    Ok(Value::Object(map))
}

fn sequence(lines: &[Line], pos: &mut usize, indent: usize, depth: usize) -> Result<Value, String> {
    let mut items = Vec::new();
    while let Some(&(n, ind, text)) = lines.get(*pos) {
        if ind != indent || !is_item(text) {
            break;
        }
        let rest = text[1..].trim_start();
        if rest.is_empty() {
            *pos += 1;
            items.push(match lines.get(*pos) {
                Some(&(_, next, _)) if next > indent => block(lines, pos, next, depth + 1)?,
                _ => Value::Null,
            });
        } else if is_item(rest) || split_key(rest, n)?.is_some() {
            // `- key: value` and `- - x` open a block whose first line starts after "- ":
            // that line and every deeper one below it form the item.
            let column = indent + (text.len() - rest.len());
            let mut sub: Vec<Line> = vec![(n, column, rest)];
            let mut end = *pos + 1;
            while let Some(&(ln, li, lt)) = lines.get(end) {
                if li < column {
                    break;
                }
                sub.push((ln, li, lt));
                end += 1;
            }
            let mut sub_pos = 0;
            items.push(block(&sub, &mut sub_pos, column, depth + 1)?);
            if let Some((ln, _, _)) = sub.get(sub_pos) {
                return Err(error(*ln, "did not find expected key"));
            }
            *pos = end;
        } else {
            items.push(scalar(rest, n, depth + 1)?);
            *pos += 1;
        }
    }
    Ok(Value::Array(items))
}

/// A double-quoted string at the start of `text`: its value and the rest of the line.
fn quoted(text: &str, line: usize) -> Result<(String, &str), String> {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                let value: String = serde_json::from_str(&text[..=i]).map_err(|e| error(line, &e.to_string()))?;
                return Ok((value, &text[i + 1..]));
            }
            _ => {}
        }
    }
    Err(error(line, "found unexpected end of stream while scanning a quoted scalar"))
}

/// A single-quoted string at the start of `text` (`''` is one quote).
fn single_quoted(text: &str, line: usize) -> Result<(String, &str), String> {
    let mut value = String::new();
    let mut chars = text.char_indices().skip(1).peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\'' {
            if chars.peek().map(|(_, n)| *n) == Some('\'') {
                chars.next();
                value.push('\'');
            } else {
                return Ok((value, &text[i + 1..]));
            }
        } else {
            value.push(c);
        }
    }
    Err(error(line, "found unexpected end of stream while scanning a quoted scalar"))
}

/// `key: value` (the key may be quoted); `None` when the line is not a key.
fn split_key(text: &str, line: usize) -> Result<Option<(String, &str)>, String> {
    let quoted_key = match text.chars().next() {
        Some('"') => Some(quoted(text, line)?),
        Some('\'') => Some(single_quoted(text, line)?),
        _ => None,
    };
    if let Some((key, rest)) = quoted_key {
        return Ok(rest.strip_prefix(':').filter(|r| r.is_empty() || r.starts_with(' ')).map(|r| (key, r.trim())));
    }
    let i = text.find(": ").or_else(|| text.ends_with(':').then(|| text.len() - 1));
    Ok(i.map(|i| (text[..i].trim().to_string(), text[i + 1..].trim())))
}

fn scalar(text: &str, line: usize, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(too_deep(line));
    }
    let unsupported = |what: &str| error(line, &format!("{what} are not supported here"));
    Ok(match text {
        "null" | "~" => Value::Null,
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "{}" => Value::Object(Map::new()),
        t if t.starts_with('"') => {
            let (value, rest) = quoted(t, line)?;
            if !rest.trim().is_empty() {
                return Err(error(line, "did not find expected key"));
            }
            Value::String(value)
        }
        t if t.starts_with('\'') => {
            let (value, rest) = single_quoted(t, line)?;
            if !rest.trim().is_empty() {
                return Err(error(line, "did not find expected key"));
            }
            Value::String(value)
        }
        t if t.starts_with('[') => {
            let (value, rest) = flow_sequence(t, line, depth)?;
            if !rest.trim().is_empty() {
                return Err(error(line, "did not find expected ',' or ']'"));
            }
            value
        }
        t if t.starts_with('{') => return Err(unsupported("flow mappings")),
        t if t.starts_with('|') || t.starts_with('>') => return Err(unsupported("block scalars")),
        t if t.starts_with('&') || t.starts_with('*') || t.starts_with('!') => {
            return Err(unsupported("anchors and tags"))
        }
        t => plain_scalar(t),
    })
}

/// A plain scalar: a number when it reads as one, else the string itself.
fn plain_scalar(t: &str) -> Value {
    if let Ok(n) = t.parse::<i64>() {
        return Value::Number(n.into());
    }
    if let Ok(n) = t.parse::<u64>() {
        return Value::Number(n.into());
    }
    match t.parse::<f64>().ok().and_then(Number::from_f64) {
        Some(n) if t.chars().any(|c| c.is_ascii_digit()) && !t.contains(':') => Value::Number(n),
        _ => Value::String(t.to_string()),
    }
}

/// `[a, "b", [c]]` at the start of `text`: the array and the rest of the line.
fn flow_sequence(text: &str, line: usize, depth: usize) -> Result<(Value, &str), String> {
    if depth > MAX_DEPTH {
        return Err(too_deep(line));
    }
    let mut items = Vec::new();
    let mut rest = text[1..].trim_start();
    if let Some(after) = rest.strip_prefix(']') {
        return Ok((Value::Array(items), after));
    }
    loop {
        let (item, after) = match rest.chars().next() {
            Some('[') => flow_sequence(rest, line, depth + 1)?,
            Some('"') => quoted(rest, line).map(|(s, r)| (Value::String(s), r))?,
            Some('\'') => single_quoted(rest, line).map(|(s, r)| (Value::String(s), r))?,
            Some('{') if rest.starts_with("{}") => (Value::Object(Map::new()), &rest[2..]),
            Some(_) => {
                let end = rest.find([',', ']']).unwrap_or(rest.len());
                let word = rest[..end].trim();
                let value = match word {
                    "null" | "~" => Value::Null,
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    w if w.starts_with('{') => return Err(error(line, "flow mappings are not supported here")),
                    w => plain_scalar(w),
                };
                (value, &rest[end..])
            }
            None => return Err(error(line, "did not find expected ',' or ']'")),
        };
        items.push(item);
        rest = after.trim_start();
        match rest.chars().next() {
            Some(',') => rest = rest[1..].trim_start(),
            Some(']') => return Ok((Value::Array(items), &rest[1..])),
            _ => return Err(error(line, "did not find expected ',' or ']'")),
        }
    }
}

/// Writes a JSON value as block YAML, the way `kubectl get -o yaml` lays objects out.
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, 0, &mut out);
    out
}

/// A string as a plain scalar when it reads back as the same string, else double-quoted.
fn plain(s: &str) -> String {
    let needs_quotes = s.is_empty()
        || !matches!(plain_scalar(s), Value::String(_))
        || matches!(s, "true" | "false" | "null" | "~" | "{}" | "[]" | "-" | "yes" | "no")
        || s.contains(": ")
        || s.contains(" #")
        || s.contains(',')
        || s.ends_with(':')
        || s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` ".contains(c))
        || s.ends_with(' ')
        || s.chars().any(|c| c.is_control() || c == '\u{feff}');
    if needs_quotes {
        serde_json::to_string(s).unwrap_or_default()
    } else {
        s.to_string()
    }
}

fn inline(value: &Value) -> Option<String> {
    match value {
        Value::Null => Some("null".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(plain(s)),
        Value::Array(a) if a.is_empty() => Some("[]".into()),
        Value::Object(o) if o.is_empty() => Some("{}".into()),
        _ => None,
    }
}

fn write_value(value: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match inline(v) {
                    Some(s) => out.push_str(&format!("{pad}{}: {s}\n", plain(k))),
                    None => {
                        out.push_str(&format!("{pad}{}:\n", plain(k)));
                        let child = if v.is_array() { indent } else { indent + 2 };
                        write_value(v, child, out);
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                match inline(item) {
                    Some(s) => out.push_str(&format!("{pad}- {s}\n")),
                    None => {
                        // The item's first line takes the "- " in place of its indentation.
                        let mut nested = String::new();
                        write_value(item, indent + 2, &mut nested);
                        out.push_str(&pad);
                        out.push_str("- ");
                        out.push_str(&nested[indent + 2..]);
                    }
                }
            }
        }
        other => out.push_str(&format!("{pad}{}\n", inline(other).unwrap_or_default())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Rng;
    use serde_json::json;

    const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web   # the name
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: \"nginx:1.27\"
        ports:
        - containerPort: 80
      tolerations: []
";

    #[test]
    fn reads_a_deployment_manifest() {
        let err = parse(DEPLOYMENT).unwrap_err();
        assert!(err.contains("line 10: flow mappings are not supported here"), "{err}");
        let fixed = DEPLOYMENT.replace("matchLabels: {app: web}", "matchLabels:\n      app: web");
        let value = parse(&fixed).unwrap();
        assert_eq!(value["spec"]["replicas"], json!(3));
        assert_eq!(value["spec"]["selector"]["matchLabels"], json!({"app": "web"}));
        assert_eq!(
            value["spec"]["template"]["spec"]["containers"][0],
            json!({"name": "web", "image": "nginx:1.27", "ports": [{"containerPort": 80}]})
        );
        assert_eq!(value["spec"]["template"]["spec"]["tolerations"], json!([]));
        assert_eq!(value["metadata"]["name"], "web");
    }

    #[test]
    fn scalars_and_errors() {
        assert_eq!(
            parse("a: 'it''s'\nb: \"x: y\"\nc: 1.5\nd: 08:00\ne: [1, two, [3, \"a, b\"]]\n").unwrap(),
            json!({"a": "it's", "b": "x: y", "c": 1.5, "d": "08:00", "e": [1, "two", [3, "a, b"]]})
        );
        assert!(parse("a: b\n  c: d\n").unwrap_err().contains("line 2"));
        assert!(parse("").is_err());
        assert!(parse("a: [1, 2").unwrap_err().contains("expected ',' or ']'"));
    }

    #[test]
    fn deep_nesting_is_refused_not_followed() {
        let flow = format!("a: {}{}", "[".repeat(5000), "]".repeat(5000));
        assert!(parse(&flow).unwrap_err().contains("nesting deeper than 64 levels"));
        let block: String = (0..200).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect();
        assert!(parse(&block).unwrap_err().contains("nesting deeper than 64 levels"));
        let dashes = format!("{}x\n", "- ".repeat(300));
        assert!(parse(&dashes).unwrap_err().contains("nesting deeper than 64 levels"));
    }

    #[test]
    fn what_kubectl_get_prints_reads_back() {
        for value in [
            json!({"spec": {"containers": [{"name": "c", "args": ["-v", "2"]}], "empty": {}}, "data": {"n": "5", "s": ""}}),
            json!({"matrix": [[1, 2], [[3]], [], [{"a": 1}], [{}]]}),
            json!({"items": ["x:", "- y", "a #b", " lead", "trail ", "[1]", "{}", "~", "yes", "1e5", "0x1f", "#x"]}),
            json!({"k\"ey": 1, "a: b": 2, "#c": 3, "": 4, "q'uote": "it's", "tab\tkey": "new\nline"}),
            json!({"big": 18446744073709551615u64, "neg": -9223372036854775808i64, "f": 0.1, "z": -0.0}),
        ] {
            let text = to_yaml(&value);
            assert_eq!(parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}")), value, "{text}");
        }
    }

    fn random_string(rng: &mut Rng) -> String {
        const PIECES: [&str; 20] =
            ["a", "b", ":", " ", "#", "-", "'", "\"", "\\", ",", "[", "]", "{", "}", "\n", "\t", "1", "é", "한", "?"];
        let n = (rng.next_u64() % 6) as usize;
        (0..n).map(|_| PIECES[(rng.next_u64() % PIECES.len() as u64) as usize]).collect()
    }

    fn random_value(rng: &mut Rng, depth: usize) -> Value {
        let pick = rng.next_u64() % if depth > 4 { 5 } else { 8 };
        match pick {
            0 => Value::Null,
            1 => Value::Bool(rng.next_u64().is_multiple_of(2)),
            2 => json!(rng.next_u64() as i64 >> (rng.next_u64() % 60)),
            3 => json!((rng.float64() - 0.5) * 1e6),
            4 => Value::String(random_string(rng)),
            5 | 6 => Value::Object(
                (0..rng.next_u64() % 4).map(|_| (random_string(rng), random_value(rng, depth + 1))).collect(),
            ),
            _ => Value::Array((0..rng.next_u64() % 4).map(|_| random_value(rng, depth + 1)).collect()),
        }
    }

    #[test]
    fn property_every_value_written_reads_back_the_same() {
        let mut rng = Rng::new(42);
        for case in 0..3_000 {
            let value = json!({"root": random_value(&mut rng, 0)});
            let text = to_yaml(&value);
            let back = parse(&text).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
            assert_eq!(back, value, "case {case}:\n{text}");
        }
    }
}
