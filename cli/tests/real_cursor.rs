//! No Cursor client can run here (Cursor is a desktop app; no CLI validates
//! plugins offline), so this test asserts the published facts instead, on the
//! Striatum example and the full canonical source:
//! - `.cursor-plugin/plugin.json` against Cursor's closed JSON Schema (repo
//!   cursor/plugins `schemas/plugin.schema.json`: `additionalProperties:
//!   false`, the name pattern, `author` of `name` + `email` only, `homepage`
//!   and `repository` URIs), and no root `plugin.json` beside it;
//! - `.cursor-plugin/marketplace.json` against the marketplace schema
//!   (formats.md 4.5: closed, entries `{name, source, description?}`, no
//!   version or category) and the template validator's name patterns and
//!   entry name == plugin name (cursor/plugin-template
//!   `scripts/validate-template.mjs`);
//! - the template validator's frontmatter rules: skills and agents carry
//!   `name` + `description`, rules carry `description`, commands `name`;
//! - `mcp.json` without a dot holding `mcpServers`, and `hooks/hooks.json` in
//!   the camelCase dialect with only events Cursor's hooks docs list.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// `schemas/plugin.schema.json` properties.
const MANIFEST_KEYS: [&str; 21] = [
    "name",
    "displayName",
    "description",
    "version",
    "minClientVersions",
    "author",
    "publisher",
    "homepage",
    "repository",
    "license",
    "logo",
    "keywords",
    "category",
    "tags",
    "commands",
    "agents",
    "skills",
    "rules",
    "hooks",
    "variables",
    "mcpServers",
];
const MARKETPLACE_KEYS: [&str; 4] = ["name", "owner", "metadata", "plugins"];
const ENTRY_KEYS: [&str; 4] = ["name", "source", "description", "minClientVersions"];
/// Agent events of Cursor's hooks documentation (formats.md 4.4).
const CURSOR_EVENTS: [&str; 18] = [
    "sessionStart",
    "sessionEnd",
    "preToolUse",
    "postToolUse",
    "postToolUseFailure",
    "subagentStart",
    "subagentStop",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "beforeReadFile",
    "afterFileEdit",
    "beforeSubmitPrompt",
    "preCompact",
    "stop",
    "afterAgentResponse",
    "afterAgentThought",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("plugforge-cursor-{}-{label}", std::process::id()));
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

fn build(source: &Path, out: &Path, extra: &[&str]) {
    let output = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", source.to_str().unwrap(), "--target", "cursor", "--out", out.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("run plugforge");
    assert!(output.status.success(), "build failed:\n{}", String::from_utf8_lossy(&output.stderr));
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .expect("JSON")
}

/// `^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$` (plugin) or without dots (marketplace).
fn matches_name(name: &str, dots: bool) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    name.chars().all(|c| alnum(c) || c == '-' || (dots && c == '.'))
        && name.starts_with(alnum)
        && name.ends_with(alnum)
}

/// The frontmatter keys of a Markdown file, read line by line the way the
/// template validator does.
fn frontmatter_keys(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).expect("read");
    let block = text.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")).map(|(b, _)| b);
    let block = block.unwrap_or_else(|| panic!("{} has no frontmatter", path.display()));
    block
        .lines()
        .filter(|l| !l.starts_with([' ', '#', '-']))
        .filter_map(|l| l.split_once(':'))
        .map(|(k, _)| k.trim().to_string())
        .collect()
}

fn markdown_files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(markdown_files(&path, suffix));
        } else if path.to_string_lossy().ends_with(suffix) {
            out.push(path);
        }
    }
    out
}

fn check_manifest(bundle: &Path) -> String {
    let manifest = read_json(&bundle.join(".cursor-plugin/plugin.json"));
    let manifest = manifest.as_object().expect("object");
    for key in manifest.keys() {
        assert!(MANIFEST_KEYS.contains(&key.as_str()), "plugin.json has {key}: the schema is closed");
    }
    let name = manifest["name"].as_str().expect("name");
    assert!(matches_name(name, true), "name {name}");
    if let Some(author) = manifest.get("author") {
        let keys: BTreeSet<&str> = author.as_object().unwrap().keys().map(String::as_str).collect();
        assert!(
            keys.contains("name") && keys.is_subset(&BTreeSet::from(["name", "email"])),
            "author {author}"
        );
    }
    for key in ["homepage", "repository"] {
        if let Some(uri) = manifest.get(key) {
            assert!(uri.as_str().unwrap().contains("://"), "{key} must be a URI");
        }
    }
    assert!(!bundle.join("plugin.json").exists(), "a root plugin.json beside .cursor-plugin/ is ambiguous");
    name.to_string()
}

fn check_marketplace(out: &Path, plugin: &str) {
    let marketplace = read_json(&out.join(".cursor-plugin/marketplace.json"));
    let object = marketplace.as_object().expect("object");
    assert!(object.keys().all(|k| MARKETPLACE_KEYS.contains(&k.as_str())), "{marketplace}");
    assert!(matches_name(marketplace["name"].as_str().unwrap(), false), "{}", marketplace["name"]);
    let owner: BTreeSet<&str> =
        marketplace["owner"].as_object().unwrap().keys().map(String::as_str).collect();
    assert!(owner.contains("name") && owner.is_subset(&BTreeSet::from(["name", "email"])));
    let entries = marketplace["plugins"].as_array().expect("plugins");
    assert_eq!(entries.len(), 1);
    let entry = entries[0].as_object().unwrap();
    assert!(entry.keys().all(|k| ENTRY_KEYS.contains(&k.as_str())), "entry {entries:?}");
    assert_eq!(entry["name"], plugin, "marketplace entry name == plugin.json name");
    let source = entry["source"].as_str().unwrap();
    assert!(out.join(source).join(".cursor-plugin/plugin.json").is_file(), "source {source}");
}

fn check_components(bundle: &Path) {
    for skill in markdown_files(&bundle.join("skills"), "/SKILL.md") {
        let keys = frontmatter_keys(&skill);
        assert!(keys.contains("name") && keys.contains("description"), "{}: {keys:?}", skill.display());
        assert!(!keys.contains("when_to_use"), "{}: when_to_use is folded", skill.display());
    }
    for agent in markdown_files(&bundle.join("agents"), ".md") {
        assert_eq!(
            frontmatter_keys(&agent),
            BTreeSet::from(["name".into(), "description".into()]),
            "{}",
            agent.display()
        );
    }
    for command in markdown_files(&bundle.join("commands"), ".md") {
        let keys = frontmatter_keys(&command);
        assert!(
            keys.contains("name") && keys.is_subset(&BTreeSet::from(["name".into(), "description".into()]))
        );
    }
    for rule in markdown_files(&bundle.join("rules"), ".mdc") {
        assert!(frontmatter_keys(&rule).contains("description"), "{}", rule.display());
    }
    assert!(!bundle.join(".mcp.json").exists(), "Cursor reads mcp.json, without a dot");
    assert!(read_json(&bundle.join("mcp.json"))["mcpServers"].is_object());
    let hooks = read_json(&bundle.join("hooks/hooks.json"));
    assert_eq!(hooks["version"], 1);
    for (event, entries) in hooks["hooks"].as_object().unwrap() {
        assert!(
            CURSOR_EVENTS.contains(&event.as_str()),
            "hook event {event} is not a documented Cursor event"
        );
        for entry in entries.as_array().unwrap() {
            assert!(entry.get("hooks").is_none(), "Cursor hook entries are flat: {entry}");
            assert!(entry.get("command").is_some() || entry["type"] == "prompt", "{entry}");
        }
    }
}

#[test]
fn cursor_bundles_keep_to_the_published_schemas() {
    let sources: [(PathBuf, &[&str]); 2] = [
        (repo_root().join("examples/striatum"), &["--var", "runner_version=0.7.3"]),
        (repo_root().join("tests/vectors/canonical-full/input"), &["--namespace", "dk"]),
    ];
    for (index, (source, args)) in sources.iter().enumerate() {
        let tmp = TempDir::new(&index.to_string());
        build(source, &tmp.0, args);
        let bundle = tmp.0.join("cursor");
        let name = check_manifest(&bundle);
        check_marketplace(&tmp.0, &name);
        check_components(&bundle);
    }
}
