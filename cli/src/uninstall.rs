//! `plugforge uninstall`: remove tracked, unedited files and the plugin's
//! marketplace entries; edited files stay unless --force.

use clap::Args;
use serde_json::json;

use crate::failure::Failure;
use crate::{EXIT_OK, OutputArgs, fsio, print};
use plugforge_core::UninstallOptions;

#[derive(Args)]
pub struct UninstallArgs {
    #[command(flatten)]
    pub output: OutputArgs,
    /// Also remove files edited since they were generated.
    #[arg(long)]
    pub force: bool,
    /// Print the plan, remove nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(args: &UninstallArgs) -> Result<u8, Failure> {
    let json = args.output.json;
    let out = args.output.out_dir(std::path::Path::new(".")).map_err(|f| f.json(json))?;
    let options = UninstallOptions {
        runtimes: args.output.runtimes(),
        manifest_name: args.output.manifest_name.clone(),
        force: args.force,
    };
    let to_read =
        plugforge_core::uninstall_paths_to_read(&options).map_err(|e| Failure::from(e).json(json))?;
    let observed = fsio::observe(&out, &to_read).map_err(|e| Failure::io(e).json(json))?;
    let plan =
        plugforge_core::uninstall_plan(&options, &observed).map_err(|e| Failure::from(e).json(json))?;
    if !args.dry_run {
        fsio::apply(&out, &plan).map_err(|e| Failure::io(e).json(json))?;
    }
    if json {
        let report = json!({"ok": true, "dry_run": args.dry_run, "out": out, "plan": plan});
        println!("{}", serde_json::to_string_pretty(&report).expect("JSON"));
    } else {
        print::diagnostics(&plan.diagnostics.iter().collect::<Vec<_>>());
        print::plan(&out, &plan, false);
        if plan.summary.keep > 0 {
            println!("{} edited file(s) kept; `--force` removes them too", plan.summary.keep);
        }
    }
    Ok(EXIT_OK)
}
