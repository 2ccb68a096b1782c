"""d_rank (Carterette 2009): worked examples from the formula, a brute-force minimum over
every set of active constraints, and the properties of a distance between rankings."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from irscale import meta
from irscale.errors import InputError, ParameterError

from .oracle_imports import lazy_import

stats = lazy_import("scipy.stats")


def test_two_systems_worked_example():
    # differences s1 − s2 per topic: −0.1, −0.1, −0.2, 0.1: mean −0.075, variance 0.0475/3
    # d(s1 above s2) = n mean² / var = 4 × 0.005625 / (0.0475/3) = 27/19
    scores = pd.DataFrame({"s1": [0.2, 0.4, 0.3, 0.5], "s2": [0.3, 0.5, 0.5, 0.4]})
    assert float(meta.rank_distance(scores, ["s1", "s2"])) == pytest.approx(27 / 19)
    assert float(meta.rank_distance(scores, ["s2", "s1"])) == 0.0
    # the paired t statistic squared, when the ranking contradicts the means
    t = stats.ttest_rel(scores["s1"], scores["s2"]).statistic
    assert float(meta.rank_distance(scores, ["s1", "s2"])) == pytest.approx(t ** 2)


def _brute_force(values: np.ndarray, order: list[int]) -> float:
    """min over θ ≥ 0 of n (θ − μ)ᵀ Σ⁻¹ (θ − μ): every set of free coordinates, solved
    with the others at 0, the feasible minimum kept."""
    n = values.shape[0]
    diffs = values[:, order[:-1]] - values[:, order[1:]]
    mu = diffs.mean(axis=0)
    precision = n * np.linalg.inv(np.cov(diffs, rowvar=False))
    k = len(mu)
    best = np.inf
    for size in range(k + 1):
        for free in itertools.combinations(range(k), size):
            theta = np.zeros(k)
            if free:
                f = list(free)
                fixed = [i for i in range(k) if i not in free]
                # stationarity in the free coordinates: P_ff (θ_f − μ_f) = P_fx μ_x
                rhs = precision[np.ix_(f, f)] @ mu[f] + precision[np.ix_(f, fixed)] @ mu[fixed]
                theta[f] = np.linalg.solve(precision[np.ix_(f, f)], rhs)
                if np.any(theta[f] < -1e-12):
                    continue
            gap = theta - mu
            best = min(best, float(gap @ precision @ gap))
    return best


@pytest.fixture
def correlated() -> pd.DataFrame:
    gen = np.random.default_rng(2009)
    topic = gen.normal(0, 0.15, size=(15, 1))
    values = 0.3 + topic + np.array([0.06, 0.03, 0.0, -0.02]) + gen.normal(0, 0.05, (15, 4))
    return pd.DataFrame(values, columns=["a", "b", "c", "d"])


def test_matches_brute_force_on_every_ranking(correlated):
    values = correlated.to_numpy()
    for order in itertools.permutations(range(4)):
        names = [correlated.columns[i] for i in order]
        assert float(meta.rank_distance(correlated, names)) == pytest.approx(
            _brute_force(values, list(order)), rel=1e-9, abs=1e-9)


def test_zero_for_the_ranking_of_the_means_and_largest_reversed(correlated):
    means = correlated.mean().sort_values(ascending=False)
    own = list(means.index)
    assert float(meta.rank_distance(correlated, own)) == 0.0
    distances = {perm: float(meta.rank_distance(correlated, list(perm)))
                 for perm in itertools.permutations(own)}
    reversed_ = distances[tuple(reversed(own))]
    assert reversed_ == pytest.approx(max(distances.values()))
    assert reversed_ > 0


def test_two_measures_and_symmetry(correlated):
    other = correlated + np.random.default_rng(1).normal(0, 0.08, correlated.shape)
    assert float(meta.d_rank(correlated, correlated)) == 0.0
    one = meta.d_rank(correlated, other, symmetric=True)
    two = meta.d_rank(other, correlated, symmetric=True)
    assert float(one) == pytest.approx(float(two))
    forward = float(meta.d_rank(correlated, other))
    backward = float(meta.d_rank(other, correlated))
    assert float(one) == pytest.approx((forward + backward) / 2)
    ranking = list(other.mean().sort_values(ascending=False).index)
    assert forward == pytest.approx(float(meta.rank_distance(correlated, ranking)))


def test_correlated_systems_cost_more_to_swap():
    # the same means and marginal variances; the first pair shares a topic effect
    gen = np.random.default_rng(5)
    shared = gen.normal(0, 0.2, size=(30, 1))
    correlated = np.array([0.55, 0.50]) + shared + gen.normal(0, 0.05, (30, 2))
    independent = np.array([0.55, 0.50]) + gen.normal(0, np.hypot(0.2, 0.05), (30, 2))
    swap = ["s2", "s1"]
    near = meta.rank_distance(pd.DataFrame(correlated, columns=["s1", "s2"]), swap)
    far = meta.rank_distance(pd.DataFrame(independent, columns=["s1", "s2"]), swap)
    assert float(near) > 5 * float(far)


def test_errors_and_ridge(correlated):
    few = correlated.iloc[:3]
    with pytest.raises(InputError, match="singular"):
        meta.rank_distance(few, list(few.columns))
    assert float(meta.rank_distance(few, list(few.columns), ridge=1e-3)) >= 0.0
    with pytest.raises(ParameterError, match="each of the 4 systems once"):
        meta.rank_distance(correlated, ["a", "b", "c"])
    with pytest.raises(ParameterError, match=r"the ranking's system 'x' names no run: .*; "
                       r"runs: 'a', 'b', 'c', 'd'"):  # the run resolver's words (io.naming)
        meta.rank_distance(correlated, ["a", "b", "c", "x"])
    with pytest.raises(ParameterError, match="ridge"):
        meta.rank_distance(correlated, list(correlated.columns), ridge=-1)
