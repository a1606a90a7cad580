//! Host values <-> core types. Options cross through serde in the core's own
//! JSON shapes (so its defaults and unknown-field checks apply); results are
//! napi objects, so their typings are generated; bytes cross as Buffer or
//! Uint8Array, never as strings.

use std::collections::HashMap;
use std::sync::Arc;

use napi::bindgen_prelude::{Buffer, Uint8Array};
use napi::{Env, Unknown};
use napi_derive::napi;
use plugforge_core as engine;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A file of a plugin source, as the host read it.
#[napi(object, object_to_js = false)]
pub struct SourceFile {
    /// Relative, `/`-separated.
    pub path: String,
    pub bytes: Uint8Array,
    pub executable: Option<bool>,
}

/// A file to create as it is (a starter source).
#[napi(object, object_from_js = false)]
pub struct TreeFile {
    pub path: String,
    pub bytes: Buffer,
    pub executable: bool,
}

/// What the host found below an output root.
#[napi(object, object_to_js = false)]
pub struct Observed {
    /// sha256 (lowercase hex) of every file below the root, by relative
    /// path; any other text (`""`: not hashed) equals no file's hash.
    pub hashes: Option<HashMap<String, String>>,
    /// Bytes of the files named by `pathsToRead()` that exist.
    pub contents: Option<HashMap<String, Uint8Array>>,
}

/// Where in the source a problem sits; lines and columns are 1-based.
#[napi(object, object_from_js = false)]
pub struct Location {
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// One problem of a thrown error (`err.problems`).
#[napi(object, object_from_js = false)]
pub struct Problem {
    pub message: String,
    pub location: Option<Location>,
}

#[napi(object, object_from_js = false)]
pub struct Diagnostic {
    #[napi(ts_type = "Severity")]
    pub severity: String,
    #[napi(ts_type = "Code")]
    pub code: String,
    pub message: String,
    pub location: Option<Location>,
}

/// One row of the honesty report: how well a runtime carries a component.
#[napi(object, object_from_js = false)]
pub struct Honesty {
    #[napi(ts_type = "Component")]
    pub component: String,
    pub name: String,
    #[napi(ts_type = "RuntimeId")]
    pub runtime: String,
    #[napi(ts_type = "ArtifactKind")]
    pub kind: String,
    #[napi(ts_type = "Level")]
    pub level: String,
    pub detail: String,
}

/// A generated file; `path` is relative to the bundle's `root`.
#[napi(object, object_from_js = false)]
pub struct BundleFile {
    pub path: String,
    pub bytes: Buffer,
    pub sha256: String,
    pub executable: bool,
    /// Where the bytes came from: a source path, or `plugforge:<runtime>/<name>`.
    pub template: String,
}

/// One runtime's bundle of one kind.
#[napi(object, object_from_js = false)]
pub struct Bundle {
    #[napi(ts_type = "RuntimeId")]
    pub runtime: String,
    #[napi(ts_type = "ArtifactKind")]
    pub kind: String,
    /// The bundle's folder below the output folder; empty for kinds written
    /// straight into it (a project folder).
    pub root: String,
    /// The generation manifest's path below the output folder.
    pub manifest: String,
    pub namespace: String,
    pub plugin_name: String,
    pub plugin_version: Option<String>,
    pub files: Vec<BundleFile>,
    pub merges: Vec<Merge>,
    pub honesty: Vec<Honesty>,
    pub diagnostics: Vec<Diagnostic>,
}

/// This bundle's part of a shared file (a marketplace entry, a JSON entry or
/// items, a text section), merged in by the plan.
#[napi(object, object_from_js = false)]
pub struct Merge {
    /// The shared file, below the output folder.
    pub path: String,
    /// The core's JSON shape of the part, tagged by `kind`.
    #[napi(ts_type = "Part")]
    pub part: serde_json::Value,
}

/// One file action; `bytes` are set for `create` and `update`.
#[napi(object, object_from_js = false)]
pub struct Action {
    pub path: String,
    #[napi(ts_type = "Op")]
    pub op: String,
    pub reason: Option<String>,
    pub bytes: Option<Buffer>,
    pub sha256: Option<String>,
    pub executable: bool,
    /// The sha256 the plan saw at `path` (absent: nothing was there):
    /// `applyPlan` replaces or removes the file only if it still holds it.
    pub found: Option<String>,
}

#[napi(object, object_from_js = false)]
pub struct Summary {
    pub create: u32,
    pub update: u32,
    pub unchanged: u32,
    pub conflict: u32,
    pub remove: u32,
    pub keep: u32,
}

/// The actions in apply order (manifests last). A refused plan (any
/// conflict) must not be applied at all.
#[napi(object, object_from_js = false)]
pub struct Plan {
    pub actions: Vec<Action>,
    pub refused: bool,
    pub summary: Summary,
    pub diagnostics: Vec<Diagnostic>,
    /// How many of the last actions are bundle manifests: a host applies
    /// them only once every other action has landed (`applyPlan` does).
    pub manifests: u32,
}

#[napi(object, object_from_js = false)]
pub struct Finding {
    #[napi(ts_type = "FindingCode")]
    pub code: String,
    #[napi(ts_type = "Severity")]
    pub severity: String,
    pub runtime: String,
    pub path: String,
    pub message: String,
    /// The command that fixes it.
    pub fix: String,
}

#[napi(object, object_from_js = false)]
pub struct DoctorReport {
    pub findings: Vec<Finding>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Options in the core's JSON shape; absent means the core's defaults.
pub fn options<T: DeserializeOwned + Default>(env: &Env, value: Option<Unknown>) -> engine::Result<T> {
    let Some(value) = value else { return Ok(T::default()) };
    env.from_js_value(value)
        .map_err(|e| engine::Error::new(engine::ErrorCode::InvalidOptions, format!("options: {}", e.reason)))
}

pub fn tree(files: Vec<SourceFile>) -> engine::Result<engine::SourceTree> {
    let mut tree = engine::SourceTree::new();
    for file in files {
        tree.insert(&file.path, Arc::<[u8]>::from(&file.bytes[..]), file.executable.unwrap_or(false))?;
    }
    Ok(tree)
}

pub fn tree_files(tree: &engine::SourceTree) -> Vec<TreeFile> {
    let file = |(path, f): (&engine::BundlePath, &engine::SourceFile)| TreeFile {
        path: path.to_string(),
        bytes: f.bytes.to_vec().into(),
        executable: f.executable,
    };
    tree.iter().map(file).collect()
}

pub fn observed(observed: Observed) -> engine::Observed {
    let contents = observed.contents.unwrap_or_default().into_iter();
    engine::Observed {
        hashes: observed
            .hashes
            .unwrap_or_default()
            .into_iter()
            .map(|(p, h)| (p, engine::Sha256Digest::from_hex(&h)))
            .collect(),
        contents: contents.map(|(path, bytes)| (path, Arc::from(&bytes[..]))).collect(),
    }
}

pub fn paths(paths: Vec<engine::BundlePath>) -> Vec<String> {
    paths.into_iter().map(|p| p.to_string()).collect()
}

/// A core enum's serde name (`"create"`, `"degraded"`, `"warning"`).
fn tag<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn number(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl From<&engine::Location> for Location {
    fn from(l: &engine::Location) -> Self {
        Location { file: l.file.clone(), line: l.line.map(number), column: l.column.map(number) }
    }
}

impl From<&engine::Problem> for Problem {
    fn from(p: &engine::Problem) -> Self {
        Problem { message: p.message.clone(), location: p.location.as_ref().map(Location::from) }
    }
}

impl From<&engine::Diagnostic> for Diagnostic {
    fn from(d: &engine::Diagnostic) -> Self {
        let (severity, code, message) = (tag(&d.severity), d.code.to_string(), d.message.clone());
        Diagnostic { severity, code, message, location: d.location.as_ref().map(Location::from) }
    }
}

pub fn diagnostics(list: &[engine::Diagnostic]) -> Vec<Diagnostic> {
    list.iter().map(Diagnostic::from).collect()
}

impl From<&engine::Honesty> for Honesty {
    fn from(h: &engine::Honesty) -> Self {
        Honesty {
            component: h.component.into(),
            name: h.name.clone(),
            runtime: h.runtime.into(),
            kind: h.kind.into(),
            level: tag(&h.level),
            detail: h.detail.clone(),
        }
    }
}

impl From<&engine::Bundle> for Bundle {
    fn from(b: &engine::Bundle) -> Self {
        let file = |(path, f): (&engine::BundlePath, &engine::GeneratedFile)| BundleFile {
            path: path.to_string(),
            bytes: f.bytes.to_vec().into(),
            sha256: f.sha256.to_string(),
            executable: f.executable,
            template: f.template.clone(),
        };
        Bundle {
            runtime: b.runtime.into(),
            kind: b.kind.into(),
            root: b.root.clone(),
            manifest: b.manifest.to_string(),
            namespace: b.namespace.clone(),
            plugin_name: b.plugin_name.clone(),
            plugin_version: b.plugin_version.clone(),
            files: b.files.iter().map(file).collect(),
            merges: b.merges.iter().map(Merge::from).collect(),
            honesty: b.honesty.iter().map(Honesty::from).collect(),
            diagnostics: diagnostics(&b.diagnostics),
        }
    }
}

impl From<&engine::Merge> for Merge {
    fn from(m: &engine::Merge) -> Self {
        Merge { path: m.path.to_string(), part: serde_json::to_value(&m.part).unwrap_or_default() }
    }
}

impl From<&engine::Action> for Action {
    fn from(a: &engine::Action) -> Self {
        Action {
            path: a.path.to_string(),
            op: tag(&a.op),
            reason: a.reason.clone(),
            bytes: a.bytes.as_ref().map(|b| b.to_vec().into()),
            sha256: a.sha256.map(|sha| sha.to_string()),
            executable: a.executable,
            found: a.found.map(|sha| sha.to_string()),
        }
    }
}

impl From<&engine::Plan> for Plan {
    fn from(p: &engine::Plan) -> Self {
        let s = &p.summary;
        let summary = Summary {
            create: number(s.create),
            update: number(s.update),
            unchanged: number(s.unchanged),
            conflict: number(s.conflict),
            remove: number(s.remove),
            keep: number(s.keep),
        };
        let actions = p.actions.iter().map(Action::from).collect();
        let manifests = number(p.manifests);
        Plan { actions, refused: p.refused, summary, diagnostics: diagnostics(&p.diagnostics), manifests }
    }
}

impl From<&engine::Finding> for Finding {
    fn from(f: &engine::Finding) -> Self {
        Finding {
            code: f.code.as_str().into(),
            severity: tag(&f.severity),
            runtime: f.runtime.clone(),
            path: f.path.clone(),
            message: f.message.clone(),
            fix: f.fix.clone(),
        }
    }
}

impl From<&engine::DoctorReport> for DoctorReport {
    fn from(r: &engine::DoctorReport) -> Self {
        let findings = r.findings.iter().map(Finding::from).collect();
        DoctorReport { findings, diagnostics: diagnostics(&r.diagnostics) }
    }
}
