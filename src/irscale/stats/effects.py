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
(≈ 1 − 3/(4ν − 1)). Undefined values (zero standard deviation) are NaN; a standard
deviation is zero where the values are constant up to rounding (their spread within the
tie tolerance of the pair's scores, :data:`irscale.stats.validation.TIE_RTOL`).

Confidence intervals (noncentral t inversion; Steiger & Fouladi, 1997; Cumming & Finch,
2001; Kelley, 2007; Cumming, 2012)
    Under normality, t = d_z sqrt(n) follows the noncentral t distribution with ν = n − 1
    degrees of freedom and noncentrality λ = δ_z sqrt(n); for two independent groups
    t = d sqrt(nm/(n + m)) is noncentral t with ν = n + m − 2 and λ = δ sqrt(nm/(n + m)).
    The 100·L% interval of λ is [λ_L, λ_U] with P(T'_{ν,λ_L} ≤ t) = 1 − (1 − L)/2 and
    P(T'_{ν,λ_U} ≤ t) = (1 − L)/2 (root finding on ``scipy.stats.nct.cdf``, decreasing in
    λ); dividing by sqrt(n) (by sqrt(nm/(n + m))) gives the interval of δ_z (of δ). The
    intervals of g_z and Hedges' g are J(ν) times those limits (the bias correction applied
    to the limits). One-sided alternatives give the matching one-sided interval (``greater``:
    [λ_L at level L, +∞)). ``d_z``/``g_z`` are defined for paired data, ``cohen_d``/
    ``hedges_g`` intervals for unpaired data only (for paired score sets the two groups are
    dependent and this interval would be wrong); Glass's Δ has none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import special

from ..core.notebook import HtmlRepr
from ..core.numbers import Meaning, blank, declare, undefined
from ..errors import ParameterError
from .distributions import t_ppf
from .protocol import ConfidenceInterval, Estimate, check_confidence_level, format_table
from .tables import Format
from .validation import Alternative, constant_columns, tie_tolerance

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def hedges_j(df: np.ndarray | float) -> np.ndarray:
    """Hedges' exact small-sample correction J(ν) = Γ(ν/2) / (sqrt(ν/2) Γ((ν − 1)/2)),
    NaN for ν ≤ 1: with one degree of freedom the standardised difference has no mean
    (1/s has none), so there is no unbiased version of it (the formula's 0 would make g of
    two topics 0 whatever the data, and its interval a division by 0)."""
    df = np.asarray(df, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        j = np.exp(special.gammaln(df / 2) - special.gammaln((df - 1) / 2)) / np.sqrt(df / 2)
    return np.where(df > 1, j, np.nan)


def sample_sd(values: np.ndarray, tol: np.ndarray | float) -> np.ndarray:
    """Column standard deviations (ddof = 1), exactly 0 where a column is constant up to
    rounding (:func:`~irscale.stats.validation.constant_columns`: spread ≤ ``tol``, the
    tie tolerance of the scores the values come from).

    ``std`` of n equal floats is rounding noise (1e-17 for 0.1 three times: the mean is not
    exactly 0.1), and so is that of differences equal up to rounding (0.3 − 0.1 and
    0.4 − 0.2): it would make t and d_z of a constant difference ±1e16 instead of
    undefined.

    Each column is divided by a power of 2 near its largest |value| before the squares
    (exact, :mod:`irscale.core.scaling`), so values near 1e300 (a risk weight 1 + α of
    1e300) give their standard deviation, not an overflow.
    """
    exponent = np.frexp(np.max(np.abs(values), axis=0, initial=0.0))[1]
    sd = np.ldexp(np.ldexp(values, -exponent).std(axis=0, ddof=1), exponent)
    return np.where(constant_columns(values, tol), 0.0, sd)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


#: Effect sizes with a noncentral t interval, and the design each needs (paired or not).
INTERVAL_EFFECTS: dict[str, bool] = {"d_z": True, "g_z": True, "cohen_d": False,
                                     "hedges_g": False}
_ALTERNATIVES = ("two-sided", "greater", "less")


def _nct_root(t: float, df: float, q: float) -> float:
    """λ with P(T'_{df,λ} ≤ t) = q (the cdf decreases in λ); NaN if it cannot be found.

    scipy's ``nct.cdf`` is NaN in bands of the far tail (below ~10⁻¹³: t = −8.5, df = 2,
    λ in [7, 12.5]), which the bracket of a high confidence level reaches; there the same
    probability is taken as P(T'_{df,−λ} ≥ −t) (−T'_{df,λ} is T'_{df,−λ}), ``nct.sf``."""
    from scipy import optimize, stats  # only for an interval asked for

    def excess(lam: float) -> float:
        value = float(stats.nct.cdf(t, df, lam))
        if math.isnan(value):
            value = float(stats.nct.sf(-t, df, -lam))
        return value - q

    step = 1.0 + abs(t) / math.sqrt(2.0 * df) if df > 0 else 1.0
    low, high = t - step, t + step
    with np.errstate(all="ignore"):
        for _ in range(200):
            f_low = excess(low)
            if math.isnan(f_low):
                return math.nan
            if f_low >= 0:
                break
            low, step = low - step, 2.0 * step
        else:
            return math.nan
        step = 1.0 + abs(t) / math.sqrt(2.0 * df) if df > 0 else 1.0
        for _ in range(200):
            f_high = excess(high)
            if math.isnan(f_high):
                return math.nan
            if f_high <= 0:
                break
            high, step = high + step, 2.0 * step
        else:
            return math.nan
        if f_low == 0:
            return low
        if f_high == 0:
            return high
        try:
            return float(optimize.brentq(excess, low, high, xtol=1e-12, rtol=1e-12,
                                         maxiter=500))
        except ValueError:  # NaN inside the bracket, even from nct.sf
            return math.nan


def noncentral_t_interval(
    t: float, df: float, confidence_level: float = 0.95, alternative: Alternative = "two-sided",
) -> tuple[float, float]:
    """The 100·L% interval [λ_L, λ_U] of the noncentrality of a t statistic ``t`` with
    ``df`` degrees of freedom (Steiger & Fouladi, 1997): P(T'_{df,λ_L} ≤ t) = 1 − a and
    P(T'_{df,λ_U} ≤ t) = a, a = (1 − L)/2 (two-sided) or 1 − L (one-sided, the other end
    infinite). NaN limits when ``t`` is not finite."""
    level = check_confidence_level(confidence_level)
    if alternative not in _ALTERNATIVES:
        raise ParameterError(f"alternative must be one of {list(_ALTERNATIVES)}, got "
                             f"{alternative!r}")
    t, df = float(t), float(df)
    if not (math.isfinite(t) and df > 0):
        return math.nan, math.nan
    tail = (1.0 - level) / 2.0 if alternative == "two-sided" else 1.0 - level
    low = -math.inf if alternative == "less" else _nct_root(t, df, 1.0 - tail)
    high = math.inf if alternative == "greater" else _nct_root(t, df, tail)
    return low, high


def effect_size_interval(
    kind: str, value: float, n: int, m: int | None = None, *, paired: bool,
    confidence_level: float = 0.95, alternative: Alternative = "two-sided",
) -> ConfidenceInterval:
    """The noncentral t interval of the effect size ``kind`` (``d_z``, ``g_z``, ``cohen_d``
    or ``hedges_g``) whose estimate is ``value``, for samples of ``n`` (and ``m``)
    values (module documentation)."""
    if kind not in INTERVAL_EFFECTS and kind != "glass_delta":
        raise ParameterError(f"unknown effect size {kind!r}; choose from "
                             f"{[*INTERVAL_EFFECTS, 'glass_delta']}")
    if kind == "glass_delta":
        raise ParameterError("Glass's Δ has no noncentral t interval (its standardiser is "
                             "one group's deviation); use hedges_g or cohen_d")
    if INTERVAL_EFFECTS[kind] != bool(paired):
        if paired:
            raise ParameterError(
                f"the noncentral t interval of {kind} assumes independent groups; the "
                "scores are paired: use d_z or g_z")
        raise ParameterError(f"{kind} is defined for paired scores; use cohen_d or hedges_g")
    m = n if m is None else m
    value = float(value)
    if paired:
        df = n - 1.0
        scale = math.sqrt(n)
        d = value / float(hedges_j(df)) if kind == "g_z" else value
    else:
        df = n + m - 2.0
        scale = math.sqrt(n * m / (n + m))
        d = value / float(hedges_j(df)) if kind == "hedges_g" else value
    low, high = noncentral_t_interval(d * scale, df, confidence_level, alternative)
    factor = float(hedges_j(df)) if kind in ("g_z", "hedges_g") else 1.0
    return ConfidenceInterval(factor * low / scale, factor * high / scale)


class EffectSize(Estimate):
    """One standardised effect size (a ``float``) that knows its design, for its
    noncentral t :meth:`confidence_interval` (module documentation).

    ``kind`` is ``d_z``, ``g_z``, ``cohen_d``, ``hedges_g`` or ``glass_delta``; ``n``,
    ``m`` the sample sizes; ``paired`` the design; ``alternative`` the side of the test it
    belongs to (its interval is one-sided likewise).
    """

    _fields = ("kind", "n", "m", "paired", "alternative")
    # the fields, set by Estimate.__new__ (declarations only, for type checkers)
    kind: str
    n: int | None
    m: int | None
    paired: bool | None
    alternative: Alternative | None

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The noncentral t interval at ``confidence_level`` (default 0.95)."""
        if self.n is None:
            raise ParameterError("the sample sizes of this effect size are unknown: no "
                                 "interval")
        return effect_size_interval(self.kind, float(self), self.n, self.m,
                                    paired=bool(self.paired),
                                    confidence_level=confidence_level,
                                    alternative=self.alternative or "two-sided")


_KINDS = ("d_z", "g_z", "cohen_d", "hedges_g", "glass_delta")


@dataclass(frozen=True)
class EffectSizes(HtmlRepr):
    """Standardised effect sizes of one comparison (see :mod:`irscale.stats.effects`).

    ``n`` and ``m`` are the sample sizes and ``paired`` the design, from which
    :meth:`confidence_interval` computes noncentral t intervals (``None`` when unknown).
    Protocol: ``statistic`` and ``effect_size`` are the primary effect size (``d_z`` for
    paired, ``hedges_g`` for unpaired scores), ``pvalue`` is ``None``.
    """

    d_z: float
    g_z: float
    cohen_d: float
    hedges_g: float
    glass_delta: float
    n: int | None = None
    m: int | None = None
    paired: bool | None = None

    def as_dict(self) -> dict[str, float]:
        return {
            "d_z": self.d_z,
            "g_z": self.g_z,
            "cohen_d": self.cohen_d,
            "hedges_g": self.hedges_g,
            "glass_delta": self.glass_delta,
        }

    @property
    def primary(self) -> str:
        """The name of the primary effect size: ``d_z`` (paired) or ``hedges_g``."""
        paired = self.paired if self.paired is not None else not math.isnan(self.d_z)
        return "d_z" if paired else "hedges_g"

    def get(self, kind: str | None = None, *, alternative: Alternative = "two-sided") -> EffectSize:
        """The effect size ``kind`` (default: the primary one) as an :class:`EffectSize`."""
        kind = self.primary if kind is None else kind
        if kind not in _KINDS:
            raise ParameterError(f"unknown effect size {kind!r}; choose from {list(_KINDS)}")
        paired = self.paired if self.paired is not None else self.primary == "d_z"
        return EffectSize(getattr(self, kind), kind=kind, n=self.n, m=self.m,
                          paired=paired, alternative=alternative)

    @property
    def effect_size(self) -> EffectSize:
        """The primary effect size (``d_z`` for paired, ``hedges_g`` for unpaired scores)."""
        return self.get()

    @property
    def statistic(self) -> float:
        """The primary effect size (a plain ``float``)."""
        return float(getattr(self, self.primary))

    @property
    def pvalue(self) -> None:
        """``None``: effect sizes are estimates, not a test."""
        return None

    def confidence_interval(
        self, confidence_level: float = 0.95, *, kind: str | None = None,
        alternative: Alternative = "two-sided",
    ) -> ConfidenceInterval:
        """The noncentral t interval of the effect size ``kind`` (default: the primary
        one; ``d_z``/``g_z`` for paired, ``cohen_d``/``hedges_g`` for unpaired scores)."""
        return self.get(kind, alternative=alternative).confidence_interval(confidence_level)

    def to_frame(self) -> pd.DataFrame:
        """One row: the five effect sizes, the sample sizes and the design."""
        import pandas as pd

        return declare(pd.DataFrame([{**self.as_dict(), "n": self.n, "m": self.m,
                                      "paired": self.paired}]), effect_meanings(self.paired))

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The effect sizes as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        return format_table(self.to_frame(), fmt, digits=digits)


#: Why a statistic or a standardised effect size is undefined.
NO_SPREAD_CAUSE = ("samples without variance (differences the same on every topic, constant "
                   "samples): the statistic and the standardised effect sizes are x/0")


def effect_meanings(paired: bool | None) -> dict[str, Meaning]:
    """What the non-finite values of the effect sizes' columns are
    (:mod:`irscale.core.numbers`; display names ``g`` and ``Δ`` too), for ``paired``
    samples (None: unknown): d_z and g_z of independent samples have none."""
    spread = undefined(NO_SPREAD_CAUSE)
    paired_only = spread if paired or paired is None else blank(
        "an effect size of paired samples, for independent ones")
    return {**dict.fromkeys(("cohen_d", "hedges_g", "glass_delta", "g", "Δ"), spread),
            **dict.fromkeys(("d_z", "g_z"), paired_only)}


def effect_size_columns(x: np.ndarray, y: np.ndarray, paired: bool) -> dict[str, np.ndarray]:
    """The effect sizes of every column pair of ``x`` and ``y`` (see the module docstring)."""
    x = np.atleast_1d(np.asarray(x, dtype=np.float64))
    y = np.atleast_1d(np.asarray(y, dtype=np.float64))
    if x.ndim == 1:
        x, y = x[:, None], y[:, None]
    n, m = x.shape[0], y.shape[0]
    tol = tie_tolerance(x, y, axis=0)
    diff = x.mean(axis=0) - y.mean(axis=0)
    sx, sy = sample_sd(x, tol), sample_sd(y, tol)
    pooled = np.sqrt(((n - 1) * sx**2 + (m - 1) * sy**2) / (n + m - 2))
    cohen_d = _ratio(diff, pooled)
    if paired:
        d = x - y
        d_z = _ratio(d.mean(axis=0), sample_sd(d, tol))
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
    from .validation import two_samples

    xs, ys, _ = two_samples(x, y, paired=paired)
    columns = effect_size_columns(xs[:, None], ys[:, None], paired)
    return EffectSizes(**{k: float(v[0]) for k, v in columns.items()}, n=len(xs), m=len(ys),
                       paired=paired)


def standard_error(x: np.ndarray, y: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Standard error of mean(x) − mean(y) and its degrees of freedom, column by column.

    ``paired``: s_d/sqrt(n), n − 1 df. ``student``: s_p sqrt(1/n + 1/m), n + m − 2 df.
    ``welch``: sqrt(s_x²/n + s_y²/m) with the Welch–Satterthwaite df (Welch, 1947).
    """
    n, m = x.shape[0], y.shape[0]
    tol = tie_tolerance(x, y, axis=0)
    if kind == "paired":
        se = sample_sd(x - y, tol) / np.sqrt(n)
        return se, np.full(se.shape, n - 1.0)
    vx, vy = sample_sd(x, tol) ** 2, sample_sd(y, tol) ** 2
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
    x: np.ndarray, y: np.ndarray, *, kind: str, alpha: float, alternative: Alternative
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean difference and its 100(1 − α)% t interval, column by column.

    Two-sided: diff ± t_{1−α/2, ν} · se; ``greater``: [diff − t_{1−α, ν} · se, +∞);
    ``less``: (−∞, diff + t_{1−α, ν} · se] — the interval that matches the test.
    """
    diff = x.mean(axis=0) - y.mean(axis=0)
    se, df = standard_error(x, y, kind)
    low, high = t_interval(diff, se, df, alpha=alpha, alternative=alternative)
    return diff, low, high


def t_interval(
    diff: np.ndarray | float, se: np.ndarray | float, df: np.ndarray | float, *,
    alpha: float, alternative: Alternative,
) -> tuple[np.ndarray, np.ndarray]:
    """The 100(1 − α)% t interval of ``diff`` with standard error ``se`` on ``df`` degrees
    of freedom (one-sided for one-sided ``alternative``), element by element."""
    diff = np.asarray(diff, dtype=np.float64)
    if alternative == "two-sided":
        half = t_ppf(1 - alpha / 2, df) * se
        return diff - half, diff + half
    half = t_ppf(1 - alpha, df) * se
    if alternative == "greater":
        return diff - half, np.full(diff.shape, np.inf)
    return np.full(diff.shape, -np.inf), diff + half
