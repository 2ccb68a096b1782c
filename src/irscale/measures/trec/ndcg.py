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
Neither family depends on the relevance level (``-l``). Computed by the engine
(``rust/src/measures/ndcg.rs``).
"""

from __future__ import annotations

from ..base import Cutoffs, GainPairs
from ..native import Native, declare_native, typed_label
from .gains import GAINS

_GAIN_DOC = (
    " Gains: the relevance degree, or trec_eval's 'level=gain' parameters "
    "(e.g. ndcg.1=3.5,2=9.0; negative levels -1/-2 give gains to non-pooled/unjudged "
    "documents)."
)


_LEVEL_FREE = {"rel": "trec_eval's ndcg takes the relevance degrees as gains whatever the "
               "level; give a gain map to leave out degrees below rel, e.g. "
               "nDCG(gain=linear,rel=2)"}


declare_native(
    "ndcg",
    GAINS,
    doc="Normalised discounted cumulative gain (Järvelin & Kekäläinen 2002): "
    "DCG / ideal DCG with discount log2(rank + 1), over the whole ranking." + _GAIN_DOC,
    params=GainPairs(),
    missing_value=0.0,
    ignores=_LEVEL_FREE,
    formula="DCG/IDCG, DCG = Σ_r g(r)/log2(r + 1)",
    source="Järvelin & Kekäläinen 2002; trec_eval 9.0.8 (m_ndcg.c)",
)


declare_native(
    "dcg",
    Native(label=typed_label),
    doc="Discounted cumulative gain Σ gain / log2(rank + 1) (trec_eval 10.0)." + _GAIN_DOC,
    params=GainPairs(),
    missing_value=0.0,
    formula="Σ_r g(r)/log2(r + 1)",
    source="trec_eval 10.0 (m_dcg.c)",
)


declare_native(
    "ideal_dcg",
    GAINS,
    doc="DCG of trec_eval's ideal ranking of the topic (trec_eval 10.0)." + _GAIN_DOC,
    params=GainPairs(),
    missing_value=0.0,
    formula="Σ_r g*(r)/log2(r + 1) over trec_eval's ideal ranking",
    source="trec_eval 10.0 (m_ideal_dcg.c)",
)


declare_native(
    "ndcg_cut",
    Native(ideal=True),
    doc="nDCG at cut-off k: DCG@k / ideal DCG@k, gains = relevance degrees "
    "(trec_eval m_ndcg_cut.c; no gain parameters).",
    params=Cutoffs(5, 10, 15, 20, 30, 100, 200, 500, 1000),
    missing_value=0.0,
    ignores=_LEVEL_FREE,
    formula="DCG@k / IDCG@k, g = relevance degree",
    source="trec_eval 9.0.8 (m_ndcg_cut.c)",
)
