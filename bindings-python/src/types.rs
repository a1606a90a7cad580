//! The Python classes: dataclass-like, frozen views of the core's values.
//! Fields are filled by `convert`; the few methods here only convert and call.

use std::collections::BTreeMap;

use plugforge_core as pf;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict};

use crate::convert;
use crate::error::to_py;

/// `Name(field=repr, ...)` for the listed attributes.
pub(crate) fn repr(obj: &Bound<'_, PyAny>, fields: &[&str]) -> PyResult<String> {
    let mut parts = Vec::with_capacity(fields.len());
    for field in fields {
        parts.push(format!("{field}={}", obj.getattr(*field)?.repr()?));
    }
    Ok(format!("{}({})", obj.get_type().name()?, parts.join(", ")))
}

macro_rules! dataclass_repr {
    ($type:ident, $($field:literal),+) => {
        #[pymethods]
        impl $type {
            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                repr(slf.as_any(), &[$($field),+])
            }
        }
    };
}

/// One file of a plugin source, as a host read it.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct SourceFile {
    pub path: String,
    pub data: Py<PyBytes>,
    pub executable: bool,
}

#[pymethods]
impl SourceFile {
    #[new]
    #[pyo3(signature = (path, data, executable = false))]
    fn new(path: String, data: &Bound<'_, PyAny>, executable: bool) -> PyResult<Self> {
        Ok(SourceFile { path, data: convert::bytes(data)?.unbind(), executable })
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr(slf.as_any(), &["path", "data", "executable"])
    }
}

/// Where a diagnostic points; `line` and `column` are 1-based.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Location {
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}
dataclass_repr!(Location, "file", "line", "column");

/// A finding that does not stop the build.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Diagnostic {
    pub severity: String,
    pub code: String,
    pub message: String,
    pub location: Option<Py<Location>>,
}
dataclass_repr!(Diagnostic, "severity", "code", "message", "location");

/// One row of the honesty report: how a runtime carries one component.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Honesty {
    pub component: String,
    pub name: String,
    pub runtime: String,
    pub kind: String,
    pub level: String,
    pub detail: String,
}
dataclass_repr!(Honesty, "component", "name", "runtime", "kind", "level", "detail");

/// One generated file; `path` is relative to its bundle's root.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct GeneratedFile {
    pub path: String,
    pub data: Py<PyBytes>,
    pub sha256: String,
    pub executable: bool,
    pub template: String,
}
dataclass_repr!(GeneratedFile, "path", "sha256", "executable", "template");

/// One part of a shared file (a marketplace entry, a JSON entry or items, a
/// text section) a bundle owns; `part` is plain data tagged by `"kind"`.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Merge {
    pub path: String,
    pub part: Py<PyAny>,
}
dataclass_repr!(Merge, "path", "part");

/// One runtime's bundle. Files are relative to `root` below the output
/// directory (an empty root: straight into it); `manifest` is the
/// generation manifest's path below the output directory.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Bundle {
    pub runtime: String,
    pub kind: String,
    pub root: String,
    pub manifest: String,
    pub namespace: String,
    pub plugin_name: String,
    pub plugin_version: Option<String>,
    pub files: Vec<Py<GeneratedFile>>,
    pub merges: Vec<Py<Merge>>,
    pub honesty: Vec<Py<Honesty>>,
    pub diagnostics: Vec<Py<Diagnostic>>,
}
dataclass_repr!(Bundle, "runtime", "kind", "root", "namespace", "plugin_name", "plugin_version");

/// A marketplace file a bundle wants its entry in (a view of its merges).
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct MarketplaceEntry {
    pub runtime: String,
    pub path: String,
    pub document: Py<PyAny>,
    pub entry: Py<PyAny>,
}
dataclass_repr!(MarketplaceEntry, "runtime", "path", "entry");

/// What a host found below an output root: sha256 of every file, and the
/// bytes of the files a `paths_to_read()` named.
#[pyclass(module = "plugforge", frozen)]
pub struct Observed {
    pub inner: pf::Observed,
}

#[pymethods]
impl Observed {
    #[new]
    #[pyo3(signature = (hashes = None, contents = None))]
    fn new(
        hashes: Option<BTreeMap<String, String>>,
        contents: Option<BTreeMap<String, Bound<'_, PyAny>>>,
    ) -> PyResult<Self> {
        // Any text but a sha256 (`""`: not hashed) equals no file's hash.
        let hashes = hashes
            .unwrap_or_default()
            .into_iter()
            .map(|(path, sha)| (path, pf::Sha256Digest::from_hex(&sha)));
        let mut inner = pf::Observed { hashes: hashes.collect(), ..Default::default() };
        for (path, data) in contents.unwrap_or_default() {
            inner.contents.insert(path, convert::bytes(&data)?.as_bytes().into());
        }
        Ok(Observed { inner })
    }

    #[getter]
    fn hashes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (path, sha) in &self.inner.hashes {
            dict.set_item(path, sha.map(|sha| sha.to_string()).unwrap_or_default())?;
        }
        Ok(dict)
    }

    #[getter]
    fn contents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (path, bytes) in &self.inner.contents {
            dict.set_item(path, PyBytes::new(py, bytes))?;
        }
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!("Observed({} hashes, {} contents)", self.inner.hashes.len(), self.inner.contents.len())
    }
}

/// One planned file action; `data` holds the bytes to write for create/update.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Action {
    pub path: String,
    pub op: String,
    pub reason: Option<String>,
    pub data: Option<Py<PyBytes>>,
    pub sha256: Option<String>,
    pub executable: bool,
    /// The sha256 the plan saw at `path` (`None`: nothing was there):
    /// `apply_plan` replaces or removes the file only if it still holds it.
    pub found: Option<String>,
}
dataclass_repr!(Action, "path", "op", "reason", "sha256", "executable", "found");

/// How many actions of each op a plan holds.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Summary {
    pub create: usize,
    pub update: usize,
    pub unchanged: usize,
    pub conflict: usize,
    pub remove: usize,
    pub keep: usize,
}
dataclass_repr!(Summary, "create", "update", "unchanged", "conflict", "remove", "keep");

/// Actions in apply order (manifests last). A refused plan (any conflict)
/// must not be applied at all.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Plan {
    pub actions: Vec<Py<Action>>,
    pub refused: bool,
    pub summary: Py<Summary>,
    pub diagnostics: Vec<Py<Diagnostic>>,
    /// How many files applying the plan touches.
    pub writes: usize,
    /// How many of the last actions are bundle manifests: a host applies
    /// them only once every other action has landed (`apply_plan` does).
    pub manifests: usize,
}
dataclass_repr!(Plan, "refused", "summary", "writes", "manifests");

/// One doctor finding, with the command that fixes it.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Finding {
    pub code: String,
    pub severity: String,
    pub runtime: String,
    pub path: String,
    pub message: String,
    pub fix: String,
}
dataclass_repr!(Finding, "code", "severity", "runtime", "path", "message", "fix");

#[pyclass(module = "plugforge", frozen, get_all)]
pub struct DoctorReport {
    pub findings: Vec<Py<Finding>>,
    pub diagnostics: Vec<Py<Diagnostic>>,
    pub healthy: bool,
}
dataclass_repr!(DoctorReport, "healthy", "findings");

/// A build's result. It keeps the core's output, so planning against what
/// is on disk needs no second upload of the source; its bundles become
/// Python objects (their bytes copied into `bytes`) only when first asked
/// for, so `build_to_dir` and a plan-only caller never pay for that copy.
#[pyclass(module = "plugforge", frozen)]
pub struct Build {
    pub output: pf::Output,
    pub bundles: PyOnceLock<Vec<Py<Bundle>>>,
    pub marketplaces: PyOnceLock<Vec<Py<MarketplaceEntry>>>,
    #[pyo3(get)]
    pub diagnostics: Vec<Py<Diagnostic>>,
}

#[pymethods]
impl Build {
    /// One bundle per runtime built, in the order requested.
    #[getter]
    fn bundles(&self, py: Python<'_>) -> PyResult<Vec<Py<Bundle>>> {
        let bundles = self.bundles.get_or_try_init(py, || convert::bundles(py, &self.output))?;
        Ok(bundles.iter().map(|b| b.clone_ref(py)).collect())
    }

    /// The marketplace files the bundles want their entries in.
    #[getter]
    fn marketplaces(&self, py: Python<'_>) -> PyResult<Vec<Py<MarketplaceEntry>>> {
        let entries = self.marketplaces.get_or_try_init(py, || convert::marketplaces(py, &self.output))?;
        Ok(entries.iter().map(|m| m.clone_ref(py)).collect())
    }

    /// `(name, version)` of the generator stamped into the manifests.
    #[getter]
    fn generator(&self) -> (String, String) {
        (self.output.generator.name.clone(), self.output.generator.version.clone())
    }

    /// Requested runtimes that could not be built: `{runtime, kind, error: {code, problems}}`.
    #[getter]
    fn failures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::convert::from_json(py, &serde_json::to_value(&self.output.failures).expect("serializes"))
    }

    /// URLs the author wrote that the bundles carry: `{url, files}`.
    #[getter]
    fn urls<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::convert::from_json(py, &serde_json::to_value(&self.output.urls).expect("serializes"))
    }

    #[getter]
    fn scope(&self) -> &'static str {
        self.output.scope.as_str()
    }

    #[getter]
    fn manifest_name(&self) -> &str {
        &self.output.manifest_name
    }

    /// Shared files the bundles' kinds may hold parts of.
    #[getter]
    fn shared(&self) -> Vec<String> {
        convert::paths(&self.output.shared)
    }

    /// Files whose bytes (not just hashes) `Observed.contents` must hold.
    fn paths_to_read(&self) -> Vec<String> {
        self.output.paths_to_read().iter().map(ToString::to_string).collect()
    }

    /// The plan for writing this build over what `observed` found. New
    /// manifests get `generated_at` (default: `plugforge.generated_at()`,
    /// `SOURCE_DATE_EPOCH` or now: the clock is the host's, not the engine's).
    #[pyo3(signature = (observed, *, force = false, generated_at = None))]
    fn plan(
        &self,
        py: Python<'_>,
        observed: PyRef<'_, Observed>,
        force: bool,
        generated_at: Option<String>,
    ) -> PyResult<Plan> {
        let generated_at = match generated_at {
            Some(time) => time,
            None => py.import("plugforge.host")?.getattr("generated_at")?.call0()?.extract()?,
        };
        let options = pf::PlanOptions { force, generated_at };
        let plan = crate::panic::guard(py, || {
            pf::plan(&self.output, observed.inner.clone(), &options).map_err(|e| to_py(py, e))
        })?;
        convert::plan(py, &plan)
    }

    fn __repr__(&self) -> String {
        let roots: Vec<&str> = self.output.bundles.iter().map(|b| b.root.as_str()).collect();
        format!("Build(bundles={roots:?}, shared={:?})", convert::paths(&self.output.shared))
    }
}
