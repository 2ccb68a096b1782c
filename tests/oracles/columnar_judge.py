"""The numpy/pyarrow judge of ``Qrels`` and ``Run`` objects that the native engine
(``rust/src/columns.rs``) replaced, kept as its oracle (``tests/test_core_judge_oracle.py``).

Judging runs against qrels: the batch of judged rankings of every (run, topic) pair.

:func:`build_judged_rankings` indexes the qrels once
(:class:`~irscale.core._columnar.qrels_index.QrelsIndex`), ranks every run
(:func:`~tests.oracles.columnar_ranking.rank_order`), looks its documents up in the index
(:func:`_judgments`: by fingerprint, confirmed on the strings) and stacks the rankings into
one :class:`~irscale.core.judged.JudgedRankings`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from irscale.core.inputs import Qrels, Run
from irscale.core.judged import NONPOOL, UNJUDGED, JudgedRankings
from irscale.core.options import RankingOptions
from irscale.errors import InputError
from irscale.parallel.threads import map_threads

from .arrow_columns import arrow_column, index_in, key_prefix, short_keys
from .columnar_ranking import rank_order
from .qrels_index import QrelsIndex

_CHUNK_ROWS = 1 << 20
#: Pairs of docnos compared at once by :func:`_same_docnos`.
_PAIRS = 1 << 18


def index_in_sorted(values: pa.Array | pa.ChunkedArray, value_set: pa.Array) -> np.ndarray:
    """:func:`index_in` for a ``value_set`` of distinct strings in byte order (the topics
    of an index).

    When the set's strings are at most 8 bytes long past a prefix they all share (topic
    ids: ``1`` … ``100000``, ``msmarco-q1`` …, :func:`key_prefix`), every string is read as
    its next 8 bytes zero-padded to a big-endian 64-bit integer, whose order is the strings'
    byte order, and found by binary search: a million topics in 0.05-0.1 s, against 0.3 s
    for the hash lookup. A key and a length are the string (the padding adds no byte); a
    value without the prefix is not in the set. A set with a longer string, or two with one
    key (ending in NUL bytes), or not in order is looked up by hash.
    """
    prefix = key_prefix(value_set) if len(value_set) else None
    if prefix is None:
        return index_in(values, value_set)
    skip = len(prefix.encode())
    set_key, set_length = short_keys(value_set, skip)
    if not bool(np.all(set_key[1:] > set_key[:-1])):
        return index_in(values, value_set)
    key, length = short_keys(values, skip)
    place = np.minimum(np.searchsorted(set_key, key), len(set_key) - 1)
    found = (set_key[place] == key) & (set_length[place] == length)
    if prefix:
        found &= np.asarray(pc.starts_with(values, prefix))
    return np.where(found, place, -1)


def _judgments(index: QrelsIndex, run: Run, block_topic: np.ndarray) -> np.ndarray:
    """Relevance degree of every row of the run in file order (NONPOOL, UNJUDGED sentinels),
    in the integer type of ``index.degree``.

    ``block_topic`` is the topic code of every block of ``run.topic_blocks`` (-1: a topic
    without judgments).
    """
    rel = np.full(len(run), NONPOOL, dtype=index.degree.dtype)
    if len(run) == 0:
        return rel
    blocks = run.topic_blocks
    found = index.hits(run.docno_fingerprints, blocks, block_topic)
    if found is not None:
        rows, qrels_rows = found
        # equal fingerprints are only candidates: the docno strings must be equal too
        if _same_docnos(arrow_column(run.docno), rows, arrow_column(index.qrels.docno),
                        qrels_rows):
            rel[rows] = index.degree[qrels_rows]
            return rel
    exact = index.exact  # fingerprints cannot decide: the exact dictionary lookup
    topic_code = blocks.expand(block_topic)
    doc_code = index_in(arrow_column(run.docno), exact.docs)
    in_pool = (doc_code >= 0) & (topic_code >= 0)
    if in_pool.any() and len(exact.keys):
        keys = topic_code[in_pool] * exact.n_docs + doc_code[in_pool]
        slot = np.minimum(np.searchsorted(exact.keys, keys), len(exact.keys) - 1)
        found = exact.keys[slot] == keys
        degree = exact.key_rel[slot]
        rel[in_pool] = np.where(found, np.where(degree < 0, UNJUDGED, degree), NONPOOL)
    return rel


def _same_docnos(docno: pa.ChunkedArray, rows: np.ndarray, other: pa.ChunkedArray,
                 other_rows: np.ndarray) -> bool:
    """Whether ``docno[rows]`` equals ``other[other_rows]`` pair by pair, compared in pieces
    of :data:`_PAIRS` pairs shared out between the usable cores (10M run rows, 1M
    pairs: 0.05 -> 0.03 s on 2 cores)."""
    def same(start: int) -> bool:
        piece = slice(start, start + _PAIRS)
        return bool(pc.all(pc.equal(docno.take(pa.array(rows[piece])),
                                    other.take(pa.array(other_rows[piece])))).as_py())

    return all(map_threads(same, range(0, len(rows), _PAIRS)))


def _in_order(degree: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``degree[order]`` as int64, gathered :data:`_CHUNK_ROWS` at a time, the chunks shared
    out between the usable cores: no temporary of the result's length in ``degree``'s
    (small) type beside it. (``np.take``: indexing by int32 positions would first copy them
    to int64.)"""
    rel = np.empty(len(order), dtype=np.int64)

    def gather(start: int) -> None:
        # positions as intp: numpy 1.x's take refuses uint64 ones
        where = order[start: start + _CHUNK_ROWS].astype(np.intp, copy=False)
        rel[start: start + _CHUNK_ROWS] = np.take(degree, where)

    map_threads(gather, range(0, len(order), _CHUNK_ROWS))
    return rel


def judge_run(
    index: QrelsIndex, run: Run, options: RankingOptions
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """Judged rankings of one run: (rel, per-topic lengths, topic codes, unjudged topics).

    Only topics with judgments are ranked; the others are returned by name. Tied documents
    that carry one judgment are not put in docno order (``rank_order``'s ``labels``): their
    judgments in ranking order are the same either way.
    """
    rel, counts, present, unjudged, _ = judge_run_rows(index, run, options, every_row=False)
    return rel, counts, present, unjudged


def judge_run_rows(
    index: QrelsIndex, run: Run, options: RankingOptions, *, every_row: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...], np.ndarray]:
    """:func:`judge_run` plus the run's row of every ranked document (for per-document
    lookups such as :func:`irscale.core.labels.attach_labels`): each row in its place in
    trec_eval's order, unless ``every_row`` is false (tied rows of one judgment may then be
    in file order; the judgments are the same)."""
    blocks = run.topic_blocks
    heads = arrow_column(blocks.heads)
    block_topic = index_in_sorted(heads, index.topic_array)
    absent = block_topic < 0
    unjudged: tuple[str, ...] = ()
    if absent.any():
        absent_topics = pc.filter(heads, pa.array(absent))
        unjudged = tuple(sorted(pc.unique(absent_topics).to_pylist()))
    judgments = _judgments(index, run, block_topic)
    order = rank_order(run, block_topic, options.ties, single=options.compat == 9,
                       labels=None if every_row else judgments)
    n_topics = len(index.topics)
    counts = np.bincount(
        block_topic[~absent], weights=blocks.lengths[~absent], minlength=n_topics
    ).astype(np.int64)
    present = np.flatnonzero(counts)
    if options.max_docs is not None:
        starts = np.cumsum(counts) - counts
        keep = np.arange(len(order)) - np.repeat(starts, counts) < options.max_docs
        order = order[keep]
        counts = np.minimum(counts, options.max_docs)
    rel = _in_order(judgments, order)
    if options.judged_only:
        keep = rel >= 0
        rel, order = rel[keep], order[keep]
        counts = np.bincount(np.repeat(np.arange(n_topics), counts)[keep], minlength=n_topics)
    return rel, counts[present], present, unjudged, order


def build_judged_rankings(
    qrels: Qrels,
    runs: Sequence[Run],
    options: RankingOptions | None = None,
    *,
    placeholders: bool = False,
    index: QrelsIndex | None = None,
) -> JudgedRankings:
    """Judge every run against the qrels and stack the rankings into one batch.

    Rankings are ordered run by run, and within a run by topic id in byte order (the
    order trec_eval prints them in). With ``placeholders`` (trec_eval 10's ``-c``), each
    judged topic a run did not retrieve anything for gets a one-document ranking of a
    non-pooled document (an empty ranking with ``judged_only``: ``-J`` removes it), flagged
    in ``JudgedRankings.placeholder``. ``index``: the qrels' index when it was built
    already (one for many batches of runs); built here otherwise.
    """
    options = options or RankingOptions()
    if not runs:
        raise InputError("no run to evaluate")
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise InputError(f"runs must have distinct names, got {names}")
    if index is None:  # serves these runs only
        index = QrelsIndex.build(qrels, run_rows=sum(len(run) for run in runs))
    rel_parts, length_parts, topic_parts, run_parts, flag_parts = [], [], [], [], []
    unjudged_per_run = []
    for run_index, run in enumerate(runs):
        rel, lengths, present, unjudged = judge_run(index, run, options)
        unjudged_per_run.append(unjudged)
        flags = np.zeros(len(present), dtype=bool)
        if placeholders:
            absent_topics = np.ones(len(index.topics), dtype=bool)
            absent_topics[present] = False
            missing = np.flatnonzero(absent_topics)  # np.setdiff1d, without numpy.ma
            if len(missing):
                starts = np.concatenate(([0], np.cumsum(lengths)))
                pieces = np.split(rel, starts[1:-1]) if len(present) else []
                by_topic = dict(zip(present.tolist(), pieces, strict=True))
                # its document is in no qrels: -J removes it as every unjudged one, and
                # the ranking is empty (trec_eval 10.0, rust/src/judge.rs)
                placeholder = [] if options.judged_only else [NONPOOL]
                for topic in missing.tolist():
                    by_topic[topic] = np.array(placeholder, dtype=np.int64)
                present = np.array(sorted(by_topic), dtype=np.int64)
                flags = np.isin(present, missing)
                rel = np.concatenate([by_topic[t] for t in present.tolist()])
                lengths = np.array([len(by_topic[t]) for t in present.tolist()])
        rel_parts.append(rel)
        length_parts.append(lengths)
        topic_parts.append(present)
        run_parts.append(np.full(len(present), run_index, dtype=np.int64))
        flag_parts.append(flags)
    lengths = np.concatenate(length_parts).astype(np.int64)
    ranking_topic = np.concatenate(topic_parts).astype(np.int64)
    pa.default_memory_pool().release_unused()  # sorting and lookups are done: free their memory
    return JudgedRankings(
        rel=rel_parts[0] if len(rel_parts) == 1 else np.concatenate(rel_parts),
        offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        rel_levels=index.rel_levels[ranking_topic],
        degrees=index.degrees,
        ranking_topic=ranking_topic,
        ranking_run=np.concatenate(run_parts),
        topics=index.topics,
        runs=tuple(names),
        relevance_level=options.relevance_level,
        placeholder=np.concatenate(flag_parts) if placeholders else None,
        unjudged_topics=tuple(unjudged_per_run),
    )


def judged_rows(qrels: Qrels, run: Run, options: RankingOptions) -> np.ndarray:
    """The run's row of every judged document, in the order of its rankings."""
    return judge_run_rows(QrelsIndex.build(qrels), run, options)[4]
