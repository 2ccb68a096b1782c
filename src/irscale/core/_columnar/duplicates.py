"""Duplicate (topic, docno) pairs: finding them fast and applying a duplicate policy.

trec_eval refuses a qrels or run file that lists a (topic, docno) pair twice; irscale does
the same by default (``duplicates="error"``) and can keep the first, the last or the
highest-valued occurrence instead. Duplicates are found on docno fingerprints
(:mod:`irscale.core._columnar.fingerprints`) and confirmed exactly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Literal

import numpy as np

from ...errors import DuplicateError, ParameterError
from ...parallel.threads import map_threads
from ..input_messages import duplicate_reason
from ..segments import chunks, padded_slots, ranges
from ..strings import Strings
from .blocks import TopicBlocks, as_string_array
from .fingerprints import string_fingerprints

#: What to do with a (topic, docno) pair that occurs more than once.
#: ``error`` (default, as trec_eval), ``first`` / ``last`` (keep that occurrence in file
#: order), ``max`` (keep the highest score or relevance).
DuplicatePolicy = Literal["error", "first", "last", "max"]


def duplicate_rows(
    topic: Strings,
    docno: Strings,
    fingerprints: np.ndarray | None = None,
    blocks: TopicBlocks | None = None,
) -> np.ndarray:
    """Row indices (sorted) of every row whose (topic, docno) pair occurs more than once.

    Fingerprints of the docnos decide the common case (no duplicate) without hashing
    millions of strings into a dictionary: distinct fingerprints prove distinct docnos, and
    rows whose fingerprints collide are checked exactly (fingerprint collisions are never
    taken for duplicates). When every topic's rows are consecutive (:class:`TopicBlocks`
    ``contiguous``, the layout of TREC files), duplicates can only occur inside a block and
    the blocks are checked side by side (:func:`_colliding_blocks`); otherwise rows are keyed
    by (topic code, fingerprint) and sorted. ``fingerprints`` and ``blocks`` may pass the
    docnos' :func:`string_fingerprints` and the topics' blocks already computed.
    """
    topic, docno = as_string_array(topic), as_string_array(docno)
    n = len(docno)
    if n < 2:
        return np.empty(0, dtype=np.int64)
    if blocks is None:
        blocks = TopicBlocks.of(topic)
    if fingerprints is None:
        fingerprints = string_fingerprints(docno)
    if blocks.contiguous:
        suspects = _colliding_blocks(fingerprints, blocks)
        if suspects is not None:
            if len(suspects) == 0:
                return np.empty(0, dtype=np.int64)
            rows = ranges(blocks.bounds[suspects], blocks.lengths[suspects])
            return rows[_duplicate_rows_exact(topic.take(rows), docno.take(rows))]
    keys = blocks.expand(blocks.value_codes()).astype(np.uint64)
    if int(keys.max(initial=0)) >= 1 << 24:  # too many topics to pack: exact path
        return _duplicate_rows_exact(topic, docno)
    # in place, to keep the peak memory low; the keys of a topic-grouped file (uneven
    # blocks) are grouped, which the stable (tim) sort exploits
    keys <<= np.uint64(40)
    keys |= fingerprints >> np.uint64(24)
    sorted_keys = np.sort(keys, kind="stable")
    if not (sorted_keys[1:] == sorted_keys[:-1]).any():
        return np.empty(0, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    same = keys[order][1:] == keys[order][:-1]
    flag = np.zeros(n, dtype=bool)
    flag[1:] |= same
    flag[:-1] |= same
    candidates = np.sort(order[flag])
    exact = _duplicate_rows_exact(topic.take(candidates), docno.take(candidates))
    return candidates[exact]


#: Blocks wider than this are compared on full 64-bit fingerprints (see _colliding_in): a
#: block this wide goes to the exact check by chance about once in 30 (width² / 2³³).
_WIDE_BLOCK = 1 << 14
#: Rows checked at once by :func:`_colliding_blocks` (whole blocks at least): a chunk's
#: temporaries stay small and in the cache (5M qrels rows: 107 ms in chunks of 2^20 rows,
#: 90 ms in chunks of 2^18).
_CHUNK_ROWS = 1 << 18


def _colliding_blocks(fingerprints: np.ndarray, blocks: TopicBlocks) -> np.ndarray | None:
    """Blocks holding two rows with equal fingerprints (a superset of the blocks holding a
    duplicate docno), or ``None`` when the blocks are too uneven to be checked this way.

    The blocks are checked :data:`_CHUNK_ROWS` rows at a time (whole blocks,
    :func:`segments.chunks`), so that the temporaries stay small (:func:`_colliding_in`),
    the chunks shared out between the usable cores (:func:`~irscale.parallel.threads.map_threads`;
    10M run rows on 2 cores: 0.033 -> 0.02 s).
    """
    lengths = blocks.lengths
    if len(lengths) * int(lengths.max()) > 2 * len(fingerprints):
        return None
    bounds = blocks.bounds

    def colliding(chunk: tuple[int, int]) -> np.ndarray:
        first, stop = chunk
        return first + _colliding_in(fingerprints[bounds[first]: bounds[stop]],
                                     lengths[first:stop])

    return np.concatenate(map_threads(colliding, list(chunks(bounds, _CHUNK_ROWS))))


def _colliding_in(fingerprints: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """:func:`_colliding_blocks` of consecutive blocks of these ``lengths``, holding these
    fingerprints.

    The fingerprints are laid out as a matrix, one block per row padded to the widest block,
    and every row is sorted (numpy sorts many short rows much faster than one long array).
    A padded row holds its block's values plus padding values; the first ``length`` entries
    of the sorted row are then the block's values exactly as a multiset (padding uses the
    largest value, which sorts last), so comparing neighbours among them is exact. Blocks of
    up to :data:`_WIDE_BLOCK` rows are compared on 32 bits of their fingerprints, whose rows
    sort about twice as fast (5M qrels rows in blocks of 5,000: 58 against 110 ms); a chance
    collision then merely sends a block to the exact check, rarely: about width² / 2³³.
    """
    width = int(lengths.max())
    if width <= _WIDE_BLOCK:
        values = fingerprints.astype(np.uint32)  # the lower 32 bits
    else:
        values = fingerprints.copy()
    uniform = bool((lengths == width).all())
    if uniform:
        matrix = values.reshape(len(lengths), width)
    else:
        matrix = np.full((len(lengths), width), np.iinfo(values.dtype).max, dtype=values.dtype)
        slots = padded_slots(lengths, width)
        matrix.reshape(-1)[slots] = values
        del slots
    del values
    matrix.sort(axis=1)
    equal = matrix[:, 1:] == matrix[:, :-1]
    if not uniform:
        equal &= np.arange(width - 1) < (lengths - 1)[:, None]
    return np.flatnonzero(equal.any(axis=1))


def _duplicate_rows_exact(topic: Strings, docno: Strings) -> np.ndarray:
    keys = _pair_keys(topic, docno)
    order = np.argsort(keys, kind="stable")
    same = keys[order][1:] == keys[order][:-1]
    if not same.any():
        return np.empty(0, dtype=np.int64)
    flag = np.zeros(len(keys), dtype=bool)
    flag[1:] |= same
    flag[:-1] |= same
    return np.sort(order[flag])


def _pair_keys(topic: Strings, docno: Strings) -> np.ndarray:
    """One int64 key per row, equal exactly when (topic, docno) are equal."""
    topic_codes = topic.encode()[0]
    doc_codes = docno.encode()[0]
    return topic_codes * (int(doc_codes.max(initial=-1)) + 1) + doc_codes


#: The duplicate policies of the readers (``duplicates=``).
DUPLICATE_POLICIES = ("error", "first", "last", "max")


def check_duplicate_policy(policy: object) -> None:
    """:class:`~irscale.errors.ParameterError` unless ``policy`` is one of
    :data:`DUPLICATE_POLICIES`."""
    if not isinstance(policy, str) or policy not in DUPLICATE_POLICIES:
        raise ParameterError(
            f"unknown duplicate policy (duplicates) {policy!r}: use one of "
            f"{', '.join(map(repr, DUPLICATE_POLICIES))}")




def resolve_duplicates(
    topic: Strings,
    docno: Strings,
    value: np.ndarray,
    policy: DuplicatePolicy,
    source: str,
    describe_row,
    fingerprints: np.ndarray | None = None,
    blocks: TopicBlocks | None = None,
    file_row: np.ndarray | None = None,
    explain: Callable[[int, int], str] | None = None,
) -> np.ndarray | None:
    """Apply a duplicate policy; returns the row indices to keep, or ``None`` to keep all.

    ``describe_row(i)`` gives ``(line number, text)`` of row ``i`` for error messages;
    ``explain(first, second)`` what the error adds about the rows of the duplicated pair
    (the qrels reader: diversity qrels read as plain ones);
    ``fingerprints`` and ``blocks`` the docnos' fingerprints and the topics' blocks when
    already computed. ``file_row`` is the file row of every row when the rows are not in
    file order but grouped by topic (:meth:`TopicBlocks.grouped`: a topic's rows keep their
    order, so ``first`` and ``last`` are unchanged); the error then names the same
    duplicate as for the rows in file order (the earliest duplicated pair, at its second
    occurrence).
    """
    check_duplicate_policy(policy)
    topic, docno = as_string_array(topic), as_string_array(docno)
    rows = duplicate_rows(topic, docno, fingerprints, blocks)
    if "pyarrow" in sys.modules:
        # reading a large Parquet run leaves freed Arrow memory behind: give it back now,
        # before the next stages allocate their own
        sys.modules["pyarrow"].default_memory_pool().release_unused()
    if len(rows) == 0:
        return None
    if policy == "error":
        if file_row is not None:
            rows = rows[np.argsort(file_row[rows])]
        topics = topic.take(rows).to_pylist()
        docs = docno.take(rows).to_pylist()
        first_pair = (topics[0], docs[0])
        second = next(
            r for r, t, d in zip(rows[1:], topics[1:], docs[1:], strict=True)
            if (t, d) == first_pair
        )
        line, text = describe_row(int(second))
        why = "" if explain is None else explain(int(rows[0]), int(second))
        raise DuplicateError(
            duplicate_reason(first_pair[0], first_pair[1], why),
            source=source,
            line=line,
            text=text,
        )
    # only the rows of duplicated pairs compete (every other row is kept): their pairs are
    # keyed and sorted, not the whole file's (that took 0.35-0.55 s on 1M lines)
    keys = _pair_keys(topic.take(rows), docno.take(rows))
    position = np.arange(len(rows))  # rows ascend: file order (or a topic's order)
    if policy == "first":
        order = np.lexsort((position, keys))
    elif policy == "last":
        order = np.lexsort((-position, keys))
    else:
        order = np.lexsort((position, -value[rows], keys))
    sorted_keys = keys[order]
    beaten = np.zeros(len(rows), dtype=bool)
    beaten[1:] = sorted_keys[1:] == sorted_keys[:-1]
    kept = np.ones(len(docno), dtype=bool)
    kept[rows[order[beaten]]] = False
    return np.flatnonzero(kept)
