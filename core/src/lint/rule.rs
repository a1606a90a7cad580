//! A rule of the catalog: a stable code, a default severity, the runtimes it
//! applies to and a fix hint.

use serde::Serialize;

use crate::codes::RuleCode;
pub use crate::report::RuleSeverity;

/// One rule of the catalog.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    /// Stable identifier, `area/what-is-wrong` in kebab-case.
    pub code: RuleCode,
    pub severity: RuleSeverity,
    /// Runtime ids the rule applies to; empty = every runtime.
    // Ids, not `Runtime`s: only a runtime's folder names a runtime (the
    // catalog's test parses each).
    #[cfg_attr(feature = "typescript", ts(as = "Vec<crate::registry::Runtime>"))]
    pub runtimes: &'static [&'static str],
    /// One sentence: what the rule requires.
    pub summary: &'static str,
    /// How to fix a finding.
    pub fix: &'static str,
}
