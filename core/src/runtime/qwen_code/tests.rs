use serde_json::{Value, json};

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
    let options = BuildOptions { targets: vec![TargetRequest::new("qwen-code")], ..Default::default() };
    Ok(crate::build(&source(files), &options)?.bundles.remove(0))
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
fn the_manifest_carries_metadata_context_and_servers_in_qwens_dialect() {
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        (
            ".mcp.json",
            r#"{"mcpServers": {
                "local": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/s", "args": ["--data", "${PLUGIN_DATA}"]},
                "remote": {"type": "http", "url": "https://mcp.example.com/x"},
                "stream": {"type": "sse", "url": "https://mcp.example.com/sse"}}}"#,
        ),
        ("AGENTS.md", "Use ${PLUGIN_ROOT}/docs\n"),
    ])
    .unwrap();
    let manifest: Value = serde_json::from_str(&text(&bundle, "qwen-extension.json")).unwrap();
    assert_eq!(
        manifest,
        json!({
            "name": "kit", "version": "1.0.0", "description": "A kit", "contextFileName": "QWEN.md",
            "mcpServers": {
                "local": {"command": "${extensionPath}/bin/s", "args": ["--data", "$HOME/.qwen/plugin-data/kit"]},
                "remote": {"httpUrl": "https://mcp.example.com/x"},
                "stream": {"url": "https://mcp.example.com/sse"}
            }
        })
    );
    assert_eq!(text(&bundle, "QWEN.md"), "Use ~/.qwen/extensions/kit/docs\n");
    assert_eq!(row(&bundle, "mcp", "remote").level, Level::Supported);
    assert_eq!(row(&bundle, "mcp", "local").level, Level::Degraded);
    assert_eq!(row(&bundle, "context", "AGENTS.md").level, Level::Degraded);
}

#[test]
fn commands_sit_below_the_namespace_with_qwens_prompt_syntax() {
    let command = "---\ndescription: Say hi\nargument-hint: \"[name]\"\nallowed-tools: Bash(echo:*)\n---\nHi $ARGUMENTS: !`date`\n";
    let bundle = build(&[("plugforge.json", CONFIG), ("commands/team/hi.md", command)]).unwrap();
    assert_eq!(
        text(&bundle, "commands/kit/team/hi.md"),
        "---\ndescription: Say hi\nargument-hint: \"[name]\"\n---\nHi {{args}}: !{date}\n"
    );
    let hi = row(&bundle, "command", "team:hi");
    assert_eq!(hi.level, Level::Degraded);
    assert!(hi.detail.starts_with("/kit:team:hi (commands/kit/team/hi.md): !`cmd` becomes !{cmd}"), "{}", hi.detail);
    assert!(hi.detail.contains("no field for allowed-tools"), "{}", hi.detail);
}

#[test]
fn agents_get_qwen_tool_names_and_what_qwen_refuses_is_said() {
    let scout = "---\nname: scout\ndescription: Looks around\ntools: Read, Grep, Bash, BashOutput\nmodel: sonnet\ncolor: red\n---\nLook in ${PLUGIN_ROOT}/docs carefully.\n";
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        ("agents/scout.md", scout),
        ("agents/main.md", "---\nname: main\ndescription: x\n---\nA long enough prompt.\n"),
        ("agents/tiny.md", "---\nname: tiny\ndescription: x\n---\nshort\n"),
    ])
    .unwrap();
    assert_eq!(
        text(&bundle, "agents/scout.md"),
        "---\nname: scout\ndescription: Looks around\ntools:\n  - ReadFile\n  - Grep\n  - Shell\ncolor: red\n---\n\
         Look in ~/.qwen/extensions/kit/docs carefully.\n"
    );
    assert_eq!(row(&bundle, "agent", "scout").level, Level::Degraded);
    assert_eq!(row(&bundle, "agent", "main").level, Level::Unsupported);
    assert_eq!(row(&bundle, "agent", "tiny").level, Level::Unsupported);
    assert!(!bundle.files.keys().any(|p| p.as_str() == "agents/main.md" || p.as_str() == "agents/tiny.md"));
}

#[test]
fn hooks_keep_claudes_shape_and_only_qwens_events() {
    let hooks = r#"{"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/g.sh", "timeout": 3}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo ${user_config.api_key}"}]}],
        "FileChanged": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#;
    let bundle = build(&[("plugforge.json", CONFIG), ("hooks/hooks.json", hooks)]).unwrap();
    let written: Value = serde_json::from_str(&text(&bundle, "hooks/hooks.json")).unwrap();
    assert_eq!(
        written,
        json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/g.sh\"", "timeout": 3}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "echo \"${CLAUDE_PLUGIN_OPTION_API_KEY}\""}]}]}})
    );
    assert_eq!(row(&bundle, "hook", "PreToolUse").level, Level::Supported);
    assert_eq!(row(&bundle, "hook", "Stop").level, Level::Degraded);
    assert_eq!(row(&bundle, "hook", "FileChanged").level, Level::Unsupported);
}

#[test]
fn skills_keep_their_frontmatter_unless_qwen_reads_it_otherwise() {
    let go = "---\nname: go\ndescription: Goes.\nlicense: MIT\n---\nRun it.\n";
    let odd = "---\nname: odd\ndescription: Odd.\nallowed-tools: Read, Grep\nmodel: opus\n---\nRun ${PLUGIN_ROOT}/x.\n";
    let bundle = build(&[
        ("plugforge.json", CONFIG),
        ("skills/go/SKILL.md", go),
        ("skills/odd/SKILL.md", odd),
        ("skills/quiet/SKILL.md", "---\nname: quiet\n---\nx\n"),
    ])
    .unwrap();
    assert_eq!(text(&bundle, "skills/go/SKILL.md"), go);
    assert_eq!(row(&bundle, "skill", "go").level, Level::Supported);
    assert_eq!(
        text(&bundle, "skills/odd/SKILL.md"),
        "---\nname: odd\ndescription: Odd.\nallowedTools:\n  - Read\n  - Grep\n---\nRun ~/.qwen/extensions/kit/x.\n"
    );
    assert_eq!(row(&bundle, "skill", "odd").level, Level::Degraded);
    assert_eq!(row(&bundle, "skill", "quiet").level, Level::Unsupported);
}

#[test]
fn user_options_become_settings_asked_for_at_install() {
    let manifest = r#"{"name": "kit", "version": "1.0.0",
        "userConfig": {"api_key": {"type": "string", "title": "API key", "description": "The key", "sensitive": true}}}"#;
    let bundle = build(&[
        (".claude-plugin/plugin.json", manifest),
        (".mcp.json", r#"{"mcpServers": {"s": {"command": "s", "env": {"KEY": "${user_config.api_key}"}}}}"#),
    ])
    .unwrap();
    let written: Value = serde_json::from_str(&text(&bundle, "qwen-extension.json")).unwrap();
    assert_eq!(
        written["settings"],
        json!([{"name": "API key", "description": "The key", "envVar": "CLAUDE_PLUGIN_OPTION_API_KEY", "sensitive": true}])
    );
    assert_eq!(written["mcpServers"]["s"]["env"]["KEY"], "${CLAUDE_PLUGIN_OPTION_API_KEY}");
    assert_eq!(row(&bundle, "metadata", "userConfig.api_key").level, Level::Degraded);
    assert_eq!(row(&bundle, "mcp", "s").level, Level::Degraded);
}

#[test]
fn an_agent_plugins_root_manifest_among_the_support_files_is_withheld() {
    let spec = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "kit"}"#;
    let command = "---\ndescription: Greets.\n---\nHi.\n";
    let bundle = build(&[("plugforge.json", CONFIG), ("plugin.json", spec), ("commands/hi.md", command)]).unwrap();
    assert!(!bundle.files.keys().any(|p| p.as_str() == "plugin.json"));
    assert!(bundle.diagnostics.iter().any(|d| d.code == "ignored_file"));
}

#[test]
fn a_qwen_extension_reads_back_as_the_source_it_was_built_from() {
    let files = [
        ("plugforge.json", CONFIG),
        (".mcp.json", r#"{"mcpServers": {"s": {"command": "${PLUGIN_ROOT}/s", "args": ["${PLUGIN_DATA}"]}, "h": {"type": "http", "url": "https://x.example/m"}}}"#),
        ("commands/hi.md", "---\ndescription: Hi\n---\nHi $ARGUMENTS in ${PLUGIN_ROOT}\n"),
        ("agents/scout.md", "---\nname: scout\ndescription: Looks\ntools: Read, Bash\n---\nLook around the code.\n"),
        ("hooks/hooks.json", r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/s.sh"}]}]}}"#),
        ("AGENTS.md", "Context\n"),
    ];
    let bundle = build(&files).unwrap();
    let mut native = SourceTree::new();
    for (path, file) in &bundle.files {
        native.insert(path.as_str(), file.bytes.clone(), file.executable).unwrap();
    }
    let options = crate::ImportOptions { from: Some("qwen-code".into()), ..Default::default() };
    let imported = crate::import(&native, &options).unwrap();
    let got = |path: &str| String::from_utf8(imported.source.get(path).unwrap().bytes.to_vec()).unwrap();
    assert_eq!(got("commands/hi.md"), "---\ndescription: Hi\n---\nHi $ARGUMENTS in ${PLUGIN_ROOT}\n");
    assert_eq!(got("agents/scout.md"), "---\nname: scout\ndescription: Looks\ntools: Read, Bash\n---\nLook around the code.\n");
    assert_eq!(got("AGENTS.md"), "Context\n");
    let servers: Value = serde_json::from_str(&got(".mcp.json")).unwrap();
    assert_eq!(
        servers,
        json!({"mcpServers": {"s": {"command": "${PLUGIN_ROOT}/s", "args": ["${PLUGIN_DATA}"]}, "h": {"type": "http", "url": "https://x.example/m"}}})
    );
    let hooks: Value = serde_json::from_str(&got("hooks/hooks.json")).unwrap();
    // The writer quoted the folder variable (the install path may hold a space); it reads back quoted.
    assert_eq!(hooks, json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"${PLUGIN_ROOT}/s.sh\""}]}]}}));
}

#[test]
fn a_qwen_md_beside_the_context_file_is_not_written_twice() {
    let bundle = build(&[("plugforge.json", CONFIG), ("AGENTS.md", "Context\n"), ("QWEN.md", "Old\n")]).unwrap();
    assert_eq!(text(&bundle, "QWEN.md"), "Context\n");
    assert!(bundle.diagnostics.iter().any(|d| d.code == "ignored_file"));
}

#[test]
fn a_native_extension_with_twin_commands_and_another_context_file_imports() {
    let mut tree = SourceTree::new();
    for (path, text) in [
        ("qwen-extension.json", r#"{"name": "kit", "version": "1.0.0", "contextFileName": "QWEN.md"}"#),
        ("QWEN.md", "Qwen context\n"),
        ("GEMINI.md", "Gemini context\n"),
        ("commands/go.md", "---\ndescription: Go\n---\nGo {{args}}\n"),
        ("commands/go.toml", "prompt = \"Go {{args}}\"\n"),
    ] {
        tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
    }
    let options = crate::ImportOptions { from: Some("qwen-code".into()), ..Default::default() };
    let imported = crate::import(&tree, &options).unwrap();
    let got = |path: &str| imported.source.get(path).map(|f| String::from_utf8(f.bytes.to_vec()).unwrap());
    assert_eq!(got("commands/go.md").as_deref(), Some("---\ndescription: Go\n---\nGo $ARGUMENTS\n"));
    assert_eq!(got("AGENTS.md").as_deref(), Some("Qwen context\n"));
    // Gemini's own context file: the Gemini CLI build writes GEMINI.md from AGENTS.md.
    assert!(got("GEMINI.md").is_none());
    assert!(imported.notes.iter().any(|n| n.code == DiagnosticCode::UnusedFile && n.file() == Some("commands/go.toml")));
    let all = BuildOptions { targets: vec![TargetRequest::new("all")], ..Default::default() };
    crate::build(&imported.source, &all).unwrap();
}
