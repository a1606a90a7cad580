//! Human output: one line per file, a summary, honesty and diagnostics.

use std::io::IsTerminal;
use std::path::Path;

use plugforge_core::{Diagnostic, Honesty, Level, Op, Plan, Severity};

fn color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn paint(text: &str, code: &str) -> String {
    if color() { format!("\x1b[{code}m{text}\x1b[0m") } else { text.to_string() }
}

pub fn plan(out: &Path, plan: &Plan, verbose: bool) {
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
        println!("  {} {}/{}{}", paint(&format!("{label:<8}"), code), out.display(), action.path, reason);
    }
    let s = &plan.summary;
    println!(
        "plan: {} create, {} update, {} unchanged, {} conflict, {} remove, {} keep ({} writes)",
        s.create,
        s.update,
        s.unchanged,
        s.conflict,
        s.remove,
        s.keep,
        plan.writes()
    );
}

/// Degraded and unsupported rows in full; supported ones as a count.
pub fn honesty(rows: &[&Honesty]) {
    let supported = rows.iter().filter(|h| h.level == Level::Supported).count();
    for row in rows.iter().filter(|h| h.level != Level::Supported) {
        let level = match row.level {
            Level::Degraded => paint("degraded", "33"),
            _ => paint("unsupported", "31"),
        };
        println!("  {level:<11} {} {} {}: {}", row.runtime, row.component, row.name, row.detail);
    }
    if !rows.is_empty() {
        println!("honesty: {supported} of {} components fully supported", rows.len());
    }
}

pub fn diagnostics(items: &[&Diagnostic]) {
    for item in items {
        let label = match item.severity {
            Severity::Error => paint("error", "31"),
            Severity::Warning => paint("warning", "33"),
            Severity::Info => paint("info", "2"),
        };
        match &item.location {
            Some(location) => eprintln!("{label}[{}]: {location}: {}", item.code, item.message),
            None => eprintln!("{label}[{}]: {}", item.code, item.message),
        }
    }
}
