"""Compatibility (Clarke, Vtyurina & Smucker, TOIS 2021): RBO between the run and the
ideal ranking most compatible with it, checked against a brute-force RBO written here (the
ideal built here too), against irscale.meta's RBO, and on a hand-worked example."""

from __future__ import annotations

import math

import numpy as np
import pytest

from irscale import evaluate
from irscale.meta import rbo

DEPTH = 3000  # p ≤ 0.95: p^3000 is below 1e-60


def brute_rbo(run: list[str], ideal: list[str], p: float) -> float:
    """(1 − p) Σ_{d=1}^{DEPTH} p^(d−1) |run[:d] ∩ ideal[:d]| / d, set by set."""
    total, seen_run, seen_ideal, weight = 0.0, set(), set(), 1.0
    for d in range(1, DEPTH + 1):
        if d <= len(run):
            seen_run.add(run[d - 1])
        if d <= len(ideal):
            seen_ideal.add(ideal[d - 1])
        total += weight * len(seen_run & seen_ideal) / d
        weight *= p
    return (1 - p) * total


def ideal_for(run: list[str], qrels: dict[str, int], level: int = 1) -> list[str]:
    """Relevant documents by decreasing degree, the run's first (in its order) within one."""
    position = {doc: i for i, doc in enumerate(run)}
    relevant = [doc for doc, degree in qrels.items() if degree >= level]
    return sorted(relevant, key=lambda doc: (-qrels[doc], position.get(doc, len(run)), doc))


def compat(qrels: dict[str, int], run: list[str], p: float, normalize: bool = True) -> float:
    ideal = ideal_for(run, qrels)
    if not ideal:
        return 0.0
    value = brute_rbo(run, ideal, p)
    return value / brute_rbo(ideal, ideal, p) if normalize else value


def _value(qrels, run, name: str) -> float:
    scored = {doc: float(len(run) - i) for i, doc in enumerate(run)}
    return float(evaluate({"t": qrels}, {"t": scored}, [name]).mean().iloc[0, 0])


def test_hand_worked_example():
    """qrels a:2, b:1, c:1; run c, x, a; p = 0.5: ideal a, c, b; overlaps 0, 1, 2, 2, ...
    RBO = 0.5 (0.5·1/2 + 0.25·2/3 + 2 Σ_{d≥4} 0.5^(d−1)/d), the tail 2(ln 2 − 2/3)."""
    tail = 2 * (math.log(2) - (0.5 + 0.125 + 0.125 / 3))
    expected = 0.5 * (0.25 + 0.25 * 2 / 3 + 2 * tail)
    qrels, run = {"a": 2, "b": 1, "c": 1}, ["c", "x", "a"]
    assert _value(qrels, run, "Compat(p=0.5,normalize=0)") == pytest.approx(expected, 1e-12)
    assert compat(qrels, run, 0.5, normalize=False) == pytest.approx(expected, 1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_random_rankings_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(40)]
    qrels = {d: int(rng.integers(0, 4)) for d in rng.choice(docs, 25, replace=False)}
    run = list(rng.choice(docs, int(rng.integers(1, 30)), replace=False))
    for p in (0.5, 0.8, 0.95):
        assert _value(qrels, run, f"Compat(p={p})") == pytest.approx(compat(qrels, run, p),
                                                                     abs=1e-12)
        assert _value(qrels, run, f"Compat(p={p},normalize=0)") == pytest.approx(
            compat(qrels, run, p, normalize=False), abs=1e-12)


def test_equal_lengths_agree_with_meta_rbo_lower_bound():
    """When the run is as long as the ideal, the overlap beyond both is RBO_min's constant."""
    qrels = {"a": 3, "b": 2, "c": 2, "d": 1}
    run = ["b", "z", "a", "d"]
    ideal = ideal_for(run, qrels)
    assert ideal == ["a", "b", "c", "d"]
    expected = rbo(run, ideal, 0.9).min
    assert _value(qrels, run, "Compat(p=0.9,normalize=0)") == pytest.approx(expected, 1e-12)


def test_ideal_run_scores_one_and_rel_level_and_no_relevant():
    qrels = {"a": 2, "b": 1, "c": 0}
    assert _value(qrels, ["a", "b"], "Compat") == pytest.approx(1.0)
    assert _value(qrels, ["b", "a"], "Compat") < 1.0
    # rel=2: only a is relevant, and a first is ideal
    assert _value(qrels, ["a", "c"], "Compat(rel=2)") == pytest.approx(1.0)
    assert _value({"c": 0}, ["c"], "Compat") == 0.0
