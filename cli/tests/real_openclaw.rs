//! The real OpenClaw CLI (2026.9.6, under node 24) judges the OpenClaw
//! bundles: `openclaw plugins install DIR --force --accept-capabilities`,
//! then `plugins inspect ID --json` must say `format: bundle` with the base
//! format `bundleFormat: auto` chose, and `skills list --json` must show
//! exactly the source's skills; the workspace kind is read back with `skills
//! list` and `hooks list` with the output as the agent workspace. Needs
//! `PLUGFORGE_OPENCLAW_BIN` (scripts/install-clients openclaw); a missing
//! client fails unless skipped by name (`PLUGFORGE_SKIP_CLIENTS`, clients/mod.rs).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn openclaw_bin() -> Option<String> {
    clients::client("PLUGFORGE_OPENCLAW_BIN")
}

/// A fresh output root, removed when dropped.
struct Out(PathBuf);

impl Out {
    fn new(name: &str) -> Out {
        let dir = std::env::temp_dir().join(format!("plugforge-real-openclaw-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Out(dir)
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn build(source: &Path, out: &Path, args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .args(args)
        .status()
        .expect("run plugforge");
    assert!(status.success(), "build of {} failed", source.display());
}

fn inventory(openclaw: &str, args: &[&str]) -> Value {
    let mut all = vec!["--openclaw", openclaw];
    all.extend_from_slice(args);
    clients::judge::judge("openclaw_inventory.py", &all)
}

fn set(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("a list: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn names(value: &Value) -> BTreeSet<String> {
    value.as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap().to_string()).collect()
}

fn source_skills(source: &Path) -> BTreeSet<String> {
    std::fs::read_dir(source.join("skills"))
        .map(|entries| entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default()
}

fn source_mcp(source: &Path) -> BTreeSet<String> {
    let mcp: Value = serde_json::from_slice(&std::fs::read(source.join(".mcp.json")).unwrap()).unwrap();
    mcp.get("mcpServers").unwrap_or(&mcp).as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

/// Installs a bundle and checks what every inspection must say.
fn check_bundle(openclaw: &str, bundle: &Path, id: &str, base: &str) -> Value {
    let report = inventory(openclaw, &["bundle", "--dir", bundle.to_str().unwrap(), "--id", id]);
    assert_eq!(report["install"]["exit"], 0, "install: {}", report["install"]["output"]);
    let inspect = &report["inspect"];
    assert_eq!(inspect["exit"], 0, "inspect: {}", inspect["stderr"]);
    assert_eq!(inspect["format"], "bundle", "{inspect}");
    assert_eq!(inspect["bundleFormat"], base, "{inspect}");
    assert_eq!(inspect["status"], "loaded", "{inspect}");
    assert_eq!(inspect["diagnostics"], Value::Array(vec![]), "{inspect}");
    assert_eq!(report["skills"]["exit"], 0, "skills list: {}", report["skills"]["stderr"]);
    report
}

#[test]
fn openclaw_installs_the_striatum_bundle_as_a_claude_bundle() {
    let Some(openclaw) = openclaw_bin() else { return };
    let source = repo_root().join("examples/striatum");
    let out = Out::new("striatum");
    build(&source, &out.0, &["--target", "openclaw", "--var", "runner_version=0.7.3"]);
    assert!(!out.0.join(".claude-plugin/marketplace.json").exists(), "no marketplace entry for OpenClaw");
    let report = check_bundle(&openclaw, &out.0.join("openclaw"), "striatum", "claude");
    let inspect = &report["inspect"];
    let expected: BTreeSet<String> =
        ["skills", "commands", "agents", "hooks", "mcpServers"].map(String::from).into();
    assert_eq!(set(&inspect["bundleCapabilities"]), expected, "{inspect}");
    assert_eq!(set(&inspect["mcpServers"]), source_mcp(&source));
    // Commands and the agent are skill roots OpenClaw scans for <dir>/SKILL.md
    // only: exactly the 5 skills load, as the honesty report says.
    let skills = source_skills(&source);
    assert_eq!(skills.len(), 5);
    assert_eq!(names(&report["skills"]["plugin"]), skills, "{}", report["skills"]);
}

#[test]
fn openclaw_takes_a_codex_bundle_when_the_source_ships_hook_packs() {
    let Some(openclaw) = openclaw_bin() else { return };
    let source = plugforge_conformance::case("openclaw-hook-pack").source_dir();
    let out = Out::new("hook-pack");
    build(&source, &out.0, &["--target", "openclaw"]);
    let report = check_bundle(&openclaw, &out.0.join("openclaw"), "ping-kit", "codex");
    let inspect = &report["inspect"];
    let expected: BTreeSet<String> = ["skills", "hooks", "mcpServers"].map(String::from).into();
    assert_eq!(set(&inspect["bundleCapabilities"]), expected, "{inspect}");
    assert_eq!(set(&inspect["mcpServers"]), source_mcp(&source), "{inspect}");
    assert_eq!(set(&inspect["acceptedSurface"]["hooks"]), ["hooks".to_string()].into(), "the hook-pack root");
    assert_eq!(names(&report["skills"]["plugin"]), source_skills(&source), "{}", report["skills"]);
}

#[test]
fn openclaw_merges_the_mcp_servers_of_the_full_example() {
    let Some(openclaw) = openclaw_bin() else { return };
    let source = repo_root().join("tests/vectors/canonical-full/input");
    let out = Out::new("full");
    build(&source, &out.0, &["--target", "openclaw", "--namespace", "dk"]);
    let report = check_bundle(&openclaw, &out.0.join("openclaw"), "dk", "claude");
    let inspect = &report["inspect"];
    assert!(set(&inspect["bundleCapabilities"]).contains("settings"), "{inspect}");
    assert_eq!(set(&inspect["mcpServers"]), source_mcp(&source), "{inspect}");
    assert_eq!(names(&report["skills"]["plugin"]), source_skills(&source), "{}", report["skills"]);
}

#[test]
fn openclaw_loads_the_workspace_skills_and_hook_packs() {
    let Some(openclaw) = openclaw_bin() else { return };
    let source = plugforge_conformance::case("openclaw-hook-pack").source_dir();
    let out = Out::new("workspace");
    build(&source, &out.0, &["--target", "openclaw:workspace"]);
    let agents = std::fs::read_to_string(out.0.join("AGENTS.md")).unwrap();
    assert!(agents.contains("<!-- plugforge:ping-kit:begin -->\n# Ping kit\n"), "{agents}");
    let report = inventory(&openclaw, &["workspace", "--dir", out.0.to_str().unwrap()]);
    assert_eq!(report["skills"]["exit"], 0, "{}", report["skills"]["stderr"]);
    assert_eq!(names(&report["skills"]["workspace"]), source_skills(&source), "{}", report["skills"]);
    let hooks = &report["hooks"];
    assert_eq!(hooks["exit"], 0, "{}", hooks["stderr"]);
    assert_eq!(names(&hooks["workspace"]), ["reset-ping".to_string()].into(), "{hooks}");
}

#[test]
fn openclaw_maps_only_the_skills_of_a_cursor_base() {
    let Some(openclaw) = openclaw_bin() else { return };
    let source = plugforge_conformance::case("openclaw-cursor-base").source_dir();
    let out = Out::new("cursor");
    build(&source, &out.0, &["--target", "openclaw"]);
    let report = check_bundle(&openclaw, &out.0.join("openclaw"), "notes-kit", "cursor");
    let inspect = &report["inspect"];
    // The Cursor layout's commands/ and mcp.json are not where OpenClaw looks
    // (.cursor/commands, .mcp.json): the honesty report says unsupported.
    assert_eq!(set(&inspect["mcpServers"]), BTreeSet::new(), "{inspect}");
    assert!(!set(&inspect["bundleCapabilities"]).contains("commands"), "{inspect}");
    assert_eq!(names(&report["skills"]["plugin"]), source_skills(&source), "{}", report["skills"]);
}
