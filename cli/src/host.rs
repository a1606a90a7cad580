//! What the verbs need from the outside world, as a trait so the renderers
//! can be tested over captured output; [`FsHost`] is the one real host: the
//! local filesystem through plugforge-host-fs and the process's terminal.

use std::io::{ErrorKind, IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

use plugforge_core::{BundlePath, Observed, Plan, SourceTree};
pub(crate) use plugforge_host_fs::Listing;
use plugforge_host_fs::{self as host_fs, Durability, Writer};

use crate::Failure;
use crate::progress::{self, Progress};

/// Paths are the user's strings; the host joins `BundlePath`s onto them.
pub(crate) trait Host {
    /// Every file below `dir`, skipping `.git` and `node_modules`, a top-level `target`, and
    /// the `exclude` folders (the output root when it sits inside the source).
    fn read_tree(&mut self, dir: &str, exclude: &[String]) -> Result<SourceTree, String>;
    /// The files below `root` the `listing` asks for, each with its sha256
    /// where a plan can look at it (`to_read`, whose bytes come too,
    /// `to_hash`, and what the manifests `to_read` names exactly track); the
    /// rest is listed, not read.
    fn observe(
        &mut self,
        root: &str,
        to_read: &[BundlePath],
        to_hash: &[BundlePath],
        listing: Listing<'_>,
    ) -> Result<Observed, String>;
    /// Takes the output root's lock (waiting, with a message, for another
    /// run that holds it) until [`Host::unlock`]: taken before observing, so
    /// the plan is made and applied over files no other run changes.
    fn lock(&mut self, _root: &str) -> Result<(), String> {
        Ok(())
    }
    fn unlock(&mut self) {}
    /// Applies the plan: atomic writes in order, removals, manifests last.
    /// A file changed since it was observed is left alone and fails the
    /// run as a conflict once the rest is written.
    fn apply(&mut self, root: &str, plan: &Plan, durability: Durability) -> Result<(), Failure>;
    /// Creates new files below `dir` (`init`, `import`); the caller checked none exists.
    fn create_files(&mut self, dir: &str, tree: &SourceTree) -> Result<(), String>;
    fn exists(&mut self, path: &str) -> bool;
    /// RFC 3339 time for new manifests (`SOURCE_DATE_EPOCH` when set).
    fn generated_at(&mut self) -> String;
    fn home_dir(&mut self) -> Option<String>;
    /// The last component of `dir` made absolute (for `init`'s default name).
    fn folder_name(&mut self, dir: &str) -> Option<String>;
    fn stdout(&mut self, text: &str);
    fn stderr(&mut self, text: &str);
    /// Whether stdout takes ANSI colours.
    fn color(&mut self) -> bool;
    /// Whether a long run may show a spinner on stderr (never with `--json`).
    fn show_progress(&mut self, _wanted: bool) {}
}

/// A test hook: the file operation of this number (from 1) kills the
/// process halfway, to prove a rerun after a crash converges. Read here, not
/// in the binary, so it works the same under `npx plugforge` and `python -m plugforge`.
const ABORT_AT_ENV: &str = "PLUGFORGE_FAIL_AFTER_WRITES";

/// A test hook: set, the run panics before doing anything, to prove the Node
/// and Python packages turn a panic into an exception instead of dying.
const PANIC_ENV: &str = "PLUGFORGE_PANIC";

/// A test hook: how many milliseconds a run goes before its spinner shows
/// (0: at once), so a test on a terminal need not depend on how fast it runs.
const PROGRESS_AFTER_ENV: &str = "PLUGFORGE_PROGRESS_AFTER_MS";

pub(crate) struct FsHost {
    writer: Writer,
    /// Looked up once: rendering asks for every line it paints.
    color: Option<bool>,
    progress: Progress,
}

impl FsHost {
    pub(crate) fn new() -> Self {
        if std::env::var_os(PANIC_ENV).is_some() {
            panic!("{PANIC_ENV} is set: a test of how a panic is reported");
        }
        let abort_at = std::env::var(ABORT_AT_ENV).ok().and_then(|n| n.trim().parse().ok());
        let delay = std::env::var(PROGRESS_AFTER_ENV).ok().and_then(|ms| ms.trim().parse().ok());
        let progress = Progress::new(delay.map_or(progress::DEFAULT_DELAY, Duration::from_millis));
        FsHost { writer: abort_at.map_or_else(Writer::new, Writer::aborting_at), color: None, progress }
    }

    /// Pushes out what stdout still buffers: inside node or python the
    /// process lives on after the run, and its own output must come after ours.
    pub(crate) fn flush(&mut self) {
        self.progress.clear();
        let mut stdout = std::io::stdout().lock();
        retrying(|| stdout.flush());
    }
}

/// Retries an operation the descriptor refused for now. Node may have put
/// stdout in non-blocking mode, where a full pipe answers `WouldBlock`
/// instead of waiting; the bytes must still all go out, in order.
fn retrying<T>(mut operation: impl FnMut() -> std::io::Result<T>) -> Option<T> {
    loop {
        match operation() {
            Ok(done) => return Some(done),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(1)),
            // A closed pipe (`plugforge ... | head`): the reader is gone, so is the output.
            Err(_) => return None,
        }
    }
}

fn write_all(mut out: impl Write, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        match retrying(|| out.write(bytes)) {
            Some(0) | None => return,
            Some(written) => bytes = &bytes[written..],
        }
    }
}

impl Host for FsHost {
    fn read_tree(&mut self, dir: &str, exclude: &[String]) -> Result<SourceTree, String> {
        let exclude: Vec<_> = exclude.iter().map(Into::into).collect();
        self.progress.step(format!("reading {dir}"));
        let tree = host_fs::read_tree(Path::new(dir), &exclude).map_err(|e| e.to_string())?;
        self.progress.step(format!("working on {} files from {dir}", tree.len()));
        Ok(tree)
    }

    fn observe(
        &mut self,
        root: &str,
        to_read: &[BundlePath],
        to_hash: &[BundlePath],
        listing: Listing<'_>,
    ) -> Result<Observed, String> {
        let to_read: Vec<&str> = to_read.iter().map(BundlePath::as_str).collect();
        let to_hash: Vec<&str> = to_hash.iter().map(BundlePath::as_str).collect();
        // The build's phase is over: what it freed goes before the plan's grows.
        crate::allocator::release_freed_memory();
        self.progress.step(format!("reading what is in {root}"));
        let observed =
            host_fs::observe_for(Path::new(root), &to_read, &to_hash, listing).map_err(|e| e.to_string())?;
        self.progress.step(format!("planning against {} files in {root}", observed.hashes.len()));
        Ok(observed)
    }

    fn lock(&mut self, root: &str) -> Result<(), String> {
        let progress = &mut self.progress;
        self.writer
            .lock(Path::new(root), &mut |message| {
                progress.clear();
                write_all(std::io::stderr().lock(), format!("{message}\n").as_bytes());
            })
            .map_err(|e| e.to_string())
    }

    fn unlock(&mut self) {
        self.writer.unlock();
    }

    fn apply(&mut self, root: &str, plan: &Plan, durability: Durability) -> Result<(), Failure> {
        assert!(!plan.refused, "a refused plan is never applied");
        // The plan is made: what making it freed goes before the writer's grows.
        crate::allocator::release_freed_memory();
        self.writer.set_durability(durability);
        self.progress.step(format!("writing {} files below {root}", plan.writes()));
        self.writer.apply(Path::new(root), &host_fs::plan_steps(plan)).map_err(|e| match e {
            host_fs::HostError::Changed(message) => Failure::conflict(message),
            other => Failure::io(other.to_string()),
        })
    }

    fn create_files(&mut self, dir: &str, tree: &SourceTree) -> Result<(), String> {
        self.progress.step(format!("writing {} files below {dir}", tree.len()));
        self.writer.create_files(Path::new(dir), tree).map_err(|e| e.to_string())
    }

    fn exists(&mut self, path: &str) -> bool {
        Path::new(path).exists()
    }

    fn generated_at(&mut self) -> String {
        host_fs::generated_at()
    }

    fn home_dir(&mut self) -> Option<String> {
        std::env::var("HOME").ok().filter(|h| !h.is_empty())
    }

    fn folder_name(&mut self, dir: &str) -> Option<String> {
        let absolute = std::path::absolute(dir).ok()?;
        absolute.file_name()?.to_str().map(str::to_string)
    }

    fn stdout(&mut self, text: &str) {
        self.progress.clear();
        write_all(std::io::stdout().lock(), text.as_bytes());
    }

    fn stderr(&mut self, text: &str) {
        // Whatever stdout holds goes first, so a terminal and a merged pipe see the run's order.
        self.flush();
        write_all(std::io::stderr().lock(), text.as_bytes());
    }

    fn color(&mut self) -> bool {
        *self
            .color
            .get_or_insert_with(|| std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
    }

    fn show_progress(&mut self, wanted: bool) {
        self.progress.enable(wanted);
    }
}
