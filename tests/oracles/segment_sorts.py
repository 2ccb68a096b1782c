"""Every segment of a CSR batch sorted on its own, on the padded blocks of
:class:`irscale.core.segments.ScanLayout`: the sorts of the numpy/pyarrow ranking that the
native engine replaced (:mod:`tests.oracles.columnar_ranking`), kept with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np

from irscale.core.segments import ScanLayout, _Block
from irscale.parallel.threads import map_threads


def segment_argsort(values: np.ndarray, offsets: np.ndarray,
                    kind: Literal["quicksort", "stable"] = "quicksort",
                    layout: ScanLayout | None = None, *, descending: bool = False
                    ) -> np.ndarray:
    """The index of every value once each segment is sorted ascending on its own, segments
    in place: ``out[offsets[i] + j]`` is the index of segment ``i``'s ``j``-th smallest value
    (numpy's ``kind`` of sort; int32, or int64 past 2^31 values). ``descending`` (floats):
    sorted by the negated values, the largest first (ties in their order for a stable
    sort).

    The segments are the rows of the padded blocks of :class:`ScanLayout` (padded with the
    type's largest value, each row at most twice as wide as its segment), and the rows of a
    block are sorted at once: numpy sorts many short rows much faster than one long array
    (the tied rows of the benchmark's unranked case, 1M rows in groups of 1 to 159: 0.19 s
    by pyarrow's sort of (group, docno) strings, 0.08 s so). A segment's first ``length``
    sorted slots are its values whenever no value equals the padding or the sort is stable.
    The rows are sorted a piece at a time (:func:`_map_pieces`).
    """
    values = np.asarray(values)
    pad = np.inf if values.dtype.kind == "f" else np.iinfo(values.dtype).max
    out = np.empty(len(values), dtype=_index_type(len(values)))

    def sort(piece: _Piece) -> None:
        taken = piece.take(values)
        matrix = piece.padded(-taken if descending else taken, pad)
        piece.put_order(out, matrix.argsort(axis=1, kind=kind))

    _map_pieces(layout or ScanLayout.of(offsets), sort)
    return out


def segment_sort_keys(values: np.ndarray, offsets: np.ndarray,
                      key: Callable[[np.ndarray], np.ndarray],
                      layout: ScanLayout | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every segment sorted on its own by the 32-bit unsigned keys ``key`` gives its values
    (any slice of them), ascending, ties in their order (a stable sort): the index of every
    value in that order, as :func:`segment_argsort` gives it, and the keys so sorted. The
    keys are made piece by piece, in the cache.

    Each key is sorted with its column in the padded row in the low 32 bits of one 64-bit
    word (padding: all ones, after every key), so a plain sort of the words does the work of
    an argsort and yields the sorted keys too, with no gather of the keys afterwards. 2M
    keys in segments of 1,000 on 2 cores: 4 ms, against 11 ms for :func:`segment_argsort`
    of the doubles and 6 ms more to gather them in the order found.
    """
    values = np.asarray(values)
    order = np.empty(len(values), dtype=_index_type(len(values)))
    ordered = np.empty(len(values), dtype=np.uint32)

    def sort(piece: _Piece) -> None:
        words = key(piece.take(values)).astype(np.uint64)
        words <<= np.uint64(32)
        matrix = piece.padded(words, _ALL_ONES)
        matrix |= np.arange(piece.block.width, dtype=np.uint64)  # padding stays all ones
        matrix.sort(axis=1)
        piece.put_order(order, (matrix & np.uint64(_LOW_BITS)).astype(np.int64))
        piece.put_values(ordered, (matrix >> np.uint64(32)).astype(np.uint32))

    if len(values) >= 1 << 32:  # a column would not fit in 32 bits
        raise ValueError("segment_sort_keys sorts fewer than 2^32 keys")
    _map_pieces(layout or ScanLayout.of(offsets), sort)
    return order, ordered


_ALL_ONES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_LOW_BITS = 0xFFFF_FFFF


def _index_type(n_values: int) -> type[np.signedinteger]:
    """Indices in 32 bits when they fit: half the memory."""
    return np.int32 if n_values <= 1 << 31 else np.int64


@dataclass(frozen=True, eq=False)
class _Piece:
    """Rows ``row`` to ``stop`` of a block of :class:`ScanLayout`: the block's elements
    ``begin`` to ``end`` (laid end to end), whose rows start at ``first`` (one per row, in
    those elements)."""

    block: _Block
    row: int
    stop: int
    begin: int
    end: int
    first: np.ndarray

    @cached_property
    def slots(self) -> np.ndarray:
        """Each element's position in the piece's padded matrix."""
        return self.block.flat[self.begin:self.end] - self.row * self.block.width

    def take(self, values: np.ndarray) -> np.ndarray:
        """The piece's elements of ``values`` (of the whole batch), in order."""
        if isinstance(self.block.elements, np.ndarray):
            return values[self.block.elements[self.begin:self.end]]
        return values[self.begin:self.end]

    def padded(self, taken: np.ndarray, pad: object) -> np.ndarray:
        """``taken`` (from :meth:`take`) as the piece's ``rows × width`` matrix, the rows
        padded with ``pad`` (a view when every row is full)."""
        shape = (self.stop - self.row, self.block.width)
        if self.block.dense:
            return taken.reshape(shape)
        matrix = np.full(shape[0] * shape[1], pad, dtype=taken.dtype)
        matrix[self.slots] = taken
        return matrix.reshape(shape)

    def put_values(self, out: np.ndarray, matrix: np.ndarray) -> None:
        """The rows' first ``length`` values of ``matrix`` into ``out``, at the piece's
        elements."""
        flat = matrix.ravel() if self.block.dense else matrix.ravel()[self.slots]
        if isinstance(self.block.elements, np.ndarray):
            out[self.block.elements[self.begin:self.end]] = flat
        else:
            out[self.begin:self.end] = flat

    def put_order(self, out: np.ndarray, columns: np.ndarray) -> None:
        """``columns`` (the column of each sorted slot, ``rows × width`` int64) as the
        indices of the batch's elements into ``out``, at the piece's elements."""
        columns += (self.first - self.begin)[:, None]  # rows laid end to end
        ordered = columns.ravel() if self.block.dense else columns.ravel()[self.slots]
        if isinstance(self.block.elements, np.ndarray):
            mine = self.block.elements[self.begin:self.end]
            out[mine] = mine[ordered]
        else:  # the block's elements are the values, in order
            np.add(ordered, self.begin, out=out[self.begin:self.end])


def _map_pieces(layout: ScanLayout, work: Callable[[_Piece], None]) -> None:
    """``work`` on every piece of about :data:`_SORT_PIECE` elements (whole rows) of each
    block of ``layout``, shared out between the usable cores
    (:func:`~irscale.parallel.threads.map_threads`): the matrices and their sort orders are
    small pieces reused from one to the next, where whole ones were fresh memory (1M scores
    in blocks of 1,000, sorted in a fresh process: 5,000 -> 2,000 page faults, 16 -> 6 ms).
    """
    for block in layout.blocks:
        first = np.cumsum(block.lengths) - block.lengths  # each row's first element
        total = int(block.lengths.sum())
        step = max(1, _SORT_PIECE // block.width)  # rows sorted at once

        def piece(row: int, block: _Block = block, first: np.ndarray = first,
                  total: int = total, step: int = step) -> None:
            stop = min(row + step, block.n_rows)
            end = int(first[stop]) if stop < block.n_rows else total
            work(_Piece(block, row, stop, int(first[row]), end, first[row:stop]))

        map_threads(piece, range(0, block.n_rows, step))


#: Elements of a block sorted at once by :func:`segment_argsort` and
#: :func:`segment_sort_keys` (whole rows).
_SORT_PIECE = 1 << 17
