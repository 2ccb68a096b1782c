"""Mid-ranks with a tie tolerance, column by column, and the tie term Σ(t³ − t).

Values closer than the tie tolerance (see :data:`irscale.stats.validation.TIE_RTOL`) share the
average of the ranks they span, as in every rank test of this package; ``Σ(t³ − t)`` over
tie groups of size ``t`` is the usual tie correction of the rank tests' variances.
"""

from __future__ import annotations

import numpy as np


def rank_columns(values: np.ndarray, tol: float | np.ndarray = 0.0
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Average ranks (1-based) of every column of ``values`` and each column's Σ(t³ − t).

    ``values`` is (n × k); consecutive sorted values that differ by at most ``tol`` (one
    tolerance, or one per column) form one tie group. Vectorised over columns: no Python
    loop per column.
    """
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 1:
        ranks, ties = rank_columns(values[:, None], tol)
        return ranks[:, 0], ties
    n, k = values.shape
    if n == 0:
        return np.empty((0, k)), np.zeros(k)
    order = np.argsort(values, axis=0, kind="stable")
    ordered = np.take_along_axis(values, order, axis=0)
    starts = np.ones((n, k), dtype=bool)
    starts[1:] = (ordered[1:] - ordered[:-1]) > tol
    ends = np.ones((n, k), dtype=bool)
    ends[:-1] = starts[1:]
    position = np.arange(n)[:, None]
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=0)
    last = np.minimum.accumulate(np.where(ends, position, n - 1)[::-1], axis=0)[::-1]
    size = (last - first + 1).astype(np.float64)
    ranks = np.empty((n, k))
    np.put_along_axis(ranks, order, (first + last) / 2.0 + 1.0, axis=0)
    ties = np.sum(size * size - 1.0, axis=0)  # each of t members adds t² − 1: Σ t³ − t
    return ranks, ties
