//! The Agent Plugins 1.0 package, judged by the clients that read it here:
//! - the Agent Skills reference validator (skills-ref 0.1.5,
//!   core/src/runtime/agent_plugins/drivers/skills_ref_validate.py) accepts every generated skill,
//!   and no SKILL.md sits deeper than `skills/<name>/` (spec 7.1: clients
//!   never look there);
//! - the real Codex CLI (0.171.0, which reads Agent Plugins root manifests)
//!   installs the package from a marketplace with its version read, and its
//!   app-server lists exactly the source's skills and MCP servers
//!   (core/src/runtime/codex/drivers/codex_agent_plugins.py);
//! - the published closed schemas (agentplugins/agent-plugins-spec
//!   `spec/1.0.0.md` 5.2, 7.2.1; formats.md section 5) hold for plugin.json
//!   and mcp.json; this part needs no client and always runs.
//!
//! Needs `PLUGFORGE_SKILLS_REF_BIN` and `PLUGFORGE_CODEX_BIN`
//! (scripts/install-clients skills-ref codex); a missing
//! client fails unless skipped by name (`PLUGFORGE_SKIP_CLIENTS`, clients/mod.rs).

mod clients;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
/// Spec 5.2: the closed top-level key set of plugin.json.
const MANIFEST_KEYS: [&str; 10] = [
    "$schema",
    "name",
    "version",
    "description",
    "author",
    "homepage",
    "repository",
    "license",
    "keywords",
    "extensions",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn client(var: &str, _id: &str) -> Option<String> {
    clients::client(var)
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("plugforge-real-ap-{}-{label}", std::process::id()));
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

/// A source, how to build it, and what it declares.
struct Case {
    source: PathBuf,
    args: &'static [&'static str],
    name: &'static str,
    version: &'static str,
}

fn cases() -> [Case; 2] {
    [
        Case {
            source: repo_root().join("examples/striatum"),
            args: &["--var", "runner_version=0.7.3"],
            name: "striatum",
            version: "0.7.3",
        },
        Case {
            source: repo_root().join("tests/vectors/canonical-full/input"),
            args: &["--namespace", "dk"],
            name: "dk",
            version: "1.4.0",
        },
    ]
}

fn build(case: &Case, out: &Path) -> PathBuf {
    let output = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args([
            "build",
            case.source.to_str().unwrap(),
            "--target",
            "agent-plugins",
            "--out",
            out.to_str().unwrap(),
        ])
        .args(case.args)
        .output()
        .expect("run plugforge");
    assert!(output.status.success(), "build failed:\n{}", String::from_utf8_lossy(&output.stderr));
    out.join("agent-plugins")
}

fn stems(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries.map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect()
        })
        .unwrap_or_default()
}

fn mcp_servers(source: &Path) -> BTreeSet<String> {
    let mcp: Value = std::fs::read(source.join(".mcp.json"))
        .map(|b| serde_json::from_slice(&b).expect("valid .mcp.json"))
        .unwrap_or(Value::Null);
    let servers = mcp.get("mcpServers").unwrap_or(&mcp);
    servers.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("read")).expect("JSON")
}

fn driver(script: &str, args: &[&str]) -> Value {
    clients::judge::judge(script, args)
}

/// Spec 5.5 name rule.
fn is_plugin_name(name: &str) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    (1..=64).contains(&name.len())
        && name.chars().all(|c| alnum(c) || c == '-' || c == '.')
        && name.starts_with(alnum)
        && name.ends_with(alnum)
        && !name.contains("--")
        && !name.contains("..")
}

#[test]
fn the_package_keeps_to_the_published_closed_schemas() {
    for case in cases() {
        let tmp = TempDir::new(&format!("schema-{}", case.name));
        let bundle = build(&case, &tmp.0);
        let manifest = read_json(&bundle.join("plugin.json"));
        let manifest = manifest.as_object().expect("plugin.json is an object");
        for key in manifest.keys() {
            assert!(
                MANIFEST_KEYS.contains(&key.as_str()),
                "plugin.json has {key}, outside the closed schema"
            );
        }
        assert_eq!(manifest["$schema"], PLUGIN_SCHEMA);
        assert!(is_plugin_name(manifest["name"].as_str().unwrap()), "{}", manifest["name"]);
        assert_eq!(manifest["version"], case.version);
        if let Some(author) = manifest.get("author") {
            let author = author.as_object().expect("author object");
            assert!(
                author.iter().all(|(k, v)| ["name", "email", "url"].contains(&k.as_str()) && v.is_string())
            );
        }

        let mcp = read_json(&bundle.join("mcp.json"));
        let keys: BTreeSet<&str> = mcp.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, BTreeSet::from(["$schema", "mcpServers"]));
        assert_eq!(mcp["$schema"], MCP_SCHEMA);
        for (name, server) in mcp["mcpServers"].as_object().unwrap() {
            match server["type"].as_str() {
                Some("stdio") => {
                    let command = server["command"].as_str().unwrap();
                    let bare = !command.contains('/') && !command.contains("${");
                    assert!(bare || command.starts_with("./"), "{name}: command {command} is not one token");
                    if command.starts_with("./") {
                        assert!(bundle.join(command).is_file(), "{name}: {command} is not in the package");
                    }
                    let env = server.get("env").and_then(Value::as_object);
                    assert!(
                        env.is_none_or(|e| !e.contains_key("PLUGIN_ROOT") && !e.contains_key("PLUGIN_DATA"))
                    );
                }
                Some("streamable-http" | "sse") => {
                    assert!(server["url"].as_str().unwrap().starts_with("https://"))
                }
                other => panic!("{name}: type {other:?}"),
            }
        }
        for skill in stems(&bundle.join("skills")) {
            assert!(bundle.join("skills").join(&skill).join("SKILL.md").is_file(), "skills/{skill}/SKILL.md");
        }
        assert!(!bundle.join(".claude-plugin").exists() && !bundle.join(".cursor-plugin").exists());
    }
}

#[test]
fn skills_ref_accepts_every_generated_skill() {
    let Some(skills_ref) = client("PLUGFORGE_SKILLS_REF_BIN", "skills-ref") else { return };
    for case in cases() {
        let tmp = TempDir::new(&format!("skills-{}", case.name));
        let bundle = build(&case, &tmp.0);
        let report = driver(
            "skills_ref_validate.py",
            &["--skills-ref", &skills_ref, bundle.join("skills").to_str().unwrap()],
        );
        let skills = report["skills"].as_object().expect("skills");
        assert_eq!(skills.len(), stems(&case.source.join("skills")).len(), "{report}");
        for (dir, result) in skills {
            assert_eq!(result["exit"], 0, "skills-ref validate {dir}: {}", result["output"]);
        }
        assert_eq!(report["nested"], serde_json::json!([]), "SKILL.md below skills/<name>/");
    }
}

#[test]
fn codex_installs_the_package_and_lists_its_skills_and_servers() {
    let Some(codex) = client("PLUGFORGE_CODEX_BIN", "codex") else { return };
    for case in cases() {
        let tmp = TempDir::new(&format!("codex-{}", case.name));
        let bundle = build(&case, &tmp.0);
        let report = driver(
            "codex_agent_plugins.py",
            &["--codex", &codex, "--plugin-dir", bundle.to_str().unwrap(), "--name", case.name],
        );
        assert_eq!(report["marketplace_add"]["exit"], 0, "marketplace add: {}", report["marketplace_add"]);
        let add = &report["plugin_add"];
        assert_eq!(add["exit"], 0, "plugin add: {}", add["stderr"]);
        assert_eq!(add["parsed"]["version"], case.version, "codex read the version from plugin.json: {add}");
        let read = &report["plugin_read"];
        assert_eq!(read["error"], Value::Null, "plugin/read: {read}");
        assert_eq!(read["version"], case.version);
        let skills: BTreeSet<String> =
            read["skills"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        let expected: BTreeSet<String> =
            stems(&case.source.join("skills")).iter().map(|s| format!("{}:{s}", case.name)).collect();
        assert_eq!(skills, expected, "{read}");
        let servers: BTreeSet<String> =
            read["mcp_servers"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        assert_eq!(servers, mcp_servers(&case.source), "{read}");
        assert_eq!(report["skills_list_errors"], serde_json::json!([]), "codex skill load errors");
    }
}
