"""Cost-based session evaluation (Baskaya, Keskustalo & Järvelin 2012, 2013, as irscale
reads it) against a timeline worked by hand."""

from __future__ import annotations

import pytest

from irscale.errors import MeasureError
from irscale.text import evaluate_sessions

QRELS = {"s1": {"d1": 1, "d2": 2, "d3": 0}}
#: query 1 shows d3 (0), d1 (1); query 2 shows d2 (2), d1 again.
RUN = b"s1 1 d3 1 0.9 A\ns1 1 d1 2 0.5 A\ns1 2 d2 1 0.7 A\ns1 2 d1 2 0.6 A\n"
COSTS = "qcost=10,scan=2,read=5"


def values(names):
    e = evaluate_sessions(QRELS, RUN, names)
    return {name: float(e.values[name][0]) for name in names}


def test_hand_worked_timeline():
    """Query 1 issued at 10 s; d3 scanned at 12; d1 scanned at 14 and read by 19 (gain 1);
    query 2 issued at 29; d2 scanned at 31 and read by 36 (gain 2); d1 scanned again at 38,
    not read, no gain. Gain 3 in 38 s; within 30 s, 1; within 36 s, 3."""
    got = values([f"tsCGrate({COSTS})", f"tsCG({COSTS},budget=30)",
                  f"tsCG({COSTS},budget=35.9)", f"tsCG({COSTS},budget=36)", "tsCG"])
    assert got[f"tsCGrate({COSTS})"] == pytest.approx(3 / 38)
    assert got[f"tsCG({COSTS},budget=30)"] == pytest.approx(1.0)
    assert got[f"tsCG({COSTS},budget=35.9)"] == pytest.approx(1.0)
    assert got[f"tsCG({COSTS},budget=36)"] == pytest.approx(3.0)
    assert got["tsCG"] == pytest.approx(3.0)


def test_cutoff_and_defaults():
    """@1 scans d3 (query 1) then d2 (query 2): 15 + 3, then 30 + 6 and read by 66 s
    (default costs 15, 3, 30): gain 2 in 66 s."""
    assert values(["tsCGrate@1"])["tsCGrate@1"] == pytest.approx(2 / 66)
    assert values(["tsCGrate(gain=exp)@1"])["tsCGrate(gain=exp)@1"] == pytest.approx(3 / 66)


def test_bad_parameters():
    with pytest.raises(MeasureError, match="qcost"):
        values(["tsCG(qcost=-1)"])
    with pytest.raises(MeasureError, match="budget"):
        values(["tsCGrate(budget=10)"])
