"""Judged rankings: the common currency of every measure.

A judged ranking is the vector of relevance degrees of the documents a system retrieved
for one topic, in rank order, together with the topic's context (how many judged
documents it has at each relevance degree). :class:`JudgedRankings` holds a whole batch of
them (every evaluated (run, topic) pair) in CSR form, built once per (qrels, runs):

* ``rel``: flat int64 array of relevance values, ranking after ranking, with trec_eval's
  sentinels: ``NONPOOL = -1`` (document not in the qrels) and ``UNJUDGED = -2`` (in the
  qrels with a negative degree, i.e. pooled but not judged);
* ``offsets``: ranking ``i`` is ``rel[offsets[i]:offsets[i + 1]]``;
* ``rel_levels[i, j]``: number of documents judged with degree ``degrees[j]`` (``≥ 0``) for
  the topic of ranking ``i`` — the recall base per level, from which ideal rankings follow.
  Columns are the distinct judged degrees (:attr:`JudgedRankings.column_degrees`): column
  ``g`` is degree ``g`` when the qrels use the degrees 0, 1, ..., k-1, and a qrels file with
  one label of 10,000,000 gets one more column, not ten million.

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

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import InputError, ParameterError
from . import arrow
from .inputs import Qrels, Run, TopicBlocks, as_c_float, take_rows
from .options import MAX_DOCS, RELEVANCE_LEVEL, TIE_POLICIES, TiePolicy, integer_option
from .segments import ScanLayout, segment_cumsum, segment_sum

NONPOOL = -1
UNJUDGED = -2


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
    #: The relevance degree counted by each column of ``rel_levels`` (ascending, all ≥ 0);
    #: ``None``: column ``g`` counts degree ``g``. Use :attr:`column_degrees`.
    degrees: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.offsets) - 1
        if n < 0 or self.offsets[0] != 0 or self.offsets[-1] != len(self.rel):
            raise InputError("inconsistent judged-ranking offsets")
        if self.rel_levels.shape[0] != n or len(self.ranking_topic) != n:
            raise InputError("inconsistent judged-ranking context arrays")
        if self.degrees is not None and len(self.degrees) != self.rel_levels.shape[1]:
            raise InputError("inconsistent judged-ranking degrees")

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
    def column_degrees(self) -> np.ndarray:
        """The relevance degree counted by each column of ``rel_levels`` (int64, ascending)."""
        if self.degrees is None:
            return np.arange(self.rel_levels.shape[1], dtype=np.int64)
        return np.asarray(self.degrees, dtype=np.int64)

    def judged_at_least(self, level: int) -> np.ndarray:
        """Per ranking: its topic's judged documents of degree ≥ ``level`` (and ≥ 0)."""
        return self.rel_levels[:, self.column_degrees >= max(level, 0)].sum(axis=1)

    @cached_property
    def num_rel(self) -> np.ndarray:
        """Recall base R of each ranking's topic: judged documents with degree ≥ level."""
        return self.judged_at_least(self.relevance_level)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """Judged non-relevant documents of each ranking's topic (0 ≤ degree < level)."""
        return self.rel_levels[:, self.column_degrees < self.relevance_level].sum(axis=1)

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
def dense_layout(degrees: np.ndarray) -> bool:
    """Whether ``rel_levels`` gets one column per degree ``0..max`` (cheap: at most twice the
    columns of the distinct degrees, or 16) rather than one per distinct judged degree."""
    top = int(degrees[-1]) if len(degrees) else 0
    return top + 1 <= max(2 * len(degrees), 16)


@dataclass(frozen=True, eq=False)
class QrelsIndex:
    """Qrels prepared for fast lookups, shared by every run evaluated against them.

    A run's docnos are looked up by their 64-bit fingerprints in one small hash table per
    topic (:class:`_FingerprintTables`), so that no docno string is hashed into a dictionary;
    every match is then confirmed by comparing the strings themselves. When fingerprints
    cannot decide (two judged docnos of a topic share one, or a match is not confirmed),
    lookups use the exact dictionary index :attr:`exact` instead.
    """

    topics: tuple[str, ...]
    topic_array: pa.Array
    rel_levels: np.ndarray
    #: The degree counted by each column of ``rel_levels`` (``None``: column g, degree g).
    degrees: np.ndarray | None
    qrels: Qrels
    #: The value a judged ranking holds for every qrels row: its degree, or ``UNJUDGED`` for
    #: a negative degree; in the smallest integer type that holds them all.
    degree: np.ndarray
    #: The fingerprint hash tables (``None``: fingerprints cannot decide, see above).
    tables: _FingerprintTables | None

    @classmethod
    def build(cls, qrels: Qrels) -> QrelsIndex:
        blocks = qrels.topic_blocks
        topic_array = pc.unique(blocks.heads).sort()
        topics = tuple(topic_array.to_pylist())
        topic_code = blocks.expand(blocks.codes_in(topic_array))
        rel = np.asarray(qrels.rel, dtype=np.int64)
        judged = rel >= 0
        degrees = arrow.unique_integers(rel[judged])
        top = int(degrees[-1]) if len(degrees) else 0
        if dense_layout(degrees):  # column g counts degree g
            n_levels = top + 1
            rel_levels = np.bincount(
                topic_code[judged] * n_levels + rel[judged], minlength=len(topics) * n_levels
            ).reshape(len(topics), n_levels)
            column_degrees = None
        else:  # one column per distinct degree: a label of 10^7 costs one column
            width = len(degrees)
            column = np.searchsorted(degrees, rel[judged])
            rel_levels = np.bincount(
                topic_code[judged] * width + column, minlength=len(topics) * width
            ).reshape(len(topics), width)
            column_degrees = degrees.astype(np.int64)
        degree_type = next(
            t for t in (np.int8, np.int16, np.int32, np.int64) if top <= np.iinfo(t).max
        )
        degree = np.where(judged, rel, UNJUDGED).astype(degree_type)
        return cls(
            topics=topics,
            topic_array=topic_array,
            rel_levels=rel_levels,
            degrees=column_degrees,
            qrels=qrels,
            degree=degree,
            tables=_FingerprintTables.build(qrels.docno_fingerprints, topic_code, len(topics)),
        )

    @cached_property
    def exact(self) -> _ExactIndex:
        """The dictionary-encoded index (docno codes), for when fingerprints cannot decide."""
        qrels = self.qrels
        topic_code = arrow.to_numpy(pc.index_in(qrels.topic, value_set=self.topic_array))
        encoded = pc.dictionary_encode(qrels.docno).combine_chunks()
        docs = encoded.dictionary
        doc_code = arrow.to_numpy(encoded.indices).astype(np.int64)
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


@dataclass(frozen=True, eq=False)
class _FingerprintTables:
    """One hash table of judged docno fingerprints per topic, in flat (CSR) arrays.

    Topic ``t`` owns the ``size[t]`` buckets from ``base[t]`` (twice as many as it has judged
    documents); a fingerprint's bucket maps its upper 32 bits onto them by a multiply-shift
    (:func:`_home_slots`). Bucket ``k`` holds the fingerprints ``fp[start[k]:start[k + 1]]``
    of the qrels rows ``row[start[k]:start[k + 1]]``. The last bucket (last entry of ``base``
    and ``size``) is empty and stands for rows of topics without judgments. Equal fingerprints
    are only candidates for equal docnos: callers confirm them on the strings.
    """

    base: np.ndarray
    #: uint64, as :func:`_home_slots` takes it.
    size: np.ndarray
    start: np.ndarray
    #: Fingerprints bucket by bucket, plus one entry read (and ignored) past the last bucket.
    fp: np.ndarray
    row: np.ndarray

    @classmethod
    def build(
        cls, fingerprints: np.ndarray, topic_code: np.ndarray, n_topics: int
    ) -> _FingerprintTables | None:
        """The tables of judged docnos with these fingerprints and topic codes; ``None``
        when two docnos of one topic may share a fingerprint (then fingerprints cannot tell
        them apart).

        The docnos are sorted by (topic code, upper fingerprint bits) packed in 64 bits, which
        is bucket order as buckets follow the upper bits; no two keys sharing a packed value
        proves that no two docnos of a topic share a fingerprint.
        """
        shift = max(n_topics.bit_length(), 1)
        if shift > 32:
            return None
        key = topic_code.astype(np.uint64) << np.uint64(64 - shift)
        key |= fingerprints >> np.uint64(shift)
        row = np.argsort(key, kind="stable")
        key = key[row]
        if (key[1:] == key[:-1]).any():
            return None
        key >>= np.uint64(64 - shift)
        code = key.view(np.int64)  # the topic code of every sorted row
        size = np.append(np.maximum(2 * np.bincount(topic_code, minlength=n_topics), 1), 1)
        base = np.cumsum(size) - size
        size = size.astype(np.uint64)
        fp = np.append(fingerprints[row], np.uint64(0))
        bucket = _home_slots(fp[:-1], size[code], base[code])
        start = np.zeros(int(size.sum()) + 1, dtype=np.int64)
        np.cumsum(np.bincount(bucket, minlength=len(start) - 1), out=start[1:])
        return cls(base=base, size=size, start=start, fp=fp, row=row)

    def hits(
        self, fingerprints: np.ndarray, blocks: TopicBlocks, block_topic: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rows, qrels rows) of the rows whose fingerprint is in their topic's table.

        ``block_topic`` is the topic code of every block of rows (-1: no judgments). Rows
        are looked up in chunks of whole blocks, to bound the memory of the temporaries.
        """
        code = np.where(block_topic >= 0, block_topic, len(self.base) - 1)
        bounds = blocks.bounds
        found_rows, found_at = [], []
        first = 0
        while first < len(code):
            stop = max(int(np.searchsorted(bounds, bounds[first] + _CHUNK_ROWS, "right")) - 1,
                       first + 1)
            lengths = np.diff(bounds[first: stop + 1])
            rows, at = self._probe(
                fingerprints[bounds[first]: bounds[stop]],
                _home_slots(fingerprints[bounds[first]: bounds[stop]],
                            np.repeat(self.size[code[first:stop]], lengths),
                            np.repeat(self.base[code[first:stop]], lengths)),
            )
            found_rows.append(rows + bounds[first])
            found_at.append(at)
            first = stop
        return np.concatenate(found_rows), self.row[np.concatenate(found_at)]

    def _probe(
        self, fingerprints: np.ndarray, bucket: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rows, positions in ``fp``) of the fingerprints found in their ``bucket``."""
        at = self.start[bucket]
        count = self.start[1:][bucket]
        count -= at
        hit = np.flatnonzero(self.fp[at] == fingerprints)
        hit = hit[count[hit] > 0]  # an empty bucket's `at` is the next bucket's first entry
        rows, found = [hit], [at[hit]]
        # the other entries of a bucket hold other fingerprints (a topic's are distinct):
        # rows found at the first entry never match them
        row = np.flatnonzero(count > 1)
        at, count, target = at[row], count[row], fingerprints[row]
        step = 1
        while len(row):  # the other entries of buckets of several fingerprints
            hit = self.fp[at + step] == target
            rows.append(row[hit])
            found.append(at[hit] + step)
            step += 1
            more = count > step
            more &= ~hit
            row, at, count, target = row[more], at[more], count[more], target[more]
        return np.concatenate(rows), np.concatenate(found)


def _home_slots(fingerprints: np.ndarray, size: np.ndarray, first: np.ndarray) -> np.ndarray:
    """``first + (fingerprint >> 32) * size >> 32`` (int64): one of ``size`` (uint64, below
    2^32) slots from ``first``, uniform for uniform fingerprints and non-decreasing in the
    fingerprint."""
    slot = fingerprints >> np.uint64(32)
    slot *= size
    slot >>= np.uint64(32)
    slot = slot.view(np.int64)
    slot += first
    return slot


@dataclass(frozen=True)
class RankingOptions:
    """trec_eval's options that shape the judged rankings: ``relevance_level`` (``-l``, an
    integer ≥ 1), ``max_docs`` (``-M``, ``None`` or an integer from 1 to 2⁶³ − 1),
    ``judged_only`` (``-J``) and the tie policy; checked when built
    (:mod:`irscale.core.options`)."""

    relevance_level: int = 1
    max_docs: int | None = None
    judged_only: bool = False
    ties: TiePolicy = "trec_eval"

    def __post_init__(self) -> None:
        # trec_eval requires a positive level (every degree would be relevant otherwise, and
        # documents outside the qrels too below 0); -M 0 would evaluate empty rankings
        integer_option(self.relevance_level, RELEVANCE_LEVEL, low=1)
        if self.max_docs is not None:
            integer_option(self.max_docs, MAX_DOCS, low=1)
        if self.ties not in TIE_POLICIES:
            raise ParameterError(
                f"unknown tie policy {self.ties!r}: use one of {', '.join(TIE_POLICIES)}"
            )


def rank_order(run: Run, block_topic: np.ndarray, ties: TiePolicy) -> np.ndarray:
    """Row indices of the run's rows of judged topics, sorted by topic code, then in ranking
    order within a topic.

    ``block_topic`` is the topic code of every block of ``run.topic_blocks`` (-1: a topic
    without judgments, left out). Runs are usually written topic by topic in ranking order:
    then the blocks are only put in topic order, and the rows of tied scores sorted
    (:func:`_presorted_order`). When each topic fills one block but a block is not in
    ranking order, the blocks are sorted each on their own first (:func:`_block_sort`);
    otherwise all rows are sorted.
    """
    if ties == "rank-column" and run.rank is None:
        raise ParameterError(
            "the rank-column tie policy needs the run's rank column: "
            "read the run with keep_rank=True"
        )
    key = run.rank if ties == "rank-column" else run.score
    blocks = run.topic_blocks
    if blocks.contiguous:
        pairs = _tied_pairs(key, blocks.bounds, ties)
        within = None
        if pairs is None:
            within = _block_sort(key, blocks, ties)
            if within is not None:
                pairs = _tied_pairs(key[within], blocks.bounds, ties)
        if pairs is not None:
            return _presorted_order(blocks, block_topic, pairs, run.docno, within)
    topic_code = blocks.expand(block_topic)
    if ties == "trec_eval":
        # trec_eval stores scores as C floats (TEXT_RESULTS.sim is a float): scores equal
        # in single precision tie, and the tie is broken by docno.
        table = pa.table({"t": arrow.array(topic_code), "s": arrow.array(as_c_float(key)),
                          "d": run.docno})
        order = arrow.to_numpy(pc.sort_indices(
            table, sort_keys=[("t", "ascending"), ("s", "descending"), ("d", "descending")]
        ))
    elif ties == "file-order":
        order = np.lexsort((-key, topic_code))  # lexsort is stable: file order for ties
    else:
        order = np.lexsort((key, topic_code))
    return order[topic_code[order] >= 0]


def _presorted_order(
    blocks: TopicBlocks,
    block_topic: np.ndarray,
    pairs: np.ndarray,
    docno: pa.ChunkedArray,
    within: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`rank_order` of a run whose topics each fill one block, every block in ranking
    order (``within`` is None) or put in it by ``within`` (the row at every position,
    :func:`_block_sort`); ``pairs`` are the positions of ties (:func:`_tied_pairs`).

    The ranking order of a block is the key (scores, or ranks for ``rank-column``) descending
    (ascending) and, for ``trec_eval``, ties of scores as C floats broken by ``docno``
    descending; otherwise ties stay in file order. A stable sort by (topic, key, docno) then
    keeps the rows of a block together and in file order, except that rows tied by their
    C-float scores (consecutive, as rounding to single precision keeps the order) are ordered
    by docno: blocks are moved into topic order as a whole, and only the rows of ties are
    sorted. With ``within``, all this is done on positions, mapped to rows at the end.
    """
    bounds = blocks.bounds
    chosen = np.flatnonzero(block_topic >= 0)
    chosen = chosen[np.argsort(block_topic[chosen])]  # distinct codes: one block per topic
    lengths = blocks.lengths[chosen]
    target = np.cumsum(lengths) - lengths  # where each chosen block starts in the order
    # the rows of each chosen block in turn, as the running sum of steps of one that jump
    # to the next block's first row (one array: no arange and repeat of millions of rows)
    order = np.ones(int(lengths.sum()), dtype=np.int64)
    jumps = bounds[chosen]  # blocks are never empty
    jumps[1:] -= bounds[chosen[:-1]] + lengths[:-1] - 1
    order[target] = jumps
    np.cumsum(order, out=order)
    if len(pairs) == 0:
        return order if within is None else within[order]
    # runs of tied rows: the pairs of a run are consecutive, its rows one more
    first = np.ones(len(pairs), dtype=bool)
    first[1:] = pairs[1:] != pairs[:-1] + 1
    group = np.cumsum(first)
    last = np.append(first[1:], True)
    at = np.arange(len(pairs)) + group - 1  # each earlier run of ties has one more row
    rows = np.empty(len(pairs) + int(group[-1]), dtype=np.int64)
    rows[at], rows[at[last] + 1] = pairs, pairs[last] + 1
    row_group = np.empty_like(rows)
    row_group[at], row_group[at[last] + 1] = group, group[last]
    block = np.searchsorted(bounds, rows, "right") - 1
    shift = np.full(len(block_topic), -1, dtype=np.int64)
    shift[chosen] = target - bounds[chosen]
    judged = block_topic[block] >= 0
    rows, row_group = rows[judged], row_group[judged]
    position = rows + shift[block[judged]]
    tied = pa.table({
        "g": arrow.array(row_group), "d": take_rows(docno, rows if within is None else within[rows])
    })
    by_docno = pc.sort_indices(tied, sort_keys=[("g", "ascending"), ("d", "descending")])
    order[position] = rows[arrow.to_numpy(by_docno)]
    return order if within is None else within[order]


def _block_sort(key: np.ndarray, blocks: TopicBlocks, ties: TiePolicy) -> np.ndarray | None:
    """The rows of every block in ranking order, ties in file order (the row at every
    position, blocks in place), or ``None`` when the blocks are too uneven to be sorted so.

    The keys are laid out as a matrix, one block per row padded to the widest block, and
    the rows sorted stably (numpy sorts many short rows much faster than one long array).
    Padding uses the largest value and follows a block's keys, so a stable sort leaves it
    after them. Scores in order as doubles are in order as C floats, so the ties of
    ``trec_eval`` are then consecutive (:func:`_tied_pairs` finds them).
    """
    lengths = blocks.lengths
    width = int(lengths.max(initial=0))
    n = len(key)
    if len(lengths) * width > 2 * n:
        return None
    values = key.copy() if ties == "rank-column" else -key  # scores: descending
    starts = blocks.bounds[:-1]
    if bool((lengths == width).all()):
        matrix = values.reshape(len(lengths), width)
        slots = None
    else:
        pad = np.inf if values.dtype.kind == "f" else np.iinfo(values.dtype).max
        matrix = np.full((len(lengths), width), pad, dtype=values.dtype)
        slots = np.arange(n)
        slots += np.repeat(np.arange(len(lengths)) * width - starts, lengths)
        matrix.reshape(-1)[slots] = values
    del values
    sorted_at = matrix.argsort(axis=1, kind="stable")
    del matrix
    sorted_at += starts[:, None]
    sorted_at = sorted_at.reshape(-1)
    if slots is not None:
        sorted_at = sorted_at[slots]  # a block's first `length` positions are its rows
    return sorted_at


def _tied_pairs(key: np.ndarray, bounds: np.ndarray, ties: TiePolicy) -> np.ndarray | None:
    """Rows ``i`` (ascending) tied with row ``i + 1`` of their block (C-float scores equal,
    for ``trec_eval``; none otherwise), or ``None`` when a block is not in ranking order.

    Scores in order as doubles are in order as C floats (rounding is monotone), so the order
    is checked on the doubles; comparisons that fail (NaN) reject the layout. The key is
    scanned in slices, to keep the temporaries small.
    """
    found = []
    across = bounds[1:-1] - 1  # the neighbour pairs (i, i + 1) that span two blocks
    n_pairs = max(len(key) - 1, 0)
    for start in range(0, n_pairs, _CHUNK_ROWS):
        stop = min(start + _CHUNK_ROWS, n_pairs)
        later, earlier = key[start + 1: stop + 1], key[start:stop]
        in_order = later >= earlier if ties == "rank-column" else later <= earlier
        spans = across[np.searchsorted(across, start): np.searchsorted(across, stop)] - start
        in_order[spans] = True
        if not in_order.all():
            return None
        if ties == "trec_eval":
            single = as_c_float(key[start: stop + 1])
            tied = single[1:] == single[:-1]
            tied[spans] = False
            found.append(np.flatnonzero(tied) + start)
    return np.concatenate(found) if found else np.empty(0, dtype=np.int64)


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
    if index.tables is not None:
        rows, qrels_rows = index.tables.hits(run.docno_fingerprints, blocks, block_topic)
        # equal fingerprints are only candidates: the docno strings must be equal too
        if len(rows) == 0 or pc.all(pc.equal(
            take_rows(run.docno, rows), take_rows(index.qrels.docno, qrels_rows)
        )).as_py():
            rel[rows] = index.degree[qrels_rows]
            return rel
    exact = index.exact  # fingerprints cannot decide: the exact dictionary lookup
    topic_code = blocks.expand(block_topic)
    doc_code = _codes_in(run.docno, exact.docs)
    in_pool = (doc_code >= 0) & (topic_code >= 0)
    if in_pool.any() and len(exact.keys):
        keys = topic_code[in_pool] * exact.n_docs + doc_code[in_pool]
        slot = np.minimum(np.searchsorted(exact.keys, keys), len(exact.keys) - 1)
        found = exact.keys[slot] == keys
        degree = exact.key_rel[slot]
        rel[in_pool] = np.where(found, np.where(degree < 0, UNJUDGED, degree), NONPOOL)
    return rel


def _codes_in(values: pa.ChunkedArray, value_set: pa.Array) -> np.ndarray:
    """Index of every value in ``value_set`` (-1 when absent), as an int64 numpy array."""
    codes = pc.index_in(values, value_set=value_set)
    return arrow.to_numpy(pc.fill_null(codes, arrow.scalar(-1, codes.type))).astype(np.int64)


#: Rows scanned at once by :func:`_tied_pairs` and looked up at once by
#: :meth:`_FingerprintTables.hits` (whole blocks at least): bounds the temporaries' memory.
_CHUNK_ROWS = 1 << 20


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
    blocks = run.topic_blocks
    block_topic = blocks.codes_in(index.topic_array)
    absent = block_topic < 0
    unjudged: tuple[str, ...] = ()
    if absent.any():
        unjudged = tuple(sorted(pc.unique(blocks.heads.filter(arrow.array(absent))).to_pylist()))
    order = rank_order(run, block_topic, options.ties)
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
    rel = _judgments(index, run, block_topic)[order].astype(np.int64)
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
