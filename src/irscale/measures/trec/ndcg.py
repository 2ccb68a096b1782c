"""nDCG, DCG and nDCG at cut-offs (trec_eval 9.0.8 m_ndcg.c, m_ndcg_cut.c; 10.0 adds dcg
and ideal_dcg to m_ndcg.c).

With ``gain(d)`` the document's gain (its relevance degree by default, or the
``level=gain`` parameters; see :mod:`irscale.measures.trec.gains`) and ranks ``i`` from 1::

    DCG       = Σ_{i=1..n} gain(d_i) / log2(i + 1)          (every retrieved document)
    ideal_DCG = Σ_{j=1..K} g*_j / log2(j + 1)               (trec_eval's ideal ranking)
    ndcg      = DCG / ideal_DCG, 0 when ideal_DCG ≤ 0

The discount is ``log2(i + 1)`` at every rank (rank 1 is not special-cased: its discount
is 1). The ideal ranking is *not* cut at the run's length. Gains may be zero or negative,
so ndcg may be negative or exceed 1.

``ndcg_cut_k`` (9.0.8 m_ndcg_cut.c) takes cut-offs, not gains: the gain is always the
relevance degree (documents with degree ≤ 0, and unjudged ones, gain nothing), and::

    ndcg_cut_k = DCG@k / ideal_DCG@k, 0 when ideal_DCG@k = 0

with both sums over the first k positions (the ideal over its positive degrees).
Neither family depends on the relevance level (``-l``).
"""

from __future__ import annotations

import numpy as np

from ...core.judged import JudgedRankings
from ..base import Cutoffs, EvalContext, GainPairs, GainParams, register, safe_divide
from .gains import IdealRankings, dcg_terms

_GAIN_DOC = (
    " Gains: the relevance degree, or trec_eval's 'level=gain' parameters "
    "(e.g. ndcg.1=3.5,2=9.0; negative levels -1/-2 give gains to non-pooled/unjudged "
    "documents)."
)


def dcg_and_ideal(jr: JudgedRankings, params: GainParams) -> tuple[np.ndarray, np.ndarray]:
    """Per ranking: (DCG of the whole ranking, DCG of trec_eval's whole ideal ranking)."""
    documents, terms = dcg_terms(jr, params)
    return documents.total(terms), IdealRankings.build(jr, params).total_dcg


_LEVEL_FREE = {"rel": "trec_eval's ndcg takes the relevance degrees as gains whatever the "
               "level; give a gain map to leave out degrees below rel, e.g. "
               "nDCG(gain=linear,rel=2)"}


@register(
    "ndcg",
    doc="Normalised discounted cumulative gain (Järvelin & Kekäläinen 2002): "
    "DCG / ideal DCG with discount log2(rank + 1), over the whole ranking." + _GAIN_DOC,
    params=GainPairs(),
    missing_value=0.0,
    ignores=_LEVEL_FREE,
    formula="DCG/IDCG, DCG = Σ_r g(r)/log2(r + 1)",
    source="Järvelin & Kekäläinen 2002; trec_eval 9.0.8 (m_ndcg.c)",
)
def ndcg(jr: JudgedRankings, params: GainParams, ctx: EvalContext) -> dict[str, np.ndarray]:
    dcg, ideal = dcg_and_ideal(jr, params)
    return {params.label("ndcg"): safe_divide(dcg, np.where(ideal > 0, ideal, 0))}


@register(
    "dcg",
    doc="Discounted cumulative gain Σ gain / log2(rank + 1) (trec_eval 10.0)." + _GAIN_DOC,
    params=GainPairs(),
    missing_value=0.0,
    formula="Σ_r g(r)/log2(r + 1)",
    source="trec_eval 10.0 (m_dcg.c)",
)
def dcg(jr: JudgedRankings, params: GainParams, ctx: EvalContext) -> dict[str, np.ndarray]:
    documents, terms = dcg_terms(jr, params)
    return {params.label("dcg"): documents.total(terms)}


@register(
    "ideal_dcg",
    doc="DCG of trec_eval's ideal ranking of the topic (trec_eval 10.0)." + _GAIN_DOC,
    params=GainPairs(),
    missing_value=0.0,
    formula="Σ_r g*(r)/log2(r + 1) over trec_eval's ideal ranking",
    source="trec_eval 10.0 (m_ideal_dcg.c)",
)
def ideal_dcg_measure(jr: JudgedRankings, params: GainParams, ctx: EvalContext
                      ) -> dict[str, np.ndarray]:
    return {params.label("ideal_dcg"): IdealRankings.build(jr, params).total_dcg}


@register(
    "ndcg_cut",
    doc="nDCG at cut-off k: DCG@k / ideal DCG@k, gains = relevance degrees "
    "(trec_eval m_ndcg_cut.c; no gain parameters).",
    params=Cutoffs(5, 10, 15, 20, 30, 100, 200, 500, 1000),
    missing_value=0.0,
    ignores=_LEVEL_FREE,
    formula="DCG@k / IDCG@k, g = relevance degree",
    source="trec_eval 9.0.8 (m_ndcg_cut.c)",
)
def ndcg_cut(
    jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext
) -> dict[str, np.ndarray]:
    # DCG@k adds the terms of the first k documents in rank order; only pooled documents
    # within the largest cut-off matter (the others add exact zeros)
    documents, terms = dcg_terms(jr, GainParams())
    top = documents.rank <= max(cutoffs)
    rank, segment, terms = documents.rank[top], documents.segment[top], terms[top]
    ideal = IdealRankings.build(jr, GainParams(), depth=max(cutoffs))
    out = {}
    for k in cutoffs:
        dcg_k = np.bincount(segment, weights=np.where(rank <= k, terms, 0.0),
                            minlength=jr.n_rankings)
        out[f"ndcg_cut_{k}"] = safe_divide(dcg_k, ideal.dcg_at(np.full(jr.n_rankings, k)))
    return out
