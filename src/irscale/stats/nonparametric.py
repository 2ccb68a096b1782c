"""Rank and sign tests for two systems: Wilcoxon signed-rank, sign, Mann–Whitney.

Wilcoxon signed-rank (paired; Wilcoxon, 1945)
    Rank |d_i| (mid-ranks for ties), W+ = Σ ranks of positive d_i (the reported statistic).
    ``zero_method``: ``"wilcox"`` drops zero differences; ``"pratt"`` ranks them and drops
    them afterwards (Pratt, 1959; mean and variance as Cureton, 1967); ``"zsplit"`` gives half
    of each zero's rank to W+. Normal approximation: z = (W+ − n(n + 1)/4) / σ with
    σ² = [n(n + 1)(2n + 1) − Σ(t³ − t)/2] / 24, optionally continuity-corrected by 0.5 —
    the formulas of scipy.stats.wilcoxon. ``method="exact"``: the exact permutation
    distribution of W+ given the observed ranks (the classical table when there are no
    ties; exact conditional distribution with ties: all 2^n sign flips, as
    ``scipy.stats.wilcoxon(..., method=PermutationMethod())`` enumerates them).
    ``"approx"`` (scipy's ``"asymptotic"``, also accepted): the normal approximation.
    ``"auto"`` (default) decides as scipy.stats.wilcoxon's default does (scipy 1.17): exact
    with neither ties nor zeros and n ≤ 50; with ties or zeros, exact (conditional) when
    n ≤ 13, n counting the zeros; the normal approximation otherwise. With the defaults the
    p-value is scipy's default p-value (tested to 1e-12 with ties and zeros) whenever
    irscale and scipy see the same ties and zeros: scipy compares x − y with ``==``,
    irscale with the tolerance below, so rounding noise (0.3 − 0.1 ≠ 0.2) splits ties
    only in scipy. Unlike scipy's explicit ``method="exact"``, which with ties or zeros
    rounds W+ and uses the table without ties (not exact), ours is exact. The statistic is
    W+ for every alternative (scipy reports min(W+, W−) for two-sided tests).
Sign test (paired; Dixon & Mood, 1946)
    S = number of d_i > τ among the N differences with |d_i| > τ (τ = ``threshold``, 0 by
    default: the "sign minimum difference" variant of Smucker et al., 2007, for τ > 0);
    S ~ Binomial(N, ½). Two-sided p = min(1, 2 min(P(S ≤ s), P(S ≥ s))).
Wilcoxon rank-sum / Mann–Whitney U (unpaired; Mann & Whitney, 1947)
    U = R_x − n(n + 1)/2 with R_x the rank sum of x in the pooled sample (the reported
    statistic); normal approximation with tie correction σ² = nm/12 [(N + 1) −
    Σ(t³ − t)/(N(N − 1))] and continuity correction (default on), as scipy.stats.mannwhitneyu;
    exact conditional distribution of the rank sum for ``method="exact"``; ``"auto"``: exact
    when there are no ties and min(n, m) ≤ 8, else the normal approximation (``"approx"``,
    or scipy's name ``"asymptotic"``).

Ties and zeros are decided with the tolerance of :data:`irscale.stats.validation.TIE_RTOL`
(times the largest |score| of each pair: a pair's ties are the same alone or in a family).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Literal

import numpy as np

from ..errors import NoVarianceWarning, ParameterError
from ._exact import grouped_exact_pvalues, rank_sum_counts, signed_rank_counts
from ._twosample import Outcome, TestSpec, finish_pvalues, run_test
from .distributions import normal_sf, symmetric_pvalue
from .ranks import rank_columns
from .results import TestResult
from .validation import Alternative, check_choice, tie_tolerance

ZERO_METHODS = ("wilcox", "pratt", "zsplit")
RANK_METHODS = ("auto", "exact", "approx")
ZeroMethod = Literal["wilcox", "pratt", "zsplit"]
#: ``"asymptotic"`` (scipy's name) is read as ``"approx"``
RankMethod = Literal["auto", "exact", "approx", "asymptotic"]
#: ``method="auto"`` of the signed-rank test, as scipy.stats.wilcoxon: exact with neither
#: ties nor zeros and n ≤ 50; with ties or zeros exact (conditional) when n ≤ 13 (all
#: 2^n sign flips, scipy's permutation test); the normal approximation otherwise.
AUTO_EXACT_MAX = 50
AUTO_TIES_EXACT_MAX = 13


def _rank_method(method: RankMethod) -> RankMethod:
    """``method`` checked; scipy's name ``"asymptotic"`` is accepted for ``"approx"``."""
    if method == "asymptotic":
        return "approx"
    check_choice(method, RANK_METHODS, "method")
    return method


def _method_label(exact: np.ndarray, approx_label: str) -> str:
    if exact.all():
        return "exact"
    if not exact.any():
        return approx_label
    return f"exact or {approx_label} (per pair)"


# --------------------------------------------------------------------------- signed-rank
def wilcoxon_kernel(
    x: np.ndarray,
    y: np.ndarray,
    *,
    alternative: Alternative,
    method: RankMethod = "auto",
    zero_method: ZeroMethod = "wilcox",
    correction: bool = False,
) -> Outcome:
    method = _rank_method(method)
    check_choice(zero_method, ZERO_METHODS, "zero_method")
    d = x - y
    n_all = d.shape[0]
    tol = tie_tolerance(x, y, axis=0)
    zero = np.abs(d) <= tol
    n_zero = zero.sum(axis=0).astype(np.float64)
    magnitude = np.where(zero, 0.0, np.abs(d))
    if zero_method == "wilcox":  # zeros form the lowest tie group, removed below
        magnitude = np.where(zero, -1.0 - magnitude.max(initial=0.0), magnitude)
    ranks, ties = rank_columns(magnitude, tol)
    zero_ties = n_zero**3 - n_zero
    if zero_method == "wilcox":
        ranks = ranks - n_zero
        ties = ties - zero_ties
        count = n_all - n_zero
    else:
        count = np.full(n_zero.shape, float(n_all))
        if zero_method == "pratt":
            ties = ties - zero_ties
    positive = d > tol
    w_plus = np.sum(np.where(positive, ranks, 0.0), axis=0)
    if zero_method == "zsplit":
        w_plus = w_plus + 0.5 * np.sum(np.where(zero, ranks, 0.0), axis=0)

    mean = count * (count + 1) / 4
    var24 = count * (count + 1) * (2 * count + 1)
    if zero_method == "pratt":
        mean = mean - n_zero * (n_zero + 1) / 4
        var24 = var24 - n_zero * (n_zero + 1) * (2 * n_zero + 1)
    se = np.sqrt(np.maximum(var24 - ties / 2, 0.0) / 24)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (w_plus - mean) / se
        if correction:
            sign = {"greater": 1.0, "less": -1.0}.get(alternative)
            z = z - (np.sign(z) if sign is None else sign) * 0.5 / se
    p = symmetric_pvalue(z, normal_sf, alternative)

    nonzero = ~zero
    if method == "exact":
        exact = np.ones(d.shape[1], dtype=bool)
    elif method == "auto":  # scipy.stats.wilcoxon's method="auto" (scipy 1.17)
        plain = (ties == 0) & (n_zero == 0)
        exact = (plain & (n_all <= AUTO_EXACT_MAX)) | (~plain & (n_all <= AUTO_TIES_EXACT_MAX))
    else:
        exact = np.zeros(d.shape[1], dtype=bool)
    if exact.any():
        doubled = np.rint(2 * np.where(nonzero, ranks, 0.0)[:, exact]).astype(np.int64)
        fixed = 0.0
        if zero_method == "zsplit":
            fixed = 0.5 * np.sum(np.where(zero, ranks, 0.0), axis=0)[exact]
        observed = np.rint(2 * (w_plus[exact] - fixed)).astype(np.int64)
        p[exact] = grouped_exact_pvalues(doubled, observed, alternative, signed_rank_counts)
    statistic = np.where(count - (n_zero if zero_method == "pratt" else 0) > 0, w_plus, np.nan)
    approx = "normal approximation" + (" with continuity correction" if correction else "")
    return Outcome(
        statistic=statistic,
        pvalue=finish_pvalues(p, statistic),
        method=f"{_method_label(exact, approx)}, zero_method={zero_method}",
    )


# --------------------------------------------------------------------------- sign
def sign_kernel(
    x: np.ndarray, y: np.ndarray, *, alternative: Alternative, threshold: float = 0.0
) -> Outcome:
    threshold = float(threshold)
    if not threshold >= 0:
        raise ParameterError(f"threshold must be >= 0, got {threshold}")
    d = x - y
    cut = threshold + tie_tolerance(x, y, axis=0)
    positive = np.count_nonzero(d > cut, axis=0)
    total = positive + np.count_nonzero(d < -cut, axis=0)
    if threshold > 0 and np.any(total == 0):
        warnings.warn(f"sign test: no topic's difference exceeds the threshold {threshold:g} "
                      f"in {int(np.count_nonzero(total == 0))} pair(s): every topic is a tie, "
                      "there is nothing to test (p = 1, no statistic)", NoVarianceWarning,
                      stacklevel=2)
    from scipy import stats  # Boost's binomial (see irscale.stats.distributions)

    upper = stats.binom.sf(positive - 1, total, 0.5)
    lower = stats.binom.cdf(positive, total, 0.5)
    if alternative == "greater":
        p = upper
    elif alternative == "less":
        p = lower
    else:
        p = np.minimum(1.0, 2.0 * np.minimum(upper, lower))
    statistic = np.where(total > 0, positive.astype(np.float64), np.nan)
    return Outcome(
        statistic=statistic,
        pvalue=finish_pvalues(p, statistic),
        method=f"binomial, |d| <= {threshold:g} counted as ties",
    )


# --------------------------------------------------------------------------- rank-sum
def mann_whitney_kernel(
    x: np.ndarray,
    y: np.ndarray,
    *,
    alternative: Alternative,
    method: RankMethod = "auto",
    correction: bool = True,
) -> Outcome:
    method = _rank_method(method)
    n, m = x.shape[0], y.shape[0]
    big = n + m
    ranks, ties = rank_columns(np.concatenate([x, y], axis=0), tie_tolerance(x, y, axis=0))
    u1 = ranks[:n].sum(axis=0) - n * (n + 1) / 2
    u2 = n * m - u1
    if alternative == "greater":
        u, factor = u1, 1.0
    elif alternative == "less":
        u, factor = u2, 1.0
    else:
        u, factor = np.maximum(u1, u2), 2.0
    sd = np.sqrt(n * m / 12 * ((big + 1) - ties / (big * (big - 1))))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (u - n * m / 2 - (0.5 if correction else 0.0)) / sd
    p = np.minimum(1.0, factor * normal_sf(z))

    if method == "exact":
        exact = np.ones(x.shape[1], dtype=bool)
    elif method == "auto":
        exact = (ties == 0) & (min(n, m) <= 8)
    else:
        exact = np.zeros(x.shape[1], dtype=bool)
    small, offset = (n, 0) if n <= m else (m, n)
    if exact.any():
        # the distribution of the smaller sample's rank sum (y's: swap one-sided directions)
        alt = alternative
        if offset:
            swapped: dict[Alternative, Alternative] = {"greater": "less", "less": "greater"}
            alt = swapped.get(alternative, alternative)
        doubled = np.rint(2 * ranks[:, exact]).astype(np.int64)
        observed = np.rint(2 * ranks[offset : offset + small][:, exact].sum(axis=0))
        p[exact] = grouped_exact_pvalues(
            doubled, observed.astype(np.int64), alt, lambda r: rank_sum_counts(r, small)
        )
    approx = "normal approximation" + (" with continuity correction" if correction else "")
    return Outcome(statistic=u1, pvalue=np.clip(p, 0.0, 1.0),
                   method=_method_label(exact, approx))


WILCOXON = TestSpec(
    "wilcoxon", "Wilcoxon signed-rank test", True, "paired", wilcoxon_kernel,
    ("method", "zero_method", "correction"),
)
SIGN = TestSpec("sign", "sign test", True, "paired", sign_kernel, ("threshold",))
MANN_WHITNEY = TestSpec(
    "mann-whitney", "Wilcoxon rank-sum (Mann-Whitney U) test", False, "welch",
    mann_whitney_kernel, ("method", "correction"),
)


def wilcoxon(
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
    method: RankMethod = "auto",
    zero_method: ZeroMethod = "wilcox",
    correction: bool = False,
) -> TestResult:
    """Wilcoxon signed-rank test of the per-topic differences x − y (see module docstring).

    With the defaults (``method="auto"``, ``zero_method="wilcox"``, ``correction=False``)
    the p-value is that of ``scipy.stats.wilcoxon`` with its defaults, ties and zeros
    included: exact without ties or zeros for n ≤ 50, exact conditional (all sign flips)
    with ties or zeros for n ≤ 13, the normal approximation otherwise. ``statistic`` is W+
    (scipy: min(W+, W−) when two-sided). Ties and zeros are decided with irscale's
    tolerance, scipy's with ``==``: only rounding noise can tell them apart."""
    return run_test(WILCOXON, x, y, systems=systems, measure=measure, alternative=alternative,
                    alpha=alpha, method=method, zero_method=zero_method, correction=correction)


def sign_test(
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
    threshold: float = 0.0,
) -> TestResult:
    """Sign test; differences with |d| ≤ ``threshold`` count as ties and are dropped."""
    return run_test(SIGN, x, y, systems=systems, measure=measure, alternative=alternative,
                    alpha=alpha, threshold=threshold)


def mann_whitney(
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
    method: RankMethod = "auto",
    correction: bool = True,
) -> TestResult:
    """Wilcoxon rank-sum / Mann–Whitney U test of two independent samples."""
    return run_test(MANN_WHITNEY, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, method=method, correction=correction)
