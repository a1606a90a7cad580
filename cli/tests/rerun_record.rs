//! The rerun shortcut: a build that changed nothing leaves a record, the
//! same command then prints the same without building, and any change the
//! record cannot vouch for (a same-size edit with its time set back, a user
//! edit in the output, a new file, other arguments, files changed too
//! recently) makes the run do the whole build again.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use common::*;

fn build_with_cache(cache: &Path, src: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["build", s(src), "--target", "claude-code", "--out", s(out)];
    args.extend_from_slice(extra);
    run_command(
        Command::new(env!("CARGO_BIN_EXE_plugforge"))
            .args(&args)
            .env("SOURCE_DATE_EPOCH", EPOCH)
            .env("PLUGFORGE_CACHE_DIR", cache),
    )
}

fn records(cache: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(cache.join("reruns")) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    found.sort();
    found
}

/// A record's header line, and what it says the run printed (stdout, stderr).
fn read_record(record: &Path) -> (serde_json::Value, String, String) {
    let bytes = fs::read(record).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').expect("a header line");
    let header: serde_json::Value = serde_json::from_slice(&bytes[..end]).unwrap();
    let printed = String::from_utf8(bytes[end + 1..].to_vec()).unwrap();
    let stdout_len = usize::try_from(header["stdout"].as_u64().unwrap()).unwrap();
    assert_eq!(
        printed.len() as u64,
        stdout_len as u64 + header["stderr"].as_u64().unwrap(),
        "the header counts every byte"
    );
    let (stdout, stderr) = printed.split_at(stdout_len);
    (header, stdout.to_string(), stderr.to_string())
}

fn printed_by(record: &Path) -> (String, String) {
    let (_, stdout, stderr) = read_record(record);
    (stdout, stderr)
}

/// Replaces what the record says was printed to stdout.
fn mark_printed(record: &Path, stdout: &str) {
    let (mut header, _, stderr) = read_record(record);
    header["stdout"] = stdout.len().into();
    let mut bytes = serde_json::to_vec(&header).unwrap();
    bytes.push(b'\n');
    bytes.extend_from_slice(stdout.as_bytes());
    bytes.extend_from_slice(stderr.as_bytes());
    fs::write(record, bytes).unwrap();
}

/// Past the settle margin: files written now may stand for their bytes.
fn settle() {
    std::thread::sleep(Duration::from_millis(2_200));
}

/// Rewrites `rel` with `bytes` of the same length and sets its modification
/// time back to what it was: only the status-change time tells.
fn edit_keeping_size_and_mtime(root: &Path, rel: &str, edit: impl FnOnce(&mut Vec<u8>)) {
    let path = root.join(rel);
    let mtime: SystemTime = fs::metadata(&path).unwrap().modified().unwrap();
    let mut bytes = fs::read(&path).unwrap();
    let len = bytes.len();
    edit(&mut bytes);
    assert_eq!(bytes.len(), len, "a same-size edit");
    fs::write(&path, &bytes).unwrap();
    fs::File::options().write(true).open(&path).unwrap().set_modified(mtime).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), mtime);
}

#[test]
fn a_rerun_with_nothing_changed_prints_the_record_and_any_change_builds_again() {
    let tmp = TempDir::new("rerun-record");
    let (src, out, cache) = (striatum_copy(&tmp), tmp.join("out"), tmp.join("cache"));

    let first = build_with_cache(&cache, &src, &out, &[]);
    first.expect(0);
    assert!(first.stdout.contains("18 create"), "{}", first.stdout);
    // Written a moment ago: too recent to vouch for, so no record yet.
    let unsettled = build_with_cache(&cache, &src, &out, &[]);
    unsettled.expect(0);
    assert!(records(&cache).is_empty(), "{:?}", records(&cache));

    settle();
    let full = build_with_cache(&cache, &src, &out, &[]);
    full.expect(0);
    assert!(full.stdout.contains("18 unchanged"), "{}", full.stdout);
    let kept = records(&cache);
    assert_eq!(kept.len(), 1, "one record for one command line");
    let replayed = build_with_cache(&cache, &src, &out, &[]);
    assert_eq!((replayed.code, &replayed.stdout, &replayed.stderr), (full.code, &full.stdout, &full.stderr));

    // The record is what the run printed: a marked copy proves the shortcut ran.
    assert_eq!(printed_by(&kept[0]), (full.stdout.clone(), full.stderr.clone()));
    mark_printed(&kept[0], "printed from the record\n");
    assert_eq!(build_with_cache(&cache, &src, &out, &[]).stdout, "printed from the record\n");
    // A record cut short (a full disk, a killed copy) is not replayed, not even in part.
    let marked = fs::read(&kept[0]).unwrap();
    fs::write(&kept[0], &marked[..marked.len() - 3]).unwrap();
    let whole = build_with_cache(&cache, &src, &out, &[]);
    whole.expect(0);
    assert_eq!(whole.stdout, full.stdout, "built again, printed once");
    assert_eq!(records(&cache), kept, "the record made again, and no spool file left");
    assert_eq!(printed_by(&kept[0]), (full.stdout.clone(), full.stderr.clone()));

    // Other arguments are another command line: built, not replayed.
    let json = build_with_cache(&cache, &src, &out, &["--json"]);
    json.expect(0);
    assert_eq!(json.json()["plan"]["summary"]["unchanged"], 18);

    // A same-size source edit with its modification time set back.
    let reference = "claude-code/skills/striatum-recover/references/stalled-runs.md";
    let reference_before = read(&out, reference);
    edit_keeping_size_and_mtime(&src, "skills/striatum-recover/references/stalled-runs.md", |bytes| {
        let at = bytes.iter().position(u8::is_ascii_lowercase).unwrap();
        bytes[at] = bytes[at].to_ascii_uppercase();
    });
    let rebuilt = build_with_cache(&cache, &src, &out, &[]);
    rebuilt.expect(0);
    assert!(rebuilt.stdout.contains("update"), "{}", rebuilt.stdout);
    assert!(!rebuilt.stdout.contains("printed from the record"));
    assert_ne!(read(&out, reference), reference_before, "the edit reached the bundle");

    // A user edit in the output, same size and time: a conflict, not "unchanged".
    settle();
    build_with_cache(&cache, &src, &out, &[]).expect(0);
    assert_eq!(records(&cache).len(), 2, "the plain command's record, made again, and --json's");
    edit_keeping_size_and_mtime(&out, "claude-code/commands/claim-next.md", |bytes| {
        let last = bytes.len() - 2;
        bytes[last] = if bytes[last] == b'x' { b'y' } else { b'x' };
    });
    let conflict = build_with_cache(&cache, &src, &out, &[]);
    conflict.expect(1);
    assert!(conflict.stdout.contains("1 conflict"), "{}\n{}", conflict.stdout, conflict.stderr);

    // A file added to the source is seen without any time trick.
    fs::remove_file(out.join("claude-code/commands/claim-next.md")).unwrap();
    settle();
    build_with_cache(&cache, &src, &out, &[]).expect(0);
    settle();
    let quiet = build_with_cache(&cache, &src, &out, &[]);
    assert!(quiet.stdout.contains("18 unchanged"), "{}", quiet.stdout);
    write(&src, "commands/added.md", "---\ndescription: Added later\n---\nAdded.\n");
    let added = build_with_cache(&cache, &src, &out, &[]);
    added.expect(0);
    assert!(added.stdout.contains("claude-code/commands/added.md"), "{}", added.stdout);
    assert!(!read(&out, "claude-code/commands/added.md").is_empty());
}

#[test]
fn no_record_is_kept_with_the_shortcut_switched_off() {
    let tmp = TempDir::new("rerun-off");
    let (src, out, cache) = (striatum_copy(&tmp), tmp.join("out"), tmp.join("cache"));
    build_with_cache(&cache, &src, &out, &[]).expect(0);
    settle();
    let off = run_command(
        Command::new(env!("CARGO_BIN_EXE_plugforge"))
            .args(["build", s(&src), "--target", "claude-code", "--out", s(&out)])
            .env("SOURCE_DATE_EPOCH", EPOCH)
            .env("PLUGFORGE_CACHE_DIR", &cache)
            .env("PLUGFORGE_NO_RERUN_RECORD", "1"),
    );
    off.expect(0);
    assert!(off.stdout.contains("18 unchanged"), "{}", off.stdout);
    assert!(records(&cache).is_empty());
}

#[test]
fn keeping_a_record_prunes_old_and_least_recently_used_ones_and_nothing_else() {
    let tmp = TempDir::new("rerun-prune");
    let (src, out, cache) = (striatum_copy(&tmp), tmp.join("out"), tmp.join("cache"));
    let reruns = cache.join("reruns");
    fs::create_dir_all(&reruns).unwrap();
    let now = SystemTime::now();
    let day = Duration::from_secs(24 * 60 * 60);
    let aged = |name: &str, age: Duration| {
        let path = reruns.join(name);
        fs::write(&path, b"{}").unwrap();
        fs::File::options().write(true).open(&path).unwrap().set_modified(now - age).unwrap();
        path
    };
    // 300 records of other command lines, used 1 to 300 minutes ago.
    let mut others: Vec<PathBuf> =
        (1..=300u64).map(|i| aged(&format!("{i:064x}.json"), Duration::from_secs(60 * i))).collect();
    let stale = aged(&format!("{:064x}.json", 999), 31 * day);
    let killed_temp = aged(".plugforge-tmp-left-by-a-kill", 40 * day);
    let not_ours = aged("notes.txt", 90 * day);

    build_with_cache(&cache, &src, &out, &[]).expect(0);
    settle();
    build_with_cache(&cache, &src, &out, &[]).expect(0);

    let left: Vec<PathBuf> = records(&cache);
    assert!(!left.contains(&stale) && !left.contains(&killed_temp), "unused for over 30 days: removed");
    assert!(left.contains(&not_ours), "a file plugforge did not write stays");
    let kept: Vec<&PathBuf> = left.iter().filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    assert_eq!(kept.len(), 256, "at most 256 records");
    // The 255 most recently used others stay, with the record just written.
    others.truncate(255);
    assert!(others.iter().all(|p| left.contains(p)), "the most recently used stay");
    let own: Vec<_> = kept.iter().filter(|p| !others.contains(p)).collect();
    assert_eq!(own.len(), 1, "{own:?}");

    // A replay marks its record used: its time moves to now.
    fs::File::options().write(true).open(own[0]).unwrap().set_modified(now - 10 * day).unwrap();
    let replayed = build_with_cache(&cache, &src, &out, &[]);
    replayed.expect(0);
    let used = fs::metadata(own[0]).unwrap().modified().unwrap();
    assert!(used > now, "replay marked the record used");
}

/// Keeps a fresh record of the plain command, marked so that its replay is
/// told from a build.
fn keep_marked_record(cache: &Path, src: &Path, out: &Path) {
    for record in records(cache) {
        fs::remove_file(record).unwrap();
    }
    settle();
    build_with_cache(cache, src, out, &[]).expect(0);
    let kept = records(cache);
    assert_eq!(kept.len(), 1, "{kept:?}");
    mark_printed(&kept[0], "printed from the record\n");
    assert_eq!(build_with_cache(cache, src, out, &[]).stdout, "printed from the record\n");
}

/// The replay lists no folder: it trusts a folder's stamp to change when an
/// entry is added, removed or renamed in it. Each kind of change, deep in
/// the source or the output, makes the run build again.
#[test]
fn entries_added_removed_or_renamed_anywhere_are_seen_without_listing_folders() {
    let tmp = TempDir::new("rerun-folders");
    let (src, out, cache) = (striatum_copy(&tmp), tmp.join("out"), tmp.join("cache"));
    build_with_cache(&cache, &src, &out, &[]).expect(0);
    let built = |what: &str| {
        let run = build_with_cache(&cache, &src, &out, &[]);
        assert_ne!(run.stdout, "printed from the record\n", "{what}: replayed a stale record");
        run
    };

    // A file of the user's, two folders down in the output: kept, and reported.
    keep_marked_record(&cache, &src, &out);
    write(&out, "claude-code/skills/striatum-recover/notes.md", "mine\n");
    built("a file added in the output").expect(0);

    // A new folder holding a reference, inside a skill of the source.
    keep_marked_record(&cache, &src, &out);
    write(&src, "skills/striatum-recover/references/more/extra.md", "More.\n");
    let added = built("a folder added in the source");
    added.expect(0);
    assert!(added.stdout.contains("references/more/extra.md"), "{}", added.stdout);

    // A source file renamed within its folder: same inode, same bytes.
    keep_marked_record(&cache, &src, &out);
    let commands = src.join("commands");
    fs::rename(commands.join("claim-next.md.j2"), commands.join("claim-next-task.md.j2")).unwrap();
    let renamed = built("a source file renamed");
    renamed.expect(0);
    assert!(renamed.stdout.contains("claim-next-task.md"), "{}", renamed.stdout);

    // A source file removed.
    keep_marked_record(&cache, &src, &out);
    fs::remove_file(src.join("skills/striatum-recover/references/more/extra.md")).unwrap();
    let removed = built("a source file removed");
    removed.expect(0);
    assert!(removed.stdout.contains("remove"), "{}", removed.stdout);

    // The output root removed whole: built again from nothing.
    keep_marked_record(&cache, &src, &out);
    fs::remove_dir_all(&out).unwrap();
    let fresh = built("the output root removed");
    fresh.expect(0);
    assert!(fresh.stdout.contains("create"), "{}", fresh.stdout);
}
