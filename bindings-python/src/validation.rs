//! `validate`, `import_plugin` and `rules`: the functions and their frozen
//! result classes, named as in the core's JSON report
//! (`schema/validate-report.schema.json`) in snake_case.

use plugforge_core as pf;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert;
use crate::error::to_py;
use crate::types::{Location, repr};

/// What `validate` judged: detected from a marker file, or named by `target`.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Subject {
    /// `"source"`, `"marketplace"` or `"plugin"`.
    pub kind: String,
    /// `None` for a plugforge source judged for every runtime it targets.
    pub runtime: Option<String>,
    /// Folder relative to the validated folder (`""`: itself).
    pub root: String,
    /// The file that identified it, or `"--target"`.
    pub marker: String,
}

/// One broken rule at one place; `file` is relative to the validated folder.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct ValidationFinding {
    pub code: String,
    /// Effective severity (`"error"` or `"warning"`): with `strict`, always `"error"`.
    pub severity: String,
    pub runtime: Option<String>,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
    pub fix: String,
}

/// The verdict over a folder; `as_dict()` is the `report` of `plugforge validate --json`.
#[pyclass(module = "plugforge", frozen)]
pub struct ValidationReport {
    report: pf::ValidationReport,
    #[pyo3(get)]
    subjects: Vec<Py<Subject>>,
    #[pyo3(get)]
    findings: Vec<Py<ValidationFinding>>,
}

#[pymethods]
impl ValidationReport {
    /// `"plugforge.validate.v1"`.
    #[getter]
    fn schema(&self) -> &'static str {
        self.report.schema
    }

    /// No errors (with `strict`, no warnings either).
    #[getter]
    fn valid(&self) -> bool {
        self.report.valid
    }

    #[getter]
    fn strict(&self) -> bool {
        self.report.strict
    }

    #[getter]
    fn errors(&self) -> usize {
        self.report.errors
    }

    #[getter]
    fn warnings(&self) -> usize {
        self.report.warnings
    }

    /// The report as plain data in its JSON shape (camelCase keys, absent fields left out).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::from_json(py, &serde_json::to_value(&self.report).unwrap_or_default())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr(slf.as_any(), &["valid", "errors", "warnings", "findings"])
    }
}

/// One rule of the catalog (`docs/rules.md`).
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Rule {
    pub code: String,
    /// The rule's own severity, before `strict`.
    pub severity: String,
    /// Runtime ids the rule judges; empty: every runtime.
    pub runtimes: Vec<String>,
    pub summary: String,
    pub fix: String,
}

/// A runtime the engine writes for (`runtimes()`).
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct RuntimeInfo {
    /// The id `--target` takes and reports carry.
    pub id: String,
    /// Its name in messages and documentation.
    pub name: String,
    /// Its artifact kinds, default first.
    pub kinds: Vec<String>,
    /// Whether `--target all` builds it.
    pub in_target_all: bool,
    /// The file that marks a folder as its plugin (`validate` looks for it).
    pub marker: Option<String>,
    /// Its marketplace file (`validate` looks for it too).
    pub marketplace: Option<String>,
}

/// Something of the native plugin the canonical source does not carry.
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct ImportNote {
    /// Stable snake_case identifier, e.g. `"unknown_field"`.
    pub code: String,
    pub location: Py<Location>,
    pub message: String,
}

/// A native plugin read into a canonical source (`files`, with `plugforge.json`).
#[pyclass(module = "plugforge", frozen, get_all)]
pub struct Imported {
    pub runtime: String,
    pub files: Py<PyList>,
    pub notes: Vec<Py<ImportNote>>,
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
dataclass_repr!(Subject, "kind", "runtime", "root", "marker");
dataclass_repr!(ValidationFinding, "code", "severity", "runtime", "file", "line", "column", "message");
dataclass_repr!(Rule, "code", "severity", "runtimes");
dataclass_repr!(RuntimeInfo, "id", "name", "kinds");
dataclass_repr!(ImportNote, "code", "location", "message");
dataclass_repr!(Imported, "runtime", "notes");

fn severity(severity: pf::RuleSeverity) -> String {
    match severity {
        pf::RuleSeverity::Error => "error",
        pf::RuleSeverity::Warning => "warning",
    }
    .into()
}

fn subject(s: &pf::Subject) -> Subject {
    let kind = s.kind.id();
    let runtime = s.runtime.map(|r| r.id().to_string());
    Subject { kind: kind.into(), runtime, root: s.root.clone(), marker: s.marker.clone() }
}

fn finding(f: &pf::Diagnostic) -> ValidationFinding {
    let severity = match f.severity {
        pf::Severity::Error => "error",
        pf::Severity::Warning | pf::Severity::Info => "warning",
    };
    ValidationFinding {
        code: f.code.into(),
        severity: severity.into(),
        runtime: f.runtime.map(Into::into),
        file: f.file().map(Into::into),
        line: f.line(),
        column: f.column(),
        message: f.message.clone(),
        fix: f.fix.unwrap_or_default().into(),
    }
}

/// Judges a plugin folder given as files (a plugforge source, any runtime's
/// plugin, a marketplace root). Raises only for an unknown `target`; every
/// problem of the folder is a finding.
#[pyfunction]
#[pyo3(signature = (files, *, target = None, strict = false))]
pub fn validate(
    py: Python<'_>,
    files: &Bound<'_, PyAny>,
    target: Option<String>,
    strict: bool,
) -> PyResult<ValidationReport> {
    let tree = convert::source_tree(files)?;
    let report = crate::panic::guard(py, || {
        pf::validate(&tree, &pf::ValidateOptions { target, strict }).map_err(|e| to_py(py, e))
    })?;
    let subjects = report.subjects.iter().map(|s| Py::new(py, subject(s))).collect::<PyResult<_>>()?;
    let findings = report.findings.iter().map(|f| Py::new(py, finding(f))).collect::<PyResult<_>>()?;
    Ok(ValidationReport { report, subjects, findings })
}

/// Reads a native plugin (Claude Code, Codex, Gemini CLI, Cursor, Agent
/// Plugins) into a canonical source; `from_runtime` names its runtime
/// (default: detected from its marker file), `name` the plugin (needed for a
/// Claude Code plugin without a manifest). Nothing is written.
#[pyfunction]
#[pyo3(signature = (files, *, from_runtime = None, name = None))]
pub fn import_plugin(
    py: Python<'_>,
    files: &Bound<'_, PyAny>,
    from_runtime: Option<String>,
    name: Option<String>,
) -> PyResult<Imported> {
    let tree = convert::source_tree(files)?;
    let options = import_options(py, from_runtime, name)?;
    let imported = crate::panic::guard(py, || pf::import(&tree, &options).map_err(|e| to_py(py, e)))?;
    let notes = imported.notes.iter().map(|n| {
        let (file, line, column) = (n.file().unwrap_or_default().to_string(), n.line(), n.column());
        let location = Py::new(py, Location { file, line, column })?;
        Py::new(py, ImportNote { code: n.code.into(), location, message: n.message.clone() })
    });
    Ok(Imported {
        runtime: imported.runtime.id().into(),
        files: convert::source_files(py, &imported.source)?.unbind(),
        notes: notes.collect::<PyResult<_>>()?,
    })
}

/// The core's import options, through its JSON shape: a `name` the core
/// does not know is refused there as `invalid_options`, never dropped here.
fn import_options(py: Python<'_>, from: Option<String>, name: Option<String>) -> PyResult<pf::ImportOptions> {
    let options = pyo3::types::PyDict::new(py);
    options.set_item("from", from)?;
    options.set_item("name", name)?;
    convert::options(py, Some(&options), "import")
}

/// Every rule `validate` can report, in catalog order.
#[pyfunction]
pub fn rules(py: Python<'_>) -> PyResult<Vec<Py<Rule>>> {
    let rule = |r: &pf::Rule| Rule {
        code: r.code.into(),
        severity: severity(r.severity),
        runtimes: r.runtimes.iter().map(|id| id.to_string()).collect(),
        summary: r.summary.into(),
        fix: r.fix.into(),
    };
    pf::rules().into_iter().map(|r| Py::new(py, rule(r))).collect()
}

/// Every runtime the engine writes for, in registry order (the order of
/// `--target all`): its id, name, artifact kinds (default first) and marker files.
#[pyfunction]
pub fn runtimes(py: Python<'_>) -> PyResult<Vec<Py<RuntimeInfo>>> {
    let info = |r: pf::RuntimeInfo| RuntimeInfo {
        id: r.id.into(),
        name: r.name.into(),
        kinds: r.kinds.iter().map(|k| k.to_string()).collect(),
        in_target_all: r.in_target_all,
        marker: r.marker.map(str::to_string),
        marketplace: r.marketplace.map(str::to_string),
    };
    pf::runtimes().into_iter().map(|r| Py::new(py, info(r))).collect()
}

/// Registers the functions and classes on the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(validate, module)?)?;
    module.add_function(wrap_pyfunction!(import_plugin, module)?)?;
    module.add_function(wrap_pyfunction!(rules, module)?)?;
    module.add_function(wrap_pyfunction!(runtimes, module)?)?;
    module.add_class::<Subject>()?;
    module.add_class::<ValidationFinding>()?;
    module.add_class::<ValidationReport>()?;
    module.add_class::<Rule>()?;
    module.add_class::<RuntimeInfo>()?;
    module.add_class::<ImportNote>()?;
    module.add_class::<Imported>()?;
    Ok(())
}
