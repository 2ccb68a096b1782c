"""Precision at fixed cut-offs (trec_eval 9.0.8 m_P.c).

P_k = |relevant documents among the first k retrieved| / k, for every cut-off k (a ranking
shorter than k counts the missing ranks as non-relevant).
"""

from __future__ import annotations

import numpy as np

from ...core.judged import JudgedRankings
from ..base import Cutoffs, EvalContext, hits_at, register


@register(
    "P",
    doc="Precision after k documents retrieved: relevant in the top k, divided by k.",
    params=Cutoffs(5, 10, 15, 20, 30, 100, 200, 500, 1000),
)
def precision(
    jr: JudgedRankings, cutoffs: tuple[int, ...], ctx: EvalContext
) -> dict[str, np.ndarray]:
    return {f"P_{k}": hits_at(jr, k) / k for k in cutoffs}
