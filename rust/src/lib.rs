//! irscale's native engine, imported by Python as `irscale._engine`.
//!
//! PyO3 is used at this boundary only: the modules below work on bytes and slices and
//! return `Result`s, converted here into the package's own exceptions.

pub mod judge;
pub mod judged;
pub mod measures;
pub mod read;
pub mod ties;
pub mod trec;

use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::panic::{AssertUnwindSafe, catch_unwind};

use judge::Options;
use read::error::Kind;
use ties::Ties;
use trec::{Failure, File};

pyo3::create_exception!(
    _engine,
    TrecReadError,
    PyValueError,
    "A fault of a TREC file, as a value: (kind, reason, source, line, text, details, notes)."
);

use judged::JudgedView;
use measures::{Context, Params, Values};

/// The engine's build: the crate's name and whether it was compiled with optimisations.
#[pyfunction]
fn build_info() -> (&'static str, bool) {
    (env!("CARGO_PKG_NAME"), !cfg!(debug_assertions))
}

/// The values of one trec_eval measure family on a batch of judged rankings (the arrays of
/// `irscale.core.judged.JudgedRankings`, read in place): `[(output name, values)]`, the
/// values a float64 or int64 array, or a list of strings.
#[pyfunction]
#[pyo3(signature = (family, ints, floats, gains, rel, offsets, rel_levels, degrees,
                    relevance_level, compat, num_docs_in_coll))]
#[allow(clippy::too_many_arguments)]
fn trec_measure<'py>(
    py: Python<'py>,
    family: &str,
    ints: Vec<i64>,
    floats: Vec<f64>,
    gains: Vec<(i64, f64)>,
    rel: PyReadonlyArray1<'py, i64>,
    offsets: PyReadonlyArray1<'py, i64>,
    rel_levels: PyReadonlyArray2<'py, i64>,
    degrees: PyReadonlyArray1<'py, i64>,
    relevance_level: i64,
    compat: u8,
    num_docs_in_coll: i64,
) -> PyResult<Vec<(String, Py<PyAny>)>> {
    let view = JudgedView {
        rel: rel.as_slice()?,
        offsets: offsets.as_slice()?,
        rel_levels: rel_levels.as_slice()?,
        degrees: degrees.as_slice()?,
        relevance_level,
    };
    let params = Params {
        ints,
        floats,
        gains,
    };
    let ctx = Context {
        compat,
        num_docs_in_coll,
    };
    let outputs = py
        .detach(|| measures::compute(family, &params, &view, &ctx))
        .map_err(PyValueError::new_err)?;
    let mut converted = Vec::with_capacity(outputs.len());
    for (name, values) in outputs {
        let object = match values {
            Values::Float(v) => v.into_pyarray(py).into_any().unbind(),
            Values::Int(v) => v.into_pyarray(py).into_any().unbind(),
            Values::Text(v) => v.into_pyobject(py)?.into_any().unbind(),
        };
        converted.push((name, object));
    }
    Ok(converted)
}

/// The gain tables on which trec_eval's sort of gains cannot be replayed (see
/// `measures::gains`): `(num_levels, least gain, greatest gain)` for each number of levels
/// of the topics whose level counts are the rows of `rel_levels`, under the gain map `gains`.
#[pyfunction]
fn gain_sort_unreplayable<'py>(
    gains: Vec<(i64, f64)>,
    rel_levels: PyReadonlyArray2<'py, i64>,
    degrees: PyReadonlyArray1<'py, i64>,
) -> PyResult<Vec<(u64, f64, f64)>> {
    let map = measures::gains::GainMap::new(&gains);
    Ok(measures::gains::unreplayable_tables(
        rel_levels.as_slice()?,
        degrees.as_slice()?,
        &map,
    ))
}

/// The arguments of [`TrecReadError`]: kind, reason, source, line, text, details, and the
/// notes `(source, run ids, last run id, scores beyond a C float)` of the runs read before.
fn read_error(failure: Failure) -> PyErr {
    let error = *failure.error;
    let kind = match error.kind {
        Kind::Format => "format",
        Kind::Empty => "empty",
        Kind::Duplicate => "duplicate",
        Kind::Gzip => "gzip",
    };
    TrecReadError::new_err((
        kind,
        error.reason,
        error.source,
        error.line,
        error.text,
        error.details,
        failure
            .notes
            .into_iter()
            .map(|(name, note)| (name, note.runids, note.last_runid, note.beyond_c_float))
            .collect::<Vec<_>>(),
    ))
}

/// The judged rankings of TREC run files against a TREC qrels file, from their bytes
/// (plain or gzip): `(rel, offsets, rel_levels, degrees, dense, ranking_topic,
/// ranking_run, placeholder, topics, run notes, unjudged topics per run)`, each run's
/// notes `(run ids, last run id, scores beyond a C float: (count, line, text) or None)`.
/// A fault of a file raises [`TrecReadError`].
#[pyfunction]
#[pyo3(signature = (qrels, qrels_name, runs, ties, compat, max_docs, judged_only, placeholders))]
#[allow(clippy::too_many_arguments)]
fn judge_trec<'py>(
    py: Python<'py>,
    qrels: Bound<'py, PyBytes>,
    qrels_name: &str,
    runs: Vec<(Bound<'py, PyBytes>, String)>,
    ties: &str,
    compat: u8,
    max_docs: Option<u64>,
    judged_only: bool,
    placeholders: bool,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let ties = Ties::named(ties)
        .ok_or_else(|| PyValueError::new_err(format!("unknown tie policy {ties:?}")))?;
    let options = Options {
        ties,
        doubles: compat != 9,
        max_docs,
        judged_only,
        placeholders,
    };
    let qrels_file = File {
        data: qrels.as_bytes(),
        name: qrels_name,
    };
    let run_files: Vec<File> = runs
        .iter()
        .map(|(data, name)| File {
            data: data.as_bytes(),
            name,
        })
        .collect();
    let outcome = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            trec::judge(&qrels_file, &run_files, &options)
        }))
    });
    let judgment = match outcome {
        Ok(result) => result.map_err(read_error)?,
        Err(_) => {
            return Err(PyRuntimeError::new_err(
                "irscale: internal error of the native engine while judging TREC files",
            ));
        }
    };
    let batch = judgment.batch;
    let n = batch.ranking_topic.len();
    let width = judgment.degrees.len();
    let rel_levels = batch.rel_levels.into_pyarray(py).reshape([n, width])?;
    let notes: Vec<_> = judgment
        .notes
        .into_iter()
        .map(|note| (note.runids, note.last_runid, note.beyond_c_float))
        .collect();
    (
        batch.rel.into_pyarray(py),
        batch.offsets.into_pyarray(py),
        rel_levels,
        judgment.degrees.into_pyarray(py),
        judgment.dense,
        batch.ranking_topic.into_pyarray(py),
        batch.ranking_run.into_pyarray(py),
        batch.placeholder.into_pyarray(py),
        judgment.topics,
        notes,
        judgment.unjudged,
    )
        .into_pyobject(py)
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    m.add_function(wrap_pyfunction!(trec_measure, m)?)?;
    m.add_function(wrap_pyfunction!(gain_sort_unreplayable, m)?)?;
    m.add_function(wrap_pyfunction!(judge_trec, m)?)?;
    m.add("TrecReadError", m.py().get_type::<TrecReadError>())?;
    Ok(())
}
