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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np


class Segmented:
    """A batch of rankings cut by ``offsets`` (module documentation): what the judged
    rankings (:class:`~irscale.core.judged.JudgedRankings`) and their subsets
    (:class:`~irscale.core.subsets.Subset`) have alike, their number and sizes."""

    offsets: np.ndarray

    @property
    def n_rankings(self) -> int:
        """Number of rankings (segments)."""
        return len(self.offsets) - 1

    @cached_property
    def lengths(self) -> np.ndarray:
        """Number of elements of each ranking."""
        return np.diff(self.offsets)


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
