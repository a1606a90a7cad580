//! Python binding of plugforge: conversion only; every rule lives in
//! plugforge-core, the command line in plugforge-cli, the filesystem side in
//! plugforge-host-fs. The public package is `plugforge` (python/plugforge),
//! which re-exports this module and adds the pathlib-friendly host helpers.

mod convert;
mod error;
mod fs;
mod panic;
mod types;
mod validation;

use plugforge_core as pf;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::error::to_py;
use crate::types::{Build, DoctorReport, Observed, Plan};

/// The engine's version.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// sha256 of `data` as lowercase hex, as manifests record it.
#[pyfunction]
fn sha256_hex(data: &Bound<'_, PyBytes>) -> String {
    pf::sha256_hex(data.as_bytes())
}

/// Builds every requested bundle from a source (`Mapping[str, bytes]` or
/// `SourceFile`s). Nothing is written: plan and apply the result.
#[pyfunction]
#[pyo3(signature = (files, **options))]
fn build(py: Python<'_>, files: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Build> {
    let tree = convert::source_tree(files)?;
    let options: pf::BuildOptions = convert::options(py, options, "build")?;
    convert::build(py, crate::panic::guard(py, || pf::build(&tree, &options).map_err(|e| to_py(py, e)))?)
}

#[pyfunction]
#[pyo3(signature = (**options))]
fn uninstall_paths_to_read(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<String>> {
    let options: pf::UninstallOptions = convert::options(py, options, "uninstall")?;
    Ok(convert::paths(&crate::panic::guard(py, || {
        pf::uninstall_paths_to_read(&options).map_err(|e| to_py(py, e))
    })?))
}

#[pyfunction]
#[pyo3(signature = (observed, **options))]
fn uninstall_plan(
    py: Python<'_>,
    observed: PyRef<'_, Observed>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Plan> {
    let options: pf::UninstallOptions = convert::options(py, options, "uninstall")?;
    convert::plan(
        py,
        &crate::panic::guard(py, || pf::uninstall_plan(&options, &observed.inner).map_err(|e| to_py(py, e)))?,
    )
}

#[pyfunction]
#[pyo3(signature = (**options))]
fn doctor_paths_to_read(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<String>> {
    let options: pf::DoctorOptions = convert::options(py, options, "doctor")?;
    Ok(convert::paths(&crate::panic::guard(py, || {
        pf::doctor_paths_to_read(&options).map_err(|e| to_py(py, e))
    })?))
}

/// Checks bundles on disk; `build` (a fresh build of the source) also
/// catches output that changed since it was generated.
#[pyfunction]
#[pyo3(signature = (observed, build = None, **options))]
fn doctor(
    py: Python<'_>,
    observed: PyRef<'_, Observed>,
    build: Option<PyRef<'_, Build>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<DoctorReport> {
    let options: pf::DoctorOptions = convert::options(py, options, "doctor")?;
    let desired = build.as_ref().map(|b| &b.output);
    let report =
        crate::panic::guard(py, || pf::doctor(&options, &observed.inner, desired).map_err(|e| to_py(py, e)))?;
    convert::doctor_report(py, &report)
}

/// The starter source `plugforge init` writes, for a kebab-case `name`.
#[pyfunction]
fn starter_source<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyList>> {
    convert::source_files(
        py,
        &crate::panic::guard(py, || pf::starter_source(name).map_err(|e| to_py(py, e)))?,
    )
}

/// Runs the `plugforge` command line (`argv` without the program name) over
/// the local filesystem, writing to this process's stdout and stderr; returns
/// the exit code. `python -m plugforge` is this with `sys.argv[1:]`.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<String>) -> PyResult<u8> {
    // What Python buffered was printed before the run: it goes out first, so
    // the bytes on the descriptors come in the order they were written.
    let sys = py.import("sys")?;
    for stream in ["stdout", "stderr"] {
        let stream = sys.getattr(stream)?;
        if !stream.is_none() {
            stream.call_method0("flush")?;
        }
    }
    // The run reads and writes files only: other Python threads may go on meanwhile.
    crate::panic::guard(py, || Ok(py.detach(|| plugforge_cli::run(argv))))
}

#[pymodule]
fn _plugforge(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(version, module)?)?;
    module.add_function(wrap_pyfunction!(sha256_hex, module)?)?;
    module.add_function(wrap_pyfunction!(build, module)?)?;
    module.add_function(wrap_pyfunction!(uninstall_paths_to_read, module)?)?;
    module.add_function(wrap_pyfunction!(uninstall_plan, module)?)?;
    module.add_function(wrap_pyfunction!(doctor_paths_to_read, module)?)?;
    module.add_function(wrap_pyfunction!(doctor, module)?)?;
    module.add_function(wrap_pyfunction!(starter_source, module)?)?;
    module.add_function(wrap_pyfunction!(run_cli, module)?)?;
    module.add_function(wrap_pyfunction!(fs::host_read_tree, module)?)?;
    module.add_function(wrap_pyfunction!(fs::host_locked, module)?)?;
    module.add_function(wrap_pyfunction!(fs::host_observe, module)?)?;
    module.add_function(wrap_pyfunction!(fs::host_apply, module)?)?;
    module.add_function(wrap_pyfunction!(fs::host_create_files, module)?)?;
    module.add_function(wrap_pyfunction!(fs::host_generated_at, module)?)?;
    module.add_class::<types::SourceFile>()?;
    module.add_class::<types::Location>()?;
    module.add_class::<types::Diagnostic>()?;
    module.add_class::<types::Honesty>()?;
    module.add_class::<types::GeneratedFile>()?;
    module.add_class::<types::Bundle>()?;
    module.add_class::<types::Merge>()?;
    module.add_class::<types::MarketplaceEntry>()?;
    module.add_class::<Build>()?;
    module.add_class::<Observed>()?;
    module.add_class::<types::Action>()?;
    module.add_class::<types::Summary>()?;
    module.add_class::<Plan>()?;
    module.add_class::<types::Finding>()?;
    module.add_class::<DoctorReport>()?;
    // Set, not added: a test-only entry stays out of `__all__` and the stubs.
    module.setattr("_panic_for_tests", wrap_pyfunction!(panic::_panic_for_tests, module)?)?;
    validation::register(module)?;
    error::register(module)
}
