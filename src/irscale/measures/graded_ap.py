"""Graded average precision, GAP (Robertson, Kanoulas & Yilmaz, SIGIR 2010), and
generalised average precision, gAP (Kishida 2005; Sakai 2014, §2.2).

GAP: each user holds a binary notion of relevance, with a threshold on the degrees drawn
from a distribution: the user's threshold is degree j with probability g_j
(``thresholds=``: ``uniform`` over the relevant degrees ``rel..c`` (default), or
``g1:g2:...:gc``, the weight of each degree 1..c, degrees below ``rel`` ignored). A
document of degree c_m is relevant to a user of threshold j when c_m ≥ j; with
``G(v) = Σ_{rel ≤ j ≤ v} g_j``, the probability that a document of degree v is relevant,
AP expected over the users' thresholds, normalised as the paper does, is::

    GAP = Σ_n (I(n)/n) Σ_{m≤n} I(m) δ_mn / Σ_v R_v G(v),   δ_mn = G(min(c_m, c_n))

R_v the topic's judged documents of degree v. gAP (Kishida) is the same sum with the
gain in place of G, ``δ_mn = min(x_m, x_n)``, ``x`` the gains (``gain=``, default linear),
normalised by its value on the ideal ranking, which is ``Σ_v R_v x(v)`` (in decreasing
order, ``Σ_{m≤n} min(x_m, x_n) = n·x_n``). Since G is nondecreasing in the degree,
``G(min(c_m, c_n)) = min(G(c_m), G(c_n))``: both are one kernel,
``Σ_n (1/n) Σ_{m≤n} min(w_m, w_n) / Σ_judged w`` for a weight w per degree, and both
are scale-free (weights multiplied by a constant leave them unchanged, so the g_j need not
sum to 1). With binary relevance both are AP (tested against trec_eval's map). 0 when the
topic has no relevant document.

The inner sum is computed level by level, for the documents of each distinct weight v of
the batch: ``Σ_{m≤n} min(w_m, w_n) = v·#{m ≤ n: w_m ≥ v} + Σ_{m<n, w_m<v} w_m`` (a count
and a running sum within the ranking, in rank order), so that a ranking's value depends on
its own documents alone, bit for bit whatever the batch it is computed in.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import relevant_documents
from ..errors import MeasureError
from .arrays import judged_total, safe_divide
from .base import EvalContext, register
from .gain_discount import degree_gains, element_gains, gain_keyword
from .params import Keyword, Keywords, Params, numbers, states


@states("uniform, or weights g1:g2:... ≥ 0")
def parse_thresholds(text: str) -> str | tuple[float, ...]:
    """``uniform`` or the weights of degrees 1, 2, ..., at least one positive."""
    if text == "uniform":
        return text
    values = numbers(low=0.0)(text)
    if not any(values):
        raise ValueError("at least one weight must be > 0")
    return values


THRESHOLDS = Keyword(parse_thresholds, "uniform",
                     "probability g_j that a user's threshold is degree j: uniform over "
                     "the relevant degrees, or g1:g2:...:gc (any positive total)")


def threshold_weights(jr: JudgedRankings, thresholds: str | tuple[float, ...],
                      degrees: np.ndarray) -> np.ndarray:
    """``G(v)`` of each degree v ≥ 0: the weight of the thresholds ``rel..v``."""
    degrees = np.asarray(degrees, dtype=np.int64)
    floor = max(jr.relevance_level, 1)
    if isinstance(thresholds, str):  # uniform
        return np.maximum(degrees - floor + 1, 0).astype(np.float64)
    top = int(degrees.max(initial=0))
    if top > len(thresholds):
        raise MeasureError(f"measure 'GAP': thresholds gives weights for degrees "
                           f"1..{len(thresholds)} but the judgments have degree {top}")
    weights = np.array((0.0, *thresholds))
    weights[:floor] = 0.0
    return np.cumsum(weights)[degrees]


def min_average_precision(jr: JudgedRankings, weights: np.ndarray,
                          totals: np.ndarray) -> np.ndarray:
    """Per ranking: ``Σ_n (1/n) Σ_{m≤n} min(w_m, w_n) / total``, ``weights`` w at the
    relevant retrieved documents (in :func:`relevant_documents` order), ``totals`` the
    ideal value of each ranking."""
    relevant = relevant_documents(jr)
    inner = np.zeros(len(weights))
    for level in np.unique(weights[weights > 0]):
        at = weights == level
        count = relevant.cumcount(weights >= level)
        smaller = relevant.scan(np.where(weights < level, weights, 0.0), np.add, 0.0)
        inner[at] = level * count[at] + smaller[at]
    return safe_divide(relevant.total(inner / relevant.rank), totals)


@register(
    "GAP",
    doc="Graded average precision: AP expected over users whose relevance threshold on "
    "the degrees is drawn with probabilities g_j (Robertson, Kanoulas & Yilmaz 2010).",
    params=Keywords(thresholds=THRESHOLDS),
    missing_value=0.0,
    formula="Σ_n (I(n)/n) Σ_{m≤n} I(m) G(min(c_m, c_n)) / Σ_v R_v G(v), "
    "G(v) = Σ_{j≤v} g_j",
    source="Robertson, Kanoulas & Yilmaz 2010",
)
def gap(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    thresholds = params["thresholds"]
    relevant = relevant_documents(jr)
    # first the judged degrees: a degree beyond the list is an error whatever is retrieved
    totals = judged_total(jr, threshold_weights(jr, thresholds, jr.column_degrees))
    return {"GAP": min_average_precision(
        jr, threshold_weights(jr, thresholds, relevant.rel), totals)}


@register(
    "gAP",
    doc="Generalised average precision: Σ_n (1/n) Σ_{m≤n} min(x_m, x_n) over its ideal "
    "value, x the gains (Kishida 2005; Sakai 2014, §2.2).",
    params=Keywords(gain=gain_keyword("linear")),
    missing_value=0.0,
    formula="Σ_n (I(n)/n) Σ_{m≤n} I(m) min(x_m, x_n) / Σ_v R_v x(v)",
    source="Kishida 2005",
)
def generalised_ap(jr: JudgedRankings, params: Params, ctx: EvalContext
                   ) -> dict[str, np.ndarray]:
    gain = params["gain"]
    relevant = relevant_documents(jr)
    totals = judged_total(jr, degree_gains(jr, gain, jr.column_degrees, "gAP"))
    return {"gAP": min_average_precision(
        jr, element_gains(jr, gain, None, "gAP", relevant.index), totals)}
