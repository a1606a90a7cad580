//! Browser binding: conversion only; every rule lives in plugforge-core.
//! No filesystem: file lists in, file lists out; bytes cross as `Uint8Array`.
//! Every failure throws an `Error` with `code` and `problems` (see error.rs).

mod convert;
mod error;
mod panic;

use plugforge_core::{
    DoctorOptions, ImportOptions, Observed, Output, PlanOptions, UninstallOptions, ValidateOptions,
    doctor_paths_to_read, uninstall_paths_to_read,
};
use wasm_bindgen::prelude::*;

use crate::error::to_js as js_error;

// The vocabulary's string unions (runtime ids, artifact kinds, components,
// finding codes), generated once for every JavaScript package by
// bindings-node/tests/typings.rs and compiled into this package's typings.
#[wasm_bindgen(typescript_custom_section)]
const VOCABULARY: &str = include_str!("../../bindings-node/vocabulary.d.cts");

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

type JsResult<T> = Result<T, JsValue>;

/// The engine's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Builds a canonical source (a list of files) into each requested runtime's bundle.
#[wasm_bindgen]
pub fn build(
    #[wasm_bindgen(unchecked_param_type = "SourceFile[]")] files: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BuildOptions")] options: Option<JsValue>,
) -> JsResult<Build> {
    let source = convert::source_tree(files).map_err(js_error)?;
    let options = convert::options(options, "build options").map_err(js_error)?;
    let output = plugforge_core::build(&source, &options).map_err(js_error)?;
    Ok(Build { output })
}

/// What one build produced; plan it against an output root to write it.
#[wasm_bindgen]
pub struct Build {
    output: Output,
}

#[wasm_bindgen]
impl Build {
    /// Each runtime's bundle; file paths are relative to the bundle's `root`.
    /// A fresh copy (bytes included) on every access.
    #[wasm_bindgen(getter, unchecked_return_type = "Bundle[]")]
    pub fn bundles(&self) -> JsResult<JsValue> {
        Ok(convert::bundles(&self.output.bundles)?)
    }

    /// Shared files (marketplaces, `.mcp.json`, context files) the bundles
    /// hold parts of, below the output root.
    #[wasm_bindgen(getter)]
    pub fn shared(&self) -> Vec<String> {
        convert::paths(&self.output.shared)
    }

    /// Findings about the source that did not stop the build.
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> JsResult<JsValue> {
        Ok(convert::to_js(&self.output.diagnostics)?)
    }

    /// Requested runtimes that could not be built, each with every reason.
    #[wasm_bindgen(getter, unchecked_return_type = "TargetFailure[]")]
    pub fn failures(&self) -> JsResult<JsValue> {
        Ok(convert::to_js(&self.output.failures)?)
    }

    /// URLs the author wrote that the bundles carry, with the files holding them.
    #[wasm_bindgen(getter, unchecked_return_type = "CarriedUrl[]")]
    pub fn urls(&self) -> JsResult<JsValue> {
        Ok(convert::to_js(&self.output.urls)?)
    }

    /// The generation manifest's file name in each bundle root.
    #[wasm_bindgen(getter = manifestName)]
    pub fn manifest_name(&self) -> String {
        self.output.manifest_name.clone()
    }

    /// Output-root paths whose bytes `plan` needs in `observed.contents`.
    #[wasm_bindgen(js_name = pathsToRead)]
    pub fn paths_to_read(&self) -> Vec<String> {
        convert::paths(&self.output.paths_to_read())
    }

    /// The actions that write this build over what was observed in the output root.
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Observed")] observed: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PlanOptions")] options: Option<JsValue>,
    ) -> JsResult<JsValue> {
        let observed = convert::observed(observed).map_err(js_error)?;
        let options: PlanOptions = convert::options(options, "plan options").map_err(js_error)?;
        let plan = plugforge_core::plan(&self.output, observed, &options).map_err(js_error)?;
        Ok(convert::plan(&plan)?)
    }

    /// The whole output root of a fresh build (bundle files, shared files,
    /// manifests): the plan over an empty root, every file a create.
    #[wasm_bindgen(js_name = outputFiles, unchecked_return_type = "OutputFile[]")]
    pub fn output_files(
        &self,
        #[wasm_bindgen(js_name = generatedAt)] generated_at: String,
    ) -> JsResult<JsValue> {
        let options = PlanOptions { force: false, generated_at };
        let plan = plugforge_core::plan(&self.output, Observed::default(), &options).map_err(js_error)?;
        Ok(convert::output_files(&plan)?)
    }

    /// `doctor`, also reporting bundles whose source or templates changed
    /// since they were generated (this build being the fresh one).
    #[wasm_bindgen(unchecked_return_type = "DoctorReport")]
    pub fn doctor(
        &self,
        #[wasm_bindgen(unchecked_param_type = "DoctorOptions | undefined")] options: Option<JsValue>,
        #[wasm_bindgen(unchecked_param_type = "Observed")] observed: JsValue,
    ) -> JsResult<JsValue> {
        check(options, observed, Some(&self.output))
    }
}

/// Output-root paths whose bytes `uninstallPlan` needs in `observed.contents`.
#[wasm_bindgen(js_name = uninstallPathsToRead)]
pub fn uninstall_paths(
    #[wasm_bindgen(unchecked_optional_param_type = "UninstallOptions")] options: Option<JsValue>,
) -> JsResult<Vec<String>> {
    let options: UninstallOptions = convert::options(options, "uninstall options").map_err(js_error)?;
    Ok(convert::paths(&uninstall_paths_to_read(&options).map_err(js_error)?))
}

/// The actions that remove generated bundles, keeping edited files unless forced.
#[wasm_bindgen(js_name = uninstallPlan, unchecked_return_type = "Plan")]
pub fn uninstall_plan(
    #[wasm_bindgen(unchecked_param_type = "UninstallOptions | undefined")] options: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "Observed")] observed: JsValue,
) -> JsResult<JsValue> {
    let options: UninstallOptions = convert::options(options, "uninstall options").map_err(js_error)?;
    let observed = convert::observed(observed).map_err(js_error)?;
    let plan = plugforge_core::uninstall_plan(&options, &observed).map_err(js_error)?;
    Ok(convert::plan(&plan)?)
}

/// Output-root paths whose bytes `doctor` needs in `observed.contents`.
#[wasm_bindgen(js_name = doctorPathsToRead)]
pub fn doctor_paths(
    #[wasm_bindgen(unchecked_optional_param_type = "DoctorOptions")] options: Option<JsValue>,
) -> JsResult<Vec<String>> {
    let options: DoctorOptions = convert::options(options, "doctor options").map_err(js_error)?;
    Ok(convert::paths(&doctor_paths_to_read(&options).map_err(js_error)?))
}

/// What is wrong with the bundles observed on disk; changes nothing.
/// `Build.doctor` also compares them with that fresh build of the source.
#[wasm_bindgen(unchecked_return_type = "DoctorReport")]
pub fn doctor(
    #[wasm_bindgen(unchecked_param_type = "DoctorOptions | undefined")] options: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "Observed")] observed: JsValue,
) -> JsResult<JsValue> {
    check(options, observed, None)
}

fn check(options: Option<JsValue>, observed: JsValue, desired: Option<&Output>) -> JsResult<JsValue> {
    let options: DoctorOptions = convert::options(options, "doctor options").map_err(js_error)?;
    let observed = convert::observed(observed).map_err(js_error)?;
    let report = plugforge_core::doctor(&options, &observed, desired).map_err(js_error)?;
    Ok(convert::to_js(&report)?)
}

/// Judges a plugin folder given as files (a plugforge source, any runtime's
/// plugin, a marketplace root) against the rule catalog. Throws only for bad
/// options (an unknown `target`); every problem of the folder is a finding.
#[wasm_bindgen(unchecked_return_type = "ValidationReport")]
pub fn validate(
    #[wasm_bindgen(unchecked_param_type = "SourceFile[]")] files: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let tree = convert::source_tree(files).map_err(js_error)?;
    let options: ValidateOptions = convert::options(options, "validate options").map_err(js_error)?;
    let report = plugforge_core::validate(&tree, &options).map_err(js_error)?;
    Ok(convert::to_js(&report)?)
}

/// Reads a native plugin (Claude Code, Codex, Gemini CLI, Cursor, Agent
/// Plugins) into a canonical source, with a note for each thing the source
/// cannot carry.
#[wasm_bindgen(js_name = importPlugin, unchecked_return_type = "Imported")]
pub fn import_plugin(
    #[wasm_bindgen(unchecked_param_type = "SourceFile[]")] files: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let tree = convert::source_tree(files).map_err(js_error)?;
    let options: ImportOptions = convert::options(options, "import options").map_err(js_error)?;
    let imported = plugforge_core::import(&tree, &options).map_err(js_error)?;
    Ok(convert::imported(&imported)?)
}

/// Every rule `validate` can report, in catalog order.
#[wasm_bindgen(unchecked_return_type = "Rule[]")]
pub fn rules() -> JsResult<JsValue> {
    Ok(convert::to_js(&plugforge_core::rules())?)
}

/// Every runtime the engine writes for, in registry order (the order of
/// `--target all`): its id, name, artifact kinds (default first) and marker files.
#[wasm_bindgen(unchecked_return_type = "RuntimeInfo[]")]
pub fn runtimes() -> JsResult<JsValue> {
    Ok(convert::to_js(&plugforge_core::runtimes())?)
}

/// The starter source `plugforge init` writes, as a file list `build` accepts.
#[wasm_bindgen(js_name = starterSource, unchecked_return_type = "SourceFile[]")]
pub fn starter_source(name: &str) -> JsResult<JsValue> {
    let tree = plugforge_core::starter_source(name).map_err(js_error)?;
    Ok(convert::source_files(&tree)?)
}

/// Lowercase hex sha256, as manifests and `observed.hashes` spell it.
#[wasm_bindgen(js_name = sha256Hex)]
pub fn sha256_hex(bytes: &[u8]) -> String {
    plugforge_core::sha256_hex(bytes)
}
