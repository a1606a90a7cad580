//! JS values <-> core types, through serde at the boundary. Bytes cross as
//! `Uint8Array` (copied once each way); everything else as plain objects
//! with camelCase keys.

use std::collections::BTreeMap;
use std::sync::Arc;

use js_sys::Uint8Array;
use plugforge_core::{
    ArtifactKind, Bundle, BundlePath, Diagnostic, Error, ErrorCode, Honesty, ImportNotes, Imported, Merge,
    Observed, Op, Plan, Runtime, Sha256Digest, SourceTree, Summary,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// A byte string as a JS `Uint8Array`.
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(test, derive(ts_rs::TS), ts(type = "Uint8Array"))]
struct Bytes(#[serde(with = "serde_wasm_bindgen::preserve")] Uint8Array);

impl Bytes {
    fn of(bytes: &[u8]) -> Self {
        Bytes(Uint8Array::from(bytes))
    }
}

/// One file of a source as JS passes it in (extra fields are ignored, so an
/// output file can be fed back in).
#[derive(Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "SourceFile"))]
struct FileIn {
    /// Relative, `/`-separated.
    path: String,
    bytes: Bytes,
    #[serde(default)]
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    executable: bool,
}

/// A source file as JS gets it back (`starterSource`).
#[derive(Serialize)]
struct FileOut<'a> {
    path: &'a BundlePath,
    bytes: Bytes,
    executable: bool,
}

#[derive(Serialize)]
/// A native plugin read into a canonical source (with `plugforge.json`).
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Imported"))]
struct ImportedOut<'a> {
    runtime: Runtime,
    #[cfg_attr(test, ts(as = "Vec<FileIn>"))]
    files: Vec<FileOut<'a>>,
    #[cfg_attr(test, ts(type = "Array<ImportNote>"))]
    notes: ImportNotes<'a>,
}

/// What the host found below the output root.
#[derive(Deserialize, Default)]
#[serde(default)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Observed"))]
struct ObservedIn {
    /// sha256 (lowercase hex) of every file below the output root, by relative path.
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    hashes: BTreeMap<String, String>,
    #[cfg_attr(test, ts(as = "Option<_>", optional))]
    /// Bytes of the `pathsToRead()` files that exist.
    contents: BTreeMap<String, Bytes>,
}

/// One runtime's bundle of one kind.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Bundle"))]
struct BundleOut<'a> {
    runtime: Runtime,
    kind: ArtifactKind,
    /// Folder below the output root; "" when the files go straight into it.
    root: &'a str,
    /// The generation manifest's path below the output root.
    manifest: &'a BundlePath,
    namespace: &'a str,
    plugin_name: &'a str,
    plugin_version: Option<&'a str>,
    files: Vec<BundleFileOut<'a>>,
    /// Parts of shared files (marketplaces, `.mcp.json`, context files).
    merges: &'a [Merge],
    honesty: &'a [Honesty],
    diagnostics: &'a [Diagnostic],
}

/// A generated file; `path` is relative to its bundle's `root`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "BundleFile"))]
struct BundleFileOut<'a> {
    path: &'a BundlePath,
    bytes: Bytes,
    sha256: String,
    executable: bool,
    /// A source path, or `plugforge:<runtime>/<name>` for built-in templates.
    template: &'a str,
}

/// Actions in apply order (manifests last). A refused plan must not be applied at all.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Plan"))]
struct PlanOut<'a> {
    actions: Vec<ActionOut<'a>>,
    refused: bool,
    summary: &'a Summary,
    diagnostics: &'a [Diagnostic],
}

/// One file action; `bytes` and `sha256` are set for `create` and `update`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Action", optional_fields))]
struct ActionOut<'a> {
    /// Below the output root.
    path: &'a BundlePath,
    op: Op,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bytes: Option<Bytes>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sha256: Option<String>,
    executable: bool,
}

/// One file of a fresh output root; `path` is below the output root.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OutputFile"))]
struct OutputFileOut<'a> {
    path: &'a BundlePath,
    bytes: Bytes,
    sha256: String,
    executable: bool,
}

/// Plain objects (not ES `Map`s) and `null` for absent values, like JSON.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, serde_wasm_bindgen::Error> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
}

/// A JS argument in the shape of `T`; a mismatch is the caller's mistake.
fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, Error> {
    serde_wasm_bindgen::from_value(value).map_err(|e| invalid(what, e))
}

fn invalid(what: &str, error: impl std::fmt::Display) -> Error {
    Error::new(ErrorCode::InvalidOptions, format!("{what}: {error}"))
}

fn given(value: Option<JsValue>) -> Option<JsValue> {
    value.filter(|v| !v.is_null() && !v.is_undefined())
}

/// An options object (`undefined` or `null`: every default). It goes through
/// JSON because serde-wasm-bindgen only looks up the fields a struct names,
/// which would let the core's `deny_unknown_fields` pass a misspelt option.
pub fn options<T: DeserializeOwned + Default>(value: Option<JsValue>, what: &str) -> Result<T, Error> {
    let Some(value) = given(value) else { return Ok(T::default()) };
    let json: serde_json::Value = from_js(value, what)?;
    serde_json::from_value(json).map_err(|e| invalid(what, e))
}

pub fn source_tree(files: JsValue) -> Result<SourceTree, Error> {
    let files: Vec<FileIn> = from_js(files, "files")?;
    let mut tree = SourceTree::new();
    for file in files {
        tree.insert(&file.path, file.bytes.0.to_vec(), file.executable)?;
    }
    Ok(tree)
}

fn files_out(tree: &SourceTree) -> Vec<FileOut<'_>> {
    tree.iter()
        .map(|(path, file)| FileOut { path, bytes: Bytes::of(&file.bytes), executable: file.executable })
        .collect()
}

pub fn source_files(tree: &SourceTree) -> Result<JsValue, serde_wasm_bindgen::Error> {
    to_js(&files_out(tree))
}

pub fn imported(imported: &Imported) -> Result<JsValue, serde_wasm_bindgen::Error> {
    let files = files_out(&imported.source);
    to_js(&ImportedOut { runtime: imported.runtime, files, notes: ImportNotes(&imported.notes) })
}

/// What the host saw in the output root; `undefined` or `{}` is an empty root.
pub fn observed(value: JsValue) -> Result<Observed, Error> {
    let observed: ObservedIn = match given(Some(value)) {
        Some(value) => from_js(value, "observed")?,
        None => ObservedIn::default(),
    };
    let contents = observed.contents.into_iter().map(|(path, bytes)| (path, Arc::from(bytes.0.to_vec())));
    // Any text but a sha256 (`""`: not hashed) equals no file's hash.
    let hashes = observed.hashes.into_iter().map(|(path, sha)| (path, Sha256Digest::from_hex(&sha)));
    Ok(Observed { hashes: hashes.collect(), contents: contents.collect() })
}

pub fn paths(paths: &[BundlePath]) -> Vec<String> {
    paths.iter().map(ToString::to_string).collect()
}

pub fn bundles(bundles: &[Bundle]) -> Result<JsValue, serde_wasm_bindgen::Error> {
    let bundles: Vec<BundleOut> = bundles.iter().map(bundle).collect();
    to_js(&bundles)
}

fn bundle(bundle: &Bundle) -> BundleOut<'_> {
    let files = bundle.files.iter().map(|(path, file)| BundleFileOut {
        path,
        bytes: Bytes::of(&file.bytes),
        sha256: file.sha256.to_string(),
        executable: file.executable,
        template: &file.template,
    });
    BundleOut {
        runtime: bundle.runtime,
        kind: bundle.kind,
        root: &bundle.root,
        manifest: &bundle.manifest,
        namespace: &bundle.namespace,
        plugin_name: &bundle.plugin_name,
        plugin_version: bundle.plugin_version.as_deref(),
        files: files.collect(),
        merges: &bundle.merges,
        honesty: &bundle.honesty,
        diagnostics: &bundle.diagnostics,
    }
}

pub fn plan(plan: &Plan) -> Result<JsValue, serde_wasm_bindgen::Error> {
    let actions = plan.actions.iter().map(|a| ActionOut {
        path: &a.path,
        op: a.op,
        reason: a.reason.as_deref(),
        bytes: a.bytes.as_deref().map(Bytes::of),
        sha256: a.sha256.map(|sha| sha.to_string()),
        executable: a.executable,
    });
    let out = PlanOut {
        actions: actions.collect(),
        refused: plan.refused,
        summary: &plan.summary,
        diagnostics: &plan.diagnostics,
    };
    to_js(&out)
}

/// The files a plan writes, with their bytes (all of them, for a fresh root).
pub fn output_files(plan: &Plan) -> Result<JsValue, serde_wasm_bindgen::Error> {
    let files: Vec<OutputFileOut> = plan
        .actions
        .iter()
        .filter_map(|a| {
            let (bytes, sha256) = (a.bytes.as_deref()?, a.sha256?.to_string());
            Some(OutputFileOut { path: &a.path, bytes: Bytes::of(bytes), sha256, executable: a.executable })
        })
        .collect();
    to_js(&files)
}

/// The typings of these shapes (`src/types.d.ts`) are generated from them.
#[cfg(test)]
#[path = "typescript.rs"]
mod typescript;
