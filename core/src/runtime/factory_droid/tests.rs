use serde_json::{Value, json};

use super::*;
use crate::Runtime;
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

fn build(files: &[(&str, &str)]) -> Bundle {
    let options = BuildOptions { targets: vec![TargetRequest::new("factory-droid")], ..Default::default() };
    crate::build(&source(files), &options).unwrap().bundles.remove(0)
}

fn text(bundle: &Bundle, path: &str) -> String {
    let file = bundle
        .files
        .get(&crate::path::BundlePath::new(path).unwrap())
        .unwrap_or_else(|| panic!("{path} not in {:?}", bundle.files.keys().collect::<Vec<_>>()));
    String::from_utf8(file.bytes.to_vec()).unwrap()
}

fn row<'a>(bundle: &'a Bundle, component: &str, name: &str) -> &'a crate::report::Honesty {
    bundle
        .honesty
        .iter()
        .find(|r| r.component == component && r.name == name)
        .unwrap_or_else(|| panic!("no {component} {name} row in {:?}", bundle.honesty))
}

#[test]
fn commands_carry_their_description_as_the_heading_droid_lists() {
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        ("commands/go.md", "---\ndescription: Go now\nallowed-tools: Bash\n---\nRun $ARGUMENTS then $1.\n"),
        ("commands/team/ship.md", "---\ndescription: Ship it\n---\nShip.\n"),
        ("commands/plain.md", "Just text in ${CLAUDE_PLUGIN_ROOT}/x\n"),
    ]);
    assert_eq!(text(&bundle, "commands/go.md"), "# Go now\n\nRun $ARGUMENTS then $1.\n");
    assert_eq!(text(&bundle, "commands/team/ship.md"), "# Ship it\n\nShip.\n");
    // The loader describes a command without a description by its first line, as for every runtime.
    assert_eq!(
        text(&bundle, "commands/plain.md"),
        "# Just text in ${CLAUDE_PLUGIN_ROOT}/x\n\nJust text in ${CLAUDE_PLUGIN_ROOT}/x\n"
    );
    let go = row(&bundle, "command", "go");
    assert_eq!(go.level, Level::Degraded);
    assert!(go.detail.contains("allowed-tools dropped") && go.detail.contains("$1 stays"), "{}", go.detail);
    let ship = row(&bundle, "command", "team:ship");
    assert_eq!((ship.level, ship.detail.as_str()), (Level::Supported, "/ship (commands/team/ship.md)"));
    assert_eq!(row(&bundle, "command", "plain").level, Level::Degraded);
}

#[test]
fn agents_become_droids_with_droids_tool_names_and_no_claude_model_alias() {
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        ("agents/rev.md", "---\nname: rev\ndescription: Reviews\ntools: Read, Bash, Write, Bash\nmodel: sonnet\ncolor: red\n---\nUse ${PLUGIN_ROOT}/x.\n"),
    ]);
    assert_eq!(
        text(&bundle, "droids/rev.md"),
        "---\nname: rev\ndescription: Reviews\ntools:\n  - Read\n  - Execute\n  - Create\n---\nUse ${CLAUDE_PLUGIN_ROOT}/x.\n"
    );
    let rev = row(&bundle, "agent", "rev");
    assert_eq!(rev.level, Level::Degraded);
    assert!(rev.detail.contains("model sonnet") && rev.detail.contains("color"), "{}", rev.detail);
}

#[test]
fn hooks_keep_droids_nine_events_and_servers_droids_schema() {
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        (
            "hooks/hooks.json",
            r#"{"hooks": {
                "PreToolUse": [{"matcher": "Bash|Write|Notebook.*", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/check.sh"}]}],
                "PostToolUseFailure": [{"hooks": [{"type": "command", "command": "x"}]}],
                "Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}]}]}}"#,
        ),
        (
            ".mcp.json",
            r#"{"mcpServers": {
                "local": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/s.js"]},
                "remote": {"url": "https://mcp.example.com/x"},
                "socket": {"type": "ws", "url": "wss://mcp.example.com"}}}"#,
        ),
    ]);
    let hooks: Value = serde_json::from_str(&text(&bundle, "hooks/hooks.json")).unwrap();
    assert_eq!(
        hooks,
        json!({"hooks": {"PreToolUse": [{"matcher": "Execute|Create|Notebook.*", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/check.sh\""}]}]}})
    );
    assert_eq!(row(&bundle, "hook", "PostToolUseFailure").level, Level::Unsupported);
    assert_eq!(row(&bundle, "hook", "Stop").level, Level::Unsupported);
    let mcp: Value = serde_json::from_str(&text(&bundle, "mcp.json")).unwrap();
    assert_eq!(
        mcp,
        json!({"mcpServers": {"remote": {"type": "http", "url": "https://mcp.example.com/x"}}})
    );
    assert_eq!(row(&bundle, "mcp", "local").level, Level::Unsupported);
    assert_eq!(row(&bundle, "mcp", "remote").level, Level::Degraded);
    assert_eq!(row(&bundle, "mcp", "socket").level, Level::Unsupported);
}

#[test]
fn a_native_droid_plugin_reads_back_as_the_canonical_source() {
    let tree = source(&[
        (".factory-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0", "description": "A kit"}"#),
        ("commands/go.md", "# Go now\n\nRun $ARGUMENTS.\n"),
        ("droids/rev.md", "---\nname: rev\ndescription: Reviews\ntools: [Read, Execute]\n---\nIn ${DROID_PLUGIN_ROOT}.\n"),
        ("skills/s/SKILL.md", "---\nname: s\ndescription: S\nallowed-tools: Read, Execute\n---\nBody\n"),
        ("mcp.json", r#"{"mcpServers": {"m": {"command": "npx", "args": ["-y", "m"]}}}"#),
        ("hooks/hooks.json", r#"{"hooks": {"Stop": [{"type": "command", "command": "echo"}], "BeforeTool": []}}"#),
        ("agents/claude-only.md", "---\nname: x\n---\nx\n"),
    ]);
    let imported = crate::import(&tree, &Default::default()).unwrap();
    assert_eq!(imported.runtime, Runtime::FactoryDroid);
    let file = |path: &str| String::from_utf8(imported.source.get(path).unwrap_or_else(|| panic!("{path}")).bytes.to_vec()).unwrap();
    assert_eq!(file("commands/go.md"), "---\ndescription: Go now\n---\nRun $ARGUMENTS.\n");
    assert_eq!(file("agents/rev.md"), "---\nname: rev\ndescription: Reviews\ntools: Read, Bash\n---\nIn ${PLUGIN_ROOT}.\n");
    assert!(file("skills/s/SKILL.md").contains("allowed-tools: Read, Bash"));
    let hooks: Value = serde_json::from_str(&file("hooks/hooks.json")).unwrap();
    assert_eq!(hooks, json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}));
    assert!(imported.source.get("agents/claude-only.md").is_none());
    assert!(imported.source.get(".mcp.json").is_some());

    // Built again, the native files come back as they were.
    let options = BuildOptions { targets: vec![TargetRequest::new("factory-droid")], ..Default::default() };
    let bundle = crate::build(&imported.source, &options).unwrap().bundles.remove(0);
    assert_eq!(text(&bundle, "commands/go.md"), "# Go now\n\nRun $ARGUMENTS.\n");
    assert_eq!(text(&bundle, "droids/rev.md"), "---\nname: rev\ndescription: Reviews\ntools:\n  - Read\n  - Execute\n---\nIn ${CLAUDE_PLUGIN_ROOT}.\n");
}

#[test]
fn validate_says_what_droid_accepts_in_silence() {
    let tree = source(&[
        (".factory-plugin/plugin.json", r#"{"name": "Bad_Name", "colour": "red"}"#),
        ("hooks/hooks.json", r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#),
        ("mcp.json", r#"{"mcpServers": {"s": {"command": "${CLAUDE_PLUGIN_ROOT}/s"}}}"#),
    ]);
    let options = crate::ValidateOptions { target: Some("factory-droid".into()), strict: false };
    let report = crate::validate(&tree, &options).unwrap();
    let found: Vec<(String, Option<String>)> =
        report.findings.iter().map(|f| (f.code.as_str().to_string(), f.file().map(str::to_string))).collect();
    for (code, file) in [
        ("manifest/name-not-kebab", ".factory-plugin/plugin.json"),
        ("manifest/unknown-key", ".factory-plugin/plugin.json"),
        ("manifest/recommended-field-missing", ".factory-plugin/plugin.json"),
        ("hook/unknown-event", "hooks/hooks.json"),
        ("mcp/unexpanded-variable", "mcp.json"),
    ] {
        assert!(found.contains(&(code.to_string(), Some(file.to_string()))), "{code} at {file}: {found:?}");
    }
}

/// Through the universal folder Droid gets Claude Code's files renamed, not
/// this runtime's rewrites: a command keeps its frontmatter (listed under
/// the fallback description, even with a heading), an agent below a sub-folder is not read, and
/// a server naming the plugin folder is listed but cannot start.
#[test]
fn in_the_universal_folder_droid_loads_claude_codes_files_renamed() {
    let files = [
        ("plugforge.json", CONFIG),
        ("commands/go.md", "---\ndescription: Go\n---\nGo to $ARGUMENTS.\n"),
        ("commands/plain.md", "# Plain heading\n\nDo it.\n"),
        ("agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews\nmodel: sonnet\n---\nReview.\n"),
        ("agents/team/lead.md", "---\nname: lead\ndescription: Leads\n---\nLead.\n"),
        (
            ".mcp.json",
            r#"{"mcpServers": {"docs": {"command": "npx", "args": ["-y", "docs"]}, "local": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/s"}}}"#,
        ),
    ];
    let options = BuildOptions { targets: vec![TargetRequest::new("universal")], ..Default::default() };
    let universal = crate::build(&source(&files), &options).unwrap().bundles.remove(0);
    let droid = |component: &str, name: &str| {
        universal
            .honesty
            .iter()
            .find(|r| r.component == component && r.name == name && r.detail.starts_with("Factory Droid: "))
            .map(|r| (r.level, r.detail.clone()))
            .unwrap_or_else(|| panic!("no Factory Droid {component} {name} row in {:?}", universal.honesty))
    };
    let (level, detail) = droid("command", "go");
    assert_eq!(level, Level::Degraded);
    assert!(detail.contains("listed as \"Custom command: go\"") && detail.contains("description has no effect"), "{detail}");
    // Its description becomes frontmatter in the file Claude Code's writer
    // copies, so the heading is no longer the first line Droid lists it by.
    let (_, detail) = droid("command", "plain");
    assert!(detail.contains("listed as \"Custom command: plain\""), "{detail}");
    let (level, detail) = droid("agent", "reviewer");
    assert_eq!(level, Level::Degraded);
    assert!(detail.starts_with("Factory Droid: droids/reviewer.md (from agents/reviewer.md)"), "{detail}");
    assert!(detail.contains("model sonnet is a Claude Code alias"), "{detail}");
    assert_eq!(droid("agent", "lead").0, Level::Unsupported);
    assert_eq!(droid("mcp", "docs").0, Level::Supported);
    let (level, detail) = droid("mcp", "local");
    assert_eq!(level, Level::Unsupported);
    assert!(detail.contains("cannot start"), "{detail}");
    assert!(universal.files.keys().all(|p| !p.as_str().starts_with(".factory-plugin")), "no Droid manifest here");
}
