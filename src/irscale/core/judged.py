"""Judged rankings: the common currency of every measure.

A judged ranking is the vector of relevance degrees of the documents a system retrieved
for one topic, in rank order, together with the topic's context (how many judged
documents it has at each relevance degree). :class:`JudgedRankings` holds a whole batch of
them (every evaluated (run, topic) pair) in CSR form, built once per (qrels, runs):

* ``rel``: flat int64 array of relevance values, ranking after ranking, with trec_eval's
  sentinels: ``NONPOOL = -1`` (document not in the qrels) and ``UNJUDGED = -2`` (in the
  qrels with a negative degree, i.e. pooled but not judged);
* ``offsets``: ranking ``i`` is ``rel[offsets[i]:offsets[i + 1]]``;
* ``rel_levels[i, g]``: number of documents judged with degree ``g`` (``g ≥ 0``) for the
  topic of ranking ``i`` — the recall base per level, from which ideal rankings follow.

Measure kernels are functions of a :class:`JudgedRankings` only, vectorised over the batch.
The same structure is fed with synthetic rankings by the interval-scale engine.

Ranking follows trec_eval 9.0.8 (``form_res_rels.c``): documents are sorted by score
descending, ties broken by docno descending in byte order; ``max_docs`` (``-M``) keeps the
first documents of that order; ``judged_only`` (``-J``) then removes documents that are not
judged (keeping the order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputError, ParameterError
from .inputs import Qrels, Run, grouped_codes, string_fingerprints
from .segments import ScanLayout, segment_cumsum, segment_sum

NONPOOL = -1
UNJUDGED = -2

#: How documents with equal scores are ordered.
#: ``trec_eval``: docno descending (byte order), as trec_eval; ``file-order``: the order of
#: the run file (as NTCIREVAL and cwl_eval); ``rank-column``: by the file's rank column
#: (ascending) instead of the score, ties in file order.
TiePolicy = Literal["trec_eval", "file-order", "rank-column"]
TIE_POLICIES: tuple[str, ...] = ("trec_eval", "file-order", "rank-column")


@dataclass(frozen=True, eq=False)
class JudgedRankings:
    """A batch of judged rankings (see the module documentation)."""

    rel: np.ndarray
    offsets: np.ndarray
    rel_levels: np.ndarray
    ranking_topic: np.ndarray
    ranking_run: np.ndarray
    topics: tuple[str, ...]
    runs: tuple[str, ...]
    relevance_level: int = 1
    #: Rankings standing for a topic the run did not retrieve anything for (trec_eval 10's
    #: ``-c`` evaluates such a topic on one non-pooled "bogus" document).
    placeholder: np.ndarray | None = None
    #: Per run: the topics the run retrieved documents for that have no judgments.
    unjudged_topics: tuple[tuple[str, ...], ...] = field(default=())
    #: Per-document values aligned with ``rel`` (e.g. understandability labels, document
    #: lengths, click probabilities; NaN where a document has none), by name. Views
    #: (:meth:`truncate`, :meth:`condensed`) keep them aligned.
    attributes: tuple[tuple[str, np.ndarray], ...] = field(default=())

    def __post_init__(self) -> None:
        n = len(self.offsets) - 1
        if n < 0 or self.offsets[0] != 0 or self.offsets[-1] != len(self.rel):
            raise InputError("inconsistent judged-ranking offsets")
        if self.rel_levels.shape[0] != n or len(self.ranking_topic) != n:
            raise InputError("inconsistent judged-ranking context arrays")

    # ------------------------------------------------------------ sizes and positions
    @property
    def n_rankings(self) -> int:
        return len(self.offsets) - 1

    @cached_property
    def lengths(self) -> np.ndarray:
        """Number of retrieved documents of each ranking (``num_ret``)."""
        return np.diff(self.offsets)

    @cached_property
    def segment(self) -> np.ndarray:
        """Ranking index of every element of ``rel``."""
        return np.repeat(np.arange(self.n_rankings), self.lengths)

    @cached_property
    def rank(self) -> np.ndarray:
        """1-based rank of every element of ``rel`` within its ranking."""
        return np.arange(1, len(self.rel) + 1) - np.repeat(self.offsets[:-1], self.lengths)

    # ------------------------------------------------------------ relevance context
    @cached_property
    def is_relevant(self) -> np.ndarray:
        """Boolean per element: relevance degree ≥ the relevance level."""
        return self.rel >= self.relevance_level

    @cached_property
    def is_judged(self) -> np.ndarray:
        """Boolean per element: the document was judged (degree ≥ 0)."""
        return self.rel >= 0

    @cached_property
    def scan_layout(self) -> ScanLayout:
        """Block layout of the batch for in-order scans (:func:`segment_scan`)."""
        return ScanLayout.of(self.offsets)

    @cached_property
    def cum_relevant(self) -> np.ndarray:
        """Number of relevant documents at or above each element, within its ranking."""
        return segment_cumsum(self.is_relevant.astype(np.int64), self.offsets)

    @cached_property
    def num_rel(self) -> np.ndarray:
        """Recall base R of each ranking's topic: judged documents with degree ≥ level."""
        level = max(self.relevance_level, 0)
        return self.rel_levels[:, level:].sum(axis=1)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """Judged non-relevant documents of each ranking's topic (0 ≤ degree < level)."""
        level = min(max(self.relevance_level, 0), self.rel_levels.shape[1])
        return self.rel_levels[:, :level].sum(axis=1)

    @cached_property
    def num_rel_ret(self) -> np.ndarray:
        """Relevant judged documents retrieved by each ranking (form_res_rels' num_rel_ret).

        Only judged documents count, as in trec_eval: with a relevance level ≤ -1 a document
        outside the qrels passes ``is_relevant`` but is never counted here.
        """
        counted = np.flatnonzero(self.rel >= max(self.relevance_level, 0))
        ranking = np.searchsorted(self.offsets, counted, side="right") - 1
        return np.bincount(ranking, minlength=self.n_rankings)

    def segment_sum(self, values: np.ndarray) -> np.ndarray:
        """Sum of per-element ``values`` over each ranking (floats added in rank order)."""
        return segment_sum(values, self.offsets, self.segment)

    def cut(self, k: int) -> np.ndarray:
        """Boolean per element: rank ≤ k."""
        return self.rank <= k

    # ------------------------------------------------------------ derived batches
    def with_level(self, relevance_level: int) -> JudgedRankings:
        """The same rankings judged with another minimum relevant degree (``-l``)."""
        if relevance_level == self.relevance_level:
            return self
        return replace(self, relevance_level=relevance_level)

    def truncate(self, depth: int) -> JudgedRankings:
        """The rankings cut after their first ``depth`` documents (the recall base is kept)."""
        if depth < 0:
            raise ParameterError(f"truncation depth must be ≥ 0, got {depth}")
        if depth >= int(self.lengths.max(initial=0)):
            return self
        return self._subset(self.rank <= depth)

    def condensed(self) -> JudgedRankings:
        """The condensed rankings: unjudged documents removed, the others moved up (Sakai's
        condensed lists, seed 001 §2.2; trec_eval's ``-J``)."""
        judged = self.is_judged
        return self if judged.all() else self._subset(judged)

    def _subset(self, keep: np.ndarray) -> JudgedRankings:
        """The rankings reduced to the documents flagged in ``keep`` (order kept)."""
        lengths = np.bincount(self.segment[keep], minlength=self.n_rankings)
        return replace(
            self,
            rel=self.rel[keep],
            offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
            attributes=tuple((name, values[keep]) for name, values in self.attributes),
        )

    def attribute(self, name: str) -> np.ndarray:
        """The per-document values named ``name`` (KeyError listing the available names)."""
        for key, values in self.attributes:
            if key == name:
                return values
        available = ", ".join(key for key, _ in self.attributes) or "none"
        raise KeyError(f"no per-document values named {name!r} (available: {available})")

    def with_attributes(self, **values: np.ndarray) -> JudgedRankings:
        """The same rankings with per-document values added (or replaced), by name."""
        for name, array in values.items():
            if len(array) != len(self.rel):
                raise InputError(f"attribute {name!r} has {len(array)} values for "
                                 f"{len(self.rel)} documents")
        kept = tuple((k, v) for k, v in self.attributes if k not in values)
        added = tuple((k, np.asarray(v, dtype=np.float64)) for k, v in values.items())
        return replace(self, attributes=kept + added)

    # ------------------------------------------------------------ labels
    @property
    def topic_labels(self) -> np.ndarray:
        """Topic id of every ranking."""
        return np.asarray(self.topics, dtype=object)[self.ranking_topic]

    @property
    def run_labels(self) -> np.ndarray:
        """Run name of every ranking."""
        return np.asarray(self.runs, dtype=object)[self.ranking_run]

    def __repr__(self) -> str:
        return (
            f"JudgedRankings({self.n_rankings} rankings, {len(self.rel)} documents, "
            f"{len(self.runs)} runs, relevance_level={self.relevance_level})"
        )


# ====================================================================== building
@dataclass(frozen=True, eq=False)
class QrelsIndex:
    """Qrels prepared for fast lookups, shared by every run evaluated against them.

    A (topic, docno) pair is looked up by a 64-bit key, ``topic code << 40 | 40-bit
    fingerprint of the docno`` (``fp_keys``, sorted), so that no docno string is hashed into
    a dictionary; every match is then confirmed by comparing the strings themselves. When
    fingerprints cannot decide (two judged docnos of a topic share a key, or 2^24 topics
    and more), lookups use the exact dictionary index :attr:`exact` instead.
    """

    topics: tuple[str, ...]
    topic_array: pa.Array
    rel_levels: np.ndarray
    qrels: Qrels
    #: Sorted lookup keys (``None``: fingerprints unusable, see above), the qrels row of
    #: each key and its relevance degree.
    fp_keys: np.ndarray | None
    fp_rows: np.ndarray | None
    fp_rel: np.ndarray | None

    @classmethod
    def build(cls, qrels: Qrels) -> QrelsIndex:
        topic_array = pc.unique(qrels.topic).sort()
        topics = tuple(topic_array.to_pylist())
        topic_code = grouped_codes(qrels.topic, topic_array)
        rel = np.asarray(qrels.rel, dtype=np.int64)
        judged = rel >= 0
        n_levels = int(rel[judged].max(initial=0)) + 1
        rel_levels = np.zeros((len(topics), n_levels), dtype=np.int64)
        np.add.at(rel_levels, (topic_code[judged], rel[judged]), 1)
        fp_keys = fp_rows = fp_rel = None
        if len(topics) < 1 << 24:
            keys = topic_code.astype(np.uint64) << np.uint64(40)
            keys |= string_fingerprints(qrels.docno) >> np.uint64(24)
            order = np.argsort(keys, kind="stable")
            keys = keys[order]
            if not (keys[1:] == keys[:-1]).any():
                fp_keys, fp_rows, fp_rel = keys, order, rel[order]
        return cls(
            topics=topics,
            topic_array=topic_array,
            rel_levels=rel_levels,
            qrels=qrels,
            fp_keys=fp_keys,
            fp_rows=fp_rows,
            fp_rel=fp_rel,
        )

    @cached_property
    def exact(self) -> _ExactIndex:
        """The dictionary-encoded index (docno codes), for when fingerprints cannot decide."""
        qrels = self.qrels
        topic_code = pc.index_in(qrels.topic, value_set=self.topic_array).to_numpy()
        encoded = pc.dictionary_encode(qrels.docno).combine_chunks()
        docs = encoded.dictionary
        doc_code = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        n_docs = max(len(docs), 1)
        keys = topic_code.astype(np.int64) * n_docs + doc_code
        order = np.argsort(keys, kind="stable")
        rel = np.asarray(qrels.rel, dtype=np.int64)
        return _ExactIndex(docs=docs, keys=keys[order], key_rel=rel[order], n_docs=n_docs)


@dataclass(frozen=True, eq=False)
class _ExactIndex:
    docs: pa.Array
    keys: np.ndarray
    key_rel: np.ndarray
    n_docs: int


@dataclass(frozen=True)
class RankingOptions:
    """trec_eval's options that shape the judged rankings."""

    relevance_level: int = 1
    max_docs: int | None = None
    judged_only: bool = False
    ties: TiePolicy = "trec_eval"

    def __post_init__(self) -> None:
        if self.ties not in TIE_POLICIES:
            raise ParameterError(
                f"unknown tie policy {self.ties!r}: use one of {', '.join(TIE_POLICIES)}"
            )
        if self.max_docs is not None and self.max_docs < 0:
            raise ParameterError(f"max_docs must be ≥ 0, got {self.max_docs}")


def rank_order(run: Run, topic_code: np.ndarray, ties: TiePolicy) -> np.ndarray:
    """Row indices of the run sorted by topic code, then in ranking order within a topic."""
    if ties == "trec_eval":
        # trec_eval stores scores as C floats (TEXT_RESULTS.sim is a float): scores equal
        # in single precision tie, and the tie is broken by docno.
        table = pa.table({"t": topic_code, "s": run.score.astype(np.float32), "d": run.docno})
        return pc.sort_indices(
            table, sort_keys=[("t", "ascending"), ("s", "descending"), ("d", "descending")]
        ).to_numpy()
    if ties == "file-order":
        return np.lexsort((-run.score, topic_code))  # lexsort is stable: file order for ties
    if run.rank is None:
        raise ParameterError(
            "the rank-column tie policy needs the run's rank column: "
            "read the run with keep_rank=True"
        )
    return np.lexsort((run.rank, topic_code))


def _codes_in(values: pa.ChunkedArray, value_set: pa.Array) -> np.ndarray:
    """Index of every value in ``value_set`` (-1 when absent), as an int64 numpy array."""
    codes = pc.fill_null(pc.index_in(values, value_set=value_set), -1)
    return np.asarray(codes.to_numpy(), dtype=np.int64)


def _judgments(index: QrelsIndex, run: Run, topic_code: np.ndarray) -> np.ndarray:
    """Relevance degree of every row of the run in file order (NONPOOL, UNJUDGED sentinels).

    ``topic_code`` is each row's topic in ``index.topics`` (-1: a topic without judgments).
    """
    rel = np.full(len(topic_code), NONPOOL, dtype=np.int64)
    if index.fp_keys is not None:
        if len(index.fp_keys) == 0:
            return rel
        # blocks of rows bound the memory of the temporaries on runs of millions of lines
        for start in range(0, len(topic_code), _LOOKUP_BLOCK):
            if not _judge_block(index, run, topic_code, rel, start):
                break
        else:
            return rel
        rel[:] = NONPOOL
    exact = index.exact  # fingerprints cannot decide: the exact dictionary lookup
    doc_code = _codes_in(run.docno, exact.docs)
    in_pool = (doc_code >= 0) & (topic_code >= 0)
    if in_pool.any() and len(exact.keys):
        keys = topic_code[in_pool] * exact.n_docs + doc_code[in_pool]
        slot = np.minimum(np.searchsorted(exact.keys, keys), len(exact.keys) - 1)
        found = exact.keys[slot] == keys
        degree = exact.key_rel[slot]
        rel[in_pool] = np.where(found, np.where(degree < 0, UNJUDGED, degree), NONPOOL)
    return rel


#: Rows looked up at once by :func:`_judge_block`.
_LOOKUP_BLOCK = 1 << 20


def _judge_block(
    index: QrelsIndex, run: Run, topic_code: np.ndarray, rel: np.ndarray, start: int
) -> bool:
    """Fingerprint lookup of rows ``start ..`` (one block) into ``rel``; False if undecided."""
    codes = topic_code[start: start + _LOOKUP_BLOCK]
    keys = codes.astype(np.uint64) << np.uint64(40)  # rows with code -1 are masked below
    fingerprints = run.docno_fingerprints[start: start + len(codes)] >> np.uint64(24)
    keys |= fingerprints
    del fingerprints
    slot = np.searchsorted(index.fp_keys, keys)
    np.minimum(slot, len(index.fp_keys) - 1, out=slot)
    hit = index.fp_keys[slot] == keys
    hit &= codes >= 0
    rows = np.flatnonzero(hit)
    slot = slot[rows]
    if len(rows):
        # equal keys are only candidates: the docno strings must be equal too
        ours = run.docno.take(pa.array(rows + start))
        theirs = index.qrels.docno.take(pa.array(index.fp_rows[slot]))
        if not pc.all(pc.equal(ours, theirs)).as_py():
            return False
    degree = index.fp_rel[slot]
    rel[rows + start] = np.where(degree < 0, UNJUDGED, degree)
    return True


def judge_run(
    index: QrelsIndex, run: Run, options: RankingOptions
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """Judged rankings of one run: (rel, per-topic lengths, topic codes, unjudged topics).

    Only topics with judgments are ranked; the others are returned by name.
    """
    rel, counts, present, unjudged, _ = judge_run_rows(index, run, options)
    return rel, counts, present, unjudged


def judge_run_rows(
    index: QrelsIndex, run: Run, options: RankingOptions
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...], np.ndarray]:
    """:func:`judge_run` plus the run's row of every ranked document (for per-document
    lookups such as :func:`irscale.core.labels.attach_labels`)."""
    topic_code = grouped_codes(run.topic, index.topic_array)
    unjudged: tuple[str, ...] = ()
    order = rank_order(run, topic_code, options.ties)
    if (topic_code < 0).any():
        unjudged = tuple(sorted(pc.unique(run.topic.filter(pa.array(topic_code < 0))).to_pylist()))
        order = order[topic_code[order] >= 0]
    topic_in_order = topic_code[order]
    counts = np.bincount(topic_in_order, minlength=len(index.topics))
    present = np.flatnonzero(counts)
    if options.max_docs is not None:
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        keep = np.arange(len(order)) - np.repeat(starts, counts) < options.max_docs
        order, topic_in_order = order[keep], topic_in_order[keep]
        counts = np.minimum(counts, options.max_docs)
    rel = _judgments(index, run, topic_code)[order]
    if options.judged_only:
        keep = rel >= 0
        rel, topic_in_order, order = rel[keep], topic_in_order[keep], order[keep]
        counts = np.bincount(topic_in_order, minlength=len(index.topics))
    return rel, counts[present], present, unjudged, order


def build_judged_rankings(
    qrels: Qrels,
    runs: Sequence[Run],
    options: RankingOptions | None = None,
    *,
    placeholders: bool = False,
) -> JudgedRankings:
    """Judge every run against the qrels and stack the rankings into one batch.

    Rankings are ordered run by run, and within a run by topic id in byte order (the
    order trec_eval prints them in). With ``placeholders`` (trec_eval 10's ``-c``), each
    judged topic a run did not retrieve anything for gets a one-document ranking of a
    non-pooled document, flagged in ``JudgedRankings.placeholder``.
    """
    options = options or RankingOptions()
    if not runs:
        raise InputError("no run to evaluate")
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        raise InputError(f"runs must have distinct names, got {names}")
    index = QrelsIndex.build(qrels)
    rel_parts, length_parts, topic_parts, run_parts, flag_parts = [], [], [], [], []
    unjudged_per_run = []
    for run_index, run in enumerate(runs):
        rel, lengths, present, unjudged = judge_run(index, run, options)
        unjudged_per_run.append(unjudged)
        flags = np.zeros(len(present), dtype=bool)
        if placeholders:
            missing = np.setdiff1d(np.arange(len(index.topics)), present)
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
        rel=np.concatenate(rel_parts),
        offsets=np.concatenate(([0], np.cumsum(lengths))).astype(np.int64),
        rel_levels=index.rel_levels[ranking_topic],
        ranking_topic=ranking_topic,
        ranking_run=np.concatenate(run_parts),
        topics=index.topics,
        runs=tuple(names),
        relevance_level=options.relevance_level,
        placeholder=np.concatenate(flag_parts) if placeholders else None,
        unjudged_topics=tuple(unjudged_per_run),
    )
