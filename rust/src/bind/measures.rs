//! Python's view of trec_eval's measure kernels (`crate::measures`).

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::guard::detached;
use crate::judged::JudgedView;
use crate::measures::families::{self, Count};
use crate::measures::{Context, FAMILIES, Params, Values};
use crate::tie_aware;

/// The values of one trec_eval measure family on a batch of judged rankings (the arrays of
/// `irscale.core.judged.JudgedRankings`, read in place): `[(output name, values)]`, the
/// values a float64 or int64 array, or a list of strings. With `groups` (the tie group of
/// each document, `--ties expected`), the values are their expectations over the orders of
/// the tied documents (`crate::tie_aware`).
#[pyfunction]
#[pyo3(signature = (family, ints, floats, gains, rel, offsets, rel_levels, degrees,
                    relevance_level, compat, num_docs_in_coll, groups=None))]
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
    groups: Option<PyReadonlyArray1<'py, i64>>,
) -> PyResult<Vec<(String, Py<PyAny>)>> {
    let groups = groups.as_ref().map(|g| g.as_slice()).transpose()?;
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
    let outputs = detached(py, "computing a measure", || {
        tie_aware::compute(family, &params, &view, groups, &ctx)
    })?
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

/// The output names of the trec_eval family `family` with these parameters, in the order
/// of the values `trec_measure` gives (known without judging; an error as `trec_measure`'s).
#[pyfunction]
fn trec_output_names(
    family: &str,
    ints: Vec<i64>,
    floats: Vec<f64>,
    gains: Vec<(i64, f64)>,
    compat: u8,
    num_docs_in_coll: i64,
) -> PyResult<Vec<String>> {
    let params = Params {
        ints,
        floats,
        gains,
    };
    let ctx = Context {
        compat,
        num_docs_in_coll,
    };
    crate::measures::output_names(family, &params, &ctx).map_err(PyValueError::new_err)
}

/// A count of parameters as Python reads it: `(min, max)`, `max` `None` for no bound.
type Bounds = (usize, Option<usize>);

/// The engine's table of trec_eval families (`measures::FAMILIES`, each module's lines), one
/// tuple per line in the table's order: `(name, cut-offs, numbers, gain pairs, role)`, each
/// count of parameters as `(min, max)` and the role `measure` (declared by `declare_native`)
/// or `part` (computed for other measures).
#[pyfunction]
fn trec_families() -> Vec<(&'static str, Bounds, Bounds, Bounds, &'static str)> {
    let bounds = |count: Count| (count.min, count.max);
    families::lines(FAMILIES)
        .map(|family| {
            let shape = family.shape;
            (
                family.name,
                bounds(shape.ints),
                bounds(shape.floats),
                bounds(shape.gains),
                family.role.name(),
            )
        })
        .collect()
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
    let map = crate::measures::gains::GainMap::new(&gains);
    Ok(crate::measures::gains::unreplayable_tables(
        rel_levels.as_slice()?,
        degrees.as_slice()?,
        &map,
    ))
}

/// The trec_eval families with a tie-aware value (`crate::tie_aware`): those computed in
/// expectation, then those whose value does not depend on the order.
#[pyfunction]
fn tie_aware_families() -> (Vec<&'static str>, Vec<&'static str>) {
    (
        tie_aware::TIE_AWARE.to_vec(),
        tie_aware::ORDER_FREE.to_vec(),
    )
}

/// Per ranking (`offsets`): the expectation of ERR over the orders of its tie groups
/// (`groups`, one id per document), with `stop` the stopping probability of each document
/// and weights `1/r` up to rank `depth` (all ranks: `None`), as float64
/// (`crate::tie_aware::err`).
#[pyfunction]
#[pyo3(signature = (stop, groups, offsets, depth=None))]
fn expected_err<'py>(
    py: Python<'py>,
    stop: PyReadonlyArray1<'py, f64>,
    groups: PyReadonlyArray1<'py, i64>,
    offsets: PyReadonlyArray1<'py, i64>,
    depth: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (stop, groups, offsets) = (stop.as_slice()?, groups.as_slice()?, offsets.as_slice()?);
    let values = detached(py, "computing ERR", || {
        tie_aware::err::expected_err(stop, groups, offsets, depth)
    })?
    .map_err(PyValueError::new_err)?;
    Ok(values.into_pyarray(py))
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trec_measure, m)?)?;
    m.add_function(wrap_pyfunction!(gain_sort_unreplayable, m)?)?;
    m.add_function(wrap_pyfunction!(trec_output_names, m)?)?;
    m.add_function(wrap_pyfunction!(trec_families, m)?)?;
    m.add_function(wrap_pyfunction!(tie_aware_families, m)?)?;
    m.add_function(wrap_pyfunction!(expected_err, m)?)?;
    Ok(())
}
