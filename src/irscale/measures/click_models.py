"""Measures calibrated on click models: utility- and effort-based (Chuklin, Serdyukov & de
Rijke, CIKM 2013; Carterette's framework; Ferro & Maistro 2024, §5.1 eq. 16–17).

A click model trained on a log gives ``P[C_i = 1]``, the probability that the user clicks
the document at rank i, and — for models that estimate satisfaction (DBN, DCM) —
``s_i = P[S_i = 1 | C_i = 1]``::

    uM  = Σ_i P[C_i = 1] · r̂_i                 (utility-based, eq. 16)
    rrM = Σ_i s_i · P[C_i = 1] / i              (effort-based, eq. 17)

with ``r̂_i`` the relevance grade of the document (``gain=``, default linear; unjudged: 0).
The click model's output is an input:

* ``click=NAME`` — per (topic, document) click probabilities from a label set
  (``evaluate(..., labels={NAME: ...})``; a document without one is never clicked), or
* ``pclick=p1:p2:...`` — click probability per rank (a position-based model); a ranking
  longer than the list given is an error (evaluate it with a cut-off, ``uM(...)@10``).

Satisfaction for rrM: ``sat=NAME`` (label set), ``psat=s1:s2:...`` (per relevance degree
1, 2, ...; degree 0 and unjudged: 0) or, by default, Chapelle's ``(2^g − 1)/2^gmax``.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError
from .base import EvalContext, register
from .cascade import satisfaction
from .gain_discount import MAXREL, MAXREL_CHECK, GainMap, element_gains, gain_keyword
from .multi_aspect import label_values
from .params import Keyword, Keywords, Params, identifier, numbers, only_with, optional

_CLICKS = {
    "click": Keyword(optional(identifier), None, "label set of click probabilities"),
    "pclick": Keyword(optional(numbers(low=0.0, high=1.0)), None,
                      "click probability per rank, p1:p2:..."),
}


def probabilities(jr: JudgedRankings, name: str, family: str) -> np.ndarray:
    """Per document: the probability in label set ``name`` (0 without a label); a value
    outside [0, 1] is an error naming the label set, never used as a probability."""
    values = label_values(jr, name, family)
    known = values[~np.isnan(values)]
    if len(known) and (known.min() < 0.0 or known.max() > 1.0):
        bad = known[(known < 0.0) | (known > 1.0)][0]
        raise MeasureError(f"measure {family!r}: label set {name!r} holds {bad:g}, "
                           "not a probability in [0, 1]")
    return np.where(np.isnan(values), 0.0, values)


def click_probability(jr: JudgedRankings, params: Params, family: str) -> np.ndarray:
    """Per document: ``P[C_i = 1]`` from ``click`` or ``pclick`` (exactly one is needed)."""
    if (params["click"] is None) == (params["pclick"] is None):
        raise MeasureError(f"measure {family!r} needs the click model's output: give "
                           "click=NAME (a label set) or pclick=p1:p2:... (per rank)")
    if params["click"] is not None:
        return probabilities(jr, params["click"], family)
    per_rank = np.asarray(params["pclick"])
    if len(jr.rel) and int(jr.lengths.max()) > len(per_rank):
        raise MeasureError(f"measure {family!r}: pclick gives {len(per_rank)} ranks but a "
                           f"ranking has {int(jr.lengths.max())} documents; use a cut-off "
                           f"({family}(...)@{len(per_rank)})")
    return per_rank[jr.rank - 1] if len(jr.rel) else np.zeros(0)


def satisfied_after_click(jr: JudgedRankings, params: Params, gain: GainMap,
                          family: str) -> np.ndarray:
    """Per document: ``s_i = P[S_i = 1 | C_i = 1]`` (see the module documentation)."""
    if params["sat"] is not None:
        return probabilities(jr, params["sat"], family)
    if params["psat"] is not None:
        table = np.concatenate(([0.0], params["psat"]))
        degree = np.where(jr.rel >= max(jr.relevance_level, 1), jr.rel, 0)
        if int(degree.max(initial=0)) >= len(table):
            raise MeasureError(f"measure {family!r}: psat gives degrees 1..{len(table) - 1} "
                               f"but a document has degree {int(degree.max())}")
        return table[degree]
    return satisfaction(jr, "exp", gain, params["maxrel"], family)


@register(
    "uM",
    doc="Utility-based click-model measure Σ P[C_i=1]·r̂_i (Chuklin et al. 2013; "
    "Ferro & Maistro 2024, eq. 16); click probabilities given as input.",
    params=Keywords(**_CLICKS, gain=gain_keyword("linear")),
    missing_value=0.0,
    formula="Σ_i P[C_i = 1]·r̂_i",
    source="Chuklin et al. 2013",
)
def utility(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    clicks = click_probability(jr, params, "uM")
    return {"uM": jr.segment_sum(clicks * element_gains(jr, params["gain"], None,
                                                        "uM"))}


def _default_satisfaction(params: Params) -> bool:
    return params["sat"] is None and params["psat"] is None


@register(
    "rrM",
    doc="Effort-based click-model measure Σ s_i·P[C_i=1]/i (Chuklin et al. 2013; "
    "Ferro & Maistro 2024, eq. 17); click (and satisfaction) probabilities given as input.",
    params=Keywords(**_CLICKS,
                    sat=Keyword(optional(identifier), None,
                                "label set of satisfaction probabilities"),
                    psat=Keyword(optional(numbers(low=0.0, high=1.0)), None,
                                 "satisfaction probability per degree 1, 2, ..."),
                    gain=gain_keyword("linear"), maxrel=MAXREL).checked(
        only_with("psat", lambda p: p["sat"] is None, "without sat= (a label set wins)"),
        only_with("gain", _default_satisfaction, "with the default satisfaction (2^g − 1)/2^gmax "
                  "(no sat=, no psat=)"),
        only_with("maxrel", _default_satisfaction, "with the default satisfaction "
                  "(2^g − 1)/2^gmax (no sat=, no psat=)"),
        MAXREL_CHECK),
    missing_value=0.0,
    formula="Σ_i s_i·P[C_i = 1] / i",
    source="Chuklin et al. 2013",
)
def effort(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    clicks = click_probability(jr, params, "rrM")
    satisfied = satisfied_after_click(jr, params, params["gain"], "rrM")
    return {"rrM": jr.segment_sum(satisfied * clicks / jr.rank)}
