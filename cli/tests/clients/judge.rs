//! What the real-client tests share: running a client's driver (from its
//! runtime's folder, `core/src/runtime/<folder>/drivers/`) as `plugforge
//! verify` runs it, reading its report with the runtime's own check (the verdict `verify` gives), and the names a built folder holds,
//! to compare with what a client reports.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use plugforge_core::{Built, Judge, Manifest, Reading, Runtime};
use plugforge_judge::driver::{self, Outcome, Scratch};
use serde_json::Value;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// Runs the driver named `script` (`claude_inventory.py`) through the verifier's own
/// runner (plugforge-judge: a throwaway HOME, no credentials, a deadline)
/// and returns the one JSON object it prints.
pub fn judge(script: &str, args: &[&str]) -> Value {
    let scratch = Scratch::new(None).unwrap_or_else(|e| panic!("{script}: {e}"));
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let path = driver::named(script).unwrap_or_else(|| panic!("no driver {script} is embedded"));
    match driver::run(&scratch, path, &args, Duration::from_secs(1800)) {
        Outcome::Report(report) => report,
        Outcome::Failed(said) => panic!("{script} failed: {said}"),
    }
}

/// What `runtime`'s check by `client` makes of `report` (a report of the
/// check's driver on the bundle in `dir`, whose manifest is `manifest`,
/// relative to `dir`): the verdict `plugforge verify` gives, from the same
/// descriptor and the same code.
pub fn verdict(runtime: &str, client: &str, report: &Value, dir: &Path, manifest: &str) -> Reading {
    let spec = Runtime::parse(runtime).expect("a runtime").spec();
    let Judge::Clients(checks) = &spec.judge else { panic!("{runtime} has no client") };
    let check =
        checks.iter().find(|c| c.client.id == client).unwrap_or_else(|| panic!("{runtime} has no {client}"));
    let bytes = std::fs::read(dir.join(manifest)).unwrap_or_else(|e| panic!("{manifest}: {e}"));
    let manifest = Manifest::parse(manifest, &bytes).expect("a manifest").sorted();
    let shared =
        spec.kinds.iter().find(|k| k.name == manifest.kind.as_str()).map(|k| k.shared).unwrap_or_default();
    let files: BTreeMap<String, Vec<u8>> = manifest
        .files
        .iter()
        .map(|f| f.path.clone())
        .chain(shared.iter().map(|p| p.to_string()))
        .filter_map(|p| std::fs::read(dir.join(&p)).ok().map(|b| (p, b)))
        .collect();
    let dir = dir.display().to_string();
    (check.read)(report, &Built { dir: &dir, manifest: &manifest, files: &files })
}

/// Asserts that `verdict` passed: everything built loaded, nothing said.
pub fn assert_passed(reading: &Reading) {
    assert!(reading.passed(), "the verdict of plugforge verify: {reading:#?}");
}

/// A JSON list of strings as a set.
pub fn strings(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("a list: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap_or_else(|| panic!("a string: {v}")).to_string())
        .collect()
}

/// The names of `dir`'s entries: folders (`skills/<name>/`) or `.md` files without the extension.
pub fn entries(dir: &Path, folders: bool) -> BTreeSet<String> {
    let Ok(read) = std::fs::read_dir(dir) else { return BTreeSet::new() };
    read.map(|e| e.unwrap().path())
        .filter_map(|p| match folders {
            true => p.is_dir().then(|| p.file_name().unwrap().to_str().unwrap().to_string()),
            false => (p.extension()? == "md").then(|| p.file_stem().unwrap().to_str().unwrap().to_string()),
        })
        .collect()
}

/// The keys of the object at `pointer` in the JSON file `file` (none when the file is absent).
pub fn json_keys(file: &Path, pointer: &str) -> BTreeSet<String> {
    let Ok(bytes) = std::fs::read(file) else { return BTreeSet::new() };
    let value: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    value.pointer(pointer).and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

/// Claude Code's PascalCase event as Copilot reports it (camelCase).
pub fn camel(event: &str) -> String {
    let mut chars = event.chars();
    chars.next().map(|c| c.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// The Copilot CLI event a Claude Code event loads as (docs/runtimes/copilot.md, "Hook events").
pub fn copilot_event(event: &str) -> String {
    match event {
        "Stop" => "agentStop".into(),
        "UserPromptSubmit" => "userPromptSubmitted".into(),
        other => camel(other),
    }
}
