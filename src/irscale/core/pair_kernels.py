"""The native engine's pair kernels: the exact image of integer sums ``a + b`` over
groups of sorted partial values, bucket by bucket (``rust/src/scales/int_pairs.rs``),
for the meet-in-the-middle engine of :mod:`irscale.scales.pairs` (``int`` mode).

A group is ``(a, a_mult, b, b_mult)``: partial values sorted ascending with the runs
behind each. The values in a bucket ``[lo, hi)`` are the sums of every ``a`` with the
slice of ``b`` between ``lo − a`` and ``hi − a``; the engine scatters their offsets from
``lo`` into sub-buckets of at most ``2^32`` values, radix-sorts and de-duplicates each,
exactly (no float arithmetic). A pass over many buckets where the ``a`` values share a
residue modulo a factor (AP's prefix values) counts residue class by residue class
instead (``rust/src/scales/residues.rs``: a sum's residue is fixed by its ``b``; a bitmap
per class, no sort). The arrays are read in place (no copy where they are contiguous
int64).
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


#: Fewest buckets a pass of :func:`int_pair_scan` must span to count by residue classes.
CLASS_BUCKETS: int = _engine.INT_PAIR_CLASS_BUCKETS


def int_pair_classes(groups: Sequence[IntGroup], edges: np.ndarray) -> bool:
    """Whether :func:`int_pair_scan` over the buckets of ``edges`` counts their distinct
    sums by residue classes: one fast pass for every bucket (module documentation), which
    its caller need not share out between calls."""
    return _engine.int_pair_classes(_groups(groups), _int64(edges))


#: A group for the sweep: sorted A values, runs and running runs, the same of B (the
#: running runs, ``cum[k] = Σ_{i<k} mult[i]``, may be empty when no weighted count is asked).
Halves = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _halves(groups: Sequence[Halves], integer: bool) -> list[Halves]:
    kind = np.int64 if integer else np.float64
    return [(np.ascontiguousarray(a, dtype=kind), _int64(am), _int64(ac),
             np.ascontiguousarray(b, dtype=kind), _int64(bm), _int64(bc))
            for a, am, ac, b, bm, bc in groups]


def pair_count(groups: Sequence[Halves], x: np.ndarray, *, strict: bool, weighted: bool,
               integer: bool) -> np.ndarray:
    """Per query ``x``, the pairs (runs when ``weighted``) of the groups with ``a + b ≤ x``
    (``< x`` when ``strict``), as numpy's ``searchsorted(other, x − s)`` places each needle
    (``rust/src/scales/sweep.rs``; int64 values when ``integer``, float64 otherwise)."""
    kind = np.int64 if integer else np.float64
    return _engine.pair_count(_halves(groups, integer),
                              np.ascontiguousarray(x, dtype=kind), bool(strict),
                              bool(weighted), bool(integer))


def pair_window(groups: Sequence[Halves], lo: np.ndarray, hi: np.ndarray, *, weighted: bool,
                integer: bool
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs with ``lo_q ≤ a + b ≤ hi_q`` of each query (the left position of
    ``lo_q − s``, the right one of ``hi_q − s``) as ``(below, query, group, a index, b
    index)``: ``below`` the pairs (runs when ``weighted``) under each window."""
    kind = np.int64 if integer else np.float64
    return _engine.pair_window(_halves(groups, integer), np.ascontiguousarray(lo, dtype=kind),
                               np.ascontiguousarray(hi, dtype=kind), bool(weighted),
                               bool(integer))
