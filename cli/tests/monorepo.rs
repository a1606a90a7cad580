//! `plugforge build A B C --out dist`: several plugins into one output root,
//! each runtime's marketplace listing all of them, refused before anything
//! is written when they get in each other's way, and a member removed from
//! the command taking its files and entries with it (edited files stay).

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

/// The real-world plugins the monorepo test builds, as their authors ship them.
const REAL_WORLD: [&str; 10] = [
    "superpowers",
    "cpo-pr-review-toolkit",
    "cpo-commit-commands",
    "cpo-hookify",
    "cpo-security-guidance",
    "cpo-code-review",
    "cpo-plugin-dev",
    "cpo-frontend-design",
    "codex-context7",
    "gemini-security",
];

fn real_world(unit: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/realworld").join(unit).join("plugin")
}

fn build_all(sources: &[PathBuf], out: &Path, extra: &[&str]) -> Run {
    build_for("all", sources, out, extra)
}

fn build_for(target: &str, sources: &[PathBuf], out: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["build"];
    args.extend(sources.iter().map(|p| s(p)));
    args.extend(["--target", target, "--out", s(out)]);
    args.extend_from_slice(extra);
    run(&args)
}

fn entry_sources(marketplace: &Value) -> Vec<String> {
    let plugins = marketplace["plugins"].as_array().expect("plugins list");
    plugins
        .iter()
        .map(|p| match &p["source"] {
            Value::String(path) => path.clone(),
            other => other["path"].as_str().expect("a local source").to_string(),
        })
        .collect()
}

fn entry_names(marketplace: &Value) -> Vec<String> {
    let plugins = marketplace["plugins"].as_array().expect("plugins list");
    let mut names: Vec<String> = plugins.iter().map(|p| p["name"].as_str().unwrap().to_string()).collect();
    names.sort();
    names
}

/// A small canonical plugin named `name` with one skill of its own.
fn plugin(dir: &Path, name: &str, extra: &[(&str, &str)]) {
    write(
        dir,
        "plugforge.json",
        format!(
            r#"{{"name":"{name}","version":"1.0.0","description":"The {name} plugin","author":{{"name":"a"}}}}"#
        ),
    );
    write(
        dir,
        &format!("skills/{name}-skill/SKILL.md"),
        format!("---\nname: {name}-skill\ndescription: Does {name} things.\n---\nDo it.\n"),
    );
    for (rel, text) in extra {
        write(dir, rel, text);
    }
}

#[test]
fn ten_real_world_plugins_build_into_one_marketplace_per_runtime() {
    let tmp = TempDir::new("monorepo-real");
    let out = tmp.join("dist");
    let sources: Vec<PathBuf> = REAL_WORLD.iter().map(|u| real_world(u)).collect();
    let first = build_all(&sources, &out, &["--json"]);
    first.expect(0);
    let report = first.json();
    assert_eq!(report["applied"], true);

    let names = [
        "code-review",
        "commit-commands",
        "context7",
        "frontend-design",
        "gemini-cli-security",
        "hookify",
        "plugin-dev",
        "pr-review-toolkit",
        "security-guidance",
        "superpowers",
    ];
    let mut expected: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    expected.sort();
    // Two plugins of commands and agents alone give Codex nothing it loads
    // (a plugin ships no agent role, and Codex migrates no command of theirs):
    // they are listed as not built for Codex, never written empty.
    let codex_loads_nothing = ["commit-commands", "pr-review-toolkit"];
    let mut listed: Vec<(String, String)> = report["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|f| {
            assert_eq!(
                (f["skipped"].as_bool(), f["error"]["code"].as_str()),
                (Some(true), Some("nothing_to_load")),
                "{f}"
            );
            (
                f["runtime"].as_str().unwrap().to_string(),
                f["error"]["problems"][0]["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    listed.sort();
    assert_eq!(listed.iter().filter(|(runtime, _)| runtime == "codex").count(), 2, "{listed:?}");
    for (file, folder) in [
        (".claude-plugin/marketplace.json", "claude-code"),
        (".agents/plugins/marketplace.json", "codex"),
        (".cursor-plugin/marketplace.json", "cursor"),
        (".github/plugin/marketplace.json", "copilot"),
    ] {
        let marketplace = read_json(&out, file);
        assert_eq!(marketplace["name"], "local-dist", "{file}");
        let mut expected = expected.clone();
        if folder == "codex" {
            expected.retain(|name| !codex_loads_nothing.contains(&name.as_str()));
        }
        assert_eq!(entry_names(&marketplace), expected, "{file}");
        for source in entry_sources(&marketplace) {
            let plugin = source.strip_prefix("./").expect("a ./ source");
            assert!(plugin.starts_with(&format!("{folder}/")), "{file}: {source}");
            assert!(
                out.join(plugin).join(".plugforge-manifest.json").is_file(),
                "{file}: {source} not built"
            );
        }
    }
    // Every bundle sits in its plugin's folder and states its plugin's version.
    for name in names {
        let manifest = read_json(&out, &format!("claude-code/{name}/.plugforge-manifest.json"));
        assert_eq!(manifest["namespace"], name);
        if codex_loads_nothing.contains(&name) {
            assert!(!out.join(format!("codex/{name}")).exists(), "{name}: no empty Codex bundle");
            continue;
        }
        let codex = read_json(&out, &format!("codex/{name}/.plugforge-manifest.json"));
        assert_eq!(codex["plugin"]["version"], manifest["plugin"]["version"], "{name}");
    }

    // Nothing changed: nothing is written.
    let again = build_all(&sources, &out, &[]);
    again.expect(0);
    assert!(again.stdout.contains("(0 writes)"), "{}", again.stdout);
}

#[test]
fn a_member_removed_takes_its_files_and_entries_and_leaves_edits() {
    let tmp = TempDir::new("monorepo-remove");
    let (a, b, c) = (tmp.join("plugins/alpha"), tmp.join("plugins/beta"), tmp.join("plugins/gamma"));
    plugin(&a, "alpha", &[]);
    plugin(&b, "beta", &[]);
    plugin(&c, "gamma", &[]);
    let out = tmp.join("dist");
    build_all(&[a.clone(), b.clone(), c.clone()], &out, &[]).expect(0);
    let marketplace = read_json(&out, ".claude-plugin/marketplace.json");
    assert_eq!(entry_names(&marketplace), ["alpha", "beta", "gamma"]);
    assert!(out.join("claude-code/beta/skills/beta-skill/SKILL.md").is_file());
    assert!(out.join(".opencode/skills/beta-skill/SKILL.md").is_file());

    // The user edits one of beta's files, then beta leaves the monorepo.
    let edited = out.join("codex/beta/skills/beta-skill/SKILL.md");
    std::fs::write(&edited, "---\nname: beta-skill\ndescription: Mine now.\n---\nMine.\n").unwrap();
    let removed = build_all(&[a.clone(), c.clone()], &out, &["--json"]);
    removed.expect(0);
    let report = removed.json();
    let ops = ops(&report);
    let removed_paths: Vec<&String> = ops.iter().filter(|(_, op)| *op == "remove").map(|(p, _)| p).collect();
    assert!(
        removed_paths.iter().any(|p| p.ends_with("claude-code/beta/skills/beta-skill/SKILL.md")),
        "{ops:?}"
    );
    assert!(!out.join("claude-code/beta").exists(), "beta's Claude bundle is gone");
    assert!(!out.join(".opencode/skills/beta-skill/SKILL.md").exists(), "beta's OpenCode skill is gone");
    assert_eq!(
        std::fs::read_to_string(&edited).unwrap(),
        "---\nname: beta-skill\ndescription: Mine now.\n---\nMine.\n"
    );
    for file in [
        ".claude-plugin/marketplace.json",
        ".agents/plugins/marketplace.json",
        ".github/plugin/marketplace.json",
    ] {
        assert_eq!(entry_names(&read_json(&out, file)), ["alpha", "gamma"], "{file}");
    }
    assert!(out.join("claude-code/alpha/skills/alpha-skill/SKILL.md").is_file());

    // The edited file is kept, and a rerun writes nothing.
    let again = build_all(&[a, c], &out, &[]);
    again.expect(0);
    assert!(again.stdout.contains("(0 writes)"), "{}", again.stdout);
}

#[test]
fn members_in_each_others_way_are_refused_before_anything_is_written_and_a_clash_fails_its_runtime_alone() {
    let tmp = TempDir::new("monorepo-refused");
    let out = tmp.join("dist");

    // Two folders holding the same plugin.
    let (one, two) = (tmp.join("one"), tmp.join("two"));
    plugin(&one, "same", &[]);
    plugin(&two, "same", &[]);
    let twice = build_all(&[one.clone(), two.clone()], &out, &[]);
    twice.expect(1);
    assert!(twice.stderr.contains("are both the plugin \"same\""), "{}", twice.stderr);
    assert!(!out.exists(), "nothing may be written");

    // Two plugins whose skills share a name: the runtime that puts every
    // plugin's skills in one folder (OpenCode) cannot hold both, so it is not
    // built and is listed with the file; every other runtime is built.
    let (left, right) = (tmp.join("left"), tmp.join("right"));
    let shared = ("skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploys.\n---\nGo.\n");
    plugin(&left, "left", &[shared]);
    plugin(&right, "right", &[shared]);
    let clash_out = tmp.join("clash");
    let clash = build_all(&[left.clone(), right.clone()], &clash_out, &["--json"]);
    clash.expect(1);
    let report = clash.json();
    let failures = report["failures"].as_array().expect("failures");
    assert_eq!(failures.len(), 1, "{report:#}");
    assert_eq!(failures[0]["runtime"], "opencode");
    assert_eq!(failures[0]["error"]["code"], "invalid_source");
    let message = failures[0]["error"]["problems"][0]["message"].as_str().unwrap();
    assert!(message.contains(".opencode/skills/deploy/SKILL.md would be written by both"), "{message}");
    assert!(message.contains("left") && message.contains("right"), "{message}");
    assert!(!clash_out.join(".opencode").exists(), "nothing of OpenCode may be written");
    for folder in ["claude-code/left", "claude-code/right", "codex/right"] {
        let skill = std::fs::read_to_string(clash_out.join(folder).join("skills/deploy/SKILL.md"))
            .unwrap_or_else(|e| panic!("{folder}: {e}"));
        assert!(skill.contains("description: Deploys."), "{folder}: {skill}");
    }

    // A member's own problem names the member's file.
    let broken = tmp.join("broken");
    plugin(&broken, "broken", &[("commands/go.md", "---\ndescription: \"unterminated\n---\nGo.\n")]);
    let bad = build_all(&[one, broken.clone()], &out, &[]);
    bad.expect(1);
    assert!(bad.stderr.contains(&format!("{}/commands/go.md", s(&broken))), "{}", bad.stderr);
    assert!(!out.exists(), "nothing may be written");
}

#[test]
fn plugins_sharing_an_mcp_server_are_refused_for_codex() {
    let tmp = TempDir::new("monorepo-across");
    let out = tmp.join("dist");
    let server = r#"{"mcpServers": {"search": {"command": "npx", "args": ["-y", "search-mcp"]}}}"#;
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    plugin(&a, "alpha", &[(".mcp.json", server)]);
    plugin(&b, "beta", &[(".mcp.json", server)]);
    let run = build_for("codex", &[a, b], &out, &["--json"]);
    run.expect(1);
    let report = run.json();
    let problems = report["error"]["problems"].as_array().expect("problems");
    assert!(
        problems
            .iter()
            .any(|p| p["message"].as_str().unwrap().starts_with("marketplace/mcp-server-collision")),
        "{report:#}"
    );
    assert!(!out.exists(), "nothing may be written");
}

#[test]
fn several_sources_need_an_output_root() {
    let tmp = TempDir::new("monorepo-out");
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    plugin(&a, "alpha", &[]);
    plugin(&b, "beta", &[]);
    let run = run(&["build", s(&a), s(&b)]);
    run.expect(2);
    assert!(
        run.stderr.contains("several sources build into one output root: name it with --out"),
        "{}",
        run.stderr
    );
    assert!(!a.join("dist").exists() && !b.join("dist").exists());
}
