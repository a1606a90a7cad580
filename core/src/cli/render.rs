//! Human output: one line per file, a summary, honesty rows, diagnostics.

use serde::Serialize;

use super::{Host, join};
use crate::doctor::DoctorReport;
use crate::plan::{Op, Plan};
use crate::report::{Diagnostic, Honesty, Level, Severity};

pub fn json<T: Serialize + ?Sized>(value: &T) -> String {
    String::from_utf8(crate::json::to_bytes(value)).expect("JSON is UTF-8")
}

fn paint(host: &mut dyn Host, text: &str, code: &str) -> String {
    if host.color() { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
}

pub fn plan(host: &mut dyn Host, out: &str, plan: &Plan, verbose: bool) {
    let mut text = String::new();
    for action in &plan.actions {
        let (label, code) = match action.op {
            Op::Create => ("create", "32"),
            Op::Update => ("update", "33"),
            Op::Unchanged if !verbose => continue,
            Op::Unchanged => ("same", "2"),
            Op::Conflict => ("CONFLICT", "1;31"),
            Op::Remove => ("remove", "35"),
            Op::Keep => ("keep", "36"),
        };
        let reason = action.reason.as_deref().map(|r| format!("  ({r})")).unwrap_or_default();
        let label = paint(host, &format!("{label:<8}"), code);
        text.push_str(&format!("  {label} {}{reason}\n", join(out, action.path.as_str())));
    }
    let s = &plan.summary;
    text.push_str(&format!(
        "plan: {} create, {} update, {} unchanged, {} conflict, {} remove, {} keep ({} writes)\n",
        s.create,
        s.update,
        s.unchanged,
        s.conflict,
        s.remove,
        s.keep,
        plan.writes()
    ));
    host.stdout(&text);
}

/// Degraded and unsupported rows in full; supported ones as a count.
pub fn honesty(host: &mut dyn Host, rows: &[&Honesty]) {
    let mut text = String::new();
    for row in rows.iter().filter(|h| h.level != Level::Supported) {
        let level = match row.level {
            Level::Degraded => paint(host, "degraded", "33"),
            _ => paint(host, "unsupported", "31"),
        };
        text.push_str(&format!(
            "  {level:<11} {} {} {}: {}\n",
            row.runtime, row.component, row.name, row.detail
        ));
    }
    if !rows.is_empty() {
        let supported = rows.iter().filter(|h| h.level == Level::Supported).count();
        text.push_str(&format!("honesty: {supported} of {} components fully supported\n", rows.len()));
    }
    host.stdout(&text);
}

pub fn diagnostics(host: &mut dyn Host, items: &[&Diagnostic]) {
    for item in items {
        let label = match item.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let line = match &item.location {
            Some(location) => format!("{label}[{}]: {location}: {}\n", item.code, item.message),
            None => format!("{label}[{}]: {}\n", item.code, item.message),
        };
        host.stderr(&line);
    }
}

pub fn doctor(host: &mut dyn Host, report: &DoctorReport, bundles: usize) {
    if report.healthy() {
        host.stdout(&format!("healthy: {bundles} bundle(s) match their manifests\n"));
        return;
    }
    let text: String =
        report.findings.iter().map(|f| format!("{}: {}\n    fix: {}\n", f.code, f.message, f.fix)).collect();
    host.stdout(&text);
}

/// One line per finding (`file:line:col: severity[code] message`, then the
/// fix), and the verdict.
pub fn validation(host: &mut dyn Host, path: &str, report: &crate::validate::ValidationReport) {
    use crate::validate::RuleSeverity;
    let mut text = String::new();
    for subject in &report.subjects {
        let runtime = subject.runtime.map_or("every targeted runtime", |r| r.id());
        let root = if subject.root.is_empty() { path.to_string() } else { join(path, &subject.root) };
        text.push_str(
            &format!("  {:?} {root} for {runtime} ({})\n", subject.kind, subject.marker).to_lowercase(),
        );
    }
    for finding in &report.findings {
        let place = match (&finding.file, finding.line, finding.column) {
            (Some(file), Some(line), Some(column)) => format!("{}:{line}:{column}: ", join(path, file)),
            (Some(file), Some(line), None) => format!("{}:{line}: ", join(path, file)),
            (Some(file), None, _) => format!("{}: ", join(path, file)),
            (None, _, _) => format!("{path}: "),
        };
        let (label, code) = match finding.severity {
            RuleSeverity::Error => ("error", "1;31"),
            RuleSeverity::Warning => ("warning", "33"),
        };
        let label = paint(host, label, code);
        let runtime = finding.runtime.map(|r| format!(" ({r})")).unwrap_or_default();
        text.push_str(&format!(
            "{place}{label}[{}]{runtime} {}\n    fix: {}\n",
            finding.code, finding.message, finding.fix
        ));
    }
    let verdict = if report.valid { "valid" } else { "invalid" };
    let strict = if report.strict { ", strict" } else { "" };
    text.push_str(&format!("{verdict}: {} errors, {} warnings{strict}\n", report.errors, report.warnings));
    host.stdout(&text);
}

/// The files created, then every note about what was not carried over as it was.
pub fn import(host: &mut dyn Host, out: &str, imported: &crate::import::Imported) {
    let mut text = String::new();
    for (path, _) in imported.source.iter() {
        text.push_str(&format!("  create   {}\n", join(out, path.as_str())));
    }
    for note in &imported.notes {
        text.push_str(&format!("  note     {}: {} [{}]\n", note.location, note.message, note.code));
    }
    text.push_str(&format!(
        "imported a {} plugin: {} files, {} notes on what the source does not carry as it was\n\
         next: plugforge build {} --target all\n",
        imported.runtime.id(),
        imported.source.len(),
        imported.notes.len(),
        crate::doctor::shell_quote(out)
    ));
    host.stdout(&text);
}
