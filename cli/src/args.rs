//! The command line's grammar, declared with clap's derive: every verb, its
//! options and their help lines live here, so `--help`, the completions and
//! the man page are generated from one definition.

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;
use plugforge_core::{DEFAULT_MANIFEST_NAME, Scope};

/// Shown below the verb list of `plugforge --help`.
const AFTER_HELP: &str = "\
SRC is a plugforge source (plugforge.json), a plugin as a runtime ships it (any runtime
`import --from` names), read the way `import` reads it, or a folder whose marketplace file lists
plugins (each local one is built; a remote one is listed as not built).
RUNTIME is a runtime id, several joined by commas or given as repeated --target, or `all` (build
only) for every runtime with its default kind. A runtime that cannot be built is listed with its
reasons; the others are built. A runtime that would load nothing of the source is not written:
listed under `all` (exit 0 if another was built), an error when named.
URLs written in the source are carried and counted (-v lists them); --deny-urls refuses any URL
outside --allow-url.

Exit codes:
  0  done
  1  refused: conflicts, an invalid source, a runtime that could not be built, strict honesty,
     doctor findings, validate errors, import into a folder that is not empty, verify failures
  2  bad usage or unreadable input";

/// Shown below each verb's options.
const EXIT_CODES: &str = "\
Exit codes: 0 done, 1 refused (see `plugforge --help`), 2 bad usage or unreadable input";

/// Shown below `verify`'s options.
const VERIFY_EXIT_CODES: &str = "\
Each client runs in a throwaway HOME with a copy of the output root: your own HOME, settings and
installed plugins are never read or written, and no model is contacted. Clients are found by
--client, by PLUGFORGE_<ID>_BIN, in plugforge's cache (--install) or on PATH; a client not found is
skipped. Runtimes with no client that runs offline are listed as not judged.

Exit codes: 0 every client that ran passed, 1 a client failed (or, with --require-clients, was not
found), 2 bad usage or unreadable input";

/// plugforge: compile one agent-plugin source into every runtime's native bundle
#[derive(Debug, Parser)]
#[command(name = "plugforge", version, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub verb: Option<Verb>,
}

#[derive(Debug, Subcommand)]
pub enum Verb {
    /// Write a starter source (plugforge.json, a skill, a command) into DIR
    #[command(after_help = EXIT_CODES)]
    Init(InitArgs),
    /// Compile a source into each requested runtime's bundle below the output root
    #[command(after_help = EXIT_CODES)]
    Build(BuildArgs),
    /// Remove what a build generated (an edited file only with --force)
    #[command(after_help = EXIT_CODES)]
    Uninstall(UninstallArgs),
    /// Check the bundles on disk against their manifests, and against a fresh build of SRC
    #[command(after_help = EXIT_CODES)]
    Doctor(DoctorArgs),
    /// Judge a plugin folder (a source, any runtime's plugin, a marketplace) against the rule catalog
    #[command(after_help = EXIT_CODES)]
    Validate(ValidateArgs),
    /// Read a runtime's plugin into a new plugforge source
    #[command(after_help = EXIT_CODES)]
    Import(ImportArgs),
    /// Load each bundle below an output root into the real clients, offline, and compare what they
    /// loaded with what was built
    #[command(after_help = VERIFY_EXIT_CODES)]
    Verify(VerifyArgs),
    /// Print the completion script for a shell
    #[command(
        after_help = "bash: plugforge completions bash > ~/.local/share/bash-completion/completions/plugforge\n\
zsh:  plugforge completions zsh > \"${fpath[1]}/_plugforge\"\n\
fish: plugforge completions fish > ~/.config/fish/completions/plugforge.fish"
    )]
    Completions {
        /// The shell the script is for
        shell: Shell,
    },
    /// Print the man page (roff), or write one page per verb into a folder
    #[command(after_help = "plugforge man > plugforge.1; plugforge man --dir share/man/man1")]
    Man {
        /// Write plugforge.1 and a plugforge-VERB.1 for each verb into this folder
        #[arg(long, value_name = "DIR")]
        dir: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The folder to write the starter source into
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: String,
    /// The plugin's name (default: the folder's name, lowercased)
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

/// Where a build goes: shared by build, uninstall and doctor.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// A runtime to work on, RUNTIME[:KIND]; several joined by commas or repeated
    #[arg(short, long = "target", value_name = "RUNTIME[:KIND]", value_delimiter = ',')]
    pub targets: Vec<String>,
    /// The output root (default: SRC/dist, or ~/.plugforge/plugins with --scope user)
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<String>,
    /// Bundles for a project or for the user's home
    #[arg(long, value_enum, default_value_t = ScopeArg::Project)]
    pub scope: ScopeArg,
    /// The file name of each bundle's manifest
    #[arg(long, value_name = "NAME", default_value = DEFAULT_MANIFEST_NAME)]
    pub manifest_name: String,
    /// Print one JSON report on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// How sure each write is to have reached the disk before the run ends:
/// batch flushes the filesystem once for all files, then the manifests; full
/// flushes every file and folder; none leaves it to the operating system.
/// (No help per value: clap would then lay every option out on two lines.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DurabilityArg {
    Batch,
    Full,
    None,
}

impl From<DurabilityArg> for plugforge_host_fs::Durability {
    fn from(durability: DurabilityArg) -> Self {
        match durability {
            DurabilityArg::Batch => Self::Batch,
            DurabilityArg::Full => Self::Full,
            DurabilityArg::None => Self::None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScopeArg {
    Project,
    User,
}

impl From<ScopeArg> for Scope {
    fn from(scope: ScopeArg) -> Scope {
        match scope {
            ScopeArg::Project => Scope::Project,
            ScopeArg::User => Scope::User,
        }
    }
}

/// How a source is read: shared by build and doctor.
#[derive(Debug, Clone, Default, Args)]
pub struct SourceArgs {
    /// The namespace the bundles' commands and skills are named under
    #[arg(long, value_name = "N")]
    pub namespace: Option<String>,
    /// A template variable, KEY=VALUE; repeat for several
    #[arg(long = "var", value_name = "KEY=VALUE", value_parser = key_value)]
    pub vars: Vec<(String, String)>,
    /// A URL prefix --deny-urls lets through; repeat for several
    #[arg(long = "allow-url", value_name = "PREFIX")]
    pub allow_urls: Vec<String>,
    /// Refuse any URL in the source outside --allow-url
    #[arg(long)]
    pub deny_urls: bool,
}

/// `KEY=VALUE` with a non-empty key; the value may hold `=`.
fn key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.into(), value.into())),
        _ => Err("expected KEY=VALUE with a non-empty KEY".into()),
    }
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("preview").args(["dry_run", "check"])))]
pub struct BuildArgs {
    /// The plugforge source, or a runtime's plugin; several (a monorepo's plugins) build into one
    /// output root (--out) with one marketplace per runtime listing them all
    #[arg(value_name = "SRC", default_value = ".", num_args = 1..)]
    pub sources: Vec<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub source_args: SourceArgs,
    /// Print the plan and write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Write nothing; exit 1 when the outputs are not current (anything to create, update or
    /// remove, a conflict, or an edited file no longer generated), each listed: for CI
    #[arg(long, conflicts_with_all = ["dry_run", "force"])]
    pub check: bool,
    /// Overwrite files edited since they were generated
    #[arg(long)]
    pub force: bool,
    /// How sure each write is to reach the disk (batch: one flush for all, manifests last)
    #[arg(long, value_enum, default_value_t = DurabilityArg::Batch)]
    pub durability: DurabilityArg,
    /// Refuse (exit 1) when any component is not fully supported by a runtime
    #[arg(long)]
    pub strict: bool,
    /// Write no marketplace file
    #[arg(long)]
    pub no_marketplace: bool,
    /// The marketplace's name in every marketplace file (default: the source's, or local-<plugin>;
    /// for several sources, local-<output folder>)
    #[arg(long, value_name = "NAME")]
    pub marketplace_name: Option<String>,
    /// List unchanged files, notes and every carried URL too
    #[arg(short, long)]
    pub verbose: bool,
    /// With --dry-run or --check: a unified diff of every file the plan would change
    #[arg(long, requires = "preview")]
    pub diff: bool,
    /// Build, then rebuild on every change below SRC until interrupted (Ctrl-C: exit 130)
    #[arg(long, conflicts_with = "check")]
    pub watch: bool,
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    #[command(flatten)]
    pub output: OutputArgs,
    /// The namespace the bundles were built under
    #[arg(long, value_name = "N")]
    pub namespace: Option<String>,
    /// Remove files edited since they were generated too
    #[arg(long)]
    pub force: bool,
    /// How sure each removal is to reach the disk (batch: one flush for all, manifests last)
    #[arg(long, value_enum, default_value_t = DurabilityArg::Batch)]
    pub durability: DurabilityArg,
    /// Print the plan and remove nothing
    #[arg(long)]
    pub dry_run: bool,
    /// With --dry-run: each file that would be removed, as a unified diff
    #[arg(long, requires = "dry_run")]
    pub diff: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The source to rebuild and compare with (default: only the manifests are checked)
    #[arg(value_name = "SRC")]
    pub source: Option<String>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub source_args: SourceArgs,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The folder to judge
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: String,
    /// Judge for this runtime only
    #[arg(short, long, value_name = "RUNTIME")]
    pub target: Option<String>,
    /// Count warnings as errors
    #[arg(long)]
    pub strict: bool,
    /// Print one JSON report on stdout instead of text (as --format json)
    #[arg(long)]
    pub json: bool,
    /// The report's format: text, json or sarif (GitHub code scanning)
    #[arg(long, value_enum, default_value_t = ValidateFormat::Text)]
    pub format: ValidateFormat,
}

/// How validate's report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValidateFormat {
    Text,
    Json,
    Sarif,
}

/// How verify's report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Text,
    Json,
    Sarif,
    Junit,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The output root a build wrote
    #[arg(value_name = "OUT", default_value = "dist")]
    pub out: String,
    /// Verify these runtimes' bundles only; several joined by commas or repeated
    #[arg(short, long = "target", value_name = "RUNTIME", value_delimiter = ',')]
    pub targets: Vec<String>,
    /// A client's binary, ID=PATH (claude, codex, gemini, opencode, skills-ref, openclaw, hermes,
    /// copilot, qwen, droid, qoder); repeat for several
    #[arg(long = "client", value_name = "ID=PATH", value_parser = key_value)]
    pub clients: Vec<(String, String)>,
    /// Exit 1 when a client is not found, instead of skipping it
    #[arg(long)]
    pub require_clients: bool,
    /// First install every client at the pinned version into plugforge's cache (npm, and pip for a
    /// PyPI one, must be on PATH)
    #[arg(long)]
    pub install: bool,
    /// Seconds one client may take over one bundle
    #[arg(long, value_name = "SECS", default_value_t = 900)]
    pub timeout: u64,
    /// How many clients run at once (default: two per core)
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// The file name of each bundle's manifest
    #[arg(long, value_name = "NAME", default_value = DEFAULT_MANIFEST_NAME)]
    pub manifest_name: String,
    /// Print one JSON report on stdout instead of text (as --format json)
    #[arg(long)]
    pub json: bool,
    /// The report's format: text, json, sarif (GitHub code scanning) or junit
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The plugin folder to read
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: String,
    /// The runtime the plugin is for (default: detected)
    #[arg(long, value_name = "RUNTIME")]
    pub from: Option<String>,
    /// The plugin's name, for a Claude Code plugin with no manifest
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The new or empty folder the canonical source goes to
    #[arg(short, long, value_name = "SRC")]
    pub out: String,
    /// Print one JSON report on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn parse(words: &str) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("plugforge").chain(words.split_whitespace()))
    }

    fn build(words: &str) -> BuildArgs {
        match parse(words).expect("parses").verb {
            Some(Verb::Build(args)) => args,
            other => panic!("not build: {other:?}"),
        }
    }

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn parses_build_with_every_flag_form() {
        let args =
            build("build src -t claude-code --out=dist --var a=1 --var b=x=y --dry-run --json --scope user");
        assert_eq!(args.sources, ["src"]);
        assert_eq!(args.output.targets, ["claude-code"]);
        assert_eq!(args.output.out.as_deref(), Some("dist"));
        assert_eq!(args.source_args.vars, [("a".into(), "1".into()), ("b".into(), "x=y".into())]);
        assert!(args.dry_run && args.output.json);
        assert_eq!(args.output.scope, ScopeArg::User);
    }

    #[test]
    fn targets_come_comma_separated_and_repeated() {
        let args = build("build --target claude-code,codex -t gemini --target cursor:plugin");
        assert_eq!(args.output.targets, ["claude-code", "codex", "gemini", "cursor:plugin"]);
    }

    #[test]
    fn a_double_dash_ends_the_options() {
        assert_eq!(build("build -- --odd-folder").sources, ["--odd-folder"]);
        assert_eq!(build("build a b/c --out d").sources, ["a", "b/c"]);
    }

    #[test]
    fn a_flag_takes_no_value() {
        let error = parse("build --json=false").unwrap_err();
        assert_eq!(error.kind(), clap::error::ErrorKind::TooManyValues);
    }

    #[test]
    fn reports_usage_errors() {
        use clap::error::ErrorKind::*;
        let kind = |words: &str| parse(words).unwrap_err().kind();
        assert_eq!(kind("build --bogus"), UnknownArgument);
        assert_eq!(kind("build --out"), InvalidValue);
        assert_eq!(kind("build --var novalue"), ValueValidation);
        assert_eq!(kind("uninstall a"), UnknownArgument);
        assert_eq!(kind("frobnicate"), InvalidSubcommand);
        assert_eq!(kind("build --scope galaxy"), InvalidValue);
        assert_eq!(kind("uninstall dist"), UnknownArgument);
        assert_eq!(kind("import plugin"), MissingRequiredArgument);
    }

    #[test]
    fn defaults_the_folders() {
        let Some(Verb::Init(init)) = parse("init").unwrap().verb else { panic!("not init") };
        assert_eq!((init.dir.as_str(), init.name), (".", None));
        assert_eq!(build("build").sources, ["."]);
        assert!(parse("").unwrap().verb.is_none());
    }
}
