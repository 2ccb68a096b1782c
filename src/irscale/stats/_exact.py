"""Exact null distributions of rank statistics, conditional on the observed (mid)ranks.

Ranks are doubled so that mid-ranks become integers; counts are float64 (sums of
positive terms only, so no cancellation). With no ties these are the classical tables.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..errors import ParameterError
from .validation import Alternative

#: Largest number of additions an exact distribution may take (keeps exact methods cheap).
MAX_EXACT_WORK = 2e9


@lru_cache(maxsize=64)
def signed_rank_counts(doubled_ranks: tuple[int, ...]) -> np.ndarray:
    """Counts of Σ 2r_i·B_i over the 2^n sign vectors B ∈ {0, 1}^n (Wilcoxon's W+ × 2)."""
    total = int(sum(doubled_ranks))
    if len(doubled_ranks) * (total + 1) > MAX_EXACT_WORK:
        raise ParameterError("sample too large for the exact signed-rank distribution")
    counts = np.zeros(total + 1)
    counts[0] = 1.0
    reach = 0
    for r in doubled_ranks:
        counts[r : reach + r + 1] += counts[: reach + 1].copy()
        reach += r
    return counts


@lru_cache(maxsize=64)
def rank_sum_counts(doubled_ranks: tuple[int, ...], size: int) -> np.ndarray:
    """Counts of Σ 2r over the ``size``-subsets of the given doubled ranks (rank-sum × 2)."""
    total = int(sum(sorted(doubled_ranks)[-size:])) if size else 0
    if len(doubled_ranks) * size * (total + 1) > MAX_EXACT_WORK:
        raise ParameterError("samples too large for the exact rank-sum distribution")
    table = np.zeros((size + 1, total + 1))
    table[0, 0] = 1.0
    for i, r in enumerate(doubled_ranks):
        for j in range(min(i + 1, size), 0, -1):
            table[j, r:] += table[j - 1, : total + 1 - r]
    return table[size]


def tail_pvalues(
    counts: np.ndarray, observed: np.ndarray | int, alternative: Alternative
) -> np.ndarray:
    """p-values of observed (doubled, integer) statistics under the counted distribution.

    ``greater``: P(S ≥ s); ``less``: P(S ≤ s); two-sided: min(1, 2 min of the two).
    """
    total = counts.sum()
    below = np.cumsum(counts) / total  # P(S <= s)
    s = np.clip(np.asarray(observed, dtype=np.int64), 0, len(counts) - 1)
    lower = below[s]
    upper = 1.0 - below[s] + counts[s] / total
    if alternative == "greater":
        return np.minimum(upper, 1.0)
    if alternative == "less":
        return np.minimum(lower, 1.0)
    return np.minimum(1.0, 2.0 * np.minimum(upper, lower))


def grouped_exact_pvalues(
    doubled: np.ndarray, observed: np.ndarray, alternative: Alternative, distribution
) -> np.ndarray:
    """Exact p-values of many columns, one distribution per distinct rank pattern.

    ``doubled`` is (n × k): each column's doubled ranks (0 for items that do not count);
    ``distribution(ranks)`` returns the counts of the statistic for a rank tuple. Columns
    sharing a rank pattern (e.g. every column without ties) share one distribution.
    """
    keys, inverse = np.unique(np.sort(doubled, axis=0), axis=1, return_inverse=True)
    inverse = np.asarray(inverse).ravel()
    p = np.empty(doubled.shape[1])
    for g in range(keys.shape[1]):
        members = inverse == g
        counts = distribution(tuple(int(r) for r in keys[:, g] if r > 0))
        p[members] = tail_pvalues(counts, observed[members], alternative)
    return p
