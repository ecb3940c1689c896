//! The YAML manifests are written in, read into JSON values as kubectl reads them
//! (`sigs.k8s.io/yaml`: YAML 1.1's plain scalars — `yes`, `on`, `0x1f`, `~` — block scalars,
//! anchors and aliases, merge keys, flow collections, several documents), by a maintained YAML
//! parser (`yaml-rust2`, its events); and JSON values written back as YAML the way `kubectl
//! get -o yaml` lays objects out. Whatever the writer prints, the reader reads back to the same
//! value (a property test checks). Nesting deeper than [`MAX_DEPTH`] is refused rather than
//! followed.

use crate::limits::MAX_DEPTH;
use serde_json::{Map, Number, Value};
use std::collections::BTreeMap;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

fn error(line: usize, what: &str) -> String {
    format!("error converting YAML to JSON: yaml: line {line}: {what}")
}

/// Reads one YAML document (empty documents passed over) into a JSON value.
pub fn parse(text: &str) -> Result<Value, String> {
    let mut documents = parse_all(text)?;
    match (documents.len(), documents.pop()) {
        (1, Some(value)) => Ok(value),
        (0, _) => Err("error converting YAML to JSON: empty document".into()),
        (n, _) => Err(format!("error converting YAML to JSON: {n} documents where one was expected")),
    }
}

/// Reads every document of a YAML stream (`---` between them) into JSON values; empty
/// documents are passed over, as kubectl passes them over.
pub fn parse_all(text: &str) -> Result<Vec<Value>, String> {
    let mut reader = Reader { parser: Parser::new_from_str(text), anchors: BTreeMap::new() };
    let mut documents = Vec::new();
    loop {
        match reader.next()? {
            (Event::StreamStart | Event::DocumentEnd, _) => {}
            (Event::StreamEnd, _) => return Ok(documents),
            (Event::DocumentStart, _) => match reader.next()? {
                (Event::DocumentEnd, _) => {}
                (event, mark) => {
                    let value = reader.node(event, mark, 0)?;
                    if value != Value::Null {
                        documents.push(value);
                    }
                }
            },
            (_, mark) => return Err(error(mark.line(), "did not find expected document")),
        }
    }
}

struct Reader<'a> {
    parser: Parser<std::str::Chars<'a>>,
    /// The values anchors name (`&a`), for their aliases (`*a`).
    anchors: BTreeMap<usize, Value>,
}

impl Reader<'_> {
    fn next(&mut self) -> Result<(Event, Marker), String> {
        self.parser.next_token().map_err(|e| error(e.marker().line(), e.info()))
    }

    /// The value an event starts.
    fn node(&mut self, event: Event, mark: Marker, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(error(mark.line(), &format!("nesting deeper than {MAX_DEPTH} levels is not supported")));
        }
        let (value, anchor) = match event {
            Event::Alias(id) => {
                let value = self.anchors.get(&id).cloned();
                return value.ok_or_else(|| error(mark.line(), "unknown anchor"));
            }
            Event::Scalar(text, style, anchor, tag) => {
                let tagged = tag.map(|t| t.suffix);
                (scalar(text, style, tagged.as_deref()), anchor)
            }
            Event::SequenceStart(anchor, _) => {
                let mut items = Vec::new();
                loop {
                    match self.next()? {
                        (Event::SequenceEnd, _) => break,
                        (event, mark) => items.push(self.node(event, mark, depth + 1)?),
                    }
                }
                (Value::Array(items), anchor)
            }
            Event::MappingStart(anchor, _) => {
                let mut map = Map::new();
                loop {
                    let key = match self.next()? {
                        (Event::MappingEnd, _) => break,
                        (event, mark) => self.node(event, mark, depth + 1)?,
                    };
                    let (event, mark) = self.next()?;
                    let value = self.node(event, mark, depth + 1)?;
                    match key {
                        // A merge key: the maps it names fill in what this one lacks.
                        Value::String(k) if k == "<<" => merge(&mut map, value, mark.line())?,
                        Value::String(k) => drop(map.insert(k, value)),
                        // JSON's keys are strings: a number or a boolean key becomes its text.
                        Value::Number(_) | Value::Bool(_) | Value::Null => drop(map.insert(key_text(&key), value)),
                        _ => return Err(error(mark.line(), "a mapping's key must be a scalar")),
                    }
                }
                (Value::Object(map), anchor)
            }
            _ => return Err(error(mark.line(), "did not find expected node content")),
        };
        if anchor > 0 {
            self.anchors.insert(anchor, value.clone());
        }
        Ok(value)
    }
}

fn key_text(key: &Value) -> String {
    match key {
        Value::Null => "null".into(),
        other => other.to_string(),
    }
}

/// `<<: *base` or `<<: [*a, *b]`: keys of the named maps this map does not have.
fn merge(map: &mut Map<String, Value>, from: Value, line: usize) -> Result<(), String> {
    let sources = match from {
        Value::Array(items) => items,
        single => vec![single],
    };
    for source in sources {
        let Value::Object(source) = source else {
            return Err(error(line, "map merge requires map or sequence of maps"));
        };
        for (k, v) in source {
            map.entry(k).or_insert(v);
        }
    }
    Ok(())
}

/// A scalar's value: a quoted or block scalar, or one tagged `!!str`, is a string; a plain one
/// is resolved as YAML 1.1 resolves it (go-yaml's `resolve`, which kubectl's reader uses).
fn scalar(text: String, style: TScalarStyle, tag: Option<&str>) -> Value {
    match (style, tag) {
        (_, Some("str")) | (TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted, _) => Value::String(text),
        (TScalarStyle::Literal | TScalarStyle::Folded, _) => Value::String(text),
        _ => plain_scalar(&text).unwrap_or(Value::String(text)),
    }
}

/// A plain scalar's value when it is not a string: null, a boolean, an integer (decimal, `0x`,
/// `0o`, `0b`, or a leading `0` for octal, `_` between digits) or a float (`.inf`, `.nan`).
fn plain_scalar(t: &str) -> Option<Value> {
    match t {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "true" | "True" | "TRUE" => {
            return Some(Value::Bool(true))
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "false" | "False" | "FALSE" => {
            return Some(Value::Bool(false))
        }
        _ => {}
    }
    let digits = t.replace('_', "");
    let (sign, unsigned) = match digits.strip_prefix('-') {
        Some(rest) => (-1i128, rest),
        None => (1, digits.strip_prefix('+').unwrap_or(&digits)),
    };
    let radix = |prefix: &str, base: u32| unsigned.strip_prefix(prefix).map(|d| (d, base));
    let (number, base) = radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .or_else(|| radix("0b", 2))
        .or_else(|| (unsigned.len() > 1 && unsigned.starts_with('0')).then(|| (&unsigned[1..], 8)))
        .unwrap_or((unsigned, 10));
    if !number.is_empty() && !digits.starts_with('_') {
        if let Ok(n) = u128::from_str_radix(number, base) {
            let n = sign * n as i128;
            if let Ok(n) = i64::try_from(n) {
                return Some(Value::from(n));
            }
            if let Ok(n) = u64::try_from(n) {
                return Some(Value::from(n));
            }
        }
    }
    let float = match t {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(Value::String(t.into())),
        _ if t.contains(|c: char| c.is_ascii_digit()) => t.parse::<f64>().ok(),
        _ => None,
    };
    float.and_then(Number::from_f64).map(Value::Number)
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
        || plain_scalar(s).is_some()
        || matches!(s, "{}" | "[]" | "-" | "<<" | ".inf" | "-.inf" | ".nan" | ".NaN" | ".NAN")
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
        let value = parse(DEPLOYMENT).unwrap();
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
        assert!(parse(&flow).is_err(), "a flow nested 5,000 deep");
        let block: String = (0..200).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect();
        assert!(parse(&block).unwrap_err().contains("nesting deeper than 64 levels"));
        let dashes = format!("{}x\n", "- ".repeat(300));
        assert!(parse(&dashes).unwrap_err().contains("nesting deeper than 64 levels"));
    }

    #[test]
    fn reads_what_kubectl_reads_block_scalars_anchors_merges_and_several_documents() {
        let config = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app, labels: {tier: web}}\ndata:\n  config.yaml: |\n    port: 8080\n    debug: true\n  motd: >\n    one\n    two\n";
        let value = parse(config).unwrap();
        assert_eq!(value["data"]["config.yaml"], "port: 8080\ndebug: true\n");
        assert_eq!(value["data"]["motd"], "one two\n");
        assert_eq!(value["metadata"], json!({"name": "app", "labels": {"tier": "web"}}));
        let anchored = "base: &b {replicas: 2, image: x}\nweb:\n  <<: *b\n  image: z\ncopy: *b\n";
        assert_eq!(
            parse(anchored).unwrap(),
            json!({"base": {"replicas": 2, "image": "x"}, "web": {"replicas": 2, "image": "z"}, "copy": {"replicas": 2, "image": "x"}})
        );
        let two = "a: 1\n---\n---\nb: 2\n...\n";
        assert_eq!(parse_all(two).unwrap(), vec![json!({"a": 1}), json!({"b": 2})]);
        assert!(parse(two).unwrap_err().contains("2 documents"));
        assert!(parse("a: *nowhere\n").unwrap_err().contains("line 1"), "an alias to no anchor");
    }

    #[test]
    fn plain_scalars_resolve_as_yaml_1_1_does_for_kubectl() {
        let value = parse(
            "a: yes\nb: off\nc: ~\nd: 0x1f\ne: 0o17\nf: 0777\ng: 1_000\nh: -12\ni: 1e3\nj: \"yes\"\nk: !!str 42\nl: 09\n12: twelve\n",
        )
        .unwrap();
        assert_eq!(
            value,
            json!({"a": true, "b": false, "c": null, "d": 31, "e": 15, "f": 511, "g": 1000, "h": -12, "i": 1000.0,
                   "j": "yes", "k": "42", "l": 9.0, "12": "twelve"})
        );
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
