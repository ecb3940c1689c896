//! `kubectl get -o jsonpath=…`: the part of client-go's JSONPath templates
//! (`k8s.io/client-go/util/jsonpath`, as kubectl v0.37 prints with it) that the articles'
//! hands-on commands use — fields (`{.metadata.resourceVersion}`), list items (`{.items[*].…}`,
//! `{.items[0].…}`) and quoted text (`{"\n"}`) between literal text. Several values are joined
//! by a space, as upstream does. Left out: filters, ranges, recursive descent, slices and
//! `range`/`end` blocks (refused with upstream's words for an unknown one).

use serde_json::Value;

/// One piece of a template: literal text, quoted text, or a path into the object.
enum Piece<'a> {
    Text(String),
    Path(Vec<Step<'a>>),
}

/// One step of a path: a field, then maybe an index or every item.
enum Step<'a> {
    Field(&'a str),
    Every,
    Index(usize),
}

/// The template as a shell passes it on: `{.a.b}`, or in quotes as typed (`'{.a.b}'`).
fn unquoted(template: &str) -> &str {
    for quote in ['\'', '"'] {
        if let Some(inner) = template.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) {
            return inner;
        }
    }
    template
}

fn parse(template: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Text(rest[..open].to_string()));
        }
        let close = rest[open..].find('}').ok_or("unclosed action")? + open;
        let action = rest[open + 1..close].trim();
        pieces.push(if let Some(quoted) = action.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
            Piece::Text(quoted.replace("\\n", "\n").replace("\\t", "\t"))
        } else {
            Piece::Path(path(action)?)
        });
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_string()));
    }
    Ok(pieces)
}

fn path(action: &str) -> Result<Vec<Step<'_>>, String> {
    let fields = action.strip_prefix('.').ok_or_else(|| format!("unrecognized identifier {action}"))?;
    let mut steps = Vec::new();
    for part in fields.split('.').filter(|p| !p.is_empty()) {
        let (name, index) = match part.split_once('[') {
            Some((name, index)) => {
                (name, Some(index.strip_suffix(']').ok_or_else(|| format!("unterminated array in {action}"))?))
            }
            None => (part, None),
        };
        if !name.is_empty() {
            steps.push(Step::Field(name));
        }
        match index {
            Some("*") => steps.push(Step::Every),
            Some(n) => {
                steps.push(Step::Index(n.parse().map_err(|_| format!("unrecognized character in action: {n}"))?))
            }
            None => {}
        }
    }
    Ok(steps)
}

/// The values a path finds in `root` (several after `[*]`).
fn find<'v>(root: &'v Value, steps: &[Step]) -> Result<Vec<&'v Value>, String> {
    let mut found = vec![root];
    for step in steps {
        let mut next = Vec::new();
        for value in found {
            match step {
                Step::Field(name) => next.push(value.get(name).ok_or_else(|| format!("{name} is not found"))?),
                Step::Every => next.extend(value.as_array().into_iter().flatten()),
                Step::Index(i) => {
                    next.push(value.get(i).ok_or_else(|| format!("array index out of bounds: index {i}"))?)
                }
            }
        }
        found = next;
    }
    Ok(found)
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Prints `object` through `template`, or says why not in kubectl's words.
pub fn print(template: &str, object: &Value) -> Result<String, String> {
    let raw = unquoted(template);
    let failed = |why: String| {
        format!(
            "error: error executing jsonpath {raw:?}: Error executing template: {why}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{raw}"
        )
    };
    let pieces = parse(raw).map_err(|why| format!("error: error parsing jsonpath {raw}, {why}"))?;
    let mut out = String::new();
    for piece in pieces {
        match piece {
            Piece::Text(t) => out.push_str(&t),
            Piece::Path(steps) => {
                let values = find(object, &steps).map_err(failed)?;
                out.push_str(&values.iter().map(|v| text(v)).collect::<Vec<_>>().join(" "));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_items_and_quoted_text_print_as_kubectl_prints_them() {
        let pod = json!({"metadata": {"name": "web-1", "resourceVersion": "5"}, "spec": {"replicas": 3}});
        assert_eq!(print("'{.metadata.resourceVersion}{\"\\n\"}'", &pod).unwrap(), "5\n");
        assert_eq!(print("{.spec.replicas}", &pod).unwrap(), "3");
        assert_eq!(print("rv={.metadata.resourceVersion}", &pod).unwrap(), "rv=5");
        let list = json!({"kind": "List", "items": [{"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}]});
        assert_eq!(print("{.items[*].metadata.name}", &list).unwrap(), "a b");
        assert_eq!(print("{.items[1].metadata.name}", &list).unwrap(), "b");
    }

    #[test]
    fn a_missing_field_or_a_broken_template_is_refused_in_kubectls_words() {
        let pod = json!({"metadata": {"name": "web-1"}});
        let missing = print("{.metadata.uid}", &pod).unwrap_err();
        assert!(
            missing.starts_with(
                r#"error: error executing jsonpath "{.metadata.uid}": Error executing template: uid is not found."#
            ),
            "{missing}"
        );
        assert!(print("{.metadata.name", &pod)
            .unwrap_err()
            .starts_with("error: error parsing jsonpath {.metadata.name, unclosed action"));
    }
}
