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
