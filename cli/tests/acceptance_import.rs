//! Acceptance: `plugforge import` writes a fixture's exact canonical source,
//! refuses a folder that is not empty without writing, prints its notes in
//! `--json`, and the imported source builds for every runtime.

mod common;

use std::path::{Path, PathBuf};

use common::*;

fn fixture(name: &str) -> PathBuf {
    plugforge_conformance::imports::import_case(name).dir
}

fn tree(root: &Path) -> Vec<(String, Vec<u8>)> {
    files(root).into_iter().map(|rel| (rel.clone(), read(root, &rel))).collect()
}

#[test]
fn import_writes_the_expected_source_which_then_builds() {
    let tmp = TempDir::new("import");
    let out = tmp.join("src");
    let case = fixture("gemini-extension");
    let run = run(&["import", s(&case.join("input")), "--from", "gemini", "--out", s(&out)]);
    run.expect(0);
    assert_eq!(tree(&out), tree(&case.join("expected")), "imported files differ from the fixture");
    assert!(run.stdout.contains("imported a gemini plugin"), "{}", run.stdout);
    assert!(run.stdout.contains("[unsupported_hook_event]"), "each note is printed: {}", run.stdout);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(out.join("bin/storage")).unwrap().permissions().mode();
        assert!(mode & 0o111 != 0, "executable bits travel");
    }

    let dist = tmp.join("dist");
    let build = common::run(&["build", s(&out), "--target", "all", "--out", s(&dist)]);
    build.expect(0);
    for runtime in ["claude-code", "codex", "gemini", "cursor"] {
        assert!(dist.join(runtime).is_dir(), "{runtime} bundle missing: {:?}", files(&dist));
    }
}

#[test]
fn import_refuses_a_folder_that_is_not_empty_and_writes_nothing() {
    let tmp = TempDir::new("import-refused");
    let out = tmp.join("src");
    write(&out, "notes.txt", "mine\n");
    let before = snapshot(&out);
    let case = fixture("codex-plugin");
    let run = run(&["import", s(&case.join("input")), "--out", s(&out)]);
    run.expect(1);
    assert!(run.stderr.contains("is not empty"), "{}", run.stderr);
    assert_same_tree(&before, &snapshot(&out));

    // An empty folder is fine.
    let empty = tmp.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    common::run(&["import", s(&case.join("input")), "--out", s(&empty)]).expect(0);
    assert_eq!(tree(&empty), tree(&case.join("expected")));
}

#[test]
fn import_json_reports_the_runtime_the_files_and_the_notes() {
    let tmp = TempDir::new("import-json");
    let out = tmp.join("src");
    let case = fixture("cursor-plugin");
    let run = run(&["import", s(&case.join("input")), "--out", s(&out), "--json"]);
    run.expect(0);
    let report = run.json();
    assert_eq!(report["ok"], true);
    assert_eq!(report["from"], "cursor");
    let listed: std::collections::BTreeSet<String> =
        report["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
    assert_eq!(listed, files(&out));
    assert_eq!(report["notes"], read_json(&case, "notes.json"), "the notes are the fixture's");
    let note = &report["notes"][0];
    for key in ["code", "location", "message"] {
        assert!(note.get(key).is_some(), "a note has {key}: {note}");
    }
}

#[test]
fn a_manifestless_claude_plugin_is_named_after_its_folder() {
    let tmp = TempDir::new("import-manifestless");
    let plugin = tmp.join("Loose Kit");
    copy_dir(&fixture("claude-code-manifestless").join("input"), &plugin);
    let out = tmp.join("src");
    common::run(&["import", s(&plugin), "--from", "claude-code", "--out", s(&out)]).expect(0);
    assert_eq!(read_json(&out, "plugforge.json")["name"], "loose-kit");

    let named = tmp.join("named");
    common::run(&["import", s(&plugin), "--from", "claude-code", "--name", "other-kit", "--out", s(&named)])
        .expect(0);
    assert_eq!(read_json(&named, "plugforge.json")["name"], "other-kit");
}

#[test]
fn a_folder_in_claude_codes_layout_is_a_claude_plugin_named_after_its_folder() {
    let tmp = TempDir::new("import-layout");
    let plugin = tmp.join("plain");
    write(&plugin, "skills/a/SKILL.md", "---\nname: a\ndescription: A\n---\nA\n");
    let out = tmp.join("src");
    let run = run(&["import", s(&plugin), "--out", s(&out), "--json"]);
    run.expect(0);
    assert_eq!(run.json()["from"], "claude-code");
    assert_eq!(read_json(&out, "plugforge.json")["name"], "plain");
}

#[test]
fn a_folder_with_no_plugin_marker_and_no_components_is_refused() {
    let tmp = TempDir::new("import-no-marker");
    let plugin = tmp.join("plain");
    write(&plugin, "README.md", "# Notes\n");
    let out = tmp.join("src");
    let run = run(&["import", s(&plugin), "--out", s(&out), "--json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(error(&run.json()).0, "invalid_source");
    assert!(!out.exists(), "nothing written");
}

/// Every import fixture through the binary: the options become flags, the
/// written folder equals `expected/` and `--json` notes equal `notes.json`.
#[test]
fn every_import_fixture_through_the_cli() {
    let tmp = TempDir::new("import-fixtures");
    let mut ran = Vec::new();
    for case in plugforge_conformance::imports::import_cases() {
        let out = tmp.join(&case.name);
        let input = case.dir.join("input");
        let mut args = vec![
            "import".to_string(),
            s(&input).to_string(),
            "--out".into(),
            s(&out).into(),
            "--json".into(),
        ];
        for (key, value) in case.file.options.as_object().cloned().unwrap_or_default() {
            let flag = match key.as_str() {
                "from" => "--from",
                "name" => "--name",
                other => panic!("{}: option {other} has no flag", case.name),
            };
            args.extend([flag.to_string(), value.as_str().expect("string option").to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = common::run(&args);
        run.expect(0);
        let written = plugforge_conformance::read_files(&out);
        let expected = plugforge_conformance::read_files(&case.expected_dir());
        assert_eq!(written, expected, "{}: written files differ from expected/", case.name);
        assert_eq!(run.json()["notes"], case.expected_notes(), "{}: notes", case.name);
        ran.push(case.name.clone());
    }
    plugforge_conformance::record_suite("cli", "imports", &ran);
}
