//! Python's view of the TREC readers and judging (`crate::trec`): the judged rankings of
//! files' bytes, and their faults as [`TrecReadError`].

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use std::path::PathBuf;

use super::guard::{detached, watched};
use super::output;
use crate::aside::drop_aside;
use crate::judge::{Batch, Options};
use crate::measures::{self, Context, Params};
use crate::output::evaluate::{self, Missing};
use crate::read::error::{Kind, ReadError};
use crate::read::limits::Budget;
use crate::read::open::Stop;
use crate::ties::Ties;
use crate::trec::{self, Data, Failure, File, Judgment, RunNotes};

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
        Kind::LongLine => "format",
        Kind::Memory => "memory",
        // raised as the exception of what stopped it ([`super::guard::watched`])
        Kind::Stopped => "stopped",
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

/// A memory error of data given in memory (no file: columns, dicts) as Python's
/// `MemoryError`, naming them.
pub(crate) fn memory_error(error: ReadError) -> PyErr {
    PyMemoryError::new_err(format!("{}: {}", error.source, error.reason))
}

/// The judged rankings of TREC run files against a TREC qrels file, from their bytes or
/// their paths (plain or gzip), held by the engine as a [`JudgedTrec`]; the files' texts
/// and columns held at once within `limit` bytes. A fault of a file raises
/// [`TrecReadError`].
#[pyfunction]
#[pyo3(signature = (qrels, qrels_name, runs, ties, compat, max_docs, judged_only, placeholders, limit))]
#[allow(clippy::too_many_arguments)]
fn judge_trec_batch<'py>(
    py: Python<'py>,
    qrels: Bound<'py, PyAny>,
    qrels_name: &str,
    runs: Vec<(Bound<'py, PyAny>, String)>,
    ties: &str,
    compat: u8,
    max_docs: Option<u64>,
    judged_only: bool,
    placeholders: bool,
    limit: usize,
) -> PyResult<JudgedTrec> {
    let ties = Ties::named(ties)
        .ok_or_else(|| PyValueError::new_err(format!("unknown tie policy {ties:?}")))?;
    let options = Options::new(ties, compat, max_docs, judged_only, placeholders);
    let qrels = Given::of(&qrels)?;
    let given = runs
        .iter()
        .map(|(data, name)| Ok((Given::of(data)?, name)))
        .collect::<PyResult<Vec<_>>>()?;
    let stop = stop_for(std::iter::once(&qrels).chain(given.iter().map(|(data, _)| data)));
    let qrels_file = File {
        data: qrels.data(&stop),
        name: qrels_name,
    };
    let run_files: Vec<File> = given
        .iter()
        .map(|(data, name)| File {
            data: data.data(&stop),
            name,
        })
        .collect();
    let budget = Budget::new(limit);
    let judgment = reading(py, "judging TREC files", &stop, || {
        trec::judge(&qrels_file, &run_files, &options, &budget)
    })?
    .map_err(read_error)?;
    Ok(JudgedTrec::new(judgment, placeholders))
}

/// A run's notes as Python takes them: `(run ids, last run id, scores beyond a C float:
/// (count, line, text) or None)`.
type Note = (Vec<String>, String, Option<(usize, usize, String)>);

/// The judged rankings of TREC files (`judge_trec_batch`), held by the engine: what Python
/// needs to know of them without numpy (topics, runs' notes, counts), their arrays
/// ([`JudgedTrec::arrays`]) or trec_eval's output of measures computed on them
/// ([`JudgedTrec::evaluate_trec`]).
#[pyclass(module = "irscale._engine")]
pub struct JudgedTrec {
    /// The judgment; its batch of rankings is emptied when `arrays` hands it to Python.
    judgment: Judgment,
    handed: bool,
    /// trec_eval 10's `-c`: placeholder rankings stand for the topics a run misses.
    placeholders: bool,
    /// Per run, its rankings that are not placeholders.
    evaluated: Vec<usize>,
}

impl Drop for JudgedTrec {
    /// The batch's rankings (10M rows: 0.1 GB) freed aside: `irscale eval` writes its
    /// output meanwhile.
    fn drop(&mut self) {
        let batch = std::mem::replace(&mut self.judgment.batch, Batch::empty());
        let bytes = 8 * (batch.rel.capacity() + batch.offsets.capacity());
        drop_aside(batch, bytes);
    }
}

impl JudgedTrec {
    fn new(judgment: Judgment, placeholders: bool) -> Self {
        let mut evaluated = vec![0; judgment.notes.len()];
        let batch = &judgment.batch;
        for (run, flag) in batch.ranking_run.iter().zip(&batch.placeholder) {
            if let Some(count) = evaluated.get_mut(*run as usize) {
                *count += usize::from(!(placeholders && *flag));
            }
        }
        JudgedTrec {
            judgment,
            handed: false,
            placeholders,
            evaluated,
        }
    }

    /// The batch, or the error that `arrays` handed it to Python.
    fn batch(&self) -> PyResult<&Batch> {
        if self.handed {
            return Err(PyValueError::new_err(
                "the judged rankings were handed to Python (arrays()): judge the files again",
            ));
        }
        Ok(&self.judgment.batch)
    }

    fn notes_of(&self) -> Vec<Note> {
        self.judgment
            .notes
            .iter()
            .map(|n| {
                (
                    n.runids.clone(),
                    n.last_runid.clone(),
                    n.beyond_c_float.clone(),
                )
            })
            .collect()
    }
}

#[pymethods]
impl JudgedTrec {
    /// Per run file: `(run ids, last run id, scores beyond a C float or None)`.
    fn notes(&self) -> Vec<Note> {
        self.notes_of()
    }

    /// The qrels' topics (byte order): the topics of the rows.
    fn topics(&self) -> Vec<String> {
        self.judgment.topics.clone()
    }

    /// Per run, the topics it has results for that the qrels do not judge.
    fn unjudged(&self) -> Vec<Vec<String>> {
        self.judgment.unjudged.clone()
    }

    /// Per run, the number of its evaluated topics (rankings that are not trec_eval 10's
    /// `-c` placeholders).
    fn evaluated_counts(&self) -> Vec<usize> {
        self.evaluated.clone()
    }

    /// The qrels' judgments with a degree ≥ `level` over every topic (the summary of
    /// `num_rel` with `-c` in trec_eval 9.0.8).
    fn at_least(&self, level: i64) -> i64 {
        let judgment = &self.judgment;
        judgment
            .degrees
            .iter()
            .zip(&judgment.judgments)
            .filter(|(degree, _)| **degree >= level)
            .map(|(_, count)| count)
            .sum()
    }

    /// The number of the qrels' topics (trec_eval's `-c` divides means by it).
    fn n_qrels_topics(&self) -> usize {
        self.judgment.topics.len()
    }

    /// The gain tables on which trec_eval's sort of gains cannot be replayed under the
    /// gain map `gains` (`measures::gains`): `(num_levels, least gain, greatest gain)`.
    fn gain_sort_unreplayable(&self, gains: Vec<(i64, f64)>) -> PyResult<Vec<(u64, f64, f64)>> {
        let map = measures::gains::GainMap::new(&gains);
        Ok(measures::gains::unreplayable_tables(
            &self.batch()?.rel_levels,
            &self.judgment.degrees,
            &map,
        ))
    }

    /// The arrays `(rel, offsets, rel_levels, degrees, dense, judgments, ranking_topic,
    /// ranking_run, placeholder, topics, run notes, unjudged topics per run)` of
    /// `irscale.core.native_judge.judged_rankings`. The rankings move to Python (no copy):
    /// afterwards the batch answers its accessors, not `arrays` or `evaluate_trec`.
    fn arrays<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.batch()?;
        self.handed = true;
        let judgment = Judgment {
            batch: std::mem::replace(&mut self.judgment.batch, Batch::empty()),
            topics: self.judgment.topics.clone(),
            degrees: self.judgment.degrees.clone(),
            dense: self.judgment.dense,
            judgments: self.judgment.judgments.clone(),
            notes: self
                .judgment
                .notes
                .iter()
                .map(|n| RunNotes {
                    runids: n.runids.clone(),
                    last_runid: n.last_runid.clone(),
                    beyond_c_float: n.beyond_c_float.clone(),
                })
                .collect(),
            unjudged: self.judgment.unjudged.clone(),
        };
        judgment_tuple(py, judgment)
    }

    /// trec_eval's output of measures computed on the batch (`crate::output::trec_text`):
    /// `calls` are `(family, ints, floats, gains)` for `measures::compute`, `columns`
    /// `(call, output, label, value type, aggregate, per_query, missing value)` in output
    /// order (`output` -1: a column without values, `runid`); a column's missing value
    /// replaces the values of trec_eval 10's `-c` placeholders. `run_names` name the runs
    /// (several: a fourth field; the caller refuses names with a tab or a line break),
    /// `complete` is `-c`, `totals` `(label, total)` replace a column's sum (9.0.8's
    /// `num_rel` with `-c`); `per_query` adds the per-topic lines, `summary` the `all`
    /// lines. A measure that cannot be computed raises `ValueError`.
    #[pyo3(signature = (calls, columns, run_names, complete, totals, per_query, summary,
                        relevance_level, compat, num_docs_in_coll))]
    #[allow(clippy::too_many_arguments)]
    fn evaluate_trec<'py>(
        &self,
        py: Python<'py>,
        calls: Vec<Call>,
        columns: Vec<PlannedColumn>,
        run_names: Vec<String>,
        complete: bool,
        totals: Vec<(String, i64)>,
        per_query: bool,
        summary: bool,
        relevance_level: i64,
        compat: u8,
        num_docs_in_coll: i64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let batch = self.batch()?;
        if run_names.len() != self.evaluated.len() {
            return Err(PyValueError::new_err(format!(
                "{} run names for {} runs",
                run_names.len(),
                self.evaluated.len()
            )));
        }
        let planned = columns
            .into_iter()
            .map(|(call, output, label, kind, how, per_query, missing)| {
                Ok(evaluate::Planned {
                    call,
                    output,
                    label,
                    value_type: output::value_type(&kind)?,
                    aggregate: output::aggregate(&how)?,
                    per_query,
                    missing: missing.map(MissingGiven::value),
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let request = evaluate::Request {
            calls: calls
                .into_iter()
                .map(|(family, ints, floats, gains)| {
                    (
                        family,
                        Params {
                            ints,
                            floats,
                            gains,
                        },
                    )
                })
                .collect(),
            columns: planned,
            run_names,
            complete,
            totals,
            per_query,
            summary,
            context: Context {
                compat,
                num_docs_in_coll,
            },
            relevance_level,
        };
        let judgment = &self.judgment;
        let placeholders = self.placeholders;
        let text = detached(py, "evaluating trec_eval's measures", || {
            evaluate::trec_text(judgment, batch, placeholders, &request)
        })?
        .map_err(PyValueError::new_err)?;
        Ok(PyBytes::new(py, &text))
    }
}

/// An engine call as Python gives it: `(family, ints, floats, gains)`.
type Call = (String, Vec<i64>, Vec<f64>, Vec<(i64, f64)>);
/// A planned column as Python gives it: `(call, output, label, value type, aggregate,
/// per_query, missing value)`.
type PlannedColumn = (
    usize,
    i64,
    String,
    String,
    String,
    bool,
    Option<MissingGiven>,
);

/// A placeholder value as Python gives it: text, or a number.
#[derive(FromPyObject)]
enum MissingGiven {
    Text(String),
    Number(f64),
}

impl MissingGiven {
    fn value(self) -> Missing {
        match self {
            MissingGiven::Text(text) => Missing::Text(text),
            MissingGiven::Number(number) => Missing::Number(number),
        }
    }
}

/// A [`Judgment`] as Python takes it: `(rel, offsets, rel_levels, degrees, dense,
/// judgments, ranking_topic, ranking_run, placeholder, topics, run notes, unjudged topics
/// per run, tie groups)`, the tie groups an array with the `expected` tie policy, `None`
/// otherwise.
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
    let groups = batch.groups.map(|groups| groups.into_pyarray(py));
    let first = (
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
        .into_pyobject(py)?;
    // one more item than PyO3's tuples convert
    let mut items: Vec<Bound<'_, PyAny>> = first.iter().collect();
    items.push(groups.into_pyobject(py)?.into_any());
    pyo3::types::PyTuple::new(py, items)
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

    /// Where the file's bytes are; a path's waits end once `stop` is set.
    pub(crate) fn data<'s>(&'s self, stop: &'s Stop) -> Data<'s> {
        match self {
            Given::Bytes(bytes) => Data::Bytes(bytes.as_bytes()),
            Given::Path(path) => Data::Path(path, stop),
        }
    }
}

/// The stop of a call reading the files `given`: watched where a path names a file that is
/// not regular (a FIFO, a device), which may keep the call waiting; else unwatched (bytes
/// and regular files keep no reader waiting: such a call runs on the calling thread, and a
/// file that becomes a FIFO meanwhile is refused, [`Stop::unwatched`]).
pub(crate) fn stop_for<'g, 'py: 'g>(given: impl IntoIterator<Item = &'g Given<'py>>) -> Stop {
    let waits = given.into_iter().any(|given| {
        matches!(given, Given::Path(path)
            if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file()))
    });
    if waits {
        Stop::watched()
    } else {
        Stop::unwatched()
    }
}

/// `work`, reading files whose waits `stop` ends ([`stop_for`]), without the GIL: where it
/// may wait, interruptible by Python's signal handlers ([`watched`]); else on this thread
/// ([`detached`]).
pub(crate) fn reading<T: Send>(
    py: Python<'_>,
    what: &str,
    stop: &Stop,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    if stop.is_watched() {
        watched(py, what, stop, work)
    } else {
        detached(py, what, work)
    }
}

/// The text of a file, from its bytes or its path, for the readers written in Python:
/// read whole, gzip data decompressed, within the line limit and `limit` bytes
/// ([`crate::read::limits`]); plain bytes are checked and given back as they are. A fault
/// raises [`TrecReadError`].
#[pyfunction]
fn read_text<'py>(
    py: Python<'py>,
    source: Bound<'py, PyAny>,
    name: &str,
    limit: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    let given = Given::of(&source)?;
    let stop = stop_for([&given]);
    let file = File {
        data: given.data(&stop),
        name,
    };
    let budget = Budget::new(limit);
    let made = reading(py, "reading a file", &stop, || {
        trec::text(&file, &budget).map(trec::Text::made)
    })?
    .map_err(|error| read_error(error.into()))?;
    Ok(match (made, &given) {
        (Some(text), _) => PyBytes::new(py, &text),
        (None, Given::Bytes(bytes)) => bytes.clone(),
        (None, Given::Path(_)) => PyBytes::new(py, b""),
    })
}

/// Adds this module's functions, exception and the line limit to the engine's Python
/// module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(judge_trec_batch, m)?)?;
    m.add_function(wrap_pyfunction!(read_text, m)?)?;
    m.add("LINE_LIMIT", crate::read::limits::LINE_LIMIT)?;
    m.add_class::<JudgedTrec>()?;
    m.add("TrecReadError", m.py().get_type::<TrecReadError>())?;
    Ok(())
}
