"""Average precision (trec_eval 9.0.8 m_map.c).

AP = (1/R) Σ_{relevant retrieved d} P@rank(d), with R the number of relevant documents of
the topic (0 when R = 0).
"""

from __future__ import annotations

import numpy as np

from ...core.judged import JudgedRankings
from ..base import EvalContext, register, safe_divide


def precision_at_relevant(jr: JudgedRankings) -> np.ndarray:
    """Per element: precision at its rank if relevant, else 0."""
    return np.where(jr.is_relevant, jr.cum_relevant / jr.rank, 0.0)


@register("map", doc="Mean average precision: mean over relevant documents of precision at their rank (unretrieved relevant count 0).")
def average_precision(jr: JudgedRankings, params: None, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"map": safe_divide(jr.segment_sum(precision_at_relevant(jr)), jr.num_rel)}
