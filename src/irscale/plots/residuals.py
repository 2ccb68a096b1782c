"""Plots of an ANOVA model's residuals: the normal Q–Q plot beside the Shapiro–Wilk test
(:mod:`irscale.stats.assumptions`).

Draws on ``ax`` when given (else on new axes in the style of :mod:`irscale.io.figures`)
and returns the matplotlib ``Axes``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from ..errors import ParameterError
from ..io.figures import PALETTE, new_axes
from ..stats.results import AnovaResult

__all__ = ["normal_quantiles", "residual_qq"]


def normal_quantiles(n: int) -> np.ndarray:
    """The n normal quantiles Φ⁻¹((i − 3/8)/(n + 1/4)), i = 1..n: Blom's (1958) plotting
    positions, close to the expected normal order statistics."""
    return stats.norm.ppf((np.arange(1, n + 1) - 0.375) / (n + 0.25))


def residual_qq(result: AnovaResult, *, ax: Any = None) -> Any:
    """The normal Q–Q plot of an ANOVA's residuals: the sorted residuals against the normal
    quantiles of :func:`normal_quantiles`, with the line through their first and third
    quartiles (as R's ``qqline``); points off the line in the tails are heavier
    (or lighter) tails than the normal. The title gives Shapiro–Wilk's W and p
    (Shapiro & Wilk 1965; ``result.assumptions``)."""
    if not isinstance(result, AnovaResult):
        raise ParameterError(f"a Q-Q plot of residuals needs an ANOVA result, got "
                             f"{type(result).__name__}")
    residuals = np.sort(np.asarray(result.residuals, dtype=np.float64))
    quantiles = normal_quantiles(len(residuals))
    ax = new_axes(ax, (4.5, 4.0))
    ax.scatter(quantiles, residuals, s=6, color=PALETTE[0], alpha=0.6, linewidths=0)
    q1, q3 = np.quantile(residuals, [0.25, 0.75])
    z1, z3 = stats.norm.ppf([0.25, 0.75])
    slope = (q3 - q1) / (z3 - z1)
    ends = np.array([quantiles[0], quantiles[-1]])
    ax.plot(ends, q1 + slope * (ends - z1), color=PALETTE[3], linewidth=1.0)
    ax.grid(True, axis="both")
    ax.set_xlabel("normal quantile")
    on = f" ({result.transform})" if result.transform else ""
    ax.set_ylabel(f"residual{on}")
    shapiro = result.assumptions.test("Shapiro-Wilk")
    test = (f"Shapiro-Wilk W = {shapiro.statistic:.4f}, p = {shapiro.pvalue:.3g}"
            if np.isfinite(shapiro.statistic) else "Shapiro-Wilk not computed")
    ax.set_title(f"Residuals of {result.model}: normal Q-Q\n{test}")
    return ax
