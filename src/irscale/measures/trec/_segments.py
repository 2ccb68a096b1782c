"""Per-ranking helpers shared by the trec_eval kernels.

trec_eval computes every measure with a C loop over one topic's ranking, accumulating
doubles one document at a time in rank order. The kernels reproduce that bit for bit with
the in-order reductions of :mod:`irscale.core.segments` (:meth:`JudgedRankings.segment_sum`
and the scans below, which reuse the batch's block layout).

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
from ...core.segments import segment_scan

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


def running_sum(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Per document, the sum of ``values`` from its ranking's first document to it (C order)."""
    return segment_scan(np.asarray(values, dtype=np.float64), jr.offsets, np.add, 0.0,
                        layout=jr.scan_layout)


def suffix_max(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Per document, the maximum of ``values`` from it to its ranking's last document."""
    return segment_scan(np.asarray(values, dtype=np.float64), jr.offsets, np.maximum,
                        -np.inf, reverse=True, layout=jr.scan_layout)


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
