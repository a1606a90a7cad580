//! What the real-client tests share: running a judge script from
//! tests/clients/, reading its JSON, and the names a built folder holds, to
//! compare with what a client reports.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// Runs the judge `script` (in tests/clients/) and parses the one JSON object it prints.
pub fn judge(script: &str, args: &[&str]) -> Value {
    let output = Command::new("python3")
        .arg(repo_root().join("tests/clients").join(script))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("run {script}: {e}"));
    assert!(output.status.success(), "{script} failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{script} prints JSON: {e}"))
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
