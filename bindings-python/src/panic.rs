//! No panic crosses into Python as a `PanicException` (a `BaseException`
//! that `except Exception` does not catch). A panic is a bug in plugforge,
//! never a verdict on the input: every engine call runs inside [`guard`],
//! which turns it into a `PlugforgeError` with the stable `.code`
//! `"internal"`. Each call owns its state, so the next call works.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::error::PlugforgeError;

/// The `.code` of the error a panic becomes.
pub const CODE: &str = "internal";

/// Runs `call`; a panic inside it becomes an `internal` `PlugforgeError`.
pub fn guard<T>(py: Python<'_>, call: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(call)).unwrap_or_else(|payload| Err(internal(py, payload.as_ref())))
}

fn internal(py: Python<'_>, payload: &(dyn Any + Send)) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    let err = PlugforgeError::new_err(format!("internal error in plugforge (please report it): {what}"));
    let value = err.value(py);
    match value.setattr("code", CODE).and_then(|()| value.setattr("problems", PyList::empty(py))) {
        Ok(()) => err,
        Err(failure) => failure,
    }
}

/// Test-only and private (not in the stubs or `plugforge.__all__`): panics
/// inside the guard, so a test can show the panic arrives as an `internal`
/// error and the next call works.
#[pyfunction]
pub fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    guard(py, || panic!("deliberate panic of _panic_for_tests"))
}
