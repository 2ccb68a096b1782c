"""Normalised cumulative utility, NCU (Sakai & Robertson, EVIA 2008; Sakai 2014, §2.2).

A population of users reads the ranking from the top; each stops at some relevant document
and is then rewarded with the utility of the documents read so far. NCU is the expected
utility over the population::

    NCU = Σ_r P_S(r) · NU(r)

with ``NU(r) = BR(r) = (β·cg(r) + C(r)) / (β·cg*(r) + r)``, the blended ratio of
Q-measure (``beta``, default 1; β = 0: precision C(r)/r; ``gain=``, default linear: see
:mod:`irscale.measures.graded`), and ``P_S(r)`` the probability that a user stops at rank
r, 0 at a non-relevant document (``stop=``):

* ``u`` — uniform over the R relevant documents: ``P_S(r) = I(r)/R``; NCU is then Q
  (AP with β = 0), and ``NCU(stop=u)@l`` divides by min(l, R), as Q@l;
* ``gu`` (default) — graded-uniform: ``P_S(r) = I(r)·s(L(r)) / Σ_v R_v·s(v)``, s(v) the
  stopping weight of degree v (``stops=``: a gain map, by default the gains themselves),
  R_v the topic's judged documents of degree v; NCU_gu,β=1 is the metric the paper
  recommends;
* ``rb`` — rank-biased: ``P_S(r) = I(r)·γ^(C(r)−1) / Σ_{i=0}^{R−1} γ^i`` (``gamma`` in
  (0, 1]): users are more likely to stop after few relevant documents than after many,
  which gives NCU a diminishing return.

The sum runs over the retrieved documents (ranks ≤ l with a cut-off @l): a user who
would stop at a relevant document that was not retrieved gets nothing. 0 when the topic
has no relevant document. pyNTCIREVAL's ``NCU`` (with ``p_u``, ``p_gu``, ``p_rb``) computes
the same values.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from .arrays import judged_total, safe_divide
from .base import EvalContext, register
from .gain_discount import degree_gains, element_gains, gain_keyword, parse_gain
from .graded import BETA, relevant_blended_ratio
from .params import CUTOFF, Keyword, Keywords, Params, choice, number, only_with, optional

STOP = Keyword(choice("u", "gu", "rb"), "gu",
               "stopping distribution: u (uniform over the relevant documents), gu "
               "(graded-uniform: weight of the degree), rb (rank-biased: γ^(C(r)−1))")
STOPS = Keyword(optional(parse_gain), None,
                "stopping weight of each degree for stop=gu: linear, exp, binary or "
                "s1:s2:...; none: the gains")
GAMMA = Keyword(number(low=0.0, high=1.0, open_low=True), 0.5,
                "ratio γ of the stopping probabilities of successive relevant documents "
                "for stop=rb")


def stopping_weights(jr: JudgedRankings, params: Params, count: np.ndarray,
                     index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``P_S(r)`` as (weight at each relevant document ``index``, per-ranking total): 1 and
    R (min(l, R) at a cut-off) for ``u``; s(L(r)) and Σ_v R_v s(v) for ``gu``; γ^(C(r)−1)
    and Σ_{i<R} γ^i for ``rb`` (``count``: C(r) at each document)."""
    stop = params["stop"]
    big_r = jr.num_rel.astype(np.float64)
    if stop == "u":
        k = params["cutoff"]
        return np.ones(len(index)), big_r if k is None else np.minimum(big_r, k)
    if stop == "gu":
        weights = params["stops"] or params["gain"]
        total = judged_total(jr, degree_gains(jr, weights, jr.column_degrees, "NCU"))
        return element_gains(jr, weights, None, "NCU", index), total
    gamma = params["gamma"]
    if gamma == 1.0:
        return np.ones(len(index)), big_r
    return np.power(gamma, count - 1.0), (1.0 - np.power(gamma, big_r)) / (1.0 - gamma)


@register(
    "NCU",
    doc="Normalised cumulative utility Σ_r P_S(r)·BR(r): the blended ratio expected over "
    "a population of users stopping at relevant documents, uniformly (u), by degree (gu) "
    "or rank-biased (rb) (Sakai & Robertson 2008; Sakai 2014, §2.2).",
    params=Keywords(stop=STOP, beta=BETA, gain=gain_keyword("linear"), stops=STOPS,
                    gamma=GAMMA, cutoff=CUTOFF).checked(
        only_with("stops", lambda p: p["stop"] == "gu", "with stop=gu"),
        only_with("gamma", lambda p: p["stop"] == "rb", "with stop=rb")),
    missing_value=0.0,
    formula="Σ_r P_S(r) BR(r), P_S: u I(r)/R, gu I(r) s(L(r))/Σ_v R_v s(v), "
    "rb I(r) γ^(C(r)−1)/Σ_{i<R} γ^i",
    source="Sakai & Robertson 2008",
)
def ncu(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    k = params["cutoff"]
    view = jr if k is None else jr.truncate(k)
    subset, br = relevant_blended_ratio(view, params["beta"], params["gain"], None, "NCU")
    weight, total = stopping_weights(view, params, subset.position().astype(np.float64),
                                     subset.index)
    return {"NCU": safe_divide(subset.total(weight * br), total)}
