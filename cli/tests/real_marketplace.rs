//! A marketplace built from its root, judged by the real Claude Code: each
//! plugin built from tests/marketplaces/ (the official marketplace's LSP
//! plugins, defined in their `"strict": false` entries; anthropics/skills'
//! `"strict": false` entries listing their skills at the root) is installed
//! from the output root's marketplace and lists exactly what its entry
//! declares. Needs `PLUGFORGE_CLAUDE_BIN`; a missing client fails unless it
//! is skipped by name (`PLUGFORGE_SKIP_CLIENTS`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn marketplace(name: &str) -> PathBuf {
    clients::judge::repo_root().join("tests/marketplaces").join(name).join("marketplace")
}

fn build(source: &Path, out: &Path) {
    let _ = std::fs::remove_dir_all(out);
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--target", "claude-code", "--out", out.to_str().unwrap()])
        .status()
        .expect("run plugforge");
    assert!(status.success(), "build of {} failed", source.display());
}

/// Claude Code's report on plugin `name` of the marketplace at `out`.
fn install_and_list(claude: &str, out: &Path, name: &str) -> Value {
    let plugin_dir = out.join("claude-code").join(name);
    let report = clients::judge::judge(
        "claude_inventory.py",
        &[
            "--claude",
            claude,
            "--plugin-dir",
            plugin_dir.to_str().unwrap(),
            "--marketplace-root",
            out.to_str().unwrap(),
            "--plugin",
            name,
        ],
    );
    assert_eq!(report["install"]["exit"], 0, "{name}: claude plugin install: {report:#}");
    assert_eq!(report["details"]["exit"], 0, "{name}: claude plugin details: {report:#}");
    report
}

fn names(value: &Value) -> BTreeSet<String> {
    value.as_array().expect("a list").iter().map(|v| v.as_str().expect("a name").to_string()).collect()
}

fn entries(source: &Path) -> Vec<Value> {
    let text = std::fs::read(source.join(".claude-plugin/marketplace.json")).expect("the marketplace file");
    let listing: Value = serde_json::from_slice(&text).expect("JSON");
    listing["plugins"].as_array().expect("plugins").clone()
}

#[test]
fn claude_code_installs_each_lsp_plugin_of_the_official_marketplace_with_its_lsp_servers() {
    let Some(claude) = clients::client("PLUGFORGE_CLAUDE_BIN") else { return };
    let scratch = std::env::temp_dir().join(format!("plugforge-real-market-lsp-{}", std::process::id()));
    let out = scratch.join("dist");
    let source = marketplace("claude-plugins-official");
    build(&source, &out);
    let local: Vec<Value> = entries(&source).into_iter().filter(|e| e["source"].is_string()).collect();
    assert_eq!(local.len(), 12);
    for entry in local {
        let name = entry["name"].as_str().unwrap();
        let declared: BTreeSet<String> =
            entry["lspServers"].as_object().expect("lspServers").keys().cloned().collect();
        let report = install_and_list(&claude, &out, name);
        let details = &report["details"];
        assert_eq!(names(&details["lsp_servers"]), declared, "{name}: {details:#}");
        for kind in ["skills", "agents", "hooks", "mcp_servers"] {
            assert!(names(&details[kind]).is_empty(), "{name}: {kind}: {details:#}");
        }
        assert_eq!(report["validate_plugin"]["errors"], 0, "{name}: {report:#}");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn claude_code_installs_each_strict_false_skills_entry_with_exactly_its_listed_skills() {
    let Some(claude) = clients::client("PLUGFORGE_CLAUDE_BIN") else { return };
    let scratch = std::env::temp_dir().join(format!("plugforge-real-market-skills-{}", std::process::id()));
    let out = scratch.join("dist");
    let source = marketplace("anthropic-skills");
    build(&source, &out);
    for entry in entries(&source) {
        let name = entry["name"].as_str().unwrap();
        let listed: BTreeSet<String> = names(&entry["skills"])
            .iter()
            .map(|path| path.rsplit('/').next().expect("a folder").to_string())
            .collect();
        let report = install_and_list(&claude, &out, name);
        assert_eq!(names(&report["details"]["skills"]), listed, "{name}: {report:#}");
        // `claude-api` is a name Claude Code keeps for Anthropic's own
        // plugins: validate says so (the author's choice), install takes it.
        let validated = &report["validate_plugin"];
        let reserved = validated["output"].as_str().unwrap_or_default().contains("is reserved");
        assert!(validated["errors"] == 0 || (name == "claude-api" && reserved), "{name}: {report:#}");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
