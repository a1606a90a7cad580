//! Shared helpers for the acceptance tests: temp dirs, running the real
//! `plugforge` binary, hashing and snapshotting output trees.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The SOURCE_DATE_EPOCH every build uses unless a test says otherwise.
pub const EPOCH: &str = "1700000000";

/// The bundle's files, relative to OUT, as the striatum example generates them
/// (without the manifest and the marketplace file).
pub const STRIATUM_BUNDLE: [&str; 16] = [
    "claude-code/.claude-plugin/plugin.json",
    "claude-code/.mcp.json",
    "claude-code/README.md",
    "claude-code/agents/striatum-recover.md",
    "claude-code/commands/claim-next.md",
    "claude-code/commands/dashboard.md",
    "claude-code/commands/doctor.md",
    "claude-code/commands/status.md",
    "claude-code/commands/why.md",
    "claude-code/hooks/hooks.json",
    "claude-code/skills/striatum-claim-loop/SKILL.md",
    "claude-code/skills/striatum-recover/SKILL.md",
    "claude-code/skills/striatum-recover/references/stalled-runs.md",
    "claude-code/skills/striatum-scaffold/SKILL.md",
    "claude-code/skills/striatum-supervise/SKILL.md",
    "claude-code/skills/striatum-workflow/SKILL.md",
];
pub const MANIFEST: &str = "claude-code/.plugforge-manifest.json";
pub const MARKETPLACE: &str = ".claude-plugin/marketplace.json";

/// A unique folder below the system temp dir, removed on drop.
pub struct TempDir(PathBuf);

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!("plugforge-test-{}-{n}-{label}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout parsed as the one JSON object `--json` prints.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!("stdout is not JSON ({e}):\n{}\nstderr:\n{}", self.stdout, self.stderr)
        })
    }

    pub fn expect(&self, code: i32) -> &Run {
        assert_eq!(self.code, code, "exit code\nstdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
        self
    }
}

/// Runs `plugforge ARGS` with SOURCE_DATE_EPOCH=`epoch`.
pub fn run_at(epoch: &str, args: &[&str]) -> Run {
    run_command(Command::new(env!("CARGO_BIN_EXE_plugforge")).args(args).env("SOURCE_DATE_EPOCH", epoch))
}

/// Runs `command` without colour and collects its exit code and output.
pub fn run_command(command: &mut Command) -> Run {
    let output = command.env("NO_COLOR", "1").output().expect("run the command");
    Run {
        code: output.status.code().expect("exited normally"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

pub fn run(args: &[&str]) -> Run {
    run_at(EPOCH, args)
}

pub fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

/// `plugforge build SRC --target claude-code --out OUT EXTRA...`
pub fn build(src: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["build", s(src), "--target", "claude-code", "--out", s(out)];
    args.extend_from_slice(extra);
    run(&args)
}

pub fn build_json(src: &Path, out: &Path, extra: &[&str]) -> (i32, Value) {
    let mut extra = extra.to_vec();
    extra.push("--json");
    let r = build(src, out, &extra);
    let json = r.json();
    (r.code, json)
}

/// The workspace root (examples/, tests/ and templates/ are below it).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// The striatum example shipped in the repository.
pub fn striatum() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/striatum")
}

/// A private copy of the striatum example, for tests that change the source.
pub fn striatum_copy(tmp: &TempDir) -> PathBuf {
    let dest = tmp.join("src");
    copy_dir(&striatum(), &dest);
    dest
}

pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for entry in fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Writes `bytes` at `root/rel`, creating folders.
pub fn write(root: &Path, rel: &str, bytes: impl AsRef<[u8]>) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(&path, bytes).expect("write");
}

pub fn read(root: &Path, rel: &str) -> Vec<u8> {
    fs::read(root.join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

pub fn read_json(root: &Path, rel: &str) -> Value {
    serde_json::from_slice(&read(root, rel)).unwrap_or_else(|e| panic!("{rel} is not JSON: {e}"))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Every file below `root`, relative with `/`, sorted.
pub fn files(root: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if root.exists() {
        collect(root, root, &mut out);
    }
    out
}

fn collect(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
    for entry in fs::read_dir(dir).expect("read_dir") {
        let entry = entry.expect("entry");
        let path = entry.path();
        if entry.file_type().expect("type").is_dir() {
            collect(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).expect("below root");
            out.insert(rel.iter().map(|c| c.to_str().expect("UTF-8")).collect::<Vec<_>>().join("/"));
        }
    }
}

/// Every folder below `root` (relative), to check empty folders are cleaned.
pub fn dirs(root: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for entry in fs::read_dir(dir).expect("read_dir") {
            let entry = entry.expect("entry");
            if entry.file_type().expect("type").is_dir() {
                let rel = entry.path().strip_prefix(root).expect("below").to_string_lossy().into_owned();
                out.insert(rel);
                walk(root, &entry.path(), out);
            }
        }
    }
    let mut out = BTreeSet::new();
    if root.exists() {
        walk(root, root, &mut out);
    }
    out
}

/// What a file is on disk: bytes, mtime and (on unix) inode, so a rewrite
/// with the same bytes is still noticed.
#[derive(Debug, PartialEq, Eq)]
pub struct Stamp {
    pub bytes: Vec<u8>,
    pub modified: SystemTime,
    pub inode: u64,
}

pub fn snapshot(root: &Path) -> BTreeMap<String, Stamp> {
    files(root)
        .into_iter()
        .map(|rel| {
            let path = root.join(&rel);
            let meta = fs::metadata(&path).expect("metadata");
            let stamp = Stamp {
                bytes: fs::read(&path).expect("read"),
                modified: meta.modified().expect("mtime"),
                inode: inode(&meta),
            };
            (rel, stamp)
        })
        .collect()
}

#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

#[cfg(not(unix))]
fn inode(_: &fs::Metadata) -> u64 {
    0
}

/// Asserts two snapshots are the same file by file, naming the first difference.
pub fn assert_same_tree(before: &BTreeMap<String, Stamp>, after: &BTreeMap<String, Stamp>) {
    let paths_before: Vec<&String> = before.keys().collect();
    let paths_after: Vec<&String> = after.keys().collect();
    assert_eq!(paths_before, paths_after, "the set of files changed");
    for (rel, stamp) in before {
        let now = &after[rel];
        assert!(stamp.bytes == now.bytes, "{rel}: bytes changed");
        assert_eq!(stamp.modified, now.modified, "{rel}: mtime changed (file rewritten)");
        assert_eq!(stamp.inode, now.inode, "{rel}: inode changed (file replaced)");
    }
}

/// The plan's actions as (path, op) pairs.
pub fn ops(report: &Value) -> BTreeMap<String, String> {
    report["plan"]["actions"]
        .as_array()
        .unwrap_or_else(|| panic!("no plan.actions in {report:#}"))
        .iter()
        .map(|a| (a["path"].as_str().expect("path").to_string(), a["op"].as_str().expect("op").to_string()))
        .collect()
}

pub fn action<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["plan"]["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["path"] == path)
        .unwrap_or_else(|| panic!("no action for {path} in {report:#}"))
}

pub fn summary(report: &Value, key: &str) -> u64 {
    report["plan"]["summary"][key].as_u64().unwrap_or_else(|| panic!("no summary.{key} in {report:#}"))
}

/// The first problem of a `{"ok": false, "error": ...}` report: (code, problem).
pub fn error(report: &Value) -> (&str, &Value) {
    assert_eq!(report["ok"], false, "{report:#}");
    let code = report["error"]["code"].as_str().unwrap_or_else(|| panic!("no error.code in {report:#}"));
    (code, &report["error"]["problems"][0])
}

/// A tiny canonical source (`plugforge.json` + the given files) in `dir`.
pub fn demo_source(dir: &Path, extra: &[(&str, &str)]) {
    write(
        dir,
        "plugforge.json",
        r#"{"name":"demo","version":"1.0.0","description":"d","author":{"name":"a"}}"#,
    );
    for (rel, text) in extra {
        write(dir, rel, text);
    }
}

/// Runs a doctor `fix` command line through `sh`, with this build's
/// `plugforge` first on PATH.
pub fn run_fix(fix: &str) -> Run {
    let bin = Path::new(env!("CARGO_BIN_EXE_plugforge")).parent().expect("bin dir");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    let output = Command::new("sh")
        .args(["-c", fix])
        .env("PATH", std::env::join_paths(dirs).expect("PATH"))
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .output()
        .expect("run sh");
    Run {
        code: output.status.code().expect("exited normally"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}
