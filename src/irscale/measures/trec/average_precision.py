"""Average precision: map, gm_map, map_cut (trec_eval 9.0.8 m_map.c, m_gm_map.c, m_map_cut.c).

With ``rel(i)`` the relevance test ``degree ≥ level`` of the document at rank ``i`` and
``c(i)`` the number of such documents at ranks ``1..i``::

    S(k)   = Σ_{i ≤ k, rel(i)} c(i) / i          (added one document at a time, rank order)
    map    = S(n) / R   if some retrieved document is relevant, else 0
    map_cut_k = S(min(k, n)) / R                  (0 when R = 0)
    gm_map = map per topic; the summary is the geometric mean of max(map, 1e-5)

``R`` is the number of judged documents with degree ≥ level (unretrieved relevant
documents count 0); ``n`` the number of retrieved documents (after -M and -J).
"""

from __future__ import annotations

import numpy as np

from ...core.judged import JudgedRankings
from ...core.subsets import memo, relevant_documents
from ..base import Cutoffs, EvalContext, register

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def precision_at_relevant(jr: JudgedRankings) -> np.ndarray:
    """Per relevant retrieved document (:func:`relevant_documents`): ``c(i) / i``."""

    def compute() -> np.ndarray:
        relevant = relevant_documents(jr)
        return relevant.position() / relevant.rank

    return memo(jr, "precision_at_relevant", compute)


def ap_sum_at(jr: JudgedRankings, k: int) -> np.ndarray:
    """Per ranking: ``S(min(k, n))``, precision at the relevant ranks ≤ k added in rank order
    (the non-relevant documents add exact zeros in the C loop, so they are skipped)."""
    relevant = relevant_documents(jr)
    return relevant.total(np.where(relevant.rank <= k, precision_at_relevant(jr), 0.0))


def average_precision(jr: JudgedRankings) -> np.ndarray:
    """Per ranking: trec_eval's AP, ``S(n) / R`` when a relevant document was retrieved."""

    def compute() -> np.ndarray:
        relevant = relevant_documents(jr)
        total = relevant.total(precision_at_relevant(jr))
        found = relevant.counts > 0
        out = np.zeros(jr.n_rankings)
        with np.errstate(divide="ignore", invalid="ignore"):
            # R = 0 with a "relevant" document only happens with a level ≤ -1 (inf, as C)
            out[found] = total[found] / jr.num_rel[found]
        return out

    return memo(jr, "average_precision", compute)


@register(
    "map",
    doc="Mean average precision: mean over the relevant documents of the precision at their "
    "rank, unretrieved relevant documents counting 0 (trec_eval m_map.c).",
    formula="AP = (1/R) Σ_{relevant d retrieved} P@rank(d)",
    source="trec_eval 9.0.8 (m_map.c)",
)
def mean_average_precision(
    jr: JudgedRankings, params: None, ctx: EvalContext
) -> dict[str, np.ndarray]:
    return {"map": average_precision(jr)}


@register(
    "gm_map",
    doc="Geometric mean average precision: AP per topic, summarised by the geometric mean of "
    "max(AP, 0.00001) (trec_eval m_gm_map.c); printed only in the summary.",
    aggregate="gmean",
    per_query=False,
    formula="exp(mean over topics of log max(AP, 0.00001))",
    source="trec_eval 9.0.8 (m_gm_map.c)",
)
def geometric_mean_average_precision(
    jr: JudgedRankings, params: None, ctx: EvalContext
) -> dict[str, np.ndarray]:
    return {"gm_map": average_precision(jr)}


@register(
    "map_cut",
    doc="Average precision of the first k documents: sum of precision at the relevant ranks "
    "≤ k, divided by R (trec_eval m_map_cut.c).",
    params=Cutoffs(*_CUTOFFS),
    formula="AP@k = (1/R) Σ_{relevant d, rank(d) ≤ k} P@rank(d)",
    source="trec_eval 9.0.8 (m_map_cut.c)",
)
def map_cut(
    jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext
) -> dict[str, np.ndarray]:
    has_rel = jr.num_rel > 0
    out = {}
    for k in cutoffs:
        value = np.zeros(jr.n_rankings)
        value[has_rel] = ap_sum_at(jr, k)[has_rel] / jr.num_rel[has_rel]
        out[f"map_cut_{k}"] = value
    return out
