"""Compatibility: rank-biased overlap with an ideal ranking (Clarke, Vtyurina & Smucker,
"Assessing top-k preferences", TOIS 2021; Clarke, Smucker & Vtyurina, CIKM 2020).

The ideal ranking of a topic lists its relevant documents (degree ≥ ``rel``) by decreasing
degree; documents of one degree are tied, and the ideal most compatible with the run puts
those the run retrieved first, in the run's order (the others follow; their order does not
change the value). With ``A_d = |run[:d] ∩ ideal[:d]| / d`` the agreement at depth d,
rank-biased overlap (Webber, Moffat & Zobel, TOIS 2010) is::

    RBO(run, ideal) = (1 − p) Σ_{d≥1} p^(d−1) A_d
    Compat = RBO(run, ideal) / RBO(ideal, ideal)           (normalize=1, default)

The sum runs to infinity: beyond the end of both lists the overlap stays the same, and its
tail is summed in closed form (Σ_{d≥1} p^(d−1)/d = −ln(1 − p)/p). A document at rank r of
the run and position q of the ideal is in both prefixes from depth ``max(r, q)`` on, so
``RBO = (1 − p) Σ_docs T(max(r, q))`` with ``T(m) = Σ_{d≥m} p^(d−1)/d``. The normalisation
by the ideal's own RBO, below 1 for a finite ideal, is the one the TOIS paper introduces for
short ideal rankings; ``normalize=0`` gives the RBO itself (the CIKM and ICTIR 2020 papers'
values). Persistence ``p`` defaults to 0.95, the papers' (about NDCG@20's depth). 0 for a
topic without relevant documents. Clarke's reference code sums to depth 1000 instead of
infinity (a difference below 1e-20 with p ≤ 0.95).
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import Subset
from .arrays import safe_divide
from .base import EvalContext, register
from .params import Keyword, Keywords, Params, flag, number


def tail_weights(p: float, depth: int) -> np.ndarray:
    """``T(m) = Σ_{d≥m} p^(d−1)/d`` for m = 1..depth: −ln(1 − p)/p less the head sums."""
    d = np.arange(1, depth + 1, dtype=np.float64)
    head = np.concatenate(([0.0], np.cumsum(p ** (d - 1) / d)))[:-1]
    return np.maximum(-np.log1p(-p) / p - head, 0.0)


def ideal_positions(jr: JudgedRankings, subset: Subset) -> np.ndarray:
    """Per document of ``subset`` (the relevant retrieved ones): its 1-based position in
    the ideal ranking (more relevant documents first, then those of its degree the run
    retrieved above it)."""
    degrees = jr.column_degrees
    counted = np.where(degrees >= max(jr.relevance_level, 0), jr.rel_levels, 0)
    # judged documents of a higher degree than each column's, per ranking
    higher = counted[:, ::-1].cumsum(axis=1)[:, ::-1] - counted
    column = np.searchsorted(degrees, subset.rel)
    above = higher[subset.segment, column]
    order = np.lexsort((subset.rank, subset.rel, subset.segment))
    group = subset.segment[order] * (int(subset.rel.max(initial=0)) + 1) + subset.rel[order]
    first = np.concatenate(([True], group[1:] != group[:-1]))
    start = np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
    same = np.empty(len(order), dtype=np.int64)
    same[order] = np.arange(len(order)) - start
    return above + same + 1


@register(
    "Compat",
    doc="Compatibility: rank-biased overlap between the ranking and the ideal ranking most "
    "compatible with it, normalised by the ideal's own (Clarke, Vtyurina & Smucker 2021).",
    params=Keywords(
        p=Keyword(number(low=0.0, high=1.0, open_low=True, open_high=True), 0.95,
                  "persistence p of rank-biased overlap"),
        normalize=Keyword(flag, True, "divide by the ideal ranking's RBO with itself"),
    ),
    missing_value=0.0,
    formula="RBO(run, ideal) / RBO(ideal, ideal), RBO = (1 − p) Σ_d p^(d−1) |run[:d] ∩ "
            "ideal[:d]| / d",
    source="Clarke, Vtyurina & Smucker 2021",
)
def compatibility(jr: JudgedRankings, params: Params,
                  ctx: EvalContext) -> dict[str, np.ndarray]:
    p = params["p"]
    subset = Subset.of(jr, jr.is_relevant & jr.is_judged)
    ideal_size = jr.judged_at_least(jr.relevance_level)
    position = ideal_positions(jr, subset)
    depth = max(int(jr.lengths.max(initial=0)), int(ideal_size.max(initial=0)), 1)
    tail = tail_weights(p, depth)
    value = (1.0 - p) * subset.total(tail[np.maximum(subset.rank, position) - 1])
    if params["normalize"]:
        best = (1.0 - p) * np.concatenate(([0.0], np.cumsum(tail)))[ideal_size]
        value = safe_divide(value, best)
    return {"Compat": value}
