//! The host never reads outside the source root, never writes outside the
//! output root, and a build killed at any file operation converges on the
//! next run to exactly the bytes of an uninterrupted build.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// A source with a skill, a command and an executable in `bin/`.
fn source(dir: &Path) {
    demo_source(
        dir,
        &[
            ("skills/tidy/SKILL.md", "---\nname: tidy\ndescription: Tidies things\n---\nTidy up.\n"),
            ("commands/hi.md", "---\ndescription: Say hi\n---\nHi $ARGUMENTS\n"),
            ("bin/tool", "#!/bin/sh\necho tool\n"),
        ],
    );
    fs::set_permissions(dir.join("bin/tool"), fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Puts something unreadable into a source folder.
type Spoil<'a> = &'a dyn Fn(&Path);

fn expect_io_error_naming(run: &Run, rel: &str) {
    assert_eq!(run.code, 2, "exit code\nstdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains(&format!("{rel}: ")), "the error names {rel}:\n{}", run.stderr);
}

#[test]
fn a_link_to_a_file_inside_the_source_reads_as_that_file_and_hard_links_as_plain_files() {
    let tmp = TempDir::new("link-inside");
    let src = tmp.join("src");
    source(&src);
    write(&src, "docs/shared.md", "shared words\n");
    symlink("../../docs/shared.md", src.join("skills/tidy/shared.md")).expect("symlink");
    fs::hard_link(src.join("docs/shared.md"), src.join("skills/tidy/hard.md")).expect("hard link");
    let out = tmp.join("out");
    build(&src, &out, &[]).expect(0);
    assert_eq!(read(&out, "claude-code/skills/tidy/shared.md"), b"shared words\n");
    assert_eq!(read(&out, "claude-code/skills/tidy/hard.md"), b"shared words\n");
    let written = fs::symlink_metadata(out.join("claude-code/skills/tidy/shared.md")).expect("written");
    assert!(written.file_type().is_file(), "the bundle holds a copy, not a link");
}

#[test]
fn links_out_of_the_source_dangling_links_loops_and_fifos_are_refused_by_name() {
    let tmp = TempDir::new("link-outside");
    let secret = tmp.join("secret");
    write(&secret, "key.txt", "do not read\n");
    let cases: [(&str, Spoil<'_>); 5] = [
        ("skills/tidy/key.txt", &|src| {
            symlink(secret.join("key.txt"), src.join("skills/tidy/key.txt")).unwrap()
        }),
        ("skills/tidy/all", &|src| symlink(&secret, src.join("skills/tidy/all")).unwrap()),
        ("commands/gone.md", &|src| symlink("nowhere.md", src.join("commands/gone.md")).unwrap()),
        ("commands/loop.md", &|src| {
            symlink("loop-b.md", src.join("commands/loop.md")).unwrap();
            symlink("loop.md", src.join("commands/loop-b.md")).unwrap();
        }),
        ("bin/pipe", &|src| {
            let made = Command::new("mkfifo").arg(src.join("bin/pipe")).status().expect("mkfifo");
            assert!(made.success());
        }),
    ];
    for (n, (rel, make)) in cases.iter().enumerate() {
        let src = tmp.join(&format!("src{n}"));
        source(&src);
        make(&src);
        let out = tmp.join(&format!("out{n}"));
        let r = build(&src, &out, &[]);
        expect_io_error_naming(&r, rel);
        assert!(!r.stderr.contains("do not read"), "{}", r.stderr);
        assert!(!out.exists(), "{rel}: nothing is written");
        expect_io_error_naming(&run(&["validate", s(&src)]), rel);
        let imported = tmp.join(&format!("imported{n}"));
        expect_io_error_naming(
            &run(&["import", s(&src), "--from", "claude-code", "--out", s(&imported)]),
            rel,
        );
        assert!(!imported.exists(), "{rel}: import writes nothing");
    }
}

/// `rel` below `root` with `name` as its last part, in the operating
/// system's own bytes: names that are not Unicode cannot be a `&str`.
fn raw_path(root: &Path, rel: &str, name: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    root.join(rel).join(std::ffi::OsStr::from_bytes(name))
}

#[test]
fn file_names_that_are_not_utf8_are_refused_by_name_and_nothing_is_written() {
    let tmp = TempDir::new("not-utf8");
    let src = tmp.join("src");
    source(&src);
    // "café" in Latin-1 and "cafè": two files the filesystem tells apart,
    // one name each if read as text with replacement characters.
    fs::write(raw_path(&src, "skills/tidy", b"caf\xe9.md"), "first\n").expect("write");
    fs::write(raw_path(&src, "skills/tidy", b"caf\xe8.md"), "second\n").expect("write");
    let out = tmp.join("out");
    let r = build(&src, &out, &[]);
    for shown in [r"skills/tidy/caf\xe9.md", r"skills/tidy/caf\xe8.md"] {
        expect_io_error_naming(&r, shown);
    }
    assert!(r.stderr.contains("not valid UTF-8"), "{}", r.stderr);
    assert!(!r.stderr.contains('\u{fffd}'), "no name collapses into a replacement character:\n{}", r.stderr);
    assert!(!out.exists(), "nothing is written");
    expect_io_error_naming(&run(&["validate", s(&src)]), r"skills/tidy/caf\xe9.md");
    let imported = tmp.join("imported");
    let r = run(&["import", s(&src), "--from", "claude-code", "--out", s(&imported)]);
    expect_io_error_naming(&r, r"skills/tidy/caf\xe8.md");
    assert!(!imported.exists(), "import writes nothing");

    // A folder whose name is not Unicode names each file below it.
    let src = tmp.join("src-folder");
    source(&src);
    let folder = raw_path(&src, "skills", b"t\xffdy");
    fs::create_dir_all(&folder).expect("mkdir");
    fs::write(folder.join("SKILL.md"), "---\nname: tidy2\ndescription: x\n---\nx\n").expect("write");
    let out = tmp.join("out-folder");
    expect_io_error_naming(&build(&src, &out, &[]), r"skills/t\xffdy/SKILL.md");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_file_of_the_users_whose_name_is_not_utf8_in_a_project_folder_is_left_alone() {
    let tmp = TempDir::new("not-utf8-project");
    let src = tmp.join("src");
    source(&src);
    let project = tmp.join("project");
    fs::create_dir_all(project.join(".claude")).expect("mkdir");
    let theirs = raw_path(&project, ".claude", b"caf\xe9.md");
    fs::write(&theirs, "theirs\n").expect("write");
    for _ in 0..2 {
        build(&src, &project, &["--target", "claude-code:project"]).expect(0);
    }
    assert!(project.join(".claude/skills/tidy/SKILL.md").is_file(), "built beside it");
    run(&["uninstall", "--target", "claude-code:project", "--namespace", "demo", "--out", s(&project)])
        .expect(0);
    assert!(!project.join(".claude/skills").exists(), "ours removed");
    assert_eq!(fs::read(&theirs).expect("still there"), b"theirs\n");
}

#[test]
fn a_symlinked_bundle_folder_in_the_output_root_is_refused_and_nothing_is_written() {
    let tmp = TempDir::new("out-link");
    let src = tmp.join("src");
    source(&src);
    let elsewhere = tmp.join("elsewhere");
    fs::create_dir_all(&elsewhere).expect("mkdir");
    let out = tmp.join("out");
    fs::create_dir_all(&out).expect("mkdir");
    symlink(&elsewhere, out.join("claude-code")).expect("symlink");
    let r = build(&src, &out, &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("claude-code/ is a symbolic link"), "{}", r.stderr);
    assert!(files(&elsewhere).is_empty(), "nothing written through the link");
    assert!(!out.join(".claude-plugin").exists(), "nothing written at all");
}

#[test]
fn a_symlinked_folder_that_stays_inside_the_output_root_is_written_through() {
    let tmp = TempDir::new("out-link-inside");
    let src = tmp.join("src");
    source(&src);
    let out = tmp.join("out");
    let kept = out.join("dotfiles/claude-code");
    fs::create_dir_all(&kept).expect("mkdir");
    symlink(&kept, out.join("claude-code")).expect("symlink");
    let r = build(&src, &out, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(kept.join(".claude-plugin/plugin.json").is_file(), "written through the link: {:?}", files(&out));
}

#[test]
fn temp_files_of_an_interrupted_run_are_ignored_then_swept() {
    let tmp = TempDir::new("stray");
    let src = tmp.join("src");
    source(&src);
    let out = tmp.join("out");
    build(&src, &out, &[]).expect(0);
    let strays = ["claude-code/skills/tidy/.plugforge-tmp-99-1", "claude-code/.plugin.json.plugforge-99.tmp"];
    for stray in strays {
        write(&out, stray, "half a fi");
    }
    let doctor = run(&["doctor", s(&src), "--target", "claude-code", "--out", s(&out), "--json"]);
    assert!(!doctor.stdout.contains("plugforge-tmp"), "observe ignores temp files: {}", doctor.stdout);
    build(&src, &out, &[]).expect(0);
    for stray in strays {
        assert!(!out.join(stray).exists(), "{stray} swept");
    }
}

/// Bytes and executable bit of every file below `root`.
fn contents(root: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    files(root)
        .into_iter()
        .map(|rel| {
            let path = root.join(&rel);
            let mode = fs::metadata(&path).expect("metadata").permissions().mode();
            (rel, (fs::read(&path).expect("read"), mode & 0o111 != 0))
        })
        .collect()
}

/// `plugforge build` (with `extra` arguments) with its N-th file operation
/// killing the process; true when it ran to the end instead.
fn build_aborting_at(src: &Path, out: &Path, extra: &[&str], operation: u64) -> bool {
    let status = Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", s(src), "--target", "claude-code,codex", "--out", s(out)])
        .args(extra)
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .env("PLUGFORGE_FAIL_AFTER_WRITES", operation.to_string())
        .output()
        .expect("run plugforge")
        .status;
    match status.code() {
        Some(0) => true,
        Some(code) => panic!("operation {operation}: exit {code} instead of a crash"),
        None => false,
    }
}

fn build_both(src: &Path, out: &Path) {
    let r = run(&["build", s(src), "--target", "claude-code,codex", "--out", s(out)]);
    r.expect(0);
}

/// Folders below `root` named like a write's temp files: staged folders an
/// interrupted build left.
fn staged_folders(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if entry.file_name().to_string_lossy().starts_with(".plugforge-tmp-") {
                    found.push(entry.path());
                } else {
                    pending.push(entry.path());
                }
            }
        }
    }
    found
}

/// Kills a build at every file operation in turn, from an output root
/// prepared by `prepare`, and checks a plain rerun gives `expected`. The
/// number of kills that left a staged folder behind.
fn crash_at_every_operation(tmp: &TempDir, src: &Path, extra: &[&str], prepare: &dyn Fn(&Path)) -> usize {
    let reference = tmp.join("reference");
    prepare(&reference);
    build_both(src, &reference);
    let expected = contents(&reference);
    let mut operation = 1;
    let mut left_staged = 0;
    loop {
        let out = tmp.join(&format!("crash{operation}"));
        prepare(&out);
        let finished = build_aborting_at(src, &out, extra, operation);
        if !staged_folders(&out).is_empty() {
            left_staged += 1;
        }
        build_both(src, &out);
        let got = contents(&out);
        let stray: Vec<&String> = got.keys().filter(|p| p.contains("plugforge-tmp")).collect();
        assert!(stray.is_empty(), "killed at operation {operation}: temp files left: {stray:?}");
        let staged = staged_folders(&out);
        assert!(staged.is_empty(), "killed at operation {operation}: staged folders left: {staged:?}");
        assert!(
            got == expected,
            "killed at operation {operation}: the rerun differs from an uninterrupted build"
        );
        fs::remove_dir_all(&out).expect("clean");
        if finished {
            break;
        }
        operation += 1;
    }
    assert!(operation > 10, "only {operation} operations: the hook did not count the writes");
    left_staged
}

#[test]
fn a_first_build_killed_at_any_file_operation_converges_on_rerun() {
    let tmp = TempDir::new("crash-first");
    let src = tmp.join("src");
    source(&src);
    crash_at_every_operation(&tmp, &src, &[], &|_| {});
}

/// A first build of more files than the writer flushes one by one: each
/// bundle's missing folder is staged beside its place and renamed there
/// whole, at every durability level but `full` (which renames file by file).
#[test]
fn a_first_build_of_many_files_killed_at_any_file_operation_converges_on_rerun() {
    let tmp = TempDir::new("crash-many");
    let src = tmp.join("src");
    source(&src);
    for n in 0..12 {
        write(&src, &format!("commands/c{n:02}.md"), format!("---\ndescription: Command {n}\n---\nDo {n}\n"));
    }
    for durability in ["batch", "none", "full"] {
        let tmp = TempDir::new(&format!("crash-many-{durability}"));
        let staged = crash_at_every_operation(&tmp, &src, &["--durability", durability], &|_| {});
        if durability == "full" {
            assert_eq!(staged, 0, "full durability renames file by file");
        } else {
            assert!(staged > 0, "{durability}: no kill left a staged folder: the build did not stage one");
        }
    }
}

#[test]
fn an_update_killed_at_any_file_operation_converges_on_rerun() {
    let tmp = TempDir::new("crash-update");
    let old = tmp.join("old");
    source(&old);
    write(&old, "commands/bye.md", "---\ndescription: Say bye\n---\nBye\n");
    let src = tmp.join("src");
    source(&src);
    write(&src, "commands/hi.md", "---\ndescription: Say hello\n---\nHello $ARGUMENTS\n");
    write(
        &src,
        "plugforge.json",
        r#"{"name":"demo","version":"1.1.0","description":"d","author":{"name":"a"}}"#,
    );
    crash_at_every_operation(&tmp, &src, &[], &|out| build_both(&old, out));
}

#[test]
fn the_source_folder_as_its_own_output_root_is_refused_and_nothing_is_written() {
    let tmp = TempDir::new("out-is-src");
    let src = tmp.join("src");
    source(&src);
    let before = contents(&src);
    for out in [s(&src).to_string(), format!("{}/.", s(&src))] {
        let r = build(&src, Path::new(&out), &[]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("the output folder is the source folder itself"), "{}", r.stderr);
        assert!(r.stderr.contains(s(&src)), "names the folder: {}", r.stderr);
    }
    assert!(contents(&src) == before, "nothing is written into the source");
}

#[test]
fn a_manifest_name_that_is_a_generated_file_is_refused_naming_it() {
    let tmp = TempDir::new("manifest-name-collides");
    let src = tmp.join("src");
    source(&src);
    let out = tmp.join("out");
    for name in ["README.md", "plugin.json"] {
        let target = if name == "README.md" { "claude-code" } else { "agent-plugins" };
        let r = run(&["build", s(&src), "--target", target, "--out", s(&out), "--manifest-name", name]);
        assert_eq!(r.code, 2, "{name}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(&format!("manifest name \"{name}\" refused")), "{}", r.stderr);
        assert!(r.stderr.contains(&format!("{target}/{name}")), "names the file: {}", r.stderr);
        assert!(files(&out).is_empty(), "{name}: nothing is written");
    }
}

#[test]
fn a_source_file_named_like_a_temp_file_is_refused_by_name() {
    let tmp = TempDir::new("temp-named-source");
    let src = tmp.join("src");
    source(&src);
    write(&src, "skills/tidy/.plugforge-tmp-notes.md", "notes\n");
    let out = tmp.join("out");
    let r = build(&src, &out, &[]);
    expect_io_error_naming(&r, "skills/tidy/.plugforge-tmp-notes.md");
    assert!(r.stderr.contains("named like plugforge's temp files"), "{}", r.stderr);
    assert!(!out.exists(), "nothing is written");
}
