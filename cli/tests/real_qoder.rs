//! The real Qoder CLI (`@qoder-ai/qodercli` 1.1.52) judges what plugforge
//! builds, offline in a throwaway HOME, through core/src/runtime/qoder/drivers/qoder_inventory.py:
//! `qodercli plugins validate DIR --json --strict` must pass with no
//! diagnostic and list every skill, command, agent, hook and MCP server the
//! bundle holds, and from the output root of `--target all` Qoder installs
//! its own bundle (its marketplace file is read before Claude Code's beside
//! it). Qoder checks neither hook event names, skill names nor agent YAML, so
//! plugforge's own `validate --target qoder --strict` must pass too, and must
//! catch a plugin broken in those three ways that Qoder lets through. Every
//! qodercli run writes `$HOME/.qoder/` and `$HOME/.config/git/ignore`: the
//! driver's HOME is a scratch folder, and the user's own files are checked
//! to be untouched. Needs `PLUGFORGE_QODER_BIN` (scripts/install-clients
//! qoder, which installs with `--ignore-scripts` in a scratch HOME); a
//! missing client fails unless it is skipped by name (`PLUGFORGE_SKIP_CLIENTS=qoder`).

mod clients;
mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clients::judge::{assert_passed, entries, json_keys, judge, repo_root, strings, verdict};
use common::{TempDir, run, s, write};
use serde_json::Value;

fn qoder_bin() -> Option<String> {
    clients::client("PLUGFORGE_QODER_BIN")
}

/// The user's own files a qodercli run outside a scratch HOME would change.
fn user_files() -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else { return Vec::new() };
    [".config/git/ignore", ".bashrc", ".profile", ".qoder/settings.json"]
        .iter()
        .map(|rel| home.join(rel))
        .map(|path| {
            let bytes = std::fs::read(&path).ok();
            (path, bytes)
        })
        .collect()
}

/// The driver's report on the bundle (`validate`: the exit code and report of
/// `qodercli plugins validate --json --strict`).
fn inventory(qoder: &str, bundle: &Path) -> Value {
    let before = user_files();
    let report = judge("qoder_inventory.py", &["--qoder", qoder, "validate", "--dir", s(bundle)]);
    assert_eq!(user_files(), before, "a qodercli run changed the user's own files");
    assert_eq!(report["home_git_ignore"], true, "qodercli wrote its git ignore into the scratch HOME");
    report
}

fn validate(qoder: &str, bundle: &Path) -> Value {
    inventory(qoder, bundle)["validate"].clone()
}

fn names(resources: &Value, key: &str, field: &str) -> BTreeSet<String> {
    resources[key]
        .as_array()
        .unwrap_or_else(|| panic!("resources.{key}: {resources}"))
        .iter()
        .map(|item| item[field].as_str().unwrap_or_else(|| panic!("{key}: {item}")).to_string())
        .collect()
}

/// `*.md` below `dir` at any depth, as Qoder names them: `prefix` and the
/// path below `dir` with `/` read as `:`.
fn markdown_names(dir: &Path, prefix: &str) -> BTreeSet<String> {
    common::files(dir)
        .into_iter()
        .filter_map(|rel| rel.strip_suffix(".md").map(|name| format!("{prefix}{}", name.replace('/', ":"))))
        .collect()
}

/// The hook events of the bundle's hooks file that hold a handler.
fn hook_events(bundle: &Path) -> BTreeSet<String> {
    let Ok(bytes) = std::fs::read(bundle.join("hooks/hooks.json")) else { return BTreeSet::new() };
    let hooks: Value = serde_json::from_slice(&bytes).expect("hooks.json is JSON");
    let events = hooks["hooks"].as_object().expect("hooks");
    events
        .iter()
        .filter(|(_, groups)| groups.as_array().is_some_and(|g| !g.is_empty()))
        .map(|(e, _)| e.clone())
        .collect()
}

/// Qoder passes the bundle under `--strict` and lists every component it
/// holds, as this test counts them and as `plugforge verify` reads the report.
fn assert_full_inventory(qoder: &str, bundle: &Path, plugin: &str) -> Value {
    let driven = inventory(qoder, bundle);
    let reading = verdict("qoder", "qoder", &driven, bundle, ".plugforge-manifest.json");
    assert_passed(&reading);
    assert!(reading.loaded.iter().any(|c| c.component == "skills" && c.built > 0), "{reading:?}");
    let verdict = driven["validate"].clone();
    assert_eq!(verdict["exit"], 0, "{verdict}");
    let report = &verdict["report"];
    assert_eq!(report["valid"], true, "{report}");
    assert_eq!(report["diagnostics"], Value::Array(Vec::new()), "{report}");
    assert_eq!(report["target"]["manifestPath"], ".qoder-plugin/plugin.json", "{report}");
    assert_eq!(report["plugin"]["name"], plugin);
    let resources = &report["resources"];
    assert_eq!(names(resources, "skills", "name"), entries(&bundle.join("skills"), true));
    assert_eq!(
        names(resources, "commands", "name"),
        markdown_names(&bundle.join("commands"), &format!("{plugin}:"))
    );
    assert_eq!(
        names(resources, "agents", "name"),
        markdown_names(&bundle.join("agents"), &format!("{plugin}:"))
    );
    assert_eq!(names(resources, "hooks", "event"), hook_events(bundle));
    assert_eq!(names(resources, "mcpServers", "name"), json_keys(&bundle.join(".mcp.json"), "/mcpServers"));
    report.clone()
}

/// plugforge's own checks of what Qoder does not check pass on the bundle.
fn assert_plugforge_validates(bundle: &Path) {
    let result = run(&["validate", s(bundle), "--target", "qoder", "--strict", "--json"]);
    let report = result.json();
    assert_eq!(result.code, 0, "plugforge validate --target qoder --strict: {report}");
    assert_eq!(report["report"]["valid"], true, "{report}");
    assert_eq!(report["report"]["subjects"][0]["runtime"], "qoder", "{report}");
}

fn build(source: &Path, out: &Path, target: &str, extra: &[&str]) {
    let mut args = vec!["build", s(source), "--target", target, "--out", s(out)];
    args.extend_from_slice(extra);
    run(&args).expect(0);
}

#[test]
fn qoder_validates_the_striatum_bundle_with_its_full_inventory() {
    let Some(qoder) = qoder_bin() else { return };
    let tmp = TempDir::new("qoder-striatum");
    build(&common::striatum(), tmp.path(), "qoder", &["--var", "runner_version=0.7.3"]);
    let bundle = tmp.join("qoder");
    let report = assert_full_inventory(&qoder, &bundle, "striatum");
    let resources = &report["resources"];
    assert_eq!(resources["skills"].as_array().unwrap().len(), 5, "{report}");
    assert_eq!(resources["commands"].as_array().unwrap().len(), 5, "{report}");
    assert_eq!(names(resources, "agents", "name"), BTreeSet::from(["striatum:striatum-recover".to_string()]));
    assert_eq!(report["plugin"]["displayName"], "Striatum");
    assert_plugforge_validates(&bundle);
}

#[test]
fn qoder_validates_every_hook_and_mcp_server_of_the_full_source() {
    let Some(qoder) = qoder_bin() else { return };
    let tmp = TempDir::new("qoder-full");
    build(&repo_root().join("tests/vectors/canonical-full/input"), tmp.path(), "qoder", &[]);
    let bundle = tmp.join("qoder");
    let report = assert_full_inventory(&qoder, &bundle, "deploy-kit");
    let resources = &report["resources"];
    assert!(!resources["hooks"].as_array().unwrap().is_empty(), "{report}");
    assert!(!resources["mcpServers"].as_array().unwrap().is_empty(), "{report}");
    let hooks: Vec<(&str, Option<&str>, &str)> = resources["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["event"].as_str().unwrap(), h["matcher"].as_str(), h["type"].as_str().unwrap()))
        .collect();
    assert!(hooks.contains(&("PreToolUse", Some("Bash"), "command")), "{hooks:?}");
    assert_plugforge_validates(&bundle);
}

#[test]
fn qoder_installs_its_own_bundle_from_the_output_root_of_target_all() {
    let Some(qoder) = qoder_bin() else { return };
    let tmp = TempDir::new("qoder-all");
    build(&common::striatum(), tmp.path(), "all", &["--var", "runner_version=0.7.3"]);
    assert!(tmp.join(".qoder-plugin/marketplace.json").is_file());
    assert!(tmp.join(".claude-plugin/marketplace.json").is_file());
    let before = user_files();
    let report = judge(
        "qoder_inventory.py",
        &["--qoder", &qoder, "plugin", "--marketplace-root", s(tmp.path()), "--plugin", "striatum"],
    );
    assert_eq!(user_files(), before, "a qodercli run changed the user's own files");
    assert_eq!(report["marketplace_add"]["exit"], 0, "{report}");
    assert_eq!(report["marketplace"], "local-striatum", "{report}");
    assert_eq!(report["install"]["exit"], 0, "{report}");
    // The copy Qoder installed is the Qoder bundle, not the Claude Code one beside it.
    assert_eq!(report["installed_manifests"], serde_json::json!([".qoder-plugin/plugin.json"]), "{report}");
    let listed = report["list"].as_array().expect("plugins list");
    let striatum = listed.iter().find(|p| p["name"] == "striatum").expect("striatum is installed");
    assert_eq!(striatum["enabled"], true, "{striatum}");
    assert_eq!(striatum["version"], "0.7.3");
    let bundle = tmp.join("qoder");
    let resources = &striatum["resources"];
    assert_eq!(names(resources, "skills", "name"), entries(&bundle.join("skills"), true));
    assert_eq!(names(resources, "commands", "name"), markdown_names(&bundle.join("commands"), "striatum:"));
    assert_eq!(names(resources, "agents", "name"), markdown_names(&bundle.join("agents"), "striatum:"));
}

#[test]
fn qoder_loads_the_universal_folder_as_a_claude_code_plugin() {
    let Some(qoder) = qoder_bin() else { return };
    let tmp = TempDir::new("qoder-universal");
    build(&repo_root().join("tests/vectors/canonical-full/input"), tmp.path(), "universal", &[]);
    let folder = tmp.join("universal");
    let verdict = validate(&qoder, &folder);
    let report = &verdict["report"];
    assert_eq!(report["target"]["manifestPath"], ".claude-plugin/plugin.json", "{report}");
    assert_eq!(report["summary"]["errorCount"], 0, "{report}");
    let resources = &report["resources"];
    assert_eq!(names(resources, "skills", "name"), entries(&folder.join("skills"), true));
    assert_eq!(names(resources, "commands", "name"), markdown_names(&folder.join("commands"), "deploy-kit:"));
    assert_eq!(names(resources, "agents", "name"), markdown_names(&folder.join("agents"), "deploy-kit:"));
    assert_eq!(names(resources, "hooks", "event"), hook_events(&folder));
    assert_eq!(names(resources, "mcpServers", "name"), json_keys(&folder.join(".mcp.json"), "/mcpServers"));
    // What the universal build says Qoder gets of the folder: every component above, loaded.
    let built = run(&[
        "build",
        s(&repo_root().join("tests/vectors/canonical-full/input")),
        "--target",
        "universal",
        "--out",
        s(&tmp.join("again")),
        "--json",
    ]);
    let rows = built.json()["honesty"].clone();
    let qoder_rows: Vec<&Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["detail"].as_str().is_some_and(|d| d.starts_with("Qoder CLI: ")))
        .collect();
    for component in ["skill", "command", "agent", "hook", "mcp"] {
        let row = qoder_rows.iter().find(|r| r["component"] == component);
        let row = row.unwrap_or_else(|| panic!("no Qoder CLI row for {component}: {rows}"));
        assert_eq!(row["level"], "supported", "{row}");
    }
}

/// Qoder passes a plugin whose hook event does not exist, whose skill name
/// breaks the Agent Skills rule and whose agent frontmatter is not YAML;
/// plugforge's `validate --target qoder` reports all three.
#[test]
fn plugforges_own_checks_catch_what_qoder_lets_pass() {
    let Some(qoder) = qoder_bin() else { return };
    let tmp = TempDir::new("qoder-unchecked");
    let plugin = tmp.join("plugin");
    write(
        &plugin,
        ".qoder-plugin/plugin.json",
        r#"{"name": "loose", "version": "1.0.0", "description": "Loose."}"#,
    );
    write(
        &plugin,
        "hooks/hooks.json",
        r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}"#,
    );
    write(
        &plugin,
        "skills/Hello_Skill/SKILL.md",
        "---\nname: Hello_Skill\ndescription: Says hello.\n---\nHello.\n",
    );
    write(&plugin, "agents/broken.md", "---\nname: [oops\ndescription: Broken.\n---\nBody.\n");
    let verdict = validate(&qoder, &plugin);
    assert_eq!(verdict["exit"], 0, "Qoder lets it pass: {verdict}");
    assert_eq!(verdict["report"]["diagnostics"], Value::Array(Vec::new()), "{verdict}");

    let result = run(&["validate", s(&plugin), "--target", "qoder", "--strict", "--json"]);
    let report = result.json();
    assert_eq!(result.code, 1, "{report}");
    let findings = report["report"]["findings"].as_array().unwrap_or_else(|| panic!("findings: {report}"));
    let codes: BTreeSet<String> =
        strings(&Value::Array(findings.iter().map(|f| f["code"].clone()).collect()));
    for expected in ["hook/unknown-event", "agent/invalid-frontmatter", "skill/invalid-name"] {
        assert!(codes.contains(expected), "{expected} missing from {codes:?}");
    }
}
