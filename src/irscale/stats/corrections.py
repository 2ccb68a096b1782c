"""Multiple-comparison adjustment of p-values (FWER and FDR control).

For m p-values sorted increasingly p_(1) ≤ … ≤ p_(m) (adjusted values are capped at 1):

* ``bonferroni``  p̃_i = m p_i (Bonferroni; FWER).
* ``sidak``       p̃_i = 1 − (1 − p_i)^m (Šidák, 1967; FWER under independence).
* ``holm``        p̃_(i) = max_{j ≤ i} (m − j + 1) p_(j) (Holm, 1979; step-down FWER).
* ``holm-sidak``  p̃_(i) = max_{j ≤ i} 1 − (1 − p_(j))^(m − j + 1) (step-down Šidák).
* ``hommel``      p̃_(i) = max_{m' = 1..m} q_i(m') with q_i(m') = min(m' p_(i), c(m')) for
  i ≤ m − m' and c(m') for i > m − m', where c(m') = min_{k = 1..m'} m' p_(m−m'+k) / k
  (Hommel, 1988, Biometrika 75:383: closed testing with Simes' (1986) test of every
  intersection; adjusted p-values of Wright, 1992, Biometrics 48:1005; FWER under
  independence and positive dependence, Sarkar 1998). Never larger than ``holm``.
* ``bh``          p̃_(i) = min_{j ≥ i} m p_(j) / j (Benjamini & Hochberg, 1995; FDR).
* ``by``          the ``bh`` values times Σ_{k=1}^m 1/k (Benjamini & Yekutieli, 2001; FDR
  under arbitrary dependence).
* ``none``        p̃_i = p_i.

A hypothesis is rejected when p̃_i ≤ α. These are the adjusted p-values of statsmodels'
``multipletests`` (methods bonferroni, sidak, holm, holm-sidak, hommel, fdr_bh, fdr_by).
Ferro & Maistro (2024, §4.2.4) discuss FWER versus FDR for IR; Tukey's HSD is the FWER method
of choice for all pairs of one model (:mod:`irscale.stats.tukey`).
"""

from __future__ import annotations

from typing import Literal, cast

import numpy as np

from ..errors import ParameterError
from .names import CORRECTION

#: The canonical correction names (:data:`~irscale.stats.names.CORRECTIONS`).
CorrectionName = Literal["none", "bonferroni", "sidak", "holm", "holm-sidak", "hommel", "bh",
                         "by"]
#: A correction name as :func:`correction_name` reads it (the names of ``CORRECTIONS`` and
#: statsmodels' aliases; ``None`` is ``"none"``).
Correction = Literal[
    "none", "bonferroni", "sidak", "holm", "holm-sidak", "hommel", "bh", "by",
    "fdr_bh", "benjamini-hochberg", "fdr", "fdr_by", "benjamini-yekutieli", "hs", "holm_sidak",
    "šidák", "holm-šidák",
]



def correction_name(method: str | None) -> CorrectionName:
    """The canonical name of a correction (accepts statsmodels' names as aliases)."""
    name = "none" if method is None else CORRECTION.check(method, "correction")
    return cast(CorrectionName, name)  # one of CORRECTIONS, checked above


def sidak(p: np.ndarray, m: np.ndarray | int) -> np.ndarray:
    """1 − (1 − p)^m, accurate for tiny p (via log1p/expm1) and exactly 1 for p = 1."""
    p = np.asarray(p, dtype=np.float64)
    below = p < 1.0
    safe = np.where(below, p, 0.0)  # log1p(−1) = −inf: p = 1 is handled apart
    return np.where(below, -np.expm1(m * np.log1p(-safe)), 1.0)


def hommel(ranked: np.ndarray) -> np.ndarray:
    """Hommel's adjusted p-values of p-values sorted increasingly (Wright 1992).

    For each size m' = m, m − 1, …, 2 of the family of the m' largest p-values, Simes' bound
    c(m') = min_k m' p_(m−m'+k) / k caps every member of that family and, with m' p_(i), every
    smaller one; the adjusted value is the largest bound met, capped at 1 (O(m²)).
    """
    m = len(ranked)
    adjusted = ranked.copy()
    for size in range(m, 1, -1):
        family = ranked[m - size:]
        simes = float(np.min(size * family / np.arange(1, size + 1)))
        adjusted[m - size:] = np.maximum(adjusted[m - size:], simes)
        below = ranked[:m - size]
        adjusted[:m - size] = np.maximum(adjusted[:m - size], np.minimum(size * below, simes))
    return np.minimum(1.0, adjusted)


def adjust_pvalues(pvalues: np.ndarray, method: Correction | None = "holm") -> np.ndarray:
    """The adjusted p-values of ``pvalues`` for ``method`` (see the module docstring)."""
    name = correction_name(method)
    p = np.asarray(pvalues, dtype=np.float64)
    if p.ndim != 1:
        raise ParameterError(f"p-values must be one-dimensional, got shape {p.shape}")
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ParameterError("p-values must lie in [0, 1]")
    m = len(p)
    if m == 0 or name == "none":
        return p.copy()
    if name == "bonferroni":
        return np.minimum(1.0, m * p)
    if name == "sidak":
        return sidak(p, m)
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    rank = np.arange(1, m + 1)
    if name == "holm":
        adjusted = np.maximum.accumulate(np.minimum(1.0, (m - rank + 1) * ranked))
    elif name == "hommel":
        adjusted = hommel(ranked)
    elif name == "holm-sidak":
        adjusted = np.maximum.accumulate(sidak(ranked, m - rank + 1))
    else:
        factor = np.sum(1.0 / rank) if name == "by" else 1.0
        adjusted = np.minimum.accumulate((factor * m * ranked / rank)[::-1])[::-1]
        adjusted = np.minimum(1.0, adjusted)
    out = np.empty(m)
    out[order] = adjusted
    return out
