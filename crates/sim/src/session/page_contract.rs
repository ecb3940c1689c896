//! What the page's scripts and its wasm agree on, written once in `www/contract.json` and read
//! by both: the key a chosen language is remembered under, the languages a link may name, the
//! values that say yes to a flag such as `embed`, the pattern of a file name that carries its
//! content's hash, and the language rule as cases (a link and a remembered language → the
//! language the page opens in). The build makes the values constants here (`build.rs`) and
//! hands the scripts their part (scripts/contract.mjs); the rule's cases are checked against
//! the page's own rule (`Link::opening_lang`, whose tests read them) and against the first
//! screen's in the end-to-end layer.

include!(concat!(env!("OUT_DIR"), "/page_contract.rs"));

/// The contract's cases of the language rule: (the address's query, the language another visit
/// remembered, the language the page opens in).
#[cfg(test)]
pub fn opening_cases() -> Vec<(String, Option<String>, String)> {
    let contract: serde_json::Value =
        serde_json::from_str(include_str!("../../../../www/contract.json")).expect("www/contract.json is JSON");
    let cases = contract["openingLanguage"].as_array().expect("openingLanguage is a list");
    let text = |v: &serde_json::Value| v.as_str().map(String::from);
    cases.iter().map(|c| (text(&c["query"]).unwrap(), text(&c["remembered"]), text(&c["lang"]).unwrap())).collect()
}
