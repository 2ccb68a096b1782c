//! Python's view of the reader of whitespace-separated fields (`crate::read::table`): a
//! file's bytes or path in, its asked fields out as NumPy arrays (a text field as the
//! int64 offsets and uint8 data of `irscale.core.strings.Strings`).

use numpy::IntoPyArray;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::guard::detached;
use super::trec::{Given, read_error, reading, stop_for};
use crate::read::limits::Budget;
use crate::read::plain_table as plain;
use crate::read::table::{self, Column, Fault, FieldKind};
use crate::trec::{self, Data, File};

/// The fields asked of every data line of a file (its bytes or its path, plain or gzip:
/// decompressed here) whose lines hold `count` fields separated by runs of blanks and
/// tabs; `asked`: `(index, kind)` of each field read, kind `"str"`, `"float"` or
/// `"int"`; `limit`: the bytes its text may take ([`crate::read::limits`]); `decompress`:
/// gzip bytes are decompressed (false: the bytes are the text already, decompressed and
/// checked by the caller). Returns `(fault, rows, columns)`: `fault` is `None`, or `"misfit"` (a line
/// does not fit: the caller diagnoses the text), `"nul"` (a NUL byte in a line) or
/// `"empty"` (no data line), with no columns; a column is a float64 or int64 array, or
/// `(offsets, data)` for text. A file that cannot be read or decompressed raises
/// `TrecReadError`.
#[pyfunction]
#[pyo3(signature = (source, name, count, asked, limit, decompress=true))]
fn read_fields<'py>(
    py: Python<'py>,
    source: Bound<'py, PyAny>,
    name: &str,
    count: usize,
    asked: Vec<(usize, String)>,
    limit: usize,
    decompress: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let asked = asked
        .into_iter()
        .map(|(index, kind)| {
            let kind = match kind.as_str() {
                "str" => FieldKind::Text,
                "float" => FieldKind::Float,
                "int" => FieldKind::Int,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "unknown field kind {kind:?}"
                    )));
                }
            };
            if index >= count {
                return Err(PyValueError::new_err(format!(
                    "field {index} asked of lines of {count} fields"
                )));
            }
            Ok((index, kind))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let given = Given::of(&source)?;
    let stop = stop_for([&given]);
    let file = File {
        data: given.data(&stop),
        name,
    };
    let budget = Budget::new(limit);
    let read = reading(py, "reading fields", &stop, || match file.data {
        Data::Bytes(text) if !decompress => Ok(table::read(text, count, &asked)),
        _ => trec::text(&file, &budget).map(|text| table::read(&text, count, &asked)),
    })?
    .map_err(|error| read_error(error.into()))?;
    let table = match read {
        Ok(table) => table,
        Err(fault) => {
            let fault = match fault {
                Fault::Misfit => "misfit",
                Fault::Nul => "nul",
                Fault::Empty => "empty",
            };
            return (fault, 0usize, Vec::<Py<PyAny>>::new()).into_pyobject(py);
        }
    };
    let columns = table
        .columns
        .into_iter()
        .map(|column| -> PyResult<Py<PyAny>> {
            Ok(match column {
                Column::Text { offsets, data } => (offsets.into_pyarray(py), data.into_pyarray(py))
                    .into_pyobject(py)?
                    .into_any()
                    .unbind(),
                Column::Float(values) => values.into_pyarray(py).into_any().unbind(),
                Column::Int(values) => values.into_pyarray(py).into_any().unbind(),
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    (None::<&str>, table.rows, columns).into_pyobject(py)
}

/// The quick check of a per-user table (`crate::read::plain_table`): `text` its bytes,
/// `body` the offset of its first row, `sep` its separator, `numeric[k]` whether column k
/// holds numbers, `user` the index of the user column. Returns `None` when the table is
/// not plain, else `(starts, ends, distinct)`: the int64 offsets of its rows' starts and
/// ends, and whether its users are known to be distinct.
#[pyfunction]
#[pyo3(signature = (text, body, sep, numeric, user=None))]
fn plain_table<'py>(
    py: Python<'py>,
    text: &[u8],
    body: usize,
    sep: u8,
    numeric: Vec<bool>,
    user: Option<usize>,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    if user.is_some_and(|column| column >= numeric.len()) {
        return Err(PyValueError::new_err(
            "user column beyond the table's columns",
        ));
    }
    let plain = detached(py, "checking a table", || {
        plain::check(text, body, sep, &numeric, user)
    })?;
    plain
        .map(|plain| {
            (
                plain.starts.into_pyarray(py),
                plain.ends.into_pyarray(py),
                plain.distinct,
            )
                .into_pyobject(py)
        })
        .transpose()
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_fields, m)?)?;
    m.add_function(wrap_pyfunction!(plain_table, m)?)?;
    Ok(())
}
