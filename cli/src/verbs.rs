//! The verbs: read, build, plan, print, apply, through the host; and the
//! completion scripts and man pages generated from the grammar.

use clap::CommandFactory;
use clap_complete::Shell;
use std::collections::BTreeMap;

use plugforge_core::{
    ArtifactKind, BuildOptions, Bundle, BundlePath, CarriedUrl, DEFAULT_MANIFEST_NAME, Diagnostic,
    DoctorOptions, Error, ErrorCode, GeneratedFile, Honesty, ImportNotes, ImportOptions, Level, Location,
    Member, Output, PlanOptions, Problem, Runtime, Scope, Severity, TargetFailure, TargetRequest,
    UninstallOptions, ValidateOptions, build_members, doctor as run_doctor, doctor_paths_to_read,
    import as run_import, plan as make_plan, read_listing, shell_quote, starter_source,
    uninstall_paths_to_read, uninstall_plan, validate as run_validate,
};
use serde::Serialize;
use serde_json::json;

use crate::args::{
    BuildArgs, Cli, DoctorArgs, ImportArgs, InitArgs, OutputArgs, ScopeArg, SourceArgs, UninstallArgs,
    ValidateArgs, ValidateFormat,
};
use crate::host::{Host, Listing};
use crate::{EXIT_OK, EXIT_REFUSED, Failure, diff, join, render};

type Outcome = Result<u8, Failure>;

/// `--out`, else the scope's default: `SRC/dist` or `~/.plugforge/plugins`.
pub(crate) fn out_dir(host: &mut dyn Host, output: &OutputArgs, source: &str) -> Result<String, Failure> {
    if let Some(out) = &output.out {
        return Ok(out.clone());
    }
    match output.scope {
        ScopeArg::Project => Ok(join(source, "dist")),
        ScopeArg::User => host
            .home_dir()
            .map(|home| join(&home, ".plugforge/plugins"))
            .ok_or_else(|| Failure::usage("--scope user needs a home folder; pass --out")),
    }
}

/// The `runtime[:kind]` targets asked for; `--target a,,b` and `--target ''` name no empty one.
fn targets(output: &OutputArgs) -> impl Iterator<Item = &String> {
    output.targets.iter().filter(|t| !t.is_empty())
}

/// The `runtime[:kind]` targets an uninstall or doctor looks at.
fn runtimes(output: &OutputArgs) -> Vec<String> {
    let named: Vec<String> = targets(output).cloned().collect();
    if named.is_empty() { vec!["claude-code".into()] } else { named }
}

fn build_options(
    host: &mut dyn Host,
    output: &OutputArgs,
    source: &SourceArgs,
    source_dir: &str,
    marketplace: bool,
) -> BuildOptions {
    let targets = targets(output)
        .map(|t| match t.split_once(':') {
            Some((runtime, kind)) => TargetRequest { runtime: runtime.into(), kind: Some(kind.into()) },
            None => TargetRequest::new(t.clone()),
        })
        .collect();
    BuildOptions {
        targets,
        scope: output.scope.into(),
        namespace: source.namespace.clone(),
        vars: source.vars.iter().cloned().collect(),
        allow_urls: source.allow_urls.clone(),
        deny_urls: source.deny_urls,
        source_name: host.folder_name(source_dir),
        marketplace,
        manifest_name: output.manifest_name.clone(),
        ..BuildOptions::default()
    }
}

fn read_and_build(
    host: &mut dyn Host,
    source: &str,
    out: &str,
    options: &BuildOptions,
) -> Result<Output, Failure> {
    let tree = host.read_tree(source, &[out.to_string()]).map_err(Failure::io)?;
    Ok(plugforge_host_fs::build(&tree, options)?)
}

/// Several sources: one output root, each plugin in `<runtime>/<plugin>/`.
fn read_and_build_members(
    host: &mut dyn Host,
    sources: &[String],
    out: &str,
    options: &BuildOptions,
) -> Result<Output, Failure> {
    let mut trees = Vec::with_capacity(sources.len());
    for source in sources {
        trees.push(host.read_tree(source, &[out.to_string()]).map_err(Failure::io)?);
    }
    let members: Vec<Member<'_>> = sources
        .iter()
        .zip(&trees)
        .map(|(source, tree)| Member {
            label: source.trim_end_matches('/').to_string(),
            source: tree,
            source_name: host.folder_name(source),
            origins: Vec::new(),
        })
        .collect();
    Ok(build_members(&members, options)?)
}

/// One source: a plugin, or a marketplace listing other folders, whose
/// plugins are built as a monorepo's (a remote entry is listed as not built).
fn read_and_build_one(
    host: &mut dyn Host,
    source: &str,
    out: &str,
    options: &mut BuildOptions,
) -> Result<Output, Failure> {
    let tree = host.read_tree(source, &[out.to_string()]).map_err(Failure::io)?;
    tree.check_limits()?;
    let root = source.trim_end_matches('/');
    let below = |rel: &str| if rel.is_empty() { root.to_string() } else { join(root, rel) };
    let listing = read_listing(&tree).map_err(|mut error| {
        for problem in &mut error.problems {
            if let Some(at) = problem.location.as_mut() {
                at.file = below(&at.file);
            }
        }
        error
    })?;
    let Some(listing) = listing else {
        return Ok(plugforge_host_fs::build(&tree, options)?);
    };
    let members: Vec<Member<'_>> = listing
        .plugins
        .iter()
        .map(|plugin| Member {
            label: below(&plugin.folder),
            source: &plugin.tree,
            source_name: host.folder_name(&below(&plugin.folder)),
            origins: plugin
                .origins
                .iter()
                .map(|(file, at)| (file.clone(), Location { file: below(&at.file), ..at.clone() }))
                .collect(),
        })
        .collect();
    if members.is_empty() {
        // Every entry is remote: nothing here to build, which is no success.
        let problems = listing
            .not_built
            .into_iter()
            .map(|d| Problem {
                message: d.message,
                location: d.location.map(|at| Location { file: below(&at.file), ..at }),
            })
            .collect();
        return Err(Error::from_problems(ErrorCode::InvalidSource, problems).into());
    }
    options.marketplace_name.get_or_insert_with(|| monorepo_marketplace(out));
    let mut output = build_members(&members, options)?;
    let mut listed: Vec<Diagnostic> = listing.not_built.into_iter().chain(listing.notes).collect();
    for diagnostic in &mut listed {
        if let Some(at) = diagnostic.location.as_mut() {
            at.file = below(&at.file);
        }
    }
    output.diagnostics.splice(0..0, listed);
    Ok(output)
}

/// `local-<output folder>`: the marketplace of a monorepo build, named after
/// where it is (kebab-case, as every runtime's marketplace name must be).
fn monorepo_marketplace(out: &str) -> String {
    let folder = out.trim_end_matches('/').rsplit('/').next().unwrap_or_default().to_lowercase();
    let words: Vec<&str> =
        folder.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.is_empty() { "local-plugins".to_string() } else { format!("local-{}", words.join("-")) }
}

/// `build`: whatever it ends with, the output root's lock goes with it
/// (a watching run holds none between two builds).
pub fn build(host: &mut dyn Host, args: &BuildArgs) -> Outcome {
    let built = build_locked(host, args);
    host.unlock();
    built
}

fn build_locked(host: &mut dyn Host, args: &BuildArgs) -> Outcome {
    let source = args.sources.first().map_or(".", String::as_str);
    let several = args.sources.len() > 1;
    if several && args.output.out.is_none() {
        return Err(Failure::usage("several sources build into one output root: name it with --out"));
    }
    let out = out_dir(host, &args.output, source)?;
    let mut options = build_options(host, &args.output, &args.source_args, source, !args.no_marketplace);
    options.marketplace_name =
        args.marketplace_name.clone().or_else(|| several.then(|| monorepo_marketplace(&out)));
    let mut output = if several {
        read_and_build_members(host, &args.sources, &out, &options)?
    } else {
        read_and_build_one(host, source, &out, &mut options)?
    };
    let honesty: Vec<_> = output.bundles.iter().flat_map(|b| b.honesty.iter()).collect();
    let diagnostics: Vec<_> =
        output.diagnostics.iter().chain(output.bundles.iter().flat_map(|b| b.diagnostics.iter())).collect();
    let not_supported = honesty.iter().filter(|h| h.level != Level::Supported).count();
    let strict_refusal = args.strict && not_supported > 0;
    if !args.dry_run && !args.check && !strict_refusal {
        host.lock(&out).map_err(Failure::io)?;
    }

    let to_hash = output.paths_to_hash();
    let listing = Listing::ForBuild { manifest_name: &output.manifest_name };
    let mut observed = host.observe(&out, &output.paths_to_read(), &to_hash, listing).map_err(Failure::io)?;
    // A member removed since the last monorepo build: its bundles go too.
    let retired = output.retired_manifests(&observed);
    if !retired.is_empty() {
        let mut paths = output.paths_to_read();
        paths.extend(retired.iter().cloned());
        let listing = Listing::ForBuild { manifest_name: &output.manifest_name };
        observed = host.observe(&out, &paths, &to_hash, listing).map_err(Failure::io)?;
        output.retired = retired;
    }
    // A path a large build writes each: megabytes, not needed past here.
    drop(to_hash);
    let plan_options = PlanOptions { force: args.force, generated_at: host.generated_at() };
    // The plan takes what was observed (a large build's hashes and previous
    // manifests are megabytes): gone before the files are written.
    let plan = make_plan(&output, observed, &plan_options)?;
    let refused = plan.refused || strict_refusal;
    let applied = !refused && !args.dry_run && !args.check;
    let failed = output.failed();
    let s = &plan.summary;
    let pending = s.create + s.update + s.conflict + s.remove + s.keep;
    let stale = args.check && pending > 0;
    let diffs =
        if args.diff { diff::build_plan(host, &out, &output, &plan, &plan_options)? } else { Vec::new() };
    if applied {
        host.apply(&out, &plan, args.durability.into())?;
    }

    if args.output.json {
        let report = BuildReport {
            ok: !refused && !failed && !stale,
            refused,
            dry_run: args.dry_run,
            applied,
            out: &out,
            plan: diff::plan_json(&plan, &diffs),
            honesty: &honesty,
            diagnostics: &diagnostics,
            bundles: output.bundles.iter().map(BundleReport::of).collect(),
            urls: &output.urls,
            failures: &output.failures,
            check: args.check.then_some(CheckReport { current: !stale, pending }),
        };
        render::json_out(host, &report);
    } else {
        render::diagnostics(host, &diagnostics, args.verbose);
        render::urls(host, &output.urls, args.verbose);
        render::honesty(host, &honesty);
        render::plan(host, &out, &plan, args.verbose);
        render::diffs(host, &diffs);
        render::failures(host, &output.failures);
        if strict_refusal {
            host.stderr(&format!(
                "refused: {not_supported} component(s) are not fully supported and --strict is set\n"
            ));
        } else if plan.refused {
            let conflicts = plan.summary.conflict;
            host.stderr(&format!(
                "refused: {conflicts} conflict(s); nothing was written (--force overwrites)\n"
            ));
        } else if args.dry_run {
            host.stdout("dry run: nothing was written\n");
        } else if stale {
            host.stderr(&format!(
                "check: the outputs are not current ({pending} file(s) listed above); nothing was written (run the build without --check)\n"
            ));
        } else if args.check {
            host.stdout("check: the outputs are current\n");
        }
    }
    Ok(if refused || failed || stale { EXIT_REFUSED } else { EXIT_OK })
}

/// The `build --json` report, serialized from the build's own values as it
/// is written out: a tree of JSON values of it would hold every file's path
/// and hash again, and the text of it all at once (a 12,000-file build: 30
/// MiB more than the build itself).
#[derive(Serialize)]
struct BuildReport<'a> {
    ok: bool,
    refused: bool,
    dry_run: bool,
    applied: bool,
    out: &'a str,
    plan: diff::PlanJson<'a>,
    honesty: &'a [&'a Honesty],
    diagnostics: &'a [&'a Diagnostic],
    bundles: Vec<BundleReport<'a>>,
    urls: &'a [CarriedUrl],
    failures: &'a [TargetFailure],
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<CheckReport>,
}

#[derive(Serialize)]
struct BundleReport<'a> {
    runtime: Runtime,
    kind: ArtifactKind,
    root: &'a str,
    files: &'a BTreeMap<BundlePath, GeneratedFile>,
}

impl<'a> BundleReport<'a> {
    fn of(bundle: &'a Bundle) -> Self {
        BundleReport { runtime: bundle.runtime, kind: bundle.kind, root: &bundle.root, files: &bundle.files }
    }
}

#[derive(Serialize)]
struct CheckReport {
    current: bool,
    pending: usize,
}

#[derive(Serialize)]
struct UninstallReport<'a> {
    ok: bool,
    dry_run: bool,
    out: &'a str,
    plan: diff::PlanJson<'a>,
}

pub fn uninstall(host: &mut dyn Host, args: &UninstallArgs) -> Outcome {
    let done = uninstall_locked(host, args);
    host.unlock();
    done
}

fn uninstall_locked(host: &mut dyn Host, args: &UninstallArgs) -> Outcome {
    let out = out_dir(host, &args.output, ".")?;
    let options = UninstallOptions {
        runtimes: runtimes(&args.output),
        namespace: args.namespace.clone(),
        scope: args.output.scope.into(),
        manifest_name: args.output.manifest_name.clone(),
        force: args.force,
        ..UninstallOptions::default()
    };
    let to_read = uninstall_paths_to_read(&options)?;
    // Nothing to take away from a root that is not there: no lock makes it.
    if !args.dry_run && host.exists(&out) {
        host.lock(&out).map_err(Failure::io)?;
    }
    let observed = host.observe(&out, &to_read, &[], Listing::Every).map_err(Failure::io)?;
    let plan = uninstall_plan(&options, &observed)?;
    let diffs = if args.diff { diff::removals(host, &out, &plan)? } else { Vec::new() };
    if !args.dry_run {
        host.apply(&out, &plan, args.durability.into())?;
    }
    if args.output.json {
        let report = UninstallReport {
            ok: true,
            dry_run: args.dry_run,
            out: &out,
            plan: diff::plan_json(&plan, &diffs),
        };
        render::json_out(host, &report);
    } else {
        render::diagnostics(host, &plan.diagnostics.iter().collect::<Vec<_>>(), true);
        render::plan(host, &out, &plan, false);
        render::diffs(host, &diffs);
        if plan.summary.keep > 0 {
            host.stdout(&format!("{} edited file(s) kept; --force removes them too\n", plan.summary.keep));
        }
    }
    Ok(EXIT_OK)
}

pub fn doctor(host: &mut dyn Host, args: &DoctorArgs) -> Outcome {
    let source = args.source.clone().unwrap_or_else(|| ".".into());
    let out = out_dir(host, &args.output, &source)?;
    let desired = match &args.source {
        Some(source) => {
            let options = build_options(host, &args.output, &args.source_args, source, true);
            Some(read_and_build(host, source, &out, &options)?)
        }
        None => None,
    };
    let built_namespace = desired.as_ref().and_then(|o| o.bundles.first()).map(|b| b.namespace.clone());
    let options = DoctorOptions {
        runtimes: runtimes(&args.output),
        namespace: args.source_args.namespace.clone().or(built_namespace),
        scope: args.output.scope.into(),
        manifest_name: args.output.manifest_name.clone(),
        build_command: build_command(args, &source, &out),
        out_dir: out.clone(),
        ..DoctorOptions::default()
    };
    let observed =
        host.observe(&out, &doctor_paths_to_read(&options)?, &[], Listing::Every).map_err(Failure::io)?;
    let report = run_doctor(&options, &observed, desired.as_ref())?;
    let failing = report.findings.iter().any(|f| f.severity >= Severity::Warning);
    if args.output.json {
        host.stdout(&render::json(&json!({"ok": !failing, "report": report})));
    } else {
        render::doctor(host, &report, options.runtimes.len());
    }
    Ok(if failing { EXIT_REFUSED } else { EXIT_OK })
}

/// The `plugforge build` invocation that regenerates what doctor checked.
fn build_command(args: &DoctorArgs, source: &str, out: &str) -> String {
    let mut parts = vec!["plugforge".to_string(), "build".into(), shell_quote(source)];
    for target in targets(&args.output) {
        parts.extend(["--target".into(), shell_quote(target)]);
    }
    if targets(&args.output).next().is_none() {
        parts.extend(["--target".into(), "claude-code".into()]);
    }
    parts.extend(["--out".into(), shell_quote(out)]);
    if Scope::from(args.output.scope) == Scope::User {
        parts.extend(["--scope".into(), "user".into()]);
    }
    if args.output.manifest_name != DEFAULT_MANIFEST_NAME {
        parts.extend(["--manifest-name".into(), shell_quote(&args.output.manifest_name)]);
    }
    if let Some(namespace) = &args.source_args.namespace {
        parts.extend(["--namespace".into(), shell_quote(namespace)]);
    }
    for (key, value) in &args.source_args.vars {
        parts.extend(["--var".into(), shell_quote(&format!("{key}={value}"))]);
    }
    for prefix in &args.source_args.allow_urls {
        parts.extend(["--allow-url".into(), shell_quote(prefix)]);
    }
    parts.join(" ")
}

pub fn init(host: &mut dyn Host, args: &InitArgs) -> Outcome {
    let dir = args.dir.as_str();
    let name = match args.name.clone().or_else(|| host.folder_name(dir).map(|n| n.to_lowercase())) {
        Some(name) => name,
        None => return Err(Failure::usage("cannot tell the plugin name from the folder; pass --name")),
    };
    let tree = starter_source(&name)?;
    let existing: Vec<String> =
        tree.iter().map(|(p, _)| join(dir, p.as_str())).filter(|p| host.exists(p)).collect();
    if !existing.is_empty() {
        host.stderr(&format!("refused: these already exist: {}\n", existing.join(", ")));
        return Ok(EXIT_REFUSED);
    }
    host.create_files(dir, &tree).map_err(Failure::io)?;
    let created: String =
        tree.iter().map(|(p, _)| format!("  create   {}\n", join(dir, p.as_str()))).collect();
    host.stdout(&format!("{created}next: plugforge build {} --target claude-code\n", shell_quote(dir)));
    Ok(EXIT_OK)
}

pub fn validate(host: &mut dyn Host, args: &ValidateArgs) -> Outcome {
    let tree = host.read_tree(&args.path, &[]).map_err(Failure::io)?;
    let options = ValidateOptions { target: args.target.clone(), strict: args.strict };
    let report = run_validate(&tree, &options)?;
    match (args.json, args.format) {
        (_, ValidateFormat::Sarif) => {
            host.stdout(&render::json(&crate::verify::validate_sarif(&args.path, &report)))
        }
        (true, _) | (_, ValidateFormat::Json) => {
            host.stdout(&render::json(&json!({"ok": report.valid, "report": report})))
        }
        (false, ValidateFormat::Text) => render::validation(host, &args.path, &report),
    }
    Ok(if report.valid { EXIT_OK } else { EXIT_REFUSED })
}

/// Imports into `--out`, which must not exist or be empty: an import never
/// writes over anything. A Claude Code plugin without a manifest is named
/// after its folder, as Claude Code names it, unless `--name` says otherwise.
pub fn import(host: &mut dyn Host, args: &ImportArgs) -> Outcome {
    let tree = host.read_tree(&args.path, std::slice::from_ref(&args.out)).map_err(Failure::io)?;
    let options = ImportOptions {
        from: args.from.clone(),
        name: args.name.clone(),
        folder_name: host.folder_name(&args.path),
    };
    let imported = run_import(&tree, &options)?;
    if host.exists(&args.out) {
        let present = host.read_tree(&args.out, &[]).map_err(Failure::io)?;
        if !present.is_empty() {
            let shown: Vec<&str> = present.iter().take(5).map(|(p, _)| p.as_str()).collect();
            host.stderr(&format!(
                "refused: {} is not empty ({}{}); import writes only into a new or empty folder\n",
                args.out,
                shown.join(", "),
                if present.len() > shown.len() { ", ..." } else { "" }
            ));
            return Ok(EXIT_REFUSED);
        }
    }
    host.create_files(&args.out, &imported.source).map_err(Failure::io)?;
    if args.json {
        let files: Vec<&str> = imported.source.iter().map(|(p, _)| p.as_str()).collect();
        host.stdout(&render::json(&json!({
            "ok": true,
            "from": imported.runtime.id(),
            "files": files,
            "notes": ImportNotes(&imported.notes),
        })));
    } else {
        render::import(host, &args.out, &imported);
    }
    Ok(EXIT_OK)
}

/// The completion script for `shell`, from the same definition as the parser.
pub fn completions(host: &mut dyn Host, shell: Shell) -> Outcome {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "plugforge", &mut script);
    host.stdout(&String::from_utf8_lossy(&script));
    Ok(EXIT_OK)
}

/// The man page of `plugforge` on stdout; with `dir`, that page and one per
/// verb (the pages its SUBCOMMANDS section points to) written into `dir`.
pub fn man(host: &mut dyn Host, dir: Option<&str>) -> Outcome {
    let mut command = Cli::command().disable_help_subcommand(true);
    // Built, the verbs carry their full names (`plugforge-build`), which name their pages.
    command.build();
    let render = |command: &clap::Command| {
        let page = clap_mangen::Man::new(command.clone());
        let mut roff = Vec::new();
        page.render(&mut roff).map(|()| (page.get_filename(), roff)).map_err(|e| Failure::io(e.to_string()))
    };
    let Some(dir) = dir else {
        let (_, roff) = render(&command)?;
        host.stdout(&String::from_utf8_lossy(&roff));
        return Ok(EXIT_OK);
    };
    let mut pages = plugforge_core::SourceTree::new();
    for page in std::iter::once(&command).chain(command.get_subcommands()) {
        let (name, roff) = render(page)?;
        pages.insert(&name, roff, false)?;
    }
    host.create_files(dir, &pages).map_err(Failure::io)?;
    let created: String =
        pages.iter().map(|(p, _)| format!("  create   {}\n", join(dir, p.as_str()))).collect();
    host.stdout(&created);
    Ok(EXIT_OK)
}
