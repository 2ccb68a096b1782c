//! Python's view of the diversity engine (`crate::diversity`): ndeval's and NTCIREVAL's
//! measures on rankings judged per intent, and the per-intent judge.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::guard::detached;
use super::trec::{Given, read_error, reading, stop_for};
use crate::diversity;
use crate::read::diversity::{self as files, Column};
use crate::read::limits::Budget;
use crate::trec::{File, text};

/// A batch of rankings judged per intent, as numpy arrays (those of
/// `irscale.measures.diversity.rankings.DiversityRankings`): `(lengths, ranking_topic,
/// entry_ranking, entry_rank, entry_subtopic)`.
type RankingArrays<'py> = (
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
);

fn rankings<'a>(
    arrays: &'a RankingArrays<'_>,
    intents: &diversity::Intents,
) -> PyResult<diversity::Rankings<'a>> {
    diversity::Rankings::new(
        arrays.0.as_slice()?,
        arrays.1.as_slice()?,
        arrays.2.as_slice()?,
        arrays.3.as_slice()?,
        arrays.4.as_slice()?,
        intents,
    )
    .map_err(PyValueError::new_err)
}

/// The values of one of ndeval's diversity families on a batch judged per intent (`ideal`:
/// the topics' greedy ideal rankings, for the normalised families), `n_intents` and
/// `nrel_sub` those of the qrels topics: one float64 per ranking.
#[pyfunction]
#[pyo3(signature = (family, cutoff, alpha, beta, run, ideal, n_intents, nrel_sub))]
#[allow(clippy::too_many_arguments)]
fn ndeval_measure<'py>(
    py: Python<'py>,
    family: &str,
    cutoff: Option<i64>,
    alpha: f64,
    beta: f64,
    run: RankingArrays<'py>,
    ideal: Option<RankingArrays<'py>>,
    n_intents: PyReadonlyArray1<'py, i64>,
    nrel_sub: PyReadonlyArray2<'py, i64>,
) -> PyResult<Py<PyAny>> {
    let intents = diversity::Intents::new(
        n_intents.as_slice()?,
        nrel_sub.as_slice()?,
        nrel_sub.as_array().ncols(),
    )
    .map_err(PyValueError::new_err)?;
    let batch = rankings(&run, &intents)?;
    let ideal = ideal.as_ref().map(|a| rankings(a, &intents)).transpose()?;
    let values = detached(py, "computing an ndeval measure", || {
        diversity::ndeval(
            family,
            cutoff,
            alpha,
            beta,
            &batch,
            ideal.as_ref(),
            &intents,
        )
    })?
    .map_err(PyValueError::new_err)?;
    Ok(values.into_pyarray(py).into_any().unbind())
}

/// The values of one of NTCIREVAL's D-measures on a batch judged per intent: `entry_gain`
/// the gain value of each entry's level, `probability` and `navigational` the intents'
/// Pr(i|q) and types (`topics × width`), `rel_topic` and `rel_gain` the qrels' relevant
/// documents with the gain value of their level for each intent, `discounts[r − 1]` the
/// discount of rank `r` (D-nDCG): one float64 per ranking.
#[pyfunction]
#[pyo3(signature = (family, cutoff, beta, din, run, entry_gain, probability, navigational,
                    rel_topic, rel_gain, discounts, n_intents, nrel_sub))]
#[allow(clippy::too_many_arguments)]
fn ntcir_measure<'py>(
    py: Python<'py>,
    family: &str,
    cutoff: Option<i64>,
    beta: f64,
    din: bool,
    run: RankingArrays<'py>,
    entry_gain: PyReadonlyArray1<'py, f64>,
    probability: PyReadonlyArray2<'py, f64>,
    navigational: PyReadonlyArray2<'py, bool>,
    rel_topic: PyReadonlyArray1<'py, i64>,
    rel_gain: PyReadonlyArray2<'py, f64>,
    discounts: PyReadonlyArray1<'py, f64>,
    n_intents: PyReadonlyArray1<'py, i64>,
    nrel_sub: PyReadonlyArray2<'py, i64>,
) -> PyResult<Py<PyAny>> {
    let width = nrel_sub.as_array().ncols();
    let intents = diversity::Intents::new(n_intents.as_slice()?, nrel_sub.as_slice()?, width)
        .map_err(PyValueError::new_err)?;
    let batch = rankings(&run, &intents)?;
    let entry_gain = entry_gain.as_slice()?;
    if entry_gain.len() != batch.rank.len() {
        return Err(PyValueError::new_err(
            "entry_gain must hold one gain per entry",
        ));
    }
    let weights = diversity::global_gains::Weights {
        probability: probability.as_slice()?,
        navigational: navigational.as_slice()?,
        width,
    };
    let family = if din && family == "D-nDCG" {
        "DIN-nDCG"
    } else {
        family
    };
    let discounts = discounts.as_slice()?;
    let (rel_topic, rel_gain) = (rel_topic.as_slice()?, rel_gain.as_slice()?);
    let values = detached(py, "computing an NTCIREVAL D-measure", || {
        let ideal = diversity::global_gains::IdealLists::new(
            intents.n_intents.len(),
            rel_topic,
            rel_gain,
            &weights,
        )?;
        let g = diversity::dmeasures::Global {
            batch: &batch,
            entry_gain,
            weights: &weights,
            ideal: &ideal,
        };
        diversity::ntcir(family, cutoff, beta, discounts, &g)
    })?
    .map_err(PyValueError::new_err)?;
    Ok(values.into_pyarray(py).into_any().unbind())
}
/// The relevant `(topic, docno)` pairs of diversity qrels, indexed once per evaluation to
/// judge runs per intent (`diversity::judging`).
#[pyclass(frozen)]
struct IntentJudge {
    index: diversity::judging::RelevantIndex,
}

#[pymethods]
impl IntentJudge {
    /// The index of the relevant documents: topic, docno (arrow's `offsets` and `data`),
    /// their intents (`mask`, documents × intents) and levels (`level`).
    #[new]
    fn new(
        topic: PyReadonlyArray1<'_, i64>,
        offsets: PyReadonlyArray1<'_, i64>,
        data: PyReadonlyArray1<'_, u8>,
        mask: PyReadonlyArray2<'_, bool>,
        level: PyReadonlyArray2<'_, i64>,
    ) -> PyResult<Self> {
        let docno = diversity::judging::Strings::new(offsets.as_slice()?, data.as_slice()?)
            .map_err(PyValueError::new_err)?;
        let index = diversity::judging::RelevantIndex::new(
            topic.as_slice()?,
            &docno,
            mask.as_slice()?,
            level.as_slice()?,
            mask.as_array().ncols(),
        )
        .map_err(PyValueError::new_err)?;
        Ok(IntentJudge { index })
    }

    /// The relevant entries `(ranking, rank, intent, level)` of a run whose documents are
    /// `offsets`/`data` (arrow's layout), ranking `r` being the first `length[r]` rows of
    /// `order[start[r]..]` (`order` empty: the rows as they are) of qrels topic `topic[r]`.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn judge<'py>(
        &self,
        py: Python<'py>,
        offsets: PyReadonlyArray1<'py, i64>,
        data: PyReadonlyArray1<'py, u8>,
        order: PyReadonlyArray1<'py, i64>,
        start: PyReadonlyArray1<'py, i64>,
        length: PyReadonlyArray1<'py, i64>,
        topic: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(Py<PyAny>, Py<PyAny>, Py<PyAny>, Py<PyAny>)> {
        let docno = diversity::judging::Strings::new(offsets.as_slice()?, data.as_slice()?)
            .map_err(PyValueError::new_err)?;
        let run = diversity::judging::RunRankings {
            order: order.as_slice()?,
            start: start.as_slice()?,
            length: length.as_slice()?,
            topic: topic.as_slice()?,
        };
        let entries = py
            .detach(|| self.index.judge(&run, &docno))
            .map_err(PyValueError::new_err)?;
        Ok((
            entries.ranking.into_pyarray(py).into_any().unbind(),
            entries.rank.into_pyarray(py).into_any().unbind(),
            entries.intent.into_pyarray(py).into_any().unbind(),
            entries.level.into_pyarray(py).into_any().unbind(),
        ))
    }

    /// The run files `runs` (`(bytes or path, name in messages)`, plain or gzip) read as
    /// ndeval reads them, each put in ndeval's order (`traditional`: by score) and judged
    /// ([`diversity::run_files`]), side by side: per run `(run ids, topic ids, lengths,
    /// qrels topics, entries' ranking, rank, intent, level)`, rankings in the order of
    /// the run's topics' first appearance, `qrels_topics` naming the index's topics; the
    /// texts held at once within `limit` bytes. The first faulty file, in order, raises
    /// `TrecReadError`.
    #[pyo3(signature = (runs, qrels_topics, traditional, max_docs, ndeval_topics, limit))]
    #[allow(clippy::too_many_arguments)]
    fn judge_files<'py>(
        &self,
        py: Python<'py>,
        runs: Vec<(Bound<'py, PyAny>, String)>,
        qrels_topics: Vec<String>,
        traditional: bool,
        max_docs: Option<i64>,
        ndeval_topics: bool,
        limit: usize,
    ) -> PyResult<Vec<JudgedFile<'py>>> {
        let given = runs
            .iter()
            .map(|(data, name)| Ok((Given::of(data)?, name)))
            .collect::<PyResult<Vec<_>>>()?;
        let stop = stop_for(given.iter().map(|(data, _)| data));
        let run_files: Vec<File> = given
            .iter()
            .map(|(data, name)| File {
                data: data.data(&stop),
                name,
            })
            .collect();
        let budget = Budget::new(limit);
        let how = diversity::run_files::Reading {
            qrels_topics: &qrels_topics,
            traditional,
            max_docs,
            ndeval_topics,
            budget: &budget,
        };
        let judged = reading(py, "judging diversity runs", &stop, || {
            diversity::run_files::judge_files(&self.index, &run_files, &how)
        })?
        .map_err(|error| read_error(error.into()))?;
        Ok(judged
            .into_iter()
            .map(|run| {
                (
                    run.runids,
                    run.topics,
                    run.length.into_pyarray(py),
                    run.qrels_topic.into_pyarray(py),
                    run.entries.ranking.into_pyarray(py),
                    run.entries.rank.into_pyarray(py),
                    run.entries.intent.into_pyarray(py),
                    run.entries.level.into_pyarray(py),
                )
            })
            .collect())
    }
}

/// One run file judged, as [`IntentJudge::judge_files`] gives it.
type JudgedFile<'py> = (
    Vec<String>,
    Vec<String>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
);

/// Strings end to end as numpy arrays: `(offsets, data)` (arrow's layout).
type Strings<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<u8>>);

fn strings(py: Python<'_>, column: Column) -> Strings<'_> {
    (
        column.offsets.into_pyarray(py),
        column.data.into_pyarray(py),
    )
}

/// Diversity qrels `topic subtopic docno judgment` from a file's bytes or path (plain or
/// gzip; its text within `limit` bytes), named `name` in errors, as ndeval reads them (`ndeval`: the topic and subtopic
/// ids too; [`files::read_qrels`]): `(topic, subtopic, docno, judgment)`, each string
/// column as `(offsets, data)`. A fault of the file raises `TrecReadError`.
#[pyfunction]
fn read_diversity_qrels<'py>(
    py: Python<'py>,
    source: Bound<'py, PyAny>,
    name: &str,
    ndeval: bool,
    limit: usize,
) -> PyResult<(
    Strings<'py>,
    Strings<'py>,
    Strings<'py>,
    Bound<'py, PyArray1<i64>>,
)> {
    let given = Given::of(&source)?;
    let stop = stop_for([&given]);
    let file = File {
        data: given.data(&stop),
        name,
    };
    let qrels = reading(py, "reading diversity qrels", &stop, || {
        files::read_qrels(&text(&file, &Budget::new(limit))?, name, ndeval)
    })?
    .map_err(|error| read_error(error.into()))?;
    Ok((
        strings(py, qrels.topic),
        strings(py, qrels.subtopic),
        strings(py, qrels.docno),
        qrels.judgment.into_pyarray(py),
    ))
}

/// A run's columns as Python takes them: `(topic ids, topic number of every row, docno,
/// score, rank, run ids)`.
type RunColumns<'py> = (
    Vec<String>,
    Bound<'py, PyArray1<i64>>,
    Strings<'py>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<i64>>,
    Vec<String>,
);

/// A TREC run read as ndeval reads it ([`files::read_run`]) from a file's bytes or path,
/// named `name` in errors (its text within `limit` bytes): its topic ids (`ndeval_topics`: as ndeval reads them) in order
/// of first appearance, every row's topic number, docnos (`(offsets, data)`), scores,
/// ranks, and its distinct run ids. A fault of the file raises `TrecReadError`.
#[pyfunction]
fn read_ndeval_run<'py>(
    py: Python<'py>,
    source: Bound<'py, PyAny>,
    name: &str,
    ndeval_topics: bool,
    limit: usize,
) -> PyResult<RunColumns<'py>> {
    let given = Given::of(&source)?;
    let stop = stop_for([&given]);
    let file = File {
        data: given.data(&stop),
        name,
    };
    let columns = reading(py, "reading an ndeval run", &stop, || {
        let budget = Budget::new(limit);
        let data = text(&file, &budget)?;
        let run = files::read_run(&data, name, ndeval_topics)?;
        let mut docno = Column::default();
        docno.offsets.reserve(run.docno.len() + 1);
        docno.offsets.push(0);
        for d in &run.docno {
            docno.data.extend_from_slice(d);
            docno.offsets.push(docno.data.len() as i64);
        }
        let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        Ok::<_, crate::read::error::ReadError>((
            run.topics.iter().map(|t| lossy(t)).collect::<Vec<_>>(),
            run.topic.iter().map(|&t| i64::from(t)).collect::<Vec<_>>(),
            docno,
            run.score,
            run.rank,
            run.runids.iter().map(|r| lossy(r)).collect::<Vec<_>>(),
        ))
    })?
    .map_err(|error| read_error(error.into()))?;
    let (topics, topic, docno, score, rank, runids) = columns;
    Ok((
        topics,
        topic.into_pyarray(py),
        strings(py, docno),
        score.into_pyarray(py),
        rank.into_pyarray(py),
        runids,
    ))
}

/// Every id of `ids` as ndeval reads it, or `None` where ndeval refuses it: a natural
/// number ([`files::natural_number`]), or with `run_topics` a run's topic
/// ([`files::run_topic`]).
#[pyfunction]
fn ndeval_numbers(ids: Vec<String>, run_topics: bool) -> Vec<Option<u64>> {
    let parse = if run_topics {
        files::run_topic
    } else {
        files::natural_number
    };
    ids.iter().map(|id| parse(id.as_bytes())).collect()
}

/// Adds this module's functions and class to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_diversity_qrels, m)?)?;
    m.add_function(wrap_pyfunction!(read_ndeval_run, m)?)?;
    m.add_function(wrap_pyfunction!(ndeval_numbers, m)?)?;
    m.add_function(wrap_pyfunction!(ndeval_measure, m)?)?;
    m.add_function(wrap_pyfunction!(ntcir_measure, m)?)?;
    m.add_class::<IntentJudge>()?;
    Ok(())
}
