"""Reciprocal rank (trec_eval 9.0.8 m_recip_rank.c).

``recip_rank = 1 / f`` with ``f`` the rank of the first retrieved document whose degree is
≥ the relevance level; 0 when there is none. Computed by the engine
(rust/src/measures/reciprocal_rank.rs).
"""

from __future__ import annotations

from ..native import Native, declare_native

declare_native(
    "recip_rank",
    Native(),
    doc="Reciprocal rank of the first relevant retrieved document (trec_eval m_recip_rank.c).",
    formula="1 / rank of the first relevant document (0 if none)",
    source="trec_eval 9.0.8 (m_recip_rank.c)",
)
