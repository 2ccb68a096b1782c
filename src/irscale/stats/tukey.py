"""Tukey's Honestly Significant Difference test after an ANOVA or a rank test, and
Scheffé's method for all contrasts after an ANOVA.

For k systems with estimated means μ̂_u and an error estimate with ν degrees of freedom,
systems u and v differ significantly when (Ferro & Maistro 2024, eq. 9)

    |tk| = |μ̂_u − μ̂_v| / sqrt(MS_E / m) > Q^α_{k, ν},

Q^α_{k,ν} the upper 100(1 − α)-th percentile of the studentized range and m the number of
scores averaged per system. The p-value is P(Q_{k,ν} ≥ |tk|) (eq. 10) and the simultaneous
100(1 − α)% interval of a difference is (μ̂_u − μ̂_v) ± Q^α_{k,ν} sqrt(MS_E / m); the
equivalent per-system intervals μ̂_u ± ½ Q^α_{k,ν} sqrt(MS_E / m) (eq. 11, Hochberg &
Tamhane) overlap exactly when a pair is not significant — their half-width is reported as
``half_width`` (0.0515 for TREC-8 AP in Ferro & Maistro 2024, §4.2.6). Decisions use eq. 9.

The error term is the model's: after the two-way model (MD2) it is the topic-blocked
residual MS_E with (n − 1)(k − 1) df — the paired analysis; the one-way (MD1) HSD, what
``scipy.stats.tukey_hsd`` and many libraries compute, treats topics as unpaired
replicates. In general the standard error of a difference is sqrt(Var(μ̂_u − μ̂_v)/2) from
the estimates' covariance (Tukey–Kramer), which reduces to sqrt(MS_E/m) in balanced designs.

After Kruskal–Wallis and Friedman the means are mean ranks, their variance the
(tie-corrected) variance of a rank divided by the number of ranks averaged, and ν = ∞ —
as MATLAB's ``multcompare`` does after ``kruskalwallis``/``friedman`` (for Friedman this
is the Nemenyi test).

Fake models (MD1f, MD2f, MD3f; Ferro & Sanderson 2022, §3.1) report every pair whose estimated
difference is non-zero as significant with p = 0 (pairs with equal means: p = 1).

Scheffé's method (Scheffé 1953; :func:`scheffe`) controls the familywise error over every
contrast Σ c_u μ_u (Σ c_u = 0) of the k systems, not the pairs alone: a contrast is
significant when

    F_c = ĉ² / (Var(ĉ) (k − 1)) > F^α_{k−1, ν},   Var(ĉ) = c' Σ̂ c  (= MS_E Σ c_u² / m balanced),

its p-value P(F_{k−1, ν} ≥ F_c) and its simultaneous interval ĉ ± sqrt((k − 1) F^α_{k−1, ν})
sqrt(Var(ĉ)). It uses the model's error term as Tukey's HSD does (the topic-blocked MS_E on
(n − 1)(k − 1) df after MD2, the default; after the one-way MD1 it is what
``scikit_posthocs.posthoc_scheffe`` computes). Its intervals of pairs are wider than
Tukey's: the price of covering every contrast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import numpy as np

from .params import SCHEFFE, TUKEY, TUKEY_FIT
from .results import PairwiseComparisons, mean_pairs

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from .results import AnovaResult, RankTestResult

#: Named models accepted by :func:`tukey_hsd` (besides formulas over topic and system).
TUKEY_MODELS = ("system", "topic+system", "MD1", "MD2", "MD1f", "MD2f", "kruskal-wallis",
                "friedman")
TukeyModel = Literal["system", "topic+system", "MD1", "MD2", "MD1f", "MD2f", "kruskal-wallis",
                     "friedman"]


@TUKEY_FIT
def tukey_model(data: object, model: TukeyModel | str = "topic+system", *,
                measure: str | None = None, transform: str = "none"
                ) -> AnovaResult | RankTestResult:
    """The model Tukey's HSD follows, fitted: :func:`irscale.stats.kruskal_wallis` or
    :func:`~irscale.stats.friedman` for a rank model, else :func:`irscale.stats.anova`
    of ``model`` (a named model or a formula over topic and system) on the scores
    ``transform`` gives (an ANOVA's alone: a rank model ranks the scores itself)."""
    from .anova import anova
    from .ranktests import friedman, kruskal_wallis

    if model == "kruskal-wallis":
        return kruskal_wallis(data, measure=measure)
    if model == "friedman":
        return friedman(data, measure=measure)
    return anova(data, model, measure=measure, transform=transform)


@TUKEY
def tukey_hsd(
    data: object, model: TukeyModel | str = "topic+system", *, alpha: float = 0.05,
    measure: str | None = None, pvalues: bool = True, transform: str = "none",
) -> PairwiseComparisons:
    """Tukey's HSD for all pairs of systems after the given model (:func:`tukey_model`).

    ``model``: ``"topic+system"`` (MD2, default: topic-blocked, the right choice for
    paired IR data), ``"system"`` (MD1, one-way), ``"MD1f"``/``"MD2f"`` (fake models), a
    formula over topic and system, ``"kruskal-wallis"`` or ``"friedman"`` (mean ranks).
    ``transform``: the scores of an ANOVA model (:func:`irscale.stats.anova`). Shard
    models: :func:`irscale.stats.shard_anova` then ``.tukey_hsd()``. ``pvalues=False``:
    decisions only (p = NaN), see :func:`irscale.stats.results.tukey_from_means`.
    """
    return tukey_model(data, model, measure=measure, transform=transform).tukey_hsd(
        alpha, pvalues=pvalues)


def scheffe_from_means(means: np.ndarray, cov: np.ndarray, df: float, systems: Sequence[str],
                       *, alpha: float = 0.05, method: str = "Scheffé",
                       note: str = "") -> PairwiseComparisons:
    """Scheffé's method (module documentation) for every pair of ``means`` with covariance
    ``cov`` and error df ``df``: the pairwise contrasts c = e_u − e_v, each with
    F_c = ĉ² / ((k − 1) c' cov c), p = P(F_{k−1, df} ≥ F_c), significant when F_c exceeds
    the critical F^α_{k−1, df}, and its simultaneous interval ĉ ± sqrt((k − 1) F^α) se."""
    from scipy import stats as sps

    from .validation import check_alpha

    alpha = check_alpha(alpha)
    means, (i, j), diff, var = mean_pairs(means, cov, "Scheffé's method")
    k = len(means)
    se = np.sqrt(var)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(se > 0, diff**2 / (k - 1) / np.where(se > 0, se, 1.0)**2, np.inf)
    critical = float(sps.f.isf(alpha, k - 1, df))
    reach = float(np.sqrt((k - 1) * critical))
    names = np.array(systems, dtype=object)
    return PairwiseComparisons(
        method=method, alpha=alpha,
        columns={"a": names[i], "b": names[j], "mean_a": means[i], "mean_b": means[j],
                 "diff": diff, "ci_low": diff - reach * se, "ci_high": diff + reach * se,
                 "statistic": f, "p": sps.f.sf(f, k - 1, df), "significant": f > critical},
        critical_value=critical, note=note,
        extra={"df": df, "k": k, "scheffe_se": se})


@SCHEFFE
def scheffe(
    data: object, model: str = "topic+system", *, alpha: float = 0.05,
    measure: str | None = None, transform: str = "none",
) -> PairwiseComparisons:
    """Scheffé's method for every pair of systems after the ANOVA ``model`` (module
    documentation): ``"topic+system"`` (MD2, default: the error term Tukey's HSD uses),
    ``"system"`` (MD1, one-way: ``scikit_posthocs.posthoc_scheffe``'s) or a formula over
    topic and system; ``transform``: the scores of the ANOVA (:func:`irscale.stats.anova`).
    The model is checked on entry (:data:`irscale.stats.params.SCHEFFE`: no rank and no
    fake model, which have no F distribution)."""
    from .anova import anova

    fit = anova(data, model, measure=measure, transform=transform)
    return scheffe_from_means(
        fit.system_means, fit.system_cov, fit.df_error, fit.systems, alpha=alpha,
        method=f"Scheffé after {fit.name} [{fit.model}]",
        note=f"MS_error {fit.ms_error:.6g} on {fit.df_error:g} df ({fit.ss_type}); "
        "critical value F(α; k − 1, df_E)")
