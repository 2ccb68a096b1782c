"""Predictive power against side-by-side preferences (Sanderson et al., SIGIR 2010): a
worked example, a plain-Python brute force and simulated users whose utility is known."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from irscale import meta
from irscale.core import ScoreMatrix
from irscale.errors import IrscaleError

from .oracle_imports import lazy_import

sps = lazy_import("scipy.stats")

SCORES = {"X": {"1": 0.5, "2": 0.2, "3": 0.4}, "Y": {"1": 0.3, "2": 0.4, "3": 0.4},
          "Z": {"1": 0.1, "2": 0.9, "3": 0.45}}


def test_worked_example():
    prefs = [("1", "X", "Y", "left"),     # ΔM = 0.2: predicted
             ("1", "Z", "X", "left"),     # ΔM = −0.4: mispredicted
             ("2", "Z", "Y", "left"),     # ΔM = 0.5: predicted
             ("2", "X", "Z", "tie"),      # no preference
             ("3", "X", "Y", "right"),    # ΔM = 0: measure tie
             ("3", "Z", "Y", "left")]     # ΔM = 0.05: predicted
    result = meta.predictive_power(prefs, SCORES)
    assert (result.predicted, result.mispredicted, result.measure_ties,
            result.no_preference, result.judgments) == (3, 1, 1, 1, 6)
    assert result.power == pytest.approx(3 / 4)
    assert result.pvalue == pytest.approx(sps.binomtest(3, 4, 0.5).pvalue)
    assert meta.predictive_power(prefs, SCORES, ties="half").power == pytest.approx(3.5 / 5)
    assert meta.predictive_power(prefs, SCORES, ties="miss").power == pytest.approx(3 / 5)
    # θ = 0.1: the 0.05 difference becomes a measure tie
    wide = meta.predictive_power(prefs, SCORES, threshold=0.1)
    assert (wide.predicted, wide.measure_ties) == (2, 2)
    # bins of |ΔM|: [0, 0.3) holds 0.2 and 0.05 (and the tie), [0.3, 1] holds 0.4 and 0.5
    bins = meta.predictive_power(prefs, SCORES, bins=[0, 0.3, 1]).by_bin
    assert bins["predicted"].tolist() == [2, 1] and bins["mispredicted"].tolist() == [0, 1]
    assert bins["measure_ties"].tolist() == [1, 0]


def test_inputs_of_every_kind_give_the_same_result():
    prefs = [("1", "X", "Y", "left"), ("2", "Y", "Z", "right"), ("3", "Z", "X", 1),
             ("1", "Y", "Z", -1)]
    frame = pd.DataFrame(SCORES)
    matrix = ScoreMatrix.from_wide(frame, measure="AP")
    expected = meta.predictive_power(prefs, SCORES).to_frame().drop(columns="measure")
    for scores in (frame, matrix):
        got = meta.predictive_power(pd.DataFrame(prefs, columns=["topic", "left", "right",
                                                                  "preference"]), scores)
        pd.testing.assert_frame_equal(got.to_frame().drop(columns="measure"), expected)
    assert meta.predictive_power(prefs, matrix).measure == "AP"


def _brute_force(prefs, scores, threshold):
    hit = miss = tie = none = 0
    for topic, left, right, pref in prefs:
        if pref == 0:
            none += 1
            continue
        d = scores[left][topic] - scores[right][topic]
        if abs(d) <= threshold:
            tie += 1
        elif (d > 0) == (pref > 0):
            hit += 1
        else:
            miss += 1
    return hit, miss, tie, none


@pytest.mark.parametrize("threshold", [0.0, 0.05, 0.2])
def test_brute_force_on_random_judgments(threshold):
    rng = np.random.default_rng(11)
    systems, topics = [f"s{i}" for i in range(6)], [str(t) for t in range(15)]
    scores = {s: {t: float(rng.choice([0.0, 0.1, 0.25, 0.5, rng.uniform()])) for t in topics}
              for s in systems}
    prefs = []
    for _ in range(400):
        left, right = rng.choice(systems, 2, replace=False)
        prefs.append((str(rng.choice(topics)), str(left), str(right),
                      int(rng.choice([1, -1, 0]))))
    result = meta.predictive_power(prefs, scores, threshold=threshold)
    assert (result.predicted, result.mispredicted, result.measure_ties,
            result.no_preference) == _brute_force(prefs, scores, threshold)


def test_simulated_users_with_a_known_utility():
    """Users prefer the ranking of higher utility u plus noise: a measure equal to u
    predicts well above chance, a measure of pure noise is at chance, and the power grows
    with |ΔM| (Sanderson et al. 2010's bins)."""
    rng = np.random.default_rng(2010)
    systems, topics = [f"s{i}" for i in range(10)], [str(t) for t in range(200)]
    utility = pd.DataFrame(rng.uniform(size=(200, 10)), index=topics, columns=systems)
    noise = pd.DataFrame(rng.uniform(size=(200, 10)), index=topics, columns=systems)
    prefs = []
    for _ in range(5000):
        t = int(rng.integers(200))
        a, b = rng.choice(10, 2, replace=False)
        perceived = utility.iat[t, a] - utility.iat[t, b] + rng.normal(0, 0.2)
        prefs.append((topics[t], systems[a], systems[b], 1 if perceived > 0 else -1))
    good = meta.predictive_power(prefs, utility, bins=[0, 0.1, 0.3, 1])
    bad = meta.predictive_power(prefs, noise)
    # P(sign(Δu + ε) = sign(Δu)) with Δu the difference of two uniforms, ε ~ N(0, 0.2²)
    delta = rng.uniform(size=400000) - rng.uniform(size=400000)
    truth = np.mean(np.sign(delta + rng.normal(0, 0.2, delta.size)) == np.sign(delta))
    assert good.power == pytest.approx(truth, abs=0.02)
    assert bad.power == pytest.approx(0.5, abs=0.03)
    assert good.pvalue < 1e-100 and bad.pvalue > 1e-4
    power = good.by_bin["power"].tolist()
    assert power[0] < power[1] < power[2]


def test_refusals_and_undefined_power():
    with pytest.raises(IrscaleError, match="nosuch"):
        meta.predictive_power([("1", "X", "nosuch", "left")], SCORES)
    with pytest.raises(IrscaleError, match="99"):
        meta.predictive_power([("99", "X", "Y", "left")], SCORES)
    with pytest.raises(IrscaleError, match="maybe"):
        meta.predictive_power([("1", "X", "Y", "maybe")], SCORES)
    with pytest.raises(IrscaleError, match="itself"):
        meta.predictive_power([("1", "X", "X", "left")], SCORES)
    with pytest.raises(IrscaleError, match="ties"):
        meta.predictive_power([("1", "X", "Y", "left")], SCORES, ties="coin")  # type: ignore
    with pytest.raises(IrscaleError, match="threshold"):
        meta.predictive_power([("1", "X", "Y", "left")], SCORES, threshold=-1)
    with pytest.raises(IrscaleError, match="bins"):
        meta.predictive_power([("1", "X", "Y", "left")], SCORES, bins=[0.5, 0.1])
    only_ties = meta.predictive_power([("1", "X", "Y", "tie")], SCORES)
    assert math.isnan(only_ties.power) and only_ties.pvalue == 1
    assert "undefined" in repr(only_ties)
