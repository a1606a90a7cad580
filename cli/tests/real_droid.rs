//! The real Factory Droid CLI (`droid` 0.215.0) judges what plugforge builds,
//! offline in a throwaway HOME, through core/src/runtime/factory_droid/drivers/droid_inventory.py:
//! `droid plugin marketplace add <output root>` and `droid plugin install`,
//! then one `droid exec` JSON-RPC session lists the skills, commands, MCP
//! servers and droids it loaded. The plugin built from Striatum with
//! `--target all` must load every skill, command and droid, each command
//! described by the heading the build wrote; a plugin's MCP servers must be
//! listed; and `plugforge verify`'s reading of the same report must pass.
//! Needs `PLUGFORGE_DROID_BIN` (scripts/install-clients droid); a missing
//! client fails unless it is skipped by name (`PLUGFORGE_SKIP_CLIENTS=droid`).

mod clients;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use clients::judge::{assert_passed, entries, json_keys, judge, repo_root, verdict};
use serde_json::Value;

fn droid_bin() -> Option<String> {
    clients::client("PLUGFORGE_DROID_BIN")
}

/// A fresh scratch folder, removed when dropped.
struct Out(PathBuf);

impl Out {
    fn new(name: &str) -> Out {
        let dir = std::env::temp_dir().join(format!("plugforge-real-droid-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Out(dir)
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn build(source: &Path, out: &Path, target: &str, vars: &[&str]) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_plugforge"));
    command.args(["build", source.to_str().unwrap(), "--target", target, "--out", out.to_str().unwrap()]);
    for var in vars {
        command.args(["--var", var]);
    }
    let status = command.status().expect("run plugforge");
    assert!(status.success(), "build of {} failed", source.display());
}

/// The driver's report on the plugin `name` of the marketplace at `root`,
/// after checking that every step ran and the session answered.
fn inventory(droid: &str, root: &Path, name: &str) -> Value {
    let report =
        judge("droid_inventory.py", &["--droid", droid, "--root", root.to_str().unwrap(), "--plugin", name]);
    for step in ["marketplace_add", "install", "plugin_list", "inventory_run"] {
        assert_eq!(report[step]["exit"], 0, "{step}: {report}");
    }
    assert_eq!(report["inventory"]["errors"], serde_json::json!({}), "{report}");
    let listed = report["plugin_list"]["stdout"].as_str().unwrap_or_default();
    assert!(listed.contains(&format!("{name}@plugforge-marketplace")), "{listed}");
    report
}

fn names(list: &Value) -> BTreeSet<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|v| v["name"].as_str().expect("a name").to_string())
        .collect()
}

/// Every file below `dir`, by the name Droid gives a command (its base name
/// without the extension), with the file's first line.
fn commands_below(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(read) = std::fs::read_dir(&folder) else { continue };
        for path in read.map(|e| e.unwrap().path()) {
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let first = text.lines().next().unwrap_or_default().to_string();
            out.insert(path.file_stem().unwrap().to_str().unwrap().to_string(), first);
        }
    }
    out
}

#[test]
fn droid_loads_every_skill_command_and_droid_of_the_striatum_plugin_built_for_every_runtime() {
    let Some(droid) = droid_bin() else { return };
    let out = Out::new("striatum");
    build(&repo_root().join("examples/striatum"), &out.0, "all", &["runner_version=0.7.3"]);
    let bundle = out.0.join("factory-droid");
    let report = inventory(&droid, &out.0, "striatum");
    let inventory = &report["inventory"];

    let skills = entries(&bundle.join("skills"), true);
    assert_eq!(skills.len(), 5, "{skills:?}");
    let loaded: BTreeSet<String> = names(&inventory["skills"]);
    assert!(skills.is_subset(&loaded), "skills {skills:?} not all in {loaded:?}");
    for skill in inventory["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| skills.contains(s["name"].as_str().unwrap()))
    {
        assert_eq!(skill["enabled"], true, "{skill}");
        let path = skill["filePath"].as_str().unwrap();
        assert!(path.contains("/.factory/plugins/cache/plugforge-marketplace-"), "{path}");
    }

    // Every command, listed under its file's name and described by its heading.
    let built = commands_below(&bundle.join("commands"));
    assert_eq!(built.len(), 5, "{built:?}");
    let listed: BTreeMap<String, String> = inventory["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap().to_string(), c["description"].as_str().unwrap().to_string()))
        .collect();
    for (name, first) in &built {
        let heading = first.strip_prefix("# ").unwrap_or_else(|| panic!("{name}: no heading: {first:?}"));
        assert_eq!(listed.get(name).map(String::as_str), Some(heading), "{name}: {listed:?}");
    }

    let droids = entries(&bundle.join("droids"), false);
    assert_eq!(droids, BTreeSet::from(["striatum-recover".to_string()]));
    let seeded: BTreeSet<String> =
        report["seeded_droids"].as_array().unwrap().iter().map(|d| d.as_str().unwrap().to_string()).collect();
    let loaded_droids: BTreeSet<String> = names(&inventory["droids"]).difference(&seeded).cloned().collect();
    assert_eq!(loaded_droids, droids, "{inventory}");

    assert_passed(&verdict("factory-droid", "droid", &report, &bundle, ".plugforge-manifest.json"));
}

#[test]
fn droid_lists_the_mcp_servers_of_a_plugin_and_verify_names_a_missing_command() {
    let Some(droid) = droid_bin() else { return };
    let out = Out::new("mcp");
    let source = out.0.join("source");
    std::fs::create_dir_all(source.join("commands")).unwrap();
    std::fs::write(
        source.join("plugforge.json"),
        r#"{"name": "mcp-kit", "version": "1.0.0", "description": "MCP servers for Droid"}"#,
    )
    .unwrap();
    std::fs::write(
        source.join(".mcp.json"),
        r#"{"mcpServers": {
            "docs": {"command": "npx", "args": ["-y", "@example/docs-mcp"]},
            "tracker": {"type": "http", "url": "https://mcp.example.com/tracker"},
            "events": {"type": "sse", "url": "https://mcp.example.com/sse"},
            "local": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/server"}}}"#,
    )
    .unwrap();
    std::fs::write(
        source.join("commands/hello.md"),
        "---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS.\n",
    )
    .unwrap();
    let built = out.0.join("built");
    build(&source, &built, "factory-droid", &[]);
    let bundle = built.join("factory-droid");
    let servers = json_keys(&bundle.join("mcp.json"), "/mcpServers");
    // The server that names the plugin folder cannot start from Droid's
    // install, so the build leaves it out (its honesty row says why).
    assert_eq!(servers, BTreeSet::from(["docs".to_string(), "events".to_string(), "tracker".to_string()]));
    let report = inventory(&droid, &built, "mcp-kit");
    let listed = &report["inventory"]["mcpServers"];
    assert_eq!(names(listed), servers, "{listed}");
    for server in listed.as_array().unwrap() {
        assert_eq!(server["source"], "user", "{server}");
    }
    let types: BTreeMap<String, String> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["serverType"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(types["docs"], "stdio");
    assert_eq!(types["tracker"], "http");
    assert_eq!(types["events"], "sse");
    assert_eq!(names(&report["inventory"]["commands"]), BTreeSet::from(["hello".to_string()]));
    assert_passed(&verdict("factory-droid", "droid", &report, &bundle, ".plugforge-manifest.json"));

    // The same report without the command: verify's reading names it and its file.
    let mut partial = report.clone();
    partial["inventory"]["commands"] = serde_json::json!([]);
    let reading = verdict("factory-droid", "droid", &partial, &bundle, ".plugforge-manifest.json");
    assert!(!reading.passed());
    assert_eq!(reading.missing.len(), 1, "{reading:#?}");
    assert_eq!(
        (reading.missing[0].name.as_str(), reading.missing[0].file.as_str()),
        ("hello", "commands/hello.md")
    );
}

/// The names of the universal build's rows for Factory Droid of `component`
/// that are not left out.
fn droid_rows(report: &Value, component: &str) -> BTreeSet<String> {
    report["honesty"]
        .as_array()
        .expect("honesty rows")
        .iter()
        .filter(|row| row["component"] == component && row["level"] != "unsupported")
        .filter(|row| row["detail"].as_str().is_some_and(|d| d.starts_with("Factory Droid: ")))
        .map(|row| row["name"].as_str().unwrap().to_string())
        .collect()
}

/// The universal folder has no `.factory-plugin/`, so Droid installs it from
/// the output root's Claude Code marketplace as a Claude Code plugin (its
/// `agents/` as `droids/`, its `.mcp.json` as `mcp.json`): every skill,
/// command and agent the folder's Droid rows carry is listed, and every
/// server of its `.mcp.json`, the one naming the plugin folder included
/// (its row says it cannot start).
#[test]
fn droid_installs_the_universal_folder_as_a_claude_code_plugin_and_loads_what_its_rows_say() {
    let Some(droid) = droid_bin() else { return };
    // Beside the example and the reference source, a plugin with an agent
    // below a sub-folder of agents/, which Droid's flat droids/ never reads.
    let scratch = Out::new("universal-source");
    let nested = scratch.0.join("nested-kit");
    std::fs::create_dir_all(nested.join("agents/team")).unwrap();
    std::fs::create_dir_all(nested.join("commands")).unwrap();
    std::fs::create_dir_all(nested.join("skills/look")).unwrap();
    std::fs::write(
        nested.join("skills/look/SKILL.md"),
        "---\nname: look\ndescription: Looks around\n---\nLook.\n",
    )
    .unwrap();
    std::fs::write(
        nested.join("plugforge.json"),
        r#"{"name": "nested-kit", "version": "1.0.0", "description": "A kit"}"#,
    )
    .unwrap();
    std::fs::write(nested.join("commands/go.md"), "---\ndescription: Go\n---\nGo to $ARGUMENTS.\n").unwrap();
    std::fs::write(
        nested.join("agents/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews\n---\nReview.\n",
    )
    .unwrap();
    std::fs::write(nested.join("agents/team/lead.md"), "---\nname: lead\ndescription: Leads\n---\nLead.\n")
        .unwrap();
    let cases: [(PathBuf, &[&str]); 3] = [
        (repo_root().join("examples/striatum"), &["--var", "runner_version=0.7.3"]),
        (repo_root().join("tests/vectors/canonical-full/input"), &["--namespace", "dk"]),
        (nested, &[]),
    ];
    for (source, extra) in cases {
        let source = source.display().to_string();
        let out = Out::new("universal");
        let mut command = Command::new(env!("CARGO_BIN_EXE_plugforge"));
        command.args(["build", &source, "--target", "universal", "--json"]);
        command.args(["--out", out.0.to_str().unwrap()]).args(extra);
        let built = command.output().expect("run plugforge");
        assert!(built.status.success(), "{source}: {}", String::from_utf8_lossy(&built.stderr));
        let build: Value = serde_json::from_slice(&built.stdout).expect("the build's JSON report");
        let manifest: Value = serde_json::from_slice(
            &std::fs::read(out.0.join("universal/.claude-plugin/plugin.json"))
                .expect("the Claude Code manifest"),
        )
        .unwrap();
        let name = manifest["name"].as_str().expect("a plugin name").to_string();
        let report = inventory(&droid, &out.0, &name);
        let inventory = &report["inventory"];

        let skills = droid_rows(&build, "skill");
        assert!(!skills.is_empty(), "{source}: no skill rows for Factory Droid");
        let listed_skills = names(&inventory["skills"]);
        assert!(skills.is_subset(&listed_skills), "{source}: skills {skills:?} not all in {listed_skills:?}");

        let commands = droid_rows(&build, "command");
        assert!(!commands.is_empty(), "{source}: no command rows for Factory Droid");
        assert_eq!(names(&inventory["commands"]), commands, "{source}");

        let seeded: BTreeSet<String> = report["seeded_droids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect();
        let droids: BTreeSet<String> = names(&inventory["droids"]).difference(&seeded).cloned().collect();
        assert_eq!(droids, droid_rows(&build, "agent"), "{source}");
        assert!(!droids.contains("lead"), "{source}: a droid below a sub-folder loaded: {droids:?}");

        let servers = json_keys(&out.0.join("universal/.mcp.json"), "/mcpServers");
        assert_eq!(names(&inventory["mcpServers"]), servers, "{source}");
    }
}
