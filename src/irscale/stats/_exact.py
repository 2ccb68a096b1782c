"""Exact null distributions of rank statistics, conditional on the observed (mid)ranks.

Ranks are doubled so that mid-ranks become integers; counts are float64 (sums of
positive terms only, so no cancellation). With no ties these are the classical tables.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..errors import ParameterError

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


def tail_pvalues(counts: np.ndarray, observed: int, alternative: str) -> float:
    """p-value of an observed (doubled, integer) statistic under the counted distribution.

    ``greater``: P(S ≥ s); ``less``: P(S ≤ s); two-sided: min(1, 2 min of the two).
    """
    total = counts.sum()
    observed = int(min(max(observed, 0), len(counts) - 1))
    upper = counts[observed:].sum() / total
    lower = counts[: observed + 1].sum() / total
    if alternative == "greater":
        return float(upper)
    if alternative == "less":
        return float(lower)
    return float(min(1.0, 2.0 * min(upper, lower)))
