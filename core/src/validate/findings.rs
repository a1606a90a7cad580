//! The report: the stable `validate --json` contract
//! (`schema/validate-report.schema.json`).

use serde::Serialize;

use super::detect::Subject;
use crate::lint::Sink;
use crate::report::{Diagnostic, Severity};

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
    // On the wire in validate's shape: `file`, `line` and `column` beside
    // the code, with the rule's fix.
    #[serde(serialize_with = "crate::report::validation_findings")]
    #[cfg_attr(feature = "typescript", ts(as = "Vec<crate::report::ValidationFinding<'static>>"))]
    pub findings: Vec<Diagnostic>,
}

pub const REPORT_SCHEMA: &str = "plugforge.validate.v1";

/// The verdict over `subjects` from every finding in `sink`; `strict` turns
/// warnings into errors.
pub(crate) fn finish(sink: Sink, subjects: Vec<Subject>, strict: bool) -> ValidationReport {
    let mut findings = sink.into_findings();
    if strict {
        for finding in &mut findings {
            finding.severity = Severity::Error;
        }
    }
    findings.sort_by(|a, b| {
        (a.file(), a.line(), a.column(), a.code.as_str(), &a.message).cmp(&(
            b.file(),
            b.line(),
            b.column(),
            b.code.as_str(),
            &b.message,
        ))
    });
    findings.dedup();
    let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    let warnings = findings.len() - errors;
    ValidationReport {
        schema: REPORT_SCHEMA,
        valid: errors == 0,
        strict,
        subjects,
        errors,
        warnings,
        findings,
    }
}
