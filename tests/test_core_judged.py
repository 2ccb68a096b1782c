"""Judged rankings: tie policies, -M, -J, relevance sentinels, topic selection."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import irscale
from irscale.core.judged import (
    NONPOOL,
    UNJUDGED,
    RankingOptions,
    build_judged_rankings,
)
from irscale.core.segments import segment_cumsum, segment_sum
from irscale.errors import ParameterError
from irscale.io.memory import qrels_from_dict, run_from_dict

QRELS = qrels_from_dict({"1": {"a": 1, "b": 0, "c": 2, "x": -1}, "2": {"a": 1}})
RUN = run_from_dict({"1": {"a": 1.0, "b": 2.0, "c": 1.0, "d": 1.0, "x": 0.5},
                     "3": {"a": 1.0}}, name="r")


def ranking(jr, i):
    return jr.rel[jr.offsets[i]:jr.offsets[i + 1]].tolist()


def test_trec_eval_ties_docno_descending_and_sentinels():
    jr = build_judged_rankings(QRELS, [RUN])
    assert jr.topics == ("1", "2") and jr.ranking_topic.tolist() == [0]
    # b (2.0) first, then ties d > c > a by docno descending, then x (pooled, unjudged)
    assert ranking(jr, 0) == [0, NONPOOL, 2, 1, UNJUDGED]
    assert jr.num_rel.tolist() == [2] and jr.num_nonrel.tolist() == [1]
    assert jr.unjudged_topics == (("3",),)


def test_file_order_and_rank_column():
    jr = build_judged_rankings(QRELS, [RUN], RankingOptions(ties="file-order"))
    assert ranking(jr, 0) == [0, 1, 2, NONPOOL, UNJUDGED]
    run = irscale.read_run(b"1 Q0 a 3 9 r\n1 Q0 b 1 0 r\n1 Q0 c 2 5 r\n", keep_rank=True)
    jr = build_judged_rankings(QRELS, [run], RankingOptions(ties="rank-column"))
    assert ranking(jr, 0) == [0, 2, 1]
    with pytest.raises(ParameterError, match="keep_rank"):
        build_judged_rankings(QRELS, [RUN], RankingOptions(ties="rank-column"))


def test_max_docs_then_judged_only():
    jr = build_judged_rankings(QRELS, [RUN], RankingOptions(max_docs=3, judged_only=True))
    assert ranking(jr, 0) == [0, 2]
    jr = build_judged_rankings(QRELS, [RUN], RankingOptions(judged_only=True))
    assert ranking(jr, 0) == [0, 2, 1]


def test_levels_truncate_and_placeholders():
    jr = build_judged_rankings(QRELS, [RUN])
    assert jr.with_level(2).num_rel.tolist() == [1]
    assert ranking(jr.truncate(2), 0) == [0, NONPOOL]
    jr = build_judged_rankings(QRELS, [RUN], placeholders=True)
    assert jr.ranking_topic.tolist() == [0, 1]
    assert jr.placeholder.tolist() == [False, True]
    assert ranking(jr, 1) == [NONPOOL]


@given(st.lists(st.lists(st.integers(-5, 5), max_size=40), min_size=1, max_size=8),
       st.booleans())
def test_segment_operations(segments, floats):
    offsets = np.concatenate(([0], np.cumsum([len(s) for s in segments]))).astype(np.int64)
    flat = np.array([v for s in segments for v in s], dtype=np.float64 if floats else np.int64)
    if floats:
        flat = flat / 7.0
    expected_sums, expected_prefix = [], []
    for s in segments:  # the C loop: add one value at a time in order
        total = 0.0 if floats else 0
        for v in (np.array(s) / 7.0 if floats else s):
            total = total + v
            expected_prefix.append(total)
        expected_sums.append(total)
    assert segment_sum(flat, offsets).tolist() == expected_sums
    assert segment_cumsum(flat, offsets).tolist() == expected_prefix
