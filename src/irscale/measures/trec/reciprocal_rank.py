"""Reciprocal rank (trec_eval 9.0.8 m_recip_rank.c).

``recip_rank = 1 / f`` with ``f`` the rank of the first retrieved document whose degree is
≥ the relevance level; 0 when there is none. Computed by the engine
(rust/src/measures/reciprocal_rank.rs).
"""

from __future__ import annotations

from ...core.judged import JudgedRankings
from ...core.kernels import trec_family
from ..base import EvalContext, register


@register(
    "recip_rank",
    doc="Reciprocal rank of the first relevant retrieved document (trec_eval m_recip_rank.c).",
    formula="1 / rank of the first relevant document (0 if none)",
    source="trec_eval 9.0.8 (m_recip_rank.c)",
)
def reciprocal_rank(jr: JudgedRankings, params: None, ctx: EvalContext) -> dict[str, object]:
    return trec_family("recip_rank", jr)
