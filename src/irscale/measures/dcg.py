"""DCG and nDCG with any gain map and discount (Ferro & Maistro 2024, §3.4 eq. 5–6; Sakai 2014, §2.2
eq. 6; Ferrante et al. 2021, §6: DCG_b02, DCG_b10).

With ``g(r)`` the gain of the document at rank r (:mod:`irscale.measures.gain_discount`:
``gain=linear|exp|binary|g1:g2:...``), ``d(r)`` the discount (``discount=log2|log|jk|1+log``,
``base=b``) and a cut-off k (the whole ranking without one)::

    DCG@k  = Σ_{r ≤ min(k, n)} g(r) / d(r)                 (added in rank order)
    nDCG@k = DCG@k / iDCG@k,  0 when iDCG@k = 0

where iDCG@k is the DCG of the topic's ideal ranking (its relevant documents by decreasing
gain) cut at k — at most R documents, never cut at the run's length. Discounts:
``jk`` = ``max(1, log_b r)`` (Järvelin & Kekäläinen 2002; no discount up to rank b, the
original DCG of Ferro & Maistro 2024, eq. 5, and NTCIREVAL's "nDCG"), ``log2`` =
``log2(r + 1)`` (Sakai 2014, eq. 6, NTCIREVAL's "MSnDCG", trec_eval's ndcg), ``log`` =
``log_b(r + 1)``, ``1+log`` = ``1 + log_b r`` (Järvelin et al. 2008).

``nDCG(gain=linear,discount=log2)`` equals trec_eval's ``ndcg`` (and ``@k`` its
``ndcg_cut_k``) bit for bit at relevance level 1: the same terms, added in the same order.
Names: ``DCG(gain=exp,discount=jk,base=10)@20``, ``nDCG(gain=exp,discount=log2)@10``;
``nDCG`` / ``nDCG@k`` without parameters are trec_eval's ndcg / ndcg_cut.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import relevant_documents
from .arrays import safe_divide
from .base import EvalContext, register
from .gain_discount import (
    BASE,
    DISCOUNT_KIND,
    Discount,
    GainMap,
    check_discount,
    discount_of,
    element_gains,
    gain_keyword,
    ideal_rankings,
)
from .params import CUTOFF, Keywords, Params

#: No ``maxrel``: DCG and nDCG do not depend on gmax (the highest degree of the scale).
_PARAMS = Keywords(gain=gain_keyword("linear"), discount=DISCOUNT_KIND, base=BASE,
                   cutoff=CUTOFF).checked(check_discount)


def dcg_values(jr: JudgedRankings, gain: GainMap, discount: Discount, cutoff: int | None = None,
               maxrel: int | None = None, family: str = "DCG") -> np.ndarray:
    """Per ranking: DCG of its first ``cutoff`` documents (all without a cut-off)."""
    view = jr if cutoff is None else jr.truncate(cutoff)
    scoring = relevant_documents(view)  # the others gain 0: their terms add exactly nothing
    terms = (element_gains(view, gain, maxrel, family, scoring.index)
             / discount(scoring.rank))
    return scoring.total(terms)


def ideal_dcg(jr: JudgedRankings, gain: GainMap, discount: Discount, cutoff: int | None = None,
              maxrel: int | None = None, family: str = "nDCG") -> np.ndarray:
    """Per ranking: DCG of its topic's ideal ranking cut at ``cutoff``."""
    ideal = ideal_rankings(jr, gain, maxrel, family)
    return ideal.per_ranking(dcg_values(ideal.batch, gain, discount, cutoff, maxrel, family))


@register(
    "DCG",
    doc="Discounted cumulated gain Σ g(r)/d(r) over the first k documents, any gain map and "
    "discount (Järvelin & Kekäläinen 2002; Ferro & Maistro 2024, eq. 5, Sakai 2014, §2.2).",
    params=_PARAMS,
    missing_value=0.0,
    formula="Σ_{r ≤ k} g(r)/d(r)",
    source="Järvelin & Kekäläinen 2002",
)
def dcg(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"DCG": dcg_values(jr, params["gain"], discount_of(params), params["cutoff"])}


@register(
    "nDCG",
    doc="Normalised DCG: DCG@k / ideal DCG@k, any gain map and discount "
    "(Ferro & Maistro 2024, eq. 6; Sakai 2014, eq. 6).",
    params=_PARAMS,
    missing_value=0.0,
    formula="DCG@k / ideal DCG@k",
    source="Järvelin & Kekäläinen 2002",
)
def ndcg(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    gain, discount, k, maxrel = params["gain"], discount_of(params), params["cutoff"], None
    ideal = ideal_dcg(jr, gain, discount, k, maxrel)
    return {"nDCG": safe_divide(dcg_values(jr, gain, discount, k, maxrel, "nDCG"),
                                np.where(ideal > 0, ideal, 0.0))}
