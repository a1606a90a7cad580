//! The filesystem side of `plugforge.host`, in Rust: the very reader, writer and clock
//! the `plugforge` binary uses (plugforge-host-fs), so every host
//! confines reads to the source root, refuses symlinked output folders and
//! sweeps the temp files of an interrupted run the same way.

use std::path::PathBuf;

use plugforge_core::{Error, ErrorCode};
use plugforge_host_fs::{self as host_fs, Expect, FileWrite, HostError, Step, Writer};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert;
use crate::error;
use crate::types::{Action, Observed};

/// `OSError` for I/O (worded as the binary words it), `InvalidPathError` for a bad path.
fn to_py(py: Python<'_>, error: HostError) -> PyErr {
    match error {
        // A file changed while the plan was applied is an I/O outcome here,
        // named in the message as the binary names it.
        HostError::Io(message) | HostError::Changed(message) => PyOSError::new_err(message),
        HostError::InvalidPath(message) => error::to_py(py, Error::new(ErrorCode::InvalidPath, message)),
    }
}

/// `read_tree` of `plugforge.host`: every file below `directory`, never leaving it.
#[pyfunction(name = "_host_read_tree")]
pub fn host_read_tree<'py>(
    py: Python<'py>,
    directory: PathBuf,
    exclude: Vec<PathBuf>,
) -> PyResult<Bound<'py, PyList>> {
    let tree = py.detach(|| host_fs::read_tree(&directory, &exclude)).map_err(|e| to_py(py, e))?;
    convert::source_files(py, &tree)
}

/// `observe` of `plugforge.host`: sha256 of every file below `root`, bytes of `paths_to_read`.
#[pyfunction(name = "_host_observe")]
pub fn host_observe(py: Python<'_>, root: PathBuf, paths_to_read: Vec<String>) -> PyResult<Observed> {
    let to_read: Vec<&str> = paths_to_read.iter().map(String::as_str).collect();
    let inner = py.detach(|| host_fs::observe(&root, &to_read)).map_err(|e| to_py(py, e))?;
    Ok(Observed { inner })
}

/// `apply_plan` of `plugforge.host` once the plan is known not to be refused:
/// `manifests` is the plan's count of manifests at the end of `actions`.
/// Without one (a list of actions not from one plan), each action lands,
/// flushed, before the next starts: slower, and as safe. The bytes are read
/// where they are (a `bytes` object is immutable) and the writes run without
/// the GIL.
#[pyfunction(name = "_host_apply")]
#[pyo3(signature = (root, actions, manifests = None))]
pub fn host_apply(
    py: Python<'_>,
    root: PathBuf,
    actions: Vec<PyRef<'_, Action>>,
    manifests: Option<usize>,
) -> PyResult<()> {
    // A plan's actions carry what it saw: each file is replaced or removed
    // only if it still holds that (an edit made meanwhile is left alone and
    // named). Actions from no plan take whatever is there.
    let planned = manifests.is_some();
    let expects = actions
        .iter()
        .map(|action| {
            Expect::of_action(&action.path, action.found.as_deref(), planned).map_err(PyValueError::new_err)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let steps =
        actions.iter().zip(expects).map(|(action, expect)| match (action.op.as_str(), &action.data) {
            ("create" | "update", Some(data)) => {
                let bytes = data.as_bytes(py);
                Step::Write(FileWrite { path: &action.path, bytes, executable: action.executable, expect })
            }
            ("remove", _) => Step::Remove { path: &action.path, expect },
            _ => Step::Keep { path: &action.path },
        });
    let steps = match manifests {
        Some(manifests) => host_fs::manifests_last(steps.collect(), manifests),
        None => steps.flat_map(|step| [step, Step::Barrier]).collect(),
    };
    py.detach(|| {
        HELD.with(|held| {
            let mut held = held.borrow_mut();
            match held.iter_mut().rev().find(|(locked, _)| *locked == root) {
                Some((_, writer)) => writer.apply(&root, &steps),
                None => Writer::new().apply(&root, &steps),
            }
        })
    })
    .map_err(|e| to_py(py, e))
}

thread_local! {
    /// The writers of the output roots this thread holds the lock of
    /// (`_host_locked`), so `_host_apply` below one writes under that lock
    /// instead of waiting for it.
    static HELD: std::cell::RefCell<Vec<(PathBuf, Writer)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `with_lock` of `plugforge.host`: takes the output root's lock (waiting for
/// another run that holds it, saying so on stderr, as the binary does),
/// finishes what an interrupted run's journal names, calls `run` (observe,
/// plan, apply) and lets go: no other run plans over or writes the root
/// between what this one observes and what it writes.
#[pyfunction(name = "_host_locked")]
pub fn host_locked(py: Python<'_>, root: PathBuf, run: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let mut writer = Writer::new();
    py.detach(|| writer.lock(&root, &mut |message| eprintln!("plugforge: {message}")))
        .map_err(|e| to_py(py, e))?;
    HELD.with(|held| held.borrow_mut().push((root.clone(), writer)));
    let result = run.call0().map(Bound::unbind);
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        if let Some(at) = held.iter().rposition(|(locked, _)| *locked == root) {
            held.remove(at);
        }
    });
    result
}

/// `create_files` of `plugforge.host`: new files below `directory` (a starter source).
#[pyfunction(name = "_host_create_files")]
pub fn host_create_files(py: Python<'_>, directory: PathBuf, files: &Bound<'_, PyAny>) -> PyResult<()> {
    let tree = convert::source_tree(files)?;
    Writer::new().create_files(&directory, &tree).map_err(|e| to_py(py, e))
}

/// `generated_at` of `plugforge.host`: the clock the `plugforge` binary stamps
/// new manifests with (`SOURCE_DATE_EPOCH` when set, else now; RFC 3339 UTC).
#[pyfunction(name = "_host_generated_at")]
pub fn host_generated_at() -> String {
    host_fs::generated_at()
}
