//! The `plugforge` command line as a pure program over a [`Host`]: every
//! host (the Rust binary, `npx plugforge`, `python -m plugforge`) supplies
//! its filesystem and terminal, and gets identical behaviour and output.

mod args;
mod render;
mod verbs;

pub use args::{
    BuildArgs, DoctorArgs, ImportArgs, Invocation, OutputArgs, SourceArgs, USAGE, UninstallArgs,
    ValidateArgs, parse,
};

use crate::error::Error;
use crate::path::BundlePath;
use crate::plan::{Observed, Plan};
use crate::source::SourceTree;

pub const EXIT_OK: u8 = 0;
pub const EXIT_REFUSED: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// What a host provides. Paths are the user's strings; the host joins
/// `BundlePath`s onto them.
pub trait Host {
    /// Every file below `dir`, skipping `.git`, `node_modules`, `target` and
    /// the `exclude` folders (the output root when it sits inside the source).
    fn read_tree(&mut self, dir: &str, exclude: &[String]) -> Result<SourceTree, String>;
    /// sha256 of every file below `root`, and the bytes of `to_read`.
    fn observe(&mut self, root: &str, to_read: &[BundlePath]) -> Result<Observed, String>;
    /// Applies the plan: atomic writes in order, removals, manifests last.
    fn apply(&mut self, root: &str, plan: &Plan) -> Result<(), String>;
    /// Creates new files below `dir` (`init`); the caller checked none exists.
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
}

/// Runs one command line (without the program name); returns the exit code.
pub fn run(args: &[String], host: &mut dyn Host) -> u8 {
    let invocation = match parse(args) {
        Ok(invocation) => invocation,
        Err(message) => {
            host.stderr(&format!("error[usage]: {message}\n"));
            return EXIT_USAGE;
        }
    };
    let json = match &invocation {
        Invocation::Build(a) => a.output.json,
        Invocation::Uninstall(a) => a.output.json,
        Invocation::Doctor(a) => a.output.json,
        Invocation::Validate(a) => a.json,
        Invocation::Import(a) => a.json,
        _ => false,
    };
    let result = match invocation {
        Invocation::Help(text) => {
            host.stdout(text);
            Ok(EXIT_OK)
        }
        Invocation::Version => {
            host.stdout(&format!("plugforge {}\n", env!("CARGO_PKG_VERSION")));
            Ok(EXIT_OK)
        }
        Invocation::Init { dir, name } => verbs::init(host, &dir, name),
        Invocation::Build(args) => verbs::build(host, &args),
        Invocation::Uninstall(args) => verbs::uninstall(host, &args),
        Invocation::Doctor(args) => verbs::doctor(host, &args),
        Invocation::Validate(args) => verbs::validate(host, &args),
        Invocation::Import(args) => verbs::import(host, &args),
    };
    result.unwrap_or_else(|failure| failure.report(host, json))
}

/// A failed run: a stable code, the problems, and the exit code.
pub(crate) struct Failure {
    code: &'static str,
    message: String,
    problems: Vec<crate::error::Problem>,
    exit: u8,
}

impl Failure {
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Failure { code: "usage", message: message.into(), problems: Vec::new(), exit: EXIT_USAGE }
    }

    pub(crate) fn io(message: String) -> Self {
        Failure { code: "io", message, problems: Vec::new(), exit: EXIT_USAGE }
    }

    fn report(self, host: &mut dyn Host, json: bool) -> u8 {
        if json {
            let error =
                serde_json::json!({"code": self.code, "message": self.message, "problems": self.problems});
            host.stdout(&render::json(&serde_json::json!({"ok": false, "error": error})));
        } else {
            host.stderr(&format!("error[{}]: {}\n", self.code, self.message));
        }
        self.exit
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        use crate::error::ErrorCode::*;
        let exit = match error.code {
            UnsupportedRuntime | UnsupportedKind | InvalidOptions => EXIT_USAGE,
            _ => EXIT_REFUSED,
        };
        Failure { code: error.code.as_str(), message: error.message(), problems: error.problems, exit }
    }
}

/// `root/rel` with one `/` between.
pub(crate) fn join(root: &str, rel: &str) -> String {
    if root.is_empty() || root == "." {
        rel.to_string()
    } else if root.ends_with('/') {
        format!("{root}{rel}")
    } else {
        format!("{root}/{rel}")
    }
}
