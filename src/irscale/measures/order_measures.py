"""The interval-scale measures of the formal theory of IR measures: SBTO and RBTO (Ferrante,
Ferro & Pontarollo, TKDE 2019; Ferrante et al. 2019, §4–5, eq. 3 and 6).

Runs are judged runs ``r̂ ∈ REL^N`` over the degrees ``a_0 < a_1 < ... < a_c``; ``δ(a_j) = j``.
N is the cut-off k (shorter runs are padded with non-relevant documents) or, without one,
the run's length; c is ``maxrel`` (default: the highest degree judged in the batch).
Documents below the relevance level ``rel`` and unjudged documents count as ``a_0``.

* **SBTO** (set-based total order, eq. 3) — the rank of the run's multiset of degrees in the
  total order that compares runs by their number of documents of the highest degree at
  which they differ (eq. 1)::

      SBTO(r̂) = Σ_{j=1..N} binom(δ(r̂_j) + N − j, N − j + 1),   r̂_1 ≥ r̂_2 ≥ ... ≥ r̂_N

  SBTO takes every value 0 .. binom(N + c, N) − 1 exactly once. (The extended abstract of
  Ferrante et al. (2019) print the sort as ``r̂_i ≤ r̂_{i+1}``; only the decreasing order gives the
  rank function of order (1) — e.g. N = 2, c = 2: (1,1) ↦ 2 < (2,0) ↦ 3 — which the tests
  check on every run.) Binary relevance: SBTO is the number of relevant documents.
* **RBTO** (rank-based total order, eq. 6) — the rank of the run in the strongly top-heavy
  (lexicographic) order (eq. 4): the run's degrees read as a number in base c + 1::

      RBTO(r̂) = Σ_{i=1..N} δ(r̂[i]) (c + 1)^(N−i)

  exact in floating point while (c + 1)^N ≤ 2^53 (e.g. N ≤ 33 for c = 2); ``norm=1`` gives
  RBTO / ((c + 1)^N − 1) ∈ [0, 1], finite for any N.

Both are interval scales on their orders (Ferrante et al. 2019, Theorem 1); the interval-scale
engine (:mod:`irscale.scales`) evaluates them on synthetic runs.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError
from .base import EvalContext, register
from .gain_discount import MAXREL, scale_levels
from .params import CUTOFF, Keyword, Keywords, Params, flag


def degrees(jr: JudgedRankings, maxrel: int | None, family: str) -> tuple[np.ndarray, int]:
    """Per document: ``δ`` (0 below the relevance level or unjudged), and c."""
    c = scale_levels(jr, maxrel) - 1
    delta = np.where(jr.rel >= max(jr.relevance_level, 1), jr.rel, 0)
    return delta, c


def _depth(jr: JudgedRankings, cutoff: int | None) -> tuple[JudgedRankings, np.ndarray]:
    """The rankings cut at the cut-off, and N per ranking."""
    if cutoff is None:
        return jr, jr.lengths
    return jr.truncate(cutoff), np.full(jr.n_rankings, cutoff)


def multiset_rank(delta: np.ndarray, position: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Per document of a run sorted by decreasing degree: ``binom(δ + m − 1, m)`` with
    ``m = N − j + 1`` (j its 1-based position), as a double.

    Each distinct ``(δ, m)`` is computed once in exact integer arithmetic (``math.comb``:
    no loop over the degrees, so a degree of 10,000,000 costs what a degree of 2 does) and
    rounded to the nearest double; a term beyond the doubles is an error, never a wrapped
    integer.
    """
    m = np.asarray(n - position + 1, dtype=np.int64)
    delta = np.asarray(delta, dtype=np.int64)
    out = np.zeros(len(delta))
    positive = delta >= 1
    if not positive.any():
        return out
    d_pos, m_pos = delta[positive], m[positive]
    order = np.lexsort((m_pos, d_pos))  # distinct (δ, m) pairs by one sort, any δ
    d_sorted, m_sorted = d_pos[order], m_pos[order]
    first = np.concatenate(([True], (np.diff(d_sorted) != 0) | (np.diff(m_sorted) != 0)))
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    values = np.empty(int(first.sum()))
    pairs = zip(d_sorted[first].tolist(), m_sorted[first].tolist(), strict=True)
    for k, (d, size) in enumerate(pairs):
        try:
            values[k] = float(math.comb(d + size - 1, size)) if size >= 0 else 0.0
        except OverflowError:
            raise MeasureError(
                f"measure 'SBTO': binom({d + size - 1}, {size}) (degree {d}, {size} ranks to "
                "go) is beyond the range of a double; use a smaller cut-off"
            ) from None
    out[positive] = values[inverse]
    return out


@register(
    "SBTO",
    doc="Set-based total order: rank of the run's multiset of relevance degrees, an interval "
    "scale (Ferrante et al. 2019, eq. 3).",
    params=Keywords(cutoff=CUTOFF),
    formula="rank of the run's multiset of relevance degrees in the set-based total order",
    source="Ferrante et al. 2019",
)
def sbto(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    view, n = _depth(jr, params["cutoff"])
    delta, _ = degrees(view, None, "SBTO")
    order = np.lexsort((-delta, view.segment))  # decreasing degree within each run
    terms = multiset_rank(delta[order], view.rank, n[view.segment])
    return {"SBTO": view.segment_sum(terms)}


@register(
    "RBTO",
    doc="Rank-based total order: the run's degrees read as a number in base c + 1, an "
    "interval scale (Ferrante et al. 2019, eq. 6); norm=1 scales it to [0, 1].",
    params=Keywords(maxrel=MAXREL, cutoff=CUTOFF,
                    norm=Keyword(flag, False, "divide by (c + 1)^N − 1")),
    formula="Σ_i r_i (c + 1)^(N − i): the degrees read as a number in base c + 1",
    source="Ferrante et al. 2019",
)
def rbto(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    view, n = _depth(jr, params["cutoff"])
    delta, c = degrees(view, params["maxrel"], "RBTO")
    base = float(c + 1)
    longest = int(n.max(initial=0))
    if not params["norm"] and longest > 1 and (longest - 1) * math.log2(base) >= 1024:
        raise MeasureError(
            f"measure 'RBTO': (c + 1)^(N − 1) with c = {c} and N = {longest} is beyond the "
            "range of a double; use norm=1 (RBTO / ((c + 1)^N − 1)) or a smaller cut-off")
    if params["norm"]:
        scale = 1.0 - np.power(base, -n.astype(np.float64))
        weights = np.power(base, -view.rank.astype(np.float64))
        total = view.segment_sum(delta * weights)
        return {"RBTO": np.divide(total, scale, out=np.zeros(len(total)), where=scale > 0)}
    weights = np.power(base, (n[view.segment] - view.rank).astype(np.float64))
    return {"RBTO": view.segment_sum(delta * weights)}
