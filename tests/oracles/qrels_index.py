"""Qrels prepared for fast lookups (:class:`QrelsIndex`), shared by every run judged
against them.

Each topic's recall base per relevance degree (``rel_levels``, the context of a
:class:`~irscale.core.judged.JudgedRankings`) is counted once, and the judged docnos are
put in one small hash table of their 64-bit fingerprints per topic
(:class:`_FingerprintTables`, fingerprints of :mod:`irscale.core._columnar.fingerprints`), with an
exact dictionary index for when fingerprints cannot decide.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from irscale.core._columnar.blocks import TopicBlocks, stable_order
from irscale.core.inputs import Qrels
from irscale.core.judged import UNJUDGED
from irscale.core.segments import chunks
from irscale.parallel.threads import map_threads

#: Rows looked up at once by :meth:`_FingerprintTables.hits` (whole blocks at least): the
#: temporaries of a chunk stay small and in the cache (10M rows: 164 ms in chunks of 2^20
#: rows, 102 ms in chunks of 2^18).
_CHUNK_ROWS = 1 << 18
#: :meth:`_FingerprintTables.hits` screens the rows it looks up through a filter of the
#: tables' fingerprints (:attr:`_FingerprintTables.screen`) when they are at least this many
#: times the tables' entries ...
_SCREENED_RATIO = 8
#: ... and the tables hold at most this many entries (a screen of 16 slots per entry, 4 MB).
_SCREENED_ENTRIES = 1 << 18
#: Up to this many relevance levels, a qrels index whose topics' rows are each consecutive
#: counts each level's rows block by block (:func:`_levels_by_block`) rather than by one
#: ``bincount`` of (topic, level) keys.
_LEVELS_COUNTED_BY_BLOCK = 8


def sorted_codes(blocks: TopicBlocks) -> tuple[pa.Array, np.ndarray]:
    """``(values, codes)``: the distinct values of the blocks in byte order (as
    ``pc.unique(heads).sort()``) and the index (int64) of every block's value in them.

    One dictionary encoding of the blocks' values by pyarrow, and a sort of the distinct
    values."""
    encoded = pc.dictionary_encode(blocks.heads.to_arrow())
    distinct = encoded.dictionary
    first_codes = np.asarray(encoded.indices).astype(np.int64)
    order = np.asarray(pc.sort_indices(distinct))
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    return distinct.take(pa.array(order)), position[first_codes]


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
    #: The topic code (index in :attr:`topics`) of every block of the qrels' topic column.
    block_topic: np.ndarray
    #: The rows of all the runs this index is built for, when it serves them only (one
    #: evaluation); ``None``: shared by any runs (see :meth:`hits`).
    run_rows: int | None = None

    @classmethod
    def build(cls, qrels: Qrels, *, run_rows: int | None = None) -> QrelsIndex:
        blocks = qrels.topic_blocks
        topic_array, block_topic = sorted_codes(blocks)
        topics = tuple(topic_array.to_pylist())
        rel = np.asarray(qrels.rel, dtype=np.int64)
        judged = rel >= 0
        every = bool(judged.all())  # usual: no negative degree, no copies of the judged rows
        judged_rel = rel if every else rel[judged]
        top = int(judged_rel.max()) if len(judged_rel) else 0
        column_degrees = None
        by_block = every and blocks.contiguous
        if (by_block and top < _LEVELS_COUNTED_BY_BLOCK
                and dense_layout(np.array([top]))):
            # degrees 0 .. top, a column each: dense_layout says so for the fewest distinct
            # degrees (top alone), hence for any that occur, which need not be found first
            n_levels, column = top + 1, rel
        else:
            degrees = np.unique(judged_rel)
            if dense_layout(degrees):  # column g counts degree g
                n_levels, column = top + 1, judged_rel
            else:  # one column per distinct degree: a label of 10^7 costs one column
                n_levels, column = len(degrees), np.searchsorted(degrees, judged_rel)
                column_degrees = degrees.astype(np.int64)
        if by_block and n_levels <= _LEVELS_COUNTED_BY_BLOCK:
            rel_levels = _levels_by_block(column, n_levels, blocks, block_topic, len(topics))
        else:
            topic_code = blocks.expand(block_topic)
            key = topic_code if every else topic_code[judged]
            key *= n_levels
            key += column
            rel_levels = np.bincount(key, minlength=len(topics) * n_levels).reshape(
                len(topics), n_levels)
            del key, topic_code
        degree_type = next(
            t for t in (np.int8, np.int16, np.int32, np.int64) if top <= np.iinfo(t).max
        )
        degree = (rel if every else np.where(judged, rel, UNJUDGED)).astype(degree_type)
        return cls(
            topics=topics,
            topic_array=topic_array,
            rel_levels=rel_levels,
            degrees=column_degrees,
            qrels=qrels,
            degree=degree,
            block_topic=block_topic,
            run_rows=run_rows,
        )

    def hits(self, fingerprints: np.ndarray, blocks: TopicBlocks, block_topic: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray] | None:
        """(rows, qrels rows) of a run's rows whose docno fingerprint is judged for their
        topic: candidates, to be confirmed on the strings; ``None`` when fingerprints cannot
        decide (use :attr:`exact`).

        ``fingerprints`` are those of every run row, ``blocks`` the run's topic blocks and
        ``block_topic`` their topic codes (-1: no judgments). The hash tables are built on
        the qrels (:attr:`tables`, kept for every later run) unless this index serves runs
        of fewer than a quarter of the qrels' rows in all (:attr:`run_rows`) and has no
        tables yet: building a table costs about ten times as much per row as a lookup, so
        the tables are then built on the run's rows and the qrels looked up in them.
        """
        if (self.run_rows is not None and 4 * self.run_rows < len(self.qrels)
                and "tables" not in self.__dict__):
            found = self._run_side_hits(fingerprints, blocks, block_topic)
            if found is not None:
                return found
        tables = self.tables
        if tables is None:
            return None
        found = tables.hits(fingerprints, blocks, block_topic)
        self._served(len(fingerprints))
        return found

    def _served(self, rows: int) -> None:
        """Count ``rows`` more rows looked up in :attr:`tables`. An index that serves given
        runs only (:attr:`run_rows`) drops its tables once all their rows have been looked
        up (64 MB for 2M qrels rows), before their judged rankings are made; a later lookup
        would build them again."""
        if self.run_rows is None:
            return
        served = self.__dict__.get("_rows_served", 0) + rows
        self.__dict__["_rows_served"] = served
        if served >= self.run_rows:
            self.__dict__.pop("tables", None)

    def _run_side_hits(self, fingerprints: np.ndarray, blocks: TopicBlocks,
                       block_topic: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """:meth:`hits` with the tables built on the run's rows of judged topics and the
        qrels looked up in them (``None``: two of those rows of a topic may share a
        fingerprint)."""
        topic_code = blocks.expand(block_topic)
        judged = np.flatnonzero(topic_code >= 0)
        run_tables = _FingerprintTables.build(fingerprints[judged], topic_code[judged],
                                              len(self.topics))
        if run_tables is None:
            return None
        qrels_rows, at = run_tables.hits(self.qrels.docno_fingerprints,
                                         self.qrels.topic_blocks, self.block_topic)
        return judged[at], qrels_rows

    def _row_topic(self) -> np.ndarray:
        """The topic code of every qrels row."""
        return self.qrels.topic_blocks.expand(self.block_topic)

    @cached_property
    def tables(self) -> _FingerprintTables | None:
        """The fingerprint hash tables (``None``: fingerprints cannot decide, see above),
        built on first use (callers that only read :attr:`exact` or the recall bases,
        such as the judging of sessions, never pay for them)."""
        # lookups dominate when the runs hold many more rows than the qrels: two buckets
        # per judged docno keep them short; otherwise one halves the table's memory
        probed = self.run_rows is None or self.run_rows > 4 * len(self.qrels)
        return _FingerprintTables.build(self.qrels.docno_fingerprints, self._row_topic(),
                                        len(self.topics), buckets_per_row=2 if probed else 1,
                                        grouped=self.qrels.topic_blocks.contiguous)

    @cached_property
    def exact(self) -> _ExactIndex:
        """The dictionary-encoded index (docno codes), for when fingerprints cannot decide."""
        qrels = self.qrels
        topic_code = self._row_topic()
        encoded = pc.dictionary_encode(qrels.docno.to_arrow())
        docs = encoded.dictionary
        doc_code = np.asarray(encoded.indices).astype(np.int64)
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

    Topic ``t`` owns the ``size[t]`` buckets from ``base[t]`` (one or two per judged
    document); a fingerprint's bucket maps its upper 32 bits onto them by a multiply-shift
    (:func:`_home_slots`). Bucket ``k`` holds the fingerprints ``fp[start[k]:start[k + 1]]``
    of the qrels rows ``row[start[k]:start[k + 1]]``. The last bucket (last entry of ``base``
    and ``size``) is empty and stands for rows of topics without judgments. Equal fingerprints
    are only candidates for equal docnos: callers confirm them on the strings.
    """

    base: np.ndarray
    #: uint64, as :func:`_home_slots` takes it.
    size: np.ndarray
    #: The first entry of every bucket in ``fp`` and ``row``, and one past the last (int32
    #: when the rows fit).
    start: np.ndarray
    #: Fingerprints bucket by bucket, plus one entry read (and ignored) past the last bucket.
    fp: np.ndarray
    #: The row of every entry (int32 when the rows fit).
    row: np.ndarray

    @classmethod
    def build(
        cls, fingerprints: np.ndarray, topic_code: np.ndarray, n_topics: int,
        buckets_per_row: int = 2, grouped: bool = True,
    ) -> _FingerprintTables | None:
        """The tables of judged docnos with these fingerprints and topic codes; ``None``
        when two docnos of one topic may share a fingerprint (then fingerprints cannot tell
        them apart). A topic gets ``buckets_per_row`` buckets per docno: with two, a lookup
        reads fewer entries; with one, the table takes half the memory.

        The docnos are sorted by (topic code, upper fingerprint bits) packed in 64 bits, which
        is bucket order as buckets follow the upper bits; no two keys sharing a packed value
        proves that no two docnos of a topic share a fingerprint. The keys are then
        distinct, so any sort gives the one order: numpy's quicksort (vectorised where the
        processor allows), 2^18 keys in topics of 20 / 100 / 2,000 rows 2.5-2.7 ms against
        3.1 / 4.6 / 9.0 ms for the stable sort's merge of runs. Rows whose topics are not each
        consecutive (``grouped`` false: qrels lines of interleaved topics) are grouped by topic
        first (:func:`~irscale.core._columnar.blocks.stable_order`; 2M rows of 100,000 topics: 0.1 s
        against 0.2 s for the sort alone). The rows are sorted into their buckets in pieces of
        whole topics of about :data:`_CHUNK_ROWS` rows, shared out between the usable cores
        (:func:`~irscale.parallel.threads.map_threads`): 2M qrels rows on 2 cores, in a fresh
        process, 0.14 -> 0.09 s, and 27 MB less memory at the build's peak (small pieces'
        temporaries, not whole columns').
        """
        shift = max(n_topics.bit_length(), 1)
        if shift > 32:
            return None
        counts = np.bincount(topic_code, minlength=n_topics)
        # the topics' tables laid out in the order of the rows (see _layout_rank)
        rank = _layout_rank(topic_code, counts) if grouped else None
        grouping = None if rank is not None else stable_order(topic_code, n_topics)
        rows_by_place = counts
        if rank is not None:
            rows_by_place = np.empty_like(counts)
            rows_by_place[rank] = counts
        size = np.maximum(buckets_per_row * rows_by_place, 1)
        size = np.append(size, 1).astype(np.uint64)  # the empty table of unjudged topics
        base = (np.cumsum(size) - size).astype(np.int64)
        # rows, and the entries of every bucket (from start[1] on), summed in place into the
        # buckets' starts, in 32 bits when the rows fit (2M qrels rows: 8 + 8 MB, where rows
        # and the counts and the starts in 64 bits took 16 + 64 MB)
        small = np.int32 if len(topic_code) < 1 << 31 else np.int64
        row = np.empty(len(topic_code), dtype=small)
        fp = np.zeros(len(topic_code) + 1, dtype=np.uint64)
        start = np.zeros(int(size.sum()) + 1, dtype=small)

        def sort(piece: tuple[int, int]) -> bool:
            """Sort the rows of whole places ``first .. stop - 1`` (in place order) into their
            buckets; False when two of them share a key."""
            first, stop = piece
            taken = slice(first, stop) if grouping is None else grouping[first:stop]
            codes = topic_code[taken]
            key = codes.astype(np.uint64) if rank is None else rank[codes].view(np.uint64)
            key <<= np.uint64(64 - shift)  # (a place is never negative)
            key |= fingerprints[taken] >> np.uint64(shift)
            order = np.argsort(key, kind="quicksort")
            key = key[order]
            if (key[1:] == key[:-1]).any():
                return False
            if grouping is None:
                np.add(order, first, out=row[first:stop])
            else:
                np.take(grouping[first:stop], order, out=row[first:stop])
            np.take(fingerprints, row[first:stop], out=fp[first:stop])
            key >>= np.uint64(64 - shift)
            place = key.view(np.int64)  # the place of every sorted row's topic in the layout
            bucket = _home_slots(fp[first:stop], size[place], base[place])
            low, high = base[place[0]], base[place[-1]] + int(size[place[-1]])
            bucket -= low
            start[1 + low: 1 + high] = np.bincount(bucket, minlength=high - low)
            return True

        places = np.append(0, np.cumsum(rows_by_place))  # the rows of every place
        pieces = [(int(places[first]), int(places[stop]))
                  for first, stop in chunks(places, _CHUNK_ROWS)
                  if places[stop] > places[first]]  # places without rows: nothing to sort
        if not all(map_threads(sort, pieces)):
            return None
        np.cumsum(start, dtype=start.dtype, out=start)
        if rank is not None:  # by topic code, as lookups index them
            by_code = np.append(rank, n_topics)
            base, size = base[by_code], size[by_code]
        return cls(base=base, size=size, start=start, fp=fp, row=row)

    def hits(
        self, fingerprints: np.ndarray, blocks: TopicBlocks, block_topic: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """(rows, qrels rows) of the rows whose fingerprint is in their topic's table.

        ``block_topic`` is the topic code of every block of rows (-1: no judgments). Rows
        are looked up in chunks of whole blocks (:data:`_CHUNK_ROWS`), to bound the memory of
        the temporaries, shared out between the usable cores (:func:`map_threads`: numpy
        releases the GIL in the gathers and compares of a probe; 10M rows on 2 cores,
        0.094 -> 0.05 s). Rows many more than the tables' entries are screened first
        (:attr:`screen`): only those that pass are looked up.
        """
        code = np.where(block_topic >= 0, block_topic, len(self.base) - 1)
        bounds = blocks.bounds
        screened = (len(fingerprints) >= _SCREENED_RATIO * len(self.row)
                    and len(self.row) <= _SCREENED_ENTRIES)
        screen, mask = self.screen if screened else (None, np.uint64(0))

        def probe(chunk: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
            first, stop = chunk
            piece = fingerprints[bounds[first]: bounds[stop]]
            if screen is None:
                lengths = np.diff(bounds[first: stop + 1])
                size = np.repeat(self.size[code[first:stop]], lengths)
                base = np.repeat(self.base[code[first:stop]], lengths)
                rows, at = self._probe(piece, _home_slots(piece, size, base))
                return rows + bounds[first], at
            low = piece & mask
            passed = np.flatnonzero(screen[low.view(np.int64)])
            block = np.searchsorted(bounds[first: stop + 1], passed + bounds[first], "right")
            block += first - 1
            piece = piece[passed]
            rows, at = self._probe(piece, _home_slots(piece, self.size[code[block]],
                                                      self.base[code[block]]))
            return passed[rows] + bounds[first], at

        found = map_threads(probe, list(chunks(bounds, _CHUNK_ROWS)))
        return (np.concatenate([rows for rows, _ in found]),
                self.row[np.concatenate([at for _, at in found])])

    @cached_property
    def screen(self) -> tuple[np.ndarray, np.uint64]:
        """A filter of the tables' fingerprints and the mask of the bits it reads: a
        fingerprint whose low bits (``fingerprint & mask``) point at a false slot of
        ``screen`` is in no table. With 16 slots or more per entry, at most one fingerprint
        in 16 that is in no table passes. Looking up only the rows that pass is cheaper where
        the rows are many more than the entries (at most one row in :data:`_SCREENED_RATIO`
        then is in a table): 1M run rows against 20,000-40,000 judgments, 4.5-6.8 ->
        1.9-2.7 ms; 7M against 139,000, 37 -> 15 ms (warm, 2 cores)."""
        bits = max(12, int(16 * max(len(self.row), 1) - 1).bit_length())
        mask = np.uint64((1 << bits) - 1)
        screen = np.zeros(1 << bits, dtype=bool)
        screen[(self.fp[:-1] & mask).view(np.int64)] = True
        return screen, mask

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


def _layout_rank(topic_code: np.ndarray, counts: np.ndarray) -> np.ndarray | None:
    """The place of every topic's table in the order in which the topics' rows come, when
    each topic's rows are consecutive; ``None`` otherwise (tables in topic-code order).

    Runs and qrels are mostly written with their topics in one order (numeric, or a
    generator's), seldom the byte order of topic codes. Tables in the order of the rows
    they are built from are then probed from end to end by a run in the same order,
    instead of at scattered places (100,000 topics in random order: 0.1 s of the lookups
    were cache misses), and the rows to sort come grouped by place already.
    """
    if len(topic_code) == 0:
        return None
    first = np.flatnonzero(topic_code[1:] != topic_code[:-1]) + 1
    heads = topic_code[np.append(0, first)]
    if len(heads) != np.count_nonzero(counts):  # a topic in several places
        return None
    rank = np.empty(len(counts), dtype=np.int64)
    rank[heads] = np.arange(len(heads))
    rank[counts == 0] = np.arange(len(heads), len(counts))
    return rank


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


def _levels_by_block(column: np.ndarray, n_levels: int, blocks: TopicBlocks,
                     block_topic: np.ndarray, n_topics: int) -> np.ndarray:
    """The ``n_topics x n_levels`` counts of the rows of every topic at every level
    (``column``: the level of every row, its topic that of its block; ``blocks``
    :attr:`~TopicBlocks.contiguous`, one per topic), counted block by block: for each level
    above 0 (level 0 counts the rest), the positions of its rows and, by a search among
    them, how many fall before each block's end. No key per row (5M qrels rows of 3 levels:
    no 80 MB of topic codes and keys, the judged case's peak 401 -> 385 MB); rows taken in
    pieces of whole blocks (:data:`_CHUNK_ROWS` rows), shared out between the usable cores.
    5M rows of 4 levels, warm: 49 ms by ``np.add.reduceat`` of every level's mask (its
    casting loop), 10 ms so."""
    bounds = blocks.bounds
    per_block = np.empty((len(bounds) - 1, n_levels), dtype=np.int64)

    def count(piece: tuple[int, int]) -> None:
        first, stop = piece
        rows = column[bounds[first]: bounds[stop]]
        ends = bounds[first: stop + 1] - bounds[first]
        for level in range(1, n_levels):
            at = np.flatnonzero(rows == level)
            per_block[first:stop, level] = np.diff(np.searchsorted(at, ends))

    map_threads(count, list(chunks(bounds, _CHUNK_ROWS)))
    per_block[:, 0] = blocks.lengths - per_block[:, 1:].sum(axis=1)
    counts = np.zeros((n_topics, n_levels), dtype=np.int64)
    counts[block_topic] = per_block
    return counts
