//! The differences the model keeps on purpose, each by name with its reason; docs/real-clients.md's "Where
//! the model does not follow" has a row for each. A difference the judge finds that none of
//! these explains fails the judge.

use super::compare::Difference;

/// A difference kept on purpose: its name, why, and which differences it covers.
pub struct Known {
    pub name: &'static str,
    pub why: &'static str,
    pub covers: fn(release: &str, d: &Difference) -> bool,
}

pub const KNOWN: &[Known] = &[
    Known {
        name: "go-decoder-words",
        why: "where kube-apiserver quotes an error of Go's own JSON or base64 decoder (a continue token or a body that does not decode), serve-api says what was wrong in its decoder's words; the status, reason and the message up to the quote are the same",
        covers: |_, d| {
            const QUOTING: [&str; 2] =
                ["invalid continue token: continue key is not valid: ", "the object provided is unrecognized"];
            let (Some(real), Some(model)) = (d.real.as_str(), d.model.as_str()) else { return false };
            d.at.ends_with(".message") && QUOTING.iter().any(|q| real.starts_with(q) && model.starts_with(q))
        },
    },
    Known {
        name: "label-selector-syntax-words",
        why: "a label selector that does not parse is a 400 on both sides; kube-apiserver words it by its lexer's tokens (`found '=', expected: identifier`), serve-api by the requirement it could not read",
        covers: |_, d| {
            let starts = |v: &serde_json::Value| v.as_str().is_some_and(|m| m.starts_with("unable to parse requirement: "));
            d.at.ends_with(".message") && starts(&d.real) && starts(&d.model)
        },
    },
    Known {
        name: "pod-defaults",
        why: "kube-apiserver fills in a Pod's defaults (restartPolicy, dnsPolicy, schedulerName, tolerations, a container's terminationMessagePath, the status's qosClass, …); the model's Pods carry what their writer gave, which is all a list, a watch or a lesson about them turns on, and keeps every object the page holds small",
        covers: |_, d| {
            let pod_field = [".spec.", ".status.qosClass"].iter().any(|p| d.at.contains(p)) || d.at.ends_with(".spec");
            pod_field && !d.real.is_null() && d.model.is_null()
        },
    },
    Known {
        name: "scheme-name-of-a-module-build",
        why: "a body of a kind no scheme registers is refused on both sides with the same 400; the message names the scheme by where it was made (`naming.GetNameFromCallsite`), which skips apimachinery's own scheme.go only at its vendored path: the judge's kube-apiserver, built from the Go module proxy, names `pkg/runtime/scheme.go`, a release's own build `pkg/api/legacyscheme/scheme.go:30`, which serve-api follows",
        covers: |_, d| {
            let (Some(real), Some(model)) = (d.real.as_str(), d.model.as_str()) else { return false };
            d.at.ends_with(".message")
                && real.replace("\"pkg/runtime/scheme.go:#\"", "\"pkg/api/legacyscheme/scheme.go:#\"") == model
        },
    },
    Known {
        name: "namespace-not-a-stored-object",
        why: "a Namespace is kept by the model's API server as a name it has, not as an object written to etcd (writing the system namespaces would move every lesson's revisions), so a Namespace serve-api answers with carries no resourceVersion; every other field a client reads, and every refusal, is the same",
        covers: |_, d| d.at.ends_with(".metadata.resourceVersion") && d.real.is_string() && d.model.is_null(),
    },
    Known {
        name: "strict-merge-patch-value",
        why: "a merge patch refused under fieldValidation=Strict is the same 422 on both sides, naming the same fields; its invalid value is the patched object as kube-apiserver encodes it (uid, timestamps, managedFields), which serve-api decides before the world applies the patch, so it names the patch there",
        covers: |_, d| {
            let (Some(real), Some(model)) = (d.real.as_str(), d.model.as_str()) else { return false };
            let split = |m: &str| {
                let (head, rest) = m.split_once("Invalid value: \"")?;
                let (_, tail) = rest.rsplit_once("\": strict decoding error: ")?;
                Some((head.to_string(), tail.to_string()))
            };
            d.at.ends_with("message") && split(real).is_some() && split(real) == split(model)
        },
    },
];

/// The name of the known difference that explains `d`, if one does.
pub fn explains(release: &str, d: &Difference) -> Option<&'static str> {
    KNOWN.iter().find(|k| (k.covers)(release, d)).map(|k| k.name)
}

/// Every known difference has a name and a reason, and names are unique.
pub fn self_test() {
    let mut names: Vec<&str> = KNOWN.iter().map(|k| k.name).collect();
    assert!(KNOWN.iter().all(|k| !k.name.is_empty() && !k.why.is_empty()));
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), KNOWN.len(), "known differences have unique names");
}
