"""Rank-based omnibus tests of many systems: Kruskal–Wallis and Friedman.

Kruskal–Wallis (Kruskal & Wallis, 1952; Ferrante et al. 2021, §7.3, Ferro & Maistro 2024, §7.5)
    All N = n·k scores are ranked together (mid-ranks); with R_j the rank sum of system j
    over its n_j scores, H = [12/(N(N + 1)) Σ R_j²/n_j − 3(N + 1)] / C with the tie
    correction C = 1 − Σ(t³ − t)/(N³ − N); H ~ χ²_{k−1}. The unpaired view (topics ignored).
Friedman (Friedman, 1937)
    Scores are ranked within each topic; with R_j the rank sum of system j over the n
    topics, χ²_F = [12/(n k (k + 1)) Σ R_j² − 3n(k + 1)] / (1 − Σ(t³ − t)/(n(k³ − k)));
    χ²_F ~ χ²_{k−1}. The paired (topic-blocked) counterpart of the two-way ANOVA.

Both match scipy.stats.kruskal and scipy.stats.friedmanchisquare. Tukey's HSD after them
works on mean ranks (:meth:`irscale.stats.results.RankTestResult.tukey_hsd`).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ..errors import InputError
from .ranks import rank_columns
from .results import RankTestResult
from .validation import check_not_constant, score_table, tie_tolerance


def kruskal_wallis(data: object, *, measure: str | None = None) -> RankTestResult:
    """Kruskal–Wallis test that all systems' score distributions are the same."""
    values, _, systems = score_table(data, measure)
    check_not_constant(values)
    n, k = values.shape
    big = n * k
    ranks, ties = rank_columns(values.reshape(-1, 1), tie_tolerance(values))
    ranks = ranks.reshape(n, k)
    correction = 1.0 - float(ties[0]) / (big**3 - big)
    sums = ranks.sum(axis=0)
    h = (12.0 / (big * (big + 1)) * np.sum(sums**2 / n) - 3 * (big + 1)) / correction
    return RankTestResult(
        test="Kruskal-Wallis", statistic=float(h), df=float(k - 1),
        pvalue=float(stats.chi2.sf(h, k - 1)), systems=systems, mean_ranks=sums / n,
        rank_variance=big * (big + 1) / 12.0 * correction,
        rank_counts=np.full(k, float(n)), n_obs=big,
    )


def friedman(data: object, *, measure: str | None = None) -> RankTestResult:
    """Friedman test of the system effect with topics as blocks."""
    values, _, systems = score_table(data, measure)
    check_not_constant(values)
    n, k = values.shape
    ranks, ties = rank_columns(values.T, tie_tolerance(values))  # ranks within each topic
    sums = ranks.sum(axis=1)
    total_ties = float(ties.sum())
    correction = 1.0 - total_ties / (n * (k**3 - k))
    if correction <= 0:
        raise InputError("Friedman test undefined: every topic gives all systems the same score")
    chi2 = (12.0 / (n * k * (k + 1)) * np.sum(sums**2) - 3 * n * (k + 1)) / correction
    return RankTestResult(
        test="Friedman", statistic=float(chi2), df=float(k - 1),
        pvalue=float(stats.chi2.sf(chi2, k - 1)), systems=systems, mean_ranks=sums / n,
        rank_variance=(n * (k**3 - k) - total_ties) / (12.0 * n * (k - 1)),
        rank_counts=np.full(k, float(n)), n_obs=n * k,
    )
