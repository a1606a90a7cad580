//! Every shell block of README.md, docs/getting-started.md, the guides and CONTRIBUTING.md
//! (docs/guides/*.md) runs here exactly as written, page by page, in a copy
//! of the repository, with a throwaway HOME per page, this build's
//! `plugforge` and the pinned real clients on PATH; its exit status must be
//! 0 and its stdout must match the page's `<!-- output -->` block when it has
//! one. Blocks marked `<!-- not run: REASON -->` are counted and listed, as
//! are blocks whose client is skipped by name (`PLUGFORGE_SKIP_CLIENTS`, the
//! fast tier). The markers and the runner: `tests/docs/mod.rs`.
//!
//! The repository is copied once; after each page, what its blocks wrote is
//! removed and any file they changed is copied back, so every page starts
//! from the repository as it is.
//!
//! The README's `cargo run -p plugforge-cli` builds into this build's own
//! target folder: the copy keeps the file and folder times, and the
//! command line's build script names its inputs relative to the crate, so
//! cargo finds current what `cargo build -p plugforge-cli` built, and the
//! copy's build leaves the repository's current too.

mod clients;
mod docs;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use docs::{Block, CLIENTS, Shell, clients_called, judge, shell_blocks};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("repository")
}

/// The pages whose commands a reader runs as written.
fn pages() -> Vec<String> {
    let root = repository();
    let mut pages =
        vec!["README.md".to_string(), "docs/getting-started.md".to_string(), "CONTRIBUTING.md".to_string()];
    let mut guides: Vec<String> = std::fs::read_dir(root.join("docs/guides"))
        .expect("docs/guides")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/guides/{name}"))
        .collect();
    guides.sort();
    pages.extend(guides);
    pages
}

/// The copy's files as the repository has them: each file's length and
/// modification time, and every folder on the way to one.
struct Listing {
    files: BTreeMap<String, (u64, SystemTime)>,
    dirs: BTreeSet<String>,
}

/// The repository's files (tracked, and new ones not ignored) copied with
/// their modification times, and their folders' times, so cargo finds its
/// build current.
fn copy_repository(to: &Path) -> Listing {
    let root = repository();
    let listed = Command::new("git")
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .current_dir(&root)
        .output()
        .expect("git ls-files");
    assert!(listed.status.success(), "git ls-files failed");
    let mut listing = Listing { files: BTreeMap::new(), dirs: BTreeSet::new() };
    for path in listed.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = std::str::from_utf8(path).expect("utf-8 path");
        let Some(stamp) = copy_file(path, to) else { continue }; // deleted, not yet committed
        listing.files.insert(path.to_string(), stamp);
        let mut parent = Path::new(path).parent();
        while let Some(dir) = parent.filter(|d| !d.as_os_str().is_empty()) {
            listing.dirs.insert(dir.to_string_lossy().into_owned());
            parent = dir.parent();
        }
    }
    restore_dir_times(to, &listing);
    listing
}

/// Copies one file (or symbolic link) of the repository into the copy, with
/// its modification time; its length and time, or `None` when it is gone.
fn copy_file(path: &str, to: &Path) -> Option<(u64, SystemTime)> {
    let from = repository().join(path);
    let meta = std::fs::symlink_metadata(&from).ok()?;
    let dest = to.join(path);
    std::fs::create_dir_all(dest.parent().expect("parent")).expect("mkdir");
    let _ = std::fs::remove_file(&dest);
    if meta.file_type().is_symlink() {
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(std::fs::read_link(&from).expect("readlink"), &dest).expect("symlink");
            // The link's own time too (std sets only a target's): cargo
            // reads it for `core/templates`.
            let touched = Command::new("touch").arg("-h").arg("-r").arg(&from).arg(&dest).status();
            assert!(touched.is_ok_and(|s| s.success()), "touch -h -r {path}");
        }
        #[cfg(not(unix))]
        std::fs::copy(&from, &dest).expect("copy");
        return Some(stamp(&std::fs::symlink_metadata(&dest).expect("stat")));
    }
    std::fs::copy(&from, &dest).expect("copy");
    let modified: SystemTime = meta.modified().expect("mtime");
    std::fs::File::options().write(true).open(&dest).and_then(|f| f.set_modified(modified)).expect("mtime");
    Some((meta.len(), modified))
}

fn stamp(meta: &std::fs::Metadata) -> (u64, SystemTime) {
    (meta.len(), meta.modified().expect("mtime"))
}

/// Every folder of the copy gets the repository's modification time back,
/// the deepest first (cargo compares folder times with its build's).
fn restore_dir_times(to: &Path, listing: &Listing) {
    let root = repository();
    let mut dirs: Vec<&String> = listing.dirs.iter().collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
    for dir in dirs {
        let Ok(modified) = std::fs::metadata(root.join(dir)).and_then(|m| m.modified()) else { continue };
        let _ = std::fs::File::open(to.join(dir)).and_then(|f| f.set_modified(modified));
    }
}

/// Puts the copy back as `copy_repository` left it: whatever a page's
/// blocks added is removed (but `keep`), and whatever they changed or
/// removed is copied again. The number of paths put back.
fn reset(to: &Path, listing: &Listing, keep: &[&str]) -> usize {
    fn walk(to: &Path, dir: &Path, rel: &str, listing: &Listing, keep: &[&str], restored: &mut usize) {
        for entry in std::fs::read_dir(dir).expect("read the copy") {
            let entry = entry.expect("entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            if keep.contains(&path.as_str()) {
                continue;
            }
            let meta = std::fs::symlink_metadata(entry.path()).expect("stat");
            if meta.is_dir() {
                if listing.dirs.contains(&path) || keep.iter().any(|k| k.starts_with(&format!("{path}/"))) {
                    walk(to, &entry.path(), &path, listing, keep, restored);
                } else {
                    std::fs::remove_dir_all(entry.path()).expect("remove what a block wrote");
                    *restored += 1;
                }
            } else if !listing.files.contains_key(&path) {
                std::fs::remove_file(entry.path()).expect("remove what a block wrote");
                *restored += 1;
            } else if listing.files.get(&path) != Some(&stamp(&meta)) {
                copy_file(&path, to);
                *restored += 1;
            }
        }
    }
    let mut restored = 0;
    walk(to, to, "", listing, keep, &mut restored);
    for path in listing.files.keys() {
        if std::fs::symlink_metadata(to.join(path)).is_err() {
            copy_file(path, to);
            restored += 1;
        }
    }
    if restored > 0 {
        restore_dir_times(to, listing);
    }
    restored
}

/// The target folder this test was built in: the README's `cargo run` reuses it.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_plugforge"))
        .parent()
        .and_then(Path::parent)
        .expect("target dir")
        .to_path_buf()
}

struct Tally {
    ran: usize,
    not_run: Vec<String>,
    clients_skipped: Vec<String>,
    failures: Vec<String>,
}

/// Runs one page's blocks in order in `work`; a failed block is reported
/// and the page goes on (later blocks may then fail too).
fn run_page(page: &str, markdown: &str, work: &Path, shell: &Shell, tally: &mut Tally) -> Vec<Block> {
    let blocks = shell_blocks(markdown, false);
    for block in &blocks {
        let place = format!("{page}:{}", block.line);
        if let Some(reason) = &block.not_run {
            tally.not_run.push(format!("{place} ({reason})"));
            continue;
        }
        let mut skipped = None;
        for name in clients_called(&block.code) {
            let var = CLIENTS.iter().find(|(n, _)| *n == name).expect("a known client").1;
            match clients::client(var) {
                Some(bin) => shell.link(name, Path::new(&bin)),
                None => skipped = Some(name),
            }
        }
        if let Some(name) = skipped {
            tally.clients_skipped.push(format!("{place} ({name} skipped)"));
            continue;
        }
        let started = std::time::Instant::now();
        let ran = shell.run(&block.code, work);
        eprintln!("  ran {place} in {:.1} s", started.elapsed().as_secs_f64());
        tally.ran += 1;
        if let Some(why) = judge(block, &ran) {
            tally.failures.push(format!("{place}: the block\n{}failed: {why}", block.code));
        }
    }
    blocks
}

#[test]
fn every_documented_command_runs_as_written() {
    let root = repository();
    let mut tally = Tally { ran: 0, not_run: Vec::new(), clients_skipped: Vec::new(), failures: Vec::new() };
    let only = std::env::var("PLUGFORGE_DOCS_ONLY").ok();
    let tmp = common_tmp("pages");
    let work = tmp.join("repo");
    let copying = std::time::Instant::now();
    let listing = copy_repository(&work);
    eprintln!(
        "  copied the repository ({} files) in {:.1} s",
        listing.files.len(),
        copying.elapsed().as_secs_f64()
    );
    // The README's `cargo run` shares this build's target folder.
    point_cargo_at_this_target(&work);
    // The reset puts back what a block changes, and removes what it adds.
    std::fs::OpenOptions::new()
        .append(true)
        .open(work.join("README.md"))
        .expect("open")
        .write_all(b"x")
        .unwrap();
    std::fs::remove_file(work.join("Cargo.toml")).expect("remove");
    std::fs::create_dir_all(work.join("dist/a")).expect("mkdir");
    std::fs::write(work.join("dist/a/b"), "b").expect("write");
    assert_eq!(reset(&work, &listing, &[CARGO_CONFIG]), 3, "README.md, Cargo.toml and dist/ put back");
    assert_eq!(
        std::fs::read(work.join("README.md")).unwrap(),
        std::fs::read(root.join("README.md")).unwrap()
    );
    assert_eq!(
        std::fs::read(work.join("Cargo.toml")).unwrap(),
        std::fs::read(root.join("Cargo.toml")).unwrap()
    );
    assert!(!work.join("dist").exists() && work.join(CARGO_CONFIG).is_file());
    assert_eq!(reset(&work, &listing, &[CARGO_CONFIG]), 0, "the copy is as the repository");
    for page in pages() {
        if only.as_ref().is_some_and(|o| *o != page) {
            continue;
        }
        let markdown = std::fs::read_to_string(root.join(&page)).expect("read page");
        let shell = Shell::new(&tmp.join(page.replace(['/', '.'], "-")));
        shell.link("plugforge", Path::new(env!("CARGO_BIN_EXE_plugforge")));
        let before = tally.ran + tally.not_run.len() + tally.clients_skipped.len();
        let blocks = run_page(&page, &markdown, &work, &shell, &mut tally);
        let counted = tally.ran + tally.not_run.len() + tally.clients_skipped.len() - before;
        assert_eq!(counted, blocks.len(), "{page}: every block is run or counted as skipped");
        if page == "README.md" || page == "docs/getting-started.md" {
            assert!(blocks.iter().any(|b| b.not_run.is_none()), "{page} has blocks that run");
        }
        let resetting = std::time::Instant::now();
        let restored = reset(&work, &listing, &[CARGO_CONFIG]);
        eprintln!(
            "  reset the copy after {page}: {restored} path(s) put back in {:.1} s",
            resetting.elapsed().as_secs_f64()
        );
        assert_eq!(reset(&work, &listing, &[CARGO_CONFIG]), 0, "after {page}: the copy is as the repository");
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let skipped = tally.not_run.len() + tally.clients_skipped.len();
    eprintln!(
        "documented commands: {} blocks run, {skipped} skipped ({} marked not run, {} with a client skipped)",
        tally.ran,
        tally.not_run.len(),
        tally.clients_skipped.len()
    );
    for line in tally.not_run.iter().chain(&tally.clients_skipped) {
        eprintln!("  skipped: {line}");
    }
    assert!(
        tally.failures.is_empty(),
        "{} block(s) failed:\n\n{}",
        tally.failures.len(),
        tally.failures.join("\n\n")
    );
    assert!(tally.ran > 0, "no documented command ran");
}

/// A fresh folder below the system's temp folder for one page.
fn common_tmp(page: &str) -> PathBuf {
    let name = page.replace(['/', '.'], "-");
    let dir = std::env::temp_dir().join(format!("plugforge-docs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The copy's cargo configuration, written by this test.
const CARGO_CONFIG: &str = ".cargo/config.toml";

/// Points the copy's cargo at this build's target folder through its own
/// config file, so the README's `cargo run` line stays exactly as written.
fn point_cargo_at_this_target(work: &Path) {
    let config = work.join(CARGO_CONFIG);
    std::fs::create_dir_all(config.parent().expect(".cargo")).expect("mkdir .cargo");
    let target = target_dir();
    std::fs::write(&config, format!("[build]\ntarget-dir = {:?}\n", target.to_string_lossy()))
        .expect("config");
}

#[test]
fn a_block_broken_on_purpose_fails_and_a_marked_one_is_counted() {
    let page = "\
Runs:

```sh
echo one && echo two
```

<!-- output -->
```text
one
[..]
```

Broken on purpose:

```sh
plugforge build --target no-such-runtime
```

<!-- not run: installs from a registry -->
```sh
npm install --global plugforge
```

```sh
echo three
```

<!-- output -->
```text
four
```
";
    let tmp = common_tmp("self-test");
    let shell = Shell::new(&tmp);
    shell.link("plugforge", Path::new(env!("CARGO_BIN_EXE_plugforge")));
    let mut tally = Tally { ran: 0, not_run: Vec::new(), clients_skipped: Vec::new(), failures: Vec::new() };
    let blocks = run_page("self-test.md", page, &tmp, &shell, &mut tally);
    assert_eq!(blocks.len(), 4);
    assert_eq!(tally.ran, 3);
    assert_eq!(tally.not_run, ["self-test.md:20 (installs from a registry)"]);
    assert_eq!(tally.failures.len(), 2, "{:#?}", tally.failures);
    assert!(tally.failures[0].starts_with("self-test.md:15:"), "{}", tally.failures[0]);
    assert!(tally.failures[0].contains("exit Some(2)"), "{}", tally.failures[0]);
    assert!(tally.failures[1].starts_with("self-test.md:24:"), "{}", tally.failures[1]);
    assert!(tally.failures[1].contains("stdout differs"), "{}", tally.failures[1]);
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn clients_are_found_at_the_start_of_each_command() {
    assert_eq!(
        clients_called("claude plugin marketplace add ./dist && claude plugin install a@b"),
        ["claude"]
    );
    assert_eq!(
        clients_called("cd x && codex plugin add a@b | tee log; copilot plugin list"),
        ["codex", "copilot"]
    );
    assert!(clients_called("plugforge build --target claude-code,codex").is_empty());
}
