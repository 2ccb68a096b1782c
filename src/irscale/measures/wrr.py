"""Weighted reciprocal rank, WRR (Eguchi et al., NTCIR-3 Web task 2003; discussed by
Sakai 2014, §2.2, beside P⁺, as a graded version of RR).

Each relevant document is worth the reciprocal of its rank pushed down by a constant of
its relevance degree, ``β_v ≤ 0`` (``betas=b1:b2:...:bc``, of degrees 1..c; 0 for the
degrees the user wants, negative for less useful ones), and the ranking is worth its best
document::

    WRR = max_r I(r) / (r − β_{L(r)})

L(r) the degree at rank r. A highly relevant document at rank 2 (β = 0: 1/2) thus beats
a partially relevant one at rank 1 with β = −2 (1/3). The default, 0 for every degree,
gives RR. WRR lies in (0, 1] when a relevant document is retrieved, else 0. A relevant
degree beyond the list of ``betas`` is an error.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import relevant_documents
from ..errors import MeasureError
from .base import EvalContext, register
from .params import Keyword, Keywords, Params, number, optional, states

_NONPOSITIVE = number(high=0.0)


@states("numbers b1:b2:... ≤ 0")
def parse_betas(text: str) -> tuple[float, ...]:
    """``b1:b2:...``: the constant of each degree 1, 2, ..., each ≤ 0."""
    if not text:
        raise ValueError("no number given")
    return tuple(_NONPOSITIVE(part) for part in text.split(":"))


BETAS = Keyword(optional(parse_betas), None,
                "constant β_v ≤ 0 of each degree 1..c: a document of degree v at rank r is "
                "worth 1/(r − β_v); none: 0 (RR)")


@register(
    "WRR",
    doc="Weighted reciprocal rank max_r I(r)/(r − β_L(r)), β_v ≤ 0 per degree: graded RR "
    "(Eguchi et al. 2003; Sakai 2014, §2.2).",
    params=Keywords(betas=BETAS),
    missing_value=0.0,
    formula="max_r I(r) / (r − β_{L(r)}), β_v ≤ 0 per degree",
    source="Eguchi et al. 2003",
)
def wrr(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    relevant = relevant_documents(jr)
    rank = relevant.rank.astype(np.float64)
    betas = params["betas"]
    if betas is not None:
        top = int(relevant.rel.max(initial=0))
        if top > len(betas):
            raise MeasureError(f"measure 'WRR': betas gives constants for degrees "
                               f"1..{len(betas)} but a relevant document has degree {top}")
        rank = rank - np.concatenate(([0.0], betas))[np.maximum(relevant.rel, 0)]
    out = np.zeros(jr.n_rankings)
    np.maximum.at(out, relevant.segment, 1.0 / rank)
    return {"WRR": out}
