"""Judged rankings: tie policies, -M, -J, relevance sentinels, topic selection."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

import irscale
from irscale.core._columnar.blocks import TopicBlocks, stable_order
from irscale.core.inputs import Qrels, Run, as_c_float
from irscale.core.judge import build_judged_rankings
from irscale.core.judged import NONPOOL, UNJUDGED
from irscale.core.options import TIE_ORDERS, RankingOptions
from irscale.core.segments import segment_cumsum, segment_sum
from irscale.errors import ParameterError
from irscale.io.memory import qrels_from_dict, qrels_from_frame, run_from_dict

from .oracles import arrow_columns, qrels_index
from .oracles import columnar_ranking as ranking_module
from .oracles import segment_sorts as segments_module
from .oracles.columnar_judge import judge_run, judge_run_rows
from .oracles.columnar_ranking import c_float_rank_keys
from .oracles.qrels_index import QrelsIndex, sorted_codes
from .oracles.segment_sorts import segment_argsort, segment_sort_keys

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


def test_a_range_of_rankings_keeps_their_documents_context_and_values():
    jr = build_judged_rankings(QRELS, [RUN], placeholders=True)
    jr = jr.with_attributes(length=np.arange(len(jr.rel), dtype=np.float64))
    second = jr.rankings(1, 2)
    assert second.n_rankings == 1 and ranking(second, 0) == ranking(jr, 1)
    assert second.offsets.tolist() == [0, jr.lengths[1]]
    assert second.ranking_topic.tolist() == [1] and second.placeholder.tolist() == [True]
    assert second.rel_levels.tolist() == jr.rel_levels[1:].tolist()
    assert second.attribute("length").tolist() == jr.attribute("length")[jr.offsets[1]:].tolist()
    assert jr.rankings(0, 0).n_rankings == 0 and len(jr.rankings(2, 2).rel) == 0
    with pytest.raises(ParameterError, match=r"out of 0\.\.2"):
        jr.rankings(1, 3)


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


# ---------------------------------------------------------------- building, all paths
# Topic ids and docnos whose byte order differs from numeric or case-insensitive order;
# "u" and "9" have no judgments.
_TOPICS = ("1", "10", "2", "B", "u", "9")
#: Docnos of up to 8 bytes and longer ones (two sharing their first 12 bytes).
_DOCS = ("d1", "d10", "d2", "D1", "d_1", "\u00e91", "z", "d3", "n1", "N3", "x", "",
         "MED-00000001", "MED-000000010", "clueweb12-0000tw-00-00001")
#: Many ties; -0.0 ties 0.0, and 1.0 ties 1.00000001 as C floats (not as doubles).
_SCORES = (-1.0, -0.0, 0.0, 0.5, 1.0, 1.00000001, 2.0)
_QRELS = {"1": {"d1": 1, "d10": 0, "D1": 2, "\u00e91": -1, "": 3},
          "10": {"d2": 1, "z": 0, "N3": 12},
          "2": {"x": -2, "d_1": 1},
          "B": {"d3": 0}}


def _rel_of(topic: str, doc: str) -> int:
    degree = _QRELS.get(topic, {}).get(doc)
    return NONPOOL if degree is None else UNJUDGED if degree < 0 else degree


def _oracle(rows, ties: str, max_docs=None, judged_only=False, compat=9):
    """{topic: [(row, rel), ...]} in ranking order, sorted by plain Python (``trec_eval``
    ties: scores as C floats for compat 9, as doubles for 10)."""
    out = {}
    for topic in sorted(set(t for t, *_ in rows) & set(_QRELS)):
        mine = [(i, d, s, k) for i, (t, d, s, k) in enumerate(rows) if t == topic]
        if ties == "trec_eval":
            mine.sort(key=lambda r: r[1].encode(), reverse=True)
            mine.sort(key=lambda r: -(np.float32(r[2]) if compat == 9 else r[2]))
        elif ties == "file-order":
            mine.sort(key=lambda r: -r[2])
        else:
            mine.sort(key=lambda r: r[3])
        ranked = [(i, _rel_of(topic, d)) for i, d, _, _ in mine][:max_docs]
        out[topic] = [r for r in ranked if r[1] >= 0] if judged_only else ranked
    return out


@st.composite
def _run_rows(draw):
    """Rows (topic, docno, score, rank) of a run without duplicates, in one of the layouts
    of real files: topic by topic in ranking order (ties in any order), topic by topic in any
    order, topics interleaved line by line, or shuffled."""
    topics = draw(st.lists(st.sampled_from(_TOPICS), min_size=1, max_size=5, unique=True))
    blocks = []
    for topic in topics:
        docs = draw(st.lists(st.sampled_from(_DOCS), min_size=1, max_size=12, unique=True))
        scores = draw(st.lists(st.sampled_from(_SCORES), min_size=len(docs),
                               max_size=len(docs)))
        ranks = draw(st.lists(st.integers(1, 4), min_size=len(docs), max_size=len(docs)))
        blocks.append([(topic, d, s, k) for d, s, k in zip(docs, scores, ranks, strict=True)])
    layout = draw(st.sampled_from(("score", "float32", "rank", "grouped", "interleaved",
                                   "shuffled")))
    if layout in ("score", "interleaved"):  # by score (as a double), ties in any order
        blocks = [sorted(b, key=lambda r: -r[2]) for b in blocks]
    elif layout == "float32":  # by C-float score, ties in any order
        blocks = [sorted(b, key=lambda r: -np.float32(r[2])) for b in blocks]
    elif layout == "rank":
        blocks = [sorted(b, key=lambda r: r[3]) for b in blocks]
    rows = [r for b in blocks for r in b]
    if layout == "interleaved":  # round robin: line i of every topic, then line i + 1
        rows = [b[i] for i in range(max(map(len, blocks))) for b in blocks if i < len(b)]
    if layout == "shuffled":
        rows = draw(st.permutations(rows))
    return rows


def _run_of(rows, fingerprints=None, chunks: int = 1) -> Run:
    """The run of ``rows``, its docnos in ``chunks`` chunks (as a parsed file's are)."""
    topic, docno, score, rank = (list(c) for c in zip(*rows, strict=True))
    cuts = np.linspace(0, len(docno), chunks + 1).astype(int)
    run = Run(name="r", topic=pa.chunked_array([pa.array(topic, pa.string())]),
              docno=pa.chunked_array([pa.array(docno[a:b], pa.string())
                                      for a, b in pairwise(cuts)],
                                     pa.string()),
              score=np.array(score, dtype=np.float64), rank=np.array(rank, dtype=np.int64))
    if fingerprints is not None:
        run = replace(run, fingerprints=np.array([fingerprints[d] for d in docno],
                                                 dtype=np.uint64))
    return run


def _qrels_of(fingerprints=None, interleaved=False, reversed_topics=False) -> Qrels:
    """The qrels of :data:`_QRELS`, topic by topic (in byte order, or ``reversed_topics``)
    or (``interleaved``) line i of every topic, then line i + 1 (qrels written in another
    order than by topic)."""
    qrels = qrels_from_dict(_QRELS)
    if interleaved or reversed_topics:
        import pandas as pd

        topics = list(reversed(_QRELS) if reversed_topics else _QRELS)
        lines = [list(_QRELS[topic].items()) for topic in topics]
        rows = [(topic, *lines[k][i]) for i in range(max(map(len, lines)))
                for k, topic in enumerate(topics) if i < len(lines[k])]
        if not interleaved:
            rows = [(topic, *line) for k, topic in enumerate(topics) for line in lines[k]]
        qrels = qrels_from_frame(pd.DataFrame(rows, columns=["query_id", "doc_id",
                                                             "relevance"]))
        assert qrels.topic_blocks.contiguous != interleaved
    if fingerprints is not None:
        qrels = replace(qrels, fingerprints=np.array(
            [fingerprints[d] for d in qrels.docno.to_pylist()], dtype=np.uint64))
    return qrels


def _check_against_oracle(qrels, run, rows, options, run_rows=None):
    """``run_rows=0``: the index builds its hash tables on the run's rows and looks the
    qrels up in them (as for a run much smaller than the qrels), unless fingerprints shared
    within a topic of the run make it fall back to the qrels' tables."""
    index = QrelsIndex.build(qrels, run_rows=run_rows)
    rel, lengths, present, unjudged, order = judge_run_rows(index, run, options)
    expected = _oracle(rows, options.ties, options.max_docs, options.judged_only,
                       options.compat)
    assert [index.topics[t] for t in present] == list(expected)
    assert lengths.tolist() == [len(v) for v in expected.values()]
    assert order.tolist() == [i for v in expected.values() for i, _ in v]
    assert rel.dtype == np.int64
    assert rel.tolist() == [r for v in expected.values() for _, r in v]
    assert unjudged == tuple(sorted(set(t for t, *_ in rows) - set(_QRELS)))
    # the judgments alone (ties of one judgment left in file order): the same judgments,
    # and at every place a row of the same topic and score as trec_eval's
    index = QrelsIndex.build(qrels, run_rows=run_rows)
    alone, alone_lengths, alone_present, _ = judge_run(index, run, options)
    assert alone.tolist() == rel.tolist()
    assert alone_lengths.tolist() == lengths.tolist()
    assert alone_present.tolist() == present.tolist()
    index = QrelsIndex.build(qrels, run_rows=run_rows)
    *_, unsorted = judge_run_rows(index, run, options, every_row=False)
    score = np.float32(run.score) if options.compat == 9 else run.score
    topic = run.topic.to_pylist()
    assert [(topic[i], score[i]) for i in unsorted] == [(topic[i], score[i]) for i in order]


@given(_run_rows(), st.sampled_from(TIE_ORDERS), st.sampled_from((None, 1, 3)),
       st.booleans(), st.sampled_from((1, 2, 5, 1 << 20)), st.sampled_from((None, 0)),
       st.sampled_from((9, 10)), st.sampled_from((1, 3)), st.booleans())
@example(rows=[("1", "d1", 1.00000001, 1), ("1", "d10", 1.0, 2)], ties="trec_eval",
         max_docs=None, judged_only=False, chunk=1 << 20, run_rows=None, compat=10,
         docno_chunks=1, screened=False)
@example(rows=[("1", "d10", 1.0, 1), ("10", "z", 0.5, 1), ("1", "d1", 1.00000001, 2)],
         ties="trec_eval", max_docs=None, judged_only=False, chunk=1 << 20, run_rows=None,
         compat=10, docno_chunks=1, screened=True)  # topics interleaved: the whole run sorted
@example(rows=[("1", "MED-00000001", 1.0, 1), ("1", "d1", 1.0, 1), ("1", "d2", 1.0, 1),
               ("10", "z", 0.5, 1), ("10", "clueweb12-0000tw-00-00001", 0.5, 1),
               ("10", "d2", 0.5, 1)],
         ties="trec_eval", max_docs=None, judged_only=False, chunk=1 << 20, run_rows=None,
         compat=9, docno_chunks=3, screened=True)  # tied long docnos from several chunks
def test_rankings_match_a_plain_sort_in_every_layout(rows, ties, max_docs, judged_only, chunk,
                                                     run_rows, compat, docno_chunks, screened):
    """Presorted files (blocks moved whole, only ties sorted) and all others (full sort)
    give the rankings of a plain Python sort, for every tie policy and both trec_eval
    profiles (scores compared as C floats or doubles), whatever the number of rows scanned,
    looked up, keyed and tie-broken at once (pieces of ties sorted side by side), the side
    the lookup tables are built on, whether the rows looked up are screened first and the
    chunks the docnos come in."""
    options = RankingOptions(ties=ties, max_docs=max_docs, judged_only=judged_only,
                             compat=compat)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranking_module, "_CHUNK_ROWS", chunk)
        patch.setattr(ranking_module, "_TIED_PIECE", chunk)
        patch.setattr(arrow_columns, "_KEY_PIECE", chunk)
        patch.setattr(qrels_index, "_CHUNK_ROWS", chunk)
        patch.setattr(qrels_index, "_SCREENED_RATIO", 0 if screened else 1 << 62)
        _check_against_oracle(_qrels_of(), _run_of(rows, chunks=docno_chunks), rows,
                              options, run_rows)


@pytest.mark.parametrize("docno_chunks", [1, 3])
def test_long_tied_docnos_of_an_unsorted_block(docno_chunks):
    """A block out of ranking order (sorted on its own first, ties in any order) whose tied
    docnos are too long for 8-byte keys: sorted by pyarrow from the chunks that hold them,
    the result mapped back to rows."""
    docs = [f"clueweb12-0000tw-00-{k:05d}" for k in range(60)]
    rows = [("1", d, float(k % 2), 1) for k, d in enumerate(docs)]
    rows += [("10", d, float(k % 3), 1) for k, d in enumerate(reversed(docs))]
    _check_against_oracle(_qrels_of(), _run_of(rows, chunks=docno_chunks), rows,
                          RankingOptions())


@pytest.mark.parametrize("presorted", [True, False])
@pytest.mark.parametrize("piece", [1, 7, 1 << 17])
def test_ties_sorted_in_pieces_match_a_plain_sort(presorted, piece):
    """A run tied throughout (integer scores), its blocks in ranking order or not, a third
    of its topics without judgments and its docnos short (8-byte keys) or long (sorted again
    as strings): its ties sorted in pieces of whole runs of ties, however small, side by
    side, give the order of a plain sort by (topic, C-float score descending, docno
    descending)."""
    rng = np.random.default_rng(11)
    rows = []
    for k in range(40):
        numbers = rng.choice(10**7, size=120, replace=False)
        docnos = [f"D{n:07d}" if n % 5 else f"clueweb12-0000tw-00-{n:07d}" for n in numbers]
        scores = rng.integers(0, 15, size=120).astype(np.float64)
        block = [(f"t{k:02d}", d, s) for d, s in zip(docnos, scores, strict=True)]
        if presorted:
            block.sort(key=lambda r: -r[2])
        rows += block
    topic, docno, score = (list(c) for c in zip(*rows, strict=True))
    run = Run(name="r", topic=pa.chunked_array([pa.array(topic, pa.string())]),
              docno=pa.chunked_array([pa.array(docno[:2000]), pa.array(docno[2000:])]),
              score=np.array(score))
    judged = sorted({t for t in topic if int(t[1:]) % 3})
    heads = run.topic_blocks.heads.to_pylist()
    block_topic = np.array([judged.index(h) if h in judged else -1 for h in heads])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranking_module, "_TIED_PIECE", piece)
        patch.setattr(arrow_columns, "_KEY_PIECE", piece)
        order = ranking_module.rank_order(run, block_topic, "trec_eval")
    expected = sorted((i for i, t in enumerate(topic) if t in judged),
                      key=lambda i: docno[i].encode(), reverse=True)
    expected.sort(key=lambda i: (topic[i], -np.float32(score[i])))
    assert np.asarray(order).tolist() == expected


@given(_run_rows(), st.sampled_from(TIE_ORDERS), st.sampled_from((None, 1, 3)),
       st.booleans())
def test_runs_read_in_every_layout_match_a_plain_sort(rows, ties, max_docs, judged_only):
    """Files whose topics are not together are read grouped by topic (``file_row`` keeping
    the file rows): their rankings, mapped back to file rows, are a plain Python sort's."""
    rows = [r for r in rows if r[1]]  # an empty docno cannot be written to a file
    assume(rows)
    text = "".join(f"{t} Q0 {d} {k} {s!r} r\n" for t, d, s, k in rows)
    run = irscale.read_run(text.encode(), keep_rank=True)
    topics = [t for t, *_ in rows]
    together = all(t not in topics[:i] for i, t in enumerate(topics) if i and t != topics[i - 1])
    assert (run.file_row is None) == together
    file_row = np.arange(len(rows)) if run.file_row is None else run.file_row
    assert run.docno.take(pa.array(np.argsort(file_row))).to_pylist() == [r[1] for r in rows]
    options = RankingOptions(ties=ties, max_docs=max_docs, judged_only=judged_only)
    index = QrelsIndex.build(_qrels_of())
    rel, lengths, present, unjudged, order = judge_run_rows(index, run, options)
    expected = _oracle(rows, ties, max_docs, judged_only)
    assert [index.topics[t] for t in present] == list(expected)
    assert lengths.tolist() == [len(v) for v in expected.values()]
    assert file_row[order].tolist() == [i for v in expected.values() for i, _ in v]
    assert rel.tolist() == [r for v in expected.values() for _, r in v]
    assert unjudged == tuple(sorted(set(topics) - set(_QRELS)))


@pytest.mark.parametrize("single", [True, False])
@pytest.mark.parametrize("ties", TIE_ORDERS)
@pytest.mark.parametrize("widths", [(3, 3, 3), (1, 4, 2), (5, 1)])
def test_blocks_out_of_order_are_sorted_block_by_block(ties, widths, single):
    """Blocks of equal widths (sorted as one matrix, no copy) and uneven ones (padded), with
    ties in file order (trec_eval's ties in any order: docno orders them afterwards), and
    the ties found in that order: neighbours in one block with scores equal as C floats
    (``single``) or doubles, for trec_eval only."""
    scores = [1.0, 3.0, 1.0, 2.0, 1.0 + 1e-12]
    rows = [(str(b), f"d{i}", scores[(b + i) % 5], (b * i) % 3 + 1)
            for b, width in enumerate(widths) for i in range(width)]
    run = _run_of(rows)
    blocks = run.topic_blocks
    key = run.rank if ties == "rank-column" else run.score
    within, pairs = ranking_module._block_sort(key, blocks, ties, single)
    compared = key.astype(np.float32) if single else key
    expected_pairs = []
    for b in range(len(blocks)):
        mine = list(range(blocks.bounds[b], blocks.bounds[b + 1]))
        expected = sorted(mine, key=lambda i: key[i] if ties == "rank-column" else -key[i])
        got = within[blocks.bounds[b]: blocks.bounds[b + 1]].tolist()
        if ties == "trec_eval":  # ties are ordered by docno later: any order of them here
            assert [compared[i] for i in got] == [compared[i] for i in expected]
            assert sorted(got) == sorted(expected)
            expected_pairs += [blocks.bounds[b] + j for j in range(len(got) - 1)
                               if compared[got[j]] == compared[got[j + 1]]]
        else:
            assert got == expected
    assert pairs.tolist() == expected_pairs


@pytest.mark.parametrize("single", [True, False])
def test_ties_sorted_block_by_block_never_span_two_blocks(single):
    """Blocks whose every score is one value, the same in all, and not in ranking order as
    written: the ties found are the neighbours within each block, none across two."""
    rows = [(str(b), f"d{i}", 1.0 if i % 2 else 1.0 + 1e-12, i) for b in range(3)
            for i in range(4)]
    run = _run_of(rows)
    within, pairs = ranking_module._block_sort(run.score, run.topic_blocks, "trec_eval",
                                               single)
    assert sorted(within.tolist()) == list(range(12))
    assert pairs.tolist() == ([0, 1, 2, 4, 5, 6, 8, 9, 10] if single else [0, 2, 4, 6, 8, 10])


@given(_run_rows(), st.sampled_from(TIE_ORDERS), st.booleans())
def test_presorted_and_shuffled_files_rank_alike(rows, ties, reverse_topics):
    """The same results written in ranking order, or shuffled, give the same rankings."""
    expected = build_judged_rankings(_qrels_of(), [_run_of(rows)], RankingOptions(ties=ties))
    by_topic = {}
    for row in rows:
        by_topic.setdefault(row[0], []).append(row)
    shuffled = [r for t in sorted(by_topic, reverse=reverse_topics) for r in by_topic[t]]
    shuffled = shuffled[1::2] + shuffled[::2]
    jr = build_judged_rankings(_qrels_of(), [_run_of(shuffled)], RankingOptions(ties=ties))
    if ties != "trec_eval":  # file order decides ties: compare as sets per ranking
        for i in range(jr.n_rankings):
            assert sorted(ranking(jr, i)) == sorted(ranking(expected, i))
    else:
        assert jr.rel.tolist() == expected.rel.tolist()
    assert jr.offsets.tolist() == expected.offsets.tolist()
    assert jr.ranking_topic.tolist() == expected.ranking_topic.tolist()


#: Fingerprint values that collide in every way the lookup distinguishes: equal values,
#: equal upper 32 bits (one bucket), 0 and the largest value.
_NASTY = (0, 1, 5, 1 << 32, (1 << 32) + 7, 1 << 63, (1 << 64) - 1, 0x9E3779B97F4A7C15)


@given(_run_rows(), st.lists(st.sampled_from(_NASTY), min_size=len(_DOCS),
                             max_size=len(_DOCS)), st.sampled_from(TIE_ORDERS),
       st.sampled_from((None, 0)), st.sampled_from(("bytes", "reversed", "interleaved")),
       st.booleans())
def test_judgments_exact_under_fingerprint_collisions(rows, values, ties, run_rows, layout,
                                                      screened):
    """Fingerprints shared by different docnos (in the qrels, in the run, between run and
    qrels, or across topics) and crowded buckets never turn into wrong judgments, whichever
    side the tables are built on, whether the qrels' topics are each consecutive (in
    byte order or not: the tables follow the rows' order) and whether the rows looked up
    are screened first (fingerprints sharing their low bits share a slot of the screen)."""
    fingerprints = dict(zip(_DOCS, values, strict=True))
    qrels = _qrels_of(fingerprints, layout == "interleaved", layout == "reversed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(qrels_index, "_SCREENED_RATIO", 0 if screened else 1 << 62)
        _check_against_oracle(qrels, _run_of(rows, fingerprints), rows,
                              RankingOptions(ties=ties), run_rows)


@given(st.permutations(range(6)), st.lists(st.integers(1, 4), min_size=6, max_size=6),
       st.booleans())
def test_tables_laid_out_in_the_rows_order(topics, sizes, split):
    """Tables of rows whose topics are each consecutive follow the order in which the
    topics come (topic code order otherwise), and find every row they were built on."""
    topic_code = np.repeat(np.array(topics), sizes)
    if split:  # a topic in two places: code order
        topic_code = np.append(topic_code, topics[0])
    counts = np.bincount(topic_code, minlength=7)  # topic 6 has no rows
    rank = qrels_index._layout_rank(topic_code, counts)
    if split:
        assert rank is None
    else:
        assert rank[np.array(topics)].tolist() == list(range(6)) and rank[6] == 6
    rng = np.random.default_rng(len(topic_code))
    values = rng.integers(0, 2**63, len(topic_code), dtype=np.int64).view(np.uint64) * 2
    tables = qrels_index._FingerprintTables.build(values, topic_code, 7)
    if not split:  # the tables' bases rise in the order of the rows' topics
        assert np.all(np.diff(tables.base[np.array(topics)]) > 0)
    blocks = TopicBlocks.of(pa.chunked_array([pa.array([str(t) for t in topic_code])]))
    block_topic = topic_code[blocks.bounds[:-1]]
    rows, qrels_rows = tables.hits(values, blocks, block_topic)
    assert sorted(rows.tolist()) == list(range(len(values)))
    assert np.array_equal(np.sort(qrels_rows), np.arange(len(values)))
    assert np.array_equal(qrels_rows[np.argsort(rows)], np.arange(len(values)))


@given(st.integers(1, 40), st.integers(0, 400), st.integers(0, 2**32 - 1),
       st.sampled_from((1, 7, 1 << 18)))
def test_screened_lookups_find_what_plain_ones_find(entries, others, seed, chunk):
    """Rows screened before they are looked up (many more rows than entries) give the same
    (row, entry) hits as rows all looked up, whatever the chunks looked up at once; other
    rows share low bits with entries (they pass the screen and are still not hits)."""
    rng = np.random.default_rng(seed)
    values = np.unique(rng.integers(0, 2**63, entries).view(np.uint64) * 2 + 1)
    topic_code = np.sort(rng.integers(0, 3, len(values)))
    tables = qrels_index._FingerprintTables.build(values, topic_code, 3)
    # run rows: every entry (in its topic, or another), and others, some sharing low bits
    picked = rng.integers(0, len(values), others)
    noise = rng.integers(0, 2**63, others).view(np.uint64)
    shared = rng.random(others) < 0.5
    noise[shared] = (noise[shared] & ~np.uint64(0xFFFFFF)) | (values[picked[shared]]
                                                              & np.uint64(0xFFFFFF))
    run_fp = np.concatenate([values, noise])
    run_topic = np.concatenate([topic_code, rng.integers(-1, 3, others)])
    order = np.argsort(run_topic, kind="stable")
    run_fp, run_topic = run_fp[order], run_topic[order]
    blocks = TopicBlocks.of(pa.chunked_array([pa.array([str(t) for t in run_topic])]))
    block_topic = run_topic[blocks.bounds[:-1]]
    found = {}
    for screened in (False, True):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(qrels_index, "_SCREENED_RATIO", 0 if screened else 1 << 62)
            patch.setattr(qrels_index, "_CHUNK_ROWS", chunk)
            rows, at = tables.hits(run_fp, blocks, block_topic)
        found[screened] = sorted(zip(rows.tolist(), at.tolist(), strict=True))
    assert found[True] == found[False]
    assert len(found[False]) >= len(values)  # every entry in its own topic at least


@given(st.lists(st.integers(0, 2**64 - 1), max_size=60), st.booleans())
def test_tables_of_interleaved_qrels_equal_those_of_grouped_ones(fingerprints, collide):
    """The fingerprint tables built on rows whose topics are interleaved (grouped by topic
    first) are those built by one sort of the same rows: same buckets, same rows, the same
    refusal when two docnos of a topic share a fingerprint."""
    values = np.array(fingerprints, dtype=np.uint64)
    topic_code = np.arange(len(values)) % 7  # rows k and k + 7 share a topic
    if collide and len(values) > 7:
        values[7] = values[0]
    tables = [qrels_index._FingerprintTables.build(values, topic_code, 7, grouped=grouped)
              for grouped in (True, False)]
    if tables[0] is None:
        assert tables[1] is None
        return
    for name in ("base", "size", "start", "fp", "row"):
        np.testing.assert_array_equal(getattr(tables[0], name), getattr(tables[1], name))


def test_tables_on_the_run_side_only_for_a_run_much_smaller_than_the_qrels():
    """An index serving runs of fewer than a quarter of the qrels' rows builds no qrels
    tables (the run's are built instead) unless the run's fingerprints collide; the pairs
    found are the qrels tables' pairs."""
    qrels = _qrels_of()
    rows = [("1", d, 1.0, 1) for d in ("d1", "d3", "zz")] + [("2", "d2", 0.5, 1),
                                                             ("99", "d1", 0.2, 1)]
    run = _run_of(rows)
    shared = QrelsIndex.build(qrels)

    def pairs(index, fingerprints=run.docno_fingerprints):
        block_topic = arrow_columns.index_in(run.topic_blocks.heads.to_arrow(), index.topic_array)
        found = index.hits(fingerprints, run.topic_blocks, block_topic)
        return sorted(zip(*found, strict=True)) if found is not None else None

    built = []  # the rows of every table built: the qrels' or the run's judged rows
    real_build = qrels_index._FingerprintTables.build.__func__

    def spy(cls, fingerprints, *args, **kwargs):
        built.append(len(fingerprints))
        return real_build(cls, fingerprints, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(qrels_index._FingerprintTables, "build", classmethod(spy))
        expected = pairs(shared)
        assert expected and built == [len(qrels)]
        for run_rows, run_side in (((len(qrels) - 1) // 4, True),
                                   ((len(qrels) + 3) // 4, False)):
            built.clear()
            index = QrelsIndex.build(qrels, run_rows=run_rows)
            assert pairs(index) == expected
            assert built == [4 if run_side else len(qrels)]  # run side: its judged rows
        clash = run.docno_fingerprints.copy()
        clash[1] = clash[0]  # two docnos of topic 1 with one fingerprint: the qrels' tables
        built.clear()
        index = QrelsIndex.build(qrels, run_rows=0)
        assert pairs(index, clash) is not None and built == [4, len(qrels)]


def test_tables_dropped_once_the_runs_served_are_looked_up():
    """An index built for runs of N rows drops its qrels tables once N rows were looked up
    (a further lookup builds them again, with the same result); a shared index keeps them."""
    qrels = _qrels_of()
    rows = [("1", d, 1.0, 1) for d in ("d1", "d3", "zz")] + [("2", "d2", 0.5, 1)]
    run = _run_of(rows)
    block_topic = arrow_columns.index_in(run.topic_blocks.heads.to_arrow(),
                                         QrelsIndex.build(qrels).topic_array)

    def pairs(index):
        found = index.hits(run.docno_fingerprints, run.topic_blocks, block_topic)
        return sorted(zip(*found, strict=True))

    shared = QrelsIndex.build(qrels)
    expected = pairs(shared)
    assert expected and "tables" in shared.__dict__
    index = QrelsIndex.build(qrels, run_rows=2 * len(run))  # two runs of this size
    assert pairs(index) == expected and "tables" in index.__dict__
    assert pairs(index) == expected and "tables" not in index.__dict__
    assert pairs(index) == expected  # built again


def test_fingerprint_tables_fall_back_to_exact_lookups():
    """Two judged docnos of a topic with one fingerprint: no tables, the exact index."""
    same = dict.fromkeys(_DOCS, 42)
    assert QrelsIndex.build(_qrels_of(same)).tables is None
    distinct = {d: i * 0x9E3779B97F4A7C15 % (1 << 64) for i, d in enumerate(_DOCS)}
    assert QrelsIndex.build(_qrels_of(distinct)).tables is not None
    rows = [("1", d, 1.0, 1) for d in ("d1", "D1", "x", "")] + [("10", "d1", 0.5, 1)]
    _check_against_oracle(_qrels_of(same), _run_of(rows, same), rows, RankingOptions())
    # a run docno matching a judged fingerprint but not its string
    clash = dict(distinct, x=distinct["d1"])
    _check_against_oracle(_qrels_of(distinct), _run_of(rows, clash), rows, RankingOptions())


def test_empty_run_has_no_rankings():
    empty = Run(name="e", topic=pa.chunked_array([], pa.string()),
                docno=pa.chunked_array([], pa.string()), score=np.empty(0))
    jr = build_judged_rankings(QRELS, [empty])
    assert jr.n_rankings == 0 and len(jr.rel) == 0 and jr.unjudged_topics == ((),)


#: Docnos that share long prefixes, end in NULs, hold multi-byte characters and reach past
#: 8 bytes after the prefix, or not.
DOCNOS = st.builds(lambda prefix, rest: prefix + rest,
                   st.sampled_from(["", "clueweb12-0010tw-", "abcdefgh", "a"]),
                   st.text("ab\x00\x01z\xff\u20ac", min_size=1, max_size=12))


def _sorted_as_pyarrow(docnos, group):
    import pyarrow.compute as pc

    table = pa.table({"g": pa.array(group), "d": pa.array(docnos, pa.string())})
    return pc.sort_indices(
        table, sort_keys=[("g", "ascending"), ("d", "descending")]).to_numpy().tolist()


@given(st.lists(st.lists(DOCNOS, min_size=1, max_size=6, unique=True), min_size=1,
                max_size=8),
       st.integers(0, 3), st.integers(1, 3), st.booleans())
def test_ties_sorted_by_docno_keys_as_by_the_strings(groups, others, n_chunks, any_share):
    """The tied rows of a run tied throughout are sorted by (group, docno descending) on
    8-byte keys past the docnos' shared prefix, rows with equal keys again as strings,
    exactly as pyarrow sorts the strings, however uneven the groups, long the prefixes or
    chunked the column; too few tied rows, a docno with no byte past the prefix (or NULs
    only) or too many equal keys leave it to pyarrow (``None``), never short docnos."""
    docnos = [d for group in groups for d in group] + [f"o{k}" for k in range(others)]
    group = np.repeat(np.arange(len(groups)) * 2, [len(g) for g in groups])
    rows = np.arange(len(group))
    cuts = np.linspace(0, len(docnos), n_chunks + 1).astype(int)
    whole = pa.array(docnos, pa.string())  # chunks as slices of one array: offsets not 0
    column = pa.chunked_array([whole.slice(a, b - a) for a, b in pairwise(cuts)],
                              pa.string())
    # any_share: rows tied on their keys sorted again however many (the limit lifted)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranking_module, "_RESORTED_SHARE", 1 if any_share else 8)
        got = ranking_module._by_docno_keys(column, rows, group)
    if got is not None:
        assert got.tolist() == _sorted_as_pyarrow(docnos[:len(rows)], group)
    no_nul = not any("\x00" in d for d in docnos)
    short = max(len(d.encode()) for d in docnos) <= 8
    if 4 * len(rows) >= len(docnos) and no_nul and (short or any_share):
        assert got is not None
    if 4 * len(rows) < len(docnos):
        assert got is None
    for special in (["", "a"], ["\x00", "a", "b"]):
        column = pa.chunked_array([pa.array(special)])
        group = np.zeros(len(special), int)
        assert ranking_module._by_docno_keys(column, np.arange(len(special)), group) is None


def test_clueweb_docnos_tied_in_groups_sorted_by_keys_past_their_prefix():
    """ClueWeb docnos (``clueweb12-`` shared, 15 bytes after it) tied in groups: sorted on
    their keys, the few rows whose first 8 bytes past the prefix agree again as strings."""
    rng = np.random.default_rng(5)
    docnos = [f"clueweb12-{s:04d}tw-{a:02d}-{b:05d}" for s, a, b in
              zip(rng.integers(0, 40, 4000), rng.integers(0, 99, 4000),
                  rng.integers(0, 99999, 4000), strict=True)]
    docnos = list(dict.fromkeys(docnos))
    group = np.sort(rng.integers(0, 60, len(docnos)))
    column = pa.chunked_array([pa.array(docnos[:1500]), pa.array(docnos[1500:])])
    got = ranking_module._by_docno_keys(column, np.arange(len(docnos)), group)
    assert got is not None
    assert got.tolist() == _sorted_as_pyarrow(docnos, group)


@given(st.lists(st.lists(st.integers(-3, 3), min_size=1, max_size=40), min_size=1,
                max_size=12),
       st.sampled_from(["quicksort", "stable"]), st.booleans(), st.booleans(),
       st.sampled_from([1, 7, 1 << 17]))
def test_segments_sorted_side_by_side_as_one_by_one(segments, kind, floats, descending,
                                                    piece):
    """Every segment sorted on its own, in place, whether the segments fit one padded
    matrix or are grouped by length into several, and however few elements are sorted at
    once; the stable sort keeps equal values in their order, values equal to the padding
    (the type's largest) included; ``descending`` sorts floats by their negation."""
    values = np.concatenate([np.array(v, dtype=np.int64) for v in segments])
    descending = descending and floats
    if floats:
        values = values.astype(np.float64)
        if kind == "stable":
            values[values == (-3 if descending else 3)] = -np.inf if descending else np.inf
    else:
        values = (values + 3).astype(np.uint64)
        if kind == "stable":
            values[values == 6] = np.iinfo(np.uint64).max
    lengths = np.array([len(v) for v in segments])
    starts = np.cumsum(lengths) - lengths
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(segments_module, "_SORT_PIECE", piece)
        got = segment_argsort(values, np.append(starts, len(values)), kind,
                              descending=descending)
    sorted_as = -values if descending else values
    for start, length in zip(starts.tolist(), lengths.tolist(), strict=True):
        mine = got[start: start + length]
        expected = start + np.argsort(sorted_as[start: start + length], kind="stable")
        if kind == "stable":
            assert mine.tolist() == expected.tolist()
        else:
            assert sorted(mine.tolist()) == list(range(start, start + length))
            assert values[mine].tolist() == values[expected].tolist()


@given(st.lists(st.lists(st.sampled_from([0, 1, 2, 0xFFFF_FFFE, 0xFFFF_FFFF]), min_size=1,
                         max_size=40), min_size=1, max_size=12),
       st.sampled_from([1, 7, 1 << 17]))
def test_segments_sorted_by_keys_as_by_a_stable_argsort(segments, piece):
    """:func:`segment_sort_keys` gives each segment's stable argsort (keys equal to the
    padding's high word included), in place, and the keys in that order, however the
    segments are laid out and however few elements are sorted at once."""
    values = np.concatenate([np.array(v, dtype=np.int64) for v in segments])
    lengths = np.array([len(v) for v in segments])
    starts = np.cumsum(lengths) - lengths
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(segments_module, "_SORT_PIECE", piece)
        order, ordered = segment_sort_keys(values, np.append(starts, len(values)),
                                           lambda taken: taken.astype(np.uint32))
    expected = np.concatenate([start + np.argsort(values[start: start + length],
                                                  kind="stable")
                               for start, length in zip(starts, lengths, strict=True)])
    assert order.tolist() == expected.tolist()
    assert ordered.tolist() == values[expected].tolist()


@given(st.lists(st.one_of(st.floats(allow_nan=False), st.sampled_from(
    [0.0, -0.0, 1e-46, -1e-46, 1e39, -1e39, 1.0, 1.0 + 1e-12])), min_size=2, max_size=30))
def test_c_float_rank_keys_order_scores_as_trec_eval(scores):
    """Keys ascending exactly where the scores as C floats descend, and equal exactly where
    those floats are equal (signed zeros, scores rounded to 0 or ±inf alike)."""
    scores = np.array(scores)
    keys = c_float_rank_keys(scores).astype(np.int64)
    single = as_c_float(scores)
    assert ((keys[:, None] < keys[None, :]) == (single[:, None] > single[None, :])).all()
    assert ((keys[:, None] == keys[None, :]) == (single[:, None] == single[None, :])).all()


@given(st.lists(st.tuples(st.sampled_from(["t1", "t2", "t10", "x"]),
                          st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1000])),
                min_size=1, max_size=40), st.sampled_from((1, 3, 1 << 18)))
def test_qrels_index_counts_every_topics_levels(rows, chunk):
    """The relevance-level counts of a qrels index (by block below 9 levels, by key
    otherwise; topics in several blocks; negative degrees not counted; blocks counted in
    pieces of ``chunk`` rows) equal a count of the rows, level by level, in the index's
    level layout, which is dense exactly when :func:`dense_layout` says so."""
    import pandas as pd

    frame = pd.DataFrame({"query_id": [t for t, _ in rows],
                          "doc_id": [f"d{k}" for k in range(len(rows))],
                          "relevance": [r for _, r in rows]})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(qrels_index, "_CHUNK_ROWS", chunk)
        index = QrelsIndex.build(qrels_from_frame(frame))
    judged = np.array(sorted({r for _, r in rows if r >= 0}), dtype=np.int64)
    assert (index.degrees is None) == qrels_index.dense_layout(judged)
    degrees = (np.arange(index.rel_levels.shape[1]) if index.degrees is None
               else index.degrees)
    expected = np.zeros_like(index.rel_levels)
    for topic, rel in rows:
        if rel >= 0:
            expected[index.topics.index(topic), int(np.flatnonzero(degrees == rel)[0])] += 1
    np.testing.assert_array_equal(index.rel_levels, expected)


@pytest.mark.parametrize("compat", [8, 11, True, 9.0, "10"])
def test_ranking_options_and_evaluate_refuse_an_unknown_profile(compat):
    with pytest.raises(ParameterError, match="compat must be 9 or 10"):
        RankingOptions(compat=compat)
    with pytest.raises(ParameterError, match="compat must be 9 or 10"):
        irscale.evaluate({"1": {"a": 1}}, {"1": {"a": 1.0}}, "map", compat=compat)


@given(st.lists(st.integers(0, 2**40), max_size=300), st.sampled_from((1, 2, 8, 16, 17, 32, 33)))
def test_stable_order_is_a_stable_sort_of_the_codes(values, bits):
    """Codes below 2^8, 2^16, 2^32 and beyond (one or two radix passes, or a plain stable
    sort) come in the order of numpy's stable argsort."""
    codes = np.array(values, dtype=np.int64) % (1 << bits)
    np.testing.assert_array_equal(stable_order(codes, 1 << bits),
                                  np.argsort(codes, kind="stable"))


@given(st.lists(st.sampled_from(["1", "10", "2", "B", "u", "abcdefghij", "abcdefghik"]),
                min_size=1, max_size=60),
       st.integers(0, 40))
def test_blocks_encode_their_values_alike_whether_they_repeat_early_or_not(values, head):
    """Blocks whose values recur among the first blocks are dictionary-encoded, others
    sorted by their short keys (when at most 8 bytes): either way :attr:`contiguous`, the
    sorted codes and the value codes describe the values exactly."""
    blocks = TopicBlocks.of(pa.chunked_array([pa.array(values, pa.string())]))
    heads = blocks.heads.to_pylist()
    distinct = sorted(set(heads), key=lambda v: v.encode())
    assert blocks.contiguous == (len(distinct) == len(heads))
    sorted_values, codes = sorted_codes(blocks)
    assert sorted_values.to_pylist() == distinct
    assert codes.tolist() == [distinct.index(v) for v in heads]
    value_codes = blocks.value_codes().tolist()
    assert all((value_codes[i] == value_codes[j]) == (heads[i] == heads[j])
               for i in range(len(heads)) for j in range(min(len(heads), head)))
