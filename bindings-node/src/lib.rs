//! Node.js binding of plugforge: conversion only; every rule lives in
//! plugforge-core, the command line in plugforge-cli, the filesystem side in
//! plugforge-host-fs (wrapped by `lib/host.js`).

mod convert;
mod error;
pub mod fs;
pub mod panic;
mod validation;

use napi::bindgen_prelude::Uint8Array;
use napi::{Env, Result, Unknown};
use napi_derive::napi;
use plugforge_core as engine;

use convert::{Bundle, DoctorReport, Observed, Plan, SourceFile, TreeFile};
use validation::{Imported, Rule, ValidationReport};

/// The engine's version.
#[napi]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Builds every requested runtime's bundle from a source given as files.
/// Nothing is written: plan the result against an output folder, then apply.
#[napi]
pub fn build(
    env: &Env,
    files: Vec<SourceFile>,
    #[napi(ts_arg_type = "BuildOptions")] options: Option<Unknown>,
) -> Result<Build> {
    let run = || engine::build(&convert::tree(files)?, &convert::options(env, options)?);
    panic::guard(env, || run().map(|output| Build { output }).map_err(|e| error::to_js(env, e)))
}

/// A build's result, kept on the Rust side so planning needs no bytes back.
#[napi]
pub struct Build {
    output: engine::Output,
}

#[napi]
impl Build {
    /// Each runtime's bundle, with every file's bytes (copied on each access).
    #[napi(getter)]
    pub fn bundles(&self) -> Vec<Bundle> {
        self.output.bundles.iter().map(Bundle::from).collect()
    }

    /// Shared files (marketplaces, `.mcp.json`, context files) the bundles'
    /// kinds may hold parts of, below the output folder.
    #[napi(getter)]
    pub fn shared(&self) -> Vec<String> {
        convert::paths(self.output.shared.clone())
    }

    /// Findings about the source that did not stop the build.
    #[napi(getter)]
    pub fn diagnostics(&self) -> Vec<convert::Diagnostic> {
        convert::diagnostics(&self.output.diagnostics)
    }

    /// Requested runtimes that could not be built, each with every reason.
    #[napi(getter, ts_return_type = "TargetFailure[]")]
    pub fn failures(&self) -> serde_json::Value {
        serde_json::to_value(&self.output.failures).expect("failures serialize")
    }

    /// URLs the author wrote that the bundles carry, with the files holding them.
    #[napi(getter, ts_return_type = "CarriedUrl[]")]
    pub fn urls(&self) -> serde_json::Value {
        serde_json::to_value(&self.output.urls).expect("URLs serialize")
    }

    /// Files to read (not just hash) into `observed.contents` before `plan`:
    /// previous manifests and the shared files parts are merged into.
    #[napi]
    pub fn paths_to_read(&self) -> Vec<String> {
        convert::paths(self.output.paths_to_read())
    }

    /// The file actions that write this build over what `observed` found.
    #[napi(ts_args_type = "observed: Observed, options: PlanOptions")]
    pub fn plan(&self, env: &Env, observed: Observed, options: Option<Unknown>) -> Result<Plan> {
        let run =
            || engine::plan(&self.output, &convert::observed(observed), &convert::options(env, options)?);
        panic::guard(env, || run().map(|plan| Plan::from(&plan)).map_err(|e| error::to_js(env, e)))
    }
}

/// Files to read before `uninstallPlan`: manifests and shared files.
#[napi]
pub fn uninstall_paths_to_read(
    env: &Env,
    #[napi(ts_arg_type = "UninstallOptions")] options: Option<Unknown>,
) -> Result<Vec<String>> {
    let run = || engine::uninstall_paths_to_read(&convert::options(env, options)?);
    panic::guard(env, || run().map(convert::paths).map_err(|e| error::to_js(env, e)))
}

/// Removes what the manifests say was generated (never an edit unless forced).
#[napi]
pub fn uninstall_plan(
    env: &Env,
    #[napi(ts_arg_type = "UninstallOptions")] options: Option<Unknown>,
    observed: Observed,
) -> Result<Plan> {
    let run = || engine::uninstall_plan(&convert::options(env, options)?, &convert::observed(observed));
    panic::guard(env, || run().map(|plan| Plan::from(&plan)).map_err(|e| error::to_js(env, e)))
}

/// Files to read before `doctor`.
#[napi]
pub fn doctor_paths_to_read(
    env: &Env,
    #[napi(ts_arg_type = "DoctorOptions")] options: Option<Unknown>,
) -> Result<Vec<String>> {
    let run = || engine::doctor_paths_to_read(&convert::options(env, options)?);
    panic::guard(env, || run().map(convert::paths).map_err(|e| error::to_js(env, e)))
}

/// What is wrong with the bundles on disk; a fresh `build` of the source
/// also catches output that changed since generation. Changes nothing.
#[napi]
pub fn doctor(
    env: &Env,
    #[napi(ts_arg_type = "DoctorOptions")] options: Option<Unknown>,
    observed: Observed,
    build: Option<&Build>,
) -> Result<DoctorReport> {
    let desired = build.map(|b| &b.output);
    let run = || engine::doctor(&convert::options(env, options)?, &convert::observed(observed), desired);
    panic::guard(env, || run().map(|report| DoctorReport::from(&report)).map_err(|e| error::to_js(env, e)))
}

/// Judges a plugin folder given as files (a plugforge source, any runtime's
/// plugin, a marketplace root) against the rule catalog. Throws only for bad
/// options (an unknown `target`); every problem of the folder is a finding.
#[napi]
pub fn validate(
    env: &Env,
    files: Vec<SourceFile>,
    #[napi(ts_arg_type = "ValidateOptions")] options: Option<Unknown>,
) -> Result<ValidationReport> {
    let run = || engine::validate(&convert::tree(files)?, &convert::options(env, options)?);
    panic::guard(env, || {
        run().map(|report| ValidationReport::from(&report)).map_err(|e| error::to_js(env, e))
    })
}

/// Reads a native plugin (Claude Code, Codex, Gemini CLI, Cursor, Agent
/// Plugins) given as files into a canonical source, with a note for each
/// thing the source cannot carry. Nothing is written.
#[napi]
pub fn import_plugin(
    env: &Env,
    files: Vec<SourceFile>,
    #[napi(ts_arg_type = "ImportOptions")] options: Option<Unknown>,
) -> Result<Imported> {
    let run = || engine::import(&convert::tree(files)?, &convert::options(env, options)?);
    panic::guard(env, || run().map(|imported| Imported::from(&imported)).map_err(|e| error::to_js(env, e)))
}

/// Every rule `validate` can report, in catalog order.
#[napi]
pub fn rules() -> Vec<Rule> {
    engine::rules().into_iter().map(Rule::from).collect()
}

/// The starter source `plugforge init` writes, for a kebab-case plugin name.
#[napi]
pub fn starter_source(env: &Env, name: String) -> Result<Vec<TreeFile>> {
    panic::guard(env, || {
        let tree = engine::starter_source(&name).map_err(|e| error::to_js(env, e))?;
        Ok(convert::tree_files(&tree))
    })
}

/// sha256 as lowercase hex, the form manifests and `observed.hashes` use.
#[napi]
pub fn sha256_hex(bytes: Uint8Array) -> String {
    engine::sha256_hex(&bytes)
}

/// Runs the `plugforge` command line (`argv` without the program name) over
/// the local filesystem, writing to this process's stdout and stderr; returns
/// the exit code. `npx plugforge` is this with `process.argv.slice(2)`.
/// A panic becomes a thrown `Error` with `code: 'internal'` instead of
/// taking the whole Node process down.
#[napi]
pub fn run_cli(env: &Env, argv: Vec<String>) -> Result<u32> {
    // Nothing the run touches outlives it, so a panic leaves no broken state behind.
    panic::guard(env, || Ok(u32::from(plugforge_cli::run(argv))))
}
