//! The wall between the engine and Python: work runs without the GIL, and a panic of the
//! engine (a bug) becomes the package's internal error, never a crash or a Python
//! `PanicException` (which escapes `except Exception`).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The error for a panic of the engine while it was doing `what`.
pub fn internal(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "irscale: internal error of the native engine while {what}"
    ))
}

/// `work` without the GIL; a panic is the internal error of [`internal`].
pub fn detached<T: Send>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|_| internal(what))
}
