"""Expected reciprocal rank and its normalised form (Chapelle et al., CIKM 2009; seed 001
§2.2 eq. 15; seed 004 §5.1 eq. 14; NTCIREVAL's ERR, nERR@l).

The user scans the ranking top down and stops, satisfied, at rank r with probability
``R_r``; ``dsat(r) = Π_{i≤r} (1 − R_i)`` is the probability of still being unsatisfied
after rank r (products in rank order)::

    ERR   = Σ_r (dsat(r−1) / r) · R_r                      (terms added in rank order)
    nERR@l = ERR@l / ERR@l of the ideal ranking           (0 when the latter is 0)

Satisfaction probabilities from the gain ``g`` of the document (``gain=``, default linear:
the degree) and ``gmax``, the gain of the scale's highest degree (``maxrel``):

* ``prob=exp`` (Chapelle's, default): ``R = (2^g − 1) / 2^gmax`` — with three levels
  1/8, 3/8, 7/8 (seed 001); with c = 2, 1/4 and 3/4 (seed 003 §5);
* ``prob=ntcir``: ``R = g / (gmax + 1)`` (NTCIREVAL: "divide by maxgain+1 to make sure
  rel prob < 1 even for a highly rel doc"; ERR then does not reduce to RR in the binary case).

The operations follow NTCIREVAL's loop (``ERR += (dsat/r)·R``, ``dsat *= 1 − R``). With one
relevant document at rank r, ERR = R_r / r.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import Subset, memo, relevant_documents
from .base import EvalContext, register, safe_divide
from .gain_discount import (
    MAXREL,
    MAXREL_CHECK,
    GainMap,
    element_gains,
    gain_keyword,
    ideal_rankings,
    max_gain,
)
from .params import CUTOFF, Keyword, Keywords, Params, choice

PROB = Keyword(choice("exp", "ntcir", aliases={"chapelle": "exp"}), "exp",
               "satisfaction probability: exp ((2^g − 1)/2^gmax) or ntcir (g/(gmax + 1))")


def satisfaction(jr: JudgedRankings, prob: str, gain: GainMap, maxrel: int | None,
                 family: str = "ERR", index: np.ndarray | None = None) -> np.ndarray:
    """Per document (or per document of ``index``): the probability ``R`` that the user
    stops there, satisfied."""
    g = element_gains(jr, gain, maxrel, family, index)
    gmax = max_gain(jr, gain, maxrel, family)
    if prob == "exp":
        if gmax < 1024.0:
            return (np.exp2(g) - 1.0) / np.exp2(gmax)
        # 2^gmax is beyond a double (relevance labels in the thousands or more): the same
        # ratio as 2^(g − gmax) − 2^(−gmax), which cannot overflow (g ≤ gmax)
        return np.exp2(g - gmax) - np.exp2(-gmax)
    return g / (gmax + 1.0)


def unsatisfied_before(subset: Subset, p_satisfied: np.ndarray) -> np.ndarray:
    """``dsat(r − 1)`` at each document of ``subset`` (``p_satisfied``: R at each): the
    product of ``1 − R`` over the documents above, in rank order. Documents outside the
    subset must have R = 0 (they multiply by exactly 1; :mod:`irscale.core.subsets`)."""
    dsat = subset.scan(1.0 - p_satisfied, np.multiply, 1.0)
    return subset.previous(dsat, 1.0)


def stop_probability(jr: JudgedRankings, p_satisfied: np.ndarray) -> np.ndarray:
    """Per document: ``dsat(r − 1)·R_r``, the probability that the user stops there."""
    subset = Subset.of(jr, p_satisfied > 0)
    stop = p_satisfied[subset.index]
    out = np.zeros(len(p_satisfied))
    out[subset.index] = unsatisfied_before(subset, stop) * stop
    return out


def err_values(jr: JudgedRankings, prob: str, gain: GainMap, maxrel: int | None,
               family: str = "ERR") -> np.ndarray:
    """Per ranking: ERR of the whole ranking (NTCIREVAL's operations: (dsat/r)·R)."""

    def compute() -> np.ndarray:
        subset = relevant_documents(jr)
        stop = satisfaction(jr, prob, gain, maxrel, family, subset.index)
        before = unsatisfied_before(subset, stop)
        return subset.total((before / subset.rank) * stop)

    return memo(jr, f"err:{prob}:{gain}:{maxrel}", compute)


_PARAMS = {"prob": PROB, "gain": gain_keyword("linear"), "maxrel": MAXREL}


@register(
    "ERR",
    doc="Expected reciprocal rank Σ dsat(r−1)·R_r / r, cascade user model (Chapelle et al. "
    "2009; seed 001 eq. 15).",
    params=Keywords(**_PARAMS).checked(MAXREL_CHECK),
    missing_value=0.0,
)
def err(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    return {"ERR": err_values(jr, params["prob"], params["gain"], params["maxrel"])}


@register(
    "nERR",
    doc="Normalised ERR: ERR@l divided by the ERR@l of the ideal ranking (NTCIREVAL's nERR@l).",
    params=Keywords(**_PARAMS, cutoff=CUTOFF).checked(MAXREL_CHECK),
    missing_value=0.0,
)
def nerr(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    prob, gain, maxrel, k = params["prob"], params["gain"], params["maxrel"], params["cutoff"]
    view = jr if k is None else jr.truncate(k)
    ideal = ideal_rankings(jr, gain, maxrel, "nERR")
    best = ideal.batch if k is None else ideal.batch.truncate(k)
    ideal_err = ideal.per_ranking(err_values(best, prob, gain, maxrel, "nERR"))
    return {"nERR": safe_divide(err_values(view, prob, gain, maxrel, "nERR"), ideal_err)}
