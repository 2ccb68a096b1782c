"""Q-measure and its family: R-measure, P-measure, O-measure, P⁺ (Sakai 2014, §2.2, eq. 11–14;
Sakai 2004–2007; NTCIREVAL).

With ``I(r)`` = 1 when the document at rank r is relevant (degree ≥ ``rel``), ``C(r)`` the
relevant documents in the top r, ``g(r)`` its gain (``gain=``, default linear),
``cg(r) = Σ_{i≤r} g(i)`` and ``cg*(r)`` the cumulative gain of the topic's ideal ranking
(constant beyond its R documents), the *blended ratio* with persistence β ≥ 0 (``beta``,
default 1) is (eq. 11)::

    BR(r) = (β·cg(r) + C(r)) / (β·cg*(r) + r)

(computed in this order, as NTCIREVAL does; cumulative gains added in rank order) and::

    Q         = (1/R) Σ_r I(r) BR(r)                       (eq. 12)
    Q@l       = (1/min(l, R)) Σ_{r≤l} I(r) BR(r)           (eq. 13; norm=R divides by R)
    R-measure = BR(R)                                       (a missing rank counts non-relevant)
    O-measure = BR(r1)        r1: rank of the first relevant document
    P-measure = BR(rp)        rp: rank of the first document of the highest degree retrieved
    P⁺        = (1/C(rp)) Σ_{r≤rp} I(r) BR(r)              (eq. 14)

all 0 when no relevant document is retrieved (Q, R-measure: when R = 0). β = 0 gives AP
(BR(r) = C(r)/r, bit for bit the terms of trec_eval's map); binary relevance gives
BR(r) = Prec(r) for r ≤ R and BR(r) > Prec(r) beyond (Sakai 2014, §2.2). P-measure, O-measure
and P⁺ are evaluated on the ranking cut at ``@l`` when a cut-off is given (rp is then "within
the measurement depth l").
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import Subset, first_relevant_rank, memo, relevant_documents
from .arrays import safe_divide, value_at_rank
from .base import EvalContext, register
from .gain_discount import GainMap, element_gains, gain_keyword, ideal_rankings
from .params import CUTOFF, Keyword, Keywords, Params, choice, number, only_with
from .trec._segments import running_sum

BETA = Keyword(number(low=0.0), 1.0, "persistence β of the blended ratio (β = 0: precision)")
NORM = Keyword(choice("min", "R"), "min",
               "divisor of Q@l: min (min(l, R), eq. 13) or R")


def cumulative_gains(jr: JudgedRankings, gain: GainMap, maxrel: int | None,
                     family: str) -> np.ndarray:
    """Per document: ``cg(r)``, the gains from rank 1 to it, added in rank order."""
    return memo(jr, f"cg:{gain}:{maxrel}",
                lambda: running_sum(jr, element_gains(jr, gain, maxrel, family)))


def ideal_cumulative_gain(jr: JudgedRankings, rank: np.ndarray, ranking: np.ndarray,
                          gain: GainMap, maxrel: int | None, family: str) -> np.ndarray:
    """``cg*(rank)`` of the ideal ranking of each ``ranking`` (its total beyond its length)."""
    ideal = ideal_rankings(jr, gain, maxrel, family)
    row = ideal.row[ranking]
    cg = cumulative_gains(ideal.batch, gain, maxrel, family)
    depth = np.minimum(np.asarray(rank, dtype=np.int64), ideal.batch.lengths[row])
    out = np.zeros(len(depth))
    ok = depth > 0
    out[ok] = cg[ideal.batch.offsets[row[ok]] + depth[ok] - 1]
    return out


def blended_ratio_at(jr: JudgedRankings, subset: Subset, count: np.ndarray, beta: float,
                     gain: GainMap, maxrel: int | None = None, family: str = "Q") -> np.ndarray:
    """``BR(r)`` (eq. 11) at the documents of ``subset``, which must hold every document of
    positive gain (``cg`` is scanned over them only, see :mod:`irscale.core.subsets`);
    ``count``: C(r) at each of them."""
    gains = element_gains(jr, gain, maxrel, family, subset.index)
    cg = subset.scan(gains, np.add, 0.0)
    rank = subset.rank
    cg_star = ideal_cumulative_gain(jr, rank, subset.segment, gain, maxrel, family)
    return (beta * cg + count) / (beta * cg_star + rank)


def blended_ratio(jr: JudgedRankings, beta: float, gain: GainMap, maxrel: int | None = None,
                  family: str = "Q") -> np.ndarray:
    """Per document: ``BR(r)`` at its rank (eq. 11)."""
    everything = Subset.of(jr, np.ones(len(jr.rel), dtype=bool))
    return blended_ratio_at(jr, everything, jr.cum_relevant, beta, gain, maxrel, family)


def relevant_blended_ratio(jr: JudgedRankings, beta: float, gain: GainMap,
                           maxrel: int | None, family: str) -> tuple[Subset, np.ndarray]:
    """The relevant documents and ``BR(r)`` at each (cached per batch and parameters)."""
    subset = relevant_documents(jr)
    return subset, memo(jr, f"br:{beta!r}:{gain}:{maxrel}", lambda: blended_ratio_at(
        jr, subset, subset.position(), beta, gain, maxrel, family))


def preferred_rank(jr: JudgedRankings) -> np.ndarray:
    """Per ranking: rp, the rank of the first retrieved document of the highest relevance
    degree among its relevant documents (0 when none is relevant)."""
    subset = relevant_documents(jr)
    degree = subset.rel
    rank = subset.rank
    found = np.diff(subset.offsets) > 0
    starts = subset.offsets[:-1][found]
    top = np.full(jr.n_rankings, -1, dtype=np.int64)
    top[found] = np.maximum.reduceat(degree, starts)
    candidates = np.where(degree == top[subset.segment], rank, np.iinfo(np.int64).max)
    out = np.zeros(jr.n_rankings, dtype=np.int64)
    out[found] = np.minimum.reduceat(candidates, starts)
    return out


def _br_params(params: Params) -> tuple[float, GainMap, int | None]:
    return params["beta"], params["gain"], None


#: No ``maxrel``: blended ratios do not depend on gmax (the highest degree of the scale).
_COMMON = {"beta": BETA, "gain": gain_keyword("linear")}


@register(
    "Q",
    doc="Q-measure: mean blended ratio BR(r) = (β cg(r) + C(r)) / (β cg*(r) + r) over the "
    "relevant documents; @l divides by min(l, R) (Sakai 2014, eq. 11–13).",
    params=Keywords(**_COMMON, norm=NORM, cutoff=CUTOFF).checked(
        only_with("norm", lambda p: p["cutoff"] is not None, "with a cut-off (Q(norm=R)@l)")),
    missing_value=0.0,
    formula="(1/R) Σ_{relevant r} BR(r), BR(r) = (β·cg(r) + C(r)) / (β·cg*(r) + r)",
    source="Sakai 2004",
)
def q_measure(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    beta, gain, maxrel = _br_params(params)
    k = params["cutoff"]
    view = jr if k is None else jr.truncate(k)
    subset, br = relevant_blended_ratio(view, beta, gain, maxrel, "Q")
    total = subset.total(br)
    denominator = jr.num_rel if k is None or params["norm"] == "R" else np.minimum(k, jr.num_rel)
    return {"Q": safe_divide(total, denominator)}


@register(
    "Rmeasure",
    doc="R-measure: the blended ratio at rank R, BR(R) (Sakai 2014, §2.2).",
    params=Keywords(**_COMMON),
    missing_value=0.0,
    formula="BR(R)",
    source="Sakai 2004",
)
def r_measure(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    beta, gain, maxrel = _br_params(params)
    big_r = jr.num_rel
    depth = np.minimum(big_r, jr.lengths)  # ranks beyond the ranking add nothing
    cg = value_at_rank(jr, cumulative_gains(jr, gain, maxrel, "Rmeasure"), depth, default=0.0)
    count = value_at_rank(jr, jr.cum_relevant, depth, default=0)
    cg_star = ideal_cumulative_gain(jr, big_r, np.arange(jr.n_rankings), gain, maxrel,
                                    "Rmeasure")
    value = np.zeros(jr.n_rankings)
    ok = big_r > 0
    value[ok] = (beta * cg[ok] + count[ok]) / (beta * cg_star[ok] + big_r[ok])
    return {"Rmeasure": value}


def _br_at(jr: JudgedRankings, params: Params, rank: np.ndarray, family: str) -> np.ndarray:
    """Per ranking: BR at ``rank``, the rank of one of its relevant documents (0: none)."""
    subset, br = relevant_blended_ratio(jr, *_br_params(params), family)
    out = np.zeros(jr.n_rankings)
    ok = rank > 0
    element = jr.offsets[:-1][ok] + rank[ok] - 1
    out[ok] = br[np.searchsorted(subset.index, element)]
    return out


@register(
    "Omeasure",
    doc="O-measure: the blended ratio at the first relevant document, BR(r1) (Sakai 2007).",
    params=Keywords(**_COMMON),
    missing_value=0.0,
    formula="BR(r1), r1 the first relevant rank",
    source="Sakai 2007",
)
def o_measure(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"Omeasure": _br_at(jr, params, first_relevant_rank(jr), "Omeasure")}


@register(
    "Pmeasure",
    doc="P-measure: the blended ratio at rp, the first retrieved document of the highest "
    "relevance degree retrieved, BR(rp) (Sakai 2007).",
    params=Keywords(**_COMMON),
    missing_value=0.0,
    formula="BR(rp), rp the first rank of the highest degree retrieved",
    source="Sakai 2007",
)
def p_measure(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"Pmeasure": _br_at(jr, params, preferred_rank(jr), "Pmeasure")}


@register(
    "Pplus",
    doc="P+: mean blended ratio over the relevant documents ranked at or above rp "
    "(Sakai 2007; Sakai 2014, eq. 14).",
    params=Keywords(**_COMMON),
    missing_value=0.0,
    formula="(1/C(rp)) Σ_{relevant r ≤ rp} BR(r)",
    source="Sakai 2007",
)
def p_plus(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    rp = preferred_rank(jr)
    subset, br = relevant_blended_ratio(jr, *_br_params(params), "Pplus")
    above = subset.rank <= rp[subset.segment]
    total = subset.total(np.where(above, br, 0.0))
    count = np.bincount(subset.segment[above], minlength=jr.n_rankings)  # C(rp)
    return {"Pplus": safe_divide(total, count)}
