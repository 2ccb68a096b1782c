"""ndeval's risk-sensitive arithmetic and its number spelling: the per-topic ``RiskBased``
value (URisk's term) and glibc's ``%.6f``, shared by ndeval's output and
:mod:`irscale.stats.risk`."""

from __future__ import annotations

import math

import numpy as np


def risk_based(run: np.ndarray, baseline: np.ndarray, alpha: float) -> np.ndarray:
    """ndeval.c's ``RiskBased(r, b, a)`` elementwise: ``r − b`` when ``r ≥ b``, else
    ``(1 + a)·(r − b)`` (Wang, Bennett & Collins-Thompson, SIGIR 2012; TREC Web 2013–14's
    risk-sensitive per-topic value). A NaN stays itself with its sign, as C's arithmetic
    keeps it: ``r``'s when ``r`` is NaN, else ``b``'s.

    >>> risk_based(np.array([0.5, 0.25]), np.array([0.25, 0.5]), 1.0).tolist()
    [0.25, -0.5]
    """
    r = np.asarray(run, dtype=np.float64)
    b = np.asarray(baseline, dtype=np.float64)
    delta = r - b
    out = np.where(r >= b, delta, (1.0 + alpha) * delta)
    return np.where(np.isnan(r), r, np.where(np.isnan(b), b, out))


def c_format(value: float, decimals: int = 6) -> str:
    """``printf("%.6f", value)`` (``decimals`` decimals) as glibc prints it (``-nan`` for a
    NaN with its sign set)."""
    value = float(value)
    if math.isnan(value):
        from ...core.numbers import declare_words

        text = "-nan" if math.copysign(1.0, value) < 0 else "nan"
        declare_words(text)  # the guard on text: ndeval's 0/0, printed as C prints it
        return text
    return f"{value:.{decimals}f}"
