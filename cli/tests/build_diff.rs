//! `--diff`: with `build --dry-run`, `build --check` and `uninstall --dry-run`,
//! a unified diff of every file the plan would change, headers naming the
//! path below the output root; in `--json`, each diff on its plan action.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::*;

const SKILL: &str = "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n";

/// A source with one skill, built for claude-code.
fn tiny_source(src: &Path) {
    write(
        src,
        "plugforge.json",
        "{\"name\": \"mini\", \"version\": \"1.0.0\", \"description\": \"A tiny plugin\"}\n",
    );
    write(src, "skills/hello/SKILL.md", SKILL);
}

/// The diff text of each file, by the path in its header (the new side, or
/// the old one for a removal), from the first `--- ` line on.
fn blocks(stdout: &str) -> BTreeMap<String, String> {
    let lines: Vec<&str> = stdout.split_inclusive('\n').collect();
    let mut found = BTreeMap::new();
    let mut i = 0;
    while i < lines.len() {
        let (Some(old), Some(new)) =
            (lines[i].strip_prefix("--- "), lines.get(i + 1).and_then(|l| l.strip_prefix("+++ ")))
        else {
            i += 1;
            continue;
        };
        let path = if new.trim_end() == "/dev/null" { old } else { new }.trim_end().to_string();
        let mut block = String::from(lines[i]);
        i += 1;
        while i < lines.len() && !lines[i].starts_with("--- ") && !lines[i].starts_with("plan: ") {
            let line = lines[i];
            if !(line.starts_with([' ', '+', '-', '@', '\\'])) {
                break;
            }
            block.push_str(line);
            i += 1;
        }
        found.insert(path, block);
    }
    found
}

/// The new side of an all-added diff, as the file's text.
fn added_text(block: &str) -> String {
    block.lines().skip(3).map(|l| format!("{}\n", l.strip_prefix('+').expect("an added line"))).collect()
}

#[test]
fn a_dry_run_diff_shows_every_new_file_as_the_bytes_a_build_writes() {
    let tmp = TempDir::new("diff-new");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);

    let preview = build(&src, &out, &["--dry-run", "--diff"]);
    preview.expect(0);
    assert!(!out.exists(), "a dry run wrote the output root");
    let skill = format!("{}/claude-code/skills/hello/SKILL.md", s(&out));
    let diffs = blocks(&preview.stdout);
    assert_eq!(
        diffs[&skill],
        format!(
            "--- /dev/null\n+++ {skill}\n@@ -0,0 +1,5 @@\n+---\n+name: hello\n+description: Says hello\n+---\n+Say hello.\n"
        )
    );
    assert!(preview.stdout.ends_with("dry run: nothing was written\n"), "{}", preview.stdout);
    assert!(!preview.stdout.contains('\x1b'), "coloured output on a pipe:\n{}", preview.stdout);

    // Every file the build then writes is in the diff, line for line (the
    // epoch is fixed, so even the manifest's time agrees).
    build(&src, &out, &[]).expect(0);
    let written = files(&out);
    assert_eq!(written.len(), diffs.len(), "{:?}", diffs.keys());
    for rel in written {
        let shown = &diffs[&format!("{}/{rel}", s(&out))];
        assert_eq!(added_text(shown).as_bytes(), read(&out, &rel), "{rel}");
    }
}

#[test]
fn check_diff_shows_an_update_and_a_hand_edit_against_what_the_build_would_write() {
    let tmp = TempDir::new("diff-check");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    build(&src, &out, &[]).expect(0);
    write(&src, "skills/hello/SKILL.md", SKILL.replace("Say hello.", "Say hello warmly."));
    let readme = out.join("claude-code/README.md");
    let generated_readme = fs::read_to_string(&readme).unwrap();
    fs::write(&readme, "edited by hand\n").unwrap();
    let before = snapshot(&out);

    let r = build(&src, &out, &["--check", "--diff"]);
    r.expect(1);
    assert_same_tree(&before, &snapshot(&out));
    let diffs = blocks(&r.stdout);
    let skill = format!("{}/claude-code/skills/hello/SKILL.md", s(&out));
    assert_eq!(
        diffs[&skill],
        format!(
            "--- {skill}\n+++ {skill}\n@@ -2,4 +2,4 @@\n name: hello\n description: Says hello\n ---\n-Say hello.\n+Say hello warmly.\n"
        )
    );
    // The conflict: the user's file, then every line plugforge would put in its place.
    let readme_path = format!("{}/claude-code/README.md", s(&out));
    let conflict = &diffs[&readme_path];
    let added: String = generated_readme.lines().map(|l| format!("+{l}\n")).collect();
    let lines = generated_readme.lines().count();
    assert_eq!(
        conflict,
        &format!("--- {readme_path}\n+++ {readme_path}\n@@ -1 +1,{lines} @@\n-edited by hand\n{added}")
    );
    assert!(r.stdout.contains(&format!("  CONFLICT {readme_path}")), "{}", r.stdout);
    assert!(r.stderr.contains("refused: 1 conflict(s)"), "{}", r.stderr);
    // The manifest would change too, and only the skill's hash and nothing else in it.
    let manifest = &diffs[&format!("{}/{MANIFEST}", s(&out))];
    let changed: Vec<&str> = manifest.lines().skip(2).filter(|l| l.starts_with(['+', '-'])).collect();
    assert_eq!(changed.len(), 2, "{manifest}");
    assert!(changed.iter().all(|l| l.contains("\"sha256\"")), "{manifest}");
}

#[test]
fn json_carries_each_diff_on_its_plan_action() {
    let tmp = TempDir::new("diff-json");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    build(&src, &out, &[]).expect(0);
    write(&src, "skills/hello/SKILL.md", SKILL.replace("Say hello.", "Say hi."));

    let text = build(&src, &out, &["--dry-run", "--diff"]);
    let (code, report) = build_json(&src, &out, &["--dry-run", "--diff"]);
    assert_eq!(code, 0);
    let actions = report["plan"]["actions"].as_array().unwrap();
    let with_diff: Vec<(&str, &str)> = actions
        .iter()
        .filter_map(|a| Some((a["path"].as_str().unwrap(), a.get("diff")?.as_str().unwrap())))
        .collect();
    let paths: Vec<&str> = with_diff.iter().map(|(p, _)| *p).collect();
    assert_eq!(paths, ["claude-code/skills/hello/SKILL.md", MANIFEST]);
    let texts = blocks(&text.stdout);
    for (path, diff) in with_diff {
        assert_eq!(diff, texts[&format!("{}/{path}", s(&out))], "{path}");
    }
    assert!(actions.iter().filter(|a| a["op"] == "unchanged").all(|a| a.get("diff").is_none()));
}

#[test]
fn removals_are_all_removed_lines_in_build_and_uninstall() {
    let tmp = TempDir::new("diff-remove");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    write(&src, "skills/bye/SKILL.md", "---\nname: bye\ndescription: Says bye\n---\nSay bye.\n");
    build(&src, &out, &[]).expect(0);
    fs::remove_dir_all(src.join("skills/bye")).unwrap();

    let bye = format!("{}/claude-code/skills/bye/SKILL.md", s(&out));
    let r = build(&src, &out, &["--dry-run", "--diff"]);
    r.expect(0);
    assert_eq!(
        blocks(&r.stdout)[&bye],
        format!(
            "--- {bye}\n+++ /dev/null\n@@ -1,5 +0,0 @@\n----\n-name: bye\n-description: Says bye\n----\n-Say bye.\n"
        )
    );

    let before = snapshot(&out);
    let r = run(&["uninstall", "--target", "claude-code", "--out", s(&out), "--dry-run", "--diff"]);
    r.expect(0);
    assert_same_tree(&before, &snapshot(&out));
    let diffs = blocks(&r.stdout);
    assert_eq!(diffs.len(), files(&out).len(), "{:?}", diffs.keys());
    for (path, diff) in &diffs {
        let rel = path.strip_prefix(&format!("{}/", s(&out))).unwrap();
        let removed: String =
            String::from_utf8(read(&out, rel)).unwrap().lines().map(|l| format!("-{l}\n")).collect();
        assert!(diff.ends_with(&removed), "{path}:\n{diff}");
        assert!(diff.starts_with(&format!("--- {path}\n+++ /dev/null\n@@ -1,")), "{diff}");
    }
}

#[test]
fn a_binary_file_is_one_line_with_its_sizes() {
    let tmp = TempDir::new("diff-binary");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    write(&src, "skills/hello/logo.png", b"\x89PNG\r\n\x1a\n\0\0");
    let r = build(&src, &out, &["--dry-run", "--diff"]);
    r.expect(0);
    let line =
        format!("binary file differs: {}/claude-code/skills/hello/logo.png (absent -> 10 bytes)\n", s(&out));
    assert!(r.stdout.contains(&line), "{}", r.stdout);
}

#[test]
fn diff_needs_a_run_that_writes_nothing() {
    let tmp = TempDir::new("diff-usage");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    let r = build(&src, &out, &["--diff"]);
    r.expect(2);
    assert!(r.stderr.starts_with("error[usage]: "), "{}", r.stderr);
    assert!(r.stderr.contains("<--dry-run|--check>"), "{}", r.stderr);
    assert!(!out.exists());
    let r = run(&["uninstall", "--target", "claude-code", "--out", s(&out), "--diff"]);
    r.expect(2);
    assert!(r.stderr.contains("--dry-run"), "{}", r.stderr);
}

#[test]
fn a_shared_file_that_cannot_be_merged_says_why_instead_of_a_diff() {
    let tmp = TempDir::new("diff-unmergeable");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    build(&src, &out, &[]).expect(0);
    fs::write(out.join(MARKETPLACE), b"\xff\xfe{}").unwrap();
    let r = build(&src, &out, &["--dry-run", "--diff"]);
    r.expect(1);
    let line = format!(
        "conflict: {}/{MARKETPLACE}: nothing to compare (not UTF-8 text; cannot merge into it)\n",
        s(&out)
    );
    assert!(r.stdout.contains(&line), "{}", r.stdout);
    assert!(blocks(&r.stdout).is_empty(), "{}", r.stdout);
}
