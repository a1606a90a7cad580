use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::schema::check;
use super::*;
use crate::bundle::Bundle;
use crate::options::{BuildOptions, TargetRequest};
use crate::source::SourceTree;

const CONFIG: &str = r#"{"name": "kit", "version": "1.0.0", "description": "A kit", "displayName": "Kit"}"#;

fn source(files: &[(&str, &str)]) -> SourceTree {
    let mut tree = SourceTree::new();
    for (path, text) in files {
        tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
    }
    tree
}

fn build(tree: &SourceTree) -> Bundle {
    let options = BuildOptions { targets: vec![TargetRequest::new("kimi-code")], ..Default::default() };
    crate::build(tree, &options).unwrap().bundles.remove(0)
}

fn text(bundle: &Bundle, path: &str) -> String {
    let file = bundle.files.get(&crate::path::BundlePath::new(path).unwrap()).unwrap_or_else(|| panic!("no {path}"));
    String::from_utf8(file.bytes.to_vec()).unwrap()
}

fn level(bundle: &Bundle, component: &str, name: &str) -> Level {
    bundle
        .honesty
        .iter()
        .find(|r| r.component == component && r.name == name)
        .unwrap_or_else(|| panic!("no {component} {name} row in {:?}", bundle.honesty))
        .level
}

fn output(bundle: &Bundle) -> BTreeMap<String, Vec<u8>> {
    bundle.files.iter().map(|(path, file)| (format!("{}/{path}", bundle.root), file.bytes.to_vec())).collect()
}

/// Ported from Kimi Code's `types.test.ts`: the name pattern.
#[test]
fn plugin_names_follow_kimis_pattern() {
    for good in ["kit", "a", "fr-demo", "my_plugin", "0x", &"a".repeat(64)] {
        assert!(is_plugin_name(good), "{good}");
    }
    for bad in ["", "fr.dotname", "-a", "_a", "Kit", "a b", &"a".repeat(65)] {
        assert!(!is_plugin_name(bad), "{bad}");
    }
}

#[test]
fn a_bundle_names_its_folders_and_holds_servers_and_hooks_inline() {
    let tree = source(&[
        ("plugforge.json", CONFIG),
        ("skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets\n---\nHi\n"),
        ("commands/hello.md", "---\ndescription: Hi\n---\nSay $ARGUMENTS\n"),
        ("commands/ops/deploy.md", "---\ndescription: Deploy\n---\nDeploy $1\n"),
        ("agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews\n---\nReview.\n"),
        ("agents/silent.md", "---\nname: silent\n---\nNo description.\n"),
        ("AGENTS.md", "Use ${PLUGIN_ROOT}/docs\n"),
        ("scripts/guard.sh", "#!/bin/sh\n"),
        ("server.js", "//\n"),
        (
            "hooks/hooks.json",
            r#"{"hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/scripts/guard.sh", "timeout": 900}]}],
                "Stop": [{"matcher": "*", "hooks": [{"type": "command", "command": "echo done"}]}],
                "Setup": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#,
        ),
        (
            ".mcp.json",
            r#"{"mcpServers": {
                "local": {"command": "node", "args": ["${PLUGIN_ROOT}/server.js"]},
                "remote": {"type": "sse", "url": "https://mcp.example.com/sse"},
                "data": {"command": "x", "env": {"D": "${PLUGIN_DATA}"}}}}"#,
        ),
    ]);
    let bundle = build(&tree);
    let manifest: Value = serde_json::from_str(&text(&bundle, facts::MANIFEST_PATH)).unwrap();
    assert_eq!(
        manifest,
        json!({
            "name": "kit", "version": "1.0.0", "description": "A kit",
            "interface": {"displayName": "Kit"},
            "skills": "./skills/", "commands": "./commands/", "agents": "./agents/",
            "systemPromptPath": "./AGENTS.md",
            "mcpServers": {
                "local": {"transport": "stdio", "command": "node", "args": ["./server.js"], "cwd": "./"},
                "remote": {"transport": "sse", "url": "https://mcp.example.com/sse"}},
            "hooks": [
                {"event": "PreToolUse", "matcher": "Bash", "command": "\"${KIMI_PLUGIN_ROOT}/scripts/guard.sh\"", "timeout": 600},
                {"event": "Stop", "command": "echo done"}]
        })
    );
    use Level::*;
    for (component, name, want) in [
        ("skill", "greet", Supported),
        ("command", "hello", Supported),
        ("command", "ops:deploy", Degraded),
        ("agent", "reviewer", Supported),
        ("agent", "silent", Supported),
        ("context", "AGENTS.md", Degraded),
        ("hook", "PreToolUse", Degraded),
        ("hook", "Stop", Supported),
        ("hook", "Setup", Unsupported),
        ("mcp", "local", Supported),
        ("mcp", "remote", Supported),
        ("mcp", "data", Unsupported),
    ] {
        assert_eq!(level(&bundle, component, name), want, "{component} {name}");
    }
    let report = check(&output(&bundle), &bundle.root);
    assert_eq!(report.problems, Vec::<String>::new());
    let loaded: Vec<String> = report.loaded.iter().map(|(c, n)| format!("{c} {n}")).collect();
    assert_eq!(
        loaded,
        ["skill greet", "command hello", "command ops:deploy", "agent reviewer", "agent silent", "mcp local", "mcp remote", "hook PreToolUse", "hook Stop"]
    );
    assert_eq!(report.patterns, [("kimi-code/kimi.plugin.json: hooks[0].matcher".to_string(), "Bash".to_string())]);
}

#[test]
fn the_check_reports_what_kimi_would_refuse() {
    let mut files = BTreeMap::new();
    let manifest = json!({
        "name": "fr.dotname", "tools": [], "skills": "skills",
        "mcpServers": {"abs": {"command": "/usr/bin/x"}},
        "hooks": [{"event": "PreToolUse", "command": "x", "fail_mode": "open"}, {"event": "Nope", "command": "x"}, {"event": "Stop", "command": "x", "timeout": 900}]
    });
    files.insert("p/kimi.plugin.json".to_string(), manifest.to_string().into_bytes());
    files.insert("p/.kimi-plugin/plugin.json".to_string(), b"{}".to_vec());
    let report = check(&files, "p");
    assert_eq!(
        report.problems,
        [
            "p/.kimi-plugin/plugin.json is shadowed by kimi.plugin.json",
            "p/kimi.plugin.json: \"name\" must match /^[a-z0-9][a-z0-9_-]{0,63}$/ (got \"fr.dotname\")",
            "p/kimi.plugin.json: \"tools\" is present but not supported by Kimi plugins",
            "p/kimi.plugin.json: \"skills\" path must start with \"./\" (got \"skills\")",
            "p/kimi.plugin.json: Invalid MCP server \"abs\": \"command\" must be a PATH command or start with \"./\" (got \"/usr/bin/x\")",
            "p/kimi.plugin.json: Invalid hook at index 0: unrecognized key \"fail_mode\"",
            "p/kimi.plugin.json: Invalid hook at index 1: invalid event \"Nope\"",
            "p/kimi.plugin.json: Invalid hook at index 2: timeout 900 is not a whole number of seconds from 1 to 600",
        ]
    );
}

#[test]
fn a_kimi_plugin_reads_back_and_builds_the_same_bytes() {
    let native = source(&[
        (
            "kimi.plugin.json",
            r#"{"name": "kit", "version": "1.0.0", "description": "A kit",
                "interface": {"displayName": "Kit", "shortDescription": "Short"},
                "skills": "./skills", "commands": "./prompts", "sessionStart": {"skill": "greet"},
                "systemPromptPath": "./KIMI.md",
                "mcpServers": {"local": {"command": "node", "args": ["./server.js"], "cwd": "./"}},
                "hooks": [{"event": "Stop", "command": "\"$KIMI_PLUGIN_ROOT\"/done.sh", "timeout": 5}]}"#,
        ),
        ("skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets\n---\nHi\n"),
        ("prompts/hello.md", "---\ndescription: Hi\n---\nSay $ARGUMENTS\n"),
        ("KIMI.md", "Be brief.\n"),
        ("server.js", "//\n"),
        ("done.sh", "#!/bin/sh\n"),
    ]);
    let imported = crate::import(&native, &crate::ImportOptions::default()).unwrap();
    assert_eq!(imported.runtime, crate::runtime::Runtime::KimiCode);
    let get = |p: &str| String::from_utf8(imported.source.get(p).unwrap().bytes.to_vec()).unwrap();
    assert_eq!(get("commands/hello.md"), "---\ndescription: Hi\n---\nSay $ARGUMENTS\n");
    assert_eq!(get("AGENTS.md"), "Be brief.\n");
    let servers: Value = serde_json::from_str(&get(".mcp.json")).unwrap();
    assert_eq!(servers, json!({"mcpServers": {"local": {"command": "node", "args": ["${PLUGIN_ROOT}/server.js"]}}}));
    let config: Value = serde_json::from_str(&get("plugforge.json")).unwrap();
    assert_eq!(config["displayName"], "Kit");
    assert_eq!(config["targets"]["kimi-code"]["manifest"]["sessionStart"], json!({"skill": "greet"}));
    let direct = build(&native);
    let via = build(&imported.source);
    let bytes = |b: &Bundle| b.files.iter().map(|(p, f)| (p.to_string(), f.bytes.to_vec())).collect::<BTreeMap<_, _>>();
    assert_eq!(bytes(&direct), bytes(&via));
    let manifest: Value = serde_json::from_str(&text(&direct, facts::MANIFEST_PATH)).unwrap();
    assert_eq!(manifest["interface"], json!({"displayName": "Kit", "shortDescription": "Short"}));
    assert_eq!(manifest["hooks"], json!([{"event": "Stop", "command": "\"${KIMI_PLUGIN_ROOT}\"/done.sh", "timeout": 5}]));
    assert_eq!(check(&output(&direct), &direct.root).problems, Vec::<String>::new());
}
