//! Findings: one broken rule at one place, collected while rules run (part
//! of the stable `validate --json` contract, `schema/validate-report.schema.json`).

use super::rule::Rule;
use crate::error::Location;
use crate::registry::Runtime;
use crate::report::{Diagnostic, Severity};

/// Collects findings while rules run.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    findings: Vec<Diagnostic>,
}

impl Sink {
    /// Records that `rule` is broken at `location` (a path relative to the
    /// validated folder, already prefixed by the subject's root).
    pub fn report(
        &mut self,
        rule: &'static Rule,
        runtime: Option<Runtime>,
        location: Option<Location>,
        message: impl Into<String>,
    ) {
        self.findings.push(Diagnostic {
            fix: Some(rule.fix),
            runtime,
            ..Diagnostic::new(rule.severity.into(), rule.code.into(), location, message)
        });
    }

    /// Drops the warnings, keeping what breaks a rule outright.
    pub fn retain_errors(&mut self) {
        self.findings.retain(|f| f.severity == Severity::Error);
    }

    /// Drops the findings of `rules`.
    pub fn drop_rules(&mut self, rules: &[&Rule]) {
        self.findings.retain(|f| !rules.iter().any(|r| f.code == r.code));
    }

    /// Moves every finding into `sink` as one of `runtime`, each message
    /// followed by `(note)` when given: rules run on another runtime's
    /// behalf report under the runtime that reads the files.
    pub fn forward(self, sink: &mut Sink, runtime: Runtime, note: Option<&str>) {
        for mut finding in self.findings {
            finding.runtime = Some(runtime);
            if let Some(note) = note {
                finding.message = format!("{} ({note})", finding.message);
            }
            sink.findings.push(finding);
        }
    }

    /// Every finding recorded, in the order reported.
    pub fn into_findings(self) -> Vec<Diagnostic> {
        self.findings
    }
}
