"""An overall evaluation criterion (OEC): a declared weighted combination of online
measures, compared between two variants with its variance by the delta method.

Kohavi et al. ("Controlled experiments on the web: survey and practical guide", 2009,
§3.2; Ferro & Maistro 2024, §6.3) judge an experiment on one OEC that weighs the measures
the product cares about. Here an OEC is

    OEC = Σ_m w_m R_m,   R_m = Σ_u num_m(u) / Σ_u den_m(u)

over the users u of a variant: a component ``"clicks/impressions"`` is the ratio metric of
two per-user columns (CTR), a component ``"success"`` the mean of a per-user column (its
denominator 1 for every user). The users are the independent units, so the variance of
the OEC comes from the multivariate delta method (Deng, Knoblich & Lu 2018, §3): with
μ the means over the n users of a variant, ∂R_m/∂μ_num = 1/μ_den and
∂R_m/∂μ_den = −R_m/μ_den, and

    Var(OEC) ≈ Var_u( Σ_m w_m (num_m(u) − R_m den_m(u)) / μ_den,m ) / n,

the sample variance of each user's linearised OEC (equal to gᵀ Σ g / n with g the
gradient and Σ the covariance of the users' numerators and denominators). The test of
treatment − control is the normal z-test of the difference, Var = Var_t + Var_c, and its
1 − α interval. With one ratio component and weight 1 it is :func:`~irscale.online.
abtest.ab_test`'s ``delta`` analysis; with one mean component its standard error is
Welch's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from ..errors import InputError, ParameterError
from ..stats.effects import EffectSizes, t_interval
from ..stats.results import TestResult
from ..stats.validation import check_alpha
from .abtest import _column, _groups

__all__ = ["oec_test", "parse_oec"]


class Component(NamedTuple):
    """One weighted measure of an OEC (a value, not a result): the mean of ``numerator``
    (``denominator`` None) or the ratio of their sums."""

    weight: float
    numerator: str
    denominator: str | None

    @property
    def name(self) -> str:
        return self.numerator if self.denominator is None else \
            f"{self.numerator}/{self.denominator}"


def _oec_text(weights: str) -> list[tuple[str, object]]:
    """The (measure, weight) pairs of an OEC's text ``measure=weight,...`` (``--oec``),
    each weight a number (a :class:`ParameterError` naming the part otherwise)."""
    pairs: list[tuple[str, object]] = []
    for part in weights.split(","):
        name, sep, weight = part.rpartition("=")
        if not sep or not name.strip():
            raise ParameterError(f"--oec: expected measure=weight,... (a measure a "
                                 f"column, or num/den for a ratio), got {part!r}")
        try:
            pairs.append((name.strip(), float(weight)))
        except ValueError:
            raise ParameterError(f"--oec: the weight of {name.strip()!r} is not a "
                                 f"number: {weight!r}") from None
    return pairs


def parse_oec(weights: Mapping[str, float] | str) -> tuple[Component, ...]:
    """The components of an OEC: a mapping ``{"clicks/impressions": 0.5, "success": 1}``
    or its text ``"clicks/impressions=0.5,success=1"`` (``--oec``). Every weight a finite
    number other than 0, every measure once (a :class:`ParameterError` otherwise)."""
    if isinstance(weights, str):
        pairs = _oec_text(weights)
    elif isinstance(weights, Mapping):
        pairs = [(str(k), v) for k, v in weights.items()]
    else:
        raise ParameterError(f"the OEC's weights are a mapping measure → weight, got "
                             f"{type(weights).__name__}")
    if not pairs:
        raise ParameterError("an OEC needs at least one weighted measure")
    components: list[Component] = []
    for name, value in pairs:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or \
                not math.isfinite(value) or value == 0:
            raise ParameterError(f"OEC weight of {name!r}: a finite number other than 0, "
                                 f"got {value!r}")
        numerator, sep, denominator = name.partition("/")
        if sep and not (numerator.strip() and denominator.strip()):
            raise ParameterError(f"OEC measure {name!r}: a ratio is numerator/denominator")
        components.append(Component(float(value), numerator.strip(),
                                    denominator.strip() if sep else None))
    names = [c.name for c in components]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ParameterError(f"OEC measure {twice[0]!r} given twice")
    return tuple(components)


def _variant_oec(frame: pd.DataFrame, components: tuple[Component, ...], name: str
                 ) -> tuple[float, float, int]:
    """The OEC of one variant's users and its delta-method variance (module doc)."""
    n = len(frame)
    if n < 2:
        raise InputError(f"variant {name!r} has {n} user(s): the delta method needs 2")
    value, linear = 0.0, np.zeros(n)
    for c in components:
        num = _column(frame, c.numerator, "OEC measure")
        den = np.ones(n) if c.denominator is None else \
            _column(frame, c.denominator, "OEC denominator")
        mean_den = den.mean()
        if not mean_den > 0:
            raise InputError(f"variant {name!r}: the denominators {c.denominator!r} sum to "
                             f"{den.sum():g}; a ratio needs a positive total")
        ratio = float(num.sum() / den.sum())
        value += c.weight * ratio
        linear += c.weight * (num - ratio * den) / mean_den
    variance = float(linear.var(ddof=1) / n)
    if not (math.isfinite(value) and math.isfinite(variance)):
        raise InputError(f"variant {name!r}: the OEC or its variance is beyond the range "
                         "of a double: rescale the measures")
    return value, variance, n


def oec_test(table: pd.DataFrame, weights: Mapping[str, float] | str, *,
             variant: str = "variant", control: str = "control",
             treatment: str = "treatment", alpha: float = 0.05) -> TestResult:
    """Compare ``treatment`` with ``control`` on the OEC ``weights`` declares (module
    doc), by the delta method.

    Parameters
    ----------
    table : DataFrame
        One row per user: the ``variant`` column and the measure columns.
    weights : mapping or str
        Measure → weight: a column (its per-user mean) or ``num/den`` (the ratio of the
        sums), e.g. ``{"clicks/impressions": 0.5, "success": 1.0}`` (:func:`parse_oec`).
    alpha : float
        Level of the test and of the 1 − α interval of the difference.

    Returns
    -------
    TestResult
        ``mean_x``/``mean_y`` the OEC of treatment/control, ``diff`` their difference with
        its normal interval, ``statistic`` z and ``pvalue`` (two-sided).

    Examples
    --------
    >>> table = pd.DataFrame({"variant": ["control"] * 4 + ["treatment"] * 4,
    ...                       "clicks": [1, 2, 0, 3, 2, 3, 1, 4],
    ...                       "impressions": [4, 4, 2, 5, 4, 5, 2, 6],
    ...                       "success": [0, 1, 0, 1, 1, 1, 0, 1]})
    >>> result = oec_test(table, {"clicks/impressions": 1.0, "success": 0.5})
    >>> round(result.diff, 4), round(result.pvalue, 4)
    (0.3132, 0.2843)
    """
    components = parse_oec(weights)
    alpha = check_alpha(alpha)
    ctrl, treat = _groups(table, variant, control, treatment)
    o_c, v_c, n_c = _variant_oec(ctrl, components, control)
    o_t, v_t, n_t = _variant_oec(treat, components, treatment)
    se = math.sqrt(v_t + v_c)
    if se == 0:
        raise InputError(f"every user's OEC is the same within each variant ({o_t:g} in "
                         f"{treatment!r}, {o_c:g} in {control!r}): with no variance the "
                         "delta method has nothing to test")
    diff = o_t - o_c
    z = diff / se
    low, high = t_interval(diff, se, math.inf, alpha=alpha, alternative="two-sided")
    nan = math.nan
    declared = " + ".join(f"{c.weight:g}*{c.name}" for c in components)
    return TestResult(
        test="OEC delta-method z-test", systems=(treatment, control), paired=False,
        alternative="two-sided", n=(n_t, n_c), mean_x=o_t, mean_y=o_c, diff=diff,
        ci_low=float(low), ci_high=float(high), ci_method="delta-method normal interval",
        statistic=z, df=None, pvalue=float(2 * stats.norm.sf(abs(z))), alpha=alpha,
        effect=EffectSizes(nan, nan, nan, nan, nan, n=n_t, m=n_c, paired=False),
        method=f"OEC = {declared}", ci_se=se, ci_df=math.inf)
