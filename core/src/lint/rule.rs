//! A rule of the catalog: a stable code, a default severity, the runtimes it
//! applies to and a fix hint.

use serde::Serialize;

pub use crate::report::RuleSeverity;

/// One rule of the catalog.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    /// Stable identifier, `area/what-is-wrong` in kebab-case.
    pub code: &'static str,
    pub severity: RuleSeverity,
    /// Runtime ids the rule applies to; empty = every runtime.
    pub runtimes: &'static [&'static str],
    /// One sentence: what the rule requires.
    pub summary: &'static str,
    /// How to fix a finding.
    pub fix: &'static str,
}
