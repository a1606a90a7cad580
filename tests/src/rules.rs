//! The rule fixtures every host runs: `rules/<area>/<what>/` holds a `fail/`
//! folder that breaks rule `<area>/<what>` and a `pass/` folder that does
//! not, `case.json` with the validate options, and `fail.json` /
//! `pass.json`, the exact report each folder must produce. A rule only one
//! runtime's format has keeps its fixtures in that runtime's folder
//! (`core/src/runtime/<folder>/conformance/rules/`), the others in
//! `tests/rules/`.
//!
//! A blessed report may hold a placeholder where its text lists something of
//! every runtime ([`PLACEHOLDERS`]), so that adding a runtime changes no
//! fixture: every host expands it from its binding's `runtimes()` before it
//! compares, and re-blessing writes the placeholder back.

use std::fs;
use std::path::PathBuf;

use plugforge_core::{ValidateOptions, ValidationReport};
use serde::Deserialize;

use crate::read_tree;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleCaseFile {
    pub description: String,
    #[serde(default)]
    pub options: serde_json::Value,
}

pub struct RuleCase {
    /// The rule code, `<area>/<what>`.
    pub code: String,
    pub dir: PathBuf,
    /// The runtime folder it lives in; `None` for a shared rule.
    pub folder: Option<String>,
    pub file: RuleCaseFile,
}

/// The two fixtures of a rule.
pub const SIDES: [&str; 2] = ["fail", "pass"];

/// Every `<area>/<what>` folder, sorted by code.
pub fn rule_cases() -> Vec<RuleCase> {
    crate::listed("rules")
        .into_iter()
        .map(|listed| {
            let dir = listed.path();
            let code = listed.name;
            let text =
                fs::read_to_string(dir.join("case.json")).unwrap_or_else(|e| panic!("{code}/case.json: {e}"));
            let file = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{code}/case.json: {e}"));
            RuleCase { code, dir, folder: listed.folder, file }
        })
        .collect()
}

impl RuleCase {
    pub fn options(&self) -> ValidateOptions {
        serde_json::from_value(self.file.options.clone())
            .unwrap_or_else(|e| panic!("{}/case.json options: {e}", self.code))
    }

    /// Validates the `side` fixture (`fail` or `pass`).
    pub fn run(&self, side: &str) -> ValidationReport {
        let tree = read_tree(&self.dir.join(side));
        plugforge_core::validate(&tree, &self.options())
            .unwrap_or_else(|e| panic!("{}/{side}: {e}", self.code))
    }

    /// The blessed report of `side`, as JSON, its placeholders expanded.
    pub fn expected(&self, side: &str) -> Option<serde_json::Value> {
        let text = fs::read_to_string(self.dir.join(format!("{side}.json"))).ok()?;
        let blessed =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}/{side}.json: {e}", self.code));
        Some(expand(blessed))
    }
}

/// The placeholders a blessed report may hold: `{markers}`, the marker files
/// `validate` names when a folder has none of them (every marketplace file,
/// then every plugin marker, each once, in registry order).
pub const PLACEHOLDERS: &[&str] = &["{markers}"];

/// What each of [`PLACEHOLDERS`] stands for, from the registry.
pub fn placeholder_values() -> Vec<(&'static str, String)> {
    let runtimes = plugforge_core::runtimes();
    let files = runtimes.iter().filter_map(|r| r.marketplace).chain(runtimes.iter().filter_map(|r| r.marker));
    let mut markers: Vec<&str> = Vec::new();
    for file in files {
        if !markers.contains(&file) {
            markers.push(file);
        }
    }
    vec![("{markers}", markers.join(", "))]
}

/// `report` with every placeholder in its strings expanded.
pub fn expand(report: serde_json::Value) -> serde_json::Value {
    let values = placeholder_values();
    map_strings(report, &|text| {
        values.iter().fold(text.to_string(), |t, (name, value)| t.replace(name, value))
    })
}

/// `report` as it is blessed: what a placeholder stands for written as the placeholder.
pub fn contract(report: serde_json::Value) -> serde_json::Value {
    let values = placeholder_values();
    map_strings(report, &|text| {
        values.iter().fold(text.to_string(), |t, (name, value)| t.replace(value, name))
    })
}

fn map_strings(value: serde_json::Value, change: &dyn Fn(&str) -> String) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(text) => Value::String(change(&text)),
        Value::Array(items) => Value::Array(items.into_iter().map(|v| map_strings(v, change)).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, map_strings(v, change))).collect())
        }
        other => other,
    }
}
