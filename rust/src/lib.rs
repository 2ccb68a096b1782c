//! irscale's native engine, imported by Python as `irscale._engine`.
//!
//! PyO3 is used at this boundary only: the modules below work on bytes and slices and
//! return `Result`s, converted here into the package's own exceptions.

use pyo3::prelude::*;

/// The engine's build: the crate's name and whether it was compiled with optimisations.
#[pyfunction]
fn build_info() -> (&'static str, bool) {
    (env!("CARGO_PKG_NAME"), !cfg!(debug_assertions))
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    Ok(())
}
