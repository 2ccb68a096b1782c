//! Python's view of the string-column operations (`crate::strings`): a column is its
//! offsets (NumPy int32 or int64) and its UTF-8 data (uint8), read in place
//! (`irscale.core.strings.Strings`).

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use super::columns::GivenStrings;
use super::guard::detached;
use crate::columns::Strings;
use crate::strings;

/// Two arrays handed to Python: `(codes, first)` of an encoding, or `(offsets, data)` of a
/// new column.
type Pair<'py, A, B> = PyResult<(Bound<'py, PyArray1<A>>, Bound<'py, PyArray1<B>>)>;

/// The column's view, checked (offsets in order and within the data).
fn checked<'a>(given: &'a GivenStrings<'_>) -> PyResult<Strings<'a>> {
    let view = given.view()?;
    view.check().map_err(PyValueError::new_err)?;
    Ok(view)
}

/// `(codes, first)` of a column (`crate::strings::encode`), int64.
#[pyfunction]
fn strings_encode<'py>(
    py: Python<'py>,
    offsets: Bound<'py, PyAny>,
    data: Bound<'py, PyAny>,
) -> Pair<'py, i64, i64> {
    let given = GivenStrings::of(&offsets, &data)?;
    let view = checked(&given)?;
    let (codes, first) = detached(py, "encoding strings", || strings::encode(&view))?;
    Ok((codes.into_pyarray(py), first.into_pyarray(py)))
}

/// The rows of a column in the byte order of its strings, stable (int64).
#[pyfunction]
fn strings_order<'py>(
    py: Python<'py>,
    offsets: Bound<'py, PyAny>,
    data: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let given = GivenStrings::of(&offsets, &data)?;
    let view = checked(&given)?;
    let rows = detached(py, "sorting strings", || strings::order(&view))?;
    Ok(rows.into_pyarray(py))
}

/// The row of every string of one column in another, -1 when absent (int64).
#[pyfunction]
fn strings_index_in<'py>(
    py: Python<'py>,
    offsets: Bound<'py, PyAny>,
    data: Bound<'py, PyAny>,
    set_offsets: Bound<'py, PyAny>,
    set_data: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let given = GivenStrings::of(&offsets, &data)?;
    let set = GivenStrings::of(&set_offsets, &set_data)?;
    let (view, set_view) = (checked(&given)?, checked(&set)?);
    let rows = detached(py, "looking strings up", || {
        strings::index_in(&view, &set_view)
    })?;
    Ok(rows.into_pyarray(py))
}

/// The strings of a column at `rows` (int64, each a row of the column): `(offsets, data)`,
/// int64 offsets from 0 and uint8 data.
#[pyfunction]
fn strings_take<'py>(
    py: Python<'py>,
    offsets: Bound<'py, PyAny>,
    data: Bound<'py, PyAny>,
    rows: PyReadonlyArray1<'py, i64>,
) -> Pair<'py, i64, u8> {
    let given = GivenStrings::of(&offsets, &data)?;
    let view = checked(&given)?;
    let rows = rows.as_slice()?;
    let n = view.len() as i64;
    if !rows.iter().all(|&row| (0..n).contains(&row)) {
        return Err(PyIndexError::new_err("rows out of range of the strings"));
    }
    let (offsets, data) = detached(py, "taking strings", || strings::take(&view, rows))?;
    Ok((offsets.into_pyarray(py), data.into_pyarray(py)))
}

/// Whether the strings of two columns of one length are equal, row by row.
#[pyfunction]
fn strings_equal<'py>(
    py: Python<'py>,
    offsets: Bound<'py, PyAny>,
    data: Bound<'py, PyAny>,
    other_offsets: Bound<'py, PyAny>,
    other_data: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let given = GivenStrings::of(&offsets, &data)?;
    let other = GivenStrings::of(&other_offsets, &other_data)?;
    let (left, right) = (checked(&given)?, checked(&other)?);
    if left.len() != right.len() {
        return Err(PyValueError::new_err("string columns of different lengths"));
    }
    let equal = detached(py, "comparing strings", || strings::equal(&left, &right))?;
    Ok(equal.into_pyarray(py))
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(strings_encode, m)?)?;
    m.add_function(wrap_pyfunction!(strings_order, m)?)?;
    m.add_function(wrap_pyfunction!(strings_index_in, m)?)?;
    m.add_function(wrap_pyfunction!(strings_take, m)?)?;
    m.add_function(wrap_pyfunction!(strings_equal, m)?)?;
    Ok(())
}
