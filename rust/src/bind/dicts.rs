//! Python's view of judging pytrec_eval-style dicts (`crate::dicts`): qrels
//! `{topic: {docno: degree}}` and runs `{topic: {docno: score}}` read into the engine's
//! tables when every key is a `str` and every value an `int`, `bool` or `float` that the
//! Python reader (`irscale.io.memory`) takes without an error or a warning; anything
//! else is left to that reader (`read_dicts` answers `None`).

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::trec::judgment_tuple;
use crate::dicts::{self, Table};
use crate::judge::Options;
use crate::read::run::c_float_losses;
use crate::ties::Ties;

/// The qrels and runs read from their dicts, held for [`judge_dicts`].
#[pyclass(frozen, module = "irscale._engine")]
pub struct Dicts {
    qrels: Table,
    runs: Vec<Table>,
}

/// A value as NumPy's `float64` conversion gives it (`int` rounded to the nearest
/// double), for the exact types `float`, `int` (within ±2⁶³) and `bool`; `None` otherwise.
fn number(value: &Bound<'_, PyAny>) -> Option<f64> {
    if let Ok(float) = value.cast_exact::<PyFloat>() {
        return Some(float.value());
    }
    if value.is_exact_instance_of::<PyInt>() {
        return value.extract::<i64>().ok().map(|v| v as f64);
    }
    let truth = value.cast_exact::<PyBool>().ok()?;
    Some(if truth.is_true() { 1.0 } else { 0.0 })
}

/// A degree the Python reader takes: finite, integral, within ±2⁶³.
fn degree(value: &Bound<'_, PyAny>) -> Option<f64> {
    let v = number(value)?;
    (v.is_finite() && v.fract() == 0.0 && v.abs() < 2f64.powi(63)).then_some(v)
}

/// A score the Python reader takes without an error (finite); scores a C float cannot
/// hold (warned of) are checked over the whole run.
fn score(value: &Bound<'_, PyAny>) -> Option<f64> {
    number(value).filter(|v| v.is_finite())
}

/// The table of a dict `{topic: {docno: value}}` (exact `dict`s and `str` keys, text with
/// a UTF-8 form), or `None` (no entry, or a key or value `value` refuses).
fn table(data: &Bound<'_, PyAny>, value: fn(&Bound<'_, PyAny>) -> Option<f64>) -> Option<Table> {
    let mut table = Table::default();
    for (key, entry) in data.cast_exact::<PyDict>().ok()?.iter() {
        let topic = key.cast_exact::<PyString>().ok()?.to_str().ok()?;
        let entry = entry.cast_exact::<PyDict>().ok()?;
        if entry.is_empty() {
            continue;
        }
        table.topic(topic);
        for (docno, given) in entry.iter() {
            let docno = docno.cast_exact::<PyString>().ok()?.to_str().ok()?;
            table.push(docno, value(&given)?);
        }
    }
    (!table.values.is_empty()).then_some(table)
}

/// The qrels dict and the run dicts read for the engine, or `None` when one of them is
/// left to the Python reader (module documentation).
#[pyfunction]
fn read_dicts(qrels: &Bound<'_, PyAny>, runs: Vec<Bound<'_, PyAny>>) -> Option<Dicts> {
    let qrels = table(qrels, degree)?;
    let runs = runs
        .iter()
        .map(|run| table(run, score).filter(|t| c_float_losses(&t.values).is_none()))
        .collect::<Option<Vec<_>>>()?;
    Some(Dicts { qrels, runs })
}

/// The judged rankings of dicts read by [`read_dicts`], as `judge_trec` gives those of
/// files (the run notes empty). The `rank-column` tie policy is refused: dicts have no
/// rank column.
#[pyfunction]
#[pyo3(signature = (dicts, ties, compat, max_docs, judged_only, placeholders))]
fn judge_dicts<'py>(
    py: Python<'py>,
    dicts: &Bound<'py, Dicts>,
    ties: &str,
    compat: u8,
    max_docs: Option<u64>,
    judged_only: bool,
    placeholders: bool,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let ties = Ties::named(ties)
        .filter(|t| *t != Ties::RankColumn)
        .ok_or_else(|| PyValueError::new_err(format!("tie policy {ties:?} for dicts")))?;
    let options = Options {
        ties,
        doubles: compat != 9,
        max_docs,
        judged_only,
        placeholders,
    };
    let held = dicts.get();
    let outcome = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            dicts::judge(&held.qrels, &held.runs, &options)
        }))
    });
    let judgment = outcome.map_err(|_| {
        PyRuntimeError::new_err("irscale: internal error of the native engine while judging dicts")
    })?;
    judgment_tuple(py, judgment)
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Dicts>()?;
    m.add_function(wrap_pyfunction!(read_dicts, m)?)?;
    m.add_function(wrap_pyfunction!(judge_dicts, m)?)?;
    Ok(())
}
