"""Relevance judgments (:class:`Qrels`) and retrieval results (:class:`Run`).

Both hold columnar data: topic and document identifiers as pyarrow string arrays, numbers
as numpy arrays. They are validated on construction (no duplicate (topic, docno) pair, no
NaN score) so that every later stage can rely on them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import DuplicateError, InputFormatError, ParameterError
from . import arrow

#: What to do with a (topic, docno) pair that occurs more than once.
#: ``error`` (default, as trec_eval), ``first`` / ``last`` (keep that occurrence in file
#: order), ``max`` (keep the highest score or relevance).
DuplicatePolicy = Literal["error", "first", "last", "max"]


def as_string_array(values: object) -> pa.ChunkedArray:
    """Identifiers as a pyarrow chunked string array (dictionary arrays are decoded)."""
    array = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values)
    if isinstance(array, pa.Array):
        array = pa.chunked_array([array])
    if pa.types.is_dictionary(array.type):
        array = array.cast(array.type.value_type)
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        array = array.cast(pa.string())
    return array


@dataclass(frozen=True, eq=False)
class TopicBlocks:
    """The blocks (maximal runs of equal consecutive values) of an identifier column.

    TREC files list the lines of a topic together, so a column of millions of topic ids has
    only as many blocks as topics: per-value work (hashing, lookups) is done once per block,
    and a column whose values each fill a single block (:attr:`contiguous`) lets later stages
    work block by block instead of sorting all rows.
    """

    #: Block ``b`` is rows ``bounds[b]:bounds[b + 1]`` (int64, one more than the blocks).
    bounds: np.ndarray
    #: The value of every block.
    heads: pa.Array

    @classmethod
    def of(
        cls, values: pa.ChunkedArray | pa.Array, change: pa.ChunkedArray | None = None
    ) -> TopicBlocks:
        """The blocks of ``values`` (a string column), found by comparing neighbours
        (``change``: their :func:`_changes` when already computed)."""
        if len(values) == 0:
            return cls(bounds=np.zeros(1, dtype=np.int64), heads=arrow.strings([]))
        values = _chunked(values)
        bounds = _block_bounds(_changes(values) if change is None else change)
        return cls(bounds=bounds, heads=take_rows(values, bounds[:-1]).combine_chunks())

    @classmethod
    def grouped(cls, values: pa.ChunkedArray | pa.Array) -> tuple[np.ndarray | None, TopicBlocks]:
        """``(rows, blocks)``: the stable permutation that groups the rows of ``values`` (a
        string column) by value, and the blocks of the grouped column (:attr:`contiguous`).

        ``rows[i]`` is the row that goes to position ``i``: the values in order of first
        appearance, the rows of a value in their own order; ``rows`` is ``None`` when every
        value's rows are consecutive already (``blocks`` are then the column's own). When the
        blocks are short (shuffled or interleaved lines: about one block per row), the
        column is dictionary-encoded once, rather than every block's value taken and then
        encoded. Rows are sorted by (value code, row) packed in 64 bits: an unstable sort of
        distinct keys, faster than numpy's stable argsort.
        """
        if len(values) == 0:
            return None, cls.of(values)
        values = _chunked(values)
        change = _changes(values)
        n_blocks = pc.sum(change, min_count=0).as_py() + 1
        if n_blocks <= len(values) // _SHORT_BLOCKS:
            blocks = cls.of(values, change)
            if blocks.contiguous:
                return None, blocks
            codes, distinct = blocks.expand(blocks.first_codes), blocks._encoded.dictionary
        else:
            encoded = pc.dictionary_encode(values.combine_chunks())
            distinct = encoded.dictionary
            if len(distinct) == n_blocks:  # a block per value: the values in block order
                return None, cls(bounds=_block_bounds(change), heads=distinct)
            codes = arrow.to_numpy(encoded.indices).astype(np.int64)
            del encoded
        grouped_bounds = np.zeros(len(distinct) + 1, dtype=np.int64)
        np.cumsum(np.bincount(codes, minlength=len(distinct)), out=grouped_bounds[1:])
        n = len(codes)
        shift = n.bit_length()
        if 2 * shift > 63:
            rows = np.argsort(codes, kind="stable")
        else:
            codes <<= shift
            codes |= np.arange(n)
            codes.sort()
            codes &= (1 << shift) - 1
            rows = codes
        return rows, cls(bounds=grouped_bounds, heads=distinct)

    def __len__(self) -> int:
        return len(self.bounds) - 1

    @property
    def lengths(self) -> np.ndarray:
        """Rows of every block."""
        return np.diff(self.bounds)

    @cached_property
    def _encoded(self) -> pa.DictionaryArray:
        return pc.dictionary_encode(self.heads)

    @cached_property
    def first_codes(self) -> np.ndarray:
        """Code (int64) of every block's value, in order of first appearance."""
        return arrow.to_numpy(self._encoded.indices).astype(np.int64)

    @cached_property
    def contiguous(self) -> bool:
        """True when no value fills two blocks: all rows of a value are consecutive."""
        return len(self) == 0 or int(self.first_codes.max()) + 1 == len(self)

    def codes_in(self, value_set: pa.Array) -> np.ndarray:
        """Index (int64) of every block's value in ``value_set``, -1 when absent."""
        codes = pc.index_in(self.heads, value_set=value_set)
        return arrow.to_numpy(pc.fill_null(codes, arrow.scalar(-1, codes.type))).astype(np.int64)

    def expand(self, per_block: np.ndarray) -> np.ndarray:
        """Per-block values repeated for every row of their block."""
        return np.repeat(per_block, self.lengths)

    def column(self) -> pa.ChunkedArray:
        """The column these blocks describe: every block's value repeated for its rows."""
        return pa.chunked_array([self.heads.take(arrow.array(self.expand(np.arange(len(self)))))])


#: :meth:`TopicBlocks.grouped` encodes a whole column when its blocks average fewer rows.
_SHORT_BLOCKS = 4


def _chunked(values: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray:
    return pa.chunked_array([values]) if isinstance(values, pa.Array) else values


def _changes(values: pa.ChunkedArray) -> pa.ChunkedArray:
    """Whether every row of a non-empty column differs from the next (one less than rows)."""
    return pc.not_equal(values.slice(1), values.slice(0, len(values) - 1))


def _block_bounds(change: pa.ChunkedArray) -> np.ndarray:
    """:attr:`TopicBlocks.bounds` of a column whose neighbours differ where ``change``."""
    at = pc.indices_nonzero(change)
    bounds = np.empty(len(at) + 2, dtype=np.int64)
    bounds[0], bounds[-1] = 0, len(change) + 1
    bounds[1:-1] = arrow.to_numpy(at)
    bounds[1:-1] += 1
    return bounds


def take_rows(values: pa.ChunkedArray, rows: np.ndarray) -> pa.ChunkedArray:
    """``values.take(rows)``, chunk by chunk.

    pyarrow takes from a chunked array by concatenating its chunks first: a copy of a whole
    column of millions of strings, to pick a few of them. Here every chunk gives its own
    rows instead (grouped by a stable radix sort of their chunk numbers when they are not in
    ascending order, and put back in the order asked).
    """
    rows = np.asarray(rows, dtype=np.int64)
    if values.num_chunks == 1:
        return pa.chunked_array([values.chunk(0).take(arrow.array(rows))], values.type)
    lengths = np.array([len(chunk) for chunk in values.chunks])
    ends = np.cumsum(lengths)
    chunk_of = np.searchsorted(ends, rows, "right").astype(np.uint16 if len(ends) < 1 << 16
                                                            else np.int64)
    grouped = None
    if (chunk_of[1:] < chunk_of[:-1]).any():
        grouped = np.argsort(chunk_of, kind="stable")
        rows, chunk_of = rows[grouped], chunk_of[grouped]
    cuts = np.searchsorted(chunk_of, np.arange(len(ends) + 1))
    taken = pa.chunked_array([
        values.chunk(i).take(arrow.array(rows[cuts[i]: cuts[i + 1]] - (ends[i] - lengths[i])))
        for i in range(len(ends)) if cuts[i + 1] > cuts[i]
    ], values.type)
    if grouped is None:
        return taken
    inverse = np.empty_like(grouped)
    inverse[grouped] = np.arange(len(grouped))
    return taken.take(arrow.array(inverse))


def duplicate_rows(
    topic: pa.ChunkedArray,
    docno: pa.ChunkedArray,
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
            lengths = blocks.lengths[suspects]
            rows = np.arange(int(lengths.sum())) + np.repeat(
                blocks.bounds[suspects] - np.cumsum(lengths) + lengths, lengths)
            return rows[_duplicate_rows_exact(take_rows(topic, rows), take_rows(docno, rows))]
    keys = blocks.expand(blocks.first_codes).astype(np.uint64)
    if int(keys.max(initial=0)) >= 1 << 24:  # too many topics to pack: exact path
        return _duplicate_rows_exact(topic, docno)
    # codes follow first appearance: keys of a topic-grouped file are grouped, which the
    # stable (tim) sort exploits; in place, to keep the peak memory low
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
    take = arrow.array(candidates)
    exact = _duplicate_rows_exact(topic.take(take), docno.take(take))
    return candidates[exact]


#: Blocks wider than this are compared on full 64-bit fingerprints (see _colliding_blocks).
_WIDE_BLOCK = 1 << 12


def _colliding_blocks(fingerprints: np.ndarray, blocks: TopicBlocks) -> np.ndarray | None:
    """Blocks holding two rows with equal fingerprints (a superset of the blocks holding a
    duplicate docno), or ``None`` when the blocks are too uneven to be checked this way.

    The fingerprints are laid out as a matrix, one block per row padded to the widest block,
    and every row is sorted (numpy sorts many short rows much faster than one long array).
    A padded row holds its block's values plus padding values; the first ``length`` entries
    of the sorted row are then the block's values exactly as a multiset (padding uses the
    largest value, which sorts last), so comparing neighbours among them is exact. Blocks of
    up to :data:`_WIDE_BLOCK` rows are compared on 32 bits of their fingerprints (a chance
    collision then merely sends a block to the exact check, rarely: about width² / 2³³).
    """
    lengths = blocks.lengths
    width = int(lengths.max())
    n = len(fingerprints)
    if len(lengths) * width > 2 * n:
        return None
    if width <= _WIDE_BLOCK:
        values = fingerprints.astype(np.uint32)  # the lower 32 bits
    else:
        values = fingerprints.copy()
    uniform = bool((lengths == width).all())
    if uniform:
        matrix = values.reshape(len(lengths), width)
    else:
        matrix = np.full((len(lengths), width), np.iinfo(values.dtype).max, dtype=values.dtype)
        slots = np.arange(n)
        slots += np.repeat(np.arange(len(lengths)) * width - blocks.bounds[:-1], lengths)
        matrix.reshape(-1)[slots] = values
        del slots
    del values
    matrix.sort(axis=1)
    equal = matrix[:, 1:] == matrix[:, :-1]
    if not uniform:
        equal &= np.arange(width - 1) < (lengths - 1)[:, None]
    return np.flatnonzero(equal.any(axis=1))


def _duplicate_rows_exact(topic: pa.ChunkedArray, docno: pa.ChunkedArray) -> np.ndarray:
    keys = _pair_keys(topic, docno)
    order = np.argsort(keys, kind="stable")
    same = keys[order][1:] == keys[order][:-1]
    if not same.any():
        return np.empty(0, dtype=np.int64)
    flag = np.zeros(len(keys), dtype=bool)
    flag[1:] |= same
    flag[:-1] |= same
    return np.sort(order[flag])


_LOW_BYTES = np.array([(1 << (8 * i)) - 1 for i in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix64(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser (a bijection of uint64 with good avalanche), in place."""
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return h


def string_fingerprints(values: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """A 64-bit hash (uint64) of every string, computed 8 bytes at a time with numpy.

    Equal strings get equal fingerprints; different strings almost always get different
    ones, but callers must treat equal fingerprints only as candidates for equality.
    Cost: one vectorised pass per 8 bytes of the longest string.
    """
    if isinstance(values, pa.Array):
        values = pa.chunked_array([values])
    if pa.types.is_dictionary(values.type) or not (
        pa.types.is_string(values.type) or pa.types.is_large_string(values.type)
    ):
        values = as_string_array(values)
    out = np.empty(len(values), dtype=np.uint64)
    position = 0
    with np.errstate(over="ignore"):
        for chunk in values.chunks:
            _chunk_fingerprints(chunk, out[position: position + len(chunk)])
            position += len(chunk)
    return out


def _chunk_fingerprints(chunk: pa.Array, h: np.ndarray) -> None:
    """:func:`string_fingerprints` of one string array, written into ``h``.

    The hash of a string of length ``L`` starts from ``L * golden`` and mixes in its bytes
    8 at a time (little-endian words, the last one zero-padded), so that it depends on the
    string only. When all strings have the same length (fixed-width docnos), word ``k`` of
    every string lies at a fixed stride in the data and is read without gathering.
    """
    n = len(chunk)
    if n == 0:
        return
    offset_type = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
    buffers = chunk.buffers()
    offsets = np.frombuffer(buffers[1], dtype=offset_type)[chunk.offset: chunk.offset + n + 1]
    low, high = int(offsets[0]), int(offsets[-1])
    padded = np.zeros(high - low + 8, dtype=np.uint8)  # 8-byte reads stay inside
    if high > low:
        padded[: high - low] = np.frombuffer(buffers[2], dtype=np.uint8)[low:high]
    lengths = np.diff(offsets)
    longest = int(lengths.max())
    if longest * n == high - low:  # every string has the longest length
        h[:] = np.uint64(longest) * _GOLDEN
        for shift in range(0, longest, 8):
            word = np.ndarray(shape=(n,), dtype="<u8", buffer=padded, offset=shift,
                              strides=(longest,))
            h += word & _LOW_BYTES[longest - shift] if longest - shift < 8 else word
            _mix64(h)
        return
    # every (unaligned) 8-byte little-endian word of the data, by starting byte
    words = np.ndarray(shape=(high - low + 1,), dtype="<u8", buffer=padded, strides=(1,))
    starts = offsets[:-1].astype(np.int64) - low
    lengths = lengths.astype(np.int64)
    h[:] = lengths.astype(np.uint64) * _GOLDEN
    for shift in range(0, longest, 8):
        word = words[np.minimum(starts + shift, high - low)]
        word &= _LOW_BYTES[np.clip(lengths - shift, 0, 8)]
        active = lengths > shift  # a string's hash must not depend on its neighbours
        if active.all():
            h += word
            _mix64(h)
        else:
            h[active] = _mix64(h[active] + word[active])


def _pair_keys(topic: pa.ChunkedArray, docno: pa.ChunkedArray) -> np.ndarray:
    """One int64 key per row, equal exactly when (topic, docno) are equal."""
    topic_codes = _codes(topic).astype(np.int64)
    doc_codes = _codes(docno).astype(np.int64)
    return topic_codes * (int(doc_codes.max(initial=-1)) + 1) + doc_codes


def _codes(values: pa.ChunkedArray) -> np.ndarray:
    encoded = pc.dictionary_encode(values).combine_chunks()
    return arrow.to_numpy(encoded.indices)


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
    topic: pa.ChunkedArray,
    docno: pa.ChunkedArray,
    value: np.ndarray,
    policy: DuplicatePolicy,
    source: str,
    describe_row,
    fingerprints: np.ndarray | None = None,
    blocks: TopicBlocks | None = None,
    file_row: np.ndarray | None = None,
) -> np.ndarray | None:
    """Apply a duplicate policy; returns the row indices to keep, or ``None`` to keep all.

    ``describe_row(i)`` gives ``(line number, text)`` of row ``i`` for error messages;
    ``fingerprints`` and ``blocks`` the docnos' fingerprints and the topics' blocks when
    already computed. ``file_row`` is the file row of every row when the rows are not in
    file order but grouped by topic (:meth:`TopicBlocks.grouped`: a topic's rows keep their
    order, so ``first`` and ``last`` are unchanged); the error then names the same
    duplicate as for the rows in file order (the earliest duplicated pair, at its second
    occurrence).
    """
    check_duplicate_policy(policy)
    rows = duplicate_rows(topic, docno, fingerprints, blocks)
    # parsing and checking leave hundreds of MB of freed Arrow memory on a large file: give
    # it back now, before the next stages allocate their own
    pa.default_memory_pool().release_unused()
    if len(rows) == 0:
        return None
    if policy == "error":
        if file_row is not None:
            rows = rows[np.argsort(file_row[rows])]
        topics = topic.take(arrow.array(rows)).to_pylist()
        docs = docno.take(arrow.array(rows)).to_pylist()
        first_pair = (topics[0], docs[0])
        second = next(
            r for r, t, d in zip(rows[1:], topics[1:], docs[1:], strict=True)
            if (t, d) == first_pair
        )
        line, text = describe_row(int(second))
        raise DuplicateError(
            f"duplicate document {first_pair[1]!r} for topic {first_pair[0]!r} "
            f"(use duplicates='first', 'last' or 'max' to de-duplicate explicitly)",
            source=source,
            line=line,
            text=text,
        )
    keys = _pair_keys(topic, docno)
    n = len(keys)
    if policy == "first":
        order = np.lexsort((np.arange(n), keys))
    elif policy == "last":
        order = np.lexsort((-np.arange(n), keys))
    else:
        order = np.lexsort((np.arange(n), -value, keys))
    sorted_keys = keys[order]
    leader = np.ones(n, dtype=bool)
    leader[1:] = sorted_keys[1:] != sorted_keys[:-1]
    return np.sort(order[leader])


def _fits(fingerprints: np.ndarray | None, blocks: TopicBlocks | None, n: int) -> bool:
    """True when precomputed fingerprints and blocks (if any) describe ``n`` rows."""
    return (fingerprints is None or len(fingerprints) == n) and (
        blocks is None or int(blocks.bounds[-1]) == n)


class _IdentifierColumns:
    """What :class:`Qrels` and :class:`Run` derive from their topic and docno columns (and
    take from the reader when it computed them already)."""

    topic: pa.ChunkedArray
    docno: pa.ChunkedArray
    fingerprints: np.ndarray | None
    blocks: TopicBlocks | None

    @cached_property
    def docno_fingerprints(self) -> np.ndarray:
        """The docnos' :func:`string_fingerprints` (uint64), computed at most once."""
        if self.fingerprints is not None:
            return self.fingerprints
        return string_fingerprints(self.docno)

    @cached_property
    def topic_blocks(self) -> TopicBlocks:
        """The topics' :class:`TopicBlocks`, computed at most once."""
        return self.blocks if self.blocks is not None else TopicBlocks.of(self.topic)

    @property
    def topics(self) -> list[str]:
        """Distinct topic ids, sorted by byte order (trec_eval's order)."""
        return sorted(pc.unique(self.topic).to_pylist())


@dataclass(frozen=True, eq=False)
class Qrels(_IdentifierColumns):
    """Relevance judgments: one row per judged (topic, document) pair.

    ``rel`` holds integer relevance degrees. As in trec_eval, a negative degree marks a
    document that is in the pool but was not judged (e.g. the sampled pools of infAP);
    such a document is neither relevant nor judged non-relevant.
    """

    topic: pa.ChunkedArray
    docno: pa.ChunkedArray
    rel: np.ndarray
    source: str = "<qrels>"
    #: The docnos' :func:`string_fingerprints` when the reader computed them already.
    fingerprints: np.ndarray | None = field(default=None, repr=False)
    #: The topics' :class:`TopicBlocks` when the reader computed them already.
    blocks: TopicBlocks | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        n = len(self.rel)
        if not (len(self.topic) == len(self.docno) == n) or not _fits(
            self.fingerprints, self.blocks, n
        ):
            raise InputFormatError("qrels columns have different lengths", source=self.source)

    def __len__(self) -> int:
        return len(self.rel)

    def to_frame(self):
        """The judgments as a DataFrame with columns ``query_id, doc_id, relevance``."""
        import pandas as pd

        return pd.DataFrame(
            {
                "query_id": self.topic.to_numpy(),
                "doc_id": self.docno.to_numpy(),
                "relevance": self.rel,
            }
        )

    def __repr__(self) -> str:
        return f"Qrels({len(self.topics)} topics, {len(self)} judgments, source={self.source!r})"


@dataclass(frozen=True, eq=False)
class Run(_IdentifierColumns):
    """Retrieval results of one system: one row per retrieved (topic, document) pair.

    ``rank`` (the file's rank column) is kept only when asked for, since trec_eval ignores
    it; it is needed by the ``rank-column`` tie policy.

    Rows are usually in file order. When a file does not list each topic's lines together
    (shuffled or interleaved lines), the reader stores the rows grouped by topic instead
    (topics in order of first appearance, a topic's rows in file order, which is all that
    ranking and the duplicate policies depend on) and ``file_row`` gives the file row of
    every row: rows grouped by topic are what the fast paths of duplicate checks and
    ranking work on.
    """

    name: str
    topic: pa.ChunkedArray
    docno: pa.ChunkedArray
    score: np.ndarray
    rank: np.ndarray | None = None
    source: str = "<run>"
    runids: tuple[str, ...] = field(default=())
    #: The docnos' :func:`string_fingerprints` when the reader computed them already.
    fingerprints: np.ndarray | None = field(default=None, repr=False)
    #: The topics' :class:`TopicBlocks` when the reader computed them already.
    blocks: TopicBlocks | None = field(default=None, repr=False)
    #: The file row (0-based, among non-blank lines) of every row when the rows are not in
    #: file order (see above); ``None``: row ``i`` is the file's ``i``-th line.
    file_row: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        n = len(self.score)
        if not (len(self.topic) == len(self.docno) == n) or any(
            column is not None and len(column) != n for column in (self.rank, self.file_row)
        ) or not _fits(self.fingerprints, self.blocks, n):
            raise InputFormatError("run columns have different lengths", source=self.source)

    def __len__(self) -> int:
        return len(self.score)

    def to_frame(self):
        """The results as a DataFrame with columns ``query_id, doc_id, score`` (and ``rank``)."""
        import pandas as pd

        frame = pd.DataFrame(
            {
                "query_id": self.topic.to_numpy(),
                "doc_id": self.docno.to_numpy(),
                "score": self.score,
            }
        )
        if self.rank is not None:
            frame["rank"] = self.rank
        return frame

    def __repr__(self) -> str:
        return (
            f"Run({self.name!r}, {len(self.topics)} topics, {len(self)} results, "
            f"source={self.source!r})"
        )


def as_c_float(scores: np.ndarray) -> np.ndarray:
    """Scores as the C floats trec_eval stores (beyond ±3.4e38: ±inf, quietly)."""
    with np.errstate(over="ignore", under="ignore"):
        return scores.astype(np.float32)


def warn_single_precision(score: np.ndarray, source: str,
                          describe_row: Callable[[int], tuple[int | None, str]]) -> None:
    """Warn when scores lie outside the range of a C ``float``.

    trec_eval 9.0.8 stores scores as C floats (``TEXT_RESULTS.sim``), and irscale's default
    tie policy reproduces it: a score beyond ±3.4e38 becomes infinite and a non-zero score
    below about 1e-45 in magnitude becomes 0, so such scores tie and are ordered by docno
    even though they differ. The numbers are trec_eval's, but rarely what was meant.
    """
    single = as_c_float(score)
    lost = np.isinf(single) | ((single == 0) & (score != 0))
    if not lost.any():
        return
    rows = np.flatnonzero(lost)
    line, text = describe_row(int(rows[0]))
    where = f"{source}, line {line}" if line is not None else source
    warnings.warn(
        f"{where}: score outside the range of a C float ({len(rows)} such score(s), e.g. "
        f"{text!r}): trec_eval, whose tie order irscale reproduces, stores scores as C floats,"
        " so these scores tie and are ordered by docno; rescale the scores (or use --ties "
        "file-order) if that is not meant",
        stacklevel=3,
    )


def assemble_run(
    topic: pa.ChunkedArray,
    docno: pa.ChunkedArray,
    score: np.ndarray,
    rank: np.ndarray | None,
    *,
    name: str,
    source: str,
    runids: tuple[str, ...],
    duplicates: DuplicatePolicy,
    describe_row: Callable[[int], tuple[int | None, str]],
) -> Run:
    """A :class:`Run` of the parsed columns (in input order), as every reader builds it.

    Computes the docno fingerprints and topic blocks once; groups the rows by topic when a
    topic's rows are not together (``Run.file_row`` then keeps each row's input row); applies
    the duplicate policy. ``describe_row(i)`` gives ``(line number, text)`` of input row
    ``i`` for error messages.
    """
    warn_single_precision(score, source, describe_row)
    fingerprints = string_fingerprints(docno)
    file_row, blocks = TopicBlocks.grouped(topic)
    if file_row is not None:
        # a topic's rows are not together: store the rows grouped by topic (see Run)
        topic = blocks.column()
        docno = pa.chunked_array([docno.combine_chunks().take(arrow.array(file_row))])
        score, fingerprints = score[file_row], fingerprints[file_row]
        rank = None if rank is None else rank[file_row]
    keep = resolve_duplicates(
        topic, docno, score, duplicates, source,
        lambda row: describe_row(row if file_row is None else int(file_row[row])),
        fingerprints, blocks, file_row,
    )
    if keep is not None:
        take = arrow.array(keep)
        topic, docno, score = topic.take(take), docno.take(take), score[keep]
        rank = None if rank is None else rank[keep]
        file_row = None if file_row is None else file_row[keep]
        fingerprints, blocks = fingerprints[keep], None
    return Run(name=name, topic=topic, docno=docno, score=score, rank=rank, source=source,
               runids=runids, fingerprints=fingerprints, blocks=blocks, file_row=file_row)
