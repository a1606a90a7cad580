//! A runtime whose bundle would load nothing is not written: a public
//! Codex plugin of app connectors only (OpenAI's `actively`, from the
//! real-world corpus) builds Codex alone, lists every other runtime of
//! `all` as not built with exit 0, and a runtime named on its own exits 1.

mod common;

use std::path::{Path, PathBuf};

use common::*;

const REASON: &str = "nothing this runtime can load (apps: unsupported)";

fn actively() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/realworld/codex-app-actively/plugin")
}

#[test]
fn target_all_builds_codex_and_lists_every_other_runtime_with_the_reason_exit_0() {
    let tmp = TempDir::new("apps-all");
    let out = tmp.join("out");
    let text = run(&["build", s(&actively()), "--target", "all", "--out", s(&out)]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stderr.contains(&format!("not built: gemini extension: {REASON}\n")), "{}", text.stderr);
    assert!(
        text.stderr.contains("listed: 15 bundle(s) have nothing to load and were not built"),
        "{}",
        text.stderr
    );
    assert!(!text.stderr.contains("refused:"), "{}", text.stderr);
    let folders: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(folders, ["codex"], "only Codex is written");
    let manifest = std::fs::read_to_string(out.join("codex/.codex-plugin/plugin.json")).unwrap();
    assert!(manifest.contains("\"apps\": \"./.app.json\""), "{manifest}");
    assert_eq!(
        std::fs::read_to_string(out.join("codex/.app.json")).unwrap(),
        std::fs::read_to_string(actively().join(".app.json")).unwrap()
    );

    let json = run(&["build", s(&actively()), "--target", "all", "--out", s(&tmp.join("json")), "--json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let report = json.json();
    assert_eq!(report["ok"], true);
    let failures = report["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 15);
    for failure in failures {
        assert_eq!(failure["skipped"], true, "{failure}");
        assert_eq!(failure["error"]["code"], "nothing_to_load");
        assert_eq!(failure["error"]["problems"][0]["message"], REASON);
    }
    let app = report["honesty"].as_array().unwrap().iter().find(|h| h["component"] == "app").unwrap();
    assert_eq!(
        (app["runtime"].as_str(), app["name"].as_str(), app["level"].as_str()),
        (Some("codex"), Some("actively"), Some("supported"))
    );
}

#[test]
fn a_runtime_named_that_builds_nothing_exits_1_naming_the_reason() {
    let tmp = TempDir::new("apps-named");
    let alone = run(&["build", s(&actively()), "--target", "gemini", "--out", s(&tmp.join("g"))]);
    assert_eq!(alone.code, 1, "{}", alone.stderr);
    assert!(
        alone.stderr.contains("nothing to build: no requested runtime can load anything this source holds"),
        "{}",
        alone.stderr
    );
    assert!(alone.stderr.contains(&format!("gemini: {REASON}")), "{}", alone.stderr);
    assert!(!tmp.join("g").join("gemini").exists(), "nothing written");

    let beside =
        run(&["build", s(&actively()), "--target", "codex,gemini", "--out", s(&tmp.join("cg")), "--json"]);
    assert_eq!(beside.code, 1, "{}", beside.stderr);
    let report = beside.json();
    assert_eq!(report["ok"], false);
    assert_eq!(report["failures"][0]["runtime"], "gemini");
    assert_eq!(report["failures"][0]["skipped"], false);
    assert!(tmp.join("cg/codex/.codex-plugin/plugin.json").is_file(), "codex is still written");
}

#[test]
fn language_server_plugins_build_where_their_servers_load_and_are_listed_everywhere_else() {
    // claude-plugins-official's twelve LSP plugins declare their servers in
    // their marketplace entries alone. Claude Code and Grok Build read
    // `lspServers`; every other runtime was written a bundle of metadata
    // that loads nothing, and Grok Build was listed though it loads them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/marketplaces/claude-plugins-official/marketplace");
    let tmp = TempDir::new("lsp-all");
    let out = tmp.join("out");
    let json = run(&["build", s(&root), "--target", "all", "--out", s(&out), "--json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let report = json.json();
    let mut folders: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    folders.sort();
    assert_eq!(folders, ["claude-code", "grok-build"]);
    let plugins: Vec<String> = std::fs::read_dir(out.join("claude-code"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(plugins.len(), 12, "{plugins:?}");
    for plugin in &plugins {
        let claude = read_json(&out, &format!("claude-code/{plugin}/.claude-plugin/plugin.json"));
        let grok = read_json(&out, &format!("grok-build/{plugin}/.grok-plugin/plugin.json"));
        assert!(claude["lspServers"].is_object(), "{plugin}: {claude}");
        assert_eq!(grok["lspServers"], claude["lspServers"], "{plugin}");
    }
    // 14 runtimes of `all` for each of the 12 plugins: listed, with the reason.
    let failures = report["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 14 * 12);
    for failure in failures {
        assert_eq!(failure["skipped"], true, "{failure}");
        assert_eq!(
            failure["error"]["problems"][0]["message"],
            "nothing this runtime can load (LSP servers: unsupported)"
        );
    }
    let rows: Vec<&serde_json::Value> =
        report["honesty"].as_array().unwrap().iter().filter(|h| h["component"] == "lsp").collect();
    assert!(rows.iter().any(|r| r["runtime"] == "grok-build" && r["level"] == "supported"), "{rows:?}");
    assert!(
        rows.iter().all(|r| r["level"] == "supported"),
        "only built bundles' rows are reported: {rows:?}"
    );
}
