//! `plugforge build`: read the source, build, plan against the output root,
//! print the plan, and apply it unless refused or a dry run.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use crate::failure::Failure;
use crate::{EXIT_OK, EXIT_REFUSED, OutputArgs, clock, fsio, print};
use plugforge_core::{BuildOptions, Level, PlanOptions, TargetRequest};

#[derive(Args, Clone)]
pub struct BuildArgs {
    /// The plugin source folder.
    #[arg(default_value = ".")]
    pub source: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub source_options: SourceOptions,
    /// Print the plan, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Overwrite files edited since they were generated.
    #[arg(long)]
    pub force: bool,
    /// Refuse to write when any component is degraded or unsupported.
    #[arg(long)]
    pub strict: bool,
    /// Do not add the plugin to the marketplace files in OUT.
    #[arg(long)]
    pub no_marketplace: bool,
    /// Also list unchanged files.
    #[arg(long, short)]
    pub verbose: bool,
}

/// How the source is read: shared by build and doctor.
#[derive(Args, Clone, Default)]
pub struct SourceOptions {
    /// Namespace commands and skills are invoked under (default: the plugin name).
    #[arg(long)]
    pub namespace: Option<String>,
    /// Template variable (repeatable).
    #[arg(long = "var", value_name = "KEY=VALUE", value_parser = parse_var)]
    pub vars: Vec<(String, String)>,
    /// URL prefix generated content may contain (repeatable).
    #[arg(long = "allow-url", value_name = "PREFIX")]
    pub allow_urls: Vec<String>,
}

fn parse_var(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_string(), value.to_string())),
        _ => Err(format!("expected KEY=VALUE, got {text:?}")),
    }
}

/// `runtime` or `runtime:kind`.
pub fn target_requests(targets: &[String]) -> Vec<TargetRequest> {
    targets
        .iter()
        .map(|t| match t.split_once(':') {
            Some((runtime, kind)) => TargetRequest { runtime: runtime.into(), kind: Some(kind.into()) },
            None => TargetRequest::new(t.clone()),
        })
        .collect()
}

pub fn build_options(output: &OutputArgs, source: &SourceOptions, marketplace: bool) -> BuildOptions {
    BuildOptions {
        targets: target_requests(&output.targets),
        scope: output.scope.into(),
        namespace: source.namespace.clone(),
        vars: source.vars.iter().cloned().collect::<BTreeMap<_, _>>(),
        allow_urls: source.allow_urls.clone(),
        marketplace,
        manifest_name: output.manifest_name.clone(),
        ..BuildOptions::default()
    }
}

pub fn run(args: &BuildArgs) -> Result<u8, Failure> {
    let json = args.output.json;
    let out = args.output.out_dir(&args.source).map_err(|f| f.json(json))?;
    let tree =
        fsio::read_tree(&args.source, std::slice::from_ref(&out)).map_err(|e| Failure::io(e).json(json))?;
    let options = build_options(&args.output, &args.source_options, !args.no_marketplace);
    let output = plugforge_core::build(&tree, &options).map_err(|e| Failure::from(e).json(json))?;
    let honesty: Vec<_> = output.bundles.iter().flat_map(|b| b.honesty.iter()).collect();
    let diagnostics: Vec<_> =
        output.diagnostics.iter().chain(output.bundles.iter().flat_map(|b| b.diagnostics.iter())).collect();
    let strict_failures = honesty.iter().filter(|h| h.level != Level::Supported).count();

    let observed = fsio::observe(&out, &output.paths_to_read()).map_err(|e| Failure::io(e).json(json))?;
    let plan_options = PlanOptions { force: args.force, generated_at: clock::generated_at() };
    let plan =
        plugforge_core::plan(&output, &observed, &plan_options).map_err(|e| Failure::from(e).json(json))?;
    let strict_refusal = args.strict && strict_failures > 0;
    let refused = plan.refused || strict_refusal;
    let applied = !refused && !args.dry_run;
    if applied {
        fsio::apply(&out, &plan).map_err(|e| Failure::io(e).json(json))?;
    }

    if json {
        let report = json!({
            "ok": !refused,
            "refused": refused,
            "dry_run": args.dry_run,
            "applied": applied,
            "out": out,
            "plan": plan,
            "honesty": honesty,
            "diagnostics": diagnostics,
            "bundles": output.bundles.iter().map(|b| json!({"runtime": b.runtime, "kind": b.kind, "root": b.root, "files": b.files})).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&report).expect("JSON"));
    } else {
        print::diagnostics(&diagnostics);
        print::honesty(&honesty);
        print::plan(&out, &plan, args.verbose);
        if strict_refusal {
            eprintln!("refused: {strict_failures} component(s) are not fully supported and --strict is set");
        } else if plan.refused {
            eprintln!(
                "refused: {} conflict(s); nothing was written (rerun with --force to overwrite)",
                plan.summary.conflict
            );
        } else if args.dry_run {
            println!("dry run: nothing was written");
        }
    }
    Ok(if refused { EXIT_REFUSED } else { EXIT_OK })
}
