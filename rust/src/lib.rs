//! irscale's native engine, imported by Python as `irscale._engine`.
//!
//! PyO3 is used at the boundary only (`bind`): the other modules work on bytes and slices
//! and return `Result`s, converted there into Python values and the package's exceptions.

pub mod aside;
mod bind;
pub mod bounds;
pub mod columns;
pub mod dicts;
pub mod diversity;
pub mod judge;
pub mod judged;
pub mod measures;
pub mod output;
pub mod read;
pub mod scales;
pub mod strings;
pub mod tie_aware;
pub mod ties;
pub mod trec;

use pyo3::prelude::*;

/// The engine's build: the crate's name and whether it was compiled with optimisations.
#[pyfunction]
fn build_info() -> (&'static str, bool) {
    (env!("CARGO_PKG_NAME"), !cfg!(debug_assertions))
}

/// A panic reaches Python as `PanicException` with its message; Rust's own report of it
/// (a `thread panicked` block on stderr) is printed only where `IRSCALE_DEBUG` is set.
fn quiet_panics() {
    if std::env::var_os("IRSCALE_DEBUG").is_none() {
        std::panic::set_hook(Box::new(|_| {}));
    }
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    quiet_panics();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    bind::measures::register(m)?;
    bind::bounds::register(m)?;
    bind::trec::register(m)?;
    bind::diversity::register(m)?;
    bind::dicts::register(m)?;
    bind::columns::register(m)?;
    bind::output::register(m)?;
    bind::scales::register(m)?;
    bind::strings::register(m)?;
    bind::table::register(m)?;
    Ok(())
}
