"""Adaptive allocation of crowd answers (irscale.collections.allocation): the stopping rule
and the rounds under a budget on answers worked out by hand, and, on simulated workers of
easy and hard documents, the adaptive rule reaching a uniform allocation's accuracy with
fewer answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from irscale.collections.allocation import allocate_labels
from irscale.errors import ParameterError

# d1: 1 1 0 1; d2: 0 1 1 1; d3: 2 2 2 2
CROWD = b"".join(f"t {d} w{w} {a}\n".encode() for d, answers in
                 (("d1", "1101"), ("d2", "0111"), ("d3", "2222"))
                 for w, a in enumerate(answers))


def test_stopping_rule_by_hand():
    # c = 1, eps = 0.25: stop when n1 - n2 >= sqrt(t) - t/4; t = 2: 0.914, t = 3: 0.982
    table = allocate_labels(CROWD, c=1.0, epsilon=0.25).to_frame().set_index("docno")
    # d1: 1 1 -> gap 2 at t = 2: stop; d2: 0 1 -> gap 0; 0 1 1 -> gap 1 >= 0.982: stop
    # d3: 2 2 -> stop at 2
    assert table["labels"].tolist() == [2, 3, 2]
    assert table["label"].tolist() == [1, 1, 2]
    assert table["margin"].tolist() == [2, 1, 2]
    assert table["stopped"].all()
    # min_labels 3: nobody stops before 3 answers
    assert allocate_labels(CROWD, c=1.0, epsilon=0.25,
                           min_labels=3).to_frame()["labels"].tolist() == [3, 3, 3]
    # c = 3, eps = 0: the gap must reach 3 sqrt(t): never with 4 answers
    strict = allocate_labels(CROWD, c=3.0, epsilon=0.0).to_frame()
    assert strict["labels"].tolist() == [4, 4, 4] and not strict["stopped"].any()


def test_rounds_under_a_budget_by_hand():
    # uniform, budget 7: rounds of 3 answers (d1, d2, d3), 3 more, then d1 alone
    table = allocate_labels(CROWD, "uniform", budget=7).to_frame()
    assert table["labels"].tolist() == [3, 2, 2]
    # d2's answers 0 1: a tie, the smallest label
    assert table["label"].tolist() == [1, 0, 2]
    assert allocate_labels(CROWD, "uniform", max_labels=1).to_frame()["labels"].tolist() == \
        [1, 1, 1]
    # budget 2: d3 gets no answer and no label (no qrels line)
    short = allocate_labels(CROWD, "uniform", budget=2)
    assert short.to_frame()["label"].isna().tolist() == [False, False, True]
    assert short.lines() == ["t 0 d1 1", "t 0 d2 0"]
    assert short.used == 2


def test_shuffled_answers_are_reproducible():
    a = allocate_labels(CROWD, c=1.0, epsilon=0.25, rng=3).to_frame()
    b = allocate_labels(CROWD, c=1.0, epsilon=0.25, rng=3).to_frame()
    pd.testing.assert_frame_equal(a, b)


def test_refusals():
    for kwargs, needle in (({"c": 0}, "c"), ({"epsilon": 1.5}, "epsilon"),
                           ({"budget": 0}, "budget"), ({"min_labels": 0}, "min_labels"),
                           ({"max_labels": 0}, "max_labels"), ({"rule": "x"}, "rule")):
        with pytest.raises(ParameterError, match=needle):
            allocate_labels(CROWD, **kwargs)


@pytest.fixture(scope="module")
def simulated():
    """400 binary documents with 15 answers each: 70% easy (workers right with 0.9), 30%
    hard (0.65)."""
    rng = np.random.default_rng(5)
    n, k = 400, 15
    truth = rng.integers(0, 2, n)
    hard = rng.random(n) >= 0.7
    right = rng.random((n, k)) < np.where(hard, 0.65, 0.9)[:, None]
    answer = np.where(right, truth[:, None], 1 - truth[:, None])
    crowd = pd.DataFrame({"topic": "t", "docno": np.repeat([f"d{i}" for i in range(n)], k),
                          "worker": np.tile([f"w{w}" for w in range(k)], n),
                          "label": answer.ravel()})
    return truth, hard, crowd


def _accuracy(allocation, truth):
    return float((allocation.to_frame()["label"].to_numpy() == truth).mean())


def test_adaptive_reaches_the_uniform_accuracy_with_fewer_answers(simulated):
    truth, hard, crowd = simulated
    uniform = allocate_labels(crowd, "uniform", max_labels=5)
    adaptive = allocate_labels(crowd, c=1.5, epsilon=0.1)
    assert uniform.used == 2000
    assert _accuracy(adaptive, truth) >= _accuracy(uniform, truth)
    assert adaptive.used <= 0.75 * uniform.used
    # the answers go to the hard documents
    bought = adaptive.to_frame()["labels"].to_numpy()
    assert bought[hard].mean() > 2 * bought[~hard].mean()
    # under the same budget the adaptive rule is at least as accurate
    same = allocate_labels(crowd, c=2.0, epsilon=0.1, budget=2000)
    assert same.used == 2000
    assert _accuracy(same, truth) >= _accuracy(uniform, truth)
