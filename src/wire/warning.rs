//! The `Warning` headers of an answer, as kube-apiserver's warning recorder writes them
//! (apiserver `pkg/endpoints/filters/warning.go`, apimachinery `util/net/http.go:
//! NewWarningHeader`, the same in 1.30.14, 1.33.13 and 1.37.2): `299 - "text"` with `"` and `\`
//! escaped, each text once, in order; once the texts pass 4,096 characters, every one so far is
//! written again cut to 256, and later ones are added (cut) while the total is under 4,096.

const TOTAL_RUNES: usize = 4 * 1024;
const ITEM_RUNES: usize = 256;

/// The headers for `texts` added one by one, as the recorder adds them.
pub fn headers(texts: &[String]) -> Vec<String> {
    let cut = |text: &str| text.chars().take(ITEM_RUNES).collect::<String>();
    let (mut recorded, mut out): (Vec<&str>, Vec<String>) = (Vec::new(), Vec::new());
    let (mut written, mut truncating) = (0, false);
    for text in texts.iter().map(String::as_str).filter(|t| !t.is_empty()) {
        if (truncating && written >= TOTAL_RUNES) || recorded.contains(&text) {
            continue;
        }
        recorded.push(text);
        let text = if truncating { cut(text) } else { text.to_string() };
        let runes = text.chars().count();
        if truncating || written + runes <= TOTAL_RUNES {
            written += runes;
            out.push(header(&text));
            continue;
        }
        // Past the limit: every warning so far again, each cut.
        truncating = true;
        out = recorded.iter().map(|t| header(&cut(t))).collect();
        written = recorded.iter().map(|t| cut(t).chars().count()).sum();
    }
    out
}

fn header(text: &str) -> String {
    let mut quoted = String::from("299 - \"");
    for c in text.chars() {
        if c == '"' || c == '\\' {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_warning_once_quoted_and_cut_when_they_are_too_many() {
        let texts =
            vec![r#"unknown field "spec.foo""#.to_string(), String::new(), r#"unknown field "spec.foo""#.to_string()];
        assert_eq!(headers(&texts), [r#"299 - "unknown field \"spec.foo\"""#]);
        let long: Vec<String> = (0..20).map(|i| format!("{i:03}{}", "x".repeat(297))).collect();
        let cut = headers(&long);
        // The 14th passes 4,096 (13 × 300 = 3,900): all 14 again, cut, then two more.
        assert_eq!(cut.len(), 16, "14 replayed at 256 each (3,584), then 2 until 4,096");
        assert!(cut.iter().all(|h| h.len() == "299 - \"\"".len() + ITEM_RUNES));
    }
}
