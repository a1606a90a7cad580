//! No Antigravity client can run here (`agy` is not published on npm and a
//! session needs a Google sign-in), so this test holds the bundles to the
//! published facts instead (docs/runtimes/antigravity.md): every generated
//! `plugin.json`, `mcp_config.json` and `hooks.json` is validated against the
//! schemas in tests/schemas/antigravity/ (derived from Google's docs, see
//! each file's description), for the Striatum example, the full canonical
//! source, a source with remote MCP servers and more hook events, and
//! `--target all`; and the content is checked where the dialect differs
//! from Claude Code's (`serverUrl`, `run_command`, named hooks, rules).

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::TempDir;
use serde_json::{Value, json};

fn run_build(source: &Path, out: &Path, target: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args([
            "build",
            source.to_str().unwrap(),
            "--target",
            target,
            "--json",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .expect("run plugforge")
}

/// Builds `source` and returns the JSON report.
fn build(source: &Path, out: &Path, target: &str) -> Value {
    let output = run_build(source, out, target);
    assert_eq!(output.status.code(), Some(0), "build failed:\n{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON report")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Validates `instance` against tests/schemas/antigravity/`schema`, listing every error.
fn assert_schema(schema: &str, instance: &Value, what: &Path) {
    let schema_path = common::repo_root().join("tests/schemas/antigravity").join(schema);
    let validator = jsonschema::validator_for(&read_json(&schema_path)).expect("the schema compiles");
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{} fails {schema}:\n{}", what.display(), errors.join("\n"));
}

/// Validates the bundle's three JSON files (the manifest always, the others
/// when written) and returns them.
fn checked_bundle(bundle: &Path) -> (Value, Option<Value>, Option<Value>) {
    let manifest_path = bundle.join("plugin.json");
    let manifest = read_json(&manifest_path);
    assert_schema("plugin.schema.json", &manifest, &manifest_path);
    let optional = |file: &str, schema: &str| {
        let path = bundle.join(file);
        path.is_file().then(|| {
            let value = read_json(&path);
            assert_schema(schema, &value, &path);
            value
        })
    };
    let mcp = optional("mcp_config.json", "mcp_config.schema.json");
    let hooks = optional("hooks.json", "hooks.schema.json");
    (manifest, mcp, hooks)
}

fn rows<'a>(report: &'a Value, component: &str, name: &str) -> Vec<&'a Value> {
    report["honesty"]
        .as_array()
        .expect("honesty rows")
        .iter()
        .filter(|r| r["runtime"] == "antigravity" && r["component"] == component && r["name"] == name)
        .collect()
}

fn level<'a>(report: &'a Value, component: &str, name: &str) -> &'a str {
    let found = rows(report, component, name);
    assert_eq!(found.len(), 1, "one {component} {name} row: {found:?}");
    found[0]["level"].as_str().expect("level")
}

fn frontmatter(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let block = text.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")).map(|(b, _)| b);
    block.unwrap_or_else(|| panic!("{} has no frontmatter", path.display())).to_string()
}

#[test]
fn the_full_canonical_source_fits_the_schemas_with_antigravity_names() {
    let out = TempDir::new("full");
    let report =
        build(&common::repo_root().join("tests/vectors/canonical-full/input"), out.path(), "antigravity");
    let bundle = out.path().join("antigravity");
    let (manifest, mcp, hooks) = checked_bundle(&bundle);
    assert_eq!(
        manifest,
        json!({"name": "deploy-kit", "description": "Deploys services and watches the rollout."})
    );

    // The Bash PreToolUse matcher names Antigravity's tool, under the plugin's hook name.
    let hooks = hooks.expect("hooks.json");
    let group = &hooks["deploy-kit"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "run_command");
    assert_eq!(
        group["hooks"][0],
        json!({"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"})
    );
    assert_eq!(hooks["deploy-kit"].as_object().unwrap().len(), 1, "only PreToolUse: {hooks}");
    assert_eq!(level(&report, "hook", "PreToolUse"), "degraded");
    assert_eq!(level(&report, "hook", "SessionStart"), "unsupported");

    // The one MCP server runs from ${PLUGIN_ROOT}, which Antigravity has no spelling of.
    assert!(mcp.is_none(), "no mcp_config.json: {mcp:?}");
    assert_eq!(level(&report, "mcp", "deployer"), "unsupported");

    // Commands are skills; the agent's tools are Antigravity's; the context is an always-on rule.
    for command in ["deploy", "status"] {
        let skill = bundle.join(format!("skills/{command}/SKILL.md"));
        assert!(frontmatter(&skill).contains(&format!("name: {command}\n")), "{}", skill.display());
        assert_eq!(level(&report, "command", command), "degraded");
    }
    assert!(!bundle.join("commands").exists(), "Antigravity plugins have no commands folder");
    let agent = frontmatter(&bundle.join("agents/watcher.md"));
    assert_eq!(
        agent,
        "name: watcher\ndescription: Watches a rollout and reports regressions\ntools:\n  - run_command\n  - view_file"
    );
    assert_eq!(frontmatter(&bundle.join("rules/deploy-kit.md")), "trigger: always_on");
    assert!(!out.path().join(".claude-plugin").exists() && !bundle.join(".claude-plugin").exists());
    // plugforge's own validate judges the bundle as Antigravity's, not as an Agent Plugin.
    let validated = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["validate", bundle.to_str().unwrap(), "--json"])
        .output()
        .expect("run plugforge validate");
    assert_eq!(validated.status.code(), Some(0), "{}", String::from_utf8_lossy(&validated.stdout));
    let validated: Value = serde_json::from_slice(&validated.stdout).expect("JSON");
    assert_eq!(validated["report"]["subjects"][0]["runtime"], "antigravity");
    assert_eq!(validated["report"]["findings"], json!([]));
    let no_marketplace =
        report["diagnostics"].as_array().unwrap().iter().any(|d| d["code"] == "no_marketplace");
    assert!(no_marketplace, "the build says there is no marketplace: {}", report["diagnostics"]);
}

#[test]
fn the_striatum_example_fits_the_schemas() {
    let out = TempDir::new("striatum");
    let report = build(&common::repo_root().join("examples/striatum"), out.path(), "antigravity");
    let bundle = out.path().join("antigravity");
    let (manifest, mcp, hooks) = checked_bundle(&bundle);
    assert_eq!(manifest["name"], "striatum");
    // Its hooks file holds empty stubs and its .mcp.json no server.
    assert!(mcp.is_none() && hooks.is_none(), "{mcp:?} {hooks:?}");
    for skill in ["striatum-workflow", "striatum-recover", "claim-next", "why"] {
        assert!(bundle.join(format!("skills/{skill}/SKILL.md")).is_file(), "no skill {skill}");
    }
    assert_eq!(level(&report, "skill", "striatum-workflow"), "supported");
    assert!(frontmatter(&bundle.join("agents/striatum-recover.md")).contains("tools:\n  - run_command\n"));
}

/// A source with remote and local MCP servers and the hook events
/// Antigravity has and lacks.
fn remote_source(root: &Path) {
    let files = [
        ("plugforge.json", r#"{"name": "remote-kit", "version": "0.3.0", "description": "Remote tools"}"#),
        (
            ".mcp.json",
            r#"{"mcpServers": {
                "docs": {"type": "http", "url": "https://mcp.example.invalid/docs", "headers": {"X-Project": "${PROJECT}"}},
                "events": {"type": "sse", "url": "https://mcp.example.invalid/events"},
                "local": {"command": "npx", "args": ["-y", "local-mcp"], "env": {"MODE": "ro"}},
                "socket": {"type": "ws", "url": "wss://mcp.example.invalid/socket"}
            }}"#,
        ),
        (
            "hooks/hooks.json",
            r#"{"hooks": {
                "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "fmt", "timeout": 10}]}],
                "Stop": [{"hooks": [{"type": "command", "command": "echo done", "timeout": 1.5}, {"type": "prompt", "prompt": "Check"}]}],
                "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo prompt"}]}]
            }}"#,
        ),
        ("skills/lookup/SKILL.md", "---\nname: lookup\ndescription: Looks things up\n---\nLook it up.\n"),
    ];
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn remote_servers_use_server_url_and_hooks_keep_only_antigravity_events() {
    let source = TempDir::new("remote-src");
    remote_source(source.path());
    let out = TempDir::new("remote-out");
    let report = build(source.path(), out.path(), "antigravity");
    let (_, mcp, hooks) = checked_bundle(&out.path().join("antigravity"));

    let servers = mcp.expect("mcp_config.json")["mcpServers"].clone();
    assert_eq!(
        servers["docs"],
        json!({"serverUrl": "https://mcp.example.invalid/docs", "headers": {"X-Project": "${PROJECT}"}})
    );
    assert_eq!(servers["events"], json!({"serverUrl": "https://mcp.example.invalid/events"}));
    assert_eq!(
        servers["local"],
        json!({"command": "npx", "args": ["-y", "local-mcp"], "env": {"MODE": "ro"}})
    );
    assert!(servers.get("socket").is_none(), "a ws server has no Antigravity transport: {servers}");
    assert_eq!(level(&report, "mcp", "docs"), "supported");
    assert_eq!(level(&report, "mcp", "socket"), "unsupported");

    let hooks = &hooks.expect("hooks.json")["remote-kit"];
    assert_eq!(
        hooks["PostToolUse"],
        json!([{"matcher": "write_to_file|replace_file_content|multi_replace_file_content",
                "hooks": [{"type": "command", "command": "fmt", "timeout": 10}]}])
    );
    // Stop holds handlers directly; the prompt handler is not carried.
    assert_eq!(hooks["Stop"], json!([{"type": "command", "command": "echo done"}]));
    assert!(hooks.get("UserPromptSubmit").is_none());
    assert_eq!(level(&report, "hook", "UserPromptSubmit"), "unsupported");
    let stop = rows(&report, "hook", "Stop");
    let detail = stop[0]["detail"].as_str().unwrap();
    assert!(detail.contains("\"prompt\" handler is left out"), "{stop:?}");
    assert!(detail.contains("timeout 1.5 left out: Antigravity takes whole seconds"), "{stop:?}");
}

#[test]
fn manifest_overrides_are_the_fields_antigravity_reads_with_their_types() {
    let source = TempDir::new("bad-src");
    let config =
        r#"{"name": "kit", "version": "1.0.0", "targets": {"antigravity": {"manifest": {"version": "2"}}}}"#;
    std::fs::write(source.path().join("plugforge.json"), config).unwrap();
    std::fs::create_dir_all(source.path().join("skills/s")).unwrap();
    std::fs::write(source.path().join("skills/s/SKILL.md"), "---\nname: s\ndescription: S\n---\nS\n")
        .unwrap();
    let out = TempDir::new("bad-out");
    let output = run_build(source.path(), out.path(), "antigravity");
    assert_eq!(output.status.code(), Some(1), "refused: {}", String::from_utf8_lossy(&output.stdout));
    let text =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(
        text.contains("plugforge.json") && text.contains("targets.antigravity.manifest.version"),
        "{text}"
    );
    assert!(!out.path().join("antigravity/plugin.json").exists(), "nothing written");

    let mistyped = r#"{"name": "kit", "version": "1.0.0", "targets": {"antigravity": {"manifest": {"disabled": "no"}}}}"#;
    std::fs::write(source.path().join("plugforge.json"), mistyped).unwrap();
    let output = run_build(source.path(), out.path(), "antigravity");
    assert_eq!(output.status.code(), Some(1));
    let text =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(text.contains("targets.antigravity.manifest.disabled must be a boolean"), "{text}");

    let logo = r#"{"name": "kit", "version": "1.0.0", "targets": {"antigravity": {"manifest": {"logo": "assets/logo.png", "disabled": false}}}}"#;
    std::fs::write(source.path().join("plugforge.json"), logo).unwrap();
    build(source.path(), out.path(), "antigravity");
    let (manifest, _, _) = checked_bundle(&out.path().join("antigravity"));
    assert_eq!(manifest, json!({"name": "kit", "logo": "assets/logo.png", "disabled": false}));
}

#[test]
fn target_all_includes_the_antigravity_bundle() {
    let out = TempDir::new("all");
    let report = build(&common::repo_root().join("examples/striatum"), out.path(), "all");
    let (manifest, _, _) = checked_bundle(&out.path().join("antigravity"));
    assert_eq!(manifest["name"], "striatum");
    for root in ["claude-code", "codex", "gemini", "cursor", "copilot", "antigravity", "generic"] {
        assert!(out.path().join(root).join(".plugforge-manifest.json").is_file(), "no {root} bundle");
    }
    let runtimes: Vec<&str> =
        report["bundles"].as_array().unwrap().iter().filter_map(|b| b["runtime"].as_str()).collect();
    assert!(runtimes.contains(&"antigravity"), "{runtimes:?}");
}

fn schema_accepts(schema: &str, instance: &Value) -> bool {
    let schema_path = common::repo_root().join("tests/schemas/antigravity").join(schema);
    jsonschema::validator_for(&read_json(&schema_path)).expect("the schema compiles").is_valid(instance)
}

#[test]
fn the_schemas_refuse_the_claude_code_shapes() {
    // So the checks above can fail: each Claude Code spelling is refused, Google's examples pass.
    assert!(!schema_accepts("plugin.schema.json", &json!({"name": "kit", "version": "1.0.0"})));
    assert!(!schema_accepts("plugin.schema.json", &json!({"name": "has space"})));
    assert!(schema_accepts("plugin.schema.json", &json!({"name": "kit", "description": "d"})));
    let claude_mcp = json!({"mcpServers": {"docs": {"type": "http", "url": "https://x.example/mcp"}}});
    assert!(!schema_accepts("mcp_config.schema.json", &claude_mcp));
    assert!(!schema_accepts(
        "mcp_config.schema.json",
        &json!({"docs": {"serverUrl": "https://x.example/mcp"}})
    ));
    let google_mcp = json!({"mcpServers": {"knowledge": {
        "serverUrl": "https://developerknowledge.googleapis.com/mcp",
        "authProviderType": "google_credentials",
        "oauth": {"scopes": ["https://www.googleapis.com/auth/cloud-platform"]},
        "headers": {"X-goog-user-project": "$GOOGLE_CLOUD_PROJECT"}
    }}});
    assert!(schema_accepts("mcp_config.schema.json", &google_mcp));
    // Events at the top level, as in Claude Code's settings: Antigravity reads each key as a hook name.
    let flat_hooks =
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]});
    assert!(!schema_accepts("hooks.schema.json", &flat_hooks));
    let http_handler = json!({"n": {"Stop": [{"type": "http", "url": "https://x.example/hook"}]}});
    assert!(!schema_accepts("hooks.schema.json", &http_handler));
    let google_hooks = json!({
        "my-linter-hook": {"PostToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": "./lint.sh", "timeout": 10}]}]},
        "safety-gate": {"enabled": false, "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./check.sh"}]}]},
        "reminder": {"PreInvocation": [{"type": "command", "command": "./reminder.sh"}]}
    });
    assert!(schema_accepts("hooks.schema.json", &google_hooks));
    assert!(!schema_accepts("hooks.schema.json", &json!({"n": {"SessionEnd": [{"command": "x"}]}})));
}
