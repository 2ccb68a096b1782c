//! Python's view of judging pytrec_eval-style dicts (`crate::dicts`): qrels
//! `{topic: {docno: degree}}` and runs `{topic: {docno: score}}` read into the engine's
//! tables when every dict is a `dict` (or a `defaultdict`), every key a `str` and every
//! value an `int`, `bool` or `float` that the Python reader (`irscale.io.memory`) takes
//! without an error or a warning; anything else is left to that reader (`read_dicts`
//! answers `None`).

use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;

use super::guard::detached;
use super::trec::{judgment_tuple, memory_error};
use crate::dicts::{self, Table};
use crate::judge::Options;
use crate::read::run::c_float_losses;
use crate::ties::Ties;

/// The qrels and runs read from their dicts, held for [`judge_dicts`].
/// Judging takes the runs (their columns become the judged runs'): they are judged once.
#[pyclass(module = "irscale._engine")]
pub struct Dicts {
    qrels: Table,
    runs: Vec<Table>,
}

/// An object's type is exactly `kind` (no subclass).
fn exact(object: *mut ffi::PyObject, kind: *mut ffi::PyTypeObject) -> bool {
    // SAFETY: `object` is a live object (borrowed from a dict held while the GIL is)
    unsafe { ffi::Py_TYPE(object) == kind }
}

/// Calls `each` with every key and value of `dict` (an exact `dict`), borrowed, in order;
/// stops at the first `None`. No Python code runs meanwhile: the dict cannot change.
fn items(
    dict: *mut ffi::PyObject,
    mut each: impl FnMut(*mut ffi::PyObject, *mut ffi::PyObject) -> Option<()>,
) -> Option<()> {
    let mut at: ffi::Py_ssize_t = 0;
    let mut key = std::ptr::null_mut();
    let mut value = std::ptr::null_mut();
    // SAFETY: the GIL is held and `dict` is a dict, alive for the call (its caller's)
    while unsafe { ffi::PyDict_Next(dict, &mut at, &mut key, &mut value) } != 0 {
        each(key, value)?;
    }
    Some(())
}

/// The UTF-8 text of an exact `str` (`None`: another type, or no UTF-8 form: a lone
/// surrogate).
fn text<'a>(object: *mut ffi::PyObject) -> Option<&'a str> {
    if !exact(object, &raw mut ffi::PyUnicode_Type) {
        return None;
    }
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: a str, alive while its dict is; its UTF-8 form is cached in it
    let data = unsafe { ffi::PyUnicode_AsUTF8AndSize(object, &mut size) };
    if data.is_null() {
        // SAFETY: the GIL is held; the error (no UTF-8 form) is the Python reader's to say
        unsafe { ffi::PyErr_Clear() };
        return None;
    }
    // SAFETY: `size` bytes of valid UTF-8 at `data`
    let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) };
    std::str::from_utf8(bytes).ok()
}

/// A value as NumPy's `float64` conversion gives it (`int` rounded to the nearest
/// double), for the exact types `float`, `int` (within ±2⁶³) and `bool`; `None` otherwise.
fn number(value: *mut ffi::PyObject) -> Option<f64> {
    if exact(value, &raw mut ffi::PyFloat_Type) {
        // SAFETY: a float
        return Some(unsafe { ffi::PyFloat_AsDouble(value) });
    }
    if exact(value, &raw mut ffi::PyLong_Type) {
        let mut overflow = 0;
        // SAFETY: an int; beyond 64 bits `overflow` is set, no error raised
        let v = unsafe { ffi::PyLong_AsLongLongAndOverflow(value, &mut overflow) };
        return (overflow == 0).then_some(v as f64);
    }
    if exact(value, &raw mut ffi::PyBool_Type) {
        // SAFETY: comparing pointers to the two bools
        return Some(if value == unsafe { ffi::Py_True() } {
            1.0
        } else {
            0.0
        });
    }
    None
}

/// A degree the engine reads exactly: finite, integral, below 2⁵³ in magnitude (a double
/// holds every such integer; a larger `int`, such as 2⁶⁰ + 1, would be rounded, so the
/// dict is left to the Python reader, which reads it exactly).
fn degree(value: *mut ffi::PyObject) -> Option<f64> {
    let v = number(value)?;
    (v.is_finite() && v.fract() == 0.0 && v.abs() < 2f64.powi(53)).then_some(v)
}

/// A score the Python reader takes without an error (finite); scores a C float cannot
/// hold (warned of) are checked over the whole run.
fn score(value: *mut ffi::PyObject) -> Option<f64> {
    number(value).filter(|v| v.is_finite())
}

/// The dicts the engine reads: `dict` and `collections.defaultdict` (which iterates as
/// `dict` does), no other subclass (an `OrderedDict` keeps its own order).
struct Kinds {
    default: *mut ffi::PyTypeObject,
}

impl Kinds {
    fn taken(&self, object: *mut ffi::PyObject) -> bool {
        exact(object, &raw mut ffi::PyDict_Type) || exact(object, self.default)
    }
}

/// The table of a dict `{topic: {docno: value}}` (dicts `kinds` takes, `str` keys, text
/// with a UTF-8 form), or `None` (no entry, or a key or value `value` refuses).
fn table(
    data: *mut ffi::PyObject,
    kinds: &Kinds,
    value: fn(*mut ffi::PyObject) -> Option<f64>,
) -> Option<Table> {
    if !kinds.taken(data) {
        return None;
    }
    // the keys and the topics' dicts checked, and the entries counted, first
    let mut entries = 0;
    items(data, |topic, entry| {
        text(topic)?;
        if !kinds.taken(entry) {
            return None;
        }
        // SAFETY: a dict
        entries += unsafe { ffi::PyDict_Size(entry) } as usize;
        Some(())
    })?;
    let mut table = Table::default();
    table.reserve(entries);
    items(data, |topic, entry| {
        let mut started = false;
        items(entry, |docno, given| {
            if !started {
                table.topic(text(topic)?);
                started = true;
            }
            table.push(text(docno)?, value(given)?);
            Some(())
        })
    })?;
    (!table.values.is_empty()).then_some(table)
}

/// A run's table, without scores a C float cannot hold (the Python reader warns of them).
fn run(data: *mut ffi::PyObject, kinds: &Kinds) -> Option<Table> {
    table(data, kinds, score).filter(|t| c_float_losses(&t.values).is_none())
}

/// The qrels dict and the run dicts read for the engine, and the runs' names, or `None`
/// when one of them is left to the Python reader (module documentation). `runs`: one run
/// (named `run`) or a dict `{name: run}` (`str` names), as `irscale.io.sources.as_runs`
/// tells them apart (one run: every value a dict whose first value is no mapping).
#[pyfunction]
fn read_dicts(
    qrels: &Bound<'_, PyAny>,
    runs: &Bound<'_, PyAny>,
) -> PyResult<Option<(Dicts, Vec<String>)>> {
    let default = qrels.py().import("collections")?.getattr("defaultdict")?;
    let kinds = Kinds {
        default: default.as_ptr().cast(),
    };
    Ok(read(qrels, runs, &kinds))
}

/// [`read_dicts`], the kinds of dicts taken given.
fn read(
    qrels: &Bound<'_, PyAny>,
    runs: &Bound<'_, PyAny>,
    kinds: &Kinds,
) -> Option<(Dicts, Vec<String>)> {
    let qrels = table(qrels.as_ptr(), kinds, degree)?;
    if let Some(one) = run(runs.as_ptr(), kinds) {
        return Some((
            Dicts {
                qrels,
                runs: vec![one],
            },
            vec!["run".to_string()],
        ));
    }
    if !kinds.taken(runs.as_ptr()) {
        return None;
    }
    let (mut tables, mut names) = (Vec::new(), Vec::new());
    items(runs.as_ptr(), |name, given| {
        names.push(text(name)?.to_string());
        tables.push(run(given, kinds)?);
        Some(())
    })?;
    (!tables.is_empty()).then_some((
        Dicts {
            qrels,
            runs: tables,
        },
        names,
    ))
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
    let options = Options::new(ties, compat, max_docs, judged_only, placeholders);
    let (qrels, runs) = {
        let mut held = dicts.borrow_mut();
        (
            std::mem::take(&mut held.qrels),
            std::mem::take(&mut held.runs),
        )
    };
    if runs.is_empty() {
        return Err(PyValueError::new_err("these dicts were judged already"));
    }
    let judgment = detached(py, "judging dicts", || dicts::judge(&qrels, runs, &options))?
        .map_err(memory_error)?;
    judgment_tuple(py, judgment)
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Dicts>()?;
    m.add_function(wrap_pyfunction!(read_dicts, m)?)?;
    m.add_function(wrap_pyfunction!(judge_dicts, m)?)?;
    Ok(())
}
