//! Findings: one broken rule at one place, collected while rules run (part
//! of the stable `validate --json` contract, `schema/validate-report.schema.json`).

use serde::Serialize;

use super::rule::{Rule, RuleSeverity};
use crate::error::Location;

/// One broken rule at one place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ValidationFinding {
    pub code: &'static str,
    /// Effective severity: `--strict` reports warnings as errors.
    pub severity: RuleSeverity,
    /// The runtime the finding applies to, when it is runtime-specific.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime: Option<&'static str>,
    /// Path relative to the validated folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    pub message: String,
    pub fix: &'static str,
}

/// Collects findings while rules run.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    findings: Vec<ValidationFinding>,
}

impl Sink {
    /// Records that `rule` is broken at `location` (a path relative to the
    /// validated folder, already prefixed by the subject's root).
    pub fn report(
        &mut self,
        rule: &'static Rule,
        runtime: Option<&'static str>,
        location: Option<Location>,
        message: impl Into<String>,
    ) {
        let (file, line, column) = match location {
            Some(l) => (Some(l.file), l.line, l.column),
            None => (None, None, None),
        };
        self.findings.push(ValidationFinding {
            code: rule.code,
            severity: rule.severity,
            runtime,
            file,
            line,
            column,
            message: message.into(),
            fix: rule.fix,
        });
    }

    /// Drops the warnings, keeping what breaks a rule outright.
    pub fn retain_errors(&mut self) {
        self.findings.retain(|f| f.severity == RuleSeverity::Error);
    }

    /// Drops the findings of `rules`.
    pub fn drop_rules(&mut self, rules: &[&Rule]) {
        self.findings.retain(|f| !rules.iter().any(|r| r.code == f.code));
    }

    /// Moves every finding into `sink` as one of `runtime`, each message
    /// followed by `(note)` when given: rules run on another runtime's
    /// behalf report under the runtime that reads the files.
    pub fn forward(self, sink: &mut Sink, runtime: &'static str, note: Option<&str>) {
        for mut finding in self.findings {
            finding.runtime = Some(runtime);
            if let Some(note) = note {
                finding.message = format!("{} ({note})", finding.message);
            }
            sink.findings.push(finding);
        }
    }

    /// Every finding recorded, in the order reported.
    pub fn into_findings(self) -> Vec<ValidationFinding> {
        self.findings
    }
}
