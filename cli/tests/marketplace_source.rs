//! `plugforge build <marketplace root>`: every plugin a marketplace file
//! lists is built into one output root, as a monorepo's members: plugins
//! defined in their entries (`"strict": false` with components, LSP servers
//! declared only there), metadata taken from the entries, remote entries
//! listed as not built, and an entry leaving the root refused at its line.
//! Real cases: tests/marketplaces/ (see each SOURCE.json).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn marketplace(name: &str) -> PathBuf {
    repo_root().join("tests/marketplaces").join(name).join("marketplace")
}

/// The `not_built` diagnostics of a `build --json` report: (message, file, line).
fn not_built(report: &Value) -> Vec<(String, String, u64)> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "not_built")
        .map(|d| {
            let at = &d["location"];
            let file = at["file"].as_str().expect("a file").to_string();
            let file =
                file.rsplit_once("tests/marketplaces/").map_or(file.clone(), |(_, rel)| rel.to_string());
            (
                d["message"].as_str().expect("a message").to_string(),
                file,
                at["line"].as_u64().expect("a line"),
            )
        })
        .collect()
}

#[test]
fn the_official_marketplaces_lsp_plugins_build_from_its_root_and_its_remote_entries_are_not_built() {
    let tmp = TempDir::new("market-official");
    let out = tmp.join("dist");
    let (code, report) = build_json(&marketplace("claude-plugins-official"), &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    let lsp = [
        ("clangd-lsp", "clangd"),
        ("csharp-lsp", "csharp-ls"),
        ("gopls-lsp", "gopls"),
        ("jdtls-lsp", "jdtls"),
        ("kotlin-lsp", "kotlin-lsp"),
        ("lua-lsp", "lua-language-server"),
        ("php-lsp", "intelephense"),
        ("pyright-lsp", "pyright-langserver"),
        ("ruby-lsp", "ruby-lsp"),
        ("rust-analyzer-lsp", "rust-analyzer"),
        ("swift-lsp", "sourcekit-lsp"),
        ("typescript-lsp", "typescript-language-server"),
    ];
    let listing: Value =
        read_json(&marketplace("claude-plugins-official"), ".claude-plugin/marketplace.json");
    for (plugin, command) in lsp {
        let manifest = read_json(&out, &format!("claude-code/{plugin}/.claude-plugin/plugin.json"));
        let entry = listing["plugins"].as_array().unwrap().iter().find(|e| e["name"] == plugin).unwrap();
        assert_eq!(manifest["name"], plugin);
        assert_eq!(
            manifest["lspServers"], entry["lspServers"],
            "{plugin}: the entry's LSP servers, as written"
        );
        let commands: BTreeSet<&str> = manifest["lspServers"]
            .as_object()
            .unwrap()
            .values()
            .filter_map(|s| s["command"].as_str())
            .collect();
        assert!(commands.contains(command), "{plugin}: {commands:?}");
        assert_eq!(manifest["author"], entry["author"], "{plugin}: the author given only in the entry");
        assert_eq!(manifest["description"], entry["description"]);
        for key in ["strict", "source", "category"] {
            assert!(manifest.get(key).is_none(), "{plugin}: {key} belongs to the listing: {manifest}");
        }
        assert_eq!(
            read(&out, &format!("claude-code/{plugin}/LICENSE")),
            read(&marketplace("claude-plugins-official"), &format!("plugins/{plugin}/LICENSE"))
        );
    }
    let built = read_json(&out, ".claude-plugin/marketplace.json");
    let entries = built["plugins"].as_array().expect("plugins");
    let names: BTreeSet<&str> = entries.iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, lsp.iter().map(|(name, _)| *name).collect::<BTreeSet<_>>());
    let typescript = entries.iter().find(|e| e["name"] == "typescript-lsp").unwrap();
    assert_eq!(typescript["category"], "development", "the entry's category is carried: {typescript}");
    assert_eq!(typescript["source"], "./claude-code/typescript-lsp");
    let file = "claude-plugins-official/marketplace/.claude-plugin/marketplace.json".to_string();
    assert_eq!(
        not_built(&report),
        [
            ("plugin \"amd-skills\": not built: remote source (no network)".to_string(), file.clone(), 306),
            ("plugin \"box\": not built: remote source (no network)".to_string(), file, 326),
        ]
    );
    assert!(!out.join("claude-code/amd-skills").exists() && !out.join("claude-code/box").exists());
}

#[test]
fn the_not_built_rows_are_said_in_the_text_report_too() {
    let tmp = TempDir::new("market-text");
    let run = build(&marketplace("claude-plugins-official"), &tmp.join("dist"), &["--dry-run"]);
    run.expect(0);
    let rows: Vec<&str> =
        run.stderr.lines().chain(run.stdout.lines()).filter(|l| l.contains("not built")).collect();
    assert_eq!(rows.len(), 2, "{}\n{}", run.stdout, run.stderr);
    assert!(rows[0].starts_with("warning[not_built]: "), "{}", rows[0]);
    assert!(rows[0].ends_with(".claude-plugin/marketplace.json:306:1: plugin \"amd-skills\": not built: remote source (no network)"), "{}", rows[0]);
}

#[test]
fn strict_false_entries_at_the_marketplace_root_each_build_the_skills_they_list() {
    let tmp = TempDir::new("market-skills");
    let out = tmp.join("dist");
    let source = marketplace("anthropic-skills");
    let (code, report) = build_json(&source, &out, &["--target", "codex"]);
    assert_eq!(code, 0, "{report:#}");
    let listing = read_json(&source, ".claude-plugin/marketplace.json");
    for entry in listing["plugins"].as_array().unwrap() {
        let name = entry["name"].as_str().unwrap();
        let listed: BTreeSet<String> = entry["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().rsplit('/').next().unwrap().to_string())
            .collect();
        for runtime in ["claude-code", "codex"] {
            let built = dirs(&out.join(runtime).join(name).join("skills"));
            let built: BTreeSet<String> = built.into_iter().filter(|d| !d.contains('/')).collect();
            assert_eq!(built, listed, "{runtime}/{name}: exactly the skills its entry lists");
            for skill in &listed {
                assert_eq!(
                    read(&out.join(runtime).join(name), &format!("skills/{skill}/SKILL.md")),
                    read(&source, &format!("skills/{skill}/SKILL.md")),
                    "{runtime}/{name}/{skill}"
                );
            }
        }
        let manifest = read_json(&out, &format!("claude-code/{name}/.claude-plugin/plugin.json"));
        assert_eq!(manifest["description"], entry["description"]);
    }
    assert!(not_built(&report).is_empty());
}

fn write_market(root: &Path, market: &str) {
    write(root, ".claude-plugin/marketplace.json", market);
}

#[test]
fn an_entry_leaving_the_marketplace_root_refuses_the_build_at_its_line_and_writes_nothing() {
    let tmp = TempDir::new("market-escape");
    let root = tmp.join("m");
    write_market(
        &root,
        "{\n  \"name\": \"m\",\n  \"owner\": {\"name\": \"o\"},\n  \"plugins\": [\n    {\"name\": \"a\", \"source\": \"./a\"},\n    {\"name\": \"out\", \"source\": \"./../outside\"}\n  ]\n}\n",
    );
    write(&root, "a/commands/hello.md", "---\ndescription: hi\n---\nHello\n");
    write(&tmp.join("outside"), "commands/secret.md", "---\ndescription: no\n---\nNo\n");
    let out = tmp.join("dist");
    let (code, report) = build_json(&root, &out, &[]);
    assert_eq!(code, 1, "{report:#}");
    let (kind, problem) = error(&report);
    assert_eq!(kind, "invalid_source");
    assert!(
        problem["message"].as_str().unwrap().contains("the source of plugin \"out\" is refused"),
        "{problem}"
    );
    assert!(
        problem["location"]["file"].as_str().unwrap().ends_with("m/.claude-plugin/marketplace.json"),
        "{problem}"
    );
    assert_eq!(problem["location"]["line"], 6);
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn remote_entries_beside_a_local_one_are_listed_and_a_listed_empty_folder_is_refused() {
    let tmp = TempDir::new("market-remote");
    let root = tmp.join("m");
    write_market(
        &root,
        r#"{"name": "m", "owner": {"name": "o"}, "plugins": [
  {"name": "g", "source": {"source": "github", "repo": "o/g"}},
  {"name": "u", "source": {"source": "url", "url": "https://example.com/u.git"}},
  {"name": "local", "source": "./local", "strict": false, "commands": ["./cmds/"]}
]}"#,
    );
    write(&root, "local/cmds/hi.md", "---\ndescription: hi\n---\nHi\n");
    let out = tmp.join("dist");
    let run = run(&["build", s(&root), "--target", "claude-code,cursor", "--out", s(&out), "--json"]);
    let report = run.json();
    assert_eq!(run.code, 0, "{report:#}");
    assert_eq!(not_built(&report).len(), 2);
    assert_eq!(read(&out, "claude-code/local/commands/hi.md"), read(&root, "local/cmds/hi.md"));
    assert!(out.join("cursor/local/commands/hi.md").exists());
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(root.join("local")).unwrap();
    write_market(
        &root,
        r#"{"name": "m", "owner": {"name": "o"}, "plugins": [
  {"name": "g", "source": {"source": "github", "repo": "o/g"}},
  {"name": "h", "source": {"source": "npm", "package": "h"}},
  {"name": "i", "source": "./i"}
]}"#,
    );
    write(&root, "i/.claude-plugin/plugin.json", r#"{"name": "i"}"#);
    write(&root, "i/commands/x.md", "x\n");
    std::fs::remove_dir_all(root.join("i")).unwrap();
    let run = build(&root, &out, &[]);
    run.expect(1);
    assert!(run.stderr.contains("plugin \"i\" lists ./i, which holds no file"), "{}", run.stderr);
    assert!(!out.exists());
}

#[test]
fn strict_false_beside_the_plugins_own_manifest_is_refused_as_claude_code_refuses_it() {
    let tmp = TempDir::new("market-conflict");
    let root = tmp.join("m");
    write_market(
        &root,
        "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [\n  {\"name\": \"a\", \"source\": \"./a\"},\n  {\"name\": \"kit\", \"source\": \"./kit\", \"strict\": false, \"agents\": [\"./agents/x.md\"]}\n]}\n",
    );
    write(&root, "a/commands/hello.md", "Hello\n");
    write(&root, "kit/.claude-plugin/plugin.json", r#"{"name": "kit", "version": "1.0.0"}"#);
    write(&root, "kit/agents/x.md", "---\nname: x\ndescription: x\n---\nX\n");
    let (code, report) = build_json(&root, &tmp.join("dist"), &[]);
    assert_eq!(code, 1, "{report:#}");
    let (_, problem) = error(&report);
    let message = problem["message"].as_str().unwrap();
    assert!(message.contains("\"strict\": false and its entry declares agents"), "{message}");
    assert!(message.contains("kit/.claude-plugin/plugin.json"), "{message}");
    assert_eq!(problem["location"]["line"], 3);
}

#[test]
fn a_marketplace_of_remote_entries_alone_builds_nothing_and_names_each_entry() {
    let tmp = TempDir::new("market-remote-only");
    let root = tmp.join("m");
    write_market(
        &root,
        "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [\n  {\"name\": \"g\", \"source\": {\"source\": \"github\", \"repo\": \"o/g\"}},\n  {\"name\": \"n\", \"source\": {\"source\": \"npm\", \"package\": \"n\"}}\n]}\n",
    );
    write(&root, "README.md", "# m\n");
    let out = tmp.join("dist");
    let run = build(&root, &out, &[]);
    run.expect(1);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert!(lines[0].starts_with("error[invalid_source]: "), "{}", run.stderr);
    assert!(
        lines[0].ends_with(
            "m/.claude-plugin/marketplace.json:2:1: plugin \"g\": not built: remote source (no network)"
        ),
        "{}",
        run.stderr
    );
    assert!(
        lines[1].ends_with(
            "m/.claude-plugin/marketplace.json:3:1: plugin \"n\": not built: remote source (no network)"
        ),
        "{}",
        run.stderr
    );
    assert!(!out.exists());
}
