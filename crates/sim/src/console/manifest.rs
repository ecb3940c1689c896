//! A manifest a person writes, read within the playground's limits: one reader for the console
//! (`kubectl … -f -`, JSON or YAML) and the object form (a request body, JSON). Its errors are
//! typed, and told in the words of whoever refuses them: kubectl reading a file, or the API
//! server reading a request body (kube-apiserver's `the object provided is unrecognized`).

use crate::cluster::api_errors::Status;
use crate::cluster::ApiObject;
use crate::limits;
use serde_json::Value;
use std::fmt;

/// Where a manifest comes from, which says what it may be written in and whose words refuse it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file kubectl reads (`-f -`): JSON or YAML.
    File,
    /// A request body the page's own client sends: JSON.
    Body,
}

/// What is wrong with a manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Beyond the playground's own limits (size, nesting, replicas, …).
    Limit,
    /// Not JSON (or YAML, for a file).
    Syntax,
    /// Not an object of the API's shape.
    Shape,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    pub source: Source,
    pub problem: Problem,
    pub detail: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let detail = &self.detail;
        match (self.source, self.problem) {
            (_, Problem::Limit) => write!(f, "error: {detail}"),
            (Source::File, Problem::Syntax) => write!(f, "error: error parsing STDIN: {detail}"),
            (Source::File, Problem::Shape) => write!(f, "error: error validating \"STDIN\": {detail}"),
            (Source::Body, Problem::Syntax | Problem::Shape) => {
                let unrecognized = format!("the object provided is unrecognized: json parse error: {detail}");
                write!(f, "{}", Status::bad_request(unrecognized))
            }
        }
    }
}

/// Reads the object a manifest from `source` describes.
pub fn read(text: &str, source: Source) -> Result<ApiObject, ManifestError> {
    let refuse = |problem, detail: String| ManifestError { source, problem, detail };
    if text.len() > limits::MAX_MANIFEST_BYTES {
        let over = limits::check_value(&Value::Null, text.len()).err().unwrap_or_default();
        return Err(refuse(Problem::Limit, over));
    }
    let value = match source {
        Source::File if !text.trim_start().starts_with('{') => {
            crate::console::yaml::parse(text).map_err(|e| refuse(Problem::Syntax, e.to_string()))?
        }
        _ => serde_json::from_str::<Value>(text).map_err(|e| refuse(Problem::Syntax, e.to_string()))?,
    };
    limits::check_value(&value, text.len()).map_err(|e| refuse(Problem::Limit, e.to_string()))?;
    let obj: ApiObject = serde_json::from_value(value).map_err(|e| refuse(Problem::Shape, e.to_string()))?;
    limits::check_object(&obj).map_err(|e| refuse(Problem::Limit, e.to_string()))?;
    Ok(obj)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_is_refused_in_kubectls_words_or_the_api_servers() {
        let file = |text| read(text, Source::File).unwrap_err().to_string();
        let body = |text| read(text, Source::Body).unwrap_err().to_string();
        assert!(file("{").starts_with("error: error parsing STDIN: "), "{}", file("{"));
        let shapeless = r#"{"kind": 3}"#;
        assert!(file(shapeless).starts_with("error: error validating \"STDIN\": "), "{}", file(shapeless));
        let refused = "Error from server (BadRequest): the object provided is unrecognized: json parse error: ";
        assert!(body("{").starts_with(refused), "{}", body("{"));
        assert_eq!(read("kind: ConfigMap\nmetadata:\n  name: a\n", Source::File).unwrap().metadata.name, "a");
        let yaml = read("kind: ConfigMap\n", Source::Body).unwrap_err();
        assert_eq!(yaml.problem, Problem::Syntax, "a request body is JSON");
        let huge = "x".repeat(limits::MAX_MANIFEST_BYTES + 1);
        assert_eq!(read(&huge, Source::Body).unwrap_err().problem, Problem::Limit);
        assert!(file(&huge).starts_with("error: "));
    }
}
