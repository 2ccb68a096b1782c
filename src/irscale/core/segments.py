"""Segment operations on CSR batches: sums and scans restarted at every segment.

A batch of rankings is a flat array cut into segments by ``offsets`` (segment ``i`` is
``values[offsets[i]:offsets[i + 1]]``). trec_eval computes each measure with a C loop over
one ranking, accumulating doubles one document at a time; to reproduce its values bit for
bit, float reductions here never subtract global cumulative sums (which round with the
magnitude of everything before the segment) nor use numpy's pairwise summation:

* :func:`ranges`: the concatenated index ranges of segments (``arange`` per segment);
* :func:`segment_sum`: per segment, values added in order (``np.bincount`` with weights
  adds its inputs in order, one bin per segment); integers exactly;
* :func:`segment_scan`: ``ufunc.accumulate`` restarted at every segment, forwards (running
  sums) or backwards (e.g. the running maximum of interpolated precision). Segments are
  laid out as rows of padded 2-D blocks, grouped by length (each row at most twice as wide
  as its segment), so one ``accumulate`` call per block does the work of the C loop for
  all of its segments;
* :func:`segment_argsort`: every segment sorted on its own, on the same padded blocks;
  :func:`segment_sort_keys` the same for 32-bit keys, the keys too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np

from ..parallel.threads import map_threads


def chunks(offsets: np.ndarray, rows: int) -> Iterator[tuple[int, int]]:
    """``(first, stop)`` ranges of whole segments (``offsets``: one more entry than
    segments) of about ``rows`` elements each, one segment at least: work done a chunk at a
    time keeps its temporaries small (and reused by the allocator)."""
    first, n = 0, len(offsets) - 1
    while first < n:
        stop = int(np.searchsorted(offsets, offsets[first] + rows, "right")) - 1
        stop = min(max(stop, first + 1), n)
        yield first, stop
        first = stop


def padded_slots(lengths: np.ndarray, width: int) -> np.ndarray:
    """The position of every element of segments laid end to end (these ``lengths``) in a
    row-major matrix of one segment per row, padded to ``width`` columns: segment ``k``'s
    elements at ``k * width, k * width + 1, ...`` (:func:`ranges`)."""
    return ranges(np.arange(len(lengths)) * width, lengths)


def segment_ids(offsets: np.ndarray) -> np.ndarray:
    """Segment index of every element."""
    return np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(starts[k], starts[k] + lengths[k])`` for every k."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    positions = np.arange(total, dtype=np.int64)
    positions -= np.repeat(offsets - starts, lengths)
    return positions


def segment_sum(values: np.ndarray, offsets: np.ndarray,
                segment: np.ndarray | None = None) -> np.ndarray:
    """Sum of ``values`` over each segment (empty → 0); floats added in order."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        if segment is None:
            segment = segment_ids(offsets)
        return np.bincount(segment, weights=values, minlength=len(offsets) - 1)
    totals = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
    return totals[offsets[1:]] - totals[offsets[:-1]]


def segment_cumsum(values: np.ndarray, offsets: np.ndarray,
                   layout: ScanLayout | None = None) -> np.ndarray:
    """Cumulative sum restarting at each segment (floats accumulated within the segment)."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return segment_scan(values, offsets, np.add, 0.0, layout=layout)
    totals = np.cumsum(values, dtype=np.int64)
    before = np.concatenate(([0], totals))[offsets[:-1]]
    return totals - np.repeat(before, np.diff(offsets))


@dataclass(frozen=True, eq=False)
class _Block:
    """Segments of similar length laid out as the rows of a ``rows × width`` matrix.

    ``flat`` is each element's position in the flattened matrix, ``lengths`` each row's
    segment length; ``dense`` says the block is the whole batch with every segment exactly
    ``width`` long (a plain reshape).
    """

    elements: np.ndarray | slice
    flat: np.ndarray
    lengths: np.ndarray
    width: int
    dense: bool = False

    @property
    def n_rows(self) -> int:
        return len(self.lengths)


@dataclass(frozen=True, eq=False)
class ScanLayout:
    """The padded blocks of a batch, computed once and reused by every scan."""

    blocks: tuple[_Block, ...]

    @classmethod
    def of(cls, offsets: np.ndarray) -> ScanLayout:
        lengths = np.diff(offsets)
        filled = lengths > 0
        if not filled.any():
            return cls(())
        width = int(lengths.max())
        if (lengths == width).all():  # a plain reshape: no positions to compute
            return cls((_Block(slice(None), np.zeros(0, dtype=np.int64), lengths, width,
                               True),))
        # bucket = bit length of (length - 1): lengths in (2^(b-1), 2^b] share a bucket
        bucket = np.zeros(len(lengths), dtype=np.int8)
        bucket[filled] = np.frexp((lengths[filled] - 1).astype(np.float64))[1]
        kinds = np.flatnonzero(np.bincount(bucket[filled])).astype(np.int8)  # np.unique
        if len(kinds) == 1:
            return cls((_Block(slice(None), padded_slots(lengths[filled], width),
                               lengths[filled], width),))
        blocks = []
        for kind in kinds.tolist():
            # a block's elements, in order, are those of its segments laid end to end
            in_block = np.flatnonzero(filled & (bucket == kind))
            width = int(lengths[in_block].max())
            blocks.append(_Block(ranges(offsets[in_block], lengths[in_block]),
                                 padded_slots(lengths[in_block], width), lengths[in_block],
                                 width))
        return cls(tuple(blocks))


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


def segment_scan(
    values: np.ndarray,
    offsets: np.ndarray,
    ufunc: np.ufunc,
    fill: float,
    *,
    reverse: bool = False,
    layout: ScanLayout | None = None,
) -> np.ndarray:
    """``ufunc.accumulate`` of ``values`` within every segment, restarted at each segment.

    Forwards, element ``i`` holds ``values[first] ∘ ... ∘ values[i]`` combined left to right
    exactly as a C loop does (``np.add``: the running sum; ``np.maximum``: the running
    maximum). With ``reverse``, the scan runs from each segment's last element back to
    element ``i``. ``fill`` must be the ufunc's identity (0 for add, -inf for maximum): it
    pads the shorter segments of a block. ``layout`` (from :meth:`ScanLayout.of`) may be
    passed to reuse the block layout of the batch.
    """
    values = np.asarray(values)
    out = np.empty(len(values), dtype=values.dtype)
    for block in (layout or ScanLayout.of(offsets)).blocks:
        if block.width > _LONG_ROWS:
            _scan_rows(values, out, block, ufunc, fill, reverse)
            continue
        if block.dense:
            matrix = values.reshape(block.n_rows, block.width)
        else:
            matrix = np.full(block.n_rows * block.width, fill, dtype=values.dtype)
            matrix[block.flat] = values[block.elements]
            matrix = matrix.reshape(block.n_rows, block.width)
        if reverse:
            scanned = ufunc.accumulate(matrix[:, ::-1], axis=1)[:, ::-1]
        else:
            scanned = ufunc.accumulate(matrix, axis=1)
        if block.dense:
            out[:] = scanned.ravel()
        else:
            out[block.elements] = scanned.ravel()[block.flat]
    return out


#: Blocks of :class:`ScanLayout` whose rows are wider than this (segments of more than half
#: as many elements) are scanned one segment at a time: one ``accumulate`` per segment costs
#: less than padding, scattering and gathering them (1,000 segments of 2,500-7,500 floats:
#: 23 against 90 ms; 5 of 100,000-300,000: 3.3 against 10.8 ms), and the segments number at
#: most one per this many elements.
_LONG_ROWS = 1024


def _scan_rows(values: np.ndarray, out: np.ndarray, block: _Block, ufunc: np.ufunc,
               fill: float, reverse: bool) -> None:
    """:func:`segment_scan` of the segments of ``block`` into ``out``, one at a time.

    The same values bit for bit as the block's padded rows: forwards the padding comes
    after a segment; backwards it comes first, so a segment shorter than the row starts
    from ``fill`` (``0.0 + -0.0`` is ``0.0``)."""
    lengths = block.lengths
    starts = np.cumsum(lengths) - lengths  # in the block's elements, laid end to end
    if isinstance(block.elements, np.ndarray):  # the block's segments are not all of them
        starts = block.elements[starts]
    for start, length in zip(starts.tolist(), lengths.tolist(), strict=True):
        segment = values[start: start + length]
        if not reverse:
            ufunc.accumulate(segment, out=out[start: start + length])
        elif length == block.width:
            ufunc.accumulate(segment[::-1], out=out[start: start + length][::-1])
        else:
            seeded = ufunc.accumulate(np.concatenate((np.full(1, fill, values.dtype),
                                                      segment[::-1])))
            out[start: start + length] = seeded[:0:-1]
