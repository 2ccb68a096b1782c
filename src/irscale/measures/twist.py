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
ranking (rankings × N arrays) and work on the whole batch at once, with no loop over the
rankings or their documents.
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


def _run_grades(jr: JudgedRankings, length: int) -> np.ndarray:
    """Per ranking, its degrees cut or padded to ``length`` (rankings × length; below 1 and
    unjudged: 0)."""
    run = np.zeros((jr.n_rankings, length), dtype=np.int64)
    rank = jr.rank - 1
    keep = rank < length
    run[jr.segment[keep], rank[keep]] = np.maximum(jr.rel[keep], 0)
    return run


def _ideal(jr: JudgedRankings, length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ideal ranking of each ranking's topic, cut or padded to ``length``, as runs of
    ranks: ``grades`` (its positive degrees decreasing, then 0) and, per ranking and grade,
    the 0-based ranks [``start``, ``end``) that grade fills (rankings × grades; empty where
    the ideal holds none of it). Each degree fills as many ranks as its topic judged
    documents of it, in turn, until ``length``; 0 fills the rest."""
    degrees = jr.column_degrees
    positive = degrees > 0
    grades = np.append(degrees[positive][::-1], 0)
    counts = jr.rel_levels[:, positive][:, ::-1]
    end = np.minimum(np.cumsum(counts, axis=1), length)
    end = np.hstack([end, np.full((jr.n_rankings, 1), length, dtype=end.dtype)])
    start = np.hstack([np.zeros((jr.n_rankings, 1), dtype=end.dtype), end[:, :-1]])
    return grades, start.astype(np.int64), end.astype(np.int64)


def _relative_positions(run: np.ndarray, grades: np.ndarray, start: np.ndarray,
                        end: np.ndarray) -> np.ndarray:
    """RP of every rank of ``run`` against the ideal ``grades`` / ``start`` / ``end`` of
    :func:`_ideal` (module documentation), for every row at once: each document's degree
    is looked up in ``grades``, and its row's [min_v, max_v] = [start + 1, end] read with
    ``np.take_along_axis``; a degree the ideal does not hold gives 0."""
    ranks = np.arange(1, run.shape[1] + 1)
    order = np.argsort(grades, kind="stable")
    found = np.minimum(np.searchsorted(grades[order], run), len(grades) - 1)
    column = order[found]
    low = np.take_along_axis(start, column, axis=1) + 1
    high = np.take_along_axis(end, column, axis=1)
    out = np.where(ranks < low, ranks - low, np.where(ranks > high, ranks - high, 0))
    return np.where((grades[column] == run) & (high >= low), out, 0)


def _worst(grades: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """F, the ideal ranking reversed (rankings × length): its grades, each repeated over
    its ranks, from the last rank to the first."""
    n = start.shape[0]
    ideal = np.repeat(np.broadcast_to(grades, start.shape).ravel(), (end - start).ravel())
    return ideal.reshape(n, -1)[:, ::-1]


def _ratio(part: np.ndarray, whole: np.ndarray) -> np.ndarray:
    """1 − part/whole per row, 1 where nothing could be displaced (``whole`` 0)."""
    return np.where(whole != 0, 1.0 - part / np.where(whole != 0, whole, 1), 1.0)


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
    rp = _relative_positions(_run_grades(jr, length), *_ideal(jr, length))
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
    run = _run_grades(jr, length)
    ideal = _ideal(jr, length)
    rp = _relative_positions(run, *ideal)
    worst = _relative_positions(_worst(*ideal), *ideal)
    curve = np.cumsum(rp, axis=1)
    recall_base = jr.judged_at_least(1)  # R: the documents of degree ≥ 1
    found = (run > 0).any(axis=1)
    sign = np.where(curve > 0, 1, -1)
    changed = np.diff(sign, axis=1, append=sign[:, -1:]) != 0  # N = 1: no change
    first = np.argmax(changed, axis=1) + 1  # j: the first rank with x_{j+1} ≠ x_j
    rho = np.where(changed.any(axis=1), recall_base / np.maximum(recall_base, first),
                   np.where(curve.any(axis=1), 0.0, 1.0))
    f = _ratio(np.where(rp > 0, rp, 0).sum(axis=1), np.where(worst > 0, worst, 0).sum(axis=1))
    b = _ratio(np.where(rp < 0, rp, 0).sum(axis=1), np.where(worst < 0, worst, 0).sum(axis=1))
    total = f + b
    sigma = np.where(total != 0, 2 * f * b / np.where(total != 0, total, 1), 0.0)
    return {"twist": np.where(found & (recall_base > 0), (rho + sigma) / 2, 0.0)}
