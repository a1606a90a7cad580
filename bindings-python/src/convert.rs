//! Python values <-> core types. Options travel through serde (the core's
//! camelCase JSON shape), so every rule about them stays in the core.

use plugforge_core as pf;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::error::to_py;
use crate::types::{
    Action, Build, Bundle, Diagnostic, DoctorReport, Finding, GeneratedFile, Honesty, Location,
    MarketplaceEntry, Merge, Plan, SourceFile, Summary,
};

/// Content as `bytes`: `bytes` as it is, `bytearray` copied, anything else
/// (a `str` above all) refused.
pub fn bytes<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.clone());
    }
    if let Ok(array) = data.cast::<PyByteArray>() {
        return Ok(PyBytes::new(data.py(), &array.to_vec()));
    }
    let kind = data.get_type().name()?;
    Err(PyTypeError::new_err(format!("file content must be bytes, not {kind}")))
}

/// A source from `Mapping[str, bytes]` or an iterable of `SourceFile`.
pub fn source_tree(files: &Bound<'_, PyAny>) -> PyResult<pf::SourceTree> {
    let py = files.py();
    if files.is_instance_of::<PyString>() || files.hasattr("__fspath__")? {
        let hint = "files are contents, not a folder: pass plugforge.read_tree(folder)";
        return Err(PyTypeError::new_err(hint));
    }
    let mut tree = pf::SourceTree::new();
    if let Ok(mapping) = files.cast::<PyMapping>() {
        for item in mapping.items()?.iter() {
            let (path, data): (String, Bound<'_, PyAny>) = item.extract()?;
            tree.insert(&path, bytes(&data)?.as_bytes(), false).map_err(|e| to_py(py, e))?;
        }
        return Ok(tree);
    }
    for item in files.try_iter()? {
        let item = item?;
        let Ok(file) = item.cast::<SourceFile>() else {
            let kind = item.get_type().name()?;
            return Err(PyTypeError::new_err(format!("expected SourceFile items, got {kind}")));
        };
        let file = file.get();
        tree.insert(&file.path, file.data.as_bytes(py), file.executable).map_err(|e| to_py(py, e))?;
    }
    Ok(tree)
}

/// A core source tree as a list of `SourceFile`.
pub fn source_files<'py>(py: Python<'py>, tree: &pf::SourceTree) -> PyResult<Bound<'py, PyList>> {
    let files = tree.iter().map(|(path, file)| SourceFile {
        path: path.to_string(),
        data: PyBytes::new(py, &file.bytes).unbind(),
        executable: file.executable,
    });
    PyList::new(py, files.map(|f| Py::new(py, f)).collect::<PyResult<Vec<_>>>()?)
}

/// Keyword options -> a core options struct. Keys may be snake_case or the
/// core's camelCase; `None` means the default; tuples stand for the core's
/// objects (`targets=[("claude-code", "plugin")]`, `generator=(name, version)`).
pub fn options<T: DeserializeOwned>(
    py: Python<'_>,
    kwargs: Option<&Bound<'_, PyDict>>,
    what: &str,
) -> PyResult<T> {
    let mut map = Map::new();
    for (key, value) in kwargs.into_iter().flat_map(|k| k.iter()) {
        if !value.is_none() {
            map.insert(camel(&key.extract::<String>()?), to_json(&value)?);
        }
    }
    if let Some(targets) = map.get_mut("targets") {
        *targets = list(targets.take()).into_iter().map(target).collect();
    }
    if let Some(runtimes) = map.get_mut("runtimes") {
        *runtimes = Value::Array(list(runtimes.take()));
    }
    if let Some(Value::Array(pair)) = map.get("generator") {
        map.insert("generator".into(), json!({"name": pair.first(), "version": pair.get(1)}));
    }
    serde_json::from_value(Value::Object(map)).map_err(|e| {
        let message = format!("invalid {what} options: {}", snake_names(&e.to_string()));
        to_py(py, pf::Error::new(pf::ErrorCode::InvalidOptions, message))
    })
}

/// serde names fields in backticks, camelCase; Python callers know them in snake_case.
fn snake_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 0 {
            out.push_str(part);
            continue;
        }
        for c in part.chars() {
            if c.is_ascii_uppercase() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

/// A lone value stands for a one-item list.
fn list(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items,
        other => vec![other],
    }
}

/// `"runtime"` or `("runtime", kind)` -> `{"runtime", "kind"}`.
fn target(value: Value) -> Value {
    match value {
        Value::String(runtime) => json!({ "runtime": runtime }),
        Value::Array(pair) => json!({"runtime": pair.first(), "kind": pair.get(1)}),
        other => other,
    }
}

/// Plain Python data (None, bool, int, float, str, list, tuple, dict) as JSON.
pub fn to_json(value: &Bound<'_, PyAny>) -> PyResult<Value> {
    if value.is_none() {
        Ok(Value::Null)
    } else if let Ok(b) = value.cast::<PyBool>() {
        Ok(Value::Bool(b.is_true()))
    } else if value.is_instance_of::<PyInt>() {
        Ok(value.extract::<i64>().map(Value::from).or_else(|_| value.extract::<u64>().map(Value::from))?)
    } else if value.is_instance_of::<PyFloat>() {
        Ok(json!(value.extract::<f64>()?))
    } else if let Ok(s) = value.cast::<PyString>() {
        Ok(Value::String(s.to_cow()?.into_owned()))
    } else if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in dict.iter() {
            map.insert(k.extract::<String>()?, to_json(&v)?);
        }
        Ok(Value::Object(map))
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        value.try_iter()?.map(|item| to_json(&item?)).collect::<PyResult<Vec<_>>>().map(Value::Array)
    } else {
        let kind = value.get_type().name()?;
        Err(PyTypeError::new_err(format!("option values must be plain data, not {kind}")))
    }
}

/// JSON as plain Python data.
pub fn from_json<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            PyList::new(py, items.iter().map(|v| from_json(py, v)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, from_json(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// A serde enum's lowercase name (`Op::Create` -> `"create"`).
fn label<T: Serialize>(value: T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => s,
        _ => String::new(),
    }
}

fn diagnostics(py: Python<'_>, items: &[pf::Diagnostic]) -> PyResult<Vec<Py<Diagnostic>>> {
    items.iter().map(|d| Py::new(py, diagnostic(py, d)?)).collect()
}

fn diagnostic(py: Python<'_>, d: &pf::Diagnostic) -> PyResult<Diagnostic> {
    let location = match &d.location {
        Some(l) => Some(Py::new(py, Location { file: l.file.clone(), line: l.line, column: l.column })?),
        None => None,
    };
    Ok(Diagnostic { severity: label(d.severity), code: d.code.into(), message: d.message.clone(), location })
}

fn bundle(py: Python<'_>, b: &pf::Bundle) -> PyResult<Bundle> {
    let files = b.files.iter().map(|(path, f)| {
        let data = PyBytes::new(py, &f.bytes).unbind();
        let (sha256, template) = (f.sha256.to_string(), f.template.clone());
        Py::new(
            py,
            GeneratedFile { path: path.to_string(), data, sha256, executable: f.executable, template },
        )
    });
    let honesty = b.honesty.iter().map(|h| {
        let (component, runtime, kind) = (h.component.into(), h.runtime.into(), h.kind.into());
        let (name, detail, level) = (h.name.clone(), h.detail.clone(), label(h.level));
        Py::new(py, Honesty { component, name, runtime, kind, level, detail })
    });
    let merges = b.merges.iter().map(|m| {
        let part = serde_json::to_value(&m.part).unwrap_or_default();
        Py::new(py, Merge { path: m.path.to_string(), part: from_json(py, &part)?.unbind() })
    });
    Ok(Bundle {
        runtime: b.runtime.into(),
        kind: b.kind.into(),
        root: b.root.clone(),
        manifest: b.manifest.to_string(),
        namespace: b.namespace.clone(),
        plugin_name: b.plugin_name.clone(),
        plugin_version: b.plugin_version.clone(),
        files: files.collect::<PyResult<_>>()?,
        merges: merges.collect::<PyResult<_>>()?,
        honesty: honesty.collect::<PyResult<_>>()?,
        diagnostics: diagnostics(py, &b.diagnostics)?,
    })
}

pub fn build(py: Python<'_>, output: pf::Output) -> PyResult<Build> {
    let diagnostics = diagnostics(py, &output.diagnostics)?;
    Ok(Build { output, bundles: PyOnceLock::new(), marketplaces: PyOnceLock::new(), diagnostics })
}

/// The Python objects of `output`'s bundles (`Build.bundles`).
pub fn bundles(py: Python<'_>, output: &pf::Output) -> PyResult<Vec<Py<Bundle>>> {
    output.bundles.iter().map(|b| Py::new(py, bundle(py, b)?)).collect()
}

/// The marketplace entries of `output`'s bundles (`Build.marketplaces`).
pub fn marketplaces(py: Python<'_>, output: &pf::Output) -> PyResult<Vec<Py<MarketplaceEntry>>> {
    let marketplaces = output.bundles.iter().flat_map(|b| b.merges.iter().map(move |m| (b.runtime, m)));
    let marketplaces = marketplaces.filter_map(|(runtime, m)| match &m.part {
        pf::Part::MarketplaceEntry { document, entry } => Some((|| {
            let (document, entry) = (from_json(py, document)?.unbind(), from_json(py, entry)?.unbind());
            Py::new(
                py,
                MarketplaceEntry { runtime: runtime.into(), path: m.path.to_string(), document, entry },
            )
        })()),
        _ => None,
    });
    marketplaces.collect()
}

pub fn plan(py: Python<'_>, plan: &pf::Plan) -> PyResult<Plan> {
    let actions = plan.actions.iter().map(|a| {
        Py::new(
            py,
            Action {
                path: a.path.to_string(),
                op: label(a.op),
                reason: a.reason.clone(),
                data: a.bytes.as_ref().map(|b| PyBytes::new(py, b).unbind()),
                sha256: a.sha256.map(|sha| sha.to_string()),
                executable: a.executable,
                found: a.found.map(|sha| sha.to_string()),
            },
        )
    });
    let s = &plan.summary;
    let summary = Summary {
        create: s.create,
        update: s.update,
        unchanged: s.unchanged,
        conflict: s.conflict,
        remove: s.remove,
        keep: s.keep,
    };
    Ok(Plan {
        actions: actions.collect::<PyResult<_>>()?,
        refused: plan.refused,
        summary: Py::new(py, summary)?,
        diagnostics: diagnostics(py, &plan.diagnostics)?,
        writes: plan.writes(),
        manifests: plan.manifests,
    })
}

pub fn doctor_report(py: Python<'_>, report: &pf::DoctorReport) -> PyResult<DoctorReport> {
    let findings = report.findings.iter().map(|f| {
        let finding = Finding {
            code: f.code.as_str().into(),
            severity: label(f.severity),
            runtime: f.runtime.clone(),
            path: f.path.clone(),
            message: f.message.clone(),
            fix: f.fix.clone(),
        };
        Py::new(py, finding)
    });
    Ok(DoctorReport {
        findings: findings.collect::<PyResult<_>>()?,
        diagnostics: diagnostics(py, &report.diagnostics)?,
        healthy: report.healthy(),
    })
}

pub fn paths(paths: &[pf::BundlePath]) -> Vec<String> {
    paths.iter().map(ToString::to_string).collect()
}
