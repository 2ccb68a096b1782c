"""Rank-biased overlap of tied scores (Corsi & Urbano, "The Treatment of Ties in Rank-Biased
Overlap", SIGIR 2024): RBO^a against the mean over every tie-breaking of both rankings
(brute force), RBO^w and RBO^b against the paper's definitions written over explicit tie
groups in exact rationals, and RBO without ties against the ``rbo`` package.

Worked example (p = 0.5, so (1 − p)/p = 1; x = (1, 1, 0) ties items 0 and 1 at ranks 1..2,
y = (2, 1, 0) ranks 0, 1, 2):

* RBO^a: c^x = (½, 1, 1) for items 0 and 1, (0, 0, 1) for item 2; c^y = (1, 1, 1),
  (0, 1, 1), (0, 0, 1). X = (½, 2, 3), A = X/d = (½, 1, 1); RBO_ext = Σ A_d p^d + p^3 =
  ¼ + ¼ + ⅛ + ⅛ = ¾, the mean of the two tie-breakings (1 for 0,1,2; ½ for 1,0,2).
* RBO^b: Σ (c^x)² = (½, 2, 3), Σ (c^y)² = (1, 2, 3): A_1 = ½/√½ = 1/√2, A_2 = A_3 = 1;
  RBO_ext = 1/(2√2) + ¼ + ⅛ + ⅛ = ½ + 1/(2√2).
* RBO^w: c^x = (1, 1, 1) for items 0 and 1: X_1 = 1, |S_1| = 2, |L_1| = 1, A_1 = ⅔,
  A_2 = 2·2/(2 + 2) = 1; RBO_ext = ⅓ + ¼ + ⅛ + ⅛ = ⅚.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.meta import correlation, rbo, rbo_scores

from .oracle_imports import lazy_import

rbo_package = lazy_import("rbo")


def test_worked_example():
    x, y = [1, 1, 0], [2, 1, 0]
    assert rbo_scores(x, y, 0.5, ties="a").ext == pytest.approx(0.75)
    assert rbo_scores(x, y, 0.5, ties="b").ext == pytest.approx(0.5 + 1 / (2 * math.sqrt(2)))
    assert rbo_scores(x, y, 0.5, ties="w").ext == pytest.approx(5 / 6)
    assert rbo_scores(x, y, 0.5).ties == "a"  # the default: the authors' code's
    # tied items in their input order (0 before 1): the rankings agree everywhere
    assert rbo_scores(x, y, 0.5, ties="input").ext == pytest.approx(1.0)
    assert correlation(x, y, "rbo", p=0.5, ties="w") == pytest.approx(5 / 6)


def _groups(scores: list[int]) -> list[list[int]]:
    """The items by decreasing score, grouped where the scores are equal."""
    levels = sorted(set(scores), reverse=True)
    return [[i for i, s in enumerate(scores) if s == level] for level in levels]


def _tie_breakings(scores: list[int]):
    """Every ranking of the items that breaks the ties of ``scores`` (each order of each
    tie group), as lists of items."""
    for orders in itertools.product(*(itertools.permutations(g) for g in _groups(scores))):
        yield [item for group in orders for item in group]


def _reference(x: list[int], y: list[int], p: float, ties: str) -> tuple[float, float]:
    """RBO_ext and RBO_min by the paper's definitions, over explicit tie groups, in exact
    rationals until the powers of p."""

    def contributions(scores):
        c = {}
        top = 1
        for group in _groups(scores):
            bottom = top + len(group) - 1
            for item in group:
                if ties == "w":
                    c[item] = [Fraction(int(d >= top)) for d in range(1, len(scores) + 1)]
                else:
                    c[item] = [min(Fraction(1), max(Fraction(0), Fraction(d - top + 1,
                                                                           bottom - top + 1)))
                               for d in range(1, len(scores) + 1)]
            top = bottom + 1
        return c

    cx, cy = contributions(x), contributions(y)
    k = len(x)
    agreement = []
    for d in range(k):
        overlap = sum(cx[i][d] * cy[i][d] for i in range(k))
        if ties == "w":
            agreement.append(float(2 * overlap / (sum(cx[i][d] for i in range(k))
                                                  + sum(cy[i][d] for i in range(k)))))
        elif ties == "a":
            agreement.append(float(overlap / (d + 1)))
        else:
            agreement.append(float(overlap) / math.sqrt(
                float(sum(cx[i][d] ** 2 for i in range(k)) * sum(cy[i][d] ** 2
                                                                 for i in range(k)))))
    head = sum(a * p ** (d + 1) for d, a in enumerate(agreement))
    ext = (1 - p) / p * head + p**k
    low = (1 - p) / p * (head + k * (math.log(1 / (1 - p))
                                     - sum(p**d / d for d in range(1, k + 1))))
    return ext, low


tied_scores = st.integers(2, 6).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                        st.lists(st.integers(0, 3), min_size=n, max_size=n)))


@settings(max_examples=150, deadline=None)
@given(tied_scores, st.sampled_from([0.2, 0.5, 0.9]))
def test_rbo_a_is_the_mean_over_every_tie_breaking(scores, p):
    x, y = scores
    if len(set(x)) == 1 or len(set(y)) == 1:
        assert math.isnan(rbo_scores(x, y, p, ties="a").ext)
        return
    values = [rbo(s, t, p) for s in _tie_breakings(x) for t in _tie_breakings(y)]
    result = rbo_scores(x, y, p, ties="a")
    assert result.ext == pytest.approx(np.mean([v.ext for v in values]), abs=1e-12)
    assert result.min == pytest.approx(np.mean([v.min for v in values]), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(tied_scores, st.sampled_from([0.2, 0.5, 0.9]), st.sampled_from(["a", "b", "w"]))
def test_every_variant_is_the_papers_definition(scores, p, ties):
    x, y = scores
    if len(set(x)) == 1 or len(set(y)) == 1:
        return
    result = rbo_scores(x, y, p, ties=ties)
    ext, low = _reference(x, y, p, ties)
    assert result.ext == pytest.approx(ext, abs=1e-12)
    assert result.min == pytest.approx(low, abs=1e-12)
    assert 0.0 <= result.ext <= 1.0 + 1e-12


@pytest.mark.parametrize("seed", range(15))
def test_without_ties_every_variant_is_the_rbo_package(seed):
    """No ties: RBO^a = RBO^b = RBO^w = RBO, and RBO_ext is the ``rbo`` package's
    ``rbo_ext``; its ``rbo(p)``, (1 − p)/p Σ_{d≤k} A_d p^d, is RBO_ext less A_k p^k = p^k
    (the same k items)."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 30))
    x, y = rng.permutation(k).astype(float), rng.permutation(k).astype(float)
    p = float(rng.choice([0.3, 0.8, 0.9, 0.95]))
    rx, ry = np.argsort(-x).tolist(), np.argsort(-y).tolist()
    package = rbo_package.RankingSimilarity(rx, ry)
    for ties in ("a", "b", "w", "input"):
        result = rbo_scores(x, y, p, ties=ties)
        assert result.ext == pytest.approx(package.rbo_ext(p=p), abs=1e-12)
        assert result.ext - p**k == pytest.approx(package.rbo(p=p), abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_rankings_of_items_are_the_rbo_package(seed):
    """:func:`rbo` of two rankings of items, of different lengths and items: ``rbo_ext``."""
    rng = np.random.default_rng(seed)
    s = rng.permutation(40)[: int(rng.integers(1, 20))].tolist()
    t = rng.permutation(40)[: int(rng.integers(1, 20))].tolist()
    p = float(rng.choice([0.5, 0.9]))
    assert rbo(s, t, p).ext == pytest.approx(
        rbo_package.RankingSimilarity(s, t).rbo_ext(p=p), abs=1e-12)


def test_ties_within_the_tolerance_are_tie_groups():
    """Scores equal but for the last bits are one tie group under every variant."""
    x = np.array([0.3, 0.1 + 0.2, 0.2, 0.1])
    exact = np.array([0.3, 0.3, 0.2, 0.1])
    y = np.array([0.4, 0.1, 0.3, 0.2])
    for ties in ("a", "b", "w", "input"):
        assert rbo_scores(x, y, ties=ties).ext == rbo_scores(exact, y, ties=ties).ext
