//! `plugforge doctor`: report what is wrong with generated bundles, with the
//! exact command that fixes each finding. It changes nothing.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use crate::build::{SourceOptions, build_options};
use crate::failure::Failure;
use crate::{EXIT_OK, EXIT_REFUSED, OutputArgs, fsio};
use plugforge_core::{DEFAULT_MANIFEST_NAME, DoctorOptions, Severity, shell_quote};

#[derive(Args)]
pub struct DoctorArgs {
    /// The plugin source: when given, output that no longer matches it is reported too.
    pub source: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

pub fn run(args: &DoctorArgs) -> Result<u8, Failure> {
    let json = args.output.json;
    let source_dir = args.source.clone().unwrap_or_else(|| PathBuf::from("."));
    let out = args.output.out_dir(&source_dir).map_err(|f| f.json(json))?;
    let options = DoctorOptions {
        runtimes: args.output.runtimes(),
        manifest_name: args.output.manifest_name.clone(),
        build_command: build_command(args, &source_dir, &out),
        out_dir: out.display().to_string(),
        ..DoctorOptions::default()
    };
    let desired = match &args.source {
        Some(source) => {
            let tree =
                fsio::read_tree(source, std::slice::from_ref(&out)).map_err(|e| Failure::io(e).json(json))?;
            let build = build_options(&args.output, &args.source_options, true);
            Some(plugforge_core::build(&tree, &build).map_err(|e| Failure::from(e).json(json))?)
        }
        None => None,
    };
    let to_read = plugforge_core::doctor_paths_to_read(&options).map_err(|e| Failure::from(e).json(json))?;
    let observed = fsio::observe(&out, &to_read).map_err(|e| Failure::io(e).json(json))?;
    let report = plugforge_core::doctor(&options, &observed, desired.as_ref())
        .map_err(|e| Failure::from(e).json(json))?;
    let failing = report.findings.iter().any(|f| f.severity >= Severity::Warning);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"ok": !failing, "report": report})).expect("JSON")
        );
    } else if report.healthy() {
        println!("healthy: {} bundle(s) match their manifests", options.runtimes.len());
    } else {
        for finding in &report.findings {
            println!("{}: {}\n    fix: {}", finding.code, finding.message, finding.fix);
        }
    }
    Ok(if failing { EXIT_REFUSED } else { EXIT_OK })
}

/// The `plugforge build` invocation that regenerates what doctor checked.
fn build_command(args: &DoctorArgs, source: &std::path::Path, out: &std::path::Path) -> String {
    let mut parts = vec!["plugforge".to_string(), "build".into(), shell_quote(&source.display().to_string())];
    for target in args.output.runtimes() {
        parts.extend(["--target".into(), shell_quote(&target)]);
    }
    parts.extend(["--out".into(), shell_quote(&out.display().to_string())]);
    if matches!(args.output.scope, crate::ScopeArg::User) {
        parts.extend(["--scope".into(), "user".into()]);
    }
    if args.output.manifest_name != DEFAULT_MANIFEST_NAME {
        parts.extend(["--manifest-name".into(), shell_quote(&args.output.manifest_name)]);
    }
    if let Some(namespace) = &args.source_options.namespace {
        parts.extend(["--namespace".into(), shell_quote(namespace)]);
    }
    for (key, value) in &args.source_options.vars {
        parts.extend(["--var".into(), shell_quote(&format!("{key}={value}"))]);
    }
    parts.join(" ")
}
