//! Python's view of the scale engine's counting kernels (`crate::scales`), called by
//! `irscale.scales.pairs`.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::scales::int_pairs::{self, Group};

/// The groups' arrays `(a, a_mult, b, b_mult)` read in place (sorted ascending, int64).
type GroupArrays<'py> = Vec<(
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
)>;

fn groups<'a>(arrays: &'a GroupArrays<'_>) -> PyResult<Vec<Group<'a>>> {
    arrays
        .iter()
        .map(|(a, a_mult, b, b_mult)| {
            let g = Group {
                a: a.as_slice()?,
                a_mult: a_mult.as_slice()?,
                b: b.as_slice()?,
                b_mult: b_mult.as_slice()?,
            };
            if g.a.len() != g.a_mult.len() || g.b.len() != g.b_mult.len() {
                return Err(PyValueError::new_err(
                    "values and multiplicities differ in length",
                ));
            }
            Ok(g)
        })
        .collect()
}

/// The distinct integer sums `a + b` of the groups in `[lo, hi)`, ascending: `(values,
/// runs per value or None, candidate pairs)` (`crate::scales::int_pairs`).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn int_pair_bucket<'py>(
    py: Python<'py>,
    groups_arrays: GroupArrays<'py>,
    lo: i64,
    hi: i64,
    counts: bool,
) -> PyResult<(
    Bound<'py, PyArray1<i64>>,
    Option<Bound<'py, PyArray1<i64>>>,
    usize,
)> {
    let gs = groups(&groups_arrays)?;
    if counts {
        let (values, runs, pairs) = py.detach(|| int_pairs::bucket_counts(&gs, lo, hi));
        Ok((values.into_pyarray(py), Some(runs.into_pyarray(py)), pairs))
    } else {
        let (values, pairs) = py.detach(|| int_pairs::bucket_values(&gs, lo, hi));
        Ok((values.into_pyarray(py), None, pairs))
    }
}

/// One streaming pass over the buckets of `edges`: the distinct sums of each bucket and,
/// per query, the distinct sums ≤ it (< it when `strict`).
#[pyfunction]
fn int_pair_scan<'py>(
    py: Python<'py>,
    groups_arrays: GroupArrays<'py>,
    edges: PyReadonlyArray1<'py, i64>,
    queries: PyReadonlyArray1<'py, i64>,
    strict: bool,
) -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>)> {
    let gs = groups(&groups_arrays)?;
    let edges = edges.as_slice()?;
    let queries = queries.as_slice()?;
    if edges.windows(2).any(|w| w[0] >= w[1]) {
        return Err(PyValueError::new_err("bucket edges must increase"));
    }
    let (sizes, answers) = py.detach(|| int_pairs::scan(&gs, edges, queries, strict));
    Ok((sizes.into_pyarray(py), answers.into_pyarray(py)))
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(int_pair_bucket, m)?)?;
    m.add_function(wrap_pyfunction!(int_pair_scan, m)?)?;
    Ok(())
}
