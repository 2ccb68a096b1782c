//! Python's view of judging qrels and runs given as columns (`crate::columns`): a string
//! column is its Arrow offsets (a NumPy view of int32 or int64) and its data (uint8),
//! numbers are NumPy arrays (int64 degrees and ranks, float64 scores), all read in place
//! (`irscale.core.native_columns` lays `Qrels` and `Run` objects out so).

use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::guard::detached;
use super::trec::{judgment_tuple, memory_error};
use crate::columns::{self, Offsets, QrelsColumns, RunColumns, Strings};
use crate::judge::{HELD_QRELS, Index, Options};
use crate::read::limits::Budget;
use crate::ties::Ties;

/// The arrays of a string column, held while the engine reads them.
pub(super) struct GivenStrings<'py> {
    offsets: GivenOffsets<'py>,
    data: PyReadonlyArray1<'py, u8>,
}

enum GivenOffsets<'py> {
    Narrow(PyReadonlyArray1<'py, i32>),
    Wide(PyReadonlyArray1<'py, i64>),
}

impl<'py> GivenStrings<'py> {
    pub(super) fn of(offsets: &Bound<'py, PyAny>, data: &Bound<'py, PyAny>) -> PyResult<Self> {
        let offsets = match offsets.extract::<PyReadonlyArray1<'py, i32>>() {
            Ok(narrow) => GivenOffsets::Narrow(narrow),
            Err(_) => GivenOffsets::Wide(offsets.extract()?),
        };
        Ok(GivenStrings {
            offsets,
            data: data.extract()?,
        })
    }

    pub(super) fn view(&self) -> PyResult<Strings<'_>> {
        let offsets = match &self.offsets {
            GivenOffsets::Narrow(o) => Offsets::Narrow(o.as_slice()?),
            GivenOffsets::Wide(o) => Offsets::Wide(o.as_slice()?),
        };
        Ok(Strings {
            offsets,
            data: self.data.as_slice()?,
        })
    }
}

/// Qrels as Python gives them: `(topic offsets, topic data, docno offsets, docno data,
/// degrees)`.
struct GivenQrels<'py> {
    topic: GivenStrings<'py>,
    docno: GivenStrings<'py>,
    rel: PyReadonlyArray1<'py, i64>,
}

impl<'py> GivenQrels<'py> {
    fn of(given: &Bound<'py, PyTuple>) -> PyResult<Self> {
        Ok(GivenQrels {
            topic: GivenStrings::of(&given.get_item(0)?, &given.get_item(1)?)?,
            docno: GivenStrings::of(&given.get_item(2)?, &given.get_item(3)?)?,
            rel: given.get_item(4)?.extract()?,
        })
    }

    fn view(&self) -> PyResult<QrelsColumns<'_>> {
        let view = QrelsColumns {
            topic: self.topic.view()?,
            docno: self.docno.view()?,
            rel: self.rel.as_slice()?,
        };
        view.check().map_err(PyValueError::new_err)?;
        Ok(view)
    }
}

/// A run as Python gives it: `(topic offsets, topic data, docno offsets, docno data,
/// scores, ranks or None)`.
struct GivenRun<'py> {
    topic: GivenStrings<'py>,
    docno: GivenStrings<'py>,
    score: PyReadonlyArray1<'py, f64>,
    rank: Option<PyReadonlyArray1<'py, i64>>,
}

impl<'py> GivenRun<'py> {
    fn of(given: &Bound<'py, PyTuple>) -> PyResult<Self> {
        Ok(GivenRun {
            topic: GivenStrings::of(&given.get_item(0)?, &given.get_item(1)?)?,
            docno: GivenStrings::of(&given.get_item(2)?, &given.get_item(3)?)?,
            score: given.get_item(4)?.extract()?,
            rank: given.get_item(5)?.extract()?,
        })
    }

    fn view(&self, ties: Ties) -> PyResult<RunColumns<'_>> {
        let view = RunColumns {
            topic: self.topic.view()?,
            docno: self.docno.view()?,
            score: self.score.as_slice()?,
            rank: self.rank.as_ref().map(|r| r.as_slice()).transpose()?,
        };
        view.check(ties).map_err(PyValueError::new_err)?;
        Ok(view)
    }
}

fn tie_policy(ties: &str) -> PyResult<Ties> {
    Ties::named(ties).ok_or_else(|| PyValueError::new_err(format!("unknown tie policy {ties:?}")))
}

/// What `judge_columns` answers: the judgment's tuple, and the runs' rows if asked for.
type Judged<'py> = (Bound<'py, PyTuple>, Option<Vec<Bound<'py, PyAny>>>);

/// The judged rankings of runs given as columns against qrels given as columns, as
/// `judge_trec` gives those of files (the run notes empty), and with `keep_rows` each
/// run's row of every judged document but the placeholders, in the order of the
/// rankings (uint32; `None` otherwise).
#[pyfunction]
#[pyo3(signature = (qrels, runs, ties, compat, max_docs, judged_only, placeholders, keep_rows))]
#[allow(clippy::too_many_arguments)]
fn judge_columns<'py>(
    py: Python<'py>,
    qrels: Bound<'py, PyTuple>,
    runs: Vec<Bound<'py, PyTuple>>,
    ties: &str,
    compat: u8,
    max_docs: Option<u64>,
    judged_only: bool,
    placeholders: bool,
    keep_rows: bool,
) -> PyResult<Judged<'py>> {
    let ties = tie_policy(ties)?;
    let options = Options::new(ties, compat, max_docs, judged_only, placeholders);
    let qrels = GivenQrels::of(&qrels)?;
    let runs = runs
        .iter()
        .map(GivenRun::of)
        .collect::<PyResult<Vec<_>>>()?;
    let qrels_view = qrels.view()?;
    let run_views = runs
        .iter()
        .map(|run| run.view(ties))
        .collect::<PyResult<Vec<_>>>()?;
    let (judgment, rows) = detached(py, "judging qrels and runs", || {
        columns::judge(&qrels_view, &run_views, &options, keep_rows)
    })?
    .map_err(memory_error)?;
    let rows = keep_rows.then(|| {
        rows.into_iter()
            .map(|r| r.into_pyarray(py).into_any())
            .collect()
    });
    Ok((judgment_tuple(py, judgment)?, rows))
}

/// What the qrels given as columns say of their topics: `(topics in byte order,
/// rel_levels, degrees, dense)` as `judge_columns` gives them.
#[pyfunction]
fn qrels_levels<'py>(py: Python<'py>, qrels: Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyTuple>> {
    let qrels = GivenQrels::of(&qrels)?;
    let view = qrels.view()?;
    let (topics, rel_levels, degrees, dense) = detached(py, "indexing qrels", || {
        let read = view.qrels();
        let index = Index::build(&read, &mut Budget::unlimited().charge(), HELD_QRELS)?;
        let topics: Vec<String> = index
            .topics
            .iter()
            .map(|t| String::from_utf8_lossy(t).into_owned())
            .collect();
        Ok((topics, index.rel_levels, index.degrees, index.dense))
    })?
    .map_err(memory_error)?;
    let width = degrees.len();
    let rel_levels = rel_levels.into_pyarray(py).reshape([topics.len(), width])?;
    (topics, rel_levels, degrees.into_pyarray(py), dense).into_pyobject(py)
}

/// The degree of every pair (topic code `codes[i]` among the qrels' topics in byte
/// order, -1 for none; docno `docno[doc[i]]`, or `docno[i]` without `doc`): the qrels'
/// degree, `UNJUDGED` (-2) for a negative one, `NONPOOL` (-1) for a pair not in them.
#[pyfunction]
#[pyo3(signature = (qrels, codes, docno_offsets, docno_data, doc=None))]
fn pair_degrees<'py>(
    py: Python<'py>,
    qrels: Bound<'py, PyTuple>,
    codes: PyReadonlyArray1<'py, i64>,
    docno_offsets: Bound<'py, PyAny>,
    docno_data: Bound<'py, PyAny>,
    doc: Option<PyReadonlyArray1<'py, i64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let qrels = GivenQrels::of(&qrels)?;
    let view = qrels.view()?;
    let docnos = GivenStrings::of(&docno_offsets, &docno_data)?;
    let docnos = docnos.view()?;
    docnos.check().map_err(PyValueError::new_err)?;
    let codes = codes.as_slice()?;
    let doc = doc.as_ref().map(|d| d.as_slice()).transpose()?;
    let rows = doc.map_or(codes.len(), <[i64]>::len);
    let fits = |i: i64| i >= 0 && (i as usize) < docnos.len();
    if rows != codes.len() || doc.is_some_and(|d| !d.iter().all(|&i| fits(i))) {
        return Err(PyValueError::new_err("pairs out of range of the docnos"));
    }
    if doc.is_none() && codes.len() != docnos.len() {
        return Err(PyValueError::new_err("one docno per pair"));
    }
    let degrees = detached(py, "judging pairs", || {
        let read = view.qrels();
        let index = Index::build(&read, &mut Budget::unlimited().charge(), HELD_QRELS)?;
        Ok(columns::pair_degrees(&index, codes, &docnos, doc))
    })?
    .map_err(memory_error)?;
    Ok(degrees.into_pyarray(py).into_any())
}

/// The rows of a run given as columns (a tuple as `judge_columns` takes) of the topics
/// `topics` (a topic's code is its place there), by code, each topic's in ranking order
/// by the tie policy (`compat` as for judging), and the code of every row: `(rows, codes)`,
/// int64.
#[pyfunction]
fn ranked_rows<'py>(
    py: Python<'py>,
    run: Bound<'py, PyTuple>,
    topics: Vec<String>,
    ties: &str,
    compat: u8,
) -> PyResult<Bound<'py, PyTuple>> {
    let ties = tie_policy(ties)?;
    let doubles = Options::new(ties, compat, None, false, false).doubles;
    let run = GivenRun::of(&run)?;
    let view = run.view(ties)?;
    let (rows, codes) = detached(py, "ranking a run", || {
        let names: Vec<&[u8]> = topics.iter().map(|t| t.as_bytes()).collect();
        columns::ranked_rows(&view, &names, ties, doubles)
    })?;
    (rows.into_pyarray(py), codes.into_pyarray(py)).into_pyobject(py)
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(judge_columns, m)?)?;
    m.add_function(wrap_pyfunction!(qrels_levels, m)?)?;
    m.add_function(wrap_pyfunction!(pair_degrees, m)?)?;
    m.add_function(wrap_pyfunction!(ranked_rows, m)?)?;
    Ok(())
}
