use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::schema::{check, check_marketplace, is_regex_form, is_simple_form};
use super::*;
use crate::bundle::Bundle;
use crate::options::{BuildOptions, TargetRequest};
use crate::source::SourceTree;

const CONFIG: &str = r#"{"name": "kit", "version": "1.0.0", "description": "A kit"}"#;

fn source(files: &[(&str, &str)]) -> SourceTree {
    let mut tree = SourceTree::new();
    for (path, text) in files {
        tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
    }
    tree
}

fn build(files: &[(&str, &str)]) -> Result<Bundle> {
    let options = BuildOptions { targets: vec![TargetRequest::new("grok-build")], ..Default::default() };
    Ok(crate::build(&source(files), &options)?.bundles.remove(0))
}

fn text(bundle: &Bundle, path: &str) -> String {
    let file = bundle
        .files
        .get(&crate::path::BundlePath::new(path).unwrap())
        .unwrap_or_else(|| panic!("{path} not in {:?}", bundle.files.keys().collect::<Vec<_>>()));
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

/// The bundle's files below the output root, for the schema check.
fn output(bundle: &Bundle) -> BTreeMap<String, Vec<u8>> {
    bundle.files.iter().map(|(path, file)| (format!("{}/{path}", bundle.root), file.bytes.to_vec())).collect()
}

/// Ported from Grok Build's `manifest.rs` (`valid_plugin_names`).
#[test]
fn valid_plugin_names() {
    for name in ["my-plugin", "a", "deployment-tools", "plugin123", "a-b-c"] {
        assert!(is_plugin_name(name), "{name}");
    }
}

/// Ported from Grok Build's `manifest.rs` (`invalid_plugin_names`).
#[test]
fn invalid_plugin_names() {
    for name in ["", "-start", "end-", "UPPER", "has space", "has_underscore", "has.dot", &"a".repeat(65)] {
        assert!(!is_plugin_name(name), "{name}");
    }
}

/// Ported from Grok Build's `matcher.rs`: exact names and `|` lists are not
/// regular expressions; `*`, the empty pattern and names are never compiled.
#[test]
fn matchers_are_exact_names_or_regular_expressions() {
    assert!(is_simple_form("run_terminal_command"));
    assert!(is_simple_form("read_file|list_dir"));
    assert!(is_simple_form("Edit|Write"));
    for simple in ["", "*", "Bash", "Write|Edit"] {
        assert!(!is_regex_form(simple), "{simple}");
    }
    for regex in ["^run_.*", "^Bash$", "[invalid", "  ", "mcp__.*"] {
        assert!(is_regex_form(regex), "{regex}");
    }
}

/// Ported from Grok Build's `index.rs` (`parse_marketplace_json`).
#[test]
fn parse_marketplace_json() {
    let json = r#"{
        "$schema": "https://anthropic.com/claude-code/marketplace.schema.json",
        "name": "test-marketplace",
        "description": "Test marketplace",
        "owner": { "name": "Test" },
        "plugins": [{
            "name": "test-plugin",
            "description": "A test plugin",
            "category": "development",
            "author": { "name": "Test Author" },
            "source": { "type": "local", "path": "./plugins/test-plugin" },
            "homepage": "https://example.com",
            "tags": ["test", "example"],
            "keywords": ["kw1", "kw2"]
        }]
    }"#;
    let entries = check_marketplace(facts::MARKETPLACE_PATH, json.as_bytes()).unwrap();
    assert_eq!(entries, [("test-plugin".to_string(), Some("plugins/test-plugin".to_string()))]);
}

#[test]
fn marketplace_sources_as_grok_reads_them() {
    let sha = "7f9d7823a68a7668867786a573ef587ef2783f7d";
    let good = json!({"name": "m", "plugins": [
        {"name": "a", "source": "./a"},
        {"name": "b", "source": {"source": "url", "url": "https://github.com/o/b.git", "sha": sha}, "domains": ["x.com"]},
    ]});
    let entries = check_marketplace(facts::MARKETPLACE_PATH, good.to_string().as_bytes()).unwrap();
    assert_eq!(entries, [("a".into(), Some("a".into())), ("b".into(), None)]);
    let bad = json!({"plugins": [
        {"name": "gh", "source": {"source": "github", "repo": "o/r"}},
        {"name": "unpinned", "source": {"source": "url", "url": "https://github.com/o/r.git"}},
        {"name": "up", "source": "../elsewhere", "tags": "x"},
    ]});
    let problems = check_marketplace(facts::MARKETPLACE_PATH, bad.to_string().as_bytes()).unwrap_err();
    assert_eq!(
        problems,
        [
            ".grok-plugin/marketplace.json: \"name\" is required and a string",
            ".grok-plugin/marketplace.json: plugins[0]: missing source path",
            ".grok-plugin/marketplace.json: plugins[1]: a url source needs a 40-hex lowercase \"sha\"",
            ".grok-plugin/marketplace.json: plugins[2]: \"tags\" must be a list of strings",
            ".grok-plugin/marketplace.json: plugins[2]: source path \"../elsewhere\" leaves the marketplace",
        ]
    );
}

#[test]
fn the_check_reads_the_first_manifest_and_marketplace_grok_finds() {
    let mut files = BTreeMap::new();
    let mut put = |path: &str, text: &str| files.insert(path.to_string(), text.as_bytes().to_vec());
    put("b/plugin.json", r#"{"name": "x", "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"}"#);
    put("b/.claude-plugin/plugin.json", r#"{"name": "Not_Read"}"#);
    put("b/skills/s/SKILL.md", "---\nname: s\ndescription: d\n---\nbody\n");
    put(".claude-plugin/marketplace.json", r#"{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "x", "source": "./b"}]}"#);
    let report = check(&files, "b");
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.loaded, [(Component::Skill, "s".to_string())]);

    files.insert(".claude-plugin/marketplace.json".into(), br#"{"name": "m", "plugins": [{"name": "y", "source": "./b"}]}"#.to_vec());
    assert_eq!(
        check(&files, "b").problems,
        [".claude-plugin/marketplace.json: the entry for ./b is named \"y\", its plugin \"x\""]
    );
    files.insert("b/.grok-plugin/plugin.json".into(), br#"{"name": "x"}"#.to_vec());
    assert_eq!(
        check(&files, "b").problems,
        ["b/a root plugin.json shadows .grok-plugin/plugin.json: Grok reads it first"]
    );
}

#[test]
fn the_check_refuses_what_grok_would_skip() {
    let mut files = BTreeMap::new();
    let mut put = |path: &str, text: &str| files.insert(format!("b/{path}"), text.as_bytes().to_vec());
    put(".grok-plugin/plugin.json", r#"{"name": "My_Kit", "keywords": "k", "skills": "../s"}"#);
    put("commands/deep/x.md", "x\n");
    put(
        "hooks/hooks.json",
        r#"{"hooks": {"Setup": [], "PreToolUse": [{"matcher": "^Bash(", "hooks": [{"command": "x"}, {"type": "prompt", "prompt": "p"}, {"type": "command", "command": "y", "timeout": 1.5}]}]}}"#,
    );
    put(".mcp.json", r#"{"mcpServers": {"s": {"args": ["a"]}}}"#);
    let report = check(&files, "b");
    assert_eq!(
        report.problems,
        [
            "b/.grok-plugin/plugin.json: invalid plugin name \"My_Kit\": must be 1-64 chars, lowercase alphanumeric + hyphens, no leading/trailing hyphens",
            "b/.grok-plugin/plugin.json: \"keywords\" must be a list of strings",
            "b/.grok-plugin/plugin.json: \"skills\" path \"../s\" leaves the plugin root; Grok skips it",
            "b/commands/deep/x.md: below a sub-folder of commands/, which Grok does not scan",
            "b/hooks/hooks.json: plugin skipped unsupported event 'Setup'",
            "b/hooks/hooks.json: PreToolUse handler has no \"type\", which Grok requires",
            "b/hooks/hooks.json: PreToolUse handler type \"prompt\" fails the whole file",
            "b/hooks/hooks.json: PreToolUse handler \"timeout\" must be whole seconds (u64)",
            "b/.mcp.json: server s has neither a command nor a url",
        ]
    );
    assert_eq!(report.patterns, [("hooks/hooks.json: PreToolUse matcher".to_string(), "^Bash(".to_string())]);
}

#[test]
fn a_bundle_is_claude_codes_layout_under_grok_builds_manifest() {
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        ("skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets\n---\nRun ${PLUGIN_ROOT}/x\n"),
        ("commands/hello.md", "---\ndescription: Hi\n---\nSay $ARGUMENTS\n"),
        ("commands/ops/deploy.md", "---\ndescription: Deploy\n---\nDeploy\n"),
        ("agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews\n---\nReview.\n"),
        ("agents/risky.md", "---\nname: risky\ndescription: R\npermissionMode: bypassPermissions\n---\nGo.\n"),
        (
            "hooks/hooks.json",
            r#"{"hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/guard.sh", "timeout": 10}]}],
                "Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}],
                "UserPromptSubmit": [{"matcher": "x", "hooks": [{"type": "prompt", "prompt": "p"}]}],
                "Setup": [{"hooks": [{"type": "command", "command": "x", "timeout": 1}]}]}}"#,
        ),
        (".mcp.json", r#"{"mcpServers": {"local": {"command": "${PLUGIN_ROOT}/bin/s"}, "remote": {"url": "https://mcp.example.com/x"}}}"#),
        ("AGENTS.md", "Context\n"),
        ("plugin.json", r#"{"name": "kit"}"#),
    ])
    .unwrap();
    let manifest: Value = serde_json::from_str(&text(&bundle, facts::MANIFEST_PATH)).unwrap();
    assert_eq!(manifest, json!({"name": "kit", "version": "1.0.0", "description": "A kit"}));
    assert_eq!(text(&bundle, "skills/greet/SKILL.md"), "---\nname: greet\ndescription: Greets\n---\nRun ${CLAUDE_PLUGIN_ROOT}/x\n");
    assert!(!bundle.files.contains_key(&crate::path::BundlePath::new("plugin.json").unwrap()));
    let hooks: Value = serde_json::from_str(&text(&bundle, facts::HOOKS_FILE)).unwrap();
    assert_eq!(
        hooks,
        json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/guard.sh\"", "timeout": 10}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}})
    );
    let mcp: Value = serde_json::from_str(&text(&bundle, facts::MCP_FILE)).unwrap();
    assert_eq!(
        mcp,
        json!({"mcpServers": {"local": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/s"}, "remote": {"url": "https://mcp.example.com/x", "type": "http"}}})
    );
    use Level::*;
    for (component, name, want) in [
        ("skill", "greet", Supported),
        ("command", "hello", Supported),
        ("command", "ops:deploy", Unsupported),
        ("agent", "reviewer", Supported),
        ("agent", "risky", Degraded),
        ("hook", "PreToolUse", Supported),
        ("hook", "Stop", Supported),
        ("hook", "UserPromptSubmit", Unsupported),
        ("hook", "Setup", Unsupported),
        ("mcp", "local", Supported),
        ("mcp", "remote", Supported),
        ("context", "AGENTS.md", Unsupported),
    ] {
        assert_eq!(level(&bundle, component, name), want, "{component} {name}");
    }
    let report = check(&output(&bundle), &bundle.root);
    assert_eq!(report.problems, Vec::<String>::new());
    let loaded: Vec<String> = report.loaded.iter().map(|(c, n)| format!("{c} {n}")).collect();
    assert_eq!(
        loaded,
        ["skill greet", "command hello", "agent reviewer", "agent risky", "hook PreToolUse", "hook Stop", "mcp local", "mcp remote"]
    );
}

#[test]
fn a_handler_without_a_timeout_outside_the_stop_gates_is_said() {
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        ("hooks/hooks.json", r#"{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#),
    ])
    .unwrap();
    assert_eq!(level(&bundle, "hook", "PostToolUse"), Level::Degraded);
    let row = bundle.honesty.iter().find(|r| r.name == "PostToolUse").unwrap();
    assert!(row.detail.contains("stopped after 5 s"), "{}", row.detail);
}

#[test]
fn a_grok_plugin_reads_back_into_the_source_it_came_from() {
    let native = source(&[
        (".grok-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0", "description": "A kit", "lspServers": "./.lsp.json"}"#),
        ("skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets\n---\nRun ${GROK_PLUGIN_ROOT}/x\n"),
        ("hooks/hooks.json", r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${GROK_PLUGIN_ROOT}/s.sh", "timeout": 3}]}]}}"#),
    ]);
    let imported = crate::import(&native, &crate::ImportOptions::default()).unwrap();
    assert_eq!(imported.runtime, crate::runtime::Runtime::GrokBuild);
    let skill = String::from_utf8(imported.source.get("skills/greet/SKILL.md").unwrap().bytes.to_vec()).unwrap();
    assert_eq!(skill, "---\nname: greet\ndescription: Greets\n---\nRun ${PLUGIN_ROOT}/x\n");
    let config: Value = serde_json::from_slice(&imported.source.get("plugforge.json").unwrap().bytes).unwrap();
    assert_eq!(config["targets"]["grok-build"]["manifest"]["lspServers"], "./.lsp.json");
    let options = BuildOptions { targets: vec![TargetRequest::new("grok-build")], ..Default::default() };
    let direct = crate::build(&native, &options).unwrap().bundles.remove(0);
    let via_import = crate::build(&imported.source, &options).unwrap().bundles.remove(0);
    let bytes = |b: &Bundle| b.files.iter().map(|(p, f)| (p.to_string(), f.bytes.to_vec())).collect::<BTreeMap<_, _>>();
    assert_eq!(bytes(&direct), bytes(&via_import));
    let manifest: Value = serde_json::from_str(&text(&direct, facts::MANIFEST_PATH)).unwrap();
    assert_eq!(manifest["lspServers"], "./.lsp.json");
}

/// A Claude Code layout keeps an agent without `name` and a prompt hook
/// handler, which Grok's own bundle names and leaves out: read through the
/// universal folder, Grok skips the agent and drops the whole hooks file,
/// and its rows there say so, as its schema check finds.
#[test]
fn in_the_universal_folder_grok_loads_claude_codes_files_as_they_are() {
    let files = [
        ("plugforge.json", CONFIG),
        ("agents/reviewer.md", "---\ndescription: Reviews\n---\nReview.\n"),
        ("commands/go.md", "---\ndescription: Go\n---\nGo.\n"),
        ("commands/deep/x.md", "---\ndescription: X\n---\nX.\n"),
        (
            "hooks/hooks.json",
            r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "a", "timeout": 9}, {"type": "prompt", "prompt": "p"}]}], "Setup": [{"hooks": [{"type": "command", "command": "b"}]}]}}"#,
        ),
    ];
    let own = build(&files).unwrap();
    assert_eq!(level(&own, "agent", "reviewer"), Level::Degraded);
    assert_eq!(level(&own, "hook", "PreToolUse"), Level::Degraded);

    let options = BuildOptions { targets: vec![TargetRequest::new("universal")], ..Default::default() };
    let universal = crate::build(&source(&files), &options).unwrap().bundles.remove(0);
    let grok = |component: &str, name: &str| {
        universal
            .honesty
            .iter()
            .find(|r| r.component == component && r.name == name && r.detail.starts_with("Grok Build: "))
            .map(|r| (r.level, r.detail.clone()))
            .unwrap_or_else(|| panic!("no Grok Build {component} {name} row in {:?}", universal.honesty))
    };
    let (agent, why) = grok("agent", "reviewer");
    assert_eq!(agent, Level::Unsupported);
    assert!(why.contains("no `name`"), "{why}");
    assert_eq!(grok("command", "go").0, Level::Supported);
    assert_eq!(grok("command", "deep:x").0, Level::Unsupported);
    for event in ["PreToolUse", "Setup"] {
        let (hook, why) = grok("hook", event);
        assert_eq!(hook, Level::Unsupported, "{event}");
        assert!(why.contains("a PreToolUse handler is of type \"prompt\""), "{why}");
    }

    let report = check(&output(&universal), &universal.root);
    assert!(report.problems.iter().any(|p| p.contains("agents/reviewer.md: no string \"name\"")), "{:?}", report.problems);
    assert!(report.problems.iter().any(|p| p.contains("PreToolUse handler type \"prompt\" fails the whole file")), "{:?}", report.problems);
}
