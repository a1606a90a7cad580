//! `validate`, `importPlugin` and `rules` results as napi objects, so their
//! typings are generated: the fields and names of the core's JSON report
//! (`schema/validate-report.schema.json`).

use napi_derive::napi;
use plugforge_core as engine;

use crate::convert::{Location, TreeFile, tree_files};

/// What `validate` judged: detected from a marker file, or named by `target`.
#[napi(object, object_from_js = false, use_nullable = true)]
pub struct Subject {
    #[napi(ts_type = "SubjectKind")]
    pub kind: String,
    /// `null` for a plugforge source judged for every runtime it targets.
    #[napi(ts_type = "RuntimeId | null")]
    pub runtime: Option<String>,
    /// Folder relative to the validated folder (`''`: itself).
    pub root: String,
    /// The file that identified it, or `--target`.
    pub marker: String,
}

/// One broken rule at one place; `file` is relative to the validated folder.
#[napi(object, object_from_js = false)]
pub struct ValidationFinding {
    /// The rule's stable code, `area/what`.
    #[napi(ts_type = "RuleCode")]
    pub code: String,
    /// Effective severity: with `strict`, always `error`.
    #[napi(ts_type = "RuleSeverity")]
    pub severity: String,
    #[napi(ts_type = "RuntimeId")]
    pub runtime: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    pub fix: String,
}

/// The verdict over a folder (the `report` of `plugforge validate --json`).
#[napi(object, object_from_js = false)]
pub struct ValidationReport {
    /// `plugforge.validate.v1`.
    pub schema: String,
    /// No errors (with `strict`, no warnings either).
    pub valid: bool,
    pub strict: bool,
    pub subjects: Vec<Subject>,
    pub errors: u32,
    pub warnings: u32,
    /// Sorted by file, line, column, code.
    pub findings: Vec<ValidationFinding>,
}

/// One rule of the catalog (`docs/rules.md`).
#[napi(object, object_from_js = false)]
pub struct Rule {
    #[napi(ts_type = "RuleCode")]
    pub code: String,
    /// The rule's own severity, before `strict`.
    #[napi(ts_type = "RuleSeverity")]
    pub severity: String,
    /// Runtime ids the rule judges; empty: every runtime.
    #[napi(ts_type = "Array<RuntimeId>")]
    pub runtimes: Vec<String>,
    pub summary: String,
    pub fix: String,
}

/// Something of the native plugin the canonical source does not carry.
#[napi(object, object_from_js = false)]
pub struct ImportNote {
    /// Stable snake_case identifier, e.g. `unknown_field`.
    #[napi(ts_type = "DiagnosticCode")]
    pub code: String,
    pub location: Location,
    pub message: String,
}

/// A native plugin read into a canonical source.
#[napi(object, object_from_js = false)]
pub struct Imported {
    /// The runtime the plugin was read as.
    #[napi(ts_type = "RuntimeId")]
    pub runtime: String,
    /// The canonical source's files (with `plugforge.json`), ready to write.
    pub files: Vec<TreeFile>,
    pub notes: Vec<ImportNote>,
}

fn severity(severity: engine::RuleSeverity) -> String {
    match severity {
        engine::RuleSeverity::Error => "error",
        engine::RuleSeverity::Warning => "warning",
    }
    .into()
}

fn number(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn subject(s: &engine::Subject) -> Subject {
    let kind = s.kind.id();
    let runtime = s.runtime.map(|r| r.id().to_string());
    Subject { kind: kind.into(), runtime, root: s.root.clone(), marker: s.marker.clone() }
}

fn finding(f: &engine::Diagnostic) -> ValidationFinding {
    let severity = match f.severity {
        engine::Severity::Error => "error",
        engine::Severity::Warning | engine::Severity::Info => "warning",
    };
    ValidationFinding {
        code: f.code.into(),
        severity: severity.into(),
        runtime: f.runtime.map(Into::into),
        file: f.file().map(Into::into),
        line: f.line().map(number),
        column: f.column().map(number),
        message: f.message.clone(),
        fix: f.fix.unwrap_or_default().into(),
    }
}

impl From<&engine::ValidationReport> for ValidationReport {
    fn from(r: &engine::ValidationReport) -> Self {
        ValidationReport {
            schema: r.schema.into(),
            valid: r.valid,
            strict: r.strict,
            subjects: r.subjects.iter().map(subject).collect(),
            errors: number(r.errors),
            warnings: number(r.warnings),
            findings: r.findings.iter().map(finding).collect(),
        }
    }
}

impl From<&engine::Rule> for Rule {
    fn from(r: &engine::Rule) -> Self {
        Rule {
            code: r.code.into(),
            severity: severity(r.severity),
            runtimes: r.runtimes.iter().map(|id| id.to_string()).collect(),
            summary: r.summary.into(),
            fix: r.fix.into(),
        }
    }
}

impl From<&engine::Imported> for Imported {
    fn from(i: &engine::Imported) -> Self {
        let note = |n: &engine::Diagnostic| ImportNote {
            code: n.code.into(),
            location: n
                .location
                .as_ref()
                .map(Location::from)
                .unwrap_or_else(|| Location::from(&Default::default())),
            message: n.message.clone(),
        };
        Imported {
            runtime: i.runtime.id().into(),
            files: tree_files(&i.source),
            notes: i.notes.iter().map(note).collect(),
        }
    }
}
