//! Python's view of the scale engine's counting kernels (`crate::scales`), called by
//! `irscale.scales.pairs`.

use numpy::{Element, IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::guard::detached;
use crate::scales::group::Group;
use crate::scales::int_pairs;
use crate::scales::residues;
use crate::scales::sweep::{self, Halves, Value};

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
        let (values, runs, pairs) = detached(py, "counting pair buckets", || {
            int_pairs::bucket_counts(&gs, lo, hi)
        })?;
        Ok((values.into_pyarray(py), Some(runs.into_pyarray(py)), pairs))
    } else {
        let (values, pairs) = detached(py, "listing pair buckets", || {
            int_pairs::bucket_values(&gs, lo, hi)
        })?;
        Ok((values.into_pyarray(py), None, pairs))
    }
}

/// Two int64 arrays handed to Python.
type Pair<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// One streaming pass over the buckets of `edges`: the distinct sums of each bucket and,
/// per query, the distinct sums ≤ it (< it when `strict`).
#[pyfunction]
fn int_pair_scan<'py>(
    py: Python<'py>,
    groups_arrays: GroupArrays<'py>,
    edges: PyReadonlyArray1<'py, i64>,
    queries: PyReadonlyArray1<'py, i64>,
    strict: bool,
) -> PyResult<Pair<'py>> {
    let gs = groups(&groups_arrays)?;
    let edges = edges.as_slice()?;
    let queries = queries.as_slice()?;
    if edges.windows(2).any(|w| w[0] >= w[1]) {
        return Err(PyValueError::new_err("bucket edges must increase"));
    }
    let (sizes, answers) = detached(py, "scanning pair buckets", || {
        int_pairs::scan(&gs, edges, queries, strict)
    })?;
    Ok((sizes.into_pyarray(py), answers.into_pyarray(py)))
}

/// Whether [`int_pair_scan`] over the buckets of `edges` counts by residue classes (one
/// pass for every bucket, fast: its caller need not share the buckets out between calls).
#[pyfunction]
fn int_pair_classes<'py>(
    py: Python<'py>,
    groups_arrays: GroupArrays<'py>,
    edges: PyReadonlyArray1<'py, i64>,
) -> PyResult<bool> {
    let gs = groups(&groups_arrays)?;
    let edges = edges.as_slice()?;
    detached(py, "planning residue classes", || {
        residues::apply(&gs, edges)
    })
}

/// A group's halves for the sweep: `(a, a_mult, a_cum, b, b_mult, b_cum)`.
type HalvesArrays<'py, V> = (
    PyReadonlyArray1<'py, V>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, V>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
);

fn halves<'a, V: Element>(
    arrays: &'a [HalvesArrays<'_, V>],
    weighted: bool,
) -> PyResult<Vec<Halves<'a, V>>> {
    arrays
        .iter()
        .map(|(a, am, ac, b, bm, bc)| {
            let h = Halves {
                a: a.as_slice()?,
                a_mult: am.as_slice()?,
                a_cum: ac.as_slice()?,
                b: b.as_slice()?,
                b_mult: bm.as_slice()?,
                b_cum: bc.as_slice()?,
            };
            // running runs are needed (and given) only for weighted counts
            let cum_fits = |cum: &[i64], len: usize| cum.len() == len + 1 || !weighted;
            let fits = h.a.len() == h.a_mult.len()
                && h.b.len() == h.b_mult.len()
                && cum_fits(h.a_cum, h.a.len())
                && cum_fits(h.b_cum, h.b.len());
            if !fits {
                return Err(PyValueError::new_err("a group's arrays differ in length"));
            }
            Ok(h)
        })
        .collect()
}

fn count_of<'py, V: Element + Value + 'static>(
    py: Python<'py>,
    groups: &Bound<'py, PyAny>,
    x: &Bound<'py, PyAny>,
    strict: bool,
    weighted: bool,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let arrays: Vec<HalvesArrays<'py, V>> = groups.extract()?;
    let gs = halves(&arrays, weighted)?;
    let x: PyReadonlyArray1<'py, V> = x.extract()?;
    let x = x.as_slice()?;
    Ok(py
        .detach(|| sweep::count(&gs, x, strict, weighted))
        .into_pyarray(py))
}

/// Per query, the pairs (runs when `weighted`) with `a + b ≤ x` (`< x` when `strict`);
/// int64 halves and queries when `integer`, float64 otherwise (`crate::scales::sweep`).
#[pyfunction]
fn pair_count<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyAny>,
    x: &Bound<'py, PyAny>,
    strict: bool,
    weighted: bool,
    integer: bool,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    if integer {
        count_of::<i64>(py, groups, x, strict, weighted)
    } else {
        count_of::<f64>(py, groups, x, strict, weighted)
    }
}

type Window<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
);

fn window_of<'py, V: Element + Value + 'static>(
    py: Python<'py>,
    groups: &Bound<'py, PyAny>,
    lo: &Bound<'py, PyAny>,
    hi: &Bound<'py, PyAny>,
    weighted: bool,
) -> PyResult<Window<'py>> {
    let arrays: Vec<HalvesArrays<'py, V>> = groups.extract()?;
    let gs = halves(&arrays, weighted)?;
    let lo: PyReadonlyArray1<'py, V> = lo.extract()?;
    let hi: PyReadonlyArray1<'py, V> = hi.extract()?;
    let (lo, hi) = (lo.as_slice()?, hi.as_slice()?);
    if lo.len() != hi.len() {
        return Err(PyValueError::new_err("lo and hi differ in length"));
    }
    let (below, q, g, a, b) = detached(py, "sweeping pairs", || {
        sweep::window_pairs(&gs, lo, hi, weighted)
    })?;
    Ok((
        below.into_pyarray(py),
        q.into_pyarray(py),
        g.into_pyarray(py),
        a.into_pyarray(py),
        b.into_pyarray(py),
    ))
}

/// The pairs with `lo_q ≤ a + b ≤ hi_q` of each query and the pairs (runs when
/// `weighted`) below each window: `(below, query, group, a index, b index)`.
#[pyfunction]
fn pair_window<'py>(
    py: Python<'py>,
    groups: &Bound<'py, PyAny>,
    lo: &Bound<'py, PyAny>,
    hi: &Bound<'py, PyAny>,
    weighted: bool,
    integer: bool,
) -> PyResult<Window<'py>> {
    if integer {
        window_of::<i64>(py, groups, lo, hi, weighted)
    } else {
        window_of::<f64>(py, groups, lo, hi, weighted)
    }
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(int_pair_bucket, m)?)?;
    m.add_function(wrap_pyfunction!(int_pair_scan, m)?)?;
    m.add_function(wrap_pyfunction!(int_pair_classes, m)?)?;
    m.add("INT_PAIR_CLASS_BUCKETS", residues::MIN_BUCKETS)?;
    m.add_function(wrap_pyfunction!(pair_count, m)?)?;
    m.add_function(wrap_pyfunction!(pair_window, m)?)?;
    Ok(())
}
