"""Power, topic-set-size design and minimum detectable differences (against statsmodels)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from irscale.errors import ParameterError
from irscale.stats import (
    expected_ci_width,
    minimum_detectable_difference,
    power_anova,
    power_paired_t,
    power_two_sample_t,
    topic_set_size,
)

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")

power_module = pytest.importorskip("statsmodels.stats.power")


@pytest.mark.parametrize("effect", [0.2, 0.5, 0.8])
@pytest.mark.parametrize("n", [10, 50])
@pytest.mark.parametrize("alternative", ["two-sided", "larger"])
def test_t_power_matches_statsmodels(effect, n, alternative):
    ours_alt = "greater" if alternative == "larger" else alternative
    ref = power_module.TTestPower().power(effect, n, 0.05, alternative=alternative)
    assert power_paired_t(effect, n, alternative=ours_alt) == pytest.approx(ref, rel=1e-8)
    ref = power_module.TTestIndPower().power(effect, n, 0.05, ratio=1.0,
                                             alternative=alternative)
    assert power_two_sample_t(effect, n, alternative=ours_alt) == pytest.approx(ref, rel=1e-8)


@pytest.mark.parametrize(("f", "k", "n"), [(0.1, 3, 30), (0.25, 5, 20), (0.4, 10, 8)])
def test_anova_power_matches_statsmodels(f, k, n):
    ref = power_module.FTestAnovaPower().power(f, k * n, 0.05, k_groups=k)
    assert power_anova(f, k, n) == pytest.approx(ref, rel=1e-8)


@pytest.mark.parametrize(("design", "min_diff", "sd", "systems"), [
    ("paired-t", 0.05, 0.15, 2), ("paired-t", 0.10, 0.20, 2),
    ("two-sample-t", 0.10, 0.25, 2), ("anova", 0.10, 0.20, 10), ("anova", 0.2, 0.25, 3),
])
def test_topic_set_size_is_the_smallest_n_with_enough_power(design, min_diff, sd, systems):
    plan = topic_set_size(design, min_diff=min_diff, sd=sd, n_systems=systems, beta=0.2)

    def power(n: int) -> float:
        if design == "paired-t":
            return power_paired_t(min_diff / sd, n)
        if design == "two-sample-t":
            return power_two_sample_t(min_diff / sd, n)
        return power_anova(min_diff / sd / math.sqrt(2 * systems), systems, n)

    assert power(plan.n) >= 0.8 > power(plan.n - 1)
    assert plan.achieved == pytest.approx(power(plan.n))
    if design == "paired-t":  # the same answer as statsmodels' solver, rounded up
        nobs = power_module.TTestPower().solve_power(min_diff / sd, power=0.8, alpha=0.05)
        assert plan.n == math.ceil(nobs)
    # minimum detectable difference: the inverse problem
    mdd = minimum_detectable_difference(plan.n, sd=sd, design=design, n_systems=systems)
    assert mdd <= min_diff
    assert power(plan.n) == pytest.approx(0.8, abs=0.1)


def test_anova_design_uses_the_least_favourable_configuration():
    # lambda = n minD^2 / (2 sigma^2): two means at +-minD/2, the others at the grand mean
    m, n, min_diff, sd = 6, 25, 0.1, 0.2
    means = np.zeros(m)
    means[0], means[1] = min_diff / 2, -min_diff / 2
    f = np.sqrt(np.mean((means - means.mean()) ** 2)) / sd  # Cohen's f of that configuration
    assert power_anova(f, m, n) == pytest.approx(
        power_module.FTestAnovaPower().power(f, m * n, 0.05, k_groups=m))
    plan = topic_set_size("anova", min_diff=min_diff, sd=sd, n_systems=m)
    assert power_anova(f, m, plan.n) >= 0.8 > power_anova(f, m, plan.n - 1)


def test_ci_design_uses_the_expected_width():
    sd, n = 0.2, 40
    e_s = sd * stats.chi(n - 1).mean() / math.sqrt(n - 1)  # E[s] of the sample sd
    width = 2 * stats.t.ppf(0.975, n - 1) * e_s / math.sqrt(n)
    assert expected_ci_width(n, sd) == pytest.approx(width, rel=1e-12)
    plan = topic_set_size("ci", width=0.1, sd=sd)
    assert expected_ci_width(plan.n, sd) <= 0.1 < expected_ci_width(plan.n - 1, sd)
    assert "expected CI width" in repr(plan)
    assert plan.to_frame().loc[0, "n"] == plan.n


def test_minimum_detectable_difference_is_where_power_reaches_target():
    mdd = minimum_detectable_difference(50, sd=0.2, beta=0.2)
    assert power_paired_t(mdd / 0.2, 50) == pytest.approx(0.8, abs=1e-9)
    assert minimum_detectable_difference(100, sd=0.2) < mdd  # more topics, smaller MDD


def test_invalid_parameters():
    with pytest.raises(ParameterError):
        topic_set_size("paired-t", sd=0.2)  # no min_diff
    with pytest.raises(ParameterError):
        topic_set_size("paired-t", sd=-1, min_diff=0.1)
    with pytest.raises(ParameterError):
        topic_set_size("nope", sd=0.2, min_diff=0.1)
    with pytest.raises(ParameterError):
        topic_set_size("paired-t", sd=0.2, min_diff=0.1, beta=1.5)
    with pytest.raises(ParameterError):
        power_paired_t(0.5, 1)
