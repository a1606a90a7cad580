//! Every shell block of README.md, docs/getting-started.md and the guides
//! (docs/guides/*.md) runs here exactly as written, page by page, in a copy
//! of the repository, with a throwaway HOME, this build's `plugforge` and the
//! pinned real clients on PATH; its exit status must be 0 and its stdout
//! must match the page's `<!-- output -->` block when it has one. Blocks
//! marked `<!-- not run: REASON -->` are counted and listed, as are blocks
//! whose client is skipped by name (`PLUGFORGE_SKIP_CLIENTS`, the fast tier).
//! The markers and the runner: `tests/docs/mod.rs`.
//!
//! The README's `cargo run -p plugforge-cli` builds into this build's own
//! target folder (the copy's file times are kept, so nothing is rebuilt
//! that `cargo build -p plugforge-cli` has built).

mod clients;
mod docs;

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
    let mut pages = vec!["README.md".to_string(), "docs/getting-started.md".to_string()];
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

/// The repository's files (tracked, and new ones not ignored) copied with
/// their modification times, so cargo finds its build current.
fn copy_repository(to: &Path) {
    let root = repository();
    let listed = Command::new("git")
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .current_dir(&root)
        .output()
        .expect("git ls-files");
    assert!(listed.status.success(), "git ls-files failed");
    for path in listed.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        let path = std::str::from_utf8(path).expect("utf-8 path");
        let from = root.join(path);
        let Ok(meta) = std::fs::symlink_metadata(&from) else { continue }; // deleted, not yet committed
        let dest = to.join(path);
        std::fs::create_dir_all(dest.parent().expect("parent")).expect("mkdir");
        if meta.file_type().is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(&from).expect("readlink"), &dest).expect("symlink");
            continue;
        }
        std::fs::copy(&from, &dest).expect("copy");
        let modified: SystemTime = meta.modified().expect("mtime");
        std::fs::File::options()
            .write(true)
            .open(&dest)
            .and_then(|f| f.set_modified(modified))
            .expect("mtime");
    }
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
    for page in pages() {
        if only.as_ref().is_some_and(|o| *o != page) {
            continue;
        }
        let markdown = std::fs::read_to_string(root.join(&page)).expect("read page");
        let tmp = common_tmp(&page);
        let work = tmp.join("repo");
        let copying = std::time::Instant::now();
        copy_repository(&work);
        eprintln!("  copied the repository for {page} in {:.1} s", copying.elapsed().as_secs_f64());
        let shell = Shell::new(&tmp);
        shell.link("plugforge", Path::new(env!("CARGO_BIN_EXE_plugforge")));
        // SAFETY of the build: the README's `cargo run` shares this build's target folder.
        unsafe_free_target_env(&work);
        let before = tally.ran + tally.not_run.len() + tally.clients_skipped.len();
        let blocks = run_page(&page, &markdown, &work, &shell, &mut tally);
        let counted = tally.ran + tally.not_run.len() + tally.clients_skipped.len() - before;
        assert_eq!(counted, blocks.len(), "{page}: every block is run or counted as skipped");
        if page == "README.md" || page == "docs/getting-started.md" {
            assert!(blocks.iter().any(|b| b.not_run.is_none()), "{page} has blocks that run");
        }
        let _ = std::fs::remove_dir_all(&tmp);
    }
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

/// Points the copy's cargo at this build's target folder through its own
/// config file, so the README's `cargo run` line stays exactly as written.
fn unsafe_free_target_env(work: &Path) {
    let config = work.join(".cargo/config.toml");
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
