"""Precision at document cut-offs: P, relative_P, Rprec, Rprec_mult.

Sources: trec_eval 9.0.8 m_P.c, m_rel_P.c, m_Rprec.c, m_Rprec_mult.c. With ``h(k)`` the
number of relevant documents (degree ≥ level) among the first ``k`` retrieved — a ranking
shorter than ``k`` is padded with non-relevant documents — ``R`` the number of relevant
documents of the topic and ``n`` the number retrieved::

    P_k          = h(k) / k
    relative_P_k = h(k) / min(k, R)                      (0 when R = 0)
    Rprec        = h(min(n, R)) / R                      (0 when n = 0 or R = 0)
    Rprec_mult_x = h(c) / c  with c = (long)(x·R + 0.9)  (0 when c ≤ 0)

Rprec_mult's ``c`` is computed in doubles and truncated, as trec_eval does (unchanged in
10.0). For a cut-off beyond the ranking trec_eval divides ``num_rel_ret`` (relevant
*judged* documents retrieved) by ``c``; that is ``h(c)`` for any level ≥ 0.
"""

from __future__ import annotations

import numpy as np

from ...core.judged import JudgedRankings
from ...core.subsets import relevant_documents
from ..base import (
    Cutoffs,
    EvalContext,
    Floats,
    Range,
    hits_at,
    register,
    safe_divide,
)
from ._segments import c_long

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_R_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


@register(
    "P",
    doc="Precision after k documents retrieved: relevant in the top k, divided by k "
    "(missing ranks count as non-relevant; trec_eval m_P.c).",
    params=Cutoffs(*_CUTOFFS),
    formula="P@k = |relevant in top k| / k",
    source="trec_eval 9.0.8 (m_P.c)",
)
def precision(
    jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext
) -> dict[str, np.ndarray]:
    return {f"P_{k}": hits_at(jr, k) / k for k in cutoffs}


@register(
    "relative_P",
    doc="Relative precision at k: relevant in the top k divided by min(k, R), the best "
    "possible (trec_eval m_rel_P.c).",
    params=Cutoffs(*_CUTOFFS),
    formula="|relevant in top k| / min(k, R)",
    source="trec_eval 9.0.8 (m_rel_P.c)",
)
def relative_precision(
    jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext
) -> dict[str, np.ndarray]:
    num_rel = jr.num_rel
    has_rel = num_rel > 0
    out = {}
    for k in cutoffs:
        value = np.zeros(jr.n_rankings)
        value[has_rel] = hits_at(jr, k)[has_rel] / np.minimum(k, num_rel[has_rel])
        out[f"relative_P_{k}"] = value
    return out


@register(
    "Rprec",
    doc="R-precision: precision after R documents, R the number of relevant documents "
    "(trec_eval m_Rprec.c).",
    formula="|relevant in top R| / R",
    source="trec_eval 9.0.8 (m_Rprec.c)",
)
def r_precision(jr: JudgedRankings, params: None, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"Rprec": safe_divide(hits_at(jr, np.minimum(jr.lengths, jr.num_rel)), jr.num_rel)}


@register(
    "Rprec_mult",
    doc="Precision at multiples x of R: precision after (long)(x·R + 0.9) documents "
    "(trec_eval m_Rprec_mult.c). Multiples 0 < x ≤ 10^6 (x ≤ 0 gives 0 for every topic; "
    "the cut-off x·R must fit a C long).",
    params=Floats(*_R_MULTIPLES, valid=Range("each multiple of R", low=0.0, high=1e6,
                                             open_low=True)),
    formula="P@(long)(x·R + 0.9)",
    source="trec_eval 9.0.8 (m_Rprec_mult.c)",
)
def r_precision_multiples(
    jr: JudgedRankings, multiples: tuple[float, ...], ctx: EvalContext
) -> dict[str, np.ndarray]:
    n = jr.lengths
    # trec_eval's rel_so_far in its reverse loop starts from num_rel_ret (judged relevant
    # documents) at the last rank and drops at every document passing degree ≥ level: the
    # relevant documents at ranks ≤ the cut-off, shifted when a level ≤ -1 lets documents
    # outside the qrels pass (the shift is 0 for any level ≥ 0)
    shift = jr.num_rel_ret - relevant_documents(jr).counts
    out = {}
    for x in multiples:
        cut = c_long(x * jr.num_rel.astype(np.float64) + 0.9)
        value = np.zeros(jr.n_rankings)
        beyond = cut > n
        value[beyond] = jr.num_rel_ret[beyond] / cut[beyond]
        inside = (cut >= 1) & ~beyond
        at_cut = np.where(inside, hits_at(jr, np.where(inside, cut, 0)) + shift, 0)
        reached = inside & (at_cut > 0)
        value[reached] = at_cut[reached] / cut[reached]
        out[f"Rprec_mult_{x:3.2f}"] = value
    return out
