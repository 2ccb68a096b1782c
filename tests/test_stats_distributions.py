"""The normal and t tails of :mod:`irscale.stats.distributions` (scipy.special alone) are
scipy.stats' own numbers, bit for bit: its ``norm`` and ``t``, the oracle, over their
whole range, the tails, the infinities, NaN and the degrees of freedom of a Welch test."""

from __future__ import annotations

import numpy as np

from irscale.stats.distributions import normal_ppf, normal_sf, t_ppf, t_sf

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")

X = np.concatenate([np.linspace(-40, 40, 2001), [0.0, -0.0, 1e-300, -1e-300, 1e300,
                                                 np.inf, -np.inf, np.nan]])
Q = np.concatenate([np.linspace(0.0, 1.0, 2001)[1:-1], [1e-300, 1e-17, 0.5, 1 - 1e-16]])
DF = np.array([0.5, 1.0, 2.0, 3.7, 10.0, 29.5, 1e3, 1e9, np.inf])


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def test_normal_tails() -> None:
    assert _same(normal_sf(X), stats.norm.sf(X))
    assert _same(normal_ppf(Q), stats.norm.ppf(Q))
    assert all(_same(normal_sf(x), stats.norm.sf(x)) for x in X[::97])  # scalars


def test_t_tails() -> None:
    for df in DF:
        assert _same(t_sf(X, df), stats.t.sf(X, df)), df
        assert _same(t_ppf(Q, df), stats.t.ppf(Q, df)), df
    welch = np.array([1.3, 7.25, 18.9, 101.0])  # a Welch test's fractional degrees
    assert _same(t_sf(np.abs(X[:4]), welch), stats.t.sf(np.abs(X[:4]), welch))
