//! Acceptance: `plugforge validate` prints one `file:line:col: severity[code]
//! message` line and a fix line per finding, prints `{ok, report}` with
//! `--json`, exits 1 iff invalid (`--strict`: any warning), 2 on bad usage.

mod common;

use std::path::Path;

use serde_json::Value;

use common::*;

/// The human lines `validate` prints for a `--json` report of `dir`.
fn human(dir: &str, report: &Value) -> String {
    let mut text = String::new();
    for subject in report["subjects"].as_array().expect("subjects") {
        let root = match subject["root"].as_str().expect("root") {
            "" => dir.to_string(),
            root => format!("{dir}/{root}"),
        };
        let runtime = subject["runtime"].as_str().unwrap_or("every targeted runtime");
        let (kind, marker) =
            (subject["kind"].as_str().expect("kind"), subject["marker"].as_str().expect("marker"));
        text.push_str(&format!("  {kind} {root} for {runtime} ({marker})\n"));
    }
    for finding in report["findings"].as_array().expect("findings") {
        let place = match (finding["file"].as_str(), finding["line"].as_u64(), finding["column"].as_u64()) {
            (Some(file), Some(line), Some(column)) => format!("{dir}/{file}:{line}:{column}"),
            (Some(file), Some(line), None) => format!("{dir}/{file}:{line}"),
            (Some(file), None, _) => format!("{dir}/{file}"),
            (None, _, _) => dir.to_string(),
        };
        let runtime = finding["runtime"].as_str().map(|r| format!(" ({r})")).unwrap_or_default();
        text.push_str(&format!(
            "{place}: {}[{}]{runtime} {}\n    fix: {}\n",
            finding["severity"].as_str().expect("severity"),
            finding["code"].as_str().expect("code"),
            finding["message"].as_str().expect("message"),
            finding["fix"].as_str().expect("fix"),
        ));
    }
    let verdict = if report["valid"] == true { "valid" } else { "invalid" };
    let strict = if report["strict"] == true { ", strict" } else { "" };
    text.push_str(&format!(
        "{verdict}: {} errors, {} warnings{strict}\n",
        report["errors"], report["warnings"]
    ));
    text
}

/// `validate DIR EXTRA... --json`: (exit code, report), checking `ok`.
fn validate_json(dir: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["validate", s(dir), "--json"];
    args.extend_from_slice(extra);
    let run = run(&args);
    let json = run.json();
    assert_eq!(json["ok"], json["report"]["valid"], "{json:#}");
    (run.code, json["report"].clone())
}

/// The human output equals the `--json` report line for line, and both exit alike.
fn assert_human_matches_json(dir: &Path, extra: &[&str]) -> (i32, Value) {
    let (code, report) = validate_json(dir, extra);
    let mut args = vec!["validate", s(dir)];
    args.extend_from_slice(extra);
    let run = run(&args);
    assert_eq!(run.stdout, human(s(dir), &report), "stderr: {}", run.stderr);
    assert_eq!(run.code, code);
    (code, report)
}

fn codes(report: &Value) -> Vec<&str> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["code"].as_str().expect("code"))
        .collect()
}

#[test]
fn a_folder_without_a_plugin_is_detect_no_plugin() {
    let tmp = TempDir::new("validate-empty");
    write(tmp.path(), "Notes/README.md", "nothing to judge\n");
    let (code, report) = assert_human_matches_json(tmp.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(codes(&report), ["detect/no-plugin"]);
    let printed = run(&["validate", s(tmp.path())]).stdout;
    assert!(printed.starts_with(&format!("{}: error[detect/no-plugin] no plugforge.json", s(tmp.path()))));
    assert!(printed.contains("\n    fix: Point validate at the plugin's root folder"), "{printed}");
    assert!(printed.ends_with("invalid: 1 errors, 0 warnings\n"), "{printed}");
}

#[test]
fn a_finding_names_file_line_and_column() {
    let tmp = TempDir::new("validate-json-syntax");
    let plugin = tmp.join("Broken-Plugin");
    write(&plugin, ".claude-plugin/plugin.json", "{\n  \"name\": \"demo\",\n  \"version\": 1.0.0\n}\n");
    let (code, report) = assert_human_matches_json(&plugin, &[]);
    assert_eq!(code, 1);
    let syntax = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["code"] == "file/invalid-json")
        .unwrap_or_else(|| panic!("no file/invalid-json: {report:#}"));
    assert_eq!(syntax["file"], ".claude-plugin/plugin.json");
    assert_eq!(syntax["line"], 3, "{syntax:#}");
    assert!(syntax["column"].as_u64().is_some(), "{syntax:#}");
    let printed = run(&["validate", s(&plugin)]).stdout;
    let at = format!(
        "{}/.claude-plugin/plugin.json:3:{}: error[file/invalid-json] ",
        s(&plugin),
        syntax["column"]
    );
    assert!(printed.contains(&at), "{printed}");
}

#[test]
fn strict_turns_warnings_into_errors() {
    let tmp = TempDir::new("validate-strict");
    // Claude Code warns, and does not reject, when version, description and author are missing.
    write(tmp.path(), ".claude-plugin/plugin.json", "{\"name\": \"demo\"}\n");
    let (code, lenient) = assert_human_matches_json(tmp.path(), &[]);
    assert_eq!((code, lenient["errors"].as_u64()), (0, Some(0)), "{lenient:#}");
    let warnings = lenient["warnings"].as_u64().expect("warnings");
    assert!(warnings > 0, "expected warnings: {lenient:#}");

    let (code, strict) = assert_human_matches_json(tmp.path(), &["--strict"]);
    assert_eq!(code, 1);
    assert_eq!((strict["errors"].as_u64(), strict["warnings"].as_u64()), (Some(warnings), Some(0)));
    assert_eq!(codes(&strict), codes(&lenient));
    assert!(strict["findings"].as_array().expect("findings").iter().all(|f| f["severity"] == "error"));
}

#[test]
fn target_restricts_the_subjects() {
    let tmp = TempDir::new("validate-target");
    let manifest = r#"{"name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "a"}}"#;
    write(tmp.path(), ".claude-plugin/plugin.json", manifest);
    write(tmp.path(), ".codex-plugin/plugin.json", manifest);
    let runtimes = |report: &Value| -> Vec<String> {
        let subjects = report["subjects"].as_array().expect("subjects");
        subjects.iter().map(|s| s["runtime"].as_str().expect("runtime").to_string()).collect()
    };
    let (_, both) = assert_human_matches_json(tmp.path(), &[]);
    assert_eq!(runtimes(&both), ["claude-code", "codex"]);
    let (_, codex) = assert_human_matches_json(tmp.path(), &["--target", "codex"]);
    assert_eq!(runtimes(&codex), ["codex"]);
    assert!(codex["findings"].as_array().expect("findings").iter().all(|f| f["runtime"] != "claude-code"));
}

#[test]
fn an_unknown_target_is_bad_usage() {
    let tmp = TempDir::new("validate-unknown-target");
    write(tmp.path(), ".claude-plugin/plugin.json", "{\"name\": \"demo\"}\n");
    let run = run(&["validate", s(tmp.path()), "--target", "nonesuch"]);
    run.expect(2);
    assert!(
        run.stderr.starts_with("error[unsupported_runtime]: unknown runtime \"nonesuch\""),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    let json = common::run(&["validate", s(tmp.path()), "--target", "nonesuch", "--json"]);
    json.expect(2);
    assert_eq!(error(&json.json()).0, "unsupported_runtime");
}

#[test]
fn an_unreadable_folder_is_an_io_error() {
    let tmp = TempDir::new("validate-missing");
    let run = run(&["validate", s(&tmp.join("no-such-folder")), "--json"]);
    run.expect(2);
    assert_eq!(error(&run.json()).0, "io");
}
