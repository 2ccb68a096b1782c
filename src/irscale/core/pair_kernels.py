"""The native engine's pair kernels: the exact image of integer sums ``a + b`` over
groups of sorted partial values, bucket by bucket (``rust/src/scales/int_pairs.rs``),
for the meet-in-the-middle engine of :mod:`irscale.scales.pairs` (``int`` mode).

A group is ``(a, a_mult, b, b_mult)``: partial values sorted ascending with the runs
behind each. The values in a bucket ``[lo, hi)`` are the sums of every ``a`` with the
slice of ``b`` between ``lo − a`` and ``hi − a``; the engine scatters their offsets from
``lo`` into sub-buckets of at most ``2^32`` values, radix-sorts and de-duplicates each,
exactly (no float arithmetic). The arrays are read in place (no copy where they are
contiguous int64).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import _engine

#: A group of the meet in the middle: sorted A values and runs, sorted B values and runs.
IntGroup = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _int64(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def _groups(groups: Sequence[IntGroup]) -> list[IntGroup]:
    return [(_int64(a), _int64(am), _int64(b), _int64(bm)) for a, am, b, bm in groups]


def int_pair_bucket(groups: Sequence[IntGroup], lo: int, hi: int, counts: bool
                    ) -> tuple[np.ndarray, np.ndarray | None, int]:
    """The distinct sums in ``[lo, hi)``, ascending; their runs (``Σ a_mult·b_mult`` over
    the pairs of a value) when ``counts``, else ``None``; and the number of pairs."""
    return _engine.int_pair_bucket(_groups(groups), int(lo), int(hi), bool(counts))


def int_pair_scan(groups: Sequence[IntGroup], edges: np.ndarray, queries: np.ndarray,
                  strict: bool) -> tuple[np.ndarray, np.ndarray]:
    """One pass over the buckets ``[edges[k], edges[k+1])`` (shared out between threads,
    joined in order): the distinct sums of each bucket, and per query the distinct sums ≤
    it (< it when ``strict``); a query outside the edges belongs to the first or last
    bucket."""
    return _engine.int_pair_scan(_groups(groups), _int64(edges), _int64(queries),
                                 bool(strict))
