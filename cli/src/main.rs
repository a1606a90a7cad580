//! `plugforge`: the command line over the local filesystem. Every verb,
//! flag, message and exit code lives in `plugforge_core::cli`; this host
//! only supplies files, time and a terminal.

mod clock;

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use plugforge_core::cli::{Host, run};
use plugforge_core::{BundlePath, Observed, Plan, SourceTree};
use plugforge_host_fs::{self as host_fs, Writer};

/// A test hook: the file operation of this number (from 1) kills the
/// process halfway, to prove a rerun after a crash converges.
const ABORT_AT_ENV: &str = "PLUGFORGE_FAIL_AFTER_WRITES";

struct FsHost {
    writer: Writer,
    /// Looked up once: the core asks for every line it paints.
    color: Option<bool>,
}

impl FsHost {
    fn new() -> Self {
        let abort_at = std::env::var(ABORT_AT_ENV).ok().and_then(|n| n.trim().parse().ok());
        FsHost { writer: abort_at.map_or_else(Writer::new, Writer::aborting_at), color: None }
    }
}

impl Host for FsHost {
    fn read_tree(&mut self, dir: &str, exclude: &[String]) -> Result<SourceTree, String> {
        let exclude: Vec<_> = exclude.iter().map(Into::into).collect();
        host_fs::read_tree(Path::new(dir), &exclude).map_err(|e| e.to_string())
    }

    fn observe(&mut self, root: &str, to_read: &[BundlePath]) -> Result<Observed, String> {
        let to_read: Vec<&str> = to_read.iter().map(BundlePath::as_str).collect();
        host_fs::observe(Path::new(root), &to_read).map_err(|e| e.to_string())
    }

    fn apply(&mut self, root: &str, plan: &Plan) -> Result<(), String> {
        assert!(!plan.refused, "a refused plan is never applied");
        self.writer.apply(Path::new(root), &host_fs::plan_steps(plan)).map_err(|e| e.to_string())
    }

    fn create_files(&mut self, dir: &str, tree: &SourceTree) -> Result<(), String> {
        self.writer.create_files(Path::new(dir), tree).map_err(|e| e.to_string())
    }

    fn exists(&mut self, path: &str) -> bool {
        Path::new(path).exists()
    }

    fn generated_at(&mut self) -> String {
        clock::generated_at()
    }

    fn home_dir(&mut self) -> Option<String> {
        std::env::var("HOME").ok().filter(|h| !h.is_empty())
    }

    fn folder_name(&mut self, dir: &str) -> Option<String> {
        let absolute = std::path::absolute(dir).ok()?;
        absolute.file_name()?.to_str().map(str::to_string)
    }

    fn stdout(&mut self, text: &str) {
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
    }

    fn stderr(&mut self, text: &str) {
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }

    fn color(&mut self) -> bool {
        *self
            .color
            .get_or_insert_with(|| std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(run(&args, &mut FsHost::new()))
}
