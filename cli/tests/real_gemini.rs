//! The real Gemini CLI (0.61.0) judges the gemini bundles, offline in a
//! throwaway HOME (core/src/runtime/gemini/drivers/gemini_inventory.py):
//! - extension kind (the Striatum example and the full canonical source):
//!   `gemini extensions validate` + `install` + `list` accept it with no load
//!   error and list exactly the source's context file, skills and MCP
//!   servers; the bundle's own loaders load every skill and agent; every TOML
//!   command passes an exact emulation of FileCommandLoader (its
//!   `@iarna/toml` parser and schema); every hook event is in the bundle's
//!   `HookEventName` enum.
//! - project kind: `gemini mcp list` reads the servers from
//!   `.gemini/settings.json` without a settings error, and `.gemini/` skills,
//!   agents, commands and hooks load the same way.
//!
//! Needs `PLUGFORGE_GEMINI_BIN` (scripts/install-clients gemini, which also
//! pins @iarna/toml next to it); a missing client fails unless skipped by
//! name (`PLUGFORGE_SKIP_CLIENTS`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn gemini_bin() -> Option<String> {
    clients::client("PLUGFORGE_GEMINI_BIN")
}

/// Claude event -> Gemini event, for the events the sources use.
const EVENTS: [(&str, &str); 3] =
    [("PreToolUse", "BeforeTool"), ("Stop", "AfterAgent"), ("SessionStart", "SessionStart")];

/// What the source declares, read straight from its files.
struct Inventory {
    skills: BTreeSet<String>,
    commands: BTreeSet<String>,
    agents: BTreeSet<String>,
    hook_events: BTreeSet<String>,
    mcp_servers: BTreeSet<String>,
}

fn stems(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .map(|name| name.trim_end_matches(".j2").trim_end_matches(".md").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn json_keys(file: &Path, pointer: &str) -> BTreeSet<String> {
    let Ok(bytes) = std::fs::read(file) else { return BTreeSet::new() };
    let value: Value = serde_json::from_slice(&bytes).expect("valid json");
    value.pointer(pointer).and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn source_inventory(source: &Path, namespace: &str) -> Inventory {
    let hook_events = json_keys(&source.join("hooks/hooks.json"), "/hooks")
        .iter()
        .map(|e| {
            EVENTS.iter().find(|(c, _)| c == e).unwrap_or_else(|| panic!("map {e} in EVENTS")).1.to_string()
        })
        .collect();
    Inventory {
        skills: stems(&source.join("skills")),
        commands: stems(&source.join("commands")).into_iter().map(|c| format!("{namespace}:{c}")).collect(),
        agents: stems(&source.join("agents")),
        hook_events,
        mcp_servers: json_keys(&source.join(".mcp.json"), "/mcpServers"),
    }
}

fn names(value: &Value, key: &str) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("list expected: {value}"))
        .iter()
        .map(|v| v.get(key).map_or(v, |n| n).as_str().expect("name").to_string())
        .collect()
}

fn strings(value: &Value) -> BTreeSet<String> {
    names(value, "")
}

fn build(source: &Path, out: &Path, target: &str, extra: &[&str]) {
    let _ = std::fs::remove_dir_all(out);
    let built = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--target", target, "--out", out.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("run plugforge");
    assert!(
        built.status.success(),
        "build {target} failed:\n{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
}

fn inventory(gemini: &str, args: &[&str]) -> Value {
    let mut all = vec!["--gemini", gemini];
    all.extend_from_slice(args);
    clients::judge::judge("gemini_inventory.py", &all)
}

/// The loaded components (skills, agents, TOML commands, hooks) match the source.
fn check_loaded(load: &Value, expected: &Inventory) {
    assert!(load.get("error").is_none(), "gemini_load.mjs failed: {}", load["error"]);
    assert_eq!(names(&load["skills"], "name"), expected.skills, "skills: {load}");
    assert_eq!(names(&load["agents"], "name"), expected.agents, "agents: {load}");
    assert_eq!(load["agent_errors"], Value::Array(vec![]), "agent load errors");
    let commands = &load["commands"]["commands"];
    for command in commands.as_array().expect("commands") {
        assert!(command.get("error").is_none(), "command refused: {command}");
        assert!(command["prompt"].is_string(), "{command}");
    }
    assert_eq!(names(commands, "name"), expected.commands, "commands: {commands}");
    assert_eq!(load["commands"]["ignored"], Value::Array(vec![]), "files gemini ignores under commands/");
    let known = strings(&load["hook_event_names"]);
    let hooks = &load["hooks"];
    if expected.hook_events.is_empty() {
        assert!(hooks.is_null() || hooks["events"] == Value::Array(vec![]), "{hooks}");
    } else {
        assert_eq!(hooks["problems"], Value::Array(vec![]), "hook problems");
        let events = strings(&hooks["events"]);
        assert_eq!(events, expected.hook_events, "hook events");
        assert!(events.is_subset(&known), "{events:?} not all in HookEventName {known:?}");
    }
}

fn check_extension(gemini: &str, source: &Path, namespace: &str, extra: &[&str]) {
    let out = std::env::temp_dir().join(format!("plugforge-real-gemini-{namespace}-{}", std::process::id()));
    build(source, &out, "gemini", extra);
    let report = inventory(gemini, &["--extension", out.join("gemini").to_str().unwrap()]);
    let validate = &report["validate"];
    assert_eq!(validate["exit"], 0, "validate: {}", validate["output"]);
    assert!(
        validate["output"].as_str().unwrap().contains("successfully validated"),
        "{}",
        validate["output"]
    );
    let install = &report["install"];
    assert_eq!(install["exit"], 0, "install: {}", install["output"]);
    assert!(install["output"].as_str().unwrap().contains("installed successfully"), "{}", install["output"]);
    assert!(!install["output"].as_str().unwrap().contains("Error"), "install: {}", install["output"]);
    let list = &report["list"];
    assert_eq!(list["exit"], 0, "list: {}", list["raw"]);
    assert_eq!(list["errors"], Value::Array(vec![]), "list: {}", list["raw"]);
    let expected = source_inventory(source, namespace);
    assert_eq!(strings(&list["context_files"]), BTreeSet::from(["GEMINI.md".to_string()]), "{}", list["raw"]);
    assert_eq!(strings(&list["skills"]), expected.skills, "{}", list["raw"]);
    assert_eq!(strings(&list["mcp_servers"]), expected.mcp_servers, "{}", list["raw"]);
    check_loaded(&report["load"], &expected);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn gemini_accepts_and_installs_the_striatum_extension() {
    let Some(gemini) = gemini_bin() else { return };
    let source = repo_root().join("examples/striatum");
    let expected = source_inventory(&source, "striatum");
    assert_eq!((expected.skills.len(), expected.commands.len(), expected.agents.len()), (5, 5, 1));
    check_extension(&gemini, &source, "striatum", &["--var", "runner_version=0.7.3"]);
}

#[test]
fn gemini_accepts_and_installs_the_full_canonical_extension() {
    let Some(gemini) = gemini_bin() else { return };
    let source = repo_root().join("tests/vectors/canonical-full/input");
    check_extension(&gemini, &source, "dk", &["--namespace", "dk"]);
}

#[test]
fn gemini_loads_the_full_canonical_source_from_a_project() {
    let Some(gemini) = gemini_bin() else { return };
    let source = repo_root().join("tests/vectors/canonical-full/input");
    let out = std::env::temp_dir().join(format!("plugforge-real-gemini-project-{}", std::process::id()));
    build(&source, &out, "gemini:project", &["--namespace", "dk"]);
    let report = inventory(&gemini, &["--project", out.to_str().unwrap(), "--scope", "project"]);
    let expected = source_inventory(&source, "dk");
    let mcp = &report["mcp_list"];
    assert_eq!(mcp["exit"], 0, "mcp list: {}", mcp["raw"]);
    assert_eq!(mcp["errors"], Value::Array(vec![]), "settings refused: {}", mcp["raw"]);
    assert_eq!(strings(&mcp["servers"]), expected.mcp_servers, "{}", mcp["raw"]);
    check_loaded(&report["load"], &expected);
    let context = report["context"].as_str().expect("GEMINI.md written");
    assert!(
        context.contains("<!-- plugforge:dk:begin -->") && context.contains("Deploy Kit context"),
        "{context}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn gemini_loads_the_striatum_source_from_the_user_folder() {
    let Some(gemini) = gemini_bin() else { return };
    let source = repo_root().join("examples/striatum");
    let out = std::env::temp_dir().join(format!("plugforge-real-gemini-user-{}", std::process::id()));
    build(&source, &out, "gemini:project", &["--scope", "user", "--var", "runner_version=0.7.3"]);
    let report = inventory(&gemini, &["--project", out.to_str().unwrap(), "--scope", "user"]);
    let mcp = &report["mcp_list"];
    assert_eq!(mcp["exit"], 0, "mcp list: {}", mcp["raw"]);
    assert_eq!(mcp["errors"], Value::Array(vec![]), "settings refused: {}", mcp["raw"]);
    let mut expected = source_inventory(&source, "striatum");
    // The stub's events have no handlers: nothing to merge into settings.json.
    expected.hook_events.clear();
    check_loaded(&report["load"], &expected);
    let context = report["context"].as_str().expect(".gemini/GEMINI.md written");
    assert!(context.contains("<!-- plugforge:striatum:begin -->"), "{context}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The checks have teeth: Claude-style files planted in a built extension
/// are flagged by the real client or by the emulated loaders.
#[test]
fn the_checks_catch_what_gemini_would_refuse() {
    let Some(gemini) = gemini_bin() else { return };
    let source = repo_root().join("tests/vectors/canonical-full/input");
    let out = std::env::temp_dir().join(format!("plugforge-real-gemini-faults-{}", std::process::id()));
    build(&source, &out, "gemini", &["--namespace", "dk"]);
    let ext = out.join("gemini");
    let plant = |rel: &str, text: &str| std::fs::write(ext.join(rel), text).expect("plant a fault");
    plant("agents/claude.md", "---\nname: claude\ndescription: x\ntools: Read, Grep\ncolor: red\n---\nx\n");
    plant("commands/dk/no-prompt.toml", "description = \"no prompt\"\n");
    plant("commands/dk/legacy.md", "---\ndescription: x\n---\nHi $ARGUMENTS\n");
    plant(
        "hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#,
    );
    let report = inventory(&gemini, &["--extension", ext.to_str().unwrap()]);
    let errors = report["list"]["errors"].as_array().expect("errors");
    assert!(
        errors.iter().any(|e| e.as_str().unwrap().contains("Error loading agent")),
        "{}",
        report["list"]["raw"]
    );
    let load = &report["load"];
    let agent_errors = load["agent_errors"].as_array().expect("agent errors");
    assert!(agent_errors.iter().any(|e| e.as_str().unwrap().contains("Expected array, received string")));
    let commands = load["commands"]["commands"].as_array().expect("commands");
    assert!(commands.iter().any(|c| c["name"] == "dk:no-prompt" && c["error"].is_string()), "{commands:?}");
    assert_eq!(load["commands"]["ignored"], serde_json::json!(["dk/legacy.md"]));
    assert_eq!(load["hooks"]["problems"], serde_json::json!(["Invalid hook event name: \"PreToolUse\""]));
    let _ = std::fs::remove_dir_all(&out);
}
