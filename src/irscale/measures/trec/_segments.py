"""Exact per-ranking primitives shared by the trec_eval kernels.

trec_eval computes every measure with a C loop over one topic's ranking, accumulating
doubles one document at a time in rank order. To reproduce its values *bit for bit* (so
that ``%6.4f`` prints the same digits even on rounding boundaries), the kernels here never
use a difference of global cumulative sums (which rounds with the magnitude of everything
before the ranking) nor numpy's pairwise summation:

* per-ranking sums added in rank order are :meth:`JudgedRankings.segment_sum`;
* :func:`segment_scan` — ``ufunc.accumulate`` restarted at every ranking, forwards (running
  sums as trec_eval's ``sum += ...``) or backwards (trec_eval's reverse loops, e.g. the
  running maximum of interpolated precision). Rankings are laid out as rows of padded 2-D
  blocks, grouped by length (each row at most twice as wide as its ranking), so one
  ``accumulate`` call per block does the work of the C loop for all of its rankings.

:func:`memo` caches derived arrays on a :class:`JudgedRankings` (by identity) so that
families sharing a quantity (map, gm_map and map_cut share the running AP sums) compute it
once per batch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import numpy as np

from ...core.judged import JudgedRankings

T = TypeVar("T")

_MEMO: WeakKeyDictionary[JudgedRankings, dict[str, Any]] = WeakKeyDictionary()


def memo(jr: JudgedRankings, key: str, compute: Callable[[], T]) -> T:
    """``compute()``, cached for this batch of rankings under ``key``."""
    store = _MEMO.setdefault(jr, {})
    if key not in store:
        store[key] = compute()
    return store[key]


def last_value(jr: JudgedRankings, values: np.ndarray, default: float = 0.0) -> np.ndarray:
    """Per ranking, the value at its last document (``default`` for an empty ranking)."""
    out = np.full(jr.n_rankings, default, dtype=np.asarray(values).dtype)
    filled = jr.lengths > 0
    out[filled] = values[jr.offsets[1:][filled] - 1]
    return out


def first_value(jr: JudgedRankings, values: np.ndarray, default: float = 0.0) -> np.ndarray:
    """Per ranking, the value at its first document (``default`` for an empty ranking)."""
    out = np.full(jr.n_rankings, default, dtype=np.asarray(values).dtype)
    filled = jr.lengths > 0
    out[filled] = values[jr.offsets[:-1][filled]]
    return out


# ---------------------------------------------------------------- padded blocks
class _Block:
    """Rankings of similar length laid out as the rows of a ``rows × width`` matrix.

    ``flat`` is each element's position in the flattened matrix; ``dense`` says the block
    is the whole batch with every ranking exactly ``width`` long (a plain reshape).
    """

    __slots__ = ("dense", "elements", "flat", "n_rows", "width")

    def __init__(self, elements: np.ndarray | slice, rows: np.ndarray, cols: np.ndarray,
                 n_rows: int, width: int, dense: bool = False) -> None:
        self.elements = elements
        self.flat = rows * width + cols
        self.n_rows = n_rows
        self.width = width
        self.dense = dense


def _blocks(jr: JudgedRankings) -> list[_Block]:
    lengths = jr.lengths
    filled = lengths > 0
    if not filled.any():
        return []
    # bucket = bit length of (length - 1): lengths in (2^(b-1), 2^b] share a bucket
    bucket = np.zeros(jr.n_rankings, dtype=np.int8)
    bucket[filled] = np.frexp((lengths[filled] - 1).astype(np.float64))[1]
    kinds = np.unique(bucket[filled])
    cols = jr.rank - 1
    if len(kinds) == 1:
        rows_of_block = np.flatnonzero(filled)
        local = np.cumsum(filled) - 1
        width = int(lengths.max())
        dense = bool(filled.all() and (lengths == width).all())
        return [_Block(slice(None), local[jr.segment], cols, len(rows_of_block), width, dense)]
    element_bucket = bucket[jr.segment]
    order = np.argsort(element_bucket, kind="stable")  # radix sort on int8: O(n)
    bounds = np.searchsorted(element_bucket[order], kinds, side="left").tolist()
    bounds.append(len(order))
    blocks = []
    for index, kind in enumerate(kinds.tolist()):
        in_block = filled & (bucket == kind)
        local = np.cumsum(in_block) - 1
        elements = order[bounds[index]:bounds[index + 1]]
        blocks.append(_Block(elements, local[jr.segment[elements]], cols[elements],
                             int(in_block.sum()), int(lengths[in_block].max())))
    return blocks


def segment_scan(
    jr: JudgedRankings,
    values: np.ndarray,
    ufunc: np.ufunc,
    fill: float,
    *,
    reverse: bool = False,
) -> np.ndarray:
    """``ufunc.accumulate`` of ``values`` within every ranking, restarted at each ranking.

    Forwards, element ``i`` holds ``values[first] ∘ ... ∘ values[i]`` combined left to right
    exactly as a C loop does (``np.add``: the running sum; ``np.maximum``: the running
    maximum). With ``reverse``, the scan runs from each ranking's last document up to
    element ``i``. ``fill`` must be the ufunc's identity (0 for add, -inf for maximum): it
    pads the shorter rankings of a block.
    """
    values = np.asarray(values)
    out = np.empty(len(values), dtype=values.dtype)
    for block in memo(jr, "_blocks", lambda: _blocks(jr)):
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


def running_sum(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Per document, the sum of ``values`` from its ranking's first document to it (C order)."""
    return segment_scan(jr, np.asarray(values, dtype=np.float64), np.add, 0.0)


def suffix_max(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Per document, the maximum of ``values`` from it to its ranking's last document."""
    return segment_scan(jr, np.asarray(values, dtype=np.float64), np.maximum, -np.inf,
                        reverse=True)


def running_sum_at(jr: JudgedRankings, running: np.ndarray, k: int) -> np.ndarray:
    """Per ranking, a running sum read after its first ``k`` documents (all if shorter)."""
    depth = np.minimum(jr.lengths, max(int(k), 0))
    out = np.zeros(jr.n_rankings)
    ok = depth > 0
    out[ok] = running[jr.offsets[:-1][ok] + depth[ok] - 1]
    return out


def c_long(x: np.ndarray) -> np.ndarray:
    """C's ``(long) x`` for doubles: truncation towards zero."""
    return np.trunc(np.asarray(x, dtype=np.float64)).astype(np.int64)


def c_lround(x: np.ndarray) -> np.ndarray:
    """C's ``lround(x)``: nearest integer, halves away from zero (exact for every double)."""
    x = np.asarray(x, dtype=np.float64)
    whole = np.trunc(x)
    fraction = x - whole  # exact
    return (whole + np.sign(x) * (np.abs(fraction) >= 0.5)).astype(np.int64)
