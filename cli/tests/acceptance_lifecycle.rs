//! Acceptance: uninstall, doctor and the shared marketplace file.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use common::*;

fn uninstall(out: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["uninstall", "--target", "claude-code", "--out", s(out)];
    args.extend_from_slice(extra);
    run(&args)
}

fn doctor(src: Option<&Path>, out: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["doctor"];
    if let Some(src) = src {
        args.push(s(src));
    }
    args.extend(["--target", "claude-code", "--out", s(out), "--json"]);
    args.extend_from_slice(extra);
    let r = run(&args);
    let report = r.json();
    assert_eq!(report["ok"], r.code == 0, "ok and the exit code agree: {report:#}");
    (r.code, report)
}

fn findings<'a>(report: &'a Value, code: &str) -> Vec<&'a Value> {
    report["report"]["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings in {report:#}"))
        .iter()
        .filter(|f| f["code"] == code)
        .collect()
}

fn codes(report: &Value) -> BTreeSet<String> {
    report["report"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().into())
        .collect()
}

const OTHER: &str = r#"{
  "name": "team-market",
  "owner": {"name": "Team"},
  "custom": {"keep": [1, 2, 3]},
  "plugins": [
    {"name": "other", "source": "./other", "version": "2.0.0"}
  ]
}
"#;

#[test]
fn uninstall_removes_everything_generated_and_cleans_empty_folders() {
    let tmp = TempDir::new("uninstall");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let r = uninstall(&out, &["--json"]);
    r.expect(0);
    let report = r.json();
    assert_eq!(summary(&report, "remove"), 18, "{report:#}");
    assert_eq!(action(&report, MARKETPLACE)["op"], "remove");
    assert_eq!(action(&report, MANIFEST)["op"], "remove");
    assert_eq!(files(&out), BTreeSet::new(), "no file is left");
    assert_eq!(dirs(&out), BTreeSet::new(), "no empty folder is left");
}

#[test]
fn uninstall_keeps_edits_and_other_plugins_until_forced() {
    let tmp = TempDir::new("uninstall-edited");
    let out = tmp.join("out");
    write(&out, MARKETPLACE, OTHER);
    build(&striatum(), &out, &[]).expect(0);
    let claim = "claude-code/commands/claim-next.md";
    let original_sha = sha256_hex(&read(&out, claim));
    fs::write(out.join(claim), "edited by hand\n").unwrap();

    // --dry-run removes nothing.
    let before = snapshot(&out);
    uninstall(&out, &["--dry-run"]).expect(0);
    assert_same_tree(&before, &snapshot(&out));

    let r = uninstall(&out, &["--json"]);
    r.expect(0);
    let report = r.json();
    assert_eq!(action(&report, claim)["op"], "keep");
    let expected = BTreeSet::from([claim.to_string(), MANIFEST.to_string(), MARKETPLACE.to_string()]);
    assert_eq!(files(&out), expected);
    assert_eq!(read(&out, claim), b"edited by hand\n");
    let manifest = read_json(&out, MANIFEST);
    let listed: Vec<&str> =
        manifest["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(listed, ["commands/claim-next.md"], "the manifest lists only the kept file");
    assert_eq!(manifest["files"][0]["sha256"], original_sha.as_str(), "still the generated hash");
    let marketplace = read_json(&out, MARKETPLACE);
    assert_eq!(marketplace["plugins"], json!([{"name": "other", "source": "./other", "version": "2.0.0"}]));
    assert_eq!(marketplace["custom"], json!({"keep": [1, 2, 3]}));
    assert_eq!(marketplace["name"], "team-market");
    let folders = dirs(&out);
    assert!(!folders.contains("claude-code/skills"), "emptied folders go: {folders:?}");
    assert!(!folders.contains("claude-code/.claude-plugin"), "{folders:?}");

    uninstall(&out, &["--force"]).expect(0);
    assert_eq!(files(&out), BTreeSet::from([MARKETPLACE.to_string()]));
    assert_eq!(dirs(&out), BTreeSet::from([".claude-plugin".to_string()]));
    assert_eq!(read_json(&out, MARKETPLACE)["plugins"][0]["name"], "other");
}

#[test]
fn doctor_is_healthy_after_a_build() {
    let tmp = TempDir::new("doctor-ok");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let (code, report) = doctor(None, &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["report"]["findings"], json!([]));
    let (code, report) = doctor(Some(&striatum()), &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["report"]["findings"], json!([]));
}

#[test]
fn doctor_reports_a_missing_plugin() {
    let tmp = TempDir::new("doctor-missing");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    fs::remove_dir_all(out.join("claude-code")).unwrap();
    let (code, report) = doctor(Some(&striatum()), &out, &[]);
    assert_eq!(code, 1, "{report:#}");
    let found = findings(&report, "plugin_missing");
    assert_eq!(found.len(), 1, "{report:#}");
    let fix = found[0]["fix"].as_str().unwrap();
    assert!(fix.contains("plugforge build"), "{fix}");
    assert!(fix.contains("--target claude-code"), "{fix}");
    assert!(fix.contains(s(&out)), "{fix}");
    run_fix(fix).expect(0);
    let (code, report) = doctor(Some(&striatum()), &out, &[]);
    assert_eq!(code, 0, "the fix restores the bundle: {report:#}");
}

#[test]
fn doctor_reports_an_older_generator() {
    let tmp = TempDir::new("doctor-generator");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let mut manifest = read_json(&out, MANIFEST);
    manifest["generator"]["version"] = json!("0.0.1");
    fs::write(out.join(MANIFEST), serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    let (code, report) = doctor(None, &out, &[]);
    assert_eq!(code, 1, "{report:#}");
    let found = findings(&report, "plugin_outdated");
    assert_eq!(found.len(), 1, "{report:#}");
    assert!(found[0]["message"].as_str().unwrap().contains("0.0.1"), "{report:#}");
    assert!(found[0]["fix"].as_str().unwrap().contains("plugforge build"), "{report:#}");
    assert_eq!(codes(&report), BTreeSet::from(["plugin_outdated".to_string()]));
}

#[test]
fn doctor_reports_output_the_source_no_longer_produces() {
    let tmp = TempDir::new("doctor-source");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let (code, report) = doctor(Some(&striatum()), &out, &["--var", "runner_version=0.8.0"]);
    assert_eq!(code, 1, "{report:#}");
    let found = findings(&report, "plugin_outdated");
    assert_eq!(found.len(), 1, "{report:#}");
    let fix = found[0]["fix"].as_str().unwrap();
    assert!(fix.starts_with("plugforge build"), "{fix}");
    assert!(fix.contains("--var") && fix.contains("runner_version=0.8.0"), "{fix}");

    // Running the fix makes it healthy again.
    run_fix(fix).expect(0);
    assert_eq!(read_json(&out, MARKETPLACE)["plugins"][0]["version"], "0.8.0");
    let (code, report) = doctor(Some(&striatum()), &out, &["--var", "runner_version=0.8.0"]);
    assert_eq!(code, 0, "{report:#}");
}

#[test]
fn doctor_reports_edited_missing_and_orphaned_files() {
    let tmp = TempDir::new("doctor-files");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let edited = "claude-code/commands/claim-next.md";
    fs::write(out.join(edited), "edited\n").unwrap();
    write(&out, "claude-code/commands/extra.md", "stray\n");
    // With SRC, each fix names the source to rebuild from.
    let (code, report) = doctor(Some(&striatum()), &out, &[]);
    // Edits and strays are informational: the bundle still works.
    assert_eq!(code, 0, "{report:#}");
    let found = findings(&report, "file_edited");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["path"], edited);
    assert!(found[0]["fix"].as_str().unwrap().ends_with(" --force"), "{report:#}");
    assert!(found[0]["fix"].as_str().unwrap().starts_with("plugforge build"), "{report:#}");
    let found = findings(&report, "file_orphaned");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["path"], "claude-code/commands/extra.md");
    let fix = found[0]["fix"].as_str().unwrap();
    assert!(fix.starts_with("rm -- ") && fix.ends_with("claude-code/commands/extra.md"), "{fix}");

    // The edit's fix restores the generated file.
    let reference = tmp.join("reference");
    build(&striatum(), &reference, &[]).expect(0);
    run_fix(found_fix_edited(&report)).expect(0);
    assert_eq!(read(&out, edited), read(&reference, edited));
    let (_, report) = doctor(None, &out, &[]);
    assert_eq!(codes(&report), BTreeSet::from(["file_orphaned".to_string()]), "{report:#}");

    let gone = "claude-code/commands/why.md";
    fs::remove_file(out.join(gone)).unwrap();
    let (code, report) = doctor(None, &out, &[]);
    assert_eq!(code, 1, "a missing file is a warning: {report:#}");
    let found = findings(&report, "file_missing");
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0]["path"], gone);
}

fn found_fix_edited(report: &Value) -> &str {
    findings(report, "file_edited")[0]["fix"].as_str().unwrap()
}

fn plugin_names(marketplace: &Value) -> Vec<&str> {
    marketplace["plugins"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect()
}

#[test]
fn marketplace_entries_are_appended_updated_in_place_and_otherwise_left_alone() {
    let tmp = TempDir::new("marketplace");
    let out = tmp.join("out");
    write(&out, MARKETPLACE, OTHER);
    build(&striatum(), &out, &[]).expect(0);
    let market = read_json(&out, MARKETPLACE);
    assert_eq!(plugin_names(&market), ["other", "striatum"]);
    assert_eq!(market["name"], "team-market");
    assert_eq!(market["owner"], json!({"name": "Team"}));
    assert_eq!(market["custom"], json!({"keep": [1, 2, 3]}));
    assert_eq!(market["plugins"][0], json!({"name": "other", "source": "./other", "version": "2.0.0"}));
    assert_eq!(market["plugins"][1]["version"], "0.7.3");
    assert_eq!(market["plugins"][1]["source"], "./claude-code");

    // A new version replaces our entry at the same index.
    let (code, report) = build_json(&striatum(), &out, &["--var", "runner_version=0.8.0"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, MARKETPLACE)["op"], "update");
    let market = read_json(&out, MARKETPLACE);
    assert_eq!(plugin_names(&market), ["other", "striatum"]);
    assert_eq!(market["plugins"][1]["version"], "0.8.0");
    assert_eq!(market["plugins"][0], json!({"name": "other", "source": "./other", "version": "2.0.0"}));
    assert_eq!(market["custom"], json!({"keep": [1, 2, 3]}));

    // Same version: a hand edit of our entry stays, byte for byte.
    let mut market = market;
    market["plugins"][1]["description"] = json!("described by hand");
    let edited = serde_json::to_vec_pretty(&market).unwrap();
    fs::write(out.join(MARKETPLACE), &edited).unwrap();
    let (code, report) = build_json(&striatum(), &out, &["--var", "runner_version=0.8.0"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, MARKETPLACE)["op"], "unchanged");
    assert_eq!(read(&out, MARKETPLACE), edited);
}

#[test]
fn an_invalid_marketplace_is_a_conflict_even_forced() {
    let tmp = TempDir::new("marketplace-bad");
    let out = tmp.join("out");
    let broken = "{\n  \"name\": \"x\",\n  oops\n}\n";
    write(&out, MARKETPLACE, broken);
    // --force resets plugforge's own parts: a file it cannot read holds only the user's.
    for extra in [&[][..], &["--force"][..]] {
        let (code, report) = build_json(&striatum(), &out, extra);
        assert_eq!(code, 1, "{report:#}");
        let market = action(&report, MARKETPLACE);
        assert_eq!(market["op"], "conflict");
        let reason = market["reason"].as_str().unwrap();
        assert!(
            reason.starts_with(".claude-plugin/marketplace.json:3:3: "),
            "names the file, line and column: {reason}"
        );
        assert_eq!(files(&out), BTreeSet::from([MARKETPLACE.to_string()]), "nothing is written");
        assert_eq!(read(&out, MARKETPLACE), broken.as_bytes());
    }
}

#[test]
fn a_marketplace_whose_plugins_is_not_a_list_is_a_conflict_not_silently_replaced() {
    let tmp = TempDir::new("marketplace-shape");
    let out = tmp.join("out");
    let odd = "{\n  \"name\": \"m\",\n  \"owner\": {\"name\": \"o\"},\n  \"plugins\": {\"other\": {\"source\": \"./other\"}}\n}\n";
    write(&out, MARKETPLACE, odd);
    let (code, report) = build_json(&striatum(), &out, &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(action(&report, MARKETPLACE)["op"], "conflict", "{report:#}");
    assert_eq!(read(&out, MARKETPLACE), odd.as_bytes(), "the other plugin is not dropped");
    assert_eq!(files(&out), BTreeSet::from([MARKETPLACE.to_string()]));
}

#[test]
fn a_renamed_namespace_replaces_its_marketplace_entry_instead_of_adding_a_second() {
    let tmp = TempDir::new("marketplace-rename");
    let out = tmp.join("out");
    write(&out, MARKETPLACE, OTHER);
    build(&striatum(), &out, &[]).expect(0);
    build(&striatum(), &out, &["--namespace", "renamed"]).expect(0);
    let market = read_json(&out, MARKETPLACE);
    assert_eq!(plugin_names(&market), ["other", "renamed"], "one entry per bundle: {market:#}");

    uninstall(&out, &[]).expect(0);
    assert_eq!(plugin_names(&read_json(&out, MARKETPLACE)), ["other"]);
}

#[test]
fn doctor_says_how_to_trust_a_codex_plugins_hooks_without_failing() {
    let tmp = TempDir::new("doctor-codex-hooks");
    let out = tmp.join("out");
    run(&["build", s(&striatum()), "--target", "codex", "--out", s(&out), "--var", "runner_version=0.7.3"])
        .expect(0);
    assert!(out.join("codex/hooks/hooks.json").is_file(), "striatum's Codex bundle has hooks");
    let r = run(&["doctor", "--target", "codex", "--out", s(&out), "--json"]);
    r.expect(0);
    let report = r.json();
    let trust = findings(&report, "hooks_need_trust");
    assert_eq!(trust.len(), 1, "{report:#}");
    assert_eq!(trust[0]["severity"], "info");
    assert_eq!(trust[0]["path"], "codex/hooks/hooks.json");
    assert!(trust[0]["fix"].as_str().unwrap().contains("\"Trust all and continue\""), "{report:#}");
    let readme = std::fs::read_to_string(out.join("codex/README.md")).unwrap();
    assert!(readme.contains("Codex runs them only after you trust them"), "{readme}");
}
