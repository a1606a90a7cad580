//! The real GitHub Copilot CLI (1.0.102) judges what plugforge builds, offline
//! in a throwaway HOME, through core/src/runtime/copilot/drivers/copilot_inventory.py:
//! `copilot plugin marketplace add <output root>`, `plugin install
//! NAME@MARKETPLACE`, `plugin list --json`, then the client's own inventory
//! (skills, plugin commands, agents, hooks, MCP servers). The native bundle
//! (`copilot/`, listed in `.github/plugin/marketplace.json`, which Copilot
//! reads before the Claude marketplace beside it) must load in full, and so
//! must the Claude bundle, which Copilot also reads. Needs `PLUGFORGE_COPILOT_BIN`
//! (scripts/install-clients copilot); a missing client fails unless it is
//! skipped by name (`PLUGFORGE_SKIP_CLIENTS=copilot`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use clients::judge::{camel, entries, judge, repo_root, strings};
use serde_json::Value;

fn copilot_bin() -> Option<String> {
    clients::client("PLUGFORGE_COPILOT_BIN")
}

/// A fresh output root, removed when dropped.
struct Out(PathBuf);

impl Out {
    fn new(name: &str) -> Out {
        let dir = std::env::temp_dir().join(format!("plugforge-real-copilot-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Out(dir)
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn build(source: &Path, out: &Path, target: &str) {
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--target", target, "--out", out.to_str().unwrap()])
        .status()
        .expect("run plugforge");
    assert!(status.success(), "build of {} failed", source.display());
}

fn inventory(copilot: &str, root: &Path, plugin: &str) -> Value {
    let root = root.to_str().unwrap();
    judge(
        "copilot_inventory.py",
        &["--copilot", copilot, "plugin", "--marketplace-root", root, "--plugin", plugin],
    )
}

/// Asserts that Copilot installed `plugin` from `root` and loaded every
/// component of the Claude bundle at `bundle`; returns the inventory.
fn assert_loads_in_full(copilot: &str, root: &Path, bundle: &Path, plugin: &str) -> Value {
    let report = inventory(copilot, root, plugin);
    assert_eq!(report["marketplace_add"]["exit"], 0, "{report}");
    assert_eq!(report["install"]["exit"], 0, "{report}");
    let skills = entries(&bundle.join("skills"), true);
    let installed = report["install"]["stdout"].as_str().unwrap();
    assert!(installed.contains(&format!("Installed {} skill", skills.len())), "{installed}");

    let inventory = &report["inventory"];
    let listed: Vec<&str> =
        inventory["plugins"].as_array().unwrap().iter().filter_map(|p| p["name"].as_str()).collect();
    assert_eq!(listed, [plugin], "{inventory}");
    assert_eq!(strings(&inventory["skills"]), skills);
    assert_eq!(strings(&inventory["commands"]), entries(&bundle.join("commands"), false));
    let agents: BTreeSet<String> =
        entries(&bundle.join("agents"), false).iter().map(|a| format!("{plugin}:{a}")).collect();
    assert_eq!(strings(&inventory["agents"]), agents);
    for problems in ["skill_errors", "hook_errors", "hook_warnings", "log_problems"] {
        assert_eq!(inventory[problems], Value::Array(Vec::new()), "{problems}: {inventory}");
    }
    report
}

#[test]
fn copilot_installs_its_own_bundle_from_the_striatum_root_built_for_every_runtime() {
    let Some(copilot) = copilot_bin() else { return };
    let out = Out::new("striatum");
    build(&repo_root().join("examples/striatum"), &out.0, "all");
    let report = assert_loads_in_full(&copilot, &out.0, &out.0.join("copilot"), "striatum");
    assert!(out.0.join(".github/plugin/marketplace.json").is_file());
    let inventory = &report["inventory"];
    assert_eq!(inventory["skills"].as_array().unwrap().len(), 5, "{report}");
    assert_eq!(inventory["commands"].as_array().unwrap().len(), 5, "{report}");
    assert_eq!(strings(&inventory["agents"]), BTreeSet::from(["striatum:striatum-recover".to_string()]));
    // The skills Copilot read are the native bundle's, not the Claude bundle's beside it.
    let paths: Vec<&str> =
        inventory["skill_entries"].as_array().unwrap().iter().filter_map(|e| e["path"].as_str()).collect();
    assert!(paths.iter().all(|p| p.contains("/copilot/")), "{paths:?}");
}

#[test]
fn copilot_runs_the_hooks_and_mcp_servers_of_its_own_bundle() {
    let Some(copilot) = copilot_bin() else { return };
    let out = Out::new("native");
    build(&repo_root().join("tests/vectors/canonical-full/input"), &out.0, "copilot");
    assert_full_bundle(&copilot, &out.0, &out.0.join("copilot"), ".plugin/plugin.json");
}

#[test]
fn copilot_runs_the_hooks_and_mcp_servers_of_a_claude_bundle() {
    let Some(copilot) = copilot_bin() else { return };
    let out = Out::new("full");
    build(&repo_root().join("tests/vectors/canonical-full/input"), &out.0, "claude-code");
    assert_full_bundle(&copilot, &out.0, &out.0.join("claude-code"), ".claude-plugin/plugin.json");
}

/// Every hook event and MCP server of the bundle at `bundle` (built from the
/// canonical-full vector, which has both) is what Copilot reports.
fn assert_full_bundle(copilot: &str, root: &Path, bundle: &Path, manifest: &str) {
    let manifest: Value = serde_json::from_slice(&std::fs::read(bundle.join(manifest)).unwrap()).unwrap();
    let plugin = manifest["name"].as_str().unwrap();
    let report = assert_loads_in_full(copilot, root, bundle, plugin);

    let hooks: Value =
        serde_json::from_slice(&std::fs::read(bundle.join("hooks/hooks.json")).unwrap()).unwrap();
    let events: BTreeSet<String> = hooks["hooks"].as_object().unwrap().keys().map(|e| camel(e)).collect();
    assert!(!events.is_empty());
    assert_eq!(strings(&report["inventory"]["hooks"]), events);
    let mcp: Value = serde_json::from_slice(&std::fs::read(bundle.join(".mcp.json")).unwrap()).unwrap();
    let servers: BTreeSet<String> = mcp["mcpServers"].as_object().unwrap().keys().cloned().collect();
    assert!(!servers.is_empty());
    assert_eq!(strings(&report["inventory"]["mcp_servers"]), servers);
}

/// What Copilot loads of a plugin, by component: skills, plugin commands,
/// agents and MCP servers, each set by name.
fn loaded(report: &Value) -> [BTreeSet<String>; 4] {
    let inventory = &report["inventory"];
    assert_eq!(report["marketplace_add"]["exit"], 0, "{report}");
    assert_eq!(report["install"]["exit"], 0, "{report}");
    for problems in ["skill_errors", "hook_errors", "log_problems"] {
        assert_eq!(inventory[problems], Value::Array(Vec::new()), "{problems}: {inventory}");
    }
    ["skills", "commands", "agents", "mcp_servers"].map(|key| strings(&inventory[key]))
}

/// Public Copilot CLI plugins in the `.github/plugin/` layout (the corpus's
/// `ghcp-*` units, their other runtimes' manifests removed), each built with
/// `--target all`: Copilot loads from the built bundle exactly the skills,
/// commands, agents and MCP servers it loads from the plugin as it ships.
#[test]
fn copilot_loads_what_it_loads_of_a_public_copilot_plugin_from_its_bundle() {
    let Some(copilot) = copilot_bin() else { return };
    let corpus = repo_root().join("tests/conformance/realworld");
    let mut units: Vec<String> = std::fs::read_dir(&corpus)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with("ghcp-"))
        .collect();
    units.sort();
    let mut judged = 0;
    for unit in units {
        let plugin = corpus.join(&unit).join("plugin");
        let Ok(manifest) = std::fs::read(plugin.join(".github/plugin/plugin.json")) else { continue };
        let manifest: Value = serde_json::from_slice(&manifest).unwrap();
        let name = manifest["name"].as_str().unwrap().to_string();
        // The plugin as it ships, listed by a one-entry local marketplace.
        let original = Out::new(&format!("{unit}-original"));
        copy_tree(&plugin, &original.0.join(&name));
        let marketplace = serde_json::json!({
            "name": "as-shipped", "owner": {"name": "corpus"},
            "plugins": [{"name": name, "source": format!("./{name}")}],
        });
        std::fs::create_dir_all(original.0.join(".github/plugin")).unwrap();
        std::fs::write(original.0.join(".github/plugin/marketplace.json"), marketplace.to_string()).unwrap();
        let shipped = loaded(&inventory(&copilot, &original.0, &name));

        let out = Out::new(&unit);
        build(&plugin, &out.0, "all");
        let built = loaded(&inventory(&copilot, &out.0, &name));
        assert_eq!(
            built, shipped,
            "{unit}: what Copilot loads of the bundle differs from the plugin as it ships"
        );
        assert!(shipped.iter().any(|set| !set.is_empty()), "{unit}: Copilot loads nothing of it");
        judged += 1;
    }
    assert!(judged >= 5, "only {judged} public Copilot plugins judged");
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn copilot_loads_skills_whose_description_the_bundle_shortened() {
    let Some(copilot) = copilot_bin() else { return };
    // openai/plugins' heygen: descriptions of 1296 and 1434 characters.
    // Copilot refuses each ("Skill description must be at most 1024
    // characters") unless the bundle shortens it.
    let source = repo_root().join("tests/conformance/realworld/codex-heygen/plugin");
    let out = Out::new("heygen");
    build(&source, &out.0, "copilot");
    let report = inventory(&copilot, &out.0, "heygen");
    let inventory = &report["inventory"];
    assert_eq!(inventory["skill_errors"], serde_json::json!([]), "{inventory}");
    let skills: Vec<&str> =
        inventory["skills"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(skills, ["heygen-avatar", "heygen-video"], "{inventory}");
}
