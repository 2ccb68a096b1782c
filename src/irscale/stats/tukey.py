"""Tukey's Honestly Significant Difference test after an ANOVA or a rank test.

For k systems with estimated means μ̂_u and an error estimate with ν degrees of freedom,
systems u and v differ significantly when (seed 004 eq. 9)

    |tk| = |μ̂_u − μ̂_v| / sqrt(MS_E / m) > Q^α_{k, ν},

Q^α_{k,ν} the upper 100(1 − α)-th percentile of the studentized range and m the number of
scores averaged per system. The p-value is P(Q_{k,ν} ≥ |tk|) (eq. 10) and the simultaneous
100(1 − α)% interval of a difference is (μ̂_u − μ̂_v) ± Q^α_{k,ν} sqrt(MS_E / m); the
equivalent per-system intervals μ̂_u ± ½ Q^α_{k,ν} sqrt(MS_E / m) (eq. 11, Hochberg &
Tamhane) overlap exactly when a pair is not significant — their half-width is reported as
``half_width`` (0.0515 for TREC-8 AP in seed 004 §4.2.6). Decisions use eq. 9.

The error term is the model's: after the two-way model (MD2) it is the topic-blocked
residual MS_E with (n − 1)(k − 1) df — the paired analysis; the one-way (MD1) HSD, what
``scipy.stats.tukey_hsd`` and many libraries compute, treats topics as unpaired
replicates. In general the standard error of a difference is sqrt(Var(μ̂_u − μ̂_v)/2) from
the estimates' covariance (Tukey–Kramer), which reduces to sqrt(MS_E/m) in balanced designs.

After Kruskal–Wallis and Friedman the means are mean ranks, their variance the
(tie-corrected) variance of a rank divided by the number of ranks averaged, and ν = ∞ —
as MATLAB's ``multcompare`` does after ``kruskalwallis``/``friedman`` (for Friedman this
is the Nemenyi test).

Fake models (MD1f, MD2f, MD3f; seed 002 §3.1) report every pair whose estimated
difference is non-zero as significant with p = 0 (pairs with equal means: p = 1).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import ParameterError
from ._data import check_alpha, tie_tolerance
from ._ptukey import tukey_critical, tukey_sf
from .results import AnovaResult, PairwiseComparisons, RankTestResult


def tukey_from_means(
    means: np.ndarray,
    cov: np.ndarray,
    df: float,
    systems: Sequence[str],
    *,
    alpha: float = 0.05,
    method: str = "Tukey HSD",
    fake: bool = False,
    note: str = "",
    pvalues: bool = True,
) -> PairwiseComparisons:
    """Tukey's HSD for all pairs of ``means`` with covariance ``cov`` and error df ``df``.

    ``pvalues=False`` skips the p-values (NaN; the decisions, which use the critical
    value, are the same): the studentized-range tail is the costly part for many pairs,
    and meta-evaluation (topic splitting, scale-effect tables) needs only the decisions.
    """
    alpha = check_alpha(alpha)
    means = np.asarray(means, dtype=np.float64)
    k = len(means)
    if k < 2:
        raise ParameterError("Tukey's HSD needs at least two systems")
    i, j = np.triu_indices(k, k=1)
    diff = means[i] - means[j]
    var = np.maximum(cov[i, i] + cov[j, j] - 2.0 * cov[i, j], 0.0)
    se = np.sqrt(var / 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(se > 0, np.abs(diff) / np.where(se > 0, se, 1.0), np.inf)
    critical = tukey_critical(alpha, k, df)
    if fake:
        p = np.where(np.abs(diff) > tie_tolerance(means), 0.0, 1.0)
        significant = p <= alpha
    else:
        p = tukey_sf(q, k, df) if pvalues else np.full(q.shape, np.nan)
        significant = q > critical
    diagonal = np.diag(cov)
    off = cov - np.diag(diagonal)
    balanced = np.allclose(diagonal, diagonal[0]) and not np.any(off)
    names = np.array(systems, dtype=object)
    return PairwiseComparisons(
        method=method,
        alpha=alpha,
        columns={
            "a": names[i], "b": names[j], "mean_a": means[i], "mean_b": means[j],
            "diff": diff, "ci_low": diff - critical * se, "ci_high": diff + critical * se,
            "statistic": q, "p": p, "significant": significant,
        },
        critical_value=critical,
        half_width=0.5 * critical * float(np.sqrt(diagonal[0])) if balanced else None,
        note=note,
        extra={"df": df, "k": k, "tukey_se": se},
    )


def tukey_from_anova(
    result: AnovaResult, *, alpha: float = 0.05, pvalues: bool = True
) -> PairwiseComparisons:
    """Tukey's HSD on the system factor of an ANOVA model (its own error term)."""
    label = "fake " if result.fake else ""
    return tukey_from_means(
        result.system_means, result.system_cov, result.df_error, result.systems,
        alpha=alpha, method=f"{label}Tukey HSD after {result.name} [{result.model}]",
        fake=result.fake,
        note=f"MS_error {result.ms_error:.6g} on {result.df_error:g} df ({result.ss_type})",
        pvalues=pvalues,
    )


def tukey_from_ranks(
    result: RankTestResult, *, alpha: float = 0.05, pvalues: bool = True
) -> PairwiseComparisons:
    """Tukey's HSD on the mean ranks of a Kruskal–Wallis or Friedman test (df = ∞)."""
    cov = np.diag(result.rank_variance / result.rank_counts)
    return tukey_from_means(
        result.mean_ranks, cov, np.inf, result.systems, alpha=alpha,
        method=f"Tukey HSD on mean ranks after {result.test}",
        note="differences and intervals are in mean-rank units", pvalues=pvalues,
    )


#: Models accepted by :func:`tukey_hsd`.
TUKEY_MODELS = ("system", "topic+system", "MD1", "MD2", "MD1f", "MD2f", "kruskal-wallis",
                "friedman")


def tukey_hsd(
    data: object, model: str = "topic+system", *, alpha: float = 0.05,
    measure: str | None = None, pvalues: bool = True,
) -> PairwiseComparisons:
    """Tukey's HSD for all pairs of systems after the given model.

    ``model``: ``"topic+system"`` (MD2, default: topic-blocked, the right choice for
    paired IR data), ``"system"`` (MD1, one-way), ``"MD1f"``/``"MD2f"`` (fake models),
    ``"kruskal-wallis"`` or ``"friedman"`` (mean ranks). Shard models:
    :func:`irscale.stats.shard_anova` then ``.tukey_hsd()``. ``pvalues=False``: decisions
    only (p = NaN), see :func:`tukey_from_means`.
    """
    from .anova import MODELS, anova
    from .ranktests import friedman, kruskal_wallis

    if model == "kruskal-wallis":
        return tukey_from_ranks(kruskal_wallis(data, measure=measure), alpha=alpha,
                                pvalues=pvalues)
    if model == "friedman":
        return tukey_from_ranks(friedman(data, measure=measure), alpha=alpha, pvalues=pvalues)
    if model not in MODELS:
        raise ParameterError(f"model must be one of {list(TUKEY_MODELS)}, got {model!r}")
    return tukey_from_anova(anova(data, model, measure=measure), alpha=alpha, pvalues=pvalues)
