//! The exception classes, and the ONE function turning a core error into one.

use plugforge_core::{Error, ErrorCode};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

create_exception!(
    plugforge,
    PlugforgeError,
    PyException,
    "Any engine error: `.code` is the stable code string, `.problems` every problem found."
);
create_exception!(
    plugforge,
    InvalidSourceError,
    PlugforgeError,
    "`invalid_source`: the plugin source is malformed."
);
create_exception!(
    plugforge,
    InvalidPathError,
    PlugforgeError,
    "`invalid_path`: a path is not a clean relative path."
);
create_exception!(plugforge, TemplateError, PlugforgeError, "`template`: a `.j2` file failed to render.");
create_exception!(
    plugforge,
    UnsupportedRuntimeError,
    PlugforgeError,
    "`unsupported_runtime`: unknown runtime."
);
create_exception!(
    plugforge,
    UnsupportedKindError,
    PlugforgeError,
    "`unsupported_kind`: unknown artifact kind."
);
create_exception!(
    plugforge,
    UrlNotAllowedError,
    PlugforgeError,
    "`url_not_allowed`: a URL outside the allowlist."
);
create_exception!(plugforge, InvalidOptionsError, PlugforgeError, "`invalid_options`: inconsistent options.");
create_exception!(
    plugforge,
    InvalidManifestError,
    PlugforgeError,
    "`invalid_manifest`: an unreadable manifest."
);
create_exception!(
    plugforge,
    CredentialError,
    PlugforgeError,
    "`credential`: the source holds a literal credential."
);
create_exception!(
    plugforge,
    LimitError,
    PlugforgeError,
    "`limit`: an input over one of the engine's bounds."
);

/// The exception for a core error: the class of its code, `str()` the full
/// message, `.code` the code string, `.problems` a list of
/// `{"message", "location": {"file", "line", "column"} | None}`.
pub fn to_py(py: Python<'_>, error: Error) -> PyErr {
    let message = error.message();
    let err = match error.code {
        ErrorCode::InvalidSource => InvalidSourceError::new_err(message),
        ErrorCode::InvalidPath => InvalidPathError::new_err(message),
        ErrorCode::Template => TemplateError::new_err(message),
        ErrorCode::UnsupportedRuntime => UnsupportedRuntimeError::new_err(message),
        ErrorCode::UnsupportedKind => UnsupportedKindError::new_err(message),
        ErrorCode::UrlNotAllowed => UrlNotAllowedError::new_err(message),
        ErrorCode::InvalidOptions => InvalidOptionsError::new_err(message),
        ErrorCode::InvalidManifest => InvalidManifestError::new_err(message),
        ErrorCode::Credential => CredentialError::new_err(message),
        ErrorCode::Limit => LimitError::new_err(message),
        _ => PlugforgeError::new_err(message),
    };
    match attach(py, &err, &error) {
        Ok(()) => err,
        Err(failure) => failure,
    }
}

fn attach(py: Python<'_>, err: &PyErr, error: &Error) -> PyResult<()> {
    let problems = PyList::empty(py);
    for problem in &error.problems {
        let item = PyDict::new(py);
        item.set_item("message", &problem.message)?;
        let location = match &problem.location {
            Some(l) => {
                let location = PyDict::new(py);
                location.set_item("file", &l.file)?;
                location.set_item("line", l.line)?;
                location.set_item("column", l.column)?;
                location.into_any()
            }
            None => py.None().into_bound(py),
        };
        item.set_item("location", location)?;
        problems.append(item)?;
    }
    let value = err.value(py);
    value.setattr("code", error.code.as_str())?;
    value.setattr("problems", problems)
}

/// Registers every exception class on the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("PlugforgeError", py.get_type::<PlugforgeError>())?;
    module.add("InvalidSourceError", py.get_type::<InvalidSourceError>())?;
    module.add("InvalidPathError", py.get_type::<InvalidPathError>())?;
    module.add("TemplateError", py.get_type::<TemplateError>())?;
    module.add("UnsupportedRuntimeError", py.get_type::<UnsupportedRuntimeError>())?;
    module.add("UnsupportedKindError", py.get_type::<UnsupportedKindError>())?;
    module.add("UrlNotAllowedError", py.get_type::<UrlNotAllowedError>())?;
    module.add("InvalidOptionsError", py.get_type::<InvalidOptionsError>())?;
    module.add("InvalidManifestError", py.get_type::<InvalidManifestError>())?;
    module.add("CredentialError", py.get_type::<CredentialError>())?;
    module.add("LimitError", py.get_type::<LimitError>())
}
