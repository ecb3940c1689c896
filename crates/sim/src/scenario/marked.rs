//! Lesson text as its authors write it: what stands between backticks is code (a command, a
//! field, a message), the rest is prose. The page draws code as code, HTML gets `<code>`, and
//! where no markup is possible (an SVG poster, a script's data) the marks are dropped.

/// One stretch of a text: prose, or code that was between backticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run<'a> {
    Prose(&'a str),
    Code(&'a str),
}

/// The text's runs in order. A backtick without its pair stays in the prose as typed.
pub fn runs(text: &str) -> Vec<Run<'_>> {
    let mut runs = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else { break };
        if open > 0 {
            runs.push(Run::Prose(&rest[..open]));
        }
        runs.push(Run::Code(&rest[open + 1..open + 1 + len]));
        rest = &rest[open + len + 2..];
    }
    if !rest.is_empty() {
        runs.push(Run::Prose(rest));
    }
    runs
}

/// The text without its marks.
pub fn plain(text: &str) -> String {
    runs(text)
        .iter()
        .map(|r| match r {
            Run::Prose(t) | Run::Code(t) => *t,
        })
        .collect()
}

/// Text made safe inside HTML or SVG markup.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The text as HTML: escaped, its code in `<code>`.
pub fn html(text: &str) -> String {
    runs(text)
        .iter()
        .map(|r| match r {
            Run::Prose(t) => escape(t),
            Run::Code(t) => format!("<code>{}</code>", escape(t)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_between_backticks_is_code_and_a_lone_backtick_stays_as_typed() {
        assert_eq!(
            runs("경고(`W`)와 오류(`E`)"),
            [Run::Prose("경고("), Run::Code("W"), Run::Prose(")와 오류("), Run::Code("E"), Run::Prose(")")]
        );
        assert_eq!(runs("`a` b"), [Run::Code("a"), Run::Prose(" b")]);
        assert_eq!(runs("one ` alone"), [Run::Prose("one ` alone")]);
        assert_eq!(plain("run `kubectl get -w` now"), "run kubectl get -w now");
        assert_eq!(html("`<x>` & y"), "<code>&lt;x&gt;</code> &amp; y");
    }
}
