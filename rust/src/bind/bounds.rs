//! Python's view of the bounds search's kernels (`crate::bounds`), called by
//! `irscale.collections.bounds_chains` (the chains and their extremes) and
//! `irscale.collections.bounds` (the completed rankings).

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::guard::detached;
use crate::bounds::complete::completed;
use crate::bounds::extremes::{Marked, Marks};
use crate::bounds::{Chain, Completions};
use crate::judged::JudgedView;

/// A batch's arrays (`irscale.core.judged.JudgedRankings`'s, read in place): `rel`,
/// `offsets`, `rel_levels`, the degrees of its columns and the relevance level.
type ViewArrays<'py> = (
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray2<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    i64,
);

fn view<'a>(arrays: &'a ViewArrays<'_>) -> PyResult<JudgedView<'a>> {
    let view = JudgedView {
        rel: arrays.0.as_slice()?,
        offsets: arrays.1.as_slice()?,
        rel_levels: arrays.2.as_slice()?,
        degrees: arrays.3.as_slice()?,
        relevance_level: arrays.4,
    };
    view.check().map_err(PyValueError::new_err)?;
    Ok(view)
}

/// The completions of the batch `arrays`, `below` its rankings' unjudged documents below
/// it, given the grades `grades` (lowest, highest).
fn completions<'a>(
    arrays: &'a ViewArrays<'_>,
    below: &'a PyReadonlyArray1<'_, i64>,
    grades: (i64, i64),
) -> PyResult<Completions<'a>> {
    let view = view(arrays)?;
    let below = below.as_slice()?;
    if below.len() != view.n_rankings() {
        return Err(PyValueError::new_err("below: one count per ranking"));
    }
    Ok(Completions {
        view,
        below,
        lowest: grades.0,
        highest: grades.1,
    })
}

/// Two int64 arrays.
type Ints<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// One float64 array per family.
type Families<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// The chain of `family` (cut-offs `ints`, levels `floats`) at relevance `level` on every
/// completion of the batch: per output, the prefix and the suffix family's values, each
/// ranking's `u + 1` slots end to end; `None` where the completions do not change the
/// measure.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn bounds_chain<'py>(
    py: Python<'py>,
    family: &str,
    ints: Vec<i64>,
    floats: Vec<f64>,
    arrays: ViewArrays<'py>,
    below: PyReadonlyArray1<'py, i64>,
    grades: (i64, i64),
    level: i64,
) -> PyResult<Option<Vec<Families<'py>>>> {
    let chain = Chain::of(family, &ints, &floats).map_err(PyValueError::new_err)?;
    let c = completions(&arrays, &below, grades)?;
    let found = detached(py, "following the bounds' chains", || {
        let per_ranking = c.chain(&chain, level, |_, outputs| outputs)?;
        let outputs = per_ranking.first().map_or(0, Vec::len);
        Some(
            (0..outputs)
                .map(|o| {
                    let each = |suffix: bool| -> Vec<f64> {
                        per_ranking
                            .iter()
                            .flat_map(|ranking| ranking[o].family(suffix).iter().copied())
                            .collect()
                    };
                    (each(false), each(true))
                })
                .collect::<Vec<_>>(),
        )
    })?;
    Ok(found.map(|outputs| {
        outputs
            .into_iter()
            .map(|(prefix, suffix)| (prefix.into_pyarray(py), suffix.into_pyarray(py)))
            .collect()
    }))
}

/// The slots of both families (bool arrays, every ranking's end to end) where the chain of
/// `family` reaches an extreme for some output, those `marked` says (`near`, `first` or
/// `none`: empty arrays; `crate::bounds::extremes`), and per output, per ranking, its
/// lowest and highest value; `None` where the completions do not change the measure.
#[pyfunction]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn bounds_marks<'py>(
    py: Python<'py>,
    family: &str,
    ints: Vec<i64>,
    floats: Vec<f64>,
    arrays: ViewArrays<'py>,
    below: PyReadonlyArray1<'py, i64>,
    grades: (i64, i64),
    level: i64,
    marked: &str,
) -> PyResult<
    Option<(
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Vec<Families<'py>>,
    )>,
> {
    let chain = Chain::of(family, &ints, &floats).map_err(PyValueError::new_err)?;
    let marked = Marked::of(marked).map_err(PyValueError::new_err)?;
    let c = completions(&arrays, &below, grades)?;
    let found = detached(py, "finding the bounds' chains' extremes", || {
        let marks = c.chain(&chain, level, |ranking, outputs| {
            Marks::of(&outputs, ranking.u(), marked)
        })?;
        let outputs = marks.first().map_or(0, |m| m.extremes.len());
        let flags = |suffix: bool| -> Vec<bool> {
            marks
                .iter()
                .flat_map(|m| if suffix { &m.suffix } else { &m.prefix }.iter().copied())
                .collect()
        };
        let extremes = (0..outputs)
            .map(|o| {
                let side = |high: bool| -> Vec<f64> {
                    marks
                        .iter()
                        .map(|m| {
                            if high {
                                m.extremes[o].1
                            } else {
                                m.extremes[o].0
                            }
                        })
                        .collect()
                };
                (side(false), side(true))
            })
            .collect::<Vec<_>>();
        Some((flags(false), flags(true), extremes))
    })?;
    Ok(found.map(|(prefix, suffix, extremes)| {
        (
            prefix.into_pyarray(py),
            suffix.into_pyarray(py),
            extremes
                .into_iter()
                .map(|(low, high)| (low.into_pyarray(py), high.into_pyarray(py)))
                .collect(),
        )
    }))
}

/// The completed rankings `(ranking[j], suffix[j], k[j])` of the batch `rel`, `offsets`,
/// each unjudged document given the grade `lowest` or `highest` (`crate::bounds::complete`):
/// their degrees and offsets.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn bounds_complete<'py>(
    py: Python<'py>,
    rel: PyReadonlyArray1<'py, i64>,
    offsets: PyReadonlyArray1<'py, i64>,
    ranking: PyReadonlyArray1<'py, i64>,
    suffix: PyReadonlyArray1<'py, bool>,
    k: PyReadonlyArray1<'py, i64>,
    lowest: i64,
    highest: i64,
) -> PyResult<Ints<'py>> {
    let view = JudgedView {
        rel: rel.as_slice()?,
        offsets: offsets.as_slice()?,
        rel_levels: &[],
        degrees: &[],
        relevance_level: 0,
    };
    view.check().map_err(PyValueError::new_err)?;
    let (ranking, suffix, k) = (ranking.as_slice()?, suffix.as_slice()?, k.as_slice()?);
    if ranking.len() != suffix.len() || ranking.len() != k.len() {
        return Err(PyValueError::new_err(
            "ranking, suffix, k: one value per completion",
        ));
    }
    let n = view.n_rankings();
    let which = ranking
        .iter()
        .zip(suffix)
        .zip(k)
        .map(
            |((&i, &s), &k)| match (usize::try_from(i), usize::try_from(k)) {
                (Ok(i), Ok(k)) if i < n => Ok((i, s, k)),
                _ => Err(PyValueError::new_err(format!(
                    "no completion {k} of ranking {i}"
                ))),
            },
        )
        .collect::<PyResult<Vec<_>>>()?;
    let (rel, offsets) = detached(py, "completing rankings", || {
        completed(&view, lowest, highest, &which)
    })?
    .map_err(PyValueError::new_err)?;
    Ok((rel.into_pyarray(py), offsets.into_pyarray(py)))
}

/// Adds this module's functions to the engine's Python module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bounds_chain, m)?)?;
    m.add_function(wrap_pyfunction!(bounds_marks, m)?)?;
    m.add_function(wrap_pyfunction!(bounds_complete, m)?)?;
    Ok(())
}
