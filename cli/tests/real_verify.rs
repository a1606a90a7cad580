//! `plugforge verify` with the real clients: Striatum built for every runtime
//! passes every client, listing what each loaded; a bundle broken three ways
//! after the build fails, naming the runtime, the component and the client's
//! own words (text, SARIF valid against the SARIF 2.1.0 schema, JUnit); and
//! neither the user's HOME nor the output root changes by a byte. Needs the
//! pinned clients (`PLUGFORGE_<ID>_BIN`, scripts/install-clients); a missing
//! client fails unless skipped by name (`PLUGFORGE_SKIP_CLIENTS`).

mod clients;
mod common;
mod schemas;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::*;
use serde_json::Value;

/// The clients verify runs, by id, with the variable naming each.
const CLIENTS: [(&str, &str); 11] = [
    ("claude", "PLUGFORGE_CLAUDE_BIN"),
    ("codex", "PLUGFORGE_CODEX_BIN"),
    ("gemini", "PLUGFORGE_GEMINI_BIN"),
    ("opencode", "PLUGFORGE_OPENCODE_BIN"),
    ("skills-ref", "PLUGFORGE_SKILLS_REF_BIN"),
    ("openclaw", "PLUGFORGE_OPENCLAW_BIN"),
    ("hermes", "PLUGFORGE_HERMES_BIN"),
    ("copilot", "PLUGFORGE_COPILOT_BIN"),
    ("qwen", "PLUGFORGE_QWEN_BIN"),
    ("droid", "PLUGFORGE_DROID_BIN"),
    ("qoder", "PLUGFORGE_QODER_BIN"),
];

/// Each installed client as `--client ID=PATH`; `None` for one skipped by name.
fn client_args(ids: &[&str]) -> BTreeMap<String, Option<String>> {
    CLIENTS
        .iter()
        .filter(|(id, _)| ids.contains(id))
        .map(|(id, var)| (id.to_string(), clients::client(var).map(|bin| format!("{id}={bin}"))))
        .collect()
}

/// `plugforge verify ARGS` with every found client named, HOME `home`, and
/// no other client.
fn verify(home: &Path, clients: &BTreeMap<String, Option<String>>, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_plugforge"));
    // Only the clients named here: none from plugforge's cache, so one skipped
    // by name stays skipped.
    command.arg("verify").args(args).env("HOME", home).env("PLUGFORGE_CACHE_DIR", home.join("no-cache"));
    for named in clients.values().flatten() {
        command.args(["--client", named]);
    }
    for (_, var) in CLIENTS {
        command.env_remove(var);
    }
    run_command(&mut command)
}

fn build_striatum(out: &Path, target: &str) {
    let source = striatum();
    run(&["build", s(&source), "--target", target, "--var", "runner_version=0.7.3", "--out", s(out)])
        .expect(0);
}

/// Every file below `root` with its sha256.
fn hashes(root: &Path) -> BTreeMap<String, String> {
    files(root).into_iter().map(|rel| (rel.clone(), sha256_hex(&read(root, &rel)))).collect()
}

fn client_of<'a>(bundle: &'a Value, id: &str) -> &'a Value {
    bundle["clients"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["client"] == id)
        .unwrap_or_else(|| panic!("{bundle:#}"))
}

fn counts(client: &Value) -> BTreeMap<String, (u64, u64)> {
    client["reading"]["loaded"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|n| {
                    let count = (n["loaded"].as_u64().unwrap(), n["built"].as_u64().unwrap());
                    (n["component"].as_str().unwrap().to_string(), count)
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn striatum_built_for_every_runtime_passes_every_pinned_client() {
    let ids: Vec<&str> = CLIENTS.iter().map(|(id, _)| *id).collect();
    let clients = client_args(&ids);
    let tmp = TempDir::new("real-verify-all");
    let out = tmp.join("out");
    build_striatum(&out, "all");
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let run = verify(&home, &clients, &[s(&out), "--json"]);
    let report = run.json();
    assert_eq!(run.code, 0, "{report:#}\n{}", run.stderr);
    let bundles: BTreeMap<&str, &Value> =
        report["bundles"].as_array().unwrap().iter().map(|b| (b["runtime"].as_str().unwrap(), b)).collect();
    for (runtime, client, expected) in [
        ("claude-code", "claude", vec![("skills", (10, 10)), ("agents", (1, 1)), ("hooks", (2, 2))]),
        ("codex", "codex", vec![("skills", (5, 5))]),
        (
            "gemini",
            "gemini",
            vec![("skills", (5, 5)), ("agents", (1, 1)), ("commands", (5, 5)), ("hooks", (2, 2))],
        ),
        ("opencode", "opencode", vec![("skills", (5, 5)), ("commands", (5, 5)), ("agents", (1, 1))]),
        ("agent-plugins", "skills-ref", vec![("valid skills", (5, 5))]),
        ("agent-plugins", "codex", vec![("skills", (5, 5))]),
        ("openclaw", "openclaw", vec![("skills", (5, 5))]),
        ("hermes", "hermes", vec![("skills served", (5, 5))]),
        ("copilot", "copilot", vec![("skills", (5, 5)), ("commands", (5, 5)), ("agents", (1, 1))]),
        (
            "qwen-code",
            "qwen",
            vec![("skills", (5, 5)), ("commands", (5, 5)), ("agents", (1, 1)), ("hooks", (2, 2))],
        ),
        ("factory-droid", "droid", vec![("skills", (5, 5)), ("commands", (5, 5)), ("droids", (1, 1))]),
        (
            "qoder",
            "qoder",
            // Striatum's two hook events hold no handler, and Qoder lists a hook per handler.
            vec![("skills", (5, 5)), ("commands", (5, 5)), ("agents", (1, 1)), ("hooks", (0, 0))],
        ),
    ] {
        let verdict = client_of(bundles[runtime], client);
        if clients[client].is_none() {
            assert_eq!(verdict["status"], "skipped", "{verdict:#}");
            continue;
        }
        assert_eq!(verdict["status"], "passed", "{runtime} / {client}: {verdict:#}");
        let counts = counts(verdict);
        for (component, count) in expected {
            assert_eq!(counts.get(component), Some(&count), "{runtime} / {client} {component}: {verdict:#}");
        }
    }
    for (runtime, why) in
        [("cursor", "Cursor has no command-line client"), ("antigravity", "agy"), ("generic", "guide")]
    {
        assert_eq!(bundles[runtime]["status"], "not-judged");
        assert!(bundles[runtime]["reason"].as_str().unwrap().contains(why), "{:#}", bundles[runtime]);
    }
}

/// The Claude Code bundle, broken after the build: a skill folder deleted,
/// a manifest field Claude Code refuses (`--strict`), an MCP entry its loader
/// drops.
fn break_claude_bundle(out: &Path) {
    std::fs::remove_dir_all(out.join("claude-code/skills/striatum-workflow")).unwrap();
    let mut manifest = read_json(out, "claude-code/.claude-plugin/plugin.json");
    manifest["bogusField"] = Value::from(1);
    write(out, "claude-code/.claude-plugin/plugin.json", serde_json::to_vec_pretty(&manifest).unwrap());
    write(out, "claude-code/.mcp.json", r#"{"mcpServers": {"dropped": {"type": "stdio"}}}"#);
}

#[test]
fn a_bundle_broken_three_ways_fails_naming_runtime_component_and_client_words() {
    let clients = client_args(&["claude"]);
    if clients["claude"].is_none() {
        return;
    }
    let tmp = TempDir::new("real-verify-broken");
    let out = tmp.join("out");
    build_striatum(&out, "claude-code");
    break_claude_bundle(&out);
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();

    let run = verify(&home, &clients, &[s(&out)]);
    run.expect(1);
    let text = &run.stdout;
    assert!(text.starts_with("claude-code  failed  Claude Code"), "{text}");
    assert!(text.contains("skills 9/10"), "{text}");
    assert!(
        text.contains("skill striatum-workflow (skills/striatum-workflow/SKILL.md): built, but Claude Code did not load it"),
        "{text}"
    );
    assert!(
        text.contains("[.claude-plugin/plugin.json]: bogusField: Unknown field 'bogusField'. Claude Code ignores it at load time."),
        "{text}"
    );
    assert!(text.contains("[.mcp.json]: mcpServers.dropped.command: Invalid input"), "{text}");
    assert!(text.contains("The plugin loader silently drops this server at load."), "{text}");
    assert!(text.contains("verify: 1 failed"), "{text}");

    let run = verify(&home, &clients, &[s(&out), "--format", "sarif"]);
    run.expect(1);
    let log = run.json();
    assert_eq!(schemas::schema_errors("sarif-schema-2.1.0.json", &log), Vec::<String>::new(), "{log:#}");
    let located: Vec<(String, String)> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
            (uri.to_string(), r["message"]["text"].as_str().unwrap().to_string())
        })
        .collect();
    for (file, words) in [
        (
            "claude-code/skills/striatum-workflow/SKILL.md",
            "skill striatum-workflow is built but Claude Code did not load it",
        ),
        ("claude-code/.claude-plugin/plugin.json", "Unknown field 'bogusField'"),
        ("claude-code/.mcp.json", "mcpServers.dropped.command"),
    ] {
        assert!(located.iter().any(|(f, m)| f == file && m.contains(words)), "{file}: {located:#?}");
    }

    let run = verify(&home, &clients, &[s(&out), "--format", "junit"]);
    run.expect(1);
    let doc = roxmltree::Document::parse(&run.stdout).expect("JUnit XML");
    let failure = doc.descendants().find(|n| n.has_tag_name("failure")).expect("a failure");
    let body = failure.text().unwrap_or_default();
    for words in ["claude-code/skills/striatum-workflow/SKILL.md", "claude-code/.mcp.json: ", "bogusField"] {
        assert!(body.contains(words), "{words}: {body}");
    }
}

#[test]
fn verify_leaves_the_users_home_and_the_output_root_as_they_were() {
    let clients = client_args(&["claude", "codex", "gemini"]);
    let tmp = TempDir::new("real-verify-home");
    let out = tmp.join("out");
    build_striatum(&out, "claude-code,codex,gemini");
    let home = tmp.join("home");
    // A user's own configuration, where the clients keep theirs.
    write(&home, ".claude/settings.json", r#"{"enabledPlugins": {"mine@mine": true}}"#);
    write(&home, ".claude.json", r#"{"numStartups": 3}"#);
    write(&home, ".codex/config.toml", "model = \"mine\"\n");
    write(&home, ".gemini/settings.json", r#"{"theme": "mine"}"#);
    write(&home, ".cache/plugforge/note.txt", "mine\n");
    let home_before = hashes(&home);
    let out_before = hashes(&out);
    let run = verify(&home, &clients, &[s(&out), "--json"]);
    let report = run.json();
    let ran = clients.values().flatten().count();
    let passed = report["bundles"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["clients"].as_array().unwrap())
        .filter(|c| c["status"] == "passed")
        .count();
    assert_eq!(passed, ran, "{report:#}");
    assert_eq!(hashes(&home), home_before, "the HOME changed");
    assert_eq!(hashes(&out), out_before, "the output root changed");
}

#[test]
fn the_project_kinds_pass_in_both_scopes() {
    let clients = client_args(&["claude", "codex", "gemini"]);
    let source = repo_root().join("tests/vectors/canonical-full/input");
    for scope in ["project", "user"] {
        let tmp = TempDir::new(&format!("real-verify-{scope}"));
        let out = tmp.join("out");
        let targets = "claude-code:project,codex:project,gemini:project";
        run(&[
            "build",
            s(&source),
            "--target",
            targets,
            "--namespace",
            "dk",
            "--scope",
            scope,
            "--out",
            s(&out),
        ])
        .expect(0);
        let home = tmp.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let run = verify(&home, &clients, &[s(&out), "--json"]);
        let report = run.json();
        assert_eq!(run.code, 0, "{scope}: {report:#}");
        for (runtime, client, expected) in [
            (
                "claude-code",
                "claude",
                vec![("skills", (3, 3)), ("agents", (1, 1)), ("hooks", (2, 2)), ("MCP servers", (1, 1))],
            ),
            (
                "codex",
                "codex",
                vec![("skills", (1, 1)), ("agent roles", (1, 1)), ("hooks", (2, 2)), ("MCP servers", (1, 1))],
            ),
            (
                "gemini",
                "gemini",
                vec![("skills", (1, 1)), ("commands", (2, 2)), ("hooks", (2, 2)), ("MCP servers", (1, 1))],
            ),
        ] {
            let bundle =
                report["bundles"].as_array().unwrap().iter().find(|b| b["runtime"] == runtime).unwrap();
            assert_eq!((bundle["kind"].as_str(), bundle["bundle"].as_str()), (Some("project"), Some(".")));
            let verdict = client_of(bundle, client);
            if clients[client].is_none() {
                continue;
            }
            assert_eq!(verdict["status"], "passed", "{scope} {runtime}: {verdict:#}");
            let counts = counts(verdict);
            for (component, count) in expected {
                assert_eq!(counts.get(component), Some(&count), "{scope} {runtime} {component}: {verdict:#}");
            }
        }
    }
}

/// OpenCode 1.18 exits before a pipe takes more than 64 KiB: a project with
/// many skills (addyosmani/agent-skills, 19 of them) once came back cut off,
/// every skill missing. The driver reads its output from files.
#[test]
fn opencode_lists_every_skill_of_a_large_project() {
    let clients = client_args(&["opencode"]);
    if clients["opencode"].is_none() {
        return;
    }
    let tmp = TempDir::new("real-verify-large");
    let plugin = tmp.join("agent-skills");
    copy_dir(&repo_root().join("tests/conformance/realworld/addy-agent-skills/plugin"), &plugin);
    let out = tmp.join("out");
    run(&["build", s(&plugin), "--target", "opencode", "--out", s(&out)]).expect(0);
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let run = verify(&home, &clients, &[s(&out), "--json"]);
    let report = run.json();
    assert_eq!(run.code, 0, "{report:#}");
    let verdict = client_of(&report["bundles"][0], "opencode");
    let (loaded, built) = counts(verdict)["skills"];
    assert!(loaded == built && built >= 19, "{verdict:#}");
    assert_eq!(counts(verdict).get("agents"), Some(&(3, 3)), "{verdict:#}");
}

/// knowledge-work-plugins' engineering plugin ships two remote MCP servers
/// with an empty `url`: Copilot CLI then ignores its whole `.mcp.json`
/// (every server, as its log says) and OpenClaw reports the incomplete
/// configs. Verify fails both, in their own words.
#[test]
fn servers_with_an_empty_url_fail_copilot_and_openclaw_in_their_words() {
    let clients = client_args(&["copilot", "openclaw"]);
    let tmp = TempDir::new("real-verify-empty-url");
    let plugin = tmp.join("engineering");
    copy_dir(&repo_root().join("tests/conformance/realworld/kwp-engineering/plugin"), &plugin);
    let out = tmp.join("out");
    run(&["build", s(&plugin), "--target", "copilot,openclaw", "--out", s(&out)]).expect(0);
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let run = verify(&home, &clients, &[s(&out), "--json"]);
    let report = run.json();
    let bundles: BTreeMap<&str, &Value> =
        report["bundles"].as_array().unwrap().iter().map(|b| (b["runtime"].as_str().unwrap(), b)).collect();
    if clients["copilot"].is_some() {
        run.expect(1);
        let copilot = client_of(bundles["copilot"], "copilot");
        assert_eq!(copilot["status"], "failed", "{copilot:#}");
        let missing: Vec<&str> = copilot["reading"]["missing"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap())
            .collect();
        assert!(missing.contains(&"google calendar") && missing.contains(&"slack"), "{missing:?}");
        let said: Vec<&str> = copilot["reading"]["said"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["message"].as_str().unwrap())
            .collect();
        assert!(said.iter().any(|m| m.contains("mcpServers.google calendar.url: Invalid url")), "{said:#?}");
    }
    if clients["openclaw"].is_some() {
        let openclaw = client_of(bundles["openclaw"], "openclaw");
        assert_eq!(openclaw["status"], "failed", "{openclaw:#}");
        let said = openclaw["reading"]["said"].to_string();
        assert!(
            said.contains("unsupported transports or incomplete configs (google calendar, gmail)"),
            "{said}"
        );
    }
}
