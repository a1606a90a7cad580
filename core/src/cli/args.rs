//! Command-line arguments -> an [`Invocation`]. Hand-rolled so the same
//! parser runs in every host (Rust, Node, Python) with identical behaviour.

use crate::bundle::{DEFAULT_MANIFEST_NAME, Scope};

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invocation {
    Help(&'static str),
    Version,
    Init { dir: String, name: Option<String> },
    Build(BuildArgs),
    Uninstall(UninstallArgs),
    Doctor(DoctorArgs),
    Validate(ValidateArgs),
    Import(ImportArgs),
}

/// Options shared by the verbs that work on an output root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputArgs {
    pub targets: Vec<String>,
    pub out: Option<String>,
    pub scope: Scope,
    pub manifest_name: String,
    pub json: bool,
}

/// How a source is read: shared by build and doctor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceArgs {
    pub namespace: Option<String>,
    pub vars: Vec<(String, String)>,
    pub allow_urls: Vec<String>,
    pub deny_urls: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildArgs {
    pub source: String,
    pub output: OutputArgs,
    pub source_args: SourceArgs,
    pub dry_run: bool,
    pub force: bool,
    pub strict: bool,
    pub no_marketplace: bool,
    pub verbose: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UninstallArgs {
    pub output: OutputArgs,
    pub namespace: Option<String>,
    pub force: bool,
    pub dry_run: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoctorArgs {
    pub source: Option<String>,
    pub output: OutputArgs,
    pub source_args: SourceArgs,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidateArgs {
    pub path: String,
    pub target: Option<String>,
    pub strict: bool,
    pub json: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportArgs {
    pub path: String,
    pub from: Option<String>,
    /// The plugin's name, for a Claude Code plugin with no manifest.
    pub name: Option<String>,
    pub out: String,
    pub json: bool,
}

pub const USAGE: &str = "\
plugforge: compile one agent-plugin source into every runtime's native bundle

usage:
  plugforge init [DIR] [--name NAME]
  plugforge build [SRC] --target RUNTIME[:KIND] --out DIR [--scope project|user] [--namespace N]
                  [--var K=V]... [--allow-url PREFIX]... [--deny-urls] [--dry-run] [--force]
                  [--strict] [--no-marketplace] [--manifest-name NAME] [--json] [-v]
  plugforge uninstall --target RUNTIME[:KIND] --out DIR [--namespace N] [--force] [--dry-run] [--json]
  plugforge doctor [SRC] --target RUNTIME[:KIND] --out DIR [--namespace N] [--var K=V]... [--json]
  plugforge validate [PATH] [--target RUNTIME] [--strict] [--json]
  plugforge import [PATH] [--from RUNTIME] [--name NAME] --out SRC [--json]

SRC is a plugforge source (plugforge.json) or a plugin as a runtime ships it (Claude Code, Codex,
Gemini CLI, Cursor, Agent Plugins), read the way `import` reads it.
RUNTIME is a runtime id, several joined by commas, or `all` (build only) for every runtime with
its default kind. A runtime that cannot be built is listed with its reasons; the others are built.
URLs written in the source are carried and counted (-v lists them); --deny-urls refuses any URL
outside --allow-url.
  plugforge --version

exit codes: 0 done, 1 refused (conflicts, invalid source, a runtime that could not be built,
            strict honesty, doctor findings, validate errors, import into a folder that is not empty),
            2 bad usage or unreadable input
";

/// Parses `args` (without the program name). Errors are usage messages.
pub fn parse(args: &[String]) -> Result<Invocation, String> {
    let mut words = Words { args, index: 0 };
    let Some(verb) = words.next() else { return Ok(Invocation::Help(USAGE)) };
    match verb.as_str() {
        "-h" | "--help" | "help" => Ok(Invocation::Help(USAGE)),
        "-V" | "--version" => Ok(Invocation::Version),
        "init" => parse_init(&mut words),
        "build" => parse_build(&mut words),
        "uninstall" => parse_uninstall(&mut words),
        "doctor" => parse_doctor(&mut words),
        "validate" => parse_validate(&mut words),
        "import" => parse_import(&mut words),
        other => Err(format!(
            "unknown command {other:?}; expected init, build, uninstall, doctor, validate or import"
        )),
    }
}

struct Words<'a> {
    args: &'a [String],
    index: usize,
}

impl Words<'_> {
    fn next(&mut self) -> Option<String> {
        let word = self.args.get(self.index).cloned();
        self.index += 1;
        word
    }

    fn value(&mut self, flag: &str, inline: Option<String>) -> Result<String, String> {
        inline.or_else(|| self.next()).ok_or_else(|| format!("{flag} needs a value"))
    }
}

/// One flag occurrence: `--name value`, `--name=value` or `-x value`.
struct Flag {
    name: String,
    inline: Option<String>,
}

fn split_flag(word: &str) -> Option<Flag> {
    if !word.starts_with('-') || word == "-" {
        return None;
    }
    Some(match word.split_once('=') {
        Some((name, value)) if word.starts_with("--") => {
            Flag { name: name.into(), inline: Some(value.into()) }
        }
        _ => Flag { name: word.into(), inline: None },
    })
}

impl Default for OutputArgs {
    fn default() -> Self {
        OutputArgs {
            targets: Vec::new(),
            out: None,
            scope: Scope::Project,
            manifest_name: DEFAULT_MANIFEST_NAME.into(),
            json: false,
        }
    }
}

/// Handles a flag shared by several verbs; `Ok(false)` if it is not one.
fn output_flag(output: &mut OutputArgs, flag: &Flag, words: &mut Words<'_>) -> Result<bool, String> {
    let inline = flag.inline.clone();
    match flag.name.as_str() {
        "--target" | "-t" => {
            let value = words.value(&flag.name, inline)?;
            output.targets.extend(value.split(',').filter(|t| !t.is_empty()).map(str::to_string));
        }
        "--out" | "-o" => output.out = Some(words.value(&flag.name, inline)?),
        "--scope" => {
            output.scope = match words.value(&flag.name, inline)?.as_str() {
                "project" => Scope::Project,
                "user" => Scope::User,
                other => return Err(format!("--scope must be project or user, not {other:?}")),
            }
        }
        "--manifest-name" => output.manifest_name = words.value(&flag.name, inline)?,
        "--json" => output.json = true,
        _ => return Ok(false),
    }
    Ok(true)
}

fn source_flag(source: &mut SourceArgs, flag: &Flag, words: &mut Words<'_>) -> Result<bool, String> {
    let inline = flag.inline.clone();
    match flag.name.as_str() {
        "--namespace" => source.namespace = Some(words.value(&flag.name, inline)?),
        "--var" => {
            let text = words.value(&flag.name, inline)?;
            match text.split_once('=') {
                Some((key, value)) if !key.is_empty() => source.vars.push((key.into(), value.into())),
                _ => return Err(format!("--var expects KEY=VALUE, got {text:?}")),
            }
        }
        "--allow-url" => source.allow_urls.push(words.value(&flag.name, inline)?),
        "--deny-urls" => source.deny_urls = true,
        _ => return Ok(false),
    }
    Ok(true)
}

fn unknown(verb: &str, word: &str) -> String {
    format!("unknown option {word:?} for {verb}; see plugforge --help")
}

fn one_positional(verb: &str, slot: &mut Option<String>, word: String) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("{verb} takes one folder, got another: {word:?}"));
    }
    *slot = Some(word);
    Ok(())
}

fn parse_init(words: &mut Words<'_>) -> Result<Invocation, String> {
    let (mut dir, mut name) = (None, None);
    while let Some(word) = words.next() {
        match split_flag(&word) {
            Some(flag) if flag.name == "--name" => name = Some(words.value("--name", flag.inline)?),
            Some(flag) if flag.name == "-h" || flag.name == "--help" => return Ok(Invocation::Help(USAGE)),
            Some(_) => return Err(unknown("init", &word)),
            None => one_positional("init", &mut dir, word)?,
        }
    }
    Ok(Invocation::Init { dir: dir.unwrap_or_else(|| ".".into()), name })
}

fn parse_build(words: &mut Words<'_>) -> Result<Invocation, String> {
    let mut args = BuildArgs {
        source: String::new(),
        output: OutputArgs::default(),
        source_args: SourceArgs::default(),
        dry_run: false,
        force: false,
        strict: false,
        no_marketplace: false,
        verbose: false,
    };
    let mut source = None;
    while let Some(word) = words.next() {
        let Some(flag) = split_flag(&word) else {
            one_positional("build", &mut source, word)?;
            continue;
        };
        if output_flag(&mut args.output, &flag, words)? || source_flag(&mut args.source_args, &flag, words)? {
            continue;
        }
        match flag.name.as_str() {
            "--dry-run" => args.dry_run = true,
            "--force" => args.force = true,
            "--strict" => args.strict = true,
            "--no-marketplace" => args.no_marketplace = true,
            "--verbose" | "-v" => args.verbose = true,
            "-h" | "--help" => return Ok(Invocation::Help(USAGE)),
            _ => return Err(unknown("build", &word)),
        }
    }
    args.source = source.unwrap_or_else(|| ".".into());
    Ok(Invocation::Build(args))
}

fn parse_uninstall(words: &mut Words<'_>) -> Result<Invocation, String> {
    let mut args =
        UninstallArgs { output: OutputArgs::default(), namespace: None, force: false, dry_run: false };
    while let Some(word) = words.next() {
        let Some(flag) = split_flag(&word) else {
            return Err(format!("uninstall takes no folder ({word:?}); use --out"));
        };
        if output_flag(&mut args.output, &flag, words)? {
            continue;
        }
        match flag.name.as_str() {
            "--namespace" => args.namespace = Some(words.value("--namespace", flag.inline)?),
            "--force" => args.force = true,
            "--dry-run" => args.dry_run = true,
            "-h" | "--help" => return Ok(Invocation::Help(USAGE)),
            _ => return Err(unknown("uninstall", &word)),
        }
    }
    Ok(Invocation::Uninstall(args))
}

fn parse_doctor(words: &mut Words<'_>) -> Result<Invocation, String> {
    let mut args =
        DoctorArgs { source: None, output: OutputArgs::default(), source_args: SourceArgs::default() };
    while let Some(word) = words.next() {
        let Some(flag) = split_flag(&word) else {
            one_positional("doctor", &mut args.source, word)?;
            continue;
        };
        if output_flag(&mut args.output, &flag, words)? || source_flag(&mut args.source_args, &flag, words)? {
            continue;
        }
        match flag.name.as_str() {
            "-h" | "--help" => return Ok(Invocation::Help(USAGE)),
            _ => return Err(unknown("doctor", &word)),
        }
    }
    Ok(Invocation::Doctor(args))
}

fn parse_validate(words: &mut Words<'_>) -> Result<Invocation, String> {
    let (mut path, mut target, mut strict, mut json) = (None, None, false, false);
    while let Some(word) = words.next() {
        let Some(flag) = split_flag(&word) else {
            one_positional("validate", &mut path, word)?;
            continue;
        };
        match flag.name.as_str() {
            "--target" | "-t" => target = Some(words.value(&flag.name, flag.inline)?),
            "--strict" => strict = true,
            "--json" => json = true,
            "-h" | "--help" => return Ok(Invocation::Help(USAGE)),
            _ => return Err(unknown("validate", &word)),
        }
    }
    Ok(Invocation::Validate(ValidateArgs { path: path.unwrap_or_else(|| ".".into()), target, strict, json }))
}

fn parse_import(words: &mut Words<'_>) -> Result<Invocation, String> {
    let (mut path, mut from, mut name, mut out, mut json) = (None, None, None, None, false);
    while let Some(word) = words.next() {
        let Some(flag) = split_flag(&word) else {
            one_positional("import", &mut path, word)?;
            continue;
        };
        match flag.name.as_str() {
            "--from" => from = Some(words.value(&flag.name, flag.inline)?),
            "--name" => name = Some(words.value(&flag.name, flag.inline)?),
            "--out" | "-o" => out = Some(words.value(&flag.name, flag.inline)?),
            "--json" => json = true,
            "-h" | "--help" => return Ok(Invocation::Help(USAGE)),
            _ => return Err(unknown("import", &word)),
        }
    }
    let out = out.ok_or("import needs --out SRC, the folder the canonical source goes to")?;
    Ok(Invocation::Import(ImportArgs { path: path.unwrap_or_else(|| ".".into()), from, name, out, json }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_words(words: &str) -> Result<Invocation, String> {
        parse(&words.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn parses_build_with_every_flag_form() {
        let Invocation::Build(args) = parse_words(
            "build src -t claude-code --out=dist --var a=1 --var b=x=y --dry-run --json --scope user",
        )
        .unwrap() else {
            panic!("not build")
        };
        assert_eq!(args.source, "src");
        assert_eq!(args.output.targets, ["claude-code"]);
        assert_eq!(args.output.out.as_deref(), Some("dist"));
        assert_eq!(args.source_args.vars, [("a".into(), "1".into()), ("b".into(), "x=y".into())]);
        assert!(args.dry_run && args.output.json);
        assert_eq!(args.output.scope, Scope::User);
    }

    #[test]
    fn reports_usage_errors() {
        assert!(parse_words("build --bogus").unwrap_err().contains("unknown option \"--bogus\""));
        assert!(parse_words("build --out").unwrap_err().contains("--out needs a value"));
        assert!(parse_words("build --var novalue").unwrap_err().contains("KEY=VALUE"));
        assert!(parse_words("build a b").unwrap_err().contains("takes one folder"));
        assert!(parse_words("frobnicate").unwrap_err().contains("unknown command"));
        assert!(parse_words("build --scope galaxy").unwrap_err().contains("project or user"));
    }

    #[test]
    fn defaults_the_folders() {
        assert_eq!(parse_words("init").unwrap(), Invocation::Init { dir: ".".into(), name: None });
        let Invocation::Build(args) = parse_words("build").unwrap() else { panic!() };
        assert_eq!(args.source, ".");
        assert_eq!(parse_words("").unwrap(), Invocation::Help(USAGE));
    }
}
