//! The real Hermes Agent (hermes-agent 0.19.0 from PyPI) judges both kinds
//! offline (core/src/runtime/hermes/drivers/hermes_inventory.py): a skill plugin is copied to
//! `$HERMES_HOME/plugins/`, listed by `hermes plugins list --json`, enabled,
//! and loaded by Hermes's own `PluginManager.discover_and_load()`, which runs
//! the fixed `__init__.py`; every registered skill is then served through
//! `skill_view`. A workspace build goes into a home that already holds a
//! Hermes `config.yaml`; `hermes skills list`, `hermes mcp list` and Hermes's
//! own config loader must see our skills and servers beside the user's.
//! Needs `PLUGFORGE_HERMES_BIN` (scripts/install-clients hermes).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn hermes_bin() -> Option<String> {
    clients::client("PLUGFORGE_HERMES_BIN")
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn temp_out(tag: &str) -> PathBuf {
    let out = std::env::temp_dir().join(format!("plugforge-real-hermes-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    out
}

fn build(source: &str, out: &Path, args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", repo_root().join(source).to_str().unwrap(), "--out", out.to_str().unwrap()])
        .args(args)
        .status()
        .expect("run plugforge");
    assert!(status.success(), "build of {source} failed");
}

fn inventory(hermes: &str, flag: &str, dir: &Path) -> Value {
    clients::judge::judge("hermes_inventory.py", &["--hermes", hermes, flag, dir.to_str().unwrap()])
}

/// The plugin is listed, enabled, loaded without error, registers exactly
/// `skills` (and nothing else), and Hermes serves each of them.
fn check_plugin(report: &Value, name: &str, version: &str, skills: &[&str]) {
    let plugin = &report["plugin"];
    let listed = plugin["list"]["plugins"].as_array().unwrap_or_else(|| panic!("{}", plugin["list"]));
    assert_eq!(listed.len(), 1, "{}", plugin["list"]);
    assert_eq!((listed[0]["name"].as_str(), listed[0]["version"].as_str()), (Some(name), Some(version)));
    assert_eq!(plugin["enable"]["exit"], 0, "{}", plugin["enable"]);
    let loaded = &plugin["load"]["data"][name];
    assert!(loaded.is_object(), "not loaded: {}", plugin["load"]);
    assert_eq!((&loaded["enabled"], &loaded["error"]), (&json!(true), &Value::Null), "{loaded}");
    let registered: BTreeSet<String> =
        loaded["skills"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    assert_eq!(registered, set(skills), "{loaded}");
    for skill in skills {
        assert_eq!(loaded["served"][skill], true, "skill_view({name}:{skill}): {loaded}");
    }
    for nothing_else in ["hooks", "tools", "commands"] {
        assert_eq!(loaded[nothing_else], json!([]), "{loaded}");
    }
}

const STRIATUM_SKILLS: [&str; 5] = [
    "striatum-claim-loop",
    "striatum-recover",
    "striatum-scaffold",
    "striatum-supervise",
    "striatum-workflow",
];

#[test]
fn hermes_loads_the_striatum_skill_plugin() {
    let Some(hermes) = hermes_bin() else { return };
    let out = temp_out("plugin-striatum");
    build("examples/striatum", &out, &["--target", "hermes:skill-plugin", "--var", "runner_version=0.7.3"]);
    let report = inventory(&hermes, "--plugin-dir", &out.join("hermes"));
    assert!(report["version"].as_str().unwrap_or_default().contains("0.19.0"), "{}", report["version"]);
    check_plugin(&report, "striatum", "0.7.3", &STRIATUM_SKILLS);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn hermes_loads_the_full_skill_plugin() {
    let Some(hermes) = hermes_bin() else { return };
    let out = temp_out("plugin-full");
    build(
        "tests/vectors/canonical-full/input",
        &out,
        &["--target", "hermes:skill-plugin", "--namespace", "dk"],
    );
    check_plugin(&inventory(&hermes, "--plugin-dir", &out.join("hermes")), "dk", "1.4.0", &["rollout"]);
    let _ = std::fs::remove_dir_all(&out);
}

/// A config.yaml as Hermes writes it, with a server and a setting of the user's.
const USERS_CONFIG: &str = "_config_version: 33\nmodel:\n  default: some/model\nmcp_servers:\n  theirs:\n    \
                            command: npx\n    args:\n    - -y\n    - their-server\n";

fn workspace(hermes: &str, source: &str, tag: &str, args: &[&str]) -> Value {
    let out = temp_out(tag);
    std::fs::create_dir_all(out.join(".hermes")).unwrap();
    std::fs::write(out.join(".hermes/config.yaml"), USERS_CONFIG).unwrap();
    build(source, &out, &[&["--target", "hermes", "--scope", "user"], args].concat());
    let report = inventory(hermes, "--home", &out);
    let _ = std::fs::remove_dir_all(&out);
    report["workspace"].clone()
}

fn skills_seen(workspace: &Value, category: &str) -> BTreeSet<String> {
    let read = &workspace["read"]["data"]["skills"];
    let skills = read.as_array().unwrap_or_else(|| panic!("{}", workspace["read"]));
    for skill in skills {
        assert_eq!(skill["category"], category, "{skill}");
        assert!(skill["description"].as_str().is_some_and(|d| !d.is_empty()), "{skill}");
    }
    skills.iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
}

#[test]
fn hermes_sees_the_full_workspace_beside_the_users_config() {
    let Some(hermes) = hermes_bin() else { return };
    let ws = workspace(&hermes, "tests/vectors/canonical-full/input", "ws-full", &["--namespace", "dk"]);
    assert_eq!(skills_seen(&ws, "dk"), set(&["rollout", "dk-deploy", "dk-status"]), "{}", ws["read"]);
    let list = ws["skills_list"]["output"].as_str().unwrap();
    assert!(["rollout", "dk-deploy", "dk-status"].iter().all(|s| list.contains(s)), "{list}");
    let servers = &ws["read"]["data"]["mcp_servers"];
    let names: BTreeSet<String> = servers.as_object().expect("servers").keys().cloned().collect();
    assert_eq!(names, set(&["theirs", "deployer"]), "{servers}");
    assert_eq!(servers["theirs"], json!({"command": "npx", "args": ["-y", "their-server"]}));
    // Hermes expanded ${HOME}: the server's command is the copied bin/deployer.
    assert_eq!(ws["read"]["data"]["runnable"]["deployer"], true, "{}", ws["read"]);
    let mcp_list = ws["mcp_list"]["output"].as_str().unwrap();
    assert!(mcp_list.contains("theirs") && mcp_list.contains("deployer"), "{mcp_list}");
}

#[test]
fn hermes_sees_the_striatum_workspace() {
    let Some(hermes) = hermes_bin() else { return };
    let ws = workspace(&hermes, "examples/striatum", "ws-striatum", &["--var", "runner_version=0.7.3"]);
    let mut expected = set(&STRIATUM_SKILLS);
    expected.extend(["claim-next", "dashboard", "doctor", "status", "why"].map(|c| format!("striatum-{c}")));
    assert_eq!(skills_seen(&ws, "striatum"), expected, "{}", ws["read"]);
    let servers = &ws["read"]["data"]["mcp_servers"];
    assert_eq!(servers.as_object().map(|m| m.len()), Some(1), "only the user's server: {servers}");
}

/// A YAML text as Hermes reads it: PyYAML's `safe_load` in Hermes's own
/// venv (YAML 1.1: merge keys expanded, aliases resolved), as JSON.
fn pyyaml(hermes: &str, text: &str) -> Value {
    use std::io::Write;
    let python = Path::new(hermes).with_file_name("python");
    let mut child = Command::new(python)
        .args(["-c", "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin.read()), sys.stdout)"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run Hermes's python");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "PyYAML refused:\n{text}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn hermes_reads_the_users_yaml_settings_unchanged_beside_ours() {
    let Some(hermes) = hermes_bin() else { return };
    let users =
        std::fs::read_to_string(repo_root().join("tests/clients/fixtures/hermes-config.yaml")).unwrap();
    let before = pyyaml(&hermes, &users);
    assert_eq!(before["mcp_servers"]["github"]["timeout"], 30, "PyYAML expands the merge key: {before}");

    let out = temp_out("ws-yaml");
    std::fs::create_dir_all(out.join(".hermes")).unwrap();
    let config = out.join(".hermes/config.yaml");
    std::fs::write(&config, &users).unwrap();
    let args = ["--target", "hermes", "--scope", "user", "--namespace", "dk"];
    build("tests/vectors/canonical-full/input", &out, &args);
    let mut after = pyyaml(&hermes, &std::fs::read_to_string(&config).unwrap());
    let ours = after["mcp_servers"].as_object_mut().unwrap().remove("deployer").expect("our server");
    assert_eq!(ours["command"], "${HOME}/.hermes/plugforge/dk/bin/deployer");
    assert_eq!(after, before, "every value of the user's reads the same in PyYAML");

    let ws = inventory(&hermes, "--home", &out)["workspace"].clone();
    let servers = &ws["read"]["data"]["mcp_servers"];
    assert_eq!(servers["github"]["timeout"], 30, "Hermes's loader sees the merged defaults: {servers}");
    assert_eq!(servers["files"]["env"]["LOG"], "debug", "{servers}");
    assert_eq!(ws["read"]["data"]["runnable"]["deployer"], true, "{}", ws["read"]);

    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["uninstall", "--out", out.to_str().unwrap()])
        .args(args)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), users, "uninstall gives the bytes back");
    let _ = std::fs::remove_dir_all(&out);
}
