//! Findings and the report: the stable `validate --json` contract
//! (`schema/validate-report.schema.json`).

use serde::Serialize;

use super::catalog::{Rule, RuleSeverity};
use super::detect::Subject;
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

/// The whole verdict.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ValidationReport {
    /// `plugforge.validate.v1`.
    #[cfg_attr(feature = "typescript", ts(type = "\"plugforge.validate.v1\""))]
    pub schema: &'static str,
    /// No errors (and, with `strict`, no warnings).
    pub valid: bool,
    pub strict: bool,
    /// What was judged: detected from markers, or named by `--target`.
    pub subjects: Vec<Subject>,
    pub errors: usize,
    pub warnings: usize,
    /// Sorted by file, line, column, code.
    pub findings: Vec<ValidationFinding>,
}

pub const REPORT_SCHEMA: &str = "plugforge.validate.v1";

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

    pub fn finish(mut self, subjects: Vec<Subject>, strict: bool) -> ValidationReport {
        if strict {
            for finding in &mut self.findings {
                finding.severity = RuleSeverity::Error;
            }
        }
        self.findings.sort_by(|a, b| {
            (&a.file, a.line, a.column, a.code, &a.message)
                .cmp(&(&b.file, b.line, b.column, b.code, &b.message))
        });
        self.findings.dedup();
        let errors = self.findings.iter().filter(|f| f.severity == RuleSeverity::Error).count();
        let warnings = self.findings.len() - errors;
        ValidationReport {
            schema: REPORT_SCHEMA,
            valid: errors == 0,
            strict,
            subjects,
            errors,
            warnings,
            findings: self.findings,
        }
    }
}
