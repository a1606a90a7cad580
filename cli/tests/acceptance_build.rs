//! Acceptance: `plugforge build` writes, reruns, conflicts, adoption and
//! stale files, against the striatum example.

mod common;

use std::collections::BTreeSet;
use std::fs;

use common::*;

fn expected_paths() -> BTreeSet<String> {
    let mut paths: BTreeSet<String> = STRIATUM_BUNDLE.iter().map(|p| p.to_string()).collect();
    paths.insert(MANIFEST.into());
    paths.insert(MARKETPLACE.into());
    paths
}

#[test]
fn first_build_writes_exactly_the_expected_files_and_manifest_hashes_match() {
    let tmp = TempDir::new("first");
    let out = tmp.join("out");
    let (code, report) = build_json(&striatum(), &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["ok"], true);
    assert_eq!(report["applied"], true);
    assert_eq!(files(&out), expected_paths());
    assert_eq!(summary(&report, "create"), 18);
    assert!(ops(&report).values().all(|op| op == "create"), "{report:#}");

    let manifest = read_json(&out, MANIFEST);
    assert_eq!(manifest["generated_at"], "2023-11-14T22:13:20Z");
    assert_eq!(manifest["plugin"]["name"], "striatum");
    assert_eq!(manifest["plugin"]["version"], "0.7.3");
    let listed = manifest["files"].as_array().expect("files");
    let listed_paths: BTreeSet<String> =
        listed.iter().map(|f| format!("claude-code/{}", f["path"].as_str().unwrap())).collect();
    let bundle: BTreeSet<String> = STRIATUM_BUNDLE.iter().map(|p| p.to_string()).collect();
    assert_eq!(listed_paths, bundle, "the manifest lists every bundle file and nothing else");
    for file in listed {
        let rel = format!("claude-code/{}", file["path"].as_str().unwrap());
        assert_eq!(file["sha256"].as_str().unwrap(), sha256_hex(&read(&out, &rel)), "{rel}: sha256 differs");
    }
    // The plan reports the same hashes it wrote.
    for rel in STRIATUM_BUNDLE {
        assert_eq!(action(&report, rel)["sha256"].as_str().unwrap(), sha256_hex(&read(&out, rel)), "{rel}");
    }
    // Templates were rendered with the default runner_version.
    let claim = String::from_utf8(read(&out, "claude-code/commands/claim-next.md")).unwrap();
    assert!(claim.contains("striatum 0.7.3"), "{claim}");
    assert!(!claim.contains("{{"), "unrendered template:\n{claim}");
    let marketplace = read_json(&out, MARKETPLACE);
    assert_eq!(marketplace["plugins"][0]["name"], "striatum");
    assert_eq!(marketplace["plugins"][0]["source"], "./claude-code");
}

#[test]
fn second_identical_run_changes_nothing_even_with_another_epoch() {
    let tmp = TempDir::new("rerun");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let before = snapshot(&out);

    let src = striatum();
    let mut args = vec!["build", s(&src), "--target", "claude-code", "--out", s(&out), "--json"];
    let r = run_at("1800000000", &args);
    r.expect(0);
    let report = r.json();
    for key in ["create", "update", "remove", "conflict", "keep"] {
        assert_eq!(summary(&report, key), 0, "summary.{key}: {report:#}");
    }
    assert_eq!(summary(&report, "unchanged"), 18);
    assert_same_tree(&before, &snapshot(&out));
    assert_eq!(read_json(&out, MANIFEST)["generated_at"], "2023-11-14T22:13:20Z");

    // And the text mode says so too.
    args.pop();
    let r = run_at("1900000000", &args);
    r.expect(0);
    assert!(r.stdout.contains("plan: 0 create, 0 update, 18 unchanged"), "{}", r.stdout);
    assert_same_tree(&before, &snapshot(&out));
}

const CLAIM: &str = "claude-code/commands/claim-next.md";

#[test]
fn an_edited_file_is_a_conflict_until_forced() {
    let tmp = TempDir::new("edit");
    let out = tmp.join("out");
    build(&striatum(), &out, &[]).expect(0);
    let fresh = read(&out, CLAIM);
    let edited = b"my own claim-next\n\xe2\x9c\x93 keep me\n".to_vec();
    fs::write(out.join(CLAIM), &edited).unwrap();
    let before = snapshot(&out);

    // A plain rerun is refused and writes nothing.
    let r = build(&striatum(), &out, &[]);
    r.expect(1);
    assert!(r.stderr.contains("refused"), "{}", r.stderr);
    assert_same_tree(&before, &snapshot(&out));
    assert_eq!(read(&out, CLAIM), edited);

    // A rerun that would change every other file is refused as a whole.
    build(&striatum(), &out, &["--var", "runner_version=0.8.0"]).expect(1);
    assert_same_tree(&before, &snapshot(&out));

    // Dry runs name the conflict, in text and JSON.
    let r = build(&striatum(), &out, &["--dry-run"]);
    r.expect(1);
    let line = r.stdout.lines().find(|l| l.contains("CONFLICT")).unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(line.contains(CLAIM), "{line}");
    let (code, report) = build_json(&striatum(), &out, &["--dry-run"]);
    assert_eq!(code, 1);
    assert_eq!(report["refused"], true);
    assert_eq!(report["applied"], false);
    assert_eq!(action(&report, CLAIM)["op"], "conflict");
    assert_eq!(summary(&report, "conflict"), 1);
    assert_same_tree(&before, &snapshot(&out));

    // --force overwrites it with the fresh generation.
    let (code, report) = build_json(&striatum(), &out, &["--force"]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, CLAIM)["op"], "update");
    assert_eq!(read(&out, CLAIM), fresh);
    let reference = tmp.join("reference");
    build(&striatum(), &reference, &[]).expect(0);
    assert_eq!(read(&out, CLAIM), read(&reference, CLAIM));
    assert_eq!(read(&out, MANIFEST), read(&reference, MANIFEST));
}

const STATUS: &str = "claude-code/commands/status.md";

#[test]
fn an_untracked_file_in_the_way_is_a_conflict_but_identical_content_is_adopted() {
    let tmp = TempDir::new("untracked");
    let out = tmp.join("out");
    write(&out, STATUS, "mine, not generated\n");
    let (code, report) = build_json(&striatum(), &out, &[]);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(action(&report, STATUS)["op"], "conflict");
    assert_eq!(summary(&report, "conflict"), 1);
    assert_eq!(files(&out), BTreeSet::from([STATUS.to_string()]), "nothing else is written");
    assert_eq!(read(&out, STATUS), b"mine, not generated\n");

    // The same bytes the build would write: adopted, not a conflict.
    let reference = tmp.join("reference");
    build(&striatum(), &reference, &[]).expect(0);
    let adopt = tmp.join("adopt");
    write(&adopt, STATUS, read(&reference, STATUS));
    let (code, report) = build_json(&striatum(), &adopt, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, STATUS)["op"], "unchanged");
    assert_eq!(summary(&report, "create"), 17);
    assert_eq!(read(&adopt, MANIFEST), read(&reference, MANIFEST), "the adopted file is tracked");
}

const WHY: &str = "claude-code/commands/why.md";

#[test]
fn a_file_no_longer_generated_is_removed_unless_edited() {
    // Unedited: removed, and no longer tracked.
    let tmp = TempDir::new("stale");
    let src = striatum_copy(&tmp);
    let out = tmp.join("out");
    build(&src, &out, &[]).expect(0);
    fs::remove_file(src.join("commands/why.md.j2")).unwrap();
    let (code, report) = build_json(&src, &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, WHY)["op"], "remove");
    assert!(!out.join(WHY).exists());
    let manifest = read_json(&out, MANIFEST);
    assert!(manifest["files"].as_array().unwrap().iter().all(|f| f["path"] != "commands/why.md"));
    let mut expected: BTreeSet<String> = STRIATUM_BUNDLE.iter().map(|p| p.to_string()).collect();
    expected.remove(WHY);
    expected.extend([MANIFEST.to_string(), MARKETPLACE.to_string()]);
    assert_eq!(files(&out), expected);

    // A whole skill going away takes its emptied folder with it.
    fs::remove_dir_all(src.join("skills/striatum-scaffold")).unwrap();
    let (code, report) = build_json(&src, &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, "claude-code/skills/striatum-scaffold/SKILL.md")["op"], "remove");
    assert!(!out.join("claude-code/skills/striatum-scaffold").exists(), "emptied folder removed");
    assert!(out.join("claude-code/skills/striatum-workflow/SKILL.md").exists());

    // Edited: kept in place with op `keep`, and the build still succeeds.
    let tmp = TempDir::new("stale-edited");
    let src = striatum_copy(&tmp);
    let out = tmp.join("out");
    build(&src, &out, &[]).expect(0);
    fs::write(out.join(WHY), "my notes\n").unwrap();
    fs::remove_file(src.join("commands/why.md.j2")).unwrap();
    let (code, report) = build_json(&src, &out, &[]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(action(&report, WHY)["op"], "keep");
    assert_eq!(summary(&report, "keep"), 1);
    assert_eq!(read(&out, WHY), b"my notes\n");
}

#[test]
fn the_default_output_inside_the_source_is_never_read_back_as_source() {
    let tmp = TempDir::new("default-out");
    let src = striatum_copy(&tmp);
    let args = ["build", s(&src), "--target", "claude-code", "--json"];
    run(&args).expect(0);
    assert!(src.join("dist").join(MANIFEST).exists());
    let before = snapshot(&src.join("dist"));
    let r = run(&args);
    r.expect(0);
    let report = r.json();
    assert_eq!(summary(&report, "unchanged"), 18, "{report:#}");
    assert_eq!(summary(&report, "create"), 0, "{report:#}");
    assert_same_tree(&before, &snapshot(&src.join("dist")));
}
