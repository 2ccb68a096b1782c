"""The intervals of a comparison's means: each system's mean and every pair's difference.

A comparison of systems (:class:`~irscale.stats.results.PairwiseComparisons`: pairwise
tests, Tukey's HSD) prints, per pair (a, b) and measure, the two means over the n topics
and ``diff`` = mean_a − mean_b. :func:`with_mean_intervals` adds their 1 − α intervals by
one method of :data:`~irscale.core.params.MEAN_INTERVALS` (:mod:`irscale.core.mean_intervals`):

* ``mean_a_low, mean_a_high`` and ``mean_b_low, mean_b_high``: the interval of each
  system's mean over its per-topic values x_1..x_n;
* ``diff_low, diff_high``: the interval of the mean of the paired differences
  d_t = a_t − b_t (topics paired: for ``"t"`` the paired t interval
  d̄ ± t_{1−α/2, n−1} · s_d/√n; for ``"bootstrap"`` the percentile interval of d̄ over the
  same resampled topic sets as the means').

Every column of one measure uses the same bootstrap draws, so a system has one interval
whatever pair it appears in. α is the comparison's own, the level of its test's interval
(``ci_low, ci_high``, which stays: for Tukey's HSD it is simultaneous, for a two-system test
the test's; ``diff_low, diff_high`` is per pair and by the method asked for).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core import ScoreMatrix
from ..core.mean_intervals import MeanInterval, check_interval, mean_intervals
from ..errors import ParameterError
from .results import PairwiseComparisons

#: The columns :func:`with_mean_intervals` adds, in the order of the tables.
INTERVAL_COLUMNS = ("mean_a_low", "mean_a_high", "mean_b_low", "mean_b_high", "diff_low",
                    "diff_high")


def with_mean_intervals(pairs: PairwiseComparisons, matrix: ScoreMatrix,
                        method: MeanInterval = "t", *, measure: str | None = None,
                        samples: int = 10_000,
                        rng: int | np.random.Generator | None = None
                        ) -> PairwiseComparisons:
    """``pairs`` with the intervals of its means and differences (module documentation).

    Parameters
    ----------
    pairs : PairwiseComparisons
        A comparison of systems of ``matrix`` whose ``mean_a``, ``mean_b`` are the plain
        means over topics (pairwise tests; Tukey's HSD after an ANOVA of untransformed
        scores).
    matrix : ScoreMatrix
        The per-topic values compared, complete (every system on every topic).
    method : {"t", "bootstrap"}
        The interval (:mod:`irscale.core.mean_intervals`); ``samples`` and ``rng`` for the
        bootstrap.
    measure : str, optional
        The measure of ``pairs`` when it has no ``measure`` column (default: the matrix's
        only measure).

    Returns
    -------
    PairwiseComparisons
        The same decisions with the columns :data:`INTERVAL_COLUMNS` and
        ``extra["mean_interval"]`` = ``method``.

    Raises
    ------
    ParameterError
        Unknown method or bootstrap samples; a comparison of several collections, of
        missing values, or whose means are not the plain means of ``matrix``.

    Examples
    --------
    >>> from irscale.stats import pairwise_tests
    >>> m = ScoreMatrix.from_array(np.array([[0.2, 0.4], [0.5, 0.5], [0.1, 0.3]]),
    ...                            systems=["bm25", "new"])
    >>> found = with_mean_intervals(pairs=pairwise_tests(m), matrix=m).to_frame()
    >>> found[["diff", "diff_low", "diff_high"]].round(4).to_dict("records")
    [{'diff': -0.1333, 'diff_low': -0.4202, 'diff_high': 0.1535}]
    """
    check_interval(method)
    columns = pairs.columns
    if "collection" in columns:
        raise ParameterError("the intervals of the means are those of one collection: "
                             "compare one score matrix")
    if "mean_a" not in columns:
        raise ParameterError(f"{pairs.method} has no means to give an interval of")
    names = [str(m) for m in columns["measure"]] if "measure" in columns else \
        [measure or _only_measure(matrix)] * len(pairs)
    added = {key: np.full(len(pairs), np.nan) for key in INTERVAL_COLUMNS}
    systems = {str(s): k for k, s in enumerate(matrix.systems)}
    a = np.array([systems[str(s)] for s in columns["a"]], dtype=np.intp)
    b = np.array([systems[str(s)] for s in columns["b"]], dtype=np.intp)
    for name in dict.fromkeys(names):
        rows = np.flatnonzero(np.array(names, dtype=object) == name)
        values = matrix.subset(measures=[name]).values[:, :, 0]
        if np.isnan(values).any():
            raise ParameterError(f"the intervals of the means need every system's {name} on "
                                 "every topic (the comparison's topics)")
        if not np.allclose(values.mean(axis=0)[a[rows]], np.asarray(columns["mean_a"])[rows],
                           rtol=1e-9, atol=1e-12):
            raise ParameterError(f"{pairs.method}: its means of {name} are not the means of "
                                 "the scores over topics (transformed or model-based): no "
                                 "interval over topics applies to them")
        differences = values[:, a[rows]] - values[:, b[rows]]
        low, high = mean_intervals(np.hstack([values, differences]), method,
                                   alpha=pairs.alpha, samples=samples, rng=rng)
        k = values.shape[1]
        added["mean_a_low"][rows], added["mean_a_high"][rows] = low[a[rows]], high[a[rows]]
        added["mean_b_low"][rows], added["mean_b_high"][rows] = low[b[rows]], high[b[rows]]
        added["diff_low"][rows], added["diff_high"][rows] = low[k:], high[k:]
    ordered: dict[str, np.ndarray] = {}
    for key, value in columns.items():  # each interval after its value
        ordered[key] = value
        for bound in ("low", "high"):
            if f"{key}_{bound}" in added:
                ordered[f"{key}_{bound}"] = added[f"{key}_{bound}"]
    return replace(pairs, columns=ordered, extra={**pairs.extra, "mean_interval": method})


def _only_measure(matrix: ScoreMatrix) -> str:
    """The one measure of ``matrix``."""
    if len(matrix.measures) != 1:
        raise ParameterError(f"name the measure of the comparison among "
                             f"{list(matrix.measures)}")
    return str(matrix.measures[0])


__all__ = ["INTERVAL_COLUMNS", "with_mean_intervals"]
