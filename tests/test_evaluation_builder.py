"""The one builder of evaluation results, ``build_evaluation``: per-row values, whose
each row is (the rows of judged rankings, or the ``RowKeys`` a runner knows), and their
averaging in; the result, rows in the evaluation's order, out."""

from __future__ import annotations

import numpy as np
import pytest

import irscale
from irscale.core.rows import RowKeys, TopicRows
from irscale.io.table import Averaging, Column
from irscale.measures.diversity.rankings import id_sort_key
from irscale.measures.results import build_evaluation


def test_keyed_values_are_put_run_by_run_topics_in_order():
    keys = RowKeys(("a", "b"), [1, 0, 1, 0], ["q2", "q2", "q1", "q1"], gold_topics=["q3"])
    ev = build_evaluation({"m": [4, 2, 3, 1]}, keys)
    assert ev.rows.topics == ("q1", "q2", "q3")
    assert ev.rows.run_labels.tolist() == ["a", "a", "b", "b"]
    assert ev.rows.topic_labels.tolist() == ["q1", "q2", "q1", "q2"]
    assert ev.values["m"].tolist() == [1.0, 2.0, 3.0, 4.0]
    assert ev.values["m"].dtype == np.float64  # a mean of floats by default
    assert ev.columns == (Column("m"),) and ev.averaging == Averaging()
    assert ev.unjudged_topics == {"a": (), "b": ()}
    assert ev.mean()["m"].tolist() == [1.5, 3.5]


def test_the_topics_order_and_the_evaluated_rows_follow_the_keys():
    keys = RowKeys(("r",), [0, 0, 0], ["10", "9", "x"], topic_order=id_sort_key,
                   unjudged=[("x",)], evaluated=np.array([True, True, False]))
    ev = build_evaluation({"m": [0.1, 0.9, 0.0]}, keys,
                                Averaging("ndeval", n_qrels_topics=2))
    assert ev.rows.topic_labels.tolist() == ["9", "10", "x"]  # numerically, as ndeval
    assert ev.values["m"].tolist() == [0.9, 0.1, 0.0]
    assert ev.rows.evaluated.tolist() == [True, True, False]
    assert ev.unjudged_topics == {"r": ("x",)}
    assert ev.mean()["m"].tolist() == [0.5]  # ndeval's mean: over the evaluated rows


def test_columns_say_how_values_are_held_and_rows_of_judged_rankings_are_kept():
    rows = TopicRows(("r",), ("q1", "q2"), np.array([0, 0]), np.array([0, 1]))
    columns = (Column("n", "sum", "int"), Column("m"))
    ev = build_evaluation({"n": np.array([2, 3]), "m": [1, 0]}, rows,
                                Averaging("trec_eval"), columns=columns, runids=("x",))
    assert ev.rows is rows and ev.columns == columns and ev.runids == ("x",)
    assert ev.values["n"].dtype == np.int64 and ev.values["m"].dtype == np.float64
    assert dict((c.label, v) for c, v in ev.summary(0)) == {"n": 5, "m": 0.5}


def test_every_runner_has_one_list_of_unjudged_topics_per_run():
    """Fairness's evaluation says which topics each run has without judgments (none here:
    its runs' other topics are left out) as every evaluation does."""
    qrels = b"1 0 a 1\n1 0 b 0\n"
    run = b"1 0 a 1 2 r\n1 0 b 2 1 r\n"
    ev = irscale.evaluate(qrels, run, "EE-L")
    assert ev.unjudged_topics == {"r": ()}


@pytest.mark.parametrize("order", [[0, 1, 2], [2, 0, 1]])
def test_values_in_order_are_not_copied_and_others_are(order):
    values = np.array([0.5, 0.25, 0.75])
    keys = RowKeys(("r",), [0, 0, 0], [f"q{k}" for k in order])
    ev = build_evaluation({"m": values}, keys)
    assert (ev.values["m"] is values) == (order == [0, 1, 2])
    assert ev.values["m"].tolist() == values[np.argsort(order)].tolist()
