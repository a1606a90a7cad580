//! The real Qwen Code CLI (0.24.4, on Node 24) judges what plugforge builds,
//! offline in a throwaway HOME, through core/src/runtime/qwen_code/drivers/qwen_inventory.py:
//! `qwen extensions install <folder> --consent`, then the CLI's own
//! ExtensionManager (the one `qwen extensions list` uses) and the commands a
//! session loads, with the loaders' warnings from its debug log. The native
//! extension must load every skill, command and agent, and the hook events
//! and MCP servers it was given, and `plugforge verify`'s reading of the same
//! report must pass; the universal folder loads as an Agent Plugins plugin
//! (skills and MCP only), as the runtime's spec says. Needs
//! `PLUGFORGE_QWEN_BIN` (scripts/install-clients qwen); a missing client fails
//! unless it is skipped by name (`PLUGFORGE_SKIP_CLIENTS=qwen`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use clients::judge::{assert_passed, entries, json_keys, judge, repo_root, strings, verdict};
use serde_json::Value;

fn qwen_bin() -> Option<String> {
    clients::client("PLUGFORGE_QWEN_BIN")
}

/// A fresh output root, removed when dropped.
struct Out(PathBuf);

impl Out {
    fn new(name: &str) -> Out {
        let dir = std::env::temp_dir().join(format!("plugforge-real-qwen-{name}-{}", std::process::id()));
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

fn inventory(qwen: &str, dir: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["--qwen", qwen, "--dir", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    judge("qwen_inventory.py", &args)
}

/// The one extension Qwen installed, after checking the install and the log.
fn installed(report: &Value) -> &Value {
    assert_eq!(report["install"]["exit"], 0, "{report}");
    assert_eq!(report["inventory_run"]["exit"], 0, "{report}");
    assert_eq!(report["log_problems"], Value::Array(Vec::new()), "{report}");
    let extensions = report["inventory"]["extensions"].as_array().expect("extensions");
    assert_eq!(extensions.len(), 1, "{report}");
    &extensions[0]
}

fn names(list: &Value, key: &str) -> BTreeSet<String> {
    list.as_array().expect("a list").iter().map(|v| v[key].as_str().expect("a name").to_string()).collect()
}

/// Every skill, command and agent of the extension at `bundle`, and its hook
/// events and MCP servers, are what Qwen loaded.
fn assert_loads_in_full(extension: &Value, bundle: &Path, namespace: &str) {
    assert_eq!(extension["format"], "qwen", "{extension}");
    assert_eq!(extension["origin"], "QwenCode", "{extension}");
    assert_eq!(strings(&extension["skills"]), entries(&bundle.join("skills"), true));
    let commands: BTreeSet<String> = entries(&bundle.join("commands").join(namespace), false)
        .iter()
        .map(|c| format!("{namespace}:{c}"))
        .collect();
    assert!(!commands.is_empty() || !bundle.join("commands").exists());
    assert_eq!(strings(&extension["commands"]), commands, "listed");
    assert_eq!(names(&extension["sessionCommands"], "name"), commands, "loaded by a session");
    assert_eq!(names(&extension["agents"], "name"), entries(&bundle.join("agents"), false));
    let hooks: BTreeSet<String> = extension["hooks"].as_object().expect("hooks").keys().cloned().collect();
    assert_eq!(hooks, json_keys(&bundle.join("hooks/hooks.json"), "/hooks"));
    assert_eq!(extension["unknownHookEvents"], Value::Array(Vec::new()), "{extension}");
    let servers: BTreeSet<String> =
        extension["mcpServers"].as_object().expect("servers").keys().cloned().collect();
    assert_eq!(servers, json_keys(&bundle.join("qwen-extension.json"), "/mcpServers"));
}

#[test]
fn qwen_loads_every_component_of_the_striatum_extension_built_for_every_runtime() {
    let Some(qwen) = qwen_bin() else { return };
    let out = Out::new("striatum");
    build(&repo_root().join("examples/striatum"), &out.0, "all");
    let bundle = out.0.join("qwen-code");
    let report = inventory(&qwen, &bundle, &["--invoke", "striatum:status", "run-7"]);
    let extension = installed(&report);
    assert_loads_in_full(extension, &bundle, "striatum");
    assert_passed(&verdict("qwen-code", "qwen", &report, &bundle, ".plugforge-manifest.json"));
    assert_eq!(strings(&extension["skills"]).len(), 5, "{extension}");
    assert_eq!(extension["commands"].as_array().unwrap().len(), 5, "{extension}");
    let hooks: BTreeSet<String> = extension["hooks"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(hooks, BTreeSet::from(["PreToolUse".to_string(), "Stop".to_string()]));
    // The agent's Claude tool names arrive as the names Qwen resolves.
    let agent = &extension["agents"][0];
    assert_eq!(agent["name"], "striatum-recover");
    assert_eq!(agent["tools"], serde_json::json!(["Shell", "ReadFile", "Grep"]));
    assert!(extension["contextFiles"][0].as_str().unwrap().ends_with("/QWEN.md"), "{extension}");
    // Claude's $1 became Qwen's {{args}}: the arguments land where the run id goes.
    let prompt = report["inventory"]["invoked"]["text"].as_str().expect("the command ran");
    assert!(prompt.contains("striatum status --run-id run-7 --json"), "{prompt}");
    assert!(!prompt.contains("$1") && !prompt.contains("{{args}}"), "{prompt}");
}

#[test]
fn qwen_runs_the_hooks_and_mcp_servers_of_its_extension() {
    let Some(qwen) = qwen_bin() else { return };
    let out = Out::new("full");
    build(&repo_root().join("tests/vectors/canonical-full/input"), &out.0, "qwen-code");
    let bundle = out.0.join("qwen-code");
    let report = inventory(&qwen, &bundle, &[]);
    let extension = installed(&report);
    assert_loads_in_full(extension, &bundle, "deploy-kit");
    assert_passed(&verdict("qwen-code", "qwen", &report, &bundle, ".plugforge-manifest.json"));
    let root = extension["path"].as_str().expect("the installed folder");
    // Qwen put its installed folder where the source said ${PLUGIN_ROOT},
    // inside the quotes the build put around it.
    let guard = &extension["hooks"]["PreToolUse"][0];
    assert_eq!(guard["matcher"], "Bash");
    assert_eq!(guard["hooks"][0]["command"], format!("\"{root}/hooks/guard.sh\""));
    let deployer = &extension["mcpServers"]["deployer"];
    assert_eq!(deployer["command"], format!("{root}/bin/deployer"));
    assert_eq!(deployer["args"], serde_json::json!(["--root", root]));
    assert!(extension["hooks"]["SessionStart"].is_array(), "{extension}");
}

#[test]
fn qwen_reads_the_universal_folder_as_an_agent_plugins_plugin_with_skills_and_mcp_only() {
    let Some(qwen) = qwen_bin() else { return };
    let out = Out::new("universal");
    let source = repo_root().join("tests/vectors/canonical-full/input");
    build(&source, &out.0, "universal");
    let bundle = out.0.join("universal");
    let report = inventory(&qwen, &bundle, &[]);
    let extension = installed(&report);
    assert_eq!(extension["format"], "agent-plugins-v1", "{extension}");
    assert_eq!(strings(&extension["skills"]), entries(&bundle.join("skills"), true));
    assert_eq!(extension["commands"], Value::Array(Vec::new()), "{extension}");
    assert_eq!(extension["agents"], Value::Array(Vec::new()), "{extension}");
    assert_eq!(extension["hooks"], serde_json::json!({}), "{extension}");
    let servers: BTreeSet<String> = extension["mcpServers"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(servers, json_keys(&bundle.join("mcp.json"), "/mcpServers"));
    // What the build said Qwen gets of the folder is what it loaded.
    let report = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--target", "universal", "--out"])
        .arg(out.0.join("again"))
        .args(["--json"])
        .output()
        .expect("run plugforge");
    let built: Value = serde_json::from_slice(&report.stdout).expect("build --json");
    let rows = built["honesty"].as_array().expect("honesty");
    let qwen_rows: Vec<&Value> =
        rows.iter().filter(|r| r["detail"].as_str().unwrap_or_default().starts_with("Qwen Code: ")).collect();
    for component in ["skill", "mcp"] {
        assert!(
            qwen_rows.iter().any(|r| r["component"] == component && r["level"] != "unsupported"),
            "{component}"
        );
    }
    for component in ["command", "agent", "hook"] {
        let said: Vec<&&Value> = qwen_rows.iter().filter(|r| r["component"] == component).collect();
        assert!(
            !said.is_empty() && said.iter().all(|r| r["level"] == "unsupported"),
            "{component}: {said:?}"
        );
    }
}
