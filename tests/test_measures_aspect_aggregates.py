"""CAM (Lioma, Simonsen & Larsen 2017) and MM (Palotti, Zuccon & Hanbury 2018) over RBP
per aspect: hand-worked examples and label-set handling."""

from __future__ import annotations

import pandas as pd
import pytest

from irscale import evaluate
from irscale.errors import MeasureError

QRELS = {"t": {"a": 2, "b": 0, "c": 1}}
RUN = {"t": {"a": 3.0, "b": 2.0, "c": 1.0}}
CRED = pd.DataFrame({"topic": ["t"] * 3, "docno": ["a", "b", "c"], "relevance": [1, 1, 0]})
CORRECT = pd.DataFrame({"topic": ["t"] * 2, "docno": ["b", "c"], "relevance": [2, 1]})


def _values(names, **labels):
    frame = evaluate(QRELS, RUN, names, labels=labels or {"cred": CRED}).mean()
    return [float(frame[name].iloc[0]) for name in names]


def test_two_aspects_by_hand():
    """p = 0.5; relevance gains a, b, c = 1, 0, 1/2: M_rel = 0.5 (1 + 0.25·0.5) = 0.5625;
    credibility 1, 1, 0: M_cred = 0.5 (1 + 0.5) = 0.75."""
    rel, cred = 0.5625, 0.75
    cam, mm, cam31, mm_rel = _values(["CAM(p=0.5)", "MM(p=0.5)", "CAM(p=0.5,w=3:1)",
                                      "MM(p=0.5,w=1:0)"])
    assert cam == pytest.approx((rel + cred) / 2)
    assert mm == pytest.approx(2 / (1 / rel + 1 / cred))
    assert cam31 == pytest.approx(0.75 * rel + 0.25 * cred)
    assert mm_rel == pytest.approx(rel)  # a weight of 0 drops the aspect


def test_three_aspects_linear_labels_and_a_zero_dimension():
    """correct: b 2, c 1 (a unlabelled: 0), linear over scale 2: 0, 1, 1/2 → M = 0.5
    (0.5·1 + 0.25·0.5) = 0.3125; binary at threshold 2 only b: 0.25."""
    rel, cred = 0.5625, 0.75
    labels = {"cred": CRED, "correct": CORRECT}
    cam, mm = _values(["CAM(p=0.5,aspects=cred:correct,u=linear,scale=2)",
                       "MM(p=0.5,aspects=cred:correct,threshold=2)"], **labels)
    # u=linear with scale 2 reads cred's 1, 1, 0 as 1/2, 1/2, 0: 0.5 (0.5 + 0.25) = 0.375
    assert cam == pytest.approx((rel + 0.375 + 0.3125) / 3)
    # threshold 2: cred's labels 1 are not credible (M = 0); MM is 0
    assert mm == 0.0
    (mm_ok,) = _values(["MM(p=0.5,aspects=cred:correct)"], **labels)
    assert mm_ok == pytest.approx(3 / (1 / rel + 1 / cred + 1 / 0.375))


@pytest.mark.parametrize(("name", "message"), [
    ("CAM(w=1:2:3)", "3 weights for 2"),
    ("MM(w=0:0)", "add up to 0"),
    ("CAM(aspects=cred:cred)", "twice"),
    ("CAM(scale=2)", "u=linear"),
    ("MM(aspects=trust)", "label set 'trust'"),
])
def test_refusals(name, message):
    with pytest.raises(MeasureError, match=message):
        evaluate(QRELS, RUN, [name], labels={"cred": CRED})
