//! The differences the model keeps on purpose, each by name with its reason; README's "Where
//! the model does not follow" has a row for each. A difference the judge finds that none of
//! these explains fails the judge.

use super::compare::Difference;

/// A difference kept on purpose: its name, why, and which differences it covers.
pub struct Known {
    pub name: &'static str,
    pub why: &'static str,
    pub covers: fn(release: &str, d: &Difference) -> bool,
}

pub const KNOWN: &[Known] = &[];

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
