"""Identifier columns: Arrow string arrays, chunk-wise row takes, and topic blocks.

Topic and document identifiers are pyarrow string arrays (:func:`as_string_array`).
:class:`TopicBlocks` describes a column by its blocks (maximal runs of equal consecutive
values): TREC files list the lines of a topic together, so per-topic work is done once
per block, not per line. :func:`take_rows` takes rows from a chunked column without
concatenating its chunks first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa

from . import arrow
from . import arrow_compute as pc


def as_string_array(values: object) -> pa.ChunkedArray:
    """Identifiers as a pyarrow chunked string array (dictionary arrays are decoded)."""
    array = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values)
    if isinstance(array, pa.Array):
        array = pa.chunked_array([array])
    if pa.types.is_dictionary(array.type):
        array = pc.cast(array, array.type.value_type)
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        array = pc.cast(array, pa.string())
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
        encoded; unless no value recurs among the first blocks (a million topics of a line
        or two each): then the blocks' short keys, sorted, tell whether every block holds
        another value (:func:`~irscale.core._columnar.arrow.sorted_distinct`). The codes are
        sorted by :func:`stable_order` (radix passes, O(n)).
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
            bounds = _block_bounds(change)
            if not _repeats(take_rows(values, bounds[:-1][:_SAMPLED_BLOCKS]).combine_chunks()):
                # a block per value, it seems (a million topics of a line or two each): their
                # short keys sorted tell, where encoding the column took 0.11-0.18 s
                heads = (values if n_blocks == len(values)  # a row per block: all of them
                         else take_rows(values, bounds[:-1])).combine_chunks()
                by_keys = arrow.sorted_distinct(heads)
                if by_keys is not None and len(by_keys[0]) == n_blocks:
                    return None, cls.distinct(bounds, heads)
            encoded = pc.dictionary_encode(values.combine_chunks())
            distinct = encoded.dictionary
            if len(distinct) == n_blocks:  # a block per value: the values in block order
                return None, cls.distinct(bounds, distinct)
            codes = arrow.to_numpy(encoded.indices).astype(np.int64)
            del encoded
        grouped_bounds = np.zeros(len(distinct) + 1, dtype=np.int64)
        np.cumsum(np.bincount(codes, minlength=len(distinct)), out=grouped_bounds[1:])
        return stable_order(codes, len(distinct)), cls(bounds=grouped_bounds, heads=distinct)

    @classmethod
    def distinct(cls, bounds: np.ndarray, heads: pa.Array) -> TopicBlocks:
        """Blocks known to hold each a different value (``heads`` distinct): their values
        are their own dictionary, so :attr:`first_codes` and :attr:`contiguous` need no
        encoding (with a million topics, one costs 0.15-0.2 s)."""
        blocks = cls(bounds=bounds, heads=heads)
        codes = arrow.array(np.arange(len(heads), dtype=np.int32))
        blocks.__dict__["_encoded"] = pa.DictionaryArray.from_arrays(codes, heads)
        return blocks

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
        if len(self) == 0:
            return True
        by_keys = self._by_short_keys()
        if by_keys is not None:
            return len(by_keys[0]) == len(self)
        return int(self.first_codes.max()) + 1 == len(self)

    def value_codes(self) -> np.ndarray:
        """A code (int64) for every block's value, equal exactly where the values are: the
        codes :attr:`contiguous` was decided with (byte order, or first appearance), so that
        no second encoding is made."""
        by_keys = self._by_short_keys()
        return self.first_codes if by_keys is None else by_keys[1]

    def _by_short_keys(self) -> tuple[np.ndarray, np.ndarray] | None:
        """:attr:`_short_sorted`, unless the values are dictionary-encoded already or repeat
        among the first blocks (:attr:`_repeating`)."""
        if "_encoded" in self.__dict__ or self._repeating:
            return None
        return self._short_sorted

    @cached_property
    def _repeating(self) -> bool:
        """Whether a value fills two of the first :data:`_SAMPLED_BLOCKS` blocks: lines of
        topics interleaved (qrels written in another order than by topic), blocks of a row or
        two whose values recur. Then one hash of every block's value (and a sort of the
        distinct values only) is cheaper than a sort of every block's key: 2M blocks of
        100,000 topics, 0.06-0.09 s against 0.2-0.3 s. A million topics of a block each
        repeat nowhere and are sorted (see :attr:`_short_sorted`)."""
        return _repeats(self.heads.slice(0, _SAMPLED_BLOCKS))

    @cached_property
    def _short_sorted(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The blocks' values sorted by their short keys (:func:`arrow.sorted_distinct`;
        ``None``: longer than 8 bytes): a million topic ids in 0.06-0.1 s, against 0.2 s to
        dictionary-encode them and 0.05 s more to sort the distinct values."""
        return arrow.sorted_distinct(self.heads)

    def expand(self, per_block: np.ndarray) -> np.ndarray:
        """Per-block values repeated for every row of their block."""
        return np.repeat(per_block, self.lengths)

    def column(self) -> pa.ChunkedArray:
        """The column these blocks describe: every block's value repeated for its rows."""
        codes = arrow.array(self.expand(np.arange(len(self))))
        return pa.chunked_array([pc.take(self.heads, codes)])


def _repeats(values: pa.Array) -> bool:
    """Whether a value occurs twice among ``values``."""
    return len(pc.unique(values)) < len(values)


#: :meth:`TopicBlocks.grouped` encodes a whole column when its blocks average fewer rows.
_SHORT_BLOCKS = 4
#: Blocks whose values :attr:`TopicBlocks._repeating` looks at.
_SAMPLED_BLOCKS = 1 << 12


def stable_order(codes: np.ndarray, n_codes: int) -> np.ndarray:
    """The stable permutation that sorts ``codes`` (integers from 0 to ``n_codes - 1``).

    numpy's stable sort of 8- and 16-bit keys is a radix sort (O(n)): codes below 2^16 take
    one pass, codes below 2^32 two (the lower 16 bits first, then the upper ones, stably),
    others a stable sort of the codes themselves. 2M codes of 100,000 values: 0.05-0.06 s
    against 0.11 s for an unstable sort of (code, row) packed in 64 bits and 0.18 s for a
    stable one of the codes."""
    if n_codes <= 1 << 16:
        return np.argsort(codes.astype(np.uint8 if n_codes <= 1 << 8 else np.uint16),
                          kind="stable")
    if n_codes > 1 << 32:
        return np.argsort(codes, kind="stable")
    rows = np.argsort((codes & 0xFFFF).astype(np.uint16), kind="stable")
    return rows[np.argsort((codes[rows] >> 16).astype(np.uint16), kind="stable")]


def _chunked(values: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray:
    return pa.chunked_array([values]) if isinstance(values, pa.Array) else values


def _changes(values: pa.ChunkedArray) -> pa.ChunkedArray:
    """Whether every row of a non-empty column differs from the next (one less than rows)."""
    return pc.elementwise_shared(pc.not_equal, values.slice(1),
                                 values.slice(0, len(values) - 1))


def _block_bounds(change: pa.ChunkedArray) -> np.ndarray:
    """:attr:`TopicBlocks.bounds` of a column whose neighbours differ where ``change``."""
    if len(change) == 0:  # one row, one block (pyarrow 14-17 crash on an empty column here)
        return np.array([0, 1], dtype=np.int64)
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
    rows instead (:func:`take_rows_by_chunk`), put back in the order asked.
    """
    taken, grouped = take_rows_by_chunk(values, rows)
    if grouped is None:
        return taken
    inverse = np.empty_like(grouped)
    inverse[grouped] = np.arange(len(grouped))
    return arrow.take_column(taken.combine_chunks(), inverse)


def take_rows_by_chunk(values: pa.ChunkedArray, rows: np.ndarray
                       ) -> tuple[pa.ChunkedArray, np.ndarray | None]:
    """``(taken, grouped)``: the values of ``rows`` grouped by the chunk that holds them,
    ``taken[i] = values[rows[grouped[i]]]`` (``grouped``: a stable radix sort of the rows'
    chunk numbers; ``None`` when the rows come chunk by chunk already, and ``taken`` is
    ``values.take(rows)``). For callers to whom the order of the values is free (a sort
    follows), as putting them back costs a concatenation and a second take."""
    rows = np.asarray(rows, dtype=np.int64)
    if values.num_chunks == 1:
        return pa.chunked_array([arrow.take(values.chunk(0), rows)], values.type), None
    lengths = np.array([len(chunk) for chunk in values.chunks])
    ends = np.cumsum(lengths)
    chunk_of = np.searchsorted(ends, rows, "right").astype(np.uint16 if len(ends) < 1 << 16
                                                            else np.int64)
    grouped = None
    if (chunk_of[1:] < chunk_of[:-1]).any():
        grouped = np.argsort(chunk_of, kind="stable")
        rows, chunk_of = rows[grouped], chunk_of[grouped]
    cuts = np.searchsorted(chunk_of, np.arange(len(ends) + 1))
    return pa.chunked_array([
        arrow.take(values.chunk(i), rows[cuts[i]: cuts[i + 1]] - (ends[i] - lengths[i]))
        for i in range(len(ends)) if cuts[i + 1] > cuts[i]
    ], values.type), grouped
