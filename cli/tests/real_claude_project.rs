//! The real Claude Code CLI judges `claude-code:project` builds offline
//! (core/src/runtime/claude_code/drivers/claude_project_inventory.py): its own component loader
//! lists the `.claude/` skills, commands and agents, `plugin validate` checks
//! their frontmatter and the hooks merged into `.claude/settings.json`, and
//! `claude mcp list/get` shows the merged servers in the right scope.
//! Not verifiable offline: whether a session really fires the settings hooks
//! and starts the approved servers (that needs a model call). Needs
//! `PLUGFORGE_CLAUDE_BIN`; a missing client fails unless skipped by name
//! (`PLUGFORGE_SKIP_CLIENTS`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn claude_bin() -> Option<String> {
    clients::client("PLUGFORGE_CLAUDE_BIN")
}

fn names(value: &Value) -> BTreeSet<String> {
    value.as_array().expect("list").iter().map(|v| v.as_str().expect("name").to_string()).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Builds `source` as the project kind into a fresh folder and asks Claude Code.
fn judge(claude: &str, source: &str, scope: &str, extra: &[&str]) -> Value {
    let root = repo_root();
    let tag = format!("{}-{scope}-{}", source.replace('/', "_"), std::process::id());
    let out = std::env::temp_dir().join(format!("plugforge-real-claude-project-{tag}"));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", root.join(source).to_str().unwrap(), "--target", "claude-code:project"])
        .args(["--scope", scope, "--out", out.to_str().unwrap()])
        .args(extra)
        .status()
        .expect("run plugforge");
    assert!(status.success(), "build of {source} failed");
    let report = clients::judge::judge(
        "claude_project_inventory.py",
        &["--claude", claude, "--out", out.to_str().unwrap(), "--scope", scope],
    );
    let _ = std::fs::remove_dir_all(&out);
    report
}

#[test]
fn claude_code_loads_the_striatum_project() {
    let Some(claude) = claude_bin() else { return };
    let report = judge(&claude, "examples/striatum", "project", &["--var", "runner_version=0.7.3"]);
    let details = &report["details"];
    assert_eq!(details["exit"], 0, "{}", details["raw"]);
    let skills = set(&[
        "striatum-claim-loop",
        "striatum-recover",
        "striatum-scaffold",
        "striatum-supervise",
        "striatum-workflow",
        // commands, which Claude Code lists among skills
        "claim-next",
        "dashboard",
        "doctor",
        "status",
        "why",
    ]);
    assert_eq!(names(&details["skills"]), skills, "{}", details["raw"]);
    assert_eq!(names(&details["agents"]), set(&["striatum-recover"]), "{}", details["raw"]);
    let validate = &report["validate"];
    assert_eq!(
        (validate["exit"].as_i64(), validate["errors"].as_i64()),
        (Some(0), Some(0)),
        "{}",
        validate["output"]
    );
    assert_eq!(validate["warnings"], 0, "{}", validate["output"]);
    // The stub's events have no handlers, so nothing joins settings.json.
    assert_eq!(names(&report["scratch_details"]["hooks"]), BTreeSet::new());
    assert_eq!(report["mcp"]["servers"], serde_json::json!({}), "{}", report["mcp"]["output"]);
}

#[test]
fn claude_code_loads_the_full_source_as_a_project() {
    let Some(claude) = claude_bin() else { return };
    let report = judge(&claude, "tests/vectors/canonical-full/input", "project", &["--namespace", "dk"]);
    check_full(&report, "Project config (shared via .mcp.json)");
    let status = &report["mcp"]["servers"]["deployer"];
    assert!(status.as_str().unwrap_or_default().contains("Pending approval"), "{}", report["mcp"]["output"]);
}

#[test]
fn claude_code_loads_the_full_source_for_the_user() {
    let Some(claude) = claude_bin() else { return };
    let report = judge(&claude, "tests/vectors/canonical-full/input", "user", &["--namespace", "dk"]);
    check_full(&report, "User config (available in all your projects)");
}

fn check_full(report: &Value, mcp_scope: &str) {
    let details = &report["details"];
    assert_eq!(details["exit"], 0, "{}", details["raw"]);
    assert_eq!(names(&details["skills"]), set(&["rollout", "deploy", "status"]), "{}", details["raw"]);
    assert_eq!(names(&details["agents"]), set(&["watcher"]), "{}", details["raw"]);
    let validate = &report["validate"];
    assert_eq!(
        (validate["exit"].as_i64(), validate["errors"].as_i64()),
        (Some(0), Some(0)),
        "{}",
        validate["output"]
    );
    // commands/status.md has no frontmatter in the source: the build describes
    // it by its first line, so Claude Code has nothing to warn about.
    assert_eq!(validate["warnings"], 0, "{}", validate["output"]);
    let scratch = &report["scratch_details"];
    assert_eq!(names(&scratch["hooks"]), set(&["PreToolUse", "SessionStart"]), "{}", scratch["raw"]);
    let mcp = &report["mcp"];
    assert_eq!(mcp["exit"], 0, "{}", mcp["output"]);
    let servers: BTreeSet<String> = mcp["servers"].as_object().expect("servers").keys().cloned().collect();
    assert_eq!(servers, set(&["deployer"]), "{}", mcp["output"]);
    assert_eq!(mcp["diagnostics"], false, "Claude Code reports config problems: {}", mcp["output"]);
    assert_eq!(mcp["get"]["deployer"]["scope"], mcp_scope, "{}", mcp["output"]);
}
