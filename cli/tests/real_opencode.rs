//! The real OpenCode CLI (opencode-ai 1.18.33) judges the opencode project
//! kind, offline in a throwaway HOME (core/src/runtime/opencode/drivers/opencode_inventory.py):
//! `opencode debug config` must not fail (it hard-fails on a wrong MCP shape
//! or on Claude agent frontmatter such as `tools: Read, Grep`), and
//! `debug config` / `debug skill` / `agent list` must list exactly the
//! source's skills, commands, agents (as subagents) and MCP servers; in both
//! scopes (project: `.opencode/` + `opencode.json`; user: `~/.config/opencode/`
//! read from an empty folder). Every generated skill also passes the Agent
//! Skills reference validator (core/src/runtime/agent_plugins/drivers/skills_ref_validate.py).
//!
//! Needs `PLUGFORGE_OPENCODE_BIN` and `PLUGFORGE_SKILLS_REF_BIN`
//! (scripts/install-clients opencode skills-ref); a missing
//! client fails unless skipped by name (`PLUGFORGE_SKIP_CLIENTS`, clients/mod.rs).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// OpenCode's own agents, listed next to the project's.
const BUILT_IN_AGENTS: [&str; 7] = ["build", "compaction", "explore", "general", "plan", "summary", "title"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn client(var: &str, _id: &str) -> Option<String> {
    clients::client(var)
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        let path =
            std::env::temp_dir().join(format!("plugforge-real-opencode-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What the source declares, read straight from its files.
#[derive(Debug)]
struct Inventory {
    skills: BTreeSet<String>,
    commands: BTreeSet<String>,
    agents: BTreeSet<String>,
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

fn source_inventory(source: &Path) -> Inventory {
    let mcp: Value = std::fs::read(source.join(".mcp.json"))
        .map(|b| serde_json::from_slice(&b).expect("valid .mcp.json"))
        .unwrap_or(Value::Null);
    let servers = mcp.get("mcpServers").unwrap_or(&mcp);
    Inventory {
        skills: stems(&source.join("skills")),
        commands: stems(&source.join("commands")),
        agents: stems(&source.join("agents")),
        mcp_servers: servers.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default(),
    }
}

fn build(source: &Path, out: &Path, extra: &[&str]) {
    let output = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--target", "opencode", "--out", out.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("run plugforge");
    assert!(output.status.success(), "build failed:\n{}", String::from_utf8_lossy(&output.stderr));
}

fn driver(script: &str, args: &[&str]) -> Value {
    clients::judge::judge(script, args)
}

fn names(items: &Value, keep: impl Fn(&Value) -> bool) -> BTreeSet<String> {
    items
        .as_array()
        .expect("list")
        .iter()
        .filter(|i| keep(i))
        .map(|i| i["name"].as_str().unwrap().to_string())
        .collect()
}

/// OpenCode, run in `cwd` with `home` as HOME, lists exactly `expected`,
/// its skills read from `skills_dir`.
fn assert_opencode_loads(
    opencode: &str,
    cwd: &Path,
    home: Option<&Path>,
    skills_dir: &Path,
    expected: &Inventory,
) {
    let mut args = vec!["--opencode", opencode, "--cwd", cwd.to_str().unwrap()];
    if let Some(home) = home {
        args.extend(["--home", home.to_str().unwrap()]);
    }
    let report = driver("opencode_inventory.py", &args);
    let config = &report["debug_config"];
    assert_eq!(config["exit"], 0, "opencode debug config failed: {}", config["stderr"]);
    assert_eq!(report["debug_skill"]["exit"], 0, "debug skill: {}", report["debug_skill"]["stderr"]);
    assert_eq!(report["agent_list"]["exit"], 0, "agent list: {}", report["agent_list"]["stderr"]);

    let ours = |s: &Value| s["location"].as_str().is_some_and(|l| Path::new(l).starts_with(skills_dir));
    assert_eq!(names(&report["skills"], ours), expected.skills, "skills: {}", report["skills"]);
    let project_agents = |a: &Value| !BUILT_IN_AGENTS.contains(&a["name"].as_str().unwrap());
    assert_eq!(names(&report["agents"], project_agents), expected.agents, "agents: {}", report["agents"]);
    let subagents = |a: &Value| project_agents(a) && a["mode"] == "subagent";
    assert_eq!(
        names(&report["agents"], subagents),
        expected.agents,
        "agents are subagents: {}",
        report["agents"]
    );
    let commands: BTreeSet<String> =
        report["commands"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    assert_eq!(commands, expected.commands);
    let mcp = report["mcp"].as_object().expect("mcp object");
    assert_eq!(mcp.keys().cloned().collect::<BTreeSet<_>>(), expected.mcp_servers);
    for (name, server) in mcp {
        assert_eq!(server["enabled"], true, "mcp {name}: {server}");
        assert!(
            ["local", "remote"].contains(&server["type"].as_str().unwrap_or_default()),
            "mcp {name}: {server}"
        );
    }
}

fn assert_skills_ref_accepts(skills_dir: &Path, count: usize) {
    let Some(skills_ref) = client("PLUGFORGE_SKILLS_REF_BIN", "skills-ref") else { return };
    let report =
        driver("skills_ref_validate.py", &["--skills-ref", &skills_ref, skills_dir.to_str().unwrap()]);
    let skills = report["skills"].as_object().expect("skills");
    assert_eq!(skills.len(), count, "{report}");
    for (dir, result) in skills {
        assert_eq!(result["exit"], 0, "skills-ref validate {dir}: {}", result["output"]);
    }
    assert_eq!(report["nested"], serde_json::json!([]));
}

#[test]
fn opencode_loads_the_striatum_project() {
    let Some(opencode) = client("PLUGFORGE_OPENCODE_BIN", "opencode") else { return };
    let tmp = TempDir::new("striatum");
    let source = repo_root().join("examples/striatum");
    build(&source, &tmp.0, &["--var", "runner_version=0.7.3"]);
    let expected = source_inventory(&source);
    assert_eq!((expected.skills.len(), expected.commands.len(), expected.agents.len()), (5, 5, 1));
    let skills = tmp.0.join(".opencode/skills");
    assert_opencode_loads(&opencode, &tmp.0, None, &skills, &expected);
    assert_skills_ref_accepts(&skills, 5);
}

#[test]
fn opencode_loads_the_full_source_in_both_scopes() {
    let Some(opencode) = client("PLUGFORGE_OPENCODE_BIN", "opencode") else { return };
    let source = repo_root().join("tests/vectors/canonical-full/input");
    let expected = source_inventory(&source);
    assert_eq!(expected.mcp_servers.len(), 1, "the full source has an MCP server");

    let project = TempDir::new("full-project");
    build(&source, &project.0, &["--namespace", "dk"]);
    let skills = project.0.join(".opencode/skills");
    assert_opencode_loads(&opencode, &project.0, None, &skills, &expected);
    assert_skills_ref_accepts(&skills, 1);

    // User scope: OUT is the home folder, read from a folder with no project config.
    let home = TempDir::new("full-user");
    build(&source, &home.0, &["--namespace", "dk", "--scope", "user"]);
    let empty = home.0.join("elsewhere");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let skills = home.0.join(".config/opencode/skills");
    assert_opencode_loads(&opencode, &empty, Some(&home.0), &skills, &expected);
    assert!(!home.0.join("opencode.json").exists(), "user scope writes no project opencode.json");
}
