"""Cumulated relative position, CRP (Angelini, Ferro, Järvelin, Keskustalo, Pirkola,
Santucci and Silvello, "Cumulated Relative Position: A Metric for Ranking Evaluation",
CLEF 2012), and the twist τ (Ferro, Silvello, Keskustalo, Pirkola and Järvelin, "The twist
measure for IR evaluation: taking user's effort into account", JASIST 2016), as MATTERS
computes them (its ``twist.m``: the authors' library).

A ranking is cut or padded with non-relevant documents to ``N`` documents (MATTERS'
``FixNumberRetrievedDocuments``, 1,000 by default as trec_eval's), and compared with the
topic's ideal ranking of length ``N``: its judged documents by decreasing degree, then
non-relevant ones. A document of degree v (degrees below 1 and unjudged documents: 0)
belongs in the ideal's ranks [min_v, max_v] of its degree; at rank i its relative position
is::

    RP_i = i − min_v  if i < min_v (too early: negative)
           i − max_v  if i > max_v (too late: positive)
           0          otherwise, and where the ideal holds no document of degree v

``CRP(k=K)`` = Σ_{i ≤ K} RP_i (``k`` none: K = N). The twist combines two indicators of
the whole curve:

* ρ, the recovery ratio: with x_i = +1 where CRP_i > 0 and −1 elsewhere, ρ = R /
  max(R, j), j the first rank with x_{j+1} ≠ x_j (R the topic's relevant documents); where
  the sign never changes, ρ = 1 for a curve that is 0 everywhere (the ideal ranking) and 0
  otherwise;
* σ, the space ratio: with F the ideal ranking reversed (the worst order of the same
  documents) and RP^F its relative positions, f = 1 − Σ_{RP>0} RP / Σ_{RP^F>0} RP^F and
  b = 1 − Σ_{RP<0} RP / Σ_{RP^F<0} RP^F, σ = 2fb / (f + b);

τ = (ρ + σ)/2, 0 for a ranking with no relevant document, in [0, 1] (1: the ideal
ranking). R and the grades are the degrees themselves, whatever the relevance level (a
name with ``rel=`` is refused). Where MATTERS divides 0 by 0 (a topic with no relevant
document, whose CRP is NaN there; F with no displacement, as when every one of the N
ideal documents has one degree), irscale gives 0 for τ and CRP (no relevant document:
trec_eval's convention), 1 for f or b (nothing could be displaced, and nothing was), and 0
for σ when f + b = 0.

Worked examples are in ``tests/test_measures_twist.py``. The kernels hold N degrees per
ranking and loop over the rankings (not yet vectorised over the batch, as the other
families are).
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from .base import EvalContext, register
from .params import Keyword, Keywords, Params, integer, optional

#: The length rankings are cut or padded to: at most 10⁶ documents (its work and memory
#: are N per ranking).
LENGTH = Keyword(integer(low=1, high=10**6), 1000,
                 "rankings cut or padded with non-relevant documents to N documents "
                 "(MATTERS' default, as trec_eval's 1,000)")
#: Why a relevance level changes neither measure.
_DEGREES = ("it places every degree in the ideal ranking's ranks of that degree (R: the "
            "documents of degree ≥ 1), whatever the level")
RANK = Keyword(optional(integer(low=1, high=10**6)), None,
               "the rank K at which CRP is read (none: N)")


def _grades(jr: JudgedRankings, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Per ranking, its degrees cut or padded to ``length`` (rankings × length; below 1 and
    unjudged: 0) and its topic's ideal ranking of the same length."""
    n = jr.n_rankings
    run = np.zeros((n, length), dtype=np.int64)
    rank = jr.rank - 1
    keep = rank < length
    run[jr.segment[keep], rank[keep]] = np.maximum(jr.rel[keep], 0)
    degrees = jr.column_degrees
    ideal = np.zeros((n, length), dtype=np.int64)
    for row in range(n):
        counts = jr.rel_levels[row]
        positive = [(int(d), int(c)) for d, c in zip(degrees, counts, strict=True) if d > 0]
        grades = np.repeat([d for d, _ in positive[::-1]], [c for _, c in positive[::-1]])
        ideal[row, :min(len(grades), length)] = grades[:length]
    return run, ideal


def _relative_positions(run: np.ndarray, ideal: np.ndarray) -> np.ndarray:
    """RP of every rank of ``run`` against ``ideal`` (module documentation)."""
    out = np.zeros(run.shape, dtype=np.int64)
    ranks = np.arange(1, run.shape[1] + 1)
    for row in range(run.shape[0]):
        for grade in np.unique(run[row]):
            where = np.flatnonzero(ideal[row] == grade)
            if not len(where):
                continue
            low, high = where[0] + 1, where[-1] + 1
            at = run[row] == grade
            out[row] = np.where(at & (ranks < low), ranks - low, out[row])
            out[row] = np.where(at & (ranks > high), ranks - high, out[row])
    return out


def _ratio(part: float, whole: float) -> float:
    """1 − part/whole, 1 where nothing could be displaced (``whole`` 0)."""
    return 1.0 - part / whole if whole else 1.0


@register(
    "CRP",
    doc="Cumulated relative position Σ_{i≤K} RP_i of a ranking cut or padded to N: each "
    "document's displacement from its degree's ranks in the ideal ranking (Angelini et "
    "al. 2012; MATTERS).",
    params=Keywords(k=RANK, N=LENGTH),
    cutoff="none",
    missing_value=0.0,
    ignores={"rel": _DEGREES},
    formula="Σ_{i≤K} RP_i, RP_i = i − min_v (i < min_v), i − max_v (i > max_v), else 0",
    source="Angelini, Ferro, Järvelin, Keskustalo, Pirkola, Santucci and Silvello, CLEF "
    "2012; MATTERS (twist.m)",
)
def crp(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    length = int(params["N"])
    depth = length if params["k"] is None else int(params["k"])
    run, ideal = _grades(jr, max(length, depth))
    rp = _relative_positions(run[:, :length], ideal[:, :length])
    values = rp[:, :depth].sum(axis=1).astype(np.float64)
    return {"CRP": np.where(jr.judged_at_least(1) > 0, values, 0.0)}


@register(
    "twist",
    doc="Twist τ = (ρ + σ)/2: the recovery ratio of the CRP curve and the harmonic mean of "
    "its forward and backward space ratios (Ferro et al. 2016; MATTERS).",
    params=Keywords(N=LENGTH),
    cutoff="none",
    missing_value=0.0,
    ignores={"rel": _DEGREES},
    formula="(ρ + σ)/2, ρ = R / max(R, first sign change of CRP), σ = 2fb/(f + b)",
    source="Ferro, Silvello, Keskustalo, Pirkola and Järvelin, JASIST 2016; MATTERS "
    "(twist.m)",
)
def twist(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    length = int(params["N"])
    run, ideal = _grades(jr, length)
    rp = _relative_positions(run, ideal)
    worst = _relative_positions(ideal[:, ::-1], ideal)
    curve = np.cumsum(rp, axis=1)
    recall_base = jr.judged_at_least(1)  # R: the documents of degree ≥ 1
    found = (run > 0).any(axis=1)
    out = np.zeros(jr.n_rankings)
    for row in np.flatnonzero(found & (recall_base > 0)):
        sign = np.where(curve[row] > 0, 1, -1)
        change = np.flatnonzero(np.diff(sign))
        if len(change):
            rho = recall_base[row] / max(recall_base[row], change[0] + 1)
        else:
            rho = 1.0 if not curve[row].any() else 0.0
        f = _ratio(rp[row][rp[row] > 0].sum(), worst[row][worst[row] > 0].sum())
        b = _ratio(rp[row][rp[row] < 0].sum(), worst[row][worst[row] < 0].sum())
        sigma = 2 * f * b / (f + b) if f + b else 0.0
        out[row] = (rho + sigma) / 2
    return {"twist": out}
