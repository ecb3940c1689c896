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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Beyond the playground's own limits (size, nesting, replicas, …): the page's own words,
    /// worded where they are shown.
    Limit(limits::Exceeded),
    /// Not JSON (or YAML, for a file): the reader's words.
    Syntax(String),
    /// Not an object of the API's shape: the reader's words.
    Shape(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    pub source: Source,
    pub problem: Problem,
}

impl ManifestError {
    /// What refused it in kubectl's or the API server's words; `None` for the playground's own
    /// limits, which the page words in its language.
    pub fn upstream(&self) -> Option<String> {
        Some(match (self.source, &self.problem) {
            (_, Problem::Limit(_)) => return None,
            (Source::File, Problem::Syntax(detail)) => format!("error: error parsing STDIN: {detail}"),
            (Source::File, Problem::Shape(detail)) => format!("error: error validating \"STDIN\": {detail}"),
            (Source::Body, Problem::Syntax(detail) | Problem::Shape(detail)) => {
                let unrecognized = format!("the object provided is unrecognized: json parse error: {detail}");
                Status::bad_request(unrecognized).to_string()
            }
        })
    }
}

/// In English, as the command line prints it.
impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.problem, self.upstream()) {
            (Problem::Limit(exceeded), _) => write!(f, "error: {exceeded}"),
            (_, Some(text)) => write!(f, "{text}"),
            (_, None) => Ok(()),
        }
    }
}

/// Reads the object a manifest from `source` describes.
pub fn read(text: &str, source: Source) -> Result<ApiObject, ManifestError> {
    let mut objects = read_all(text, source)?;
    match (objects.len(), objects.pop()) {
        (1, Some(obj)) => Ok(obj),
        (n, _) => Err(ManifestError { source, problem: Problem::Syntax(format!("expected one object, found {n}")) }),
    }
}

/// Reads every object a manifest describes: a file kubectl reads may hold several YAML
/// documents (`---` between them).
pub fn read_all(text: &str, source: Source) -> Result<Vec<ApiObject>, ManifestError> {
    let refuse = |problem| ManifestError { source, problem };
    limits::check_bytes(text.len()).map_err(|e| refuse(Problem::Limit(e)))?;
    let values = match source {
        Source::File if !text.trim_start().starts_with('{') => {
            crate::console::yaml::parse_all(text).map_err(|e| refuse(Problem::Syntax(e.to_string())))?
        }
        _ => vec![serde_json::from_str::<Value>(text).map_err(|e| refuse(Problem::Syntax(e.to_string())))?],
    };
    let mut objects = Vec::with_capacity(values.len());
    for value in values {
        limits::check_value(&value, text.len()).map_err(|e| refuse(Problem::Limit(e)))?;
        let obj: ApiObject = serde_json::from_value(value).map_err(|e| refuse(Problem::Shape(e.to_string())))?;
        limits::check_object(&obj).map_err(|e| refuse(Problem::Limit(e)))?;
        objects.push(obj);
    }
    Ok(objects)
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
        assert!(matches!(yaml.problem, Problem::Syntax(_)), "a request body is JSON");
        let huge = "x".repeat(limits::MAX_MANIFEST_BYTES + 1);
        assert_eq!(
            read(&huge, Source::Body).unwrap_err().problem,
            Problem::Limit(limits::Exceeded::ManifestBytes { bytes: huge.len() })
        );
        assert!(file(&huge).starts_with("error: "));
    }
}
