//! Public plugins that were refused, or built into bundles a runtime then
//! rejected, for causes that were plugforge's: each is built as its author
//! ships it (`--target all`, no flags), and what the runtime cannot take is
//! translated or dropped for that runtime alone, with its row.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;
use yaml_rust2::YamlLoader;

fn unit(name: &str) -> PathBuf {
    repo_root().join("tests/conformance/realworld").join(name).join("plugin")
}

/// `plugforge build UNIT --target all --json`: exit 0 and no runtime refused
/// (one with nothing to load, Hermes for a plugin of MCP servers alone, is
/// listed, not refused).
fn build_all(name: &str, out: &TempDir) -> Value {
    let run = run(&["build", s(&unit(name)), "--target", "all", "--out", s(out.path()), "--json"]);
    let report = run.json();
    assert_eq!(run.code, 0, "{name}: {}\n{}", run.stderr, report["failures"]);
    let refused: Vec<&Value> =
        report["failures"].as_array().expect("failures").iter().filter(|f| f["skipped"] != true).collect();
    assert!(refused.is_empty(), "{name}: {refused:?}");
    report
}

/// The one honesty row of `component` `name` for `runtime`.
fn row<'a>(report: &'a Value, runtime: &str, component: &str, name: &str) -> &'a Value {
    let rows: Vec<&Value> = report["honesty"]
        .as_array()
        .expect("honesty rows")
        .iter()
        .filter(|r| r["runtime"] == runtime && r["component"] == component && r["name"] == name)
        .collect();
    assert_eq!(rows.len(), 1, "{runtime} {component} {name}: {rows:?}");
    rows[0]
}

/// The `description` of the SKILL.md at `rel` below `root`, as YAML reads it.
fn description(root: &Path, rel: &str) -> String {
    let text = String::from_utf8(read(root, rel)).expect("UTF-8");
    let frontmatter =
        text.strip_prefix("---\n").and_then(|t| t.split_once("\n---\n")).expect("frontmatter").0;
    let docs = YamlLoader::load_from_str(frontmatter).expect("YAML frontmatter");
    docs[0]["description"].as_str().expect("a description").to_string()
}

#[test]
fn a_description_over_1024_characters_is_shortened_for_the_runtimes_that_cap_it() {
    // cursor/plugins' cursor-sdk (1045 characters) and openai/plugins' heygen
    // (1296 and 1434): Cursor, OpenCode, Agent Skills, Antigravity and
    // Copilot CLI refuse such a skill; the build was refused for four runtimes.
    for (name, skill, length) in [
        ("cursor-sdk", "cursor-sdk", 1045),
        ("codex-heygen", "heygen-avatar", 1296),
        ("codex-heygen", "heygen-video", 1434),
    ] {
        let out = TempDir::new("gaps-description");
        let report = build_all(name, &out);
        let source = description(&unit(name), &format!("skills/{skill}/SKILL.md"));
        assert_eq!(source.chars().count(), length, "{name} {skill}");
        // The runtimes without the cap keep every character.
        for runtime in ["claude-code", "codex", "gemini"] {
            let whole = description(&out.join(runtime), &format!("skills/{skill}/SKILL.md"));
            assert_eq!(whole.trim_end(), source.trim_end(), "{runtime} {skill}");
            assert!(!row(&report, runtime, "skill", skill)["detail"].as_str().unwrap().contains("shortened"));
        }
        for (runtime, dir) in [
            ("cursor", "cursor/skills"),
            ("opencode", ".opencode/skills"),
            ("agent-plugins", "agent-plugins/skills"),
            ("antigravity", "antigravity/skills"),
            ("copilot", "copilot/skills"),
        ] {
            let short = description(out.path(), &format!("{dir}/{skill}/SKILL.md"));
            let kept = short.chars().count();
            assert!((512..=1024).contains(&kept), "{runtime} {skill}: {kept}");
            // Cut after a whole sentence of the author's text.
            assert!(source.starts_with(&short) && short.ends_with('.'), "{runtime} {skill}: {short}");
            let row = row(&report, runtime, "skill", skill);
            assert_eq!(row["level"], "degraded", "{runtime} {skill}");
            let said =
                format!("description shortened from {length} to {kept} characters at a sentence boundary");
            assert!(row["detail"].as_str().unwrap().contains(&said), "{runtime}: {}", row["detail"]);
        }
    }
}

#[test]
fn a_skill_name_hermes_cannot_take_is_left_out_of_hermes_alone() {
    // openai/plugins' hugging-face ships `skills/transformers.js/`: Hermes
    // names skills `[A-Za-z0-9_-]+`, and the whole Hermes build was refused.
    let out = TempDir::new("gaps-hermes-name");
    let report = build_all("codex-hugging-face", &out);
    for kind in ["hermes", "hermes:skill-plugin"] {
        let hermes_out = TempDir::new("gaps-hermes-kind");
        let run = run(&[
            "build",
            s(&unit("codex-hugging-face")),
            "--target",
            kind,
            "--out",
            s(hermes_out.path()),
            "--json",
        ]);
        assert_eq!(run.code, 0, "{kind}: {}", run.stderr);
        let hermes = run.json();
        let dropped = row(&hermes, "hermes", "skill", "transformers.js");
        assert_eq!(dropped["level"], "unsupported", "{kind}");
        assert!(
            dropped["detail"].as_str().unwrap().contains("\"transformers.js\" is not such a name"),
            "{dropped}"
        );
        let written = files(hermes_out.path());
        assert!(!written.iter().any(|f| f.contains("transformers.js")), "{kind}: {written:?}");
        // Every other skill of the plugin is there.
        for skill in ["cli", "datasets", "gradio", "jobs", "trackio", "vision-trainer"] {
            assert!(
                written.iter().any(|f| f.ends_with(&format!("/{skill}/SKILL.md"))),
                "{kind} {skill}: {written:?}"
            );
            assert_ne!(row(&hermes, "hermes", "skill", skill)["level"], "unsupported", "{kind} {skill}");
        }
    }
    // The other runtimes keep the skill: Claude Code and Codex load it by its folder.
    for runtime in ["claude-code", "codex"] {
        assert!(out.join(runtime).join("skills/transformers.js/SKILL.md").is_file(), "{runtime}");
        assert_ne!(row(&report, runtime, "skill", "transformers.js")["level"], "unsupported");
    }
}

#[test]
fn a_cursor_static_oauth_client_is_dropped_for_codex_and_a_url_only_server_is_typed() {
    // cursor/plugins' gong, zoom and salesforce: `auth: {CLIENT_ID, ...}`
    // makes Codex drop the server; gong's has no `type`, which Claude Code
    // reads as a stdio server without a command.
    for (unit, server) in
        [("cursor-gong", "gong"), ("cursor-zoom", "zoom"), ("cursor-salesforce", "salesforce")]
    {
        let out = TempDir::new("gaps-mcp");
        let report = build_all(unit, &out);
        let codex = read_json(out.path(), "codex/.mcp.json");
        assert!(codex["mcpServers"][server].get("auth").is_none(), "{unit}: {codex}");
        assert!(codex["mcpServers"][server]["url"].is_string(), "{unit}: {codex}");
        let row = row(&report, "codex", "mcp", server);
        assert_eq!(row["level"], "degraded");
        assert!(
            row["detail"].as_str().unwrap().starts_with("`auth` (a static OAuth client) dropped"),
            "{row}"
        );
        // Claude Code and Qoder CLI read a server without a `type` as stdio.
        for file in ["claude-code/.mcp.json", "qoder/.mcp.json"] {
            let typed = read_json(out.path(), file);
            assert_eq!(typed["mcpServers"][server]["type"], "http", "{unit} {file}: {typed}");
        }
    }
}

/// Every `command` string below `value`, with whether its handler has `args`.
fn commands(value: &Value, out: &mut Vec<(String, bool)>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(command)) = map.get("command") {
                out.push((command.clone(), map.contains_key("args")));
            }
            map.values().for_each(|v| commands(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| commands(v, out)),
        _ => {}
    }
}

#[test]
fn an_exec_form_hook_keeps_its_arguments_in_every_runtime() {
    // Claude Code's exec form (`command` + `args`, run without a shell), as
    // its hooks reference writes it; Codex got a bare `node` with no script.
    let src = TempDir::new("gaps-exec-hook");
    write(
        src.path(),
        ".claude-plugin/plugin.json",
        r#"{"name": "fmt", "version": "1.0.0", "description": "Formats", "author": {"name": "A"}}"#,
    );
    write(
        src.path(),
        "hooks/hooks.json",
        r#"{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/scripts/format.js", "--fix"], "timeout": 10}]}]}}"#,
    );
    write(src.path(), "scripts/format.js", "process.exit(0)\n");
    let out = TempDir::new("gaps-exec-hook-out");
    run(&["build", s(src.path()), "--target", "all", "--out", s(out.path())]).expect(0);
    for (runtime, file) in SHELL_LINE_HOOKS {
        let mut found = Vec::new();
        commands(&read_json(out.path(), file), &mut found);
        assert_eq!(found.len(), 1, "{runtime}: {found:?}");
        let (command, has_args) = &found[0];
        assert!(!has_args, "{runtime} reads no args: {command}");
        assert!(
            command.starts_with("node \"") && command.ends_with("/scripts/format.js\" --fix"),
            "{runtime}: {command}"
        );
    }
    // Claude Code runs the exec form itself: kept as written.
    let mut claude = Vec::new();
    commands(&read_json(out.path(), "claude-code/hooks/hooks.json"), &mut claude);
    assert_eq!(claude, [("node".to_string(), true)]);
}

/// The hooks file of each runtime that runs a hook's `command` through a
/// shell and reads no `args`, in a `--target all` output.
const SHELL_LINE_HOOKS: [(&str, &str); 9] = [
    ("codex", "codex/hooks/hooks.json"),
    ("gemini", "gemini/hooks/hooks.json"),
    ("qwen-code", "qwen-code/hooks/hooks.json"),
    ("cursor", "cursor/hooks/hooks.json"),
    ("antigravity", "antigravity/hooks.json"),
    ("grok-build", "grok-build/hooks/hooks.json"),
    ("kimi-code", "kimi-code/kimi.plugin.json"),
    ("factory-droid", "factory-droid/hooks/hooks.json"),
    ("copilot", "copilot/hooks/hooks.json"),
];

/// What each exec-form handler of a source's hooks file runs: the script's
/// file name and the arguments after it, `${user_config.KEY}` given `option`.
fn exec_form_runs(hooks: &Value, option: &str) -> BTreeSet<(String, Vec<String>)> {
    let mut runs = BTreeSet::new();
    let mut handlers = Vec::new();
    fn collect<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
        match value {
            Value::Object(map) if map.contains_key("args") => out.push(value),
            Value::Object(map) => map.values().for_each(|v| collect(v, out)),
            Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
            _ => {}
        }
    }
    collect(hooks, &mut handlers);
    for handler in handlers {
        let args: Vec<String> = handler["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| a.as_str().unwrap().replace("${user_config.mode}", option))
            .collect();
        let script = args[0].rsplit('/').next().unwrap().to_string();
        runs.insert((script, args[1..].to_vec()));
    }
    runs
}

#[test]
fn public_exec_form_hooks_run_their_script_with_its_arguments_in_every_shell_runtime() {
    // Borelchu/menhera-loop (eight events of `node` + a script, two with
    // `--observe`) and awkoy/prompt-english-coach (`node` + a script and
    // `${user_config.mode}`, default "coach"), as their authors ship them.
    // A runtime that reads only `command` ran a bare `node`; a shell reads
    // `${user_config.mode}` as a bad substitution and runs nothing. Each
    // written line is run here by bash, its plugin-folder variables naming a
    // folder of stand-in scripts that print the arguments they get.
    let variable = regex::Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)").unwrap();
    for (name, scripts) in [
        (
            "claude-menhera-loop",
            &[
                "session-start.mjs",
                "capture-requirements.mjs",
                "track-event.mjs",
                "verify-completion.mjs",
                "session-end.mjs",
            ][..],
        ),
        ("claude-prompt-english-coach", &["coach-hook.js"][..]),
    ] {
        let out = TempDir::new("gaps-exec-public");
        build_all(name, &out);
        let stand_in = TempDir::new("gaps-exec-public-scripts");
        for script in scripts {
            write(
                stand_in.path(),
                &format!("scripts/{script}"),
                "console.log(JSON.stringify(process.argv.slice(1)))\n",
            );
        }
        let source_hooks = read_json(&unit(name), "hooks/hooks.json");
        for option in [None, Some("gate")] {
            let expected = exec_form_runs(&source_hooks, option.unwrap_or("coach"));
            for (runtime, file) in SHELL_LINE_HOOKS {
                let mut found = Vec::new();
                commands(&read_json(out.path(), file), &mut found);
                assert!(!found.is_empty(), "{name} {runtime}: no hook written");
                for (command, has_args) in &found {
                    assert!(!has_args, "{name} {runtime} reads no args: {command}");
                    assert!(!command.contains("${user_config."), "{name} {runtime}: {command}");
                    let mut bash = std::process::Command::new("bash");
                    bash.arg("-c")
                        .arg(command)
                        .current_dir(stand_in.path())
                        .env_remove("CLAUDE_PLUGIN_OPTION_MODE");
                    for found in variable.captures_iter(command) {
                        if !found[1].starts_with("CLAUDE_PLUGIN_OPTION_") {
                            bash.env(&found[1], stand_in.path());
                        }
                    }
                    if let Some(value) = option {
                        bash.env("CLAUDE_PLUGIN_OPTION_MODE", value);
                    }
                    let ran = bash.output().expect("bash runs");
                    let stderr = String::from_utf8_lossy(&ran.stderr);
                    assert!(ran.status.success(), "{name} {runtime}: {command}: {stderr}");
                    let argv: Vec<String> =
                        serde_json::from_slice(&ran.stdout).expect("the stand-in's arguments");
                    let script = argv[0].rsplit('/').next().unwrap().to_string();
                    let run = (script, argv[1..].to_vec());
                    assert!(
                        expected.contains(&run),
                        "{name} {runtime}: {command} ran {run:?}, not one of {expected:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_multi_line_list_closed_at_its_keys_column_is_read_as_pyyaml_js_yaml_and_claude_code_read_it() {
    // awesome-copilot's react19-upgrade, as its publish step lays it out:
    // the react19-commander agent closes its `tools: [` and `agents: [`
    // lists with a `]` at the key's column. PyYAML, js-yaml 4 and Claude
    // Code (Bun's YAML) read it; the build was refused for every runtime.
    let out = TempDir::new("gaps-flow-indent");
    let report = build_all("ghcp-react19-upgrade", &out);
    let warnings: Vec<&Value> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "frontmatter_quoted")
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["location"]["file"], "agents/react19-commander.md");
    assert_eq!(warnings[0]["location"]["line"], 15);
    assert!(
        warnings[0]["message"].as_str().unwrap().contains("written indented into every bundle"),
        "{}",
        warnings[0]
    );
    let tools = [
        "agent",
        "vscode/memory",
        "edit/editFiles",
        "execute/getTerminalOutput",
        "execute/runInTerminal",
        "read/terminalLastCommand",
        "read/terminalSelection",
        "search",
        "search/usages",
        "read/problems",
    ];
    let agents = ["react19-auditor", "react19-dep-surgeon", "react19-migrator", "react19-test-guardian"];
    // The runtimes that keep both lists carry YAML a strict reader accepts,
    // with the values the lenient readers read.
    for file in ["claude-code/agents/react19-commander.md", "copilot/agents/react19-commander.md"] {
        let text = String::from_utf8(read(out.path(), file)).expect("UTF-8");
        let frontmatter =
            text.strip_prefix("---\n").and_then(|t| t.split_once("\n---\n")).expect("frontmatter").0;
        let docs = YamlLoader::load_from_str(frontmatter).unwrap_or_else(|e| panic!("{file}: {e}"));
        let list = |key: &str| -> Vec<String> {
            docs[0][key]
                .as_vec()
                .expect(key)
                .iter()
                .map(|v| v.as_str().expect("a string").to_string())
                .collect()
        };
        assert_eq!(list("tools"), tools, "{file}");
        assert_eq!(list("agents"), agents, "{file}");
        assert_eq!(docs[0]["argument-hint"].as_str(), Some("Just activate to start the React 19 migration."));
    }
    assert_ne!(row(&report, "claude-code", "agent", "react19-commander")["level"], "unsupported");
}
