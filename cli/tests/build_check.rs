//! `plugforge build --check`: the plan against the output root, nothing
//! written, exit 0 only when the outputs are current; the way a CI job keeps
//! generated bundles from going stale or being edited by hand.

mod common;

use std::fs;

use common::*;

fn check(src: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> Run {
    let mut args = vec!["build", s(src), "--target", "all", "--out", s(out), "--check"];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn check_passes_only_on_current_outputs_and_never_writes() {
    let tmp = TempDir::new("check");
    let src = striatum_copy(&tmp);
    let out = tmp.join("out");

    // Nothing built yet: every file is pending, and the root is not even created.
    let fresh = check(&src, &out, &[]);
    fresh.expect(1);
    assert!(fresh.stdout.contains("  create   "), "{}", fresh.stdout);
    assert!(fresh.stderr.contains("check: the outputs are not current"), "{}", fresh.stderr);
    assert!(!out.exists(), "--check wrote the output root");

    run(&["build", s(&src), "--target", "all", "--out", s(&out)]).expect(0);
    let built = snapshot(&out);
    let current = check(&src, &out, &[]);
    current.expect(0);
    assert!(current.stdout.contains("check: the outputs are current"), "{}", current.stdout);

    // A source change makes the outputs stale: the update is listed, nothing is written.
    let command = src.join("commands/why.md.j2");
    let mut text = fs::read_to_string(&command).unwrap();
    text.push_str("\nOne more line.\n");
    fs::write(&command, text).unwrap();
    let (code, report) = {
        let r = check(&src, &out, &["--json"]);
        (r.code, r.json())
    };
    assert_eq!(code, 1);
    assert_eq!(report["ok"], false);
    assert_eq!(report["applied"], false);
    assert_eq!(report["check"]["current"], false);
    let updated: Vec<_> = ops(&report).into_iter().filter(|(_, op)| op == "update").map(|(p, _)| p).collect();
    assert!(updated.iter().any(|p| p.ends_with("claude-code/commands/why.md")), "{updated:?}");
    assert_eq!(report["check"]["pending"].as_u64(), Some(updated.len() as u64 + summary(&report, "create")));
    assert_same_tree(&built, &snapshot(&out));
}

#[test]
fn check_fails_on_a_hand_edit_and_takes_no_force() {
    let tmp = TempDir::new("check-edit");
    let out = tmp.join("out");
    run(&["build", s(&striatum()), "--target", "all", "--out", s(&out)]).expect(0);
    let edited = out.join("claude-code/commands/why.md");
    fs::write(&edited, "edited by hand\n").unwrap();
    let before = snapshot(&out);

    let r = check(&striatum(), &out, &[]);
    r.expect(1);
    assert!(
        r.stdout.contains("CONFLICT") && r.stdout.contains("claude-code/commands/why.md"),
        "{}",
        r.stdout
    );
    assert_same_tree(&before, &snapshot(&out));

    let forced = check(&striatum(), &out, &["--force"]);
    forced.expect(2);
    assert!(forced.stderr.contains("'--check' cannot be used with '--force'"), "{}", forced.stderr);
    assert_eq!(fs::read(&edited).unwrap(), b"edited by hand\n");
}

#[test]
fn every_durability_writes_the_same_bytes() {
    let tmp = TempDir::new("durability");
    let mut trees = Vec::new();
    for level in ["batch", "full", "none"] {
        let out = tmp.join(level);
        run(&["build", s(&striatum()), "--target", "all", "--out", s(&out), "--durability", level]).expect(0);
        let tree: Vec<(String, Vec<u8>)> =
            snapshot(&out).into_iter().map(|(path, stamp)| (path, stamp.bytes)).collect();
        assert!(!tree.is_empty());
        trees.push(tree);
    }
    assert_eq!(trees[0], trees[1]);
    assert_eq!(trees[0], trees[2]);
    let r = run(&["build", s(&striatum()), "--out", s(&tmp.join("x")), "--durability", "sometimes"]);
    r.expect(2);
    assert!(r.stderr.contains("possible values: batch, full, none"), "{}", r.stderr);
}
