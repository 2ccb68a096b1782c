"""The t and normal distributions of the two-system tests, from :mod:`scipy.special` alone.

``scipy.stats`` costs most of a second to import; its ``t`` and ``norm`` compute these very
functions (scipy 1.17, ``scipy/stats/_continuous_distns.py``), so the numbers are the same,
bit for bit:

* ``t.sf(x, ν) = stdtr(ν, −x)``, ``t.cdf(x, ν) = stdtr(ν, x)`` (the survival function
  at −x), ``t.ppf(q, ν) = stdtrit(ν, q)`` (0 < q < 1; ν = ∞ is the normal distribution);
* ``norm.sf(z) = ndtr(−z)``, ``norm.cdf(z) = ndtr(z)`` (likewise), ``norm.ppf(q) =
  ndtri(q)`` (0 < q < 1).

The binomial distribution is not here: ``scipy.stats.binom`` computes with Boost, whose
values differ from ``scipy.special.bdtr``'s in the last bits, so the sign test imports
``scipy.stats`` when it runs.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import special

from .validation import Alternative


def t_sf(x: np.ndarray | float, df: np.ndarray | float) -> np.ndarray:
    """P(T_ν > x): ``scipy.stats.t.sf(x, df)``."""
    return special.stdtr(df, -np.asarray(x))


def t_ppf(q: np.ndarray | float, df: np.ndarray | float) -> np.ndarray:
    """The quantile x with P(T_ν ≤ x) = q, 0 < q < 1: ``scipy.stats.t.ppf(q, df)``."""
    return special.stdtrit(df, q)


def normal_sf(z: np.ndarray | float) -> np.ndarray:
    """P(Z > z): ``scipy.stats.norm.sf(z)``."""
    return special.ndtr(-np.asarray(z))


def normal_ppf(q: np.ndarray | float) -> np.ndarray:
    """The quantile z with P(Z ≤ z) = q, 0 < q < 1: ``scipy.stats.norm.ppf(q)``."""
    return special.ndtri(q)


def symmetric_pvalue(statistic: np.ndarray, sf: Callable[[np.ndarray], np.ndarray],
                     alternative: Alternative) -> np.ndarray:
    """The p-value of ``statistic`` under a null distribution symmetric about 0 with
    survival function ``sf``: sf(s) (``greater``), sf(−s) = cdf(s) (``less``), or
    min(1, 2 sf(|s|)) (two-sided)."""
    if alternative == "greater":
        return sf(statistic)
    if alternative == "less":
        return sf(-statistic)
    return np.minimum(1.0, 2.0 * sf(np.abs(statistic)))
