"""Normalised sliding ratio, NSR (Pollock 1968; Sakai 2014, §2.2, footnote 2: the ideal
list is Pollock's *master list*).

The gain the ranking accumulates down to rank l over the gain of the ideal ranking (the
topic's relevant documents by decreasing gain) down to the same rank, with no discount
(nDCG's ancestor; Sakai's nCG(l))::

    NSR@l = Σ_{r≤l} g(r) / Σ_{r≤l} g*(r)

``gain=`` (default linear; see :mod:`irscale.measures.gain_discount`); without a cut-off,
l = n, the length of the ranking. 0 when the ideal sum is 0 (no relevant document, or an
empty ranking). With binary gains, NSR@l = C(l)/min(l, R).

``NCG`` is another name of NSR (:data:`irscale.measures.names.ALIASES`): the normalised
cumulated gain nCG of Järvelin & Kekäläinen (TOIS 2002, §2.2: CG[i] over the ideal vector's
CG[i]), reported as NCG@k by the TREC Deep Learning track.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from .arrays import safe_divide
from .base import EvalContext, register
from .gain_discount import element_gains, gain_keyword
from .graded import ideal_cumulative_gain
from .params import CUTOFF, Keywords, Params


@register(
    "NSR",
    doc="Normalised sliding ratio: cumulative gain at l over the ideal ranking's, "
    "undiscounted (Pollock 1968; Sakai 2014, §2.2).",
    params=Keywords(gain=gain_keyword("linear"), cutoff=CUTOFF),
    missing_value=0.0,
    formula="Σ_{r≤l} g(r) / Σ_{r≤l} g*(r); l = n without a cut-off",
    source="Pollock 1968",
)
def nsr(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    k, gain = params["cutoff"], params["gain"]
    view = jr if k is None else jr.truncate(k)
    depth = view.lengths if k is None else np.full(jr.n_rankings, k, dtype=np.int64)
    total = view.segment_sum(element_gains(view, gain, None, "NSR"))
    ideal = ideal_cumulative_gain(jr, depth, np.arange(jr.n_rankings), gain, None, "NSR")
    return {"NSR": safe_divide(total, ideal)}
