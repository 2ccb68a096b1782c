"""ADM (Della Mea & Mizzaro 2004) against hand computations, and the run scores reaching
a catalogue family through its declared requirement (``needs_scores``)."""

from __future__ import annotations

import pytest

import irscale
from irscale.errors import MeasureError
from irscale.measures.base import get_family, scores_needed
from irscale.measures.names import parse_measures

QRELS = {"q1": {"d1": 2, "d2": 1, "d3": 0, "d4": 1}}
RUN = {"q1": {"d1": 3.0, "d3": 2.0, "d5": 1.0}}


def values(run, names):
    e = irscale.evaluate(QRELS, run, names)
    return {name: float(e.values[name][0]) for name in names}


def test_hand_worked():
    """Scores 3, 2, 1 give SRE 1, 0.5, 0 (min-max); URE d1 = 2/2, d3 = 0, d5 (unjudged) 0;
    d2 and d4 (judged 1, not retrieved) have SRE 0 and URE 1/2. D = 5 documents:
    ADM = 1 − (0 + 0.5 + 0 + 0.5 + 0.5)/5 = 0.7. @2: d1, d3 (SRE 1, 0) match exactly,
    d2 and d4 are 1/2 off, D = 4: 0.75. maxrel=4: URE halves: (0.5 + 0.5 + 0 + 0.25 +
    0.25)/5 = 0.3."""
    got = values(RUN, ["ADM", "ADM@2", "ADM(maxrel=4)"])
    assert got["ADM"] == pytest.approx(0.7)
    assert got["ADM@2"] == pytest.approx(0.75)
    assert got["ADM(maxrel=4)"] == pytest.approx(0.7)


def test_scores_as_given():
    run = {"q1": {"d1": 0.9, "d3": 0.2, "d5": 0.4}}
    # |0.9 − 1| + |0.2 − 0| + |0.4 − 0| + 0.5 + 0.5 over 5
    assert values(run, ["ADM(norm=none)"])["ADM(norm=none)"] == pytest.approx(
        1 - (0.1 + 0.2 + 0.4 + 1.0) / 5)
    with pytest.raises(MeasureError, match=r"norm=none the scores must be in \[0, 1\]"):
        values(RUN, ["ADM(norm=none)"])
    # norm=max: 3, 2, 1 → 1, 2/3, 1/3
    assert values(RUN, ["ADM(norm=max)"])["ADM(norm=max)"] == pytest.approx(
        1 - (0 + 2 / 3 + 1 / 3 + 0.5 + 0.5) / 5)
    with pytest.raises(MeasureError, match="norm=max the scores must be ≥ 0"):
        values({"q1": {"d1": -1.0}}, ["ADM(norm=max)"])


def test_equal_scores_are_all_one():
    run = {"q1": {"d1": 5.0, "d2": 5.0}}
    # SRE 1, 1; URE 1, 1/2; d3 (0) and d4 (1/2) not retrieved
    assert values(run, ["ADM"])["ADM"] == pytest.approx(1 - (0 + 0.5 + 0 + 0.5) / 4)


def test_scores_reach_the_family_from_files(tmp_path):
    """TREC files (judged by the engine otherwise) take the path that carries scores."""
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 d1 1 3.0 r\nq1 Q0 d3 2 2.0 r\nq1 Q0 d5 3 1.0 r\n")
    e = irscale.evaluate(str(qrels), str(run), ["ADM", "P@2"])
    assert float(e.values["ADM"][0]) == pytest.approx(0.7)


def test_requirement_is_declared():
    assert get_family("ADM").needs_scores
    assert not get_family("P").needs_scores
    assert scores_needed(parse_measures("P@5 ADM"))
    assert not scores_needed(parse_measures("P@5 map"))


@pytest.mark.parametrize("compat", [9, 10])
def test_missing_topic_counts_zero_with_complete(compat):
    qrels = {**QRELS, "q2": {"d1": 1, "d7": 0}}
    e = irscale.evaluate(qrels, RUN, ["ADM"], complete=True, compat=compat)
    assert float(e.mean()["ADM"].iloc[0]) == pytest.approx(0.7 / 2)


def test_eval_many_carries_the_scores(tmp_path):
    from irscale.evaluation.many import evaluate_many

    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\n")
    run = tmp_path / "run"
    run.write_text("q1 Q0 d1 1 3.0 r\nq1 Q0 d3 2 2.0 r\nq1 Q0 d5 3 1.0 r\n")
    e = evaluate_many(str(qrels), [str(run)], ["ADM", "map"])
    assert float(e.mean()["ADM"].iloc[0]) == pytest.approx(0.7)
