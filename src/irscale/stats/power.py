"""Statistical power, Sakai's topic-set-size design and the minimum detectable difference.

Power (exact noncentral distributions; Cohen, 1988)
    Paired t-test, standardised effect d = δ/σ_d over n topics: T' ~ t'(ν = n − 1,
    λ = d sqrt(n)); power = P(T' ≥ t_{1−α/2,ν}) + P(T' ≤ −t_{1−α/2,ν}) (two-sided), or
    P(T' ≥ t_{1−α,ν}) (one-sided ``greater``).
    Two-sample t-test, n per group: ν = 2(n − 1), λ = d sqrt(n/2).
    One-way ANOVA of k systems with n topics each, Cohen's f: F' ~ F'(k − 1, k(n − 1),
    λ = f² k n); power = P(F' ≥ F_{1−α}). (As statsmodels' TTestPower, TTestIndPower and
    FTestAnovaPower.)

Topic-set-size design (Sakai, 2016, "Topic set size design", Inf. Retr. J. 19; Sakai,
2014, CIKM)
    The smallest number of topics n meeting a statistical requirement, given the variance
    of the scores (e.g. estimated from past data):
    * paired t: power ≥ 1 − β for a minimum detectable difference minD between two
      systems, with σ_d² the variance of per-topic differences (d = minD/σ_d);
    * two-sample t (unpaired): the same with σ² the common variance, n per system;
    * one-way ANOVA of m systems: power ≥ 1 − β when the true means span a range ≥ minD —
      the least favourable configuration gives λ = n minD²/(2σ²), σ² the within-system
      variance;
    * CI width: the expected width of the 100(1 − α)% interval of the mean difference,
      2 t_{1−α/2,ν} E[s]/sqrt(n) (paired; × sqrt(2) with ν = 2(n − 1) unpaired),
      E[s] = σ sqrt(2/ν) Γ((ν + 1)/2)/Γ(ν/2), is at most δ.
    Sakai's Excel tools search n from a normal approximation of the noncentral t; here the
    search uses the exact power, so n can differ by one from the tools' output.
Minimum detectable difference
    For a given number of topics, the smallest raw difference (minD) whose power reaches
    1 − β (the inverse of the above).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import pandas as pd
from scipy import optimize, special, stats

from ..core.notebook import HtmlRepr
from ..errors import ParameterError, shown
from .params import MINIMUM_DIFFERENCE, POWER_DESIGNS, TOPIC_SET_SIZE
from .tables import Format
from .validation import Alternative, check_alpha, check_choice

DESIGNS = POWER_DESIGNS
Design = Literal["paired-t", "two-sample-t", "anova", "ci"]
_MAX_TOPICS = 1_000_000
_NO_SIZE = "no topic set size below one million meets the requirement"


def _check_effect(value: float) -> float:
    """A standardised effect size: any finite number (NaN or ±inf are errors, not power 0)."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ParameterError(f"effect_size must be a number, got {shown(value)}") from None
    if not math.isfinite(value):
        raise ParameterError(f"effect_size must be a finite number, got {value}")
    return value


def _check_power_args(alpha: float, beta: float) -> tuple[float, float]:
    alpha = check_alpha(alpha)
    beta = float(beta)
    if not 0 < beta < 1:
        raise ParameterError(f"beta must lie in (0, 1), got {beta}")
    return alpha, beta


def _check_t_args(alpha: float, alternative: Alternative, n: int) -> float:
    """The checked ``alpha`` of a t-test power computation (errors for bad arguments)."""
    alpha = check_alpha(alpha)
    check_choice(alternative, ("two-sided", "greater", "less"), "alternative")
    _check_topics(n)
    return alpha


def _check_topics(n: int) -> int:
    """``n`` topics: 2 or more (a t interval needs a degree of freedom)."""
    if n < 2:
        raise ParameterError(f"n must be at least 2, got {n}")
    return n


def _upper(crit: float, df: float, nc: float) -> float:
    """P(T' ≥ crit) for the noncentral t. scipy returns NaN deep in the tails (< 1e-20)
    and for a noncentrality far from the critical value (|λ| ≳ 1e10): the probability is
    then 1 when λ lies above ``crit`` (the distribution is centred at about λ), else 0."""
    value = float(stats.nct.sf(crit, df, nc))
    if math.isnan(value):
        return 1.0 if nc > crit else 0.0
    return value


def _t_power(nc: float, df: float, alpha: float, alternative: Alternative) -> float:
    # P(T' ≤ −c; λ) = P(T' ≥ c; −λ) by symmetry
    if alternative == "two-sided":
        crit = stats.t.ppf(1 - alpha / 2, df)
        return _upper(crit, df, nc) + _upper(crit, df, -nc)
    crit = stats.t.ppf(1 - alpha, df)
    return _upper(crit, df, nc if alternative == "greater" else -nc)


def power_paired_t(
    effect_size: float, n: int, *, alpha: float = 0.05, alternative: Alternative = "two-sided"
) -> float:
    """Power of the paired t-test for the standardised effect d = δ/σ_d and n topics."""
    alpha = _check_t_args(alpha, alternative, n)
    return _t_power(_check_effect(effect_size) * math.sqrt(n), n - 1, alpha, alternative)


def power_two_sample_t(
    effect_size: float, n: int, *, alpha: float = 0.05, alternative: Alternative = "two-sided"
) -> float:
    """Power of the two-sample t-test (equal variances) with n topics per system."""
    alpha = _check_t_args(alpha, alternative, n)
    return _t_power(_check_effect(effect_size) * math.sqrt(n / 2), 2 * (n - 1), alpha,
                    alternative)


def power_anova(effect_size: float, n_systems: int, n: int, *, alpha: float = 0.05) -> float:
    """Power of the one-way ANOVA of ``n_systems`` systems, n topics each, Cohen's f."""
    alpha = check_alpha(alpha)
    if n_systems < 2 or n < 2:
        raise ParameterError("the one-way ANOVA needs at least 2 systems and 2 topics")
    df1, df2 = n_systems - 1, n_systems * (n - 1)
    crit = stats.f.ppf(1 - alpha, df1, df2)
    return float(stats.ncf.sf(crit, df1, df2, _check_effect(effect_size) ** 2 * n_systems * n))


def _expected_sd(df: float) -> float:
    """E[s]/σ for a sample standard deviation on ``df`` degrees of freedom."""
    return math.sqrt(2.0 / df) * math.exp(special.gammaln((df + 1) / 2) - special.gammaln(df / 2))


def expected_ci_width(n: int, sd: float, *, alpha: float = 0.05, paired: bool = True) -> float:
    """Expected width of the 100(1 − α)% t interval of a mean difference with n topics."""
    alpha = check_alpha(alpha)
    n = _check_topics(n)
    df = n - 1 if paired else 2 * (n - 1)
    scale = math.sqrt(1 / n) if paired else math.sqrt(2 / n)
    return 2 * float(stats.t.ppf(1 - alpha / 2, df)) * _expected_sd(df) * sd * scale


@dataclass(frozen=True)
class TopicSetSize(HtmlRepr):
    """The smallest topic set size meeting a requirement, and what it achieves.

    A design, not an inference: it has ``to_frame()`` and ``format(fmt)`` of the result
    protocol (:mod:`irscale.stats.protocol`), no statistic or p-value."""

    design: str
    n: int
    achieved: float
    target: float
    parameters: dict[str, float] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{"design": self.design, "n": self.n, "achieved": self.achieved,
                              "target": self.target, **self.parameters}])

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        """The design as a ``text``, ``csv``, ``markdown``, ``latex`` or ``json`` table."""
        from .protocol import format_table

        return format_table(self.to_frame(), fmt, digits=digits)

    def __repr__(self) -> str:
        what = ("expected CI width" if self.design == "ci" else
                self.design.removeprefix("G-theory ") if self.design.startswith("G-theory")
                else "power")
        params = ", ".join(f"{k}={v:g}" for k, v in self.parameters.items())
        return (f"TopicSetSize({self.design}: n = {self.n} topics ({what} {self.achieved:.4f}, "
                f"target {self.target:g}); {params})")


def _start(factor: int, ratio: float) -> int:
    """The normal approximation n ≈ factor · ratio² (ratio = z σ/minD, or z σ/δ for the
    CI width) where the search for n starts. The exact t-based n is at least as large, so
    a ratio whose n passes the limit (or overflows) is refused here, before any search."""
    if not ratio <= math.sqrt(_MAX_TOPICS / factor):
        raise ParameterError(_NO_SIZE)
    return math.ceil(factor * ratio**2)


def _smallest(meets: object, start: int, minimum: int) -> int:
    """Smallest n ≥ minimum with meets(n), searching around ``start`` (meets is monotone)."""
    n = max(minimum, int(start))
    if meets(n):  # type: ignore[operator]
        while n > minimum and meets(n - 1):  # type: ignore[operator]
            n -= 1
        return n
    low, high = n, n + 1
    while not meets(high):  # type: ignore[operator]
        low, high = high, min(2 * high, _MAX_TOPICS)
        if high == _MAX_TOPICS and not meets(high):  # type: ignore[operator]
            raise ParameterError(_NO_SIZE)
    while high - low > 1:
        mid = (low + high) // 2
        if meets(mid):  # type: ignore[operator]
            high = mid
        else:
            low = mid
    return high


def _design_power(design: str, effect: float, n: int, n_systems: int, alpha: float) -> float:
    """Power of ``design`` for the raw effect minD/σ with n topics (per system)."""
    if design == "paired-t":
        return power_paired_t(effect, n, alpha=alpha)
    if design == "two-sample-t":
        return power_two_sample_t(effect, n, alpha=alpha)
    # least favourable configuration of m means with range minD: λ = n minD²/(2σ²) = f² m n
    return power_anova(effect / math.sqrt(2 * n_systems), n_systems, n, alpha=alpha)


@TOPIC_SET_SIZE
def topic_set_size(
    design: str,
    *,
    sd: float,
    min_diff: float | None = None,
    width: float | None = None,
    n_systems: int = 2,
    alpha: float = 0.05,
    beta: float = 0.20,
) -> TopicSetSize:
    """Sakai's topic-set-size design (see the module docstring).

    Parameters
    ----------
    design : {"paired-t", "two-sample-t", "anova", "ci"}
        ``"paired-t"``, ``"two-sample-t"`` and ``"anova"``: the smallest number of topics
        whose test detects ``min_diff`` with power 1 − β; ``"ci"``: the smallest number
        whose expected confidence interval of the mean difference is at most ``width``
        wide (paired).
    sd : float
        σ_d of per-topic differences (``paired-t``, ``ci``) or the within-system σ
        (``two-sample-t``, ``anova``), e.g. estimated from past data.
    min_diff : float
        The minimum detectable difference (the range of the system means for ANOVA);
        required except for ``ci``.
    width : float
        The largest acceptable expected CI width; required for ``ci``.
    n_systems : int, default 2
        The number of systems compared by ANOVA.
    alpha, beta : float, default 0.05 and 0.20
        Type I and type II error rates (power 1 − β).

    Returns
    -------
    TopicSetSize
        ``n`` (topics; per system for ``two-sample-t``) and what it achieves: the power,
        or the expected CI width for ``ci``.

    Raises
    ------
    ParameterError
        An unknown design, a non-positive ``sd``, a missing or non-positive ``min_diff``
        or ``width``, ``alpha`` or ``beta`` outside (0, 1), fewer than 2 systems.

    Examples
    --------
    >>> size = topic_set_size("paired-t", sd=0.1, min_diff=0.05)
    >>> print(size.n, f"{size.achieved:.4f}")
    34 0.8078
    >>> topic_set_size("ci", sd=0.1, width=0.05).n
    64
    """
    # (design, sd, min_diff, width and n_systems checked on entry, and which apply:
    # TOPIC_SET_SIZE)
    alpha, beta = _check_power_args(alpha, beta)
    if design == "ci":
        assert width is not None  # (required by TOPIC_SET_SIZE)
        start = _start(4, stats.norm.ppf(1 - alpha / 2) * sd / width)
        n = _smallest(lambda k: expected_ci_width(k, sd, alpha=alpha) <= width, start, 2)
        return TopicSetSize("ci", n, expected_ci_width(n, sd, alpha=alpha), width,
                            {"sd": sd, "alpha": alpha})
    assert min_diff is not None  # (required by TOPIC_SET_SIZE)
    diff = min_diff
    effect = diff / sd
    z = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(1 - beta)
    start = _start(1 if design == "paired-t" else 2, z * sd / diff)
    n = _smallest(
        lambda k: _design_power(design, effect, k, n_systems, alpha) >= 1 - beta, start, 2
    )
    params = {"min_diff": diff, "sd": sd, "alpha": alpha, "beta": beta}
    if design == "anova":
        params["n_systems"] = float(n_systems)
    return TopicSetSize(design, n, _design_power(design, effect, n, n_systems, alpha),
                        1 - beta, params)


@MINIMUM_DIFFERENCE
def minimum_detectable_difference(
    n: int,
    *,
    sd: float,
    design: Design = "paired-t",
    n_systems: int = 2,
    alpha: float = 0.05,
    beta: float = 0.20,
) -> float:
    """The smallest difference (range, for ANOVA) detected with power 1 − β by n topics."""
    # (n, sd, design and n_systems checked on entry: MINIMUM_DIFFERENCE)
    alpha, beta = _check_power_args(alpha, beta)

    def shortfall(diff: float) -> float:
        return _design_power(design, diff / sd, n, n_systems, alpha) - (1 - beta)

    high = sd
    while shortfall(high) < 0:
        high *= 2
    return float(optimize.brentq(shortfall, 0.0, high, xtol=1e-12))
