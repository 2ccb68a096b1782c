"""Effect sizes and the confidence interval of a mean difference.

All functions are vectorised: ``x`` and ``y`` are (n × k) and (m × k) arrays holding ``k``
comparisons at once (a 1-D vector is one comparison). With d = x − y (paired) and
s the sample standard deviation (denominator n − 1):

* ``d_z = mean(d) / s_d`` — standardised mean difference of paired data (Cohen, 1988,
  eq. 2.3.5; Lakens, 2013, eq. 6); ``g_z = J(n − 1) · d_z`` is its small-sample-corrected
  version.
* ``cohen_d = (mean(x) − mean(y)) / s_p`` with the pooled standard deviation
  ``s_p = sqrt(((n − 1) s_x² + (m − 1) s_y²) / (n + m − 2))``; Hedges' ``g = J(n + m − 2) ·
  cohen_d`` (Hedges, 1981; Hedges & Olkin, 1985, eq. 5.10). For paired data the two
  systems' score sets are the two groups (Lakens' d_av standardiser when n = m).
* Glass's ``Δ = J(m − 1) · (mean(x) − mean(y)) / s_y``: standardised by the second
  system (the baseline), corrected as Hedges (1981) suggests.

``J(ν) = Γ(ν/2) / (sqrt(ν/2) Γ((ν − 1)/2))`` is Hedges' exact bias correction
(≈ 1 − 3/(4ν − 1)). Undefined values (zero standard deviation) are NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats


def hedges_j(df: np.ndarray | float) -> np.ndarray:
    """Hedges' exact small-sample correction J(ν) = Γ(ν/2) / (sqrt(ν/2) Γ((ν − 1)/2))."""
    df = np.asarray(df, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.exp(special.gammaln(df / 2) - special.gammaln((df - 1) / 2)) / np.sqrt(df / 2)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


@dataclass(frozen=True)
class EffectSizes:
    """Standardised effect sizes of one comparison (see :mod:`irscale.stats.effects`)."""

    d_z: float
    g_z: float
    cohen_d: float
    hedges_g: float
    glass_delta: float

    def as_dict(self) -> dict[str, float]:
        return {
            "d_z": self.d_z,
            "g_z": self.g_z,
            "cohen_d": self.cohen_d,
            "hedges_g": self.hedges_g,
            "glass_delta": self.glass_delta,
        }


def effect_size_columns(x: np.ndarray, y: np.ndarray, paired: bool) -> dict[str, np.ndarray]:
    """The effect sizes of every column pair of ``x`` and ``y`` (see the module docstring)."""
    x = np.atleast_1d(np.asarray(x, dtype=np.float64))
    y = np.atleast_1d(np.asarray(y, dtype=np.float64))
    if x.ndim == 1:
        x, y = x[:, None], y[:, None]
    n, m = x.shape[0], y.shape[0]
    diff = x.mean(axis=0) - y.mean(axis=0)
    sx, sy = x.std(axis=0, ddof=1), y.std(axis=0, ddof=1)
    pooled = np.sqrt(((n - 1) * sx**2 + (m - 1) * sy**2) / (n + m - 2))
    cohen_d = _ratio(diff, pooled)
    if paired:
        d = x - y
        d_z = _ratio(d.mean(axis=0), d.std(axis=0, ddof=1))
    else:
        d_z = np.full(diff.shape, np.nan)
    return {
        "d_z": d_z,
        "g_z": hedges_j(n - 1) * d_z,
        "cohen_d": cohen_d,
        "hedges_g": hedges_j(n + m - 2) * cohen_d,
        "glass_delta": hedges_j(m - 1) * _ratio(diff, sy),
    }


def effect_sizes(x: np.ndarray, y: np.ndarray, *, paired: bool = True) -> EffectSizes:
    """The effect sizes of one comparison of the score vectors ``x`` and ``y`` (checked as
    the tests check them: finite, at least 2 values each, of one length when paired)."""
    from ._data import two_samples

    xs, ys, _ = two_samples(x, y, paired=paired)
    columns = effect_size_columns(xs[:, None], ys[:, None], paired)
    return EffectSizes(**{k: float(v[0]) for k, v in columns.items()})


def standard_error(x: np.ndarray, y: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Standard error of mean(x) − mean(y) and its degrees of freedom, column by column.

    ``paired``: s_d/sqrt(n), n − 1 df. ``student``: s_p sqrt(1/n + 1/m), n + m − 2 df.
    ``welch``: sqrt(s_x²/n + s_y²/m) with the Welch–Satterthwaite df (Welch, 1947).
    """
    n, m = x.shape[0], y.shape[0]
    if kind == "paired":
        se = (x - y).std(axis=0, ddof=1) / np.sqrt(n)
        return se, np.full(se.shape, n - 1.0)
    vx, vy = x.var(axis=0, ddof=1), y.var(axis=0, ddof=1)
    if kind == "student":
        pooled = ((n - 1) * vx + (m - 1) * vy) / (n + m - 2)
        se = np.sqrt(pooled * (1.0 / n + 1.0 / m))
        return se, np.full(se.shape, n + m - 2.0)
    a, b = vx / n, vy / m
    se = np.sqrt(a + b)
    with np.errstate(invalid="ignore", divide="ignore"):
        # the ratio is scale-free: computed on a/s and b/s, s = max(a, b), so that the
        # fourth powers of large scores cannot overflow (0/0 where both variances are 0)
        top = np.maximum(a, b)
        ra, rb = a / top, b / top
        df = (ra + rb) ** 2 / (ra**2 / (n - 1) + rb**2 / (m - 1))
    return se, np.where(np.isfinite(df), df, n + m - 2.0)


def mean_difference_ci(
    x: np.ndarray, y: np.ndarray, *, kind: str, alpha: float, alternative: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean difference and its 100(1 − α)% t interval, column by column.

    Two-sided: diff ± t_{1−α/2, ν} · se; ``greater``: [diff − t_{1−α, ν} · se, +∞);
    ``less``: (−∞, diff + t_{1−α, ν} · se] — the interval that matches the test.
    """
    diff = x.mean(axis=0) - y.mean(axis=0)
    se, df = standard_error(x, y, kind)
    if alternative == "two-sided":
        half = stats.t.ppf(1 - alpha / 2, df) * se
        return diff, diff - half, diff + half
    half = stats.t.ppf(1 - alpha, df) * se
    if alternative == "greater":
        return diff, diff - half, np.full(diff.shape, np.inf)
    return diff, np.full(diff.shape, -np.inf), diff + half
