"""Carterette's (SIGIR 2011) decomposition: every measure recomputed from its browsing
model, document utility and utility accumulation equals the catalogue's own value, on
every ranking; and one ranking worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

import irscale
from irscale.measures.carterette import DECOMPOSITIONS, Decomposition, decomposed_values

RNG = np.random.default_rng(7)
QRELS = {f"t{t}": {f"d{d}": int(RNG.integers(0, 4)) for d in range(25)
                   if RNG.random() < 0.7} for t in range(12)}
RUN = {f"t{t}": {f"d{d}": float(RNG.random())
                 for d in RNG.permutation(40)[:int(RNG.integers(1, 30))]}
       for t in range(12)}


@pytest.mark.parametrize("name", sorted(DECOMPOSITIONS))
def test_equals_the_catalogue(name):
    decomposition = DECOMPOSITIONS[name]
    e = irscale.evaluate(QRELS, RUN, [decomposition.measure])
    label = next(iter(e.values))
    expected = np.asarray(e.values[label], dtype=np.float64)
    got = decomposed_values(e.rankings, decomposition)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


def test_other_parameters():
    e = irscale.evaluate(QRELS, RUN, ["RBP(p=0.5)", "P@3"])
    rbp = decomposed_values(e.rankings, Decomposition("RBP(p=0.5)", "geometric",
                                                      "scaled gain", "rate", {"p": 0.5}))
    np.testing.assert_allclose(rbp, e.values["RBP(p=0.5)"], rtol=1e-12)
    p3 = decomposed_values(e.rankings, Decomposition("P@3", "fixed", "binary", "precision",
                                                     {"k": 3}))
    np.testing.assert_allclose(p3, e.values["P@3"], rtol=1e-12)


def test_hand_worked_dcg():
    """Ranking of degrees 2, 0, 1: P(K ≥ k) = 1/log2(k + 1), so stopping at 1, 2, 3 has
    probability 1 − 1/log2 3, 1/log2 3 − 1/2, 1/2 − 1/log2 5 and going on past rank 3
    1/log2 5; the totals are 2, 2, 3: M = 2 + 1/2 = DCG."""
    e = irscale.evaluate({"q": {"a": 2, "b": 0, "c": 1}}, {"q": {"a": 3, "b": 2, "c": 1}},
                         ["DCG"])
    got = float(decomposed_values(e.rankings, DECOMPOSITIONS["DCG"])[0])
    l3, l5 = math.log2(3), math.log2(5)
    by_hand = (1 - 1 / l3) * 2 + (1 / l3 - 0.5) * 2 + (0.5 - 1 / l5) * 3 + 3 / l5
    assert got == pytest.approx(by_hand) == pytest.approx(2.5)
