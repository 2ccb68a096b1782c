"""The core's public helpers on identifier columns (:mod:`irscale.core.identifiers`) and on
judging (topic, docno) pairs (:class:`irscale.core.judge.PairJudge`), checked against plain
Python on random columns: codes in order of first appearance, byte order, set lookups,
and the degrees a dictionary of the qrels gives."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from irscale.core import identifiers
from irscale.core.judge import PairJudge
from irscale.core.judged import NONPOOL, UNJUDGED
from irscale.io.sources import as_qrels


def _words(rng: np.random.Generator, n: int) -> list[str]:
    alphabet = ["a", "B", "é", "0", "zz", "d1", "d10", "d2", "", "ß"]
    return ["".join(rng.choice(alphabet, size=rng.integers(1, 4))) for _ in range(n)]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("grouped", [False, True])
def test_encode_gives_codes_in_order_of_first_appearance(seed, grouped):
    rng = np.random.default_rng(seed)
    values = _words(rng, 200)
    if grouped:
        values = sorted(values)
    codes, distinct = identifiers.encode(identifiers.as_strings(values[:90], values[90:]),
                                         grouped=grouped)
    first = list(dict.fromkeys(values))
    assert distinct.to_pylist() == first
    assert codes.tolist() == [first.index(v) for v in values]


@pytest.mark.parametrize("seed", range(5))
def test_byte_order_index_in_and_take(seed):
    rng = np.random.default_rng(seed)
    values = _words(rng, 100)
    column = identifiers.strings(values)
    assert identifiers.byte_order(column).tolist() == sorted(
        range(len(values)), key=lambda i: values[i].encode())  # a stable sort
    universe = sorted(set(values))[::2]
    assert identifiers.index_in(column, identifiers.strings(universe)).tolist() == [
        universe.index(v) if v in universe else -1 for v in values]
    rows = rng.integers(0, len(values), size=30)
    assert identifiers.take(column, rows).to_pylist() == [values[r] for r in rows]
    keep = rng.random(len(values)) < 0.5
    assert identifiers.filter_rows(column, keep).to_pylist() == [
        v for v, k in zip(values, keep, strict=True) if k]


def test_fingerprints_depend_on_the_bytes_alone():
    first = identifiers.fingerprints(identifiers.strings(["d1", "d2", "d1"]))
    again = identifiers.fingerprints(identifiers.as_strings(["d2"], ["d1"]))
    assert first.dtype == np.uint64
    assert first[0] == first[2] == again[1] and first[1] == again[0]


@pytest.mark.parametrize("seed", range(5))
def test_pair_judge_gives_the_degrees_of_the_qrels(seed):
    rng = np.random.default_rng(seed)
    topics = [str(t) for t in rng.integers(1, 6, size=60)]
    docnos = [f"d{d}" for d in rng.integers(0, 30, size=60)]
    qrels = pd.DataFrame({"query_id": topics, "doc_id": docnos,
                          "relevance": rng.integers(-1, 4, size=60)})
    qrels = qrels.drop_duplicates(["query_id", "doc_id"])
    degree = {(t, d): int(r) for t, d, r in qrels.itertuples(index=False)}
    judge = PairJudge(as_qrels(qrels))
    assert judge.topics == tuple(sorted(set(qrels.query_id)))
    asked_topics = [str(t) for t in rng.integers(0, 8, size=80)]  # 0, 6, 7: no judgments
    asked_docs = [f"d{d}" for d in rng.integers(0, 40, size=80)]
    codes = judge.topic_codes(asked_topics)
    assert codes.tolist() == [judge.topics.index(t) if t in judge.topics else -1
                              for t in asked_topics]
    got = judge.degrees_of(codes, identifiers.strings(asked_docs))
    expected = [NONPOOL if (t, d) not in degree else
                UNJUDGED if degree[t, d] < 0 else degree[t, d]
                for t, d in zip(asked_topics, asked_docs, strict=True)]
    assert got.tolist() == expected
    # the same pairs through codes into the distinct docnos
    codes_of_docs, distinct = identifiers.encode(identifiers.strings(asked_docs))
    assert judge.degrees_of(codes, distinct, codes_of_docs).tolist() == expected


@pytest.mark.parametrize("seed", range(5))
def test_rank_rows_is_ndeval_traditional_order(seed):
    """Topic by its place in the topics given, score descending (as doubles with compat
    10), docno descending by bytes: a sort on those keys in plain Python (rows equal on
    all three, a document retrieved twice, may come in either order)."""
    from irscale.core.inputs import Run
    from irscale.core.judge import rank_rows

    rng = np.random.default_rng(seed)
    n = 120
    names = ["t2", "t0", "t1"]  # not in byte order: the order given counts
    topic = rng.integers(0, 4, size=n)  # topic 3 (t3) is not asked for: left out
    score = rng.integers(0, 5, size=n) / 2.0 + (rng.random(n) < 0.1) * 2.0 ** -40
    docnos = _words(rng, n)
    topic_ids = [f"t{t}" for t in topic.tolist()]
    run = Run(name="r", topic=pa.chunked_array([identifiers.strings(topic_ids)]),
              docno=pa.chunked_array([identifiers.strings(docnos)]), score=score)
    rows, codes = rank_rows(run, names, "trec_eval", compat=10)
    # bytes descending: each byte negated, and a last item above any of them so that a
    # string comes after the longer strings it begins (b"ab" before b"a")
    key = {i: (names.index(topic_ids[i]), -score[i], [-b for b in docnos[i].encode()] + [1])
           for i in range(n) if topic_ids[i] in names}
    assert [key[i] for i in rows.tolist()] == sorted(key.values())
    assert codes.tolist() == [key[i][0] for i in rows.tolist()]
