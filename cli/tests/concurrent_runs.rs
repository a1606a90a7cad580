//! Runs that overlap: two builds of one output root at once, two plugins
//! built into one project folder at once, an edit made while a build runs,
//! and builds killed part-way then followed by a build of another source.
//! Each is a race, so each is tried many times with the real binary.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// A plugin `name` with `skills` skills (each with a reference file), a
/// command and an MCP server, all named after it; `revision` changes every
/// file's words, so two revisions of one plugin differ in every file.
fn plugin(dir: &Path, name: &str, skills: usize, revision: u32) {
    plugin_with(dir, name, 0..skills, revision);
}

/// [`plugin`] with the skills numbered `skills`.
fn plugin_with(dir: &Path, name: &str, skills: std::ops::Range<usize>, revision: u32) {
    let _ = fs::remove_dir_all(dir);
    write(
        dir,
        "plugforge.json",
        format!(
            r#"{{"name":"{name}","version":"1.{revision}.0","description":"d","author":{{"name":"a"}}}}"#
        ),
    );
    write(
        dir,
        ".mcp.json",
        format!(
            r#"{{"mcpServers":{{"{name}-server":{{"command":"{name}-bin","args":["--rev","{revision}"]}}}}}}"#
        ),
    );
    write(dir, &format!("commands/{name}-go.md"), format!("---\ndescription: Go {revision}\n---\nGo.\n"));
    for n in skills {
        let skill = format!("{name}-s{n:03}");
        write(
            dir,
            &format!("skills/{skill}/SKILL.md"),
            format!("---\nname: {skill}\ndescription: Skill {n} rev {revision}\n---\nDo {n}.\n"),
        );
        write(dir, &format!("skills/{skill}/references/notes.md"), format!("notes {n} rev {revision}\n"));
    }
}

/// Every file below `root` with its bytes.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    files(root).into_iter().map(|rel| (rel.clone(), read(root, &rel))).collect()
}

/// Names plugforge never leaves behind: temp files, staged folders, locks.
fn leftovers(root: &Path) -> Vec<String> {
    let mut found: Vec<String> = files(root)
        .into_iter()
        .chain(dirs(root))
        .filter(|p| p.contains(".plugforge-tmp-") || p.ends_with(".plugforge.lock") || p.contains("journal"))
        .collect();
    found.sort();
    found
}

fn plugforge(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_plugforge"));
    command
        .args(args)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .env("NO_COLOR", "1")
        .env("PLUGFORGE_NO_RERUN_RECORD", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn spawn(args: &[&str]) -> Child {
    plugforge(args).spawn().expect("start plugforge")
}

fn finish(child: Child) -> Run {
    let output = child.wait_with_output().expect("wait for plugforge");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

const FOLDER_TARGETS: &str = "claude-code,codex";
const PROJECT_TARGETS: &str = "opencode,claude-code:project,codex:project";

fn build_args<'a>(src: &'a Path, out: &'a Path, targets: &'a str) -> Vec<&'a str> {
    vec!["build", s(src), "--target", targets, "--out", s(out)]
}

/// The bytes a build of `src` alone leaves in an empty folder.
fn clean_build(tmp: &TempDir, label: &str, src: &Path, targets: &str) -> BTreeMap<String, Vec<u8>> {
    let out = tmp.join(label);
    finish(spawn(&build_args(src, &out, targets))).expect(0);
    let built = tree(&out);
    fs::remove_dir_all(&out).expect("clean");
    built
}

#[test]
fn two_builds_of_one_output_root_started_together_each_finish_whole_100_times() {
    let tmp = TempDir::new("two-builds");
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    // Two revisions of one plugin: every file of one is an update of the other's.
    plugin(&a, "twin", 12, 1);
    plugin(&b, "twin", 12, 2);
    let clean_a = clean_build(&tmp, "clean-a", &a, FOLDER_TARGETS);
    let clean_b = clean_build(&tmp, "clean-b", &b, FOLDER_TARGETS);
    let out = tmp.join("out");
    let mut waited = 0;
    for trial in 0..100 {
        let first = spawn(&build_args(&a, &out, FOLDER_TARGETS));
        let second = spawn(&build_args(&b, &out, FOLDER_TARGETS));
        let (first, second) = (finish(first), finish(second));
        for run in [&first, &second] {
            assert_eq!(run.code, 0, "trial {trial}: exit {}\n{}", run.code, run.stderr);
        }
        waited +=
            [&first, &second].iter().filter(|r| r.stderr.contains("waiting: another plugforge run")).count();
        let got = tree(&out);
        assert!(got == clean_a || got == clean_b, "trial {trial}: the tree is neither build's bytes");
        assert_eq!(leftovers(&out), Vec::<String>::new(), "trial {trial}");
    }
    // Not a condition of success (a run may start after the other ended),
    // but a sign the trials overlapped at all.
    eprintln!("{waited} of 200 runs waited for the other's lock");
}

#[test]
fn two_plugins_built_into_one_project_root_at_once_both_keep_their_entries_100_times() {
    let tmp = TempDir::new("two-plugins");
    let (one, two) = (tmp.join("one"), tmp.join("two"));
    plugin(&one, "one", 4, 1);
    plugin(&two, "two", 4, 1);
    // The shared files list the servers in the order the builds ran.
    let sequential = |first: &Path, second: &Path, label: &str| {
        let out = tmp.join(label);
        finish(spawn(&build_args(first, &out, PROJECT_TARGETS))).expect(0);
        finish(spawn(&build_args(second, &out, PROJECT_TARGETS))).expect(0);
        let built = tree(&out);
        fs::remove_dir_all(&out).expect("clean");
        built
    };
    let one_then_two = sequential(&one, &two, "one-then-two");
    let two_then_one = sequential(&two, &one, "two-then-one");
    for shared in ["opencode.json", ".mcp.json", ".codex/config.toml"] {
        let text = String::from_utf8_lossy(&one_then_two[shared]).into_owned();
        assert!(text.contains("one-server") && text.contains("two-server"), "{shared}:\n{text}");
    }
    for trial in 0..100 {
        let out = tmp.join(&format!("project{trial}"));
        let first = spawn(&build_args(&one, &out, PROJECT_TARGETS));
        let second = spawn(&build_args(&two, &out, PROJECT_TARGETS));
        for run in [finish(first), finish(second)] {
            assert_eq!(run.code, 0, "trial {trial}: exit {}\n{}", run.code, run.stderr);
        }
        let got = tree(&out);
        assert!(
            got == one_then_two || got == two_then_one,
            "trial {trial}: not the bytes of the two builds one after the other; opencode.json:\n{}",
            String::from_utf8_lossy(got.get("opencode.json").map_or(&[][..], |b| b))
        );
        assert_eq!(leftovers(&out), Vec::<String>::new(), "trial {trial}");
        fs::remove_dir_all(&out).expect("clean");
    }
}

#[test]
fn a_run_waits_for_the_lock_another_holds_and_names_it() {
    let tmp = TempDir::new("lock-wait");
    let src = tmp.join("src");
    plugin(&src, "waits", 3, 1);
    let out = tmp.join("out");
    let held = plugforge_host_fs::lock_root(&out, &mut |_| {}).expect("lock");
    let child = spawn(&build_args(&src, &out, FOLDER_TARGETS));
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(600));
    assert!(files(&out).is_empty(), "nothing is written while another run holds the lock");
    drop(held);
    let run = finish(child);
    run.expect(0);
    assert!(started.elapsed() >= Duration::from_millis(600));
    let expected = format!("a lock on the folder {}/ itself", out.display());
    assert!(
        run.stderr.contains("waiting: another plugforge run") && run.stderr.contains(&expected),
        "{}",
        run.stderr
    );
    assert!(out.join("claude-code/.claude-plugin/plugin.json").is_file());
    // Read-only runs take no lock: a check does not wait for a writer.
    let held = plugforge_host_fs::lock_root(&out, &mut |_| {}).expect("lock");
    let check = finish(spawn(&[&build_args(&src, &out, FOLDER_TARGETS)[..], &["--check"]].concat()));
    check.expect(0);
    drop(held);
}

/// A small deterministic generator (xorshift64*): the trials are the same
/// on every run, so a failure is reproduced by rerunning the test.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn an_edit_made_while_a_build_runs_is_never_overwritten_without_force() {
    let tmp = TempDir::new("edit-during");
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    plugin(&a, "edits", 15, 1);
    plugin(&b, "edits", 15, 2);
    let clean_b = clean_build(&tmp, "clean-b", &b, FOLDER_TARGETS);
    let start = tmp.join("start");
    finish(spawn(&build_args(&a, &start, FOLDER_TARGETS))).expect(0);
    // Files of the plugin's that the update rewrites (not its manifests).
    let editable: Vec<String> = files(&start)
        .into_iter()
        .filter(|p| !p.contains("plugforge-manifest") && !p.contains("marketplace"))
        .collect();
    let timed = Instant::now();
    let out = tmp.join("timed");
    copy_dir(&start, &out);
    finish(spawn(&[&build_args(&b, &out, FOLDER_TARGETS)[..], &["--durability", "none"]].concat())).expect(0);
    let took = timed.elapsed().as_micros() as u64;
    let mut seed = Seeded(0x5eed_0032);
    let (mut refused, mut left_alone) = (0, 0);
    for trial in 0..30 {
        let out = tmp.join(&format!("out{trial}"));
        copy_dir(&start, &out);
        let rel = &editable[seed.below(editable.len() as u64) as usize];
        let edit = format!("the user's edit, trial {trial}\n");
        // Unflushed writes: the race is the same, and the trials are not
        // paced by flushes of a filesystem other programs share.
        let child = spawn(&[&build_args(&b, &out, FOLDER_TARGETS)[..], &["--durability", "none"]].concat());
        // Most edits land while the build writes (the second half of its run).
        std::thread::sleep(Duration::from_micros(took / 3 + seed.below(took)));
        fs::write(out.join(rel), &edit).expect("edit");
        let run = finish(child);
        assert_eq!(
            read(&out, rel),
            edit.as_bytes(),
            "trial {trial}: the edit to {rel} was lost\n{}",
            run.stderr
        );
        match run.code {
            0 => {}
            1 => {
                let said = format!("{}{}", run.stdout, run.stderr);
                assert!(said.contains(rel.as_str()), "trial {trial}: {rel} is named\n{said}");
                if run.stderr.contains("changed while this run was writing") {
                    left_alone += 1;
                } else {
                    refused += 1;
                }
            }
            code => panic!("trial {trial}: exit {code}\n{}", run.stderr),
        }
        assert_eq!(leftovers(&out), Vec::<String>::new(), "trial {trial}");
        if trial % 10 == 0 {
            // The edit is a conflict until forced; forced, the tree is the clean build's.
            let again = finish(spawn(&build_args(&b, &out, FOLDER_TARGETS)));
            assert_eq!(again.code, 1, "trial {trial}: the edit to {rel} is a conflict\n{}", again.stderr);
            assert_eq!(read(&out, rel), edit.as_bytes(), "trial {trial}");
            let forced = finish(spawn(&[&build_args(&b, &out, FOLDER_TARGETS)[..], &["--force"]].concat()));
            forced.expect(0);
            assert!(tree(&out) == clean_b, "trial {trial}: --force gives the clean build's bytes");
        }
        fs::remove_dir_all(&out).expect("clean");
    }
    eprintln!("of 30 edits: {refused} seen by the plan, {left_alone} left alone while writing");
}

/// `plugforge build` of `src` into `out` whose `operation`-th file
/// operation kills it (the test hook); true when it finished instead.
fn build_killed_at(src: &Path, out: &Path, operation: u64) -> bool {
    let run = finish(
        // Unflushed: what a kill leaves is the same at every durability
        // level, and the trials are not paced by flushes of a shared disk.
        plugforge(&[&build_args(src, out, FOLDER_TARGETS)[..], &["--durability", "none"]].concat())
            .env("PLUGFORGE_FAIL_AFTER_WRITES", operation.to_string())
            .spawn()
            .expect("start plugforge"),
    );
    match run.code {
        0 => true,
        -1 => false,
        code => panic!("operation {operation}: exit {code} instead of a kill\n{}", run.stderr),
    }
}

/// After an interrupted update, the next build of `next` (a source other
/// than the interrupted one's) exits 0 and leaves exactly `expected`, and
/// `--check` then calls the tree current.
fn rerun_converges(next: &Path, out: &Path, expected: &BTreeMap<String, Vec<u8>>, what: &str) {
    let rerun =
        finish(spawn(&[&build_args(next, out, FOLDER_TARGETS)[..], &["--durability", "none"]].concat()));
    assert_eq!(rerun.code, 0, "{what}: the rerun exits {}\n{}{}", rerun.code, rerun.stdout, rerun.stderr);
    let got = tree(out);
    if &got != expected {
        let stray: Vec<&String> = got.keys().filter(|p| !expected.contains_key(*p)).collect();
        let missing: Vec<&String> = expected.keys().filter(|p| !got.contains_key(*p)).collect();
        let differ: Vec<&String> =
            expected.keys().filter(|p| got.get(*p).is_some_and(|b| b != &expected[*p])).collect();
        panic!(
            "{what}: not the clean build's bytes: stray {stray:?}, missing {missing:?}, differing {differ:?}"
        );
    }
    assert_eq!(leftovers(out), Vec::<String>::new(), "{what}");
    let check = finish(spawn(&[&build_args(next, out, FOLDER_TARGETS)[..], &["--check"]].concat()));
    assert_eq!(check.code, 0, "{what}: --check after the rerun\n{}{}", check.stdout, check.stderr);
}

#[test]
fn an_update_killed_at_50_points_then_built_from_another_source_converges_to_its_clean_bytes() {
    let tmp = TempDir::new("killed-update");
    let (old, new, other) = (tmp.join("old"), tmp.join("new"), tmp.join("other"));
    // The update removes 2 skills, adds 2 and rewrites the rest; the next
    // source is the old one again (a revert) or a third one.
    plugin_with(&old, "kill", 0..6, 1);
    plugin_with(&new, "kill", 2..8, 2);
    plugin_with(&other, "kill", 4..10, 3);
    let clean_old = clean_build(&tmp, "clean-old", &old, FOLDER_TARGETS);
    let clean_other = clean_build(&tmp, "clean-other", &other, FOLDER_TARGETS);
    let start = tmp.join("start");
    finish(spawn(&build_args(&old, &start, FOLDER_TARGETS))).expect(0);
    // How many file operations the update takes: the first count that lets it finish.
    let probe = tmp.join("probe");
    let finishes = |operation: u64| {
        let _ = fs::remove_dir_all(&probe);
        copy_dir(&start, &probe);
        build_killed_at(&new, &probe, operation)
    };
    let mut high = 8;
    while !finishes(high) {
        high *= 2;
    }
    let mut low = high / 2;
    while high - low > 1 {
        let mid = (low + high) / 2;
        if finishes(mid) { high = mid } else { low = mid }
    }
    let operations = low;
    assert!(operations > 40, "the update takes only {operations} file operations");
    let mut seed = Seeded(0x0032_4b11);
    for trial in 0..50 {
        let operation = 1 + seed.below(operations);
        let out = tmp.join(&format!("out{trial}"));
        copy_dir(&start, &out);
        assert!(!build_killed_at(&new, &out, operation), "operation {operation} of {operations} kills it");
        let (next, expected) = if trial % 2 == 0 { (&old, &clean_old) } else { (&other, &clean_other) };
        rerun_converges(next, &out, expected, &format!("killed at operation {operation} of {operations}"));
        fs::remove_dir_all(&out).expect("clean");
    }
    // The real thing: SIGKILL from outside at points spread over the run.
    let timed = Instant::now();
    let out = tmp.join("timed");
    copy_dir(&start, &out);
    finish(spawn(&build_args(&new, &out, FOLDER_TARGETS))).expect(0);
    let took = timed.elapsed().as_micros() as u64;
    for trial in 0..6 {
        let out = tmp.join(&format!("sigkill{trial}"));
        copy_dir(&start, &out);
        let mut child = spawn(&build_args(&new, &out, FOLDER_TARGETS));
        let after = took / 4 + seed.below(took);
        std::thread::sleep(Duration::from_micros(after));
        let _ = child.kill();
        let _ = child.wait();
        let (next, expected) = if trial % 2 == 0 { (&old, &clean_old) } else { (&other, &clean_other) };
        rerun_converges(next, &out, expected, &format!("SIGKILL after {after} us"));
        fs::remove_dir_all(&out).expect("clean");
    }
}
