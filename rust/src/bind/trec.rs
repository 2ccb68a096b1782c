//! Python's view of the TREC readers and judging (`crate::trec`): the judged rankings of
//! files' bytes, and their faults as [`TrecReadError`].

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use crate::judge::Options;
use crate::read::error::Kind;
use crate::ties::Ties;
use crate::trec::{self, Data, Failure, File, Judgment};

pyo3::create_exception!(
    _engine,
    TrecReadError,
    PyValueError,
    "A fault of a TREC file, as a value: (kind, reason, source, line, text, details, notes)."
);

/// The arguments of [`TrecReadError`]: kind, reason, source, line, text, details, and the
/// notes `(source, run ids, last run id, scores beyond a C float)` of the runs read before.
pub(crate) fn read_error(failure: Failure) -> PyErr {
    let error = *failure.error;
    let kind = match error.kind {
        Kind::Format => "format",
        Kind::Empty => "empty",
        Kind::Duplicate => "duplicate",
        Kind::Gzip => "gzip",
        Kind::Access => "access",
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

/// The judged rankings of TREC run files against a TREC qrels file, from their bytes or
/// their paths (plain or gzip): `(rel, offsets, rel_levels, degrees, dense, judgments,
/// ranking_topic, ranking_run, placeholder, topics, run notes, unjudged topics per run)`, each run's
/// notes `(run ids, last run id, scores beyond a C float: (count, line, text) or None)`.
/// A fault of a file raises [`TrecReadError`].
#[pyfunction]
#[pyo3(signature = (qrels, qrels_name, runs, ties, compat, max_docs, judged_only, placeholders))]
#[allow(clippy::too_many_arguments)]
fn judge_trec<'py>(
    py: Python<'py>,
    qrels: Bound<'py, PyAny>,
    qrels_name: &str,
    runs: Vec<(Bound<'py, PyAny>, String)>,
    ties: &str,
    compat: u8,
    max_docs: Option<u64>,
    judged_only: bool,
    placeholders: bool,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let ties = Ties::named(ties)
        .ok_or_else(|| PyValueError::new_err(format!("unknown tie policy {ties:?}")))?;
    let options = Options::new(ties, compat, max_docs, judged_only, placeholders);
    let qrels = Given::of(&qrels)?;
    let qrels_file = File {
        data: qrels.data(),
        name: qrels_name,
    };
    let given = runs
        .iter()
        .map(|(data, name)| Ok((Given::of(data)?, name)))
        .collect::<PyResult<Vec<_>>>()?;
    let run_files: Vec<File> = given
        .iter()
        .map(|(data, name)| File {
            data: data.data(),
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
    judgment_tuple(py, judgment)
}

/// A [`Judgment`] as Python takes it: `(rel, offsets, rel_levels, degrees, dense,
/// judgments, ranking_topic, ranking_run, placeholder, topics, run notes, unjudged topics
/// per run)`.
pub fn judgment_tuple(
    py: Python<'_>,
    judgment: Judgment,
) -> PyResult<Bound<'_, pyo3::types::PyTuple>> {
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
        judgment.judgments.into_pyarray(py),
        batch.ranking_topic.into_pyarray(py),
        batch.ranking_run.into_pyarray(py),
        batch.placeholder.into_pyarray(py),
        judgment.topics,
        notes,
        judgment.unjudged,
    )
        .into_pyobject(py)
}

/// A file as Python gives it: its bytes, or its path (read by the engine).
pub(crate) enum Given<'py> {
    Bytes(Bound<'py, PyBytes>),
    Path(PathBuf),
}

impl<'py> Given<'py> {
    /// `bytes`, or a path (`str` or `os.PathLike`).
    pub(crate) fn of(object: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(bytes) = object.extract::<Bound<'py, PyBytes>>() {
            return Ok(Given::Bytes(bytes));
        }
        Ok(Given::Path(object.extract::<PathBuf>()?))
    }

    pub(crate) fn data(&self) -> Data<'_> {
        match self {
            Given::Bytes(bytes) => Data::Bytes(bytes.as_bytes()),
            Given::Path(path) => Data::Path(path),
        }
    }
}

/// Adds this module's function and exception to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(judge_trec, m)?)?;
    m.add("TrecReadError", m.py().get_type::<TrecReadError>())?;
    Ok(())
}
