//! The rule fixtures every host runs: `rules/<area>/<what>/` holds a `fail/`
//! folder that breaks rule `<area>/<what>` and a `pass/` folder that does
//! not, `case.json` with the validate options, and `fail.json` /
//! `pass.json`, the exact report each folder must produce.

use std::fs;
use std::path::{Path, PathBuf};

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
    pub file: RuleCaseFile,
}

/// The two fixtures of a rule.
pub const SIDES: [&str; 2] = ["fail", "pass"];

pub fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// Every `<area>/<what>` folder, sorted by code.
pub fn rule_cases() -> Vec<RuleCase> {
    let mut out = Vec::new();
    for area in sorted_dirs(&rules_dir()) {
        for what in sorted_dirs(&rules_dir().join(&area)) {
            let code = format!("{area}/{what}");
            let dir = rules_dir().join(&area).join(&what);
            let text =
                fs::read_to_string(dir.join("case.json")).unwrap_or_else(|e| panic!("{code}/case.json: {e}"));
            let file = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{code}/case.json: {e}"));
            out.push(RuleCase { code, dir, file });
        }
    }
    out
}

fn sorted_dirs(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .map(|e| e.expect("readable entry"))
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
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
