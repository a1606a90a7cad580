//! The rule fixtures every host runs: `rules/<area>/<what>/` holds a `fail/`
//! folder that breaks rule `<area>/<what>` and a `pass/` folder that does
//! not, `case.json` with the validate options, and `fail.json` /
//! `pass.json`, the exact report each folder must produce. A rule only one
//! runtime's format has keeps its fixtures in that runtime's folder
//! (`core/src/runtime/<folder>/conformance/rules/`), the others in
//! `tests/rules/`.

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

    /// The blessed report of `side`, as JSON.
    pub fn expected(&self, side: &str) -> Option<serde_json::Value> {
        let text = fs::read_to_string(self.dir.join(format!("{side}.json"))).ok()?;
        Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}/{side}.json: {e}", self.code)))
    }
}
