//! `plugforge`: compile one canonical agent-plugin source into each runtime's
//! native bundle, and keep generated bundles healthy.

mod build;
mod clock;
mod doctor;
mod failure;
mod fsio;
mod init;
mod print;
mod uninstall;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Exit codes (also documented in the README).
pub const EXIT_OK: u8 = 0;
pub const EXIT_REFUSED: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "plugforge",
    version,
    about = "Compile one agent-plugin source into every runtime's native bundle"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create a starter canonical source.
    Init(init::InitArgs),
    /// Build bundles from a source and write them (plan first, atomic writes).
    Build(build::BuildArgs),
    /// Remove generated files that are unedited (edited ones need --force).
    Uninstall(uninstall::UninstallArgs),
    /// Report missing, outdated, edited and orphaned files; fixes nothing.
    Doctor(doctor::DoctorArgs),
}

/// Options shared by the commands that work on an output root.
#[derive(Args, Clone)]
pub struct OutputArgs {
    /// Runtime(s) to work on, e.g. claude-code (repeatable).
    #[arg(long = "target", short = 't', value_name = "RUNTIME")]
    pub targets: Vec<String>,
    /// Output root: bundles go to OUT/<runtime>, marketplaces to OUT.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// project (default: OUT defaults to SRC/dist) or user (OUT defaults to ~/.plugforge/plugins).
    #[arg(long, value_enum, default_value_t = ScopeArg::Project)]
    pub scope: ScopeArg,
    /// File name of the generation manifest in each bundle.
    #[arg(long, value_name = "NAME", default_value = plugforge_core::DEFAULT_MANIFEST_NAME)]
    pub manifest_name: String,
    /// Print machine-readable JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ScopeArg {
    Project,
    User,
}

impl From<ScopeArg> for plugforge_core::Scope {
    fn from(scope: ScopeArg) -> Self {
        match scope {
            ScopeArg::Project => plugforge_core::Scope::Project,
            ScopeArg::User => plugforge_core::Scope::User,
        }
    }
}

impl OutputArgs {
    /// `--out`, else the scope's default location.
    pub fn out_dir(&self, source: &std::path::Path) -> Result<PathBuf, failure::Failure> {
        if let Some(out) = &self.out {
            return Ok(out.clone());
        }
        match self.scope {
            ScopeArg::Project => Ok(source.join("dist")),
            ScopeArg::User => std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(".plugforge").join("plugins"))
                .ok_or_else(|| failure::Failure::usage("--scope user needs HOME set, or pass --out")),
        }
    }

    pub fn runtimes(&self) -> Vec<String> {
        if self.targets.is_empty() { vec!["claude-code".into()] } else { self.targets.clone() }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Init(args) => init::run(&args),
        Command::Build(args) => build::run(&args),
        Command::Uninstall(args) => uninstall::run(&args),
        Command::Doctor(args) => doctor::run(&args),
    };
    ExitCode::from(match result {
        Ok(code) => code,
        Err(failure) => failure.report(),
    })
}
