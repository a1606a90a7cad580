//! `plugforge_core::cli::Host` over a Python host object, so `python -m
//! plugforge` runs the very command line the Rust binary runs.

use plugforge_core::cli::{self, Host};
use plugforge_core::{BundlePath, Observed as CoreObserved, Plan as CorePlan, SourceTree};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use crate::convert;
use crate::error::PlugforgeError;
use crate::types::Observed;

/// Runs one command line over `host`; an exception the host raised other
/// than an I/O failure is raised again once the run is over.
pub fn run(argv: &[String], host: Bound<'_, PyAny>) -> PyResult<u8> {
    let mut adapter = PyHost { host, raised: None };
    let code = cli::run(argv, &mut adapter);
    match adapter.raised {
        Some(err) => Err(err),
        None => Ok(code),
    }
}

struct PyHost<'py> {
    host: Bound<'py, PyAny>,
    raised: Option<PyErr>,
}

impl<'py> PyHost<'py> {
    /// `OSError` and plugforge errors become the CLI's I/O failure message;
    /// anything else (a bug, Ctrl-C) is kept to be raised after the run.
    fn io<T>(&mut self, result: PyResult<T>) -> Result<T, String> {
        result.map_err(|err| {
            let py = self.host.py();
            let message = err.value(py).to_string();
            if !err.is_instance_of::<PyOSError>(py) && !err.is_instance_of::<PlugforgeError>(py) {
                self.raised.get_or_insert(err);
            }
            message
        })
    }

    /// For the infallible host methods: a failure is kept and a default used.
    fn quiet<T: Default>(&mut self, result: PyResult<T>) -> T {
        result.unwrap_or_else(|err| {
            self.raised.get_or_insert(err);
            T::default()
        })
    }

    fn call(&self, name: &str, args: impl pyo3::call::PyCallArgs<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.host.call_method1(name, args)
    }
}

impl Host for PyHost<'_> {
    fn read_tree(&mut self, dir: &str, exclude: &[String]) -> Result<SourceTree, String> {
        let files = self.host.call_method1("read_tree", (dir, exclude.to_vec()));
        let tree = files.and_then(|files| convert::source_tree(&files));
        self.io(tree)
    }

    fn observe(&mut self, root: &str, to_read: &[BundlePath]) -> Result<CoreObserved, String> {
        let observed = self.host.call_method1("observe", (root, convert::paths(to_read)));
        let observed = observed.and_then(|o| Ok(o.cast::<Observed>()?.get().inner.clone()));
        self.io(observed)
    }

    fn apply(&mut self, root: &str, plan: &CorePlan) -> Result<(), String> {
        let py = self.host.py();
        let applied = convert::plan(py, plan).and_then(|plan| self.call("apply", (root, plan)).map(drop));
        self.io(applied)
    }

    fn create_files(&mut self, dir: &str, tree: &SourceTree) -> Result<(), String> {
        let py = self.host.py();
        let files = convert::source_files(py, tree);
        let created = files.and_then(|files| self.call("create_files", (dir, files)).map(drop));
        self.io(created)
    }

    fn exists(&mut self, path: &str) -> bool {
        let exists = self.call("exists", (path,)).and_then(|v| v.is_truthy());
        self.quiet(exists)
    }

    fn generated_at(&mut self) -> String {
        let now = self.call("generated_at", ()).and_then(|v| v.extract());
        self.quiet(now)
    }

    fn home_dir(&mut self) -> Option<String> {
        let home = self.call("home_dir", ()).and_then(|v| v.extract());
        self.quiet(home)
    }

    fn folder_name(&mut self, dir: &str) -> Option<String> {
        let name = self.call("folder_name", (dir,)).and_then(|v| v.extract());
        self.quiet(name)
    }

    fn stdout(&mut self, text: &str) {
        let written = self.call("stdout", (text,)).map(drop);
        self.quiet(written)
    }

    fn stderr(&mut self, text: &str) {
        let written = self.call("stderr", (text,)).map(drop);
        self.quiet(written)
    }

    fn color(&mut self) -> bool {
        let color = self.call("color", ()).and_then(|v| v.is_truthy());
        self.quiet(color)
    }
}
