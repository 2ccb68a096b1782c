"""``oec_test``: an OEC's delta-method test against the multivariate delta method written
out with its gradient and the users' covariance matrix (numpy), against ab_test's delta
analysis and Welch's standard error for one component, and its interval's coverage on
simulated experiments whose true OEC difference is known."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from irscale.errors import InputError, ParameterError
from irscale.online import ab_test, oec_test
from irscale.online.oec import parse_oec

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def users(rng, n: int, ctr: float, success: float, variant: str) -> pd.DataFrame:
    impressions = rng.poisson(5, n) + 1
    return pd.DataFrame({"variant": variant, "impressions": impressions,
                         "clicks": rng.binomial(impressions, ctr),
                         "success": rng.binomial(1, success, n),
                         "dwell": rng.gamma(2.0, 15.0, n)})


def experiment(seed: int, n: int = 300, lift: float = 0.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.concat([users(rng, n, 0.3, 0.5, "control"),
                      users(rng, n, 0.3 + lift, 0.5 + lift, "treatment")], ignore_index=True)


def gradient_delta(frame: pd.DataFrame, weights: dict[str, float]) -> tuple[float, float]:
    """OEC = Σ w R and Var by gᵀ Σ g / n over the stacked (num, den) of every component."""
    columns, gradient, value = [], [], 0.0
    n = len(frame)
    for name, w in weights.items():
        num_name, _, den_name = name.partition("/")
        num = frame[num_name].to_numpy(float)
        den = frame[den_name].to_numpy(float) if den_name else np.ones(n)
        mu_num, mu_den = num.mean(), den.mean()
        value += w * mu_num / mu_den
        columns += [num, den]
        gradient += [w / mu_den, -w * mu_num / mu_den**2]
    g = np.array(gradient)
    return value, float(g @ np.cov(np.vstack(columns), ddof=1) @ g / n)


WEIGHTS = {"clicks/impressions": 0.7, "success": 0.3, "dwell": -0.01}


@pytest.mark.parametrize("seed", range(4))
def test_equals_the_gradient_form_of_the_delta_method(seed):
    table = experiment(seed, lift=0.02)
    result = oec_test(table, WEIGHTS)
    o_t, v_t = gradient_delta(table[table.variant == "treatment"], WEIGHTS)
    o_c, v_c = gradient_delta(table[table.variant == "control"], WEIGHTS)
    assert (result.mean_x, result.mean_y) == pytest.approx((o_t, o_c), rel=1e-12)
    se = math.sqrt(v_t + v_c)
    assert result.ci_se == pytest.approx(se, rel=1e-10)
    z = (o_t - o_c) / se
    assert result.statistic == pytest.approx(z, rel=1e-10)
    assert result.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    assert result.method == "OEC = 0.7*clicks/impressions + 0.3*success + -0.01*dwell"


def test_one_component_is_the_delta_analysis_and_welch_se():
    table = experiment(7, lift=0.05)
    ratio = oec_test(table, "clicks/impressions=1")
    delta = ab_test(table, "clicks", analysis="delta", denominator="impressions")
    assert (ratio.diff, ratio.ci_se, ratio.pvalue) == pytest.approx(
        (delta.diff, delta.ci_se, delta.pvalue), rel=1e-12)
    mean = oec_test(table, {"dwell": 2.0})
    t, c = (table.loc[table.variant == v, "dwell"].to_numpy() for v in ("treatment",
                                                                         "control"))
    welch_se = math.sqrt(t.var(ddof=1) / len(t) + c.var(ddof=1) / len(c))
    assert mean.diff == pytest.approx(2 * (t.mean() - c.mean()), rel=1e-12)
    assert mean.ci_se == pytest.approx(2 * welch_se, rel=1e-12)


def test_interval_covers_the_true_difference():
    """400 experiments with a known lift: the 95% intervals cover the true OEC difference
    at a rate within the binomial 99.9% band around 0.95."""
    lift = 0.03
    truth = WEIGHTS["clicks/impressions"] * lift + WEIGHTS["success"] * lift
    covered = 0
    for seed in range(400):
        result = oec_test(experiment(1000 + seed, n=200, lift=lift), WEIGHTS)
        covered += result.ci_low <= truth <= result.ci_high
    low, high = stats.binom.ppf([0.0005, 0.9995], 400, 0.95)
    assert low <= covered <= high


@pytest.mark.parametrize("weights, match", [
    ({}, "at least one"), ({"clicks": 0}, "other than 0"), ({"clicks": float("nan")},
                                                            "finite"),
    ("clicks=1,clicks=2", "twice"), ("clicks", "measure=weight"), ({"clicks/": 1},
                                                                   "numerator/denominator"),
    (["clicks"], "mapping"), ({"clicks": True}, "finite number"),
])
def test_bad_weights(weights, match):
    with pytest.raises(ParameterError, match=match):
        parse_oec(weights)


def test_bad_tables():
    table = experiment(3)
    with pytest.raises(InputError, match="nosuch"):
        oec_test(table, {"nosuch": 1})
    zero = table.assign(impressions=0)
    with pytest.raises(InputError, match="positive total"):
        oec_test(zero, {"clicks/impressions": 1})
    same = table.assign(success=1)
    with pytest.raises(InputError, match="no variance"):
        oec_test(same, {"success": 1})
    with pytest.raises(InputError, match="2"):
        oec_test(table.iloc[[0, 1, 599]], {"success": 1})
