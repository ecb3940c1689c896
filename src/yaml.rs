//! The YAML that manifests are written in — block mappings and sequences, plain and quoted
//! scalars, comments, `---`-free single documents, inline `{}`/`[]` and flow lists of scalars —
//! read into JSON values, and JSON values written back as YAML for object views.
//!
//! Not a full YAML parser: anchors, tags, multi-line scalars (`|`, `>`) and flow mappings with
//! content are refused with a message naming the line.

use serde_json::{Map, Number, Value};

/// Parses one YAML document into a JSON value.
pub fn parse(text: &str) -> Result<Value, String> {
    let lines: Vec<(usize, usize, &str)> = text
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
    let value = block(&lines, &mut pos, lines[0].1)?;
    match lines.get(pos) {
        Some((n, _, _)) => Err(format!("error converting YAML to JSON: yaml: line {n}: did not find expected key")),
        None => Ok(value),
    }
}

fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (c, quote) {
            ('"' | '\'', None) => quote = Some(c),
            (q, Some(open)) if q == open => quote = None,
            ('#', None) if i == 0 || line[..i].ends_with(' ') => return &line[..i],
            _ => {}
        }
    }
    line
}

fn block(lines: &[(usize, usize, &str)], pos: &mut usize, indent: usize) -> Result<Value, String> {
    if lines[*pos].2.starts_with("- ") || lines[*pos].2 == "-" {
        sequence(lines, pos, indent)
    } else {
        mapping(lines, pos, indent)
    }
}

fn mapping(lines: &[(usize, usize, &str)], pos: &mut usize, indent: usize) -> Result<Value, String> {
    let mut map = Map::new();
    while let Some(&(n, ind, text)) = lines.get(*pos) {
        if ind < indent {
            break;
        }
        if ind > indent {
            return Err(format!(
                "error converting YAML to JSON: yaml: line {n}: mapping values are not allowed in this context"
            ));
        }
        if text.starts_with("- ") {
            break;
        }
        let (key, rest) = split_key(text)
            .ok_or_else(|| format!("error converting YAML to JSON: yaml: line {n}: could not find expected ':'"))?;
        *pos += 1;
        let value = if rest.is_empty() {
            match lines.get(*pos) {
                Some(&(_, next, t)) if next > indent || (next == indent && t.starts_with("- ")) => {
                    block(lines, pos, next)?
                }
                _ => Value::Null,
            }
        } else {
            scalar(rest, n)?
        };
        map.insert(key, value);
    }
    Ok(Value::Object(map))
}

fn sequence(lines: &[(usize, usize, &str)], pos: &mut usize, indent: usize) -> Result<Value, String> {
    let mut items = Vec::new();
    while let Some(&(n, ind, text)) = lines.get(*pos) {
        if ind != indent || !(text.starts_with("- ") || text == "-") {
            break;
        }
        let rest = text[1..].trim_start();
        if rest.is_empty() {
            *pos += 1;
            items.push(match lines.get(*pos) {
                Some(&(_, next, _)) if next > indent => block(lines, pos, next)?,
                _ => Value::Null,
            });
        } else if split_key(rest).is_some() {
            // `- key: value` opens a mapping whose keys sit at the column after "- ".
            let column = indent + (text.len() - rest.len());
            let mut sub: Vec<(usize, usize, &str)> = vec![(n, column, rest)];
            let mut end = *pos + 1;
            while let Some(&(ln, li, lt)) = lines.get(end) {
                if li < column {
                    break;
                }
                sub.push((ln, li, lt));
                end += 1;
            }
            let mut sub_pos = 0;
            items.push(mapping(&sub, &mut sub_pos, column)?);
            *pos = end;
        } else {
            items.push(scalar(rest, n)?);
            *pos += 1;
        }
    }
    Ok(Value::Array(items))
}

/// `key: value` (the key may be quoted); `None` when the line is not a key.
fn split_key(text: &str) -> Option<(String, &str)> {
    if let Some(quote) = text.chars().next().filter(|c| *c == '"' || *c == '\'') {
        let end = text[1..].find(quote)? + 1;
        let rest = text[end + 1..].strip_prefix(':')?;
        return Some((text[1..end].to_string(), rest.trim()));
    }
    let i = text.find(": ").or_else(|| text.ends_with(':').then(|| text.len() - 1))?;
    Some((text[..i].trim().to_string(), text[i + 1..].trim()))
}

fn scalar(text: &str, line: usize) -> Result<Value, String> {
    let unsupported =
        |what: &str| format!("error converting YAML to JSON: yaml: line {line}: {what} are not supported here");
    Ok(match text {
        "null" | "~" => Value::Null,
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "{}" => Value::Object(Map::new()),
        "[]" => Value::Array(vec![]),
        t if t.starts_with('"') => {
            serde_json::from_str(t).map_err(|e| format!("error converting YAML to JSON: yaml: line {line}: {e}"))?
        }
        t if t.starts_with('\'') && t.ends_with('\'') && t.len() >= 2 => {
            Value::String(t[1..t.len() - 1].replace("''", "'"))
        }
        t if t.starts_with('[') && t.ends_with(']') => {
            let inner = &t[1..t.len() - 1];
            Value::Array(inner.split(',').map(|item| scalar(item.trim(), line)).collect::<Result<_, _>>()?)
        }
        t if t.starts_with('{') => return Err(unsupported("flow mappings")),
        t if t.starts_with('|') || t.starts_with('>') => return Err(unsupported("block scalars")),
        t if t.starts_with('&') || t.starts_with('*') || t.starts_with('!') => {
            return Err(unsupported("anchors and tags"))
        }
        t => match t.parse::<i64>() {
            Ok(n) => Value::Number(n.into()),
            Err(_) => match t.parse::<f64>().ok().and_then(Number::from_f64) {
                Some(n) if t.chars().any(|c| c.is_ascii_digit()) && !t.contains(':') => Value::Number(n),
                _ => Value::String(t.to_string()),
            },
        },
    })
}

/// Writes a JSON value as block YAML, the way `kubectl get -o yaml` lays objects out.
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, 0, &mut out);
    out
}

fn plain(s: &str) -> String {
    let needs_quotes = s.is_empty()
        || s.parse::<f64>().is_ok()
        || matches!(s, "true" | "false" | "null" | "~" | "yes" | "no")
        || s.contains(": ")
        || s.contains(" #")
        || s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` ".contains(c))
        || s.ends_with(' ')
        || s.contains('\n');
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
            parse("a: 'it''s'\nb: \"x: y\"\nc: 1.5\nd: 08:00\ne: [1, two]\n").unwrap(),
            json!({"a": "it's", "b": "x: y", "c": 1.5, "d": "08:00", "e": [1, "two"]})
        );
        assert!(parse("a: b\n  c: d\n").unwrap_err().contains("line 2"));
        assert!(parse("").is_err());
    }

    #[test]
    fn writes_yaml_that_reads_back() {
        let value = json!({"metadata": {"name": "web", "labels": {"app": "web"}}, "spec": {"replicas": 3, "containers": [{"name": "c", "args": ["-v", "2"]}], "empty": {}}, "data": {"n": "5", "s": ""}});
        let text = to_yaml(&value);
        assert!(text.contains("  replicas: 3\n"), "{text}");
        assert!(text.contains("  - args:\n    - \"-v\"\n    - \"2\"\n    name: c\n"), "{text}");
        assert!(text.contains("n: \"5\""), "{text}");
        assert_eq!(parse(&text).unwrap(), value);
    }
}
