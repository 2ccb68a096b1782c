"""The engine's judging of ``Qrels`` and ``Run`` objects (``rust/src/columns.rs``) against
the numpy/pyarrow judge it replaced (:mod:`tests.oracles.columnar_judge`): random qrels
and runs read from frames under every duplicate policy (ties, topics without judgments,
runs without documents, interleaved topics, string columns in several chunks and of
either offset width), every tie policy and trec_eval option, equal array for array."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irscale.core.inputs import Qrels, Run
from irscale.core.judge import build_judged_rankings, judge_with_rows
from irscale.core.options import RankingOptions
from irscale.errors import InputFormatError, ParameterError
from irscale.io.memory import qrels_from_frame, run_from_frame

from .oracles.arrow_columns import arrow_column
from .oracles.columnar_judge import build_judged_rankings as oracle_judged_rankings
from .oracles.columnar_judge import judged_rows as oracle_rows
from .property_examples import examples

TOPICS = st.sampled_from(["1", "2", "10", "q", "é"])
DOCNOS = st.sampled_from(["a", "b", "c", "d", "aa", "ab", "B", "doc-1", "doc-10", ""])
#: Scores with ties as doubles and as C floats (1 and 1 + 2⁻³⁰), negatives, zeros.
SCORES = st.sampled_from([0.0, -0.0, 1.0, 1.0 + 2.0 ** -30, 2.0, -1.5, 1e-50, 3.25, 1e30])
DEGREES = st.sampled_from([-1, 0, 1, 2, 3, 7, 10_000_000])
POLICIES = st.sampled_from(["first", "last", "max"])


@st.composite
def qrels_objects(draw) -> Qrels:
    rows = draw(st.lists(st.tuples(TOPICS, DOCNOS, DEGREES), min_size=1, max_size=25))
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])
    return qrels_from_frame(frame.astype({"relevance": "int64"}),
                            duplicates=draw(POLICIES))


@st.composite
def run_objects(draw, name: str) -> Run:
    rows = draw(st.lists(st.tuples(TOPICS, DOCNOS, SCORES, st.integers(-3, 3)), max_size=30))
    if not rows:  # no reader makes an empty run: one built as it is
        empty = pa.chunked_array([pa.array([], pa.string())])
        return Run(name=name, topic=empty, docno=empty, score=np.empty(0),
                   rank=np.empty(0, np.int64))
    frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score", "rank"])
    frame = frame.astype({"score": "float64", "rank": "int64"})
    run = run_from_frame(frame, name=name, duplicates=draw(POLICIES))
    return _rechunked(run, draw(st.integers(1, 3)), draw(st.booleans()))


def _rechunked(run: Run, pieces: int, large: bool) -> Run:
    """``run`` with its string columns cut into ``pieces`` chunks, ``large_string`` if
    ``large``, slices of longer arrays: the layouts the engine reads in place or combines
    first."""
    def cut(column: pa.ChunkedArray) -> pa.ChunkedArray:
        whole = arrow_column(column).combine_chunks()
        if large:
            whole = whole.cast(pa.large_string())
        # a slice of a longer array: its offsets start past 0 (read in place all the same)
        whole = pa.concat_arrays([pa.array(["pad"], whole.type), whole])[1:]
        bounds = np.linspace(0, len(whole), pieces + 1).astype(int)
        return pa.chunked_array([whole[a:b] for a, b in pairwise(bounds)],
                                type=whole.type)

    return Run(name=run.name, topic=cut(run.topic), docno=cut(run.docno), score=run.score,
               rank=run.rank, source=run.source, file_row=run.file_row)


OPTIONS = st.builds(RankingOptions, relevance_level=st.sampled_from([1, 2]),
                    max_docs=st.sampled_from([None, 1, 3]), judged_only=st.booleans(),
                    ties=st.sampled_from(["trec_eval", "file-order", "rank-column"]),
                    compat=st.sampled_from([9, 10]))


def _same(got, expected) -> None:
    for field in ("rel", "offsets", "rel_levels", "ranking_topic", "ranking_run"):
        np.testing.assert_array_equal(getattr(got, field), getattr(expected, field), field)
    assert (got.degrees is None) == (expected.degrees is None)
    if got.degrees is not None:
        np.testing.assert_array_equal(got.degrees, expected.degrees)
    assert got.topics == expected.topics and got.runs == expected.runs
    assert got.unjudged_topics == expected.unjudged_topics
    assert (got.placeholder is None) == (expected.placeholder is None)
    if got.placeholder is not None:
        np.testing.assert_array_equal(got.placeholder, expected.placeholder)


@pytest.mark.filterwarnings("ignore::UserWarning")  # scores beyond a C float
@settings(max_examples=examples(300), deadline=None)
@given(qrels_objects(), st.lists(st.integers(0, 9), min_size=1, max_size=3, unique=True),
       st.data(), OPTIONS, st.booleans())
def test_engine_judges_objects_as_the_python_judge(qrels, names, data, options, complete):
    runs = [data.draw(run_objects(f"r{n}")) for n in names]
    got = build_judged_rankings(qrels, runs, options, placeholders=complete)
    expected = oracle_judged_rankings(qrels, runs, options, placeholders=complete)
    _same(got, expected)


@pytest.mark.filterwarnings("ignore::UserWarning")
@settings(max_examples=examples(150), deadline=None)
@given(qrels_objects(), st.data(), OPTIONS)
def test_engine_gives_the_rows_of_the_judged_documents(qrels, data, options):
    """The rows given for per-document lookups (labels) are the Python judge's, in its
    order: each judged document's row of the run."""
    run = data.draw(run_objects("r"))
    _, rows = judge_with_rows(qrels, [run], options, keep_rows=True)
    assert rows is not None
    np.testing.assert_array_equal(rows[0], oracle_rows(qrels, run, options))


def test_rank_column_needs_the_rank_column():
    qrels = qrels_from_frame(pd.DataFrame({"query_id": ["1"], "doc_id": ["a"],
                                           "relevance": [1]}))
    run = run_from_frame(pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]}))
    with pytest.raises(ParameterError, match="rank column"):
        build_judged_rankings(qrels, [run], RankingOptions(ties="rank-column"))


def test_a_nan_score_is_refused_as_the_readers_refuse_it():
    qrels = qrels_from_frame(pd.DataFrame({"query_id": ["1"], "doc_id": ["a"],
                                           "relevance": [1]}))
    strings = pa.chunked_array([pa.array(["1", "1"])])
    run = Run(name="r", topic=strings, docno=pa.chunked_array([pa.array(["a", "b"])]),
              score=np.array([1.0, np.nan]))
    with pytest.raises(InputFormatError, match="NaN scores cannot be ranked") as refused:
        build_judged_rankings(qrels, [run])
    assert "1 b nan" in str(refused.value)
