//! `verify`: the real clients judge the bundles below an output root
//! (plugforge-judge runs them); this module prints the verdicts as text,
//! JSON, SARIF 2.1.0 (GitHub code scanning) or JUnit XML. `validate
//! --format sarif` is printed here too, so both verbs feed code scanning.

use plugforge_core::{RuleSeverity, ValidationReport};
use serde_json::{Value, json};

use crate::Failure;
use crate::args::VerifyArgs;
use crate::host::Host;

/// The SARIF version and schema every SARIF report declares.
const SARIF_VERSION: &str = "2.1.0";
const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

#[cfg(target_os = "wasi")]
pub fn verify(_host: &mut dyn Host, _args: &VerifyArgs) -> Result<u8, Failure> {
    Err(Failure::usage(
        "verify runs the real clients as processes, which the WebAssembly build of plugforge cannot start: \
         run it where a native package installs (linux, macOS, Windows)",
    ))
}

#[cfg(not(target_os = "wasi"))]
pub fn verify(host: &mut dyn Host, args: &VerifyArgs) -> Result<u8, Failure> {
    use crate::args::FormatArg;
    use crate::{EXIT_OK, EXIT_REFUSED, render};
    use plugforge_judge::Options;
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    let format = if args.json { FormatArg::Json } else { args.format };
    let mut clients = BTreeMap::new();
    for (id, path) in &args.clients {
        let known = plugforge_judge::install::clients();
        if !known.iter().any(|c| c.id == id) {
            let ids: Vec<&str> = known.iter().map(|c| c.id).collect();
            return Err(Failure::usage(format!(
                "--client {id}=...: no client {id:?}; known: {}",
                ids.join(", ")
            )));
        }
        clients.insert(id.clone(), PathBuf::from(path));
    }
    if args.install {
        let log = plugforge_judge::install::install(&mut |line| host.stderr(&format!("{line}\n")))
            .map_err(|e| Failure { code: "install", message: e, problems: Vec::new(), exit: EXIT_REFUSED })?;
        for line in log {
            host.stderr(&format!("{line}\n"));
        }
    }
    if !host.exists(&args.out) {
        return Err(Failure::io(format!(
            "{}: no such output root (build writes one: plugforge build SRC --out {})",
            args.out, args.out
        )));
    }
    // Two clients per core: a client spends most of its run waiting on its
    // own start-up and sub-processes (eight on Striatum used 50 s of CPU in a
    // 66 s run on 2 cores), so one per core leaves the cores idle.
    let jobs = args.jobs.unwrap_or_else(|| 2 * std::thread::available_parallelism().map_or(1, |n| n.get()));
    let options = Options {
        root: PathBuf::from(&args.out),
        targets: args.targets.iter().filter(|t| !t.is_empty()).cloned().collect(),
        clients,
        manifest_name: args.manifest_name.clone(),
        timeout: std::time::Duration::from_secs(args.timeout.max(1)),
        jobs,
        scratch: None,
    };
    let mut report = plugforge_judge::verify(&options).map_err(Failure::usage)?;
    let skipped = report.skipped();
    if args.require_clients && skipped > 0 {
        report.ok = false;
    }
    match format {
        FormatArg::Text => text(host, &report, args.require_clients),
        FormatArg::Json => host.stdout(&render::json(&report)),
        FormatArg::Sarif => host.stdout(&render::json(&verify_sarif(&report))),
        FormatArg::Junit => host.stdout(&junit(&report)?),
    }
    Ok(if report.ok { EXIT_OK } else { EXIT_REFUSED })
}

#[cfg(not(target_os = "wasi"))]
fn text(host: &mut dyn Host, report: &plugforge_judge::Report, require_clients: bool) {
    use plugforge_judge::Status;
    let mut out = String::new();
    let width = report.bundles.iter().map(|b| b.runtime.len()).max().unwrap_or(0);
    let mut tally = std::collections::BTreeMap::<&str, usize>::new();
    for bundle in &report.bundles {
        *tally.entry(bundle.status.as_str()).or_default() += 1;
        let label = if bundle.bundle == "." { bundle.runtime.clone() } else { bundle.bundle.clone() };
        let head = format!("{label:<width$}  {}", bundle.status.as_str());
        if bundle.clients.is_empty() {
            out.push_str(&format!("{head}: {}\n", bundle.reason.as_deref().unwrap_or_default()));
            continue;
        }
        let summaries: Vec<String> = bundle
            .clients
            .iter()
            .map(|c| match (&c.reading, c.status) {
                (Some(reading), _) => {
                    let counts: Vec<String> = reading
                        .loaded
                        .iter()
                        .filter(|n| n.built > 0 || n.loaded > 0)
                        .map(|n| format!("{} {}/{}", n.component, n.loaded, n.built))
                        .collect();
                    format!(
                        "{} {}: {}",
                        c.name,
                        c.pinned,
                        if counts.is_empty() { "nothing to load".into() } else { counts.join(", ") }
                    )
                }
                (None, Status::Skipped) => {
                    format!("{}: skipped: {}", c.name, c.reason.as_deref().unwrap_or_default())
                }
                (None, _) => format!("{}: {}", c.name, c.reason.as_deref().unwrap_or_default()),
            })
            .collect();
        out.push_str(&format!("{head}  {}\n", summaries.join("; ")));
        for client in bundle.clients.iter().filter(|c| c.status == Status::Failed) {
            let Some(reading) = &client.reading else { continue };
            for missing in &reading.missing {
                out.push_str(&format!(
                    "    {} {} ({}): built, but {} did not load it\n",
                    missing.component, missing.name, missing.file, client.name
                ));
            }
            for said in &reading.said {
                let file = said.file.as_deref().map(|f| format!(" [{f}]")).unwrap_or_default();
                out.push_str(&format!("    {} {}{file}: {}\n", client.name, said.step, said.message));
            }
        }
    }
    let parts: Vec<String> = ["passed", "failed", "skipped", "not judged"]
        .iter()
        .filter_map(|s| tally.get(s).map(|n| format!("{n} {s}")))
        .collect();
    out.push_str(&format!(
        "verify: {} ({:.1} s){}\n",
        if parts.is_empty() { "no bundle found".to_string() } else { parts.join(", ") },
        report.millis as f64 / 1000.0,
        if require_clients && report.skipped() > 0 {
            "; --require-clients: a client was not found"
        } else {
            ""
        }
    ));
    host.stdout(&out);
}

/// The bundle file a verdict line is about, relative to the output root.
#[cfg(not(target_os = "wasi"))]
fn artifact(bundle: &plugforge_judge::BundleVerdict, file: Option<&str>) -> String {
    let base = if bundle.bundle == "." { String::new() } else { format!("{}/", bundle.bundle) };
    match file {
        Some(file) => format!("{base}{file}"),
        None => bundle.manifest.clone(),
    }
}

/// Every failure of a verify run: (rule id, bundle, file below the root, message).
#[cfg(not(target_os = "wasi"))]
fn failures(
    report: &plugforge_judge::Report,
) -> Vec<(String, &plugforge_judge::BundleVerdict, String, String)> {
    use plugforge_judge::Status;
    let mut out = Vec::new();
    for bundle in &report.bundles {
        // A bundle that failed with no client run: its manifest did not parse.
        if bundle.status == Status::Failed && bundle.clients.is_empty() {
            out.push((
                "verify/manifest/unreadable".to_string(),
                bundle,
                bundle.manifest.clone(),
                format!("{}: {}", bundle.runtime, bundle.reason.as_deref().unwrap_or("failed")),
            ));
        }
        for client in bundle.clients.iter().filter(|c| c.status == Status::Failed) {
            match &client.reading {
                Some(reading) => {
                    for m in &reading.missing {
                        out.push((
                            format!("verify/{}/not-loaded", client.client),
                            bundle,
                            artifact(bundle, Some(&m.file)),
                            format!(
                                "{}: {} {} is built but {} did not load it",
                                bundle.runtime, m.component, m.name, client.name
                            ),
                        ));
                    }
                    for s in &reading.said {
                        out.push((
                            format!("verify/{}/refused", client.client),
                            bundle,
                            artifact(bundle, s.file.as_deref()),
                            format!("{}: {} {}: {}", bundle.runtime, client.name, s.step, s.message),
                        ));
                    }
                }
                None => out.push((
                    format!("verify/{}/did-not-run", client.client),
                    bundle,
                    artifact(bundle, None),
                    format!(
                        "{}: {}",
                        bundle.runtime,
                        client.reason.as_deref().unwrap_or("the client did not run")
                    ),
                )),
            }
        }
    }
    out
}

/// A SARIF 2.1.0 log of one run of `tool`.
fn sarif(rules: Vec<Value>, results: Vec<Value>) -> Value {
    json!({
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "plugforge",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
}

fn location(file: &str, line: Option<usize>, column: Option<usize>) -> Value {
    let mut physical = json!({"artifactLocation": {"uri": file}});
    if let Some(line) = line {
        let mut region = json!({"startLine": line.max(1)});
        if let Some(column) = column {
            region["startColumn"] = json!(column.max(1));
        }
        physical["region"] = region;
    }
    json!({"physicalLocation": physical})
}

#[cfg(not(target_os = "wasi"))]
fn verify_sarif(report: &plugforge_judge::Report) -> Value {
    let failures = failures(report);
    let mut rules: Vec<Value> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (id, ..) in &failures {
        if seen.insert(id.clone()) {
            rules.push(json!({"id": id, "shortDescription": {"text": rule_text(id)}}));
        }
    }
    let results = failures
        .iter()
        .map(|(id, _, file, message)| {
            json!({"ruleId": id, "level": "error", "message": {"text": message}, "locations": [location(file, None, None)]})
        })
        .collect();
    sarif(rules, results)
}

#[cfg(not(target_os = "wasi"))]
fn rule_text(id: &str) -> String {
    let client = id.split('/').nth(1).unwrap_or_default();
    match id.rsplit('/').next() {
        Some("not-loaded") => format!("{client} did not load a component the build wrote"),
        Some("refused") => format!("{client} refused or warned about the bundle"),
        Some("unreadable") => "the bundle's generation manifest does not parse".to_string(),
        _ => format!("{client} could not judge the bundle"),
    }
}

/// `validate --format sarif`: every finding, its rule and its place.
pub fn validate_sarif(path: &str, report: &ValidationReport) -> Value {
    let mut rules = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for finding in &report.findings {
        if seen.insert(finding.code) {
            let summary = plugforge_core::rule(finding.code).map_or("", |r| r.summary);
            rules.push(json!({
                "id": finding.code,
                "shortDescription": {"text": summary},
                "help": {"text": finding.fix},
            }));
        }
    }
    let base = path.trim_end_matches('/');
    let results = report
        .findings
        .iter()
        .map(|f| {
            let level = match f.severity {
                RuleSeverity::Error => "error",
                _ => "warning",
            };
            let file = match (&f.file, base) {
                (Some(file), "" | ".") => file.clone(),
                (Some(file), base) => format!("{base}/{file}"),
                (None, "" | ".") => ".".to_string(),
                (None, base) => base.to_string(),
            };
            json!({"ruleId": f.code, "level": level, "message": {"text": f.message}, "locations": [location(&file, f.line, f.column)]})
        })
        .collect();
    sarif(rules, results)
}

/// JUnit XML: a suite per runtime bundle, a case per client; a failing
/// case carries each failure with the bundle file it is about.
#[cfg(not(target_os = "wasi"))]
fn junit(report: &plugforge_judge::Report) -> Result<String, Failure> {
    use plugforge_judge::Status;
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    use std::time::Duration;
    let failures = failures(report);
    let mut junit = Report::new("plugforge verify");
    junit.set_time(Duration::from_millis(report.millis));
    for bundle in &report.bundles {
        let mut suite = TestSuite::new(format!("{} ({})", bundle.runtime, artifact(bundle, None)));
        if bundle.clients.is_empty() {
            let reason = bundle.reason.as_deref().unwrap_or_default();
            let mut status = if bundle.status == Status::Failed {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(format!("{}: {reason}", bundle.manifest));
                status
            } else {
                let mut status = TestCaseStatus::skipped();
                status.set_message(format!("not judged: {reason}"));
                status
            };
            status.set_description(reason);
            let mut case = TestCase::new(bundle.runtime.as_str(), status);
            case.set_classname(bundle.runtime.as_str());
            suite.add_test_case(case);
        }
        for client in &bundle.clients {
            let status = match client.status {
                Status::Failed => {
                    let mine: Vec<String> = failures
                        .iter()
                        .filter(|(id, b, ..)| {
                            std::ptr::eq(*b, bundle) && id.split('/').nth(1) == Some(client.client.as_str())
                        })
                        .map(|(_, _, file, message)| format!("{file}: {message}"))
                        .collect();
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status.set_message(mine.first().cloned().unwrap_or_else(|| "failed".into()));
                    status.set_description(mine.join("\n"));
                    status
                }
                Status::Skipped => {
                    let mut status = TestCaseStatus::skipped();
                    status.set_message(client.reason.clone().unwrap_or_default());
                    status
                }
                Status::Passed | Status::NotJudged => TestCaseStatus::success(),
            };
            let mut case = TestCase::new(format!("{} {}", client.name, client.pinned), status);
            case.set_classname(bundle.runtime.as_str());
            case.set_time(Duration::from_millis(client.millis));
            case.extra.insert("file".into(), artifact(bundle, None).into());
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string().map_err(|e| Failure::io(format!("cannot write the JUnit report: {e}")))
}
