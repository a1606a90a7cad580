//! The `plugforge` command line: clap parses the arguments, the verbs run the
//! pure engine (plugforge-core) over the local filesystem (plugforge-host-fs)
//! and print to the process's stdout and stderr.
//!
//! The binary is [`run`] over `std::env::args_os`; the Node and Python
//! packages link this crate and call [`run`] with their process's arguments,
//! so `npx plugforge` and `python -m plugforge` are this very program.

mod allocator;
mod args;
mod diff;
mod host;
mod progress;
mod render;
mod rerun;
mod verbs;
mod verify;
#[cfg(not(target_os = "wasi"))]
mod watch;

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use plugforge_core::{Error, ErrorCode, Problem};

pub use allocator::limit_allocator_growth;
use args::{Cli, Verb};
use host::{FsHost, Host};

/// The verb did what was asked.
pub const EXIT_OK: u8 = 0;
/// The verb refused: conflicts, an invalid source, a runtime that could not be
/// built, strict honesty, doctor findings, validate errors, a non-empty import folder.
pub const EXIT_REFUSED: u8 = 1;
/// Bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;

/// Runs one command line (`args` without the program name) over the local
/// filesystem, printing to stdout and stderr; returns the exit code.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let mut host = FsHost::new();
    let code = run_on(&mut host, args);
    host.flush();
    code
}

fn run_on<I, T>(host: &mut dyn Host, args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    // The program name is fixed, so help and errors read the same whether
    // the binary, node or python started the run.
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let argv = std::iter::once(OsString::from("plugforge")).chain(args.iter().cloned());
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(error) => return clap_outcome(host, &error),
    };
    let Some(verb) = cli.verb else {
        let help = styled(host, &Cli::command().render_help());
        host.stdout(&help);
        return EXIT_OK;
    };
    let json = match &verb {
        Verb::Build(a) => a.output.json,
        Verb::Uninstall(a) => a.output.json,
        Verb::Doctor(a) => a.output.json,
        Verb::Validate(a) => a.json || a.format != args::ValidateFormat::Text,
        Verb::Import(a) => a.json,
        Verb::Verify(a) => a.json || a.format != args::FormatArg::Text,
        Verb::Init(_) | Verb::Completions { .. } | Verb::Man { .. } => false,
    };
    host.show_progress(!json && matches!(verb, Verb::Build(_) | Verb::Validate(_) | Verb::Import(_)));
    let result = match verb {
        Verb::Init(args) => verbs::init(host, &args),
        #[cfg(not(target_os = "wasi"))]
        Verb::Build(args) if args.watch => watch::build(host, &args),
        #[cfg(target_os = "wasi")]
        Verb::Build(args) if args.watch => Err(Failure::usage(WATCH_UNSUPPORTED)),
        Verb::Build(build) => rerun::build(host, &args, &build, json),
        Verb::Uninstall(args) => verbs::uninstall(host, &args),
        Verb::Doctor(args) => verbs::doctor(host, &args),
        Verb::Validate(args) => verbs::validate(host, &args),
        Verb::Import(args) => verbs::import(host, &args),
        Verb::Verify(args) => verify::verify(host, &args),
        Verb::Completions { shell } => verbs::completions(host, shell),
        Verb::Man { dir } => verbs::man(host, dir.as_deref()),
    };
    result.unwrap_or_else(|failure| failure.report(host, json))
}

/// Why `--watch` is refused by the WebAssembly (WASI) build.
#[cfg(target_os = "wasi")]
const WATCH_UNSUPPORTED: &str = "--watch is not available in the WebAssembly build of plugforge (WASI has no file-change events or Ctrl-C): run on a platform with a native package (linux, macOS, Windows) or build without --watch";

/// Help and version go to stdout (exit 0); a usage error goes to stderr
/// (exit 2) as `error[usage]: ...`, the form of every other error.
fn clap_outcome(host: &mut dyn Host, error: &clap::Error) -> u8 {
    let text = error.render();
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let text = styled(host, &text);
            host.stdout(&text);
            EXIT_OK
        }
        _ => {
            let text = text.to_string();
            let message = text.strip_prefix("error: ").unwrap_or(&text);
            host.stderr(&format!("error[usage]: {message}"));
            EXIT_USAGE
        }
    }
}

/// clap's text with its colours on a terminal, plain otherwise.
fn styled(host: &mut dyn Host, text: &clap::builder::StyledStr) -> String {
    if host.color() { text.ansi().to_string() } else { text.to_string() }
}

/// A failed run: a stable code, the problems, and the exit code.
pub(crate) struct Failure {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) problems: Vec<Problem>,
    pub(crate) exit: u8,
}

impl Failure {
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Failure { code: "usage", message: message.into(), problems: Vec::new(), exit: EXIT_USAGE }
    }

    /// Files that changed while the run wrote (exit 1, as a plan's conflicts).
    pub(crate) fn conflict(message: String) -> Self {
        Failure { code: "conflict", message, problems: Vec::new(), exit: EXIT_REFUSED }
    }

    pub(crate) fn io(message: String) -> Self {
        Failure { code: "io", message, problems: Vec::new(), exit: EXIT_USAGE }
    }

    pub(crate) fn report(self, host: &mut dyn Host, json: bool) -> u8 {
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
        let exit = match error.code {
            ErrorCode::UnsupportedRuntime | ErrorCode::UnsupportedKind | ErrorCode::InvalidOptions => {
                EXIT_USAGE
            }
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

/// The command line's definition (every verb, flag and help line), for the
/// generated reference page and anything else that documents it.
pub fn command() -> clap::Command {
    Cli::command()
}
