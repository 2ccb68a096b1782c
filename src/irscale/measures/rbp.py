"""Rank-biased precision, binary and graded, with its residual (Moffat & Zobel, TOIS 2008;
Sakai (2014), §2.2 eq. 16; Ferro & Maistro 2024, §5.1 eq. 13; graded RBP of Ferrante et al.
(2019), §5; NTCIREVAL's RBP).

The user reads rank 1, then moves on from rank i to i + 1 with probability p (persistence,
``p``, default 0.8)::

    RBP    = (1 − p) Σ_{i≤n} p^(i−1) · g_i / gmax
    RBPres = p^n + (1 − p) Σ_{i≤n, d_i unjudged} p^(i−1)

with ``g_i`` the gain of the document at rank i (``gain=``; default ``linear``, so that
``g/gmax`` lies in [0, 1]: binary judgments give binary RBP, graded ones the graded RBP
``gRBP_p`` of Ferrante et al. (2019) with ``g(a_i)/g(a_c)``, and NTCIREVAL's ``RBP`` = ``(1−p)·Σ
g·p^(i−1) / gv[maxrl]``); ``gain=binary`` counts every relevant document (degree ≥ ``rel``) as 1.
``RBPres`` is the residual of Moffat & Zobel: the largest possible increase of RBP if every
unjudged retrieved document (not in the qrels, or judged negative) and every rank beyond
the n evaluated were relevant (of gain gmax) — RBP lies in [RBP, RBP + RBPres]. (trec_eval
10.0's rbp_resid instead reports 0 when every retrieved document is judged.) Powers of p
are formed by repeated multiplication, terms added in rank order. ``gRBP`` is another name
of ``RBP``. Both are linear in the documents' values: their tie-aware values (``--ties
expected``) give each rank its tie group's mean value (:mod:`irscale.measures.ties`).
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import relevant_documents
from .base import EvalContext, register
from .gain_discount import MAXREL, MAXREL_CHECK, element_gains, gain_keyword, max_gain
from .params import Keyword, Keywords, Params, number
from .ties import tie_means

PERSISTENCE = Keyword(number(low=0.0, high=1.0, open_low=True, open_high=True), 0.8,
                      "persistence p: probability of moving on to the next rank")


def powers(p: float, n: int) -> np.ndarray:
    """``[p^0, p^1, ..., p^n]`` by repeated multiplication (trec_eval's ``cur_p *= p``)."""
    return np.cumprod(np.concatenate(([1.0], np.full(n, p))))


def rbp_of(jr: JudgedRankings, p: float, values: np.ndarray,
           index: np.ndarray | None = None) -> np.ndarray:
    """Per ranking: ``(1 − p) Σ p^(i−1) · values_i``, terms added in rank order; ``values``
    per document, or per document of ``index`` (the others being 0). Zero terms, which add
    exactly nothing, are skipped; powers by repeated multiplication."""
    if index is None:
        index = np.flatnonzero(values)
        values = values[index]
    weights = powers(p, int(jr.lengths.max(initial=0)))[jr.rank[index] - 1]
    total = np.bincount(jr.segment[index], weights=values * weights, minlength=jr.n_rankings)
    return (1.0 - p) * total


@register(
    "RBP",
    doc="Rank-biased precision (1 − p) Σ p^(i−1) g_i / gmax; gain=binary for binary RBP "
    "(Moffat & Zobel 2008; Sakai 2014, eq. 16; graded RBP of Ferrante et al. 2019).",
    params=Keywords(p=PERSISTENCE, gain=gain_keyword("linear"),
                    maxrel=MAXREL).checked(MAXREL_CHECK),
    missing_value=0.0,
    formula="(1 − p) Σ_i p^(i−1) g_i / gmax",
    source="Moffat & Zobel 2008",
    tie_aware=True,
)
def rbp(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    p, gain, maxrel = params["p"], params["gain"], params["maxrel"]
    gmax = max_gain(jr, gain, maxrel, "RBP")
    if gmax <= 0:
        return {"RBP": np.zeros(jr.n_rankings)}
    scoring = relevant_documents(jr)
    gains = element_gains(jr, gain, maxrel, "RBP", scoring.index)
    if jr.tie_groups is not None:  # linear in the gains: each rank holds its group's mean
        everywhere = np.zeros(len(jr.rel))
        everywhere[scoring.index] = gains
        return {"RBP": rbp_of(jr, p, tie_means(jr, everywhere)) / gmax}
    return {"RBP": rbp_of(jr, p, gains, scoring.index) / gmax}


@register(
    "RBPres",
    doc="Residual of RBP: p^n + (1 − p) Σ_{unjudged i} p^(i−1), the most RBP could grow if "
    "the unjudged and unretrieved documents were relevant (Moffat & Zobel 2008).",
    params=Keywords(p=PERSISTENCE),
    missing_value=1.0,
    ignores={"rel": "the residual depends on the unjudged documents only",
             "conditional": "the residual depends on the unjudged documents only"},
    formula="p^n + (1 − p) Σ_{unjudged i ≤ n} p^(i−1)",
    source="Moffat & Zobel 2008",
    tie_aware=True,
)
def rbp_residual(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    p = params["p"]
    tail = powers(p, int(jr.lengths.max(initial=0)))[jr.lengths]
    unjudged = tie_means(jr, (~jr.is_judged).astype(np.float64))
    return {"RBPres": tail + rbp_of(jr, p, unjudged)}
