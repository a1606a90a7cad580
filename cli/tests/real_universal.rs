//! The universal folder (`--target universal`) judged by every real client
//! that reads it, each offline in a HOME of its own, through the user's path
//! (`plugforge build SRC --target universal --out OUT`): Claude Code
//! (`claude plugin validate --strict`, marketplace add + install, `plugin
//! details`), Codex (marketplace add + `plugin add`, then the app-server's
//! inventory), Copilot CLI (marketplace add + install, then its inventory),
//! OpenClaw (install + inspect + skills list) and the Agent Skills reference
//! validator. Each host must report every skill, command, agent, hook event and
//! MCP server of the folder that it reads there (docs/runtimes/universal.md
//! says which those are). Needs every client of scripts/install-clients but
//! Gemini, OpenCode and Hermes; a missing one fails unless skipped by name
//! (`PLUGFORGE_SKIP_CLIENTS`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use clients::judge::{copilot_event, entries, json_keys, judge, repo_root, strings};
use serde_json::Value;

/// A fresh output root below the home cache (Codex refuses helper binaries
/// below /tmp), removed when dropped.
struct Out(PathBuf);

impl Out {
    fn new(name: &str) -> Out {
        let home = std::env::var("HOME").expect("HOME");
        let dir = PathBuf::from(home)
            .join(format!(".cache/plugforge/scratch/real-universal-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Out(dir)
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What the folder holds, host by host, as each host names it.
struct Folder {
    root: PathBuf,
    name: String,
    skills: BTreeSet<String>,
    commands: BTreeSet<String>,
    agents: BTreeSet<String>,
    hooks: BTreeSet<String>,
    claude_mcp: BTreeSet<String>,
    spec_mcp: BTreeSet<String>,
    copilot_commands: BTreeSet<String>,
    copilot_agents: BTreeSet<String>,
    copilot_hooks: BTreeSet<String>,
}

fn build(source: &Path, out: &Path, extra: &[&str]) -> Folder {
    let output = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .arg("build")
        .arg(source)
        .args(["--target", "universal", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("run plugforge");
    assert!(
        output.status.success(),
        "build of {} failed: {}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let root = out.join("universal");
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(root.join(".claude-plugin/plugin.json")).unwrap()).unwrap();
    for marketplace in [
        ".claude-plugin/marketplace.json",
        ".agents/plugins/marketplace.json",
        ".github/plugin/marketplace.json",
    ] {
        let text =
            std::fs::read_to_string(out.join(marketplace)).unwrap_or_else(|_| panic!("no {marketplace}"));
        assert!(text.contains("\"./universal\""), "{marketplace} does not list ./universal: {text}");
    }
    let spec: Value = serde_json::from_slice(&std::fs::read(root.join("plugin.json")).unwrap()).unwrap();
    assert_eq!(spec["$schema"], "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json");
    assert!(root.join(".codex-plugin/plugin.json").is_file());
    assert!(!root.join(".cursor-plugin").exists(), "Cursor must not see its manifest beside the root one");
    let copilot = root.join("com.github.copilot");
    Folder {
        name: manifest["name"].as_str().unwrap().to_string(),
        skills: entries(&root.join("skills"), true),
        commands: entries(&root.join("commands"), false),
        agents: entries(&root.join("agents"), false),
        hooks: json_keys(&root.join("hooks/hooks.json"), "/hooks"),
        claude_mcp: json_keys(&root.join(".mcp.json"), "/mcpServers"),
        spec_mcp: json_keys(&root.join("mcp.json"), "/mcpServers"),
        copilot_commands: entries(&copilot.join("commands"), false),
        copilot_agents: entries(&copilot.join("agents"), false),
        copilot_hooks: json_keys(&copilot.join("hooks/hooks.json"), "/hooks")
            .iter()
            .map(|e| copilot_event(e))
            .collect(),
        root,
    }
}

fn claude(bin: &str, out: &Path, folder: &Folder) {
    let report = judge(
        "claude_inventory.py",
        &[
            "--claude",
            bin,
            "--plugin-dir",
            folder.root.to_str().unwrap(),
            "--marketplace-root",
            out.to_str().unwrap(),
            "--plugin",
            &folder.name,
        ],
    );
    for step in ["validate_plugin", "validate_marketplace", "marketplace_add", "install", "details"] {
        assert_eq!(report[step]["exit"], 0, "claude {step}: {report}");
    }
    assert_eq!(report["validate_plugin"]["errors"], 0, "{report}");
    assert_eq!(report["validate_plugin"]["warnings"], 0, "--strict: {report}");
    let details = &report["details"];
    let listed: BTreeSet<String> = folder.skills.union(&folder.commands).cloned().collect();
    assert_eq!(strings(&details["skills"]), listed, "claude skills and commands: {details}");
    assert_eq!(strings(&details["agents"]), folder.agents, "claude agents: {details}");
    assert_eq!(strings(&details["hooks"]), folder.hooks, "claude hooks: {details}");
    assert_eq!(strings(&details["mcp_servers"]), folder.claude_mcp, "claude MCP: {details}");
}

fn codex(bin: &str, out: &Path, folder: &Folder) {
    let root = out.to_str().unwrap();
    let report = judge(
        "codex_inventory.py",
        &["--codex", bin, "plugin", "--marketplace-root", root, "--plugin", &folder.name],
    );
    assert_eq!(report["marketplace_add"]["exit"], 0, "{report}");
    assert_eq!(report["add"]["exit"], 0, "{report}");
    let read = &report["read"];
    assert_eq!(read["error"], Value::Null, "{report}");
    let skills: BTreeSet<String> = folder.skills.iter().map(|s| format!("{}:{s}", folder.name)).collect();
    assert_eq!(strings(&read["skills"]), skills, "codex skills: {read}");
    assert_eq!(strings(&report["installed"]["skills"]["names"]), skills, "{report}");
    assert_eq!(report["installed"]["skills"]["errors"], Value::Array(Vec::new()), "{report}");
    // Codex reads the folder through its root Agent Plugins manifest: the spec
    // mcp.json, no hooks (the honesty rows say so).
    assert_eq!(strings(&read["mcp_servers"]), folder.spec_mcp, "codex MCP: {read}");
    assert_eq!(strings(&read["hooks"]), BTreeSet::new(), "codex hooks: {read}");
    assert!(read["interface"]["displayName"].is_string(), "interface from .codex-plugin/: {read}");
}

fn copilot(bin: &str, out: &Path, folder: &Folder) {
    let root = out.to_str().unwrap();
    let report = judge(
        "copilot_inventory.py",
        &["--copilot", bin, "plugin", "--marketplace-root", root, "--plugin", &folder.name],
    );
    assert_eq!(report["marketplace_add"]["exit"], 0, "{report}");
    assert_eq!(report["install"]["exit"], 0, "{report}");
    let inventory = &report["inventory"];
    let listed: Vec<&str> =
        inventory["plugins"].as_array().unwrap().iter().filter_map(|p| p["name"].as_str()).collect();
    assert_eq!(listed, [folder.name.as_str()], "{inventory}");
    assert_eq!(strings(&inventory["skills"]), folder.skills, "copilot skills: {inventory}");
    assert_eq!(folder.copilot_commands, folder.commands, "every command is copied for Copilot");
    assert_eq!(strings(&inventory["commands"]), folder.copilot_commands, "copilot commands: {inventory}");
    let agents: BTreeSet<String> =
        folder.copilot_agents.iter().map(|a| format!("{}:{a}", folder.name)).collect();
    assert_eq!(strings(&inventory["agents"]), agents, "copilot agents: {inventory}");
    assert_eq!(strings(&inventory["hooks"]), folder.copilot_hooks, "copilot hooks: {inventory}");
    assert_eq!(strings(&inventory["mcp_servers"]), folder.spec_mcp, "copilot MCP: {inventory}");
    for problems in ["skill_errors", "hook_errors", "hook_warnings", "log_problems"] {
        assert_eq!(inventory[problems], Value::Array(Vec::new()), "{problems}: {inventory}");
    }
}

fn openclaw(bin: &str, folder: &Folder) {
    let id = folder.name.as_str();
    let report = judge(
        "openclaw_inventory.py",
        &["--openclaw", bin, "bundle", "--dir", folder.root.to_str().unwrap(), "--id", id],
    );
    assert_eq!(report["install"]["exit"], 0, "{report}");
    let inspect = &report["inspect"];
    assert_eq!(inspect["status"], "loaded", "{report}");
    assert_eq!(inspect["bundleFormat"], "codex", "OpenClaw reads .codex-plugin/ first: {report}");
    assert_eq!(inspect["diagnostics"], Value::Array(Vec::new()), "{report}");
    assert_eq!(strings(&inspect["mcpServers"]), folder.claude_mcp, "openclaw MCP: {report}");
    let skills: BTreeSet<String> = report["skills"]["plugin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(skills, folder.skills, "openclaw skills: {report}");
}

fn skills_ref(bin: &str, folder: &Folder) {
    if folder.skills.is_empty() {
        return;
    }
    let report =
        judge("skills_ref_validate.py", &["--skills-ref", bin, folder.root.join("skills").to_str().unwrap()]);
    assert_eq!(report["nested"], Value::Array(Vec::new()), "{report}");
    let checked = report["skills"].as_object().unwrap();
    assert_eq!(checked.len(), folder.skills.len(), "{report}");
    for (dir, result) in checked {
        assert_eq!(result["exit"], 0, "skills-ref {dir}: {result}");
    }
}

/// Builds `source` as the universal folder and has every host judge it.
fn judged_by_every_host(label: &str, source: &Path, extra: &[&str]) -> Folder {
    let bins = [
        "PLUGFORGE_CLAUDE_BIN",
        "PLUGFORGE_CODEX_BIN",
        "PLUGFORGE_COPILOT_BIN",
        "PLUGFORGE_OPENCLAW_BIN",
        "PLUGFORGE_SKILLS_REF_BIN",
    ]
    .map(clients::client);
    let out = Out::new(label);
    let folder = build(source, &out.0, extra);
    let [claude_bin, codex_bin, copilot_bin, openclaw_bin, skills_ref_bin] = bins;
    if let Some(bin) = &claude_bin {
        claude(bin, &out.0, &folder);
    }
    if let Some(bin) = &codex_bin {
        codex(bin, &out.0, &folder);
    }
    if let Some(bin) = &copilot_bin {
        copilot(bin, &out.0, &folder);
    }
    if let Some(bin) = &openclaw_bin {
        openclaw(bin, &folder);
    }
    if let Some(bin) = &skills_ref_bin {
        skills_ref(bin, &folder);
    }
    let _keep_until_judged = out;
    folder
}

fn corpus(unit: &str) -> PathBuf {
    repo_root().join("tests/conformance/realworld").join(unit).join("plugin")
}

#[test]
fn the_striatum_folder_loads_in_every_host() {
    let folder = judged_by_every_host(
        "striatum",
        &repo_root().join("examples/striatum"),
        &["--var", "runner_version=0.7.3"],
    );
    assert_eq!(folder.skills.len(), 5);
    assert_eq!(folder.commands.len(), 5);
    assert_eq!(folder.agents, BTreeSet::from(["striatum-recover".to_string()]));
}

#[test]
fn hookify_keeps_its_hooks_commands_and_agent_in_claude_and_copilot() {
    let folder = judged_by_every_host("hookify", &corpus("cpo-hookify"), &[]);
    let events = ["PostToolUse", "PreToolUse", "Stop", "UserPromptSubmit"];
    assert_eq!(folder.hooks, events.map(String::from).into());
    assert_eq!(folder.copilot_hooks, events.map(copilot_event).into());
    assert_eq!(folder.commands.len(), 4);
    assert_eq!(folder.agents.len(), 1);
}

#[test]
fn plugin_dev_keeps_its_skills_commands_and_agents() {
    let folder = judged_by_every_host("plugin-dev", &corpus("cpo-plugin-dev"), &[]);
    assert_eq!((folder.skills.len(), folder.commands.len(), folder.agents.len()), (7, 1, 3));
}

#[test]
fn context7_keeps_its_remote_mcp_server_for_every_host() {
    let folder = judged_by_every_host("context7", &corpus("cpo-context7"), &[]);
    let server = BTreeSet::from(["context7".to_string()]);
    assert_eq!((&folder.claude_mcp, &folder.spec_mcp), (&server, &server));
}

#[test]
fn superpowers_keeps_its_skills_and_session_hook() {
    let folder = judged_by_every_host("superpowers", &corpus("superpowers"), &[]);
    assert_eq!(folder.skills.len(), 14);
    assert_eq!(folder.hooks, BTreeSet::from(["SessionStart".to_string()]));
}

#[test]
fn firebase_keeps_its_skills_and_local_mcp_server() {
    let folder = judged_by_every_host("firebase", &corpus("firebase-agent-skills"), &[]);
    assert_eq!(folder.skills.len(), 12);
    let server = BTreeSet::from(["firebase".to_string()]);
    assert_eq!((&folder.claude_mcp, &folder.spec_mcp), (&server, &server));
}
