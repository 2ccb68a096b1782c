"""Reciprocal rank (trec_eval 9.0.8 m_recip_rank.c).

``recip_rank = 1 / f`` with ``f`` the rank of the first retrieved document whose degree is
≥ the relevance level; 0 when there is none.
"""

from __future__ import annotations

import numpy as np

from ...core.judged import JudgedRankings
from ...core.subsets import first_relevant_rank
from ..base import EvalContext, register, safe_divide


@register(
    "recip_rank",
    doc="Reciprocal rank of the first relevant retrieved document (trec_eval m_recip_rank.c).",
    formula="1 / rank of the first relevant document (0 if none)",
    source="trec_eval 9.0.8 (m_recip_rank.c)",
)
def reciprocal_rank(jr: JudgedRankings, params: None, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"recip_rank": safe_divide(1.0, first_relevant_rank(jr))}
