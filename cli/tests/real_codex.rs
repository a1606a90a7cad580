//! The real Codex CLI (0.171) judges the Codex bundles: `codex plugin
//! marketplace add` + `codex plugin add` on the generated marketplace root,
//! then its app-server lists what it loaded (`plugin/read`, `skills/list`,
//! `hooks/list`); the project kind is read back with `skills/list`,
//! `hooks/list`, `config/read` and `codex debug prompt-input` (agent roles,
//! AGENTS.md). Needs `PLUGFORGE_CODEX_BIN` (scripts/install-clients codex);
//! a missing client fails unless skipped by name (`PLUGFORGE_SKIP_CLIENTS`).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The canonical events Codex runs (the others are left out of its bundle).
const CODEX_EVENTS: [&str; 11] = [
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "SubagentStart",
    "SubagentStop",
    "Stop",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn codex_bin() -> Option<String> {
    clients::client("PLUGFORGE_CODEX_BIN")
}

/// A fresh output root, removed when dropped.
struct Out(PathBuf);

impl Out {
    fn new(name: &str) -> Out {
        let dir = std::env::temp_dir().join(format!("plugforge-real-codex-{name}-{}", std::process::id()));
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

fn inventory(codex: &str, args: &[&str]) -> Value {
    let mut all = vec!["--codex", codex];
    all.extend_from_slice(args);
    clients::judge::judge("codex_inventory.py", &all)
}

fn set(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("a list: {value}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn keys(value: &Value) -> BTreeSet<String> {
    value.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

/// Skill folder names of a source.
fn source_skills(source: &Path) -> BTreeSet<String> {
    std::fs::read_dir(source.join("skills"))
        .map(|entries| entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default()
}

fn read_json(file: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(file).expect("read json")).expect("valid json")
}

/// The source's hook events that have at least one handler and that Codex runs,
/// as Codex names them (`preToolUse`).
fn source_codex_events(source: &Path) -> BTreeSet<String> {
    let hooks = read_json(&source.join("hooks/hooks.json"));
    let events = hooks["hooks"].as_object().cloned().unwrap_or_default();
    events
        .iter()
        .filter(|(name, groups)| {
            CODEX_EVENTS.contains(&name.as_str()) && groups.as_array().is_some_and(|g| !g.is_empty())
        })
        .map(|(name, _)| lower_first(name))
        .collect()
}

fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
}

fn source_mcp(source: &Path) -> BTreeSet<String> {
    let mcp = read_json(&source.join(".mcp.json"));
    keys(mcp.get("mcpServers").unwrap_or(&mcp))
}

fn namespaced(namespace: &str, names: &BTreeSet<String>) -> BTreeSet<String> {
    names.iter().map(|n| format!("{namespace}:{n}")).collect()
}

#[test]
fn codex_installs_and_lists_the_striatum_plugin() {
    let Some(codex) = codex_bin() else { return };
    let source = repo_root().join("examples/striatum");
    let out = Out::new("striatum");
    build(&source, &out.0, &["--target", "codex", "--var", "runner_version=0.7.3"]);
    let report =
        inventory(&codex, &["plugin", "--marketplace-root", out.0.to_str().unwrap(), "--plugin", "striatum"]);

    for step in ["marketplace_add", "add"] {
        assert_eq!(report[step]["exit"], 0, "{step}: {}", report[step]);
    }
    let read = &report["read"];
    assert_eq!(
        (read["name"].as_str(), read["version"].as_str()),
        (Some("striatum"), Some("0.7.3")),
        "{read}"
    );
    let skills = namespaced("striatum", &source_skills(&source));
    assert_eq!(skills.len(), 5, "the example has 5 skills");
    assert_eq!(set(&read["skills"]), skills, "plugin/read");
    // Every Striatum command uses $1 or $ARGUMENTS: Codex migrates none of them.
    assert_eq!(set(&report["installed"]["skills"]["names"]), skills, "skills/list");
    assert_eq!(report["installed"]["skills"]["errors"], Value::Array(vec![]));
    // The hook stub has events but no handlers; the MCP placeholder no server.
    assert_eq!(source_codex_events(&source), BTreeSet::new());
    assert_eq!(set(&read["hooks"]), BTreeSet::new());
    assert_eq!(report["installed"]["hooks"]["warnings"], Value::Array(vec![]), "the hooks file parses");
    assert_eq!(set(&read["mcp_servers"]), source_mcp(&source));
    let interface = &read["interface"];
    assert_eq!(interface["displayName"], "Striatum");
    assert!(interface["shortDescription"].as_str().unwrap().chars().count() <= 30, "{interface}");
    assert_eq!(interface["defaultPrompt"].as_array().map(Vec::len), Some(3), "{interface}");
}

#[test]
fn codex_runs_the_hooks_and_mcp_of_the_full_example() {
    let Some(codex) = codex_bin() else { return };
    let source = repo_root().join("tests/vectors/canonical-full/input");
    let out = Out::new("full");
    build(&source, &out.0, &["--target", "codex", "--namespace", "dk"]);
    let report =
        inventory(&codex, &["plugin", "--marketplace-root", out.0.to_str().unwrap(), "--plugin", "dk"]);

    assert_eq!(report["add"]["exit"], 0, "{}", report["add"]);
    let read = &report["read"];
    let skills = namespaced("dk", &source_skills(&source));
    assert_eq!(set(&read["skills"]), skills);
    assert_eq!(set(&report["installed"]["skills"]["names"]), skills, "no command qualifies for migration");
    let events = source_codex_events(&source);
    assert_eq!(events, ["preToolUse", "sessionStart"].map(String::from).into());
    assert_eq!(set(&read["hooks"]), events);
    let installed = &report["installed"]["hooks"];
    assert_eq!(set(&installed["events"]), events);
    assert_eq!(installed["warnings"], Value::Array(vec![]), "{installed}");
    let guard =
        installed["handlers"].as_array().unwrap().iter().find(|h| h["event"] == "preToolUse").unwrap();
    let command = guard["command"].as_str().unwrap();
    assert!(
        command.ends_with("/dk/1.4.0/hooks/guard.sh") && !command.contains("${"),
        "Codex resolves ${{PLUGIN_ROOT}} in the installed copy: {command}"
    );
    assert_eq!(guard["matcher"], "Bash");
    assert_eq!(set(&read["mcp_servers"]), source_mcp(&source));
}

#[test]
fn codex_migrates_commands_without_arguments_into_skills() {
    let Some(codex) = codex_bin() else { return };
    let source = plugforge_conformance::case("openclaw-hook-pack").source_dir();
    let out = Out::new("migrate");
    build(&source, &out.0, &["--target", "codex"]);
    let report =
        inventory(&codex, &["plugin", "--marketplace-root", out.0.to_str().unwrap(), "--plugin", "ping-kit"]);
    assert_eq!(report["add"]["exit"], 0, "{}", report["add"]);
    let expected: BTreeSet<String> =
        ["ping-kit:ping", "ping-kit:source-command-ping-now"].map(String::from).into();
    assert_eq!(set(&report["installed"]["skills"]["names"]), expected);
    assert_eq!(set(&report["read"]["mcp_servers"]), source_mcp(&source));
    assert_eq!(set(&report["installed"]["hooks"]["events"]), source_codex_events(&source));
}

/// A plugin whose own Codex manifest switches hooks off and lists only
/// skills/, and whose own Codex entry asks for authentication on use:
/// Codex installs it with that policy, loads the one skill its manifest
/// gives it and no hook.
#[test]
fn codex_installs_what_the_plugins_own_codex_manifest_and_entry_state() {
    let Some(codex) = codex_bin() else { return };
    let source = plugforge_conformance::case("native-manifests-leave-out-per-runtime").source_dir();
    let out = Out::new("left-out");
    build(&source, &out.0, &["--target", "codex"]);
    let report =
        inventory(&codex, &["plugin", "--marketplace-root", out.0.to_str().unwrap(), "--plugin", "relay"]);
    assert_eq!(report["add"]["exit"], 0, "{}", report["add"]);
    assert_eq!(report["add"]["json"]["authPolicy"], "ON_USE", "{}", report["add"]);
    assert_eq!(set(&report["installed"]["skills"]["names"]), BTreeSet::from(["relay:plan".to_string()]));
    assert!(set(&report["installed"]["hooks"]["events"]).is_empty(), "{}", report["installed"]["hooks"]);
}

fn check_project(report: &Value, source: &Path, roles: &[&str], context_line: &str) {
    assert_eq!(set(&report["skills"]["names"]), source_skills(source), "{}", report["skills"]);
    assert_eq!(report["skills"]["errors"], Value::Array(vec![]));
    let hooks = &report["hooks"];
    assert_eq!(set(&hooks["events"]), source_codex_events(source), "{hooks}");
    assert_eq!(hooks["warnings"], Value::Array(vec![]), "{hooks}");
    assert_eq!(report["config_error"], Value::Null);
    assert_eq!(keys(&report["mcp_servers"]), source_mcp(source));
    assert_eq!(set(&report["roles"]), roles.iter().map(|r| r.to_string()).collect());
    let instructions = report["instructions"].as_array().unwrap();
    assert!(
        instructions.iter().any(|i| i.as_str().unwrap().contains(context_line)),
        "AGENTS.md reaches the model: {instructions:?}"
    );
}

#[test]
fn codex_reads_the_project_kind_in_both_scopes() {
    let Some(codex) = codex_bin() else { return };
    let source = repo_root().join("tests/vectors/canonical-full/input");
    for scope in ["project", "user"] {
        let out = Out::new(&format!("project-{scope}"));
        build(&source, &out.0, &["--target", "codex:project", "--namespace", "dk", "--scope", scope]);
        let report = inventory(&codex, &["project", "--root", out.0.to_str().unwrap(), "--scope", scope]);
        check_project(&report, &source, &["watcher"], "Always deploy one region at a time.");
        let guard =
            report["hooks"]["handlers"].as_array().unwrap().iter().find(|h| h["event"] == "preToolUse");
        let expected =
            if scope == "user" { "${HOME}/.codex/dk/hooks/guard.sh" } else { ".codex/dk/hooks/guard.sh" };
        // The hook is a shell line: its path is quoted. The server's command is an executable.
        assert_eq!(guard.unwrap()["command"], format!("\"{expected}\""));
        assert_eq!(
            report["mcp_servers"]["deployer"]["command"],
            expected.replace("hooks/guard.sh", "bin/deployer")
        );
    }
}

#[test]
fn codex_reads_the_striatum_project() {
    let Some(codex) = codex_bin() else { return };
    let source = repo_root().join("examples/striatum");
    let out = Out::new("project-striatum");
    build(&source, &out.0, &["--target", "codex:project", "--var", "runner_version=0.7.3"]);
    let report = inventory(&codex, &["project", "--root", out.0.to_str().unwrap()]);
    check_project(&report, &source, &["striatum-recover"], "Striatum owns the live state of every run.");
}

#[test]
fn codex_keeps_a_cursor_server_with_a_static_oauth_client() {
    let Some(codex) = codex_bin() else { return };
    // A Cursor server's `auth: {CLIENT_ID}` makes Codex drop the whole server:
    // the bundle leaves the key out, and every server of the source loads.
    let source = repo_root().join("tests/vectors/cursor-mcp-static-oauth-and-url-only/input");
    let out = Out::new("static-oauth");
    build(&source, &out.0, &["--target", "codex"]);
    let report = inventory(
        &codex,
        &["plugin", "--marketplace-root", out.0.to_str().unwrap(), "--plugin", "billing-agents"],
    );
    assert_eq!(report["add"]["exit"], 0, "{}", report["add"]);
    let servers = keys(&read_json(&source.join("mcp.json"))["mcpServers"]);
    assert_eq!(servers.len(), 3, "the source has three servers");
    assert_eq!(set(&report["read"]["mcp_servers"]), servers, "{}", report["read"]);
}

#[test]
fn codex_loads_the_remote_servers_of_public_cursor_plugins_with_a_static_oauth_client() {
    let Some(codex) = codex_bin() else { return };
    // cursor/plugins' gong (url only), zoom and salesforce give their server
    // `auth: {CLIENT_ID, ...}`; Codex dropped the server until the key was left out.
    for (unit, server) in
        [("cursor-gong", "gong"), ("cursor-zoom", "zoom"), ("cursor-salesforce", "salesforce")]
    {
        let source = repo_root().join("tests/conformance/realworld").join(unit).join("plugin");
        let out = Out::new(unit);
        build(&source, &out.0, &["--target", "codex"]);
        let written = read_json(&out.0.join("codex/.mcp.json"));
        assert!(written["mcpServers"][server].get("auth").is_none(), "{unit}: {written}");
        let report =
            inventory(&codex, &["plugin", "--marketplace-root", out.0.to_str().unwrap(), "--plugin", server]);
        assert_eq!(report["add"]["exit"], 0, "{unit}: {}", report["add"]);
        assert_eq!(
            set(&report["read"]["mcp_servers"]),
            BTreeSet::from([server.to_string()]),
            "{unit}: {}",
            report["read"]
        );
    }
}

#[test]
fn codex_runs_a_public_plugins_exec_form_hooks_with_their_scripts_and_arguments() {
    let Some(codex) = codex_bin() else { return };
    // Borelchu/menhera-loop as its author ships it: every handler is Claude
    // Code's exec form (`command: node`, `args: [script, --observe?]`).
    // Codex reads only `command`, and ran a bare `node` until the bundle
    // wrote one line; two of its eight events Codex does not have.
    let source = repo_root().join("tests/conformance/realworld/claude-menhera-loop/plugin");
    let out = Out::new("exec-hook");
    build(&source, &out.0, &["--target", "codex"]);
    let report = inventory(
        &codex,
        &["plugin", "--marketplace-root", out.0.to_str().unwrap(), "--plugin", "menhera-loop"],
    );
    let handlers = report["installed"]["hooks"]["handlers"].as_array().expect("hook handlers");
    let mut ran: Vec<String> = handlers
        .iter()
        .map(|h| {
            let command = h["command"].as_str().unwrap();
            let (_, script) =
                command.rsplit_once("/scripts/").unwrap_or_else(|| panic!("no script: {command}"));
            assert!(command.starts_with("node \"/"), "{command}");
            script.to_string()
        })
        .collect();
    ran.sort();
    assert_eq!(
        ran,
        [
            "capture-requirements.mjs\"",
            "session-end.mjs\"",
            "session-start.mjs\"",
            "track-event.mjs\"",
            "verify-completion.mjs\"",
            "verify-completion.mjs\" --observe",
        ],
        "{report}"
    );
}
