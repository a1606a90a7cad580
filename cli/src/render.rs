//! Human output: one line per file, a summary, honesty rows, diagnostics.

use serde::Serialize;

use plugforge_core::{
    CarriedUrl, Diagnostic, DoctorReport, Honesty, Imported, Level, Op, Plan, Severity, TargetFailure,
    ValidationReport, shell_quote,
};

use crate::diff::FileDiff;
use crate::host::Host;
use crate::join;

/// Pretty JSON with a final newline, keys in the order the report builds them.
pub fn json<T: Serialize + ?Sized>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values always serialize");
    text.push('\n');
    text
}

/// [`json`] written to stdout a block at a time as it is made, so a report
/// of ten thousand files is never one string in memory.
pub fn json_out<T: Serialize + ?Sized>(host: &mut dyn Host, value: &T) {
    let mut out = ToStdout { host, pending: Vec::new() };
    serde_json::to_writer_pretty(&mut out, value).expect("JSON values always serialize");
    out.pending.push(b'\n');
    out.pass(out.pending.len());
}

/// Prints what `from` reads to stdout a block at a time, as [`json_out`]
/// prints a report.
pub fn copy_to_stdout(host: &mut dyn Host, mut from: impl std::io::Read) -> std::io::Result<u64> {
    let mut out = ToStdout { host, pending: Vec::new() };
    let copied = std::io::copy(&mut from, &mut out)?;
    out.pass(out.pending.len());
    Ok(copied)
}

/// Hands what is written to [`Host::stdout`] in blocks of whole characters.
struct ToStdout<'h> {
    host: &'h mut dyn Host,
    pending: Vec<u8>,
}

impl ToStdout<'_> {
    const BLOCK: usize = 64 << 10;

    /// Passes on the first `upto` bytes, or as many of them as end a character.
    fn pass(&mut self, upto: usize) {
        let whole = match std::str::from_utf8(&self.pending[..upto]) {
            Ok(text) => text.len(),
            Err(cut) => cut.valid_up_to(),
        };
        let text = std::str::from_utf8(&self.pending[..whole]).expect("checked above");
        self.host.stdout(text);
        self.pending.drain(..whole);
    }
}

impl std::io::Write for ToStdout<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        if self.pending.len() >= Self::BLOCK {
            self.pass(self.pending.len());
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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

/// Each file's diff; on a terminal, headers bold, hunk headers cyan,
/// added lines green, removed lines red.
pub fn diffs(host: &mut dyn Host, diffs: &[FileDiff]) {
    let mut text = String::new();
    for line in diffs.iter().flat_map(|d| d.text.split_inclusive('\n')) {
        let code = if line.starts_with("+++ ") || line.starts_with("--- ") {
            "1"
        } else if line.starts_with("@@") {
            "36"
        } else if line.starts_with('+') {
            "32"
        } else if line.starts_with('-') {
            "31"
        } else {
            text.push_str(line);
            continue;
        };
        let body = line.strip_suffix('\n').unwrap_or(line);
        text.push_str(&paint(host, body, code));
        text.push('\n');
    }
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

/// Warnings and errors in full; notes (info) in full with `-v`, else counted.
pub fn diagnostics(host: &mut dyn Host, items: &[&Diagnostic], verbose: bool) {
    let mut hidden = 0;
    for item in items {
        let label = match item.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info if !verbose => {
                hidden += 1;
                continue;
            }
            Severity::Info => "info",
        };
        let line = match &item.location {
            Some(location) => format!("{label}[{}]: {location}: {}\n", item.code, item.message),
            None => format!("{label}[{}]: {}\n", item.code, item.message),
        };
        host.stderr(&line);
    }
    if hidden > 0 {
        host.stderr(&format!("notes: {hidden} about how the source was read (-v lists them)\n"));
    }
}

/// One line counting the author's URLs the bundles carry; each with `-v`.
pub fn urls(host: &mut dyn Host, urls: &[CarriedUrl], verbose: bool) {
    if urls.is_empty() {
        return;
    }
    let mut text = String::new();
    if verbose {
        for url in urls {
            text.push_str(&format!("  url      {} ({})\n", url.url, url.files.join(", ")));
        }
    }
    let files: std::collections::BTreeSet<&str> =
        urls.iter().flat_map(|u| u.files.iter().map(String::as_str)).collect();
    let more = if verbose { "" } else { " (-v lists them)" };
    text.push_str(&format!(
        "urls: {} written in {} source file(s) are carried as they are{more}; --deny-urls refuses them\n",
        urls.len(),
        files.len()
    ));
    host.stdout(&text);
}

/// Every runtime that could not be built, with every reason; a runtime
/// `all` brought in that has nothing to load is listed on one line, not as
/// a refusal.
pub fn failures(host: &mut dyn Host, failures: &[TargetFailure]) {
    if failures.is_empty() {
        return;
    }
    let mut text = String::new();
    let (skipped, refused): (Vec<&TargetFailure>, Vec<&TargetFailure>) =
        failures.iter().partition(|f| f.skipped);
    for failure in &skipped {
        let label = paint(host, "not built", "33");
        let why = failure.error.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; ");
        text.push_str(&format!("{label}: {} {}: {why}\n", failure.runtime, failure.kind));
    }
    for failure in &refused {
        let label = paint(host, "not built", "1;31");
        text.push_str(&format!("{label}: {} {} ({}):\n", failure.runtime, failure.kind, failure.error.code));
        for problem in &failure.error.problems {
            text.push_str(&format!("    {problem}\n"));
        }
    }
    // Each runtime named once: a build of many plugins lists one per plugin above.
    let runtimes = |listed: &[&TargetFailure]| {
        let mut names: Vec<&str> = listed.iter().map(|f| f.runtime.id()).collect();
        names.sort_unstable();
        names.dedup();
        names.join(", ")
    };
    if !skipped.is_empty() {
        text.push_str(&format!(
            "listed: {} bundle(s) have nothing to load and were not built ({}); name a runtime with --target to make it an error\n",
            skipped.len(),
            runtimes(&skipped)
        ));
    }
    if !refused.is_empty() {
        text.push_str(&format!(
            "refused: {} bundle(s) could not be built ({}); nothing was written for them\n",
            refused.len(),
            runtimes(&refused)
        ));
    }
    host.stderr(&text);
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
pub fn validation(host: &mut dyn Host, path: &str, report: &ValidationReport) {
    let mut text = String::new();
    for subject in &report.subjects {
        let root = if subject.root.is_empty() { path.to_string() } else { join(path, &subject.root) };
        let (kind, runtime) = (subject.kind.id(), subject.judged_for());
        text.push_str(&format!("  {kind} {root} for {runtime} ({})\n", subject.marker));
    }
    for finding in &report.findings {
        let place = match (finding.file(), finding.line(), finding.column()) {
            (Some(file), Some(line), Some(column)) => format!("{}:{line}:{column}: ", join(path, file)),
            (Some(file), Some(line), None) => format!("{}:{line}: ", join(path, file)),
            (Some(file), None, _) => format!("{}: ", join(path, file)),
            (None, _, _) => format!("{path}: "),
        };
        let (label, code) = match finding.severity {
            Severity::Error => ("error", "1;31"),
            Severity::Warning | Severity::Info => ("warning", "33"),
        };
        let label = paint(host, label, code);
        let runtime = finding.runtime.map(|r| format!(" ({r})")).unwrap_or_default();
        text.push_str(&format!(
            "{place}{label}[{}]{runtime} {}\n    fix: {}\n",
            finding.code,
            finding.message,
            finding.fix.unwrap_or_default()
        ));
    }
    let verdict = if report.valid { "valid" } else { "invalid" };
    let strict = if report.strict { ", strict" } else { "" };
    text.push_str(&format!("{verdict}: {} errors, {} warnings{strict}\n", report.errors, report.warnings));
    host.stdout(&text);
}

/// The files created, then every note about what was not carried over as it was.
pub fn import(host: &mut dyn Host, out: &str, imported: &Imported) {
    let mut text = String::new();
    for (path, _) in imported.source.iter() {
        text.push_str(&format!("  create   {}\n", join(out, path.as_str())));
    }
    for note in &imported.notes {
        let location = note.location.as_ref().map(ToString::to_string).unwrap_or_default();
        text.push_str(&format!("  note     {location}: {} [{}]\n", note.message, note.code));
    }
    text.push_str(&format!(
        "imported a {} plugin: {} files, {} notes on what the source does not carry as it was\n\
         next: plugforge build {} --target all\n",
        imported.runtime.id(),
        imported.source.len(),
        imported.notes.len(),
        shell_quote(out)
    ));
    host.stdout(&text);
}

#[cfg(test)]
mod tests {
    use plugforge_core::{
        BundlePath, Location, Observed, Runtime, SharedRule, SourceTree, Subject, SubjectKind,
    };

    use super::*;
    use crate::host::Listing;

    /// A host that only captures stdout.
    #[derive(Default)]
    struct Captured(String);

    impl Host for Captured {
        fn read_tree(&mut self, _: &str, _: &[String]) -> Result<SourceTree, String> {
            unreachable!("rendering reads nothing")
        }
        fn observe(
            &mut self,
            _: &str,
            _: &[BundlePath],
            _: &[BundlePath],
            _: Listing<'_>,
        ) -> Result<Observed, String> {
            unreachable!("rendering reads nothing")
        }
        fn apply(
            &mut self,
            _: &str,
            _: &Plan,
            _: plugforge_host_fs::Durability,
        ) -> Result<(), crate::Failure> {
            unreachable!("rendering writes nothing")
        }
        fn create_files(&mut self, _: &str, _: &SourceTree) -> Result<(), String> {
            unreachable!("rendering writes nothing")
        }
        fn exists(&mut self, _: &str) -> bool {
            false
        }
        fn generated_at(&mut self) -> String {
            String::new()
        }
        fn home_dir(&mut self) -> Option<String> {
            None
        }
        fn folder_name(&mut self, _: &str) -> Option<String> {
            None
        }
        fn stdout(&mut self, text: &str) {
            self.0.push_str(text);
        }
        fn stderr(&mut self, _: &str) {}
        fn color(&mut self) -> bool {
            false
        }
    }

    fn finding(file: Option<&str>, line: Option<usize>, column: Option<usize>) -> Diagnostic {
        let location = file.map(|file| Location { file: file.into(), line, column });
        Diagnostic {
            fix: Some("how to fix it"),
            runtime: Some(Runtime::parse("codex").unwrap()),
            ..Diagnostic::new(
                Severity::Warning,
                SharedRule::ManifestMissing.into(),
                location,
                "what is wrong",
            )
        }
    }

    #[test]
    fn a_validation_prints_subjects_located_findings_fixes_and_the_verdict() {
        let report = ValidationReport {
            schema: "plugforge.validate.v1",
            valid: true,
            strict: false,
            subjects: vec![Subject {
                kind: SubjectKind::Plugin,
                runtime: Some(Runtime::Codex),
                root: "Bundles/codex".into(),
                marker: "Bundles/codex/.codex-plugin/plugin.json".into(),
            }],
            errors: 0,
            warnings: 3,
            findings: vec![
                finding(Some("a.json"), Some(3), Some(7)),
                finding(Some("b.md"), Some(2), None),
                finding(None, None, None),
            ],
        };
        let mut host = Captured::default();
        validation(&mut host, "My-Out", &report);
        let expected = "  plugin My-Out/Bundles/codex for codex (Bundles/codex/.codex-plugin/plugin.json)
My-Out/a.json:3:7: warning[manifest/missing] (codex) what is wrong
    fix: how to fix it
My-Out/b.md:2: warning[manifest/missing] (codex) what is wrong
    fix: how to fix it
My-Out: warning[manifest/missing] (codex) what is wrong
    fix: how to fix it
valid: 0 errors, 3 warnings
";
        assert_eq!(host.0, expected);
    }
}
