"""Binary preference and inferred AP: bpref, gm_bpref, infAP.

Sources: trec_eval 9.0.8 m_bpref.c, m_gm_bpref.c, m_infap.c. These measures look only at
*judged* documents: a document outside the qrels (``-1``) or pooled but unjudged (a negative
degree in the qrels, ``-2``) is skipped, not taken as non-relevant. Judged documents are
relevant (degree ≥ level) or non-relevant (0 ≤ degree < level). For the relevant
retrieved documents, in rank order, with ``N(d)`` the judged non-relevant documents ranked
above ``d``, ``R`` the relevant documents of the topic and ``NR`` its judged non-relevant
documents::

    bpref  = (1/R) Σ_d [ 1 - min(N(d), R) / min(NR, R) ]   (the term is 1 when N(d) = 0)

infAP (Yilmaz and Aslam, CIKM 2006) at a relevant document of 0-based index ``j`` among all
retrieved documents (non-pooled ones included), with ``r``, ``nr`` and ``u`` the relevant,
non-relevant and pooled-unjudged documents at indices ≤ j (``r`` counts the document
itself) and ε = 0.00001::

    term = 1                                                        if j = 0
    term = 1/(j+1) + (j/(j+1)) · ((r-1+nr+u)/j) · ((r-1+ε)/(r-1+nr+2ε))  otherwise
    infAP = (1/R) Σ term

All sums are accumulated in rank order; R = 0 gives 0. gm_bpref is bpref summarised by the
geometric mean of max(bpref, 0.00001) and is printed only in the summary.
"""

from __future__ import annotations

import numpy as np

from ...core.judged import UNJUDGED, JudgedRankings
from ...core.subsets import Subset, memo, pooled_documents
from ..base import EvalContext, register

INFAP_EPSILON = 0.00001


def _judged_counts(jr: JudgedRankings) -> tuple[Subset, np.ndarray, np.ndarray]:
    """The pooled documents (every judged one is among them), the flags of the judged
    relevant ones, and per pooled document the judged non-relevant ones at or above it."""

    def compute() -> tuple[Subset, np.ndarray, np.ndarray]:
        pooled = pooled_documents(jr)
        judged = pooled.rel >= 0
        relevant = judged & (pooled.rel >= jr.relevance_level)
        return pooled, relevant, pooled.cumcount(judged & ~relevant)

    return memo(jr, "judged_counts", compute)


def _divide_by_num_rel(jr: JudgedRankings, total: np.ndarray) -> np.ndarray:
    out = total.copy()
    has_rel = jr.num_rel > 0
    out[has_rel] = total[has_rel] / jr.num_rel[has_rel]
    return out


def binary_preference(jr: JudgedRankings) -> np.ndarray:
    """Per ranking: trec_eval's bpref."""

    def compute() -> np.ndarray:
        pooled, relevant, nonrel_so_far = _judged_counts(jr)
        ranking = pooled.segment[relevant]
        num_rel, num_nonrel = jr.num_rel[ranking], jr.num_nonrel[ranking]
        above = nonrel_so_far[relevant]
        terms = np.ones(len(above))
        some = above > 0
        terms[some] = 1.0 - (
            np.minimum(above[some], num_rel[some]) / np.minimum(num_nonrel[some], num_rel[some])
        )
        total = np.bincount(ranking, weights=terms, minlength=jr.n_rankings)  # rank order
        return _divide_by_num_rel(jr, total)

    return memo(jr, "bpref", compute)


@register(
    "bpref",
    doc="Binary preference: for each relevant retrieved document, the fraction of the first R "
    "judged non-relevant documents ranked below it, averaged over R (trec_eval m_bpref.c).",
    formula="(1/R) Σ_{relevant d retrieved} (1 − min(n_d, R)/min(R, N)), n_d judged non-relevant "
            "above d, N judged non-relevant",
    source="Buckley & Voorhees 2004; trec_eval 9.0.8 (m_bpref.c)",
)
def bpref(jr: JudgedRankings, params: None, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"bpref": binary_preference(jr)}


@register(
    "gm_bpref",
    doc="bpref summarised by the geometric mean of max(bpref, 0.00001) over topics "
    "(trec_eval m_gm_bpref.c); printed only in the summary.",
    aggregate="gmean",
    per_query=False,
    formula="exp(mean over topics of log max(bpref, 0.00001))",
    source="trec_eval 9.0.8 (m_gm_bpref.c)",
)
def gm_bpref(jr: JudgedRankings, params: None, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"gm_bpref": binary_preference(jr)}


@register(
    "infAP",
    doc="Inferred average precision for sampled judgments (Yilmaz and Aslam, CIKM 2006): "
    "pooled-but-unjudged documents are skipped, non-pooled ones count as non-relevant "
    "(trec_eval m_infap.c).",
    formula="inferred AP: expected precision at the relevant ranks, estimated from the judged "
            "sample",
    source="Yilmaz & Aslam 2006; trec_eval 9.0.8 (m_infap.c)",
)
def inferred_ap(jr: JudgedRankings, params: None, ctx: EvalContext) -> dict[str, np.ndarray]:
    pooled, relevant, nonrel_so_far = _judged_counts(jr)
    rel_so_far = pooled.cumcount(relevant)[relevant]
    unjudged_so_far = pooled.cumcount(pooled.rel == UNJUDGED)[relevant]
    nonrel_so_far = nonrel_so_far[relevant]
    fj = (pooled.rank[relevant] - 1).astype(np.float64)
    terms = np.ones(len(fj))
    later = fj > 0
    fj, r1 = fj[later], rel_so_far[later] - 1
    nr, unj = nonrel_so_far[later], unjudged_so_far[later]
    # same operations, in the same order, as the C expression
    terms[later] = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r1 + nr + unj) / fj) * (
        (r1 + INFAP_EPSILON) / ((r1 + nr) + 2 * INFAP_EPSILON)
    )
    total = np.bincount(pooled.segment[relevant], weights=terms, minlength=jr.n_rankings)
    return {"infAP": _divide_by_num_rel(jr, total)}
