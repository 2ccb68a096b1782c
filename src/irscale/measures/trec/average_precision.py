"""Average precision: map, gm_map, map_cut (trec_eval 9.0.8 m_map.c, m_gm_map.c, m_map_cut.c).

With ``rel(i)`` the relevance test ``degree ≥ level`` of the document at rank ``i`` and
``c(i)`` the number of such documents at ranks ``1..i``::

    S(k)   = Σ_{i ≤ k, rel(i)} c(i) / i          (added one document at a time, rank order)
    map    = S(n) / R   if some retrieved document is relevant, else 0
    map_cut_k = S(min(k, n)) / R                  (0 when R = 0)
    gm_map = map per topic; the summary is the geometric mean of max(map, 1e-5)

``R`` is the number of judged documents with degree ≥ level (unretrieved relevant
documents count 0); ``n`` the number of retrieved documents (after -M and -J).
Computed by the engine (rust/src/measures/average_precision.rs).
"""

from __future__ import annotations

from ..base import Cutoffs
from ..native import Native, declare_native

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


declare_native(
    "map",
    Native(),
    doc="Mean average precision: mean over the relevant documents of the precision at their "
    "rank, unretrieved relevant documents counting 0 (trec_eval m_map.c).",
    formula="AP = (1/R) Σ_{relevant d retrieved} P@rank(d)",
    source="trec_eval 9.0.8 (m_map.c)",
)


declare_native(
    "gm_map",
    Native(),
    doc="Geometric mean average precision: AP per topic, summarised by the geometric mean of "
    "max(AP, 0.00001) (trec_eval m_gm_map.c); printed only in the summary.",
    aggregate="gmean",
    per_query=False,
    formula="exp(mean over topics of log max(AP, 0.00001))",
    source="trec_eval 9.0.8 (m_gm_map.c)",
)


declare_native(
    "map_cut",
    Native(),
    doc="Average precision of the first k documents: sum of precision at the relevant ranks "
    "≤ k, divided by R (trec_eval m_map_cut.c).",
    params=Cutoffs(*_CUTOFFS),
    formula="AP@k = (1/R) Σ_{relevant d, rank(d) ≤ k} P@rank(d)",
    source="trec_eval 9.0.8 (m_map_cut.c)",
)
