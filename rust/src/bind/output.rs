//! Python's view of an evaluation's output (`crate::output`): the summaries of its runs and
//! trec_eval's text, from the columns of `irscale.measures.results.Evaluation` (numpy
//! arrays read in place, text as lists of strings).

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::guard::detached;
use crate::output::spelled::{self, Style};
use crate::output::summary::{self, Averaging, Rule, RunRows, Summary};
use crate::output::trec_text::{self, LineColumn, SummaryColumn};
use crate::output::{Aggregate, Cells, ValueType};

/// A column's values as Python gives them: a float64 or int64 array, or a list of strings.
pub enum Given<'py> {
    Float(PyReadonlyArray1<'py, f64>),
    Int(PyReadonlyArray1<'py, i64>),
    Text(Vec<String>),
}

impl<'py> Given<'py> {
    fn of(object: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(array) = object.extract::<PyReadonlyArray1<'py, f64>>() {
            return Ok(Given::Float(array));
        }
        if let Ok(array) = object.extract::<PyReadonlyArray1<'py, i64>>() {
            return Ok(Given::Int(array));
        }
        object
            .extract::<Vec<String>>()
            .map(Given::Text)
            .map_err(|_| {
                PyValueError::new_err("a column's values are a float64 or int64 array or strings")
            })
    }

    fn cells(&self) -> PyResult<Cells<'_>> {
        Ok(match self {
            Given::Float(array) => Cells::Float(array.as_slice()?),
            Given::Int(array) => Cells::Int(array.as_slice()?),
            Given::Text(values) => Cells::Text(values),
        })
    }
}

pub fn aggregate(name: &str) -> PyResult<Aggregate> {
    Aggregate::named(name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown aggregate {name:?}")))
}

pub fn value_type(name: &str) -> PyResult<ValueType> {
    ValueType::named(name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown value type {name:?}")))
}

/// A summary value as a Python object (float, int or str).
pub fn summary_object(py: Python<'_>, summary: Summary) -> PyResult<Py<PyAny>> {
    Ok(match summary {
        Summary::Float(v) => v.into_pyobject(py)?.into_any().unbind(),
        Summary::Int(v) => v.into_pyobject(py)?.into_any().unbind(),
        Summary::Text(v) => v.into_pyobject(py)?.into_any().unbind(),
    })
}

/// The rows of each of `n_runs` runs (`ranking_run[i]`: the run of row `i`), in order.
pub fn rows_by_run(ranking_run: &[i64], n_runs: usize) -> PyResult<Vec<Vec<usize>>> {
    let mut rows = vec![Vec::new(); n_runs];
    for (row, &run) in ranking_run.iter().enumerate() {
        let slot = usize::try_from(run)
            .ok()
            .and_then(|run| rows.get_mut(run))
            .ok_or_else(|| PyValueError::new_err(format!("row {row} names no run ({run})")))?;
        slot.push(row);
    }
    Ok(rows)
}

/// Whether every column's values cover `n_rows` rows.
fn check_lengths<'a>(cells: impl Iterator<Item = &'a Cells<'a>>, n_rows: usize) -> PyResult<()> {
    for cells in cells {
        if cells.len() != n_rows {
            return Err(PyValueError::new_err(format!(
                "a column has {} values for {n_rows} rows",
                cells.len()
            )));
        }
    }
    Ok(())
}

/// The summaries of every run (`runs`, in order), one per column whose aggregate is not
/// `none`: `columns` are `(label, aggregate)`, `values` each column's values (`None` when
/// its summary reads none), `ranking_run` the run of every row, `evaluated` which rows are
/// evaluated topics (`None`: all), `placeholders` whether trec_eval 10's `-c` rankings are
/// among the rows; `rule`, `complete`, `n_qrels_topics` and `totals` say how
/// (`crate::output::summary`).
#[pyfunction]
#[pyo3(signature = (columns, values, ranking_run, evaluated, placeholders, runs, rule,
                    complete, n_qrels_topics, totals))]
#[allow(clippy::too_many_arguments)]
fn summaries<'py>(
    py: Python<'py>,
    columns: Vec<(String, String)>,
    values: Vec<Option<Bound<'py, PyAny>>>,
    ranking_run: PyReadonlyArray1<'py, i64>,
    evaluated: Option<PyReadonlyArray1<'py, bool>>,
    placeholders: bool,
    runs: Vec<String>,
    rule: &str,
    complete: bool,
    n_qrels_topics: usize,
    totals: Vec<(String, i64)>,
) -> PyResult<Vec<Vec<Py<PyAny>>>> {
    if values.len() != columns.len() {
        return Err(PyValueError::new_err("one list of values per column"));
    }
    let given = values
        .iter()
        .map(|v| v.as_ref().map(Given::of).transpose())
        .collect::<PyResult<Vec<_>>>()?;
    let cells = given
        .iter()
        .map(|g| g.as_ref().map(Given::cells).transpose())
        .collect::<PyResult<Vec<_>>>()?;
    let ranking_run = ranking_run.as_slice()?;
    check_lengths(cells.iter().flatten(), ranking_run.len())?;
    let evaluated = evaluated.as_ref().map(|e| e.as_slice()).transpose()?;
    if evaluated.is_some_and(|e| e.len() != ranking_run.len()) {
        return Err(PyValueError::new_err("one evaluated flag per row"));
    }
    let averaging = Averaging {
        rule: Rule::named(rule)
            .ok_or_else(|| PyValueError::new_err(format!("unknown averaging rule {rule:?}")))?,
        complete,
        n_qrels_topics,
        totals: &totals,
    };
    let summary_columns = columns
        .iter()
        .zip(&cells)
        .map(|((label, kind), cells)| {
            Ok(summary::Column {
                label,
                aggregate: aggregate(kind)?,
                cells: *cells,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let by_run = rows_by_run(ranking_run, runs.len())?;
    let computed = detached(py, "summarising runs", || {
        by_run
            .iter()
            .zip(&runs)
            .map(|(rows, run)| {
                let evaluated = match evaluated {
                    Some(flags) => rows.iter().filter(|&&row| flags[row]).count(),
                    None => rows.len(),
                };
                let run_rows = RunRows { rows, evaluated };
                averaging.summarise(&summary_columns, run_rows, placeholders, run)
            })
            .collect::<Result<Vec<_>, String>>()
    })?
    .map_err(PyValueError::new_err)?;
    computed
        .into_iter()
        .map(|values| values.into_iter().map(|v| summary_object(py, v)).collect())
        .collect()
}

/// trec_eval's mean of `values` over `divisor` topics by the rule `rule` (ndeval's C
/// `0.0/0` when there is no topic: `crate::output::summary`).
#[pyfunction]
fn summary_mean(values: PyReadonlyArray1<'_, f64>, divisor: usize, rule: &str) -> PyResult<f64> {
    let averaging = Averaging {
        rule: Rule::named(rule)
            .ok_or_else(|| PyValueError::new_err(format!("unknown averaging rule {rule:?}")))?,
        complete: false,
        n_qrels_topics: 0,
        totals: &[],
    };
    Ok(averaging.mean(values.as_slice()?.iter().copied(), divisor))
}

/// The per-topic lines (trec_eval's `-q`) of the rows given, row after row: `columns` are
/// `(label, value type)`, `values` each column's values for those rows, `ranking_topic`
/// each row's topic, an index into the topic ids `topics` (their UTF-8 bytes one after the
/// other, topic `t` being `topic_data[topic_offsets[t]:topic_offsets[t + 1]]`); `suffix`
/// ends every line before its newline.
#[pyfunction]
fn trec_lines<'py>(
    py: Python<'py>,
    columns: Vec<(String, String)>,
    values: Vec<Bound<'py, PyAny>>,
    ranking_topic: PyReadonlyArray1<'py, i64>,
    topic_data: &[u8],
    topic_offsets: PyReadonlyArray1<'py, i64>,
    suffix: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    if values.len() != columns.len() {
        return Err(PyValueError::new_err("one list of values per column"));
    }
    let given = values.iter().map(Given::of).collect::<PyResult<Vec<_>>>()?;
    let cells = given
        .iter()
        .map(Given::cells)
        .collect::<PyResult<Vec<_>>>()?;
    let ranking_topic = ranking_topic.as_slice()?;
    check_lengths(cells.iter(), ranking_topic.len())?;
    let offsets = topic_offsets.as_slice()?;
    // the topics of the rows only (a block of lines names few of the topics)
    let span = |t: i64| -> Option<(usize, usize)> {
        let t = usize::try_from(t).ok()?;
        let start = usize::try_from(*offsets.get(t)?).ok()?;
        let stop = usize::try_from(*offsets.get(t + 1)?).ok()?;
        (start <= stop && stop <= topic_data.len()).then_some((start, stop))
    };
    if ranking_topic.iter().any(|&t| span(t).is_none()) {
        return Err(PyValueError::new_err("topic offsets and rows disagree"));
    }
    let line_columns = columns
        .iter()
        .zip(&cells)
        .map(|((label, kind), cells)| {
            Ok(LineColumn {
                label,
                value_type: value_type(kind)?,
                cells: *cells,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let text = detached(py, "writing trec_eval's lines", || {
        let mut out = Vec::new();
        let topic = |row: usize| {
            let (start, stop) = span(ranking_topic[row]).unwrap_or_default();
            &topic_data[start..stop]
        };
        trec_text::per_topic_lines(
            &mut out,
            &line_columns,
            0..ranking_topic.len(),
            topic,
            suffix,
        );
        out
    })?;
    Ok(PyBytes::new(py, &text))
}

/// One run's summary lines: `entries` are `(label, value type, aggregate, value)`, the
/// value a float, an int or a str; `suffix` ends every line before its newline.
#[pyfunction]
fn trec_summary_lines<'py>(
    py: Python<'py>,
    entries: Vec<(String, String, String, Bound<'py, PyAny>)>,
    suffix: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let mut parsed = Vec::with_capacity(entries.len());
    for (label, kind, how, value) in &entries {
        let summary = if let Ok(text) = value.extract::<String>() {
            Summary::Text(text)
        } else if let (Ok(number), false) = (
            value.extract::<i64>(),
            value.is_instance_of::<pyo3::types::PyFloat>(),
        ) {
            Summary::Int(number)
        } else {
            Summary::Float(value.extract::<f64>()?)
        };
        let column = SummaryColumn {
            label,
            value_type: value_type(kind)?,
            aggregate: aggregate(how)?,
        };
        parsed.push((column, summary));
    }
    let lines: Vec<_> = parsed.iter().map(|(c, s)| (*c, s)).collect();
    let mut out = Vec::new();
    trec_text::summary_lines(&mut out, &lines, suffix);
    Ok(PyBytes::new(py, &out))
}

/// Adds this module's functions to the engine's Python module.
/// A string column handed to Python: its offsets and data.
type Column<'py> = PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<u8>>)>;

/// Floating-point numbers (a float64 or float32 array) spelled in their shortest form in
/// `style` (`"python"`: `repr`'s; `"arrow"`: Arrow's cast to strings), as a string
/// column's `(offsets, data)` (int64, uint8): `crate::output::spelled`.
#[pyfunction]
fn spell_floats<'py>(py: Python<'py>, values: Bound<'py, PyAny>, style: &str) -> Column<'py> {
    let style = Style::named(style)
        .ok_or_else(|| PyValueError::new_err(format!("unknown spelling {style:?}")))?;
    let (offsets, data) = if let Ok(array) = values.extract::<PyReadonlyArray1<'py, f32>>() {
        let values = array.as_slice()?;
        detached(py, "spelling numbers", || spelled::spell_all(values, style))?
    } else {
        let array = values.extract::<PyReadonlyArray1<'py, f64>>()?;
        let values = array.as_slice()?;
        detached(py, "spelling numbers", || spelled::spell_all(values, style))?
    };
    Ok((offsets.into_pyarray(py), data.into_pyarray(py)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(spell_floats, m)?)?;
    m.add_function(wrap_pyfunction!(summaries, m)?)?;
    m.add_function(wrap_pyfunction!(summary_mean, m)?)?;
    m.add_function(wrap_pyfunction!(trec_lines, m)?)?;
    m.add_function(wrap_pyfunction!(trec_summary_lines, m)?)?;
    Ok(())
}
