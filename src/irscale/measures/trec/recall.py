"""Recall and success at document cut-offs (trec_eval 9.0.8 m_recall.c, m_success.c).

With ``h(k)`` the number of relevant documents (degree ≥ level) among the first ``k``
retrieved (all of them when fewer than ``k`` were retrieved) and ``R`` the number of
relevant documents of the topic::

    recall_k  = h(k) / R      (0 when R = 0)
    success_k = 1 if h(k) > 0 else 0

Computed by the engine (rust/src/measures/recall.rs).
"""

from __future__ import annotations

from ..base import Cutoffs
from ..native import Native, declare_native

declare_native(
    "recall",
    Native(),
    doc="Recall after k documents retrieved: relevant in the top k divided by R "
    "(trec_eval m_recall.c).",
    params=Cutoffs(5, 10, 15, 20, 30, 100, 200, 500, 1000),
    formula="|relevant in top k| / R",
    source="trec_eval 9.0.8 (m_recall.c)",
)


declare_native(
    "success",
    Native(),
    doc="Success at k: 1 if a relevant document is among the first k retrieved, else 0 "
    "(trec_eval m_success.c).",
    params=Cutoffs(1, 5, 10),
    formula="1 if a relevant document is in the top k, else 0",
    source="trec_eval 9.0.8 (m_success.c)",
)
