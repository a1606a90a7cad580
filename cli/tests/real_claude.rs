//! The real Claude Code CLI judges the Striatum bundle: `plugin validate
//! --strict` with zero warnings on the bundle and on the marketplace root,
//! then marketplace add + install + details listing exactly the source's
//! components. Needs `PLUGFORGE_CLAUDE_BIN` (scripts/install-clients claude);
//! a missing client fails unless skipped by name (`PLUGFORGE_SKIP_CLIENTS`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn claude_bin() -> Option<String> {
    clients::client("PLUGFORGE_CLAUDE_BIN")
}

/// What the source declares, read straight from its files.
struct Inventory {
    skills: BTreeSet<String>,
    agents: BTreeSet<String>,
    hooks: BTreeSet<String>,
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
    let value: Value = serde_json::from_slice(&std::fs::read(file).expect("read json")).expect("valid json");
    value.pointer(pointer).and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn source_inventory(source: &Path) -> Inventory {
    let mut skills = stems(&source.join("skills"));
    // Claude Code lists commands among skills.
    skills.extend(stems(&source.join("commands")));
    Inventory {
        skills,
        agents: stems(&source.join("agents")),
        hooks: json_keys(&source.join("hooks/hooks.json"), "/hooks"),
        mcp_servers: json_keys(&source.join(".mcp.json"), "/mcpServers"),
    }
}

fn set(value: &Value) -> BTreeSet<String> {
    value.as_array().expect("list").iter().map(|v| v.as_str().expect("name").to_string()).collect()
}

/// Builds `source` for Claude Code into `out` (emptied first) and returns the
/// report of Claude Code's driver on the plugin `plugin` of that output root.
fn build_and_judge(claude: &str, source: &Path, out: &Path, plugin: &str, extra: &[&str]) -> Value {
    let _ = std::fs::remove_dir_all(out);
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--target", "claude-code", "--out", out.to_str().unwrap()])
        .args(extra)
        .status()
        .expect("run plugforge");
    assert!(status.success(), "build of {} failed", source.display());
    let plugin_dir = out.join("claude-code");
    clients::judge::judge(
        "claude_inventory.py",
        &["--claude", claude, "--plugin-dir", plugin_dir.to_str().unwrap()]
            .into_iter()
            .chain(["--marketplace-root", out.to_str().unwrap(), "--plugin", plugin])
            .collect::<Vec<_>>(),
    )
}

#[test]
fn claude_code_accepts_and_installs_the_striatum_bundle() {
    let Some(claude) = claude_bin() else { return };
    let source = repo_root().join("examples/striatum");
    let out = std::env::temp_dir().join(format!("plugforge-real-claude-{}", std::process::id()));
    let report = build_and_judge(&claude, &source, &out, "striatum", &["--var", "runner_version=0.7.3"]);
    let plugin_dir = out.join("claude-code");
    // The verdict plugforge verify gives, from the same report.
    let reading =
        clients::judge::verdict("claude-code", "claude", &report, &plugin_dir, ".plugforge-manifest.json");
    clients::judge::assert_passed(&reading);

    for step in ["validate_plugin", "validate_marketplace"] {
        let result = &report[step];
        assert_eq!(result["exit"], 0, "{step}: {}", result["output"]);
        assert_eq!(result["warnings"], 0, "{step}: {}", result["output"]);
        assert_eq!(result["errors"], 0, "{step}: {}", result["output"]);
    }
    for step in ["marketplace_add", "install"] {
        assert_eq!(report[step]["exit"], 0, "{step}: {}", report[step]["output"]);
    }
    let details = &report["details"];
    assert_eq!(details["exit"], 0, "details: {}", details["raw"]);
    let expected = source_inventory(&source);
    assert_eq!(expected.skills.len(), 10, "the example has 5 skills and 5 commands");
    assert_eq!(set(&details["skills"]), expected.skills, "{}", details["raw"]);
    assert_eq!(set(&details["agents"]), expected.agents, "{}", details["raw"]);
    assert_eq!(set(&details["hooks"]), expected.hooks, "{}", details["raw"]);
    assert_eq!(set(&details["mcp_servers"]), expected.mcp_servers, "{}", details["raw"]);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn claude_code_loads_remote_servers_written_without_a_type() {
    let Some(claude) = claude_bin() else { return };
    // Cursor reads a server with only a `url` as HTTP; Claude Code reads it as
    // stdio, and `plugin validate` refuses it, unless the bundle says `type`.
    let source = repo_root().join("tests/vectors/cursor-mcp-static-oauth-and-url-only/input");
    let out = std::env::temp_dir().join(format!("plugforge-real-claude-url-only-{}", std::process::id()));
    let report = build_and_judge(&claude, &source, &out, "billing-agents", &[]);
    let validated = &report["validate_plugin"];
    assert_eq!((&validated["exit"], &validated["errors"]), (&json!(0), &json!(0)), "{}", validated["output"]);
    assert_eq!(report["install"]["exit"], 0, "{}", report["install"]["output"]);
    let servers = json_keys(&source.join("mcp.json"), "/mcpServers");
    assert_eq!(servers.len(), 3, "the source has three servers");
    assert_eq!(set(&report["details"]["mcp_servers"]), servers, "{}", report["details"]["raw"]);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn claude_code_loads_the_url_only_server_of_cursor_plugins_gong() {
    let Some(claude) = claude_bin() else { return };
    // cursor/plugins' gong as published: `{"url": ..., "auth": {...}}`, no `type`.
    let source = repo_root().join("tests/conformance/realworld/cursor-gong/plugin");
    let out = std::env::temp_dir().join(format!("plugforge-real-claude-gong-{}", std::process::id()));
    let report = build_and_judge(&claude, &source, &out, "gong", &[]);
    let validated = &report["validate_plugin"];
    assert_eq!((&validated["exit"], &validated["errors"]), (&json!(0), &json!(0)), "{}", validated["output"]);
    assert_eq!(report["install"]["exit"], 0, "{}", report["install"]["output"]);
    let servers = json_keys(&source.join("mcp.json"), "/mcpServers");
    assert_eq!(servers, BTreeSet::from(["gong".to_string()]));
    assert_eq!(set(&report["details"]["mcp_servers"]), servers, "{}", report["details"]["raw"]);
    let _ = std::fs::remove_dir_all(&out);
}
