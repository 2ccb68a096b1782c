"""Judging runs against qrels: the batch of judged rankings of every (run, topic) pair.

:func:`build_judged_rankings` indexes the qrels once
(:class:`~irscale.core._columnar.qrels_index.QrelsIndex`), ranks every run
(:func:`~irscale.core.ranking.rank_order`), looks its documents up in the index
(:func:`_judgments`: by fingerprint, confirmed on the strings) and stacks the rankings into
one :class:`~irscale.core.judged.JudgedRankings`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from ..errors import InputError
from ..parallel.threads import map_threads
from ._columnar import arrow
from ._columnar import arrow_compute as pc
from ._columnar.blocks import take_rows
from ._columnar.qrels_index import QrelsIndex
from .inputs import Qrels, Run
from .judged import NONPOOL, UNJUDGED, JudgedRankings
from .options import RankingOptions
from .ranking import rank_order

_CHUNK_ROWS = 1 << 20
#: Pairs of docnos compared at once by :func:`_same_docnos`.
_PAIRS = 1 << 18


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
        if _same_docnos(run.docno, rows, index.qrels.docno, qrels_rows):
            rel[rows] = index.degree[qrels_rows]
            return rel
    exact = index.exact  # fingerprints cannot decide: the exact dictionary lookup
    topic_code = blocks.expand(block_topic)
    doc_code = arrow.index_in(run.docno, exact.docs)
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
        return bool(pc.all(pc.equal(take_rows(docno, rows[piece]),
                                    take_rows(other, other_rows[piece]))).as_py())

    return all(map_threads(same, range(0, len(rows), _PAIRS)))


def _in_order(degree: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``degree[order]`` as int64, gathered :data:`_CHUNK_ROWS` at a time, the chunks shared
    out between the usable cores: no temporary of the result's length in ``degree``'s
    (small) type beside it. (``np.take``: indexing by int32 positions would first copy them
    to int64.)"""
    rel = np.empty(len(order), dtype=np.int64)

    def gather(start: int) -> None:
        rel[start: start + _CHUNK_ROWS] = np.take(degree, order[start: start + _CHUNK_ROWS])

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
    block_topic = arrow.index_in_sorted(blocks.heads, index.topic_array)
    absent = block_topic < 0
    unjudged: tuple[str, ...] = ()
    if absent.any():
        absent_topics = pc.filter(blocks.heads, arrow.array(absent))
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
    non-pooled document, flagged in ``JudgedRankings.placeholder``. ``index``: the qrels'
    index when it was built already (one for many batches of runs); built here otherwise.
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
                for topic in missing.tolist():
                    by_topic[topic] = np.array([NONPOOL], dtype=np.int64)
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


class PairJudge:
    """Qrels indexed once, to judge (topic, docno) pairs that are not runs ranked topic by
    topic: the documents of sessions, the candidates of a pool.

    Topics are numbered by their place in :attr:`topics` (byte order; -1: no judgments),
    as :class:`~irscale.core.judged.JudgedRankings` numbers the columns of its recall
    bases (:meth:`rel_levels`, :attr:`degrees`).
    """

    def __init__(self, qrels: Qrels) -> None:
        self._index = QrelsIndex.build(qrels)

    @property
    def topics(self) -> tuple[str, ...]:
        """The judged topics, in byte order."""
        return self._index.topics

    @property
    def degrees(self) -> np.ndarray | None:
        """The degree counted by each column of :meth:`rel_levels` (``None``: column g
        counts degree g), as :attr:`JudgedRankings.degrees`."""
        return self._index.degrees

    def rel_levels(self, topic_code: np.ndarray) -> np.ndarray:
        """The judged documents of each topic by degree column (one row per code)."""
        return self._index.rel_levels[topic_code]

    def topic_codes(self, topics: Sequence[str]) -> np.ndarray:
        """The code (int64) of every topic id, -1 for a topic without judgments."""
        return arrow.index_in(arrow.strings(topics), self._index.topic_array)

    def degrees_of(self, topic_code: np.ndarray, docnos: pa.Array | pa.ChunkedArray,
                   doc: np.ndarray | None = None) -> np.ndarray:
        """The relevance degree (int64) of every pair (``topic_code[i]``, ``docnos[doc[i]]``)
        (``doc`` ``None``: ``docnos[i]``): the qrels' degree, ``UNJUDGED`` for a negative
        one, ``NONPOOL`` for a pair not in the qrels (or a topic code -1)."""
        exact = self._index.exact
        in_qrels = arrow.index_in(docnos, exact.docs)
        if doc is not None:
            in_qrels = in_qrels[doc]
        key = topic_code * exact.n_docs
        key += in_qrels
        key[(in_qrels < 0) | (topic_code < 0)] = -1  # matches no key
        del in_qrels
        if not len(exact.keys):
            return np.full(len(key), NONPOOL, dtype=np.int64)
        slot = np.searchsorted(exact.keys, key)
        np.minimum(slot, len(exact.keys) - 1, out=slot)
        hit = exact.keys[slot] == key
        del key
        rel = np.asarray(exact.key_rel[slot], dtype=np.int64)
        rel[rel < 0] = UNJUDGED
        rel[~hit] = NONPOOL
        return rel
