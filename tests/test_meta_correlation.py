"""Rank correlation of irscale.meta: τ_b against scipy, τ_ap and RBO by hand, overall vs
topic-by-topic correlation, bootstrap intervals."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from irscale.core import ScoreMatrix
from irscale.errors import ParameterError
from irscale.meta import (
    correlation,
    correlation_ci,
    correlation_matrix,
    kendall_tau,
    overall_correlation,
    rbo,
    rbo_scores,
    spearman,
    tau_ap,
    tau_ap_symmetric,
    topic_correlations,
)

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


# ----------------------------------------------------------------------------- Kendall, ρ
@pytest.mark.parametrize("seed", range(20))
def test_kendall_tau_b_is_seed000_formula_and_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 40))
    x = rng.integers(0, 6, n) / 5.0  # many ties
    y = rng.integers(0, 6, n) / 5.0
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return
    tau = kendall_tau(x, y)
    p, q, t, u = tau.concordant, tau.discordant, tau.ties_x, tau.ties_y
    assert tau.tau == pytest.approx((p - q) / np.sqrt((p + q + t) * (p + q + u)), abs=1e-15)
    assert tau.tau == pytest.approx(stats.kendalltau(x, y, variant="b").statistic, abs=1e-12)
    assert correlation(x, y, "kendall") == tau.tau


@pytest.mark.parametrize("seed", range(20))
def test_spearman_matches_scipy(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(3, 60))
    x = rng.integers(0, 8, n).astype(float)
    y = x + rng.normal(0, 2, n).round()
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return
    assert spearman(x, y) == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)


@pytest.mark.parametrize("scale", [1e-200, 1e-20, 1e20, 1e139])
def test_spearman_of_measures_of_different_scales_matches_scipy(scale):
    """Each ranking ties within its own tolerance: one shared tolerance (from the larger
    scores) tied every score of the other measure, ρ = NaN."""
    rng = np.random.default_rng(4)
    x = rng.random(12)
    y = x + rng.normal(0, 0.2, 12)
    expected = stats.spearmanr(x, y).statistic
    assert spearman(x * scale, y) == pytest.approx(expected, abs=1e-12)
    assert spearman(x, y * scale) == pytest.approx(expected, abs=1e-12)


def test_floating_point_noise_is_a_tie():
    x = np.array([0.3 - 0.1, 0.2, 0.5])
    y = np.array([1.0, 1.0, 2.0])
    assert kendall_tau(x, y).tau == pytest.approx(1.0)
    assert spearman(x, y) == pytest.approx(1.0)


# ----------------------------------------------------------------------------- τ_ap
def test_tau_ap_hand_example_eq52():
    # evaluated A > B > C > D, gold A > B > D > C:
    # correct(2) = 1, correct(3) = 2, correct(4) = 2 (C is above D in the evaluated list
    # but not in the gold) -> 2/3 (1/1 + 2/2 + 2/3) - 1 = 7/9
    x = [4, 3, 2, 1]
    y = [4, 3, 1, 2]
    assert tau_ap(x, y) == pytest.approx(7 / 9)
    assert tau_ap(x, x) == 1.0
    assert tau_ap(x, [1, 2, 3, 4]) == -1.0


def test_tau_ap_is_asymmetric_and_symmetric_version_averages():
    # items A, B, C: x ranks A > B > C, y ranks B > C > A
    x = [3, 2, 1]
    y = [1, 3, 2]
    # τ_ap(x|y): r=2 (B; A above, gold has A below B) 0; r=3 (C; gold has B above C) 1/2
    assert tau_ap(x, y) == pytest.approx(2 / 2 * (0 + 1 / 2) - 1)
    # τ_ap(y|x): order B, C, A: r=2 (C; B above C in gold) 1; r=3 (A; none) 0
    assert tau_ap(y, x) == pytest.approx(0.0)
    assert tau_ap_symmetric(x, y) == pytest.approx(-0.25)
    assert kendall_tau(x, y).tau == pytest.approx(-1 / 3)


def test_tau_ap_ties_hand_examples():
    # evaluated: A, then B and C tied; gold A > B > C. Orders ABC (τ_ap 1) and ACB
    # (correct(2) = 1, correct(3) = 1 of 2: τ_ap 0.5): expectation 0.75
    assert tau_ap([2, 1, 1], [3, 2, 1]) == pytest.approx(0.75)
    # gold tie B = C counts half: correct(2) = 1, correct(3) = (1 + 1/2)/2
    assert tau_ap([3, 2, 1], [2, 1, 1]) == pytest.approx(0.75)
    # ties in both lists count as agreement: identical lists with ties give 1
    assert tau_ap([1, 1, 2, 3], [1, 1, 2, 3]) == pytest.approx(1.0)
    # a list that ties everything ranks nothing: undefined, as τ_b (it was 0 against a
    # ranking and 1 against itself)
    assert math.isnan(tau_ap([1, 1, 1, 1], [4, 3, 2, 1]))
    assert math.isnan(tau_ap([4, 3, 2, 1], [1, 1, 1, 1]))
    assert math.isnan(tau_ap([1, 1, 1, 1], [1, 1, 1, 1]))
    assert math.isnan(kendall_tau([1, 1, 1, 1], [1, 1, 1, 1]).tau)


def test_rbo_of_scores_that_rank_nothing_is_undefined():
    """Scores that tie every item keep their input order, which RBO would have compared
    (1 for two such vectors): undefined instead, with a table that says so."""
    result = rbo_scores([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    assert math.isnan(result.ext) and math.isnan(result.min)
    assert math.isnan(correlation([0.0, 0.0, 0.0], [0.3, 0.2, 0.1], "rbo"))
    with pytest.warns(UserWarning, match="ties every item"):
        assert "undefined" in result.format("text")


def _tau_ap_by_enumeration(x, y):
    """Mean of eq. 52 over every order of the evaluated list's tied items (same credits)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    m = len(x)
    values = []
    for perm in itertools.permutations(range(m)):
        if any(x[perm[k]] < x[perm[k + 1]] for k in range(m - 1)):
            continue  # not an order of decreasing x
        total = 0.0
        for r in range(1, m):
            item = perm[r]
            correct = 0.0
            for above in perm[:r]:
                if y[above] > y[item]:
                    correct += 1.0
                elif y[above] == y[item]:
                    correct += 1.0 if x[above] == x[item] else 0.5
            total += correct / r
        values.append(2.0 / (m - 1) * total - 1.0)
    return float(np.mean(values))


@pytest.mark.parametrize("seed", range(25))
def test_tau_ap_with_ties_is_the_mean_over_tie_breaking(seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(2, 7))
    x = rng.integers(0, 3, m).astype(float)
    y = rng.integers(0, 3, m).astype(float)
    if len(set(x)) == 1 or len(set(y)) == 1:  # a list that ranks nothing
        assert math.isnan(tau_ap(x, y))
    else:
        assert tau_ap(x, y) == pytest.approx(_tau_ap_by_enumeration(x, y), abs=1e-12)


def test_tau_ap_without_ties_is_the_plain_formula():
    rng = np.random.default_rng(7)
    for _ in range(20):
        m = int(rng.integers(2, 30))
        x, y = rng.permutation(m).astype(float), rng.permutation(m).astype(float)
        order = np.argsort(-x)
        total = sum(sum(y[order[i]] > y[order[r]] for i in range(r)) / r for r in range(1, m))
        assert tau_ap(x, y) == pytest.approx(2 / (m - 1) * total - 1)


# ----------------------------------------------------------------------------- RBO
def test_rbo_hand_examples():
    # X = (0, 2, 3), p = 0.5: (1-p)/p Σ X_d/d p^d + X_3/3 p^3 = 0.375 + 0.125
    assert rbo(list("ABC"), list("BAC"), 0.5).ext == pytest.approx(0.5)
    # uneven lengths (eq. 32): S = AB, L = ACB: X = (1, 1, 2), X_s = 1
    # Σ X_d/d p^d = 0.5 + 0.125 + 1/12; Σ_{d>s} X_s (d-s)/(s d) p^d = 1/48
    # + [(X_l - X_s)/l + X_s/s] p^l = (1/3 + 1/2)/8  -> 5/6
    result = rbo(list("AB"), list("ACB"), 0.5)
    assert result.ext == pytest.approx(5 / 6)
    assert rbo(list("ACB"), list("AB"), 0.5).ext == pytest.approx(5 / 6)
    assert result.depth == (2, 3)
    # RBO_min (eq. 11) of identical lists of depth 3, p = 0.9
    expected = 0.1 / 0.9 * ((-2) * 0.9 + (-0.5) * 0.81 - 3 * np.log(0.1))
    assert rbo(list("ABC"), list("ABC"), 0.9).min == pytest.approx(expected)


@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 0.98])
@pytest.mark.parametrize("k", [1, 2, 7, 50])
def test_rbo_identical_is_one_and_disjoint_is_zero(p, k):
    items = [f"d{i}" for i in range(k)]
    other = [f"e{i}" for i in range(k)]
    assert rbo(items, items, p).ext == pytest.approx(1.0)
    assert rbo(items, other, p).ext == 0.0
    assert rbo(items, other, p).min == 0.0
    assert 0.0 <= rbo(items, items[::-1], p).ext <= 1.0


def test_rbo_scores_and_errors():
    x = np.array([0.5, 0.2, 0.9, 0.1])
    assert rbo_scores(x, x).ext == pytest.approx(1.0)
    assert correlation(x, x * 2 + 1, "rbo", p=0.8) == pytest.approx(1.0)
    with pytest.raises(ParameterError):
        rbo(["a", "a"], ["a"])
    with pytest.raises(ParameterError):
        rbo(["a"], ["a"], p=1.0)
    with pytest.raises(ParameterError):
        correlation(x, x, "pearson")


# ----------------------------------------------------------------------------- overall/topic
def _precision_recall(seed: int = 3) -> ScoreMatrix:
    """P@10 and R@10 = P·10/RB: per topic an increasing transformation of each other."""
    rng = np.random.default_rng(seed)
    hits = rng.integers(0, 11, size=(30, 12))
    recall_base = rng.integers(10, 200, size=(30, 1))
    values = np.stack([hits / 10.0, hits / recall_base], axis=2)
    return ScoreMatrix.from_array(values, measures=["P", "R"])


def test_topic_by_topic_is_one_and_overall_is_not():
    """Ferrante et al. (2021), §3.3: Precision and Recall order systems identically on each topic,
    but the overall (averaged) correlation is below 1 because the recall base changes."""
    matrix = _precision_recall()
    for method in ("kendall", "tau_ap", "spearman"):
        per_topic = topic_correlations(matrix, measure_a="P", measure_b="R", method=method)
        assert len(per_topic) == 30
        assert np.allclose(per_topic.dropna(), 1.0)
    assert overall_correlation(matrix, measure_a="P", measure_b="R") < 0.95
    table = correlation_matrix(matrix)
    assert table.loc["P", "P"] == pytest.approx(1.0)
    assert table.loc["P", "R"] == pytest.approx(table.loc["R", "P"])


def test_correlation_ci_is_deterministic_and_covers_the_estimate():
    matrix = _precision_recall()
    a = correlation_ci(matrix, measure_a="P", measure_b="R", samples=200, rng=5)
    b = correlation_ci(matrix, measure_a="P", measure_b="R", samples=200, rng=5)
    assert a == b
    assert a.low <= a.high and a.se > 0
    assert a.estimate == pytest.approx(overall_correlation(matrix, measure_a="P",
                                                           measure_b="R"))
    assert a.low - 0.1 <= a.estimate <= a.high + 0.1
    c = correlation_ci(matrix, measure_a="P", measure_b="R", samples=200, rng=6)
    assert c.low != a.low or c.high != a.high
    assert "CI" in a.describe() and repr(a) == repr(float(a)) and len(a.to_frame()) == 1


def test_overall_correlation_aligns_labelled_matrices():
    matrix = _precision_recall()
    p, r = matrix.measure("P"), matrix.measure("R")
    shuffled = r.subset(topics=list(reversed(r.topics)), systems=list(reversed(r.systems)))
    assert overall_correlation(p, shuffled) == pytest.approx(overall_correlation(p, r))
