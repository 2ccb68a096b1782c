"""Expected reciprocal rank and its normalised form (Chapelle et al., CIKM 2009; Sakai 2014
§2.2 eq. 15; Ferro & Maistro 2024, §5.1 eq. 14; NTCIREVAL's ERR, nERR@l).

The user scans the ranking top down and stops, satisfied, at rank r with probability
``R_r``; ``dsat(r) = Π_{i≤r} (1 − R_i)`` is the probability of still being unsatisfied
after rank r (products in rank order)::

    ERR   = Σ_r (dsat(r−1) / r) · R_r                      (terms added in rank order)
    nERR@l = ERR@l / ERR@l of the ideal ranking           (0 when the latter is 0)

Satisfaction probabilities from the gain ``g`` of the document (``gain=``, default linear:
the degree) and ``gmax``, the gain of the scale's highest degree (``maxrel``):

* ``prob=exp`` (Chapelle's, default): ``R = (2^g − 1) / 2^gmax`` — with three levels
  1/8, 3/8, 7/8 (Sakai 2014); with c = 2, 1/4 and 3/4 (Ferrante et al. 2019, §5);
* ``prob=ntcir``: ``R = g / (gmax + 1)`` (NTCIREVAL: "divide by maxgain+1 to make sure
  rel prob < 1 even for a highly rel doc"; ERR then does not reduce to RR in the binary case).

The operations follow NTCIREVAL's loop (``ERR += (dsat/r)·R``, ``dsat *= 1 − R``). With one
relevant document at rank r, ERR = R_r / r. ``ERR@k`` (the parameter ``cutoff``, as for
``nERR``) sums the first k ranks; with ``--ties expected`` both are expectations over the
orders of the tie groups, the cut applied inside them (:mod:`irscale.measures.ties`).

``ERR(stop=s0:s1:...)`` gives the stopping probability of every degree 0, 1, 2, ... instead
(a document not judged counts as degree 0, and a non-relevant document may stop the user
too): the cascade of Chapelle et al. with ``R`` estimated from a click log, as Ferro &
Maistro (2024, §5.1) describe; :func:`irscale.measures.calibrate` fits it (``α·σ`` of a
DBN, per degree).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import Subset, memo, relevant_documents
from ..errors import MeasureError
from .arrays import safe_divide
from .base import EvalContext, register
from .gain_discount import (
    MAXREL,
    MAXREL_CHECK,
    GainMap,
    element_gains,
    gain_keyword,
    ideal_rankings,
    max_gain,
)
from .params import CUTOFF, Keyword, Keywords, Params, choice, numbers, only_with, optional

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
               family: str = "ERR", depth: int | None = None) -> np.ndarray:
    """Per ranking: ERR of its first ``depth`` documents (all: ``None``; NTCIREVAL's
    operations: (dsat/r)·R); with tie groups, its expectation over their orders
    (:func:`irscale.core.kernels.expected_err`)."""

    def compute() -> np.ndarray:
        subset = relevant_documents(jr)
        stop = satisfaction(jr, prob, gain, maxrel, family, subset.index)
        if jr.tie_groups is not None:
            from ..core.kernels import expected_err

            return expected_err(jr, _everywhere(jr, subset, stop), depth)
        cut = subset if depth is None else subset.select(subset.rank <= depth)
        stop = stop if depth is None else stop[subset.rank <= depth]
        before = unsatisfied_before(cut, stop)
        return cut.total((before / cut.rank) * stop)

    return memo(jr, f"err:{prob}:{gain}:{maxrel}:{depth}", compute)


def _everywhere(jr: JudgedRankings, subset: Subset, values: np.ndarray) -> np.ndarray:
    """Per document of ``jr``: ``values`` at the documents of ``subset``, 0 elsewhere."""
    out = np.zeros(len(jr.rel))
    out[subset.index] = values
    return out


_PARAMS = {"prob": PROB, "gain": gain_keyword("linear"), "maxrel": MAXREL}
#: ``stop=s0:s1:...``: the stopping probability of each degree (a calibrated cascade).
STOP = Keyword(optional(numbers(low=0.0, high=1.0)), None,
               "stopping probability per degree 0, 1, 2, ... (from a click log: "
               "irscale.measures.calibrate), instead of prob=")


def degree_table(jr: JudgedRankings, table: tuple[float, ...], family: str,
                 key: str) -> np.ndarray:
    """Per document: ``table[degree]`` (a document not judged: degree 0); a degree beyond
    the table is an error naming the parameter ``key``."""
    degree = np.maximum(jr.rel, 0)
    top = int(degree.max(initial=0))
    if top >= len(table):
        raise MeasureError(f"measure {family!r}: {key} gives degrees 0..{len(table) - 1} "
                           f"but a document has degree {top}")
    return np.asarray(table, dtype=np.float64)[degree]


def _without_stop(name: str) -> Callable[[Params, str], None]:
    return only_with(name, lambda p: p["stop"] is None, "without stop= (which gives R itself)")


@register(
    "ERR",
    doc="Expected reciprocal rank Σ dsat(r−1)·R_r / r, cascade user model (Chapelle et al. "
    "2009; Sakai 2014, eq. 15).",
    params=Keywords(**_PARAMS, stop=STOP, cutoff=CUTOFF).checked(
        MAXREL_CHECK, *(_without_stop(name) for name in _PARAMS)),
    missing_value=0.0,
    formula="Σ_r dsat(r − 1)·R_r / r, R_r = (2^g(r) − 1)/2^gmax",
    source="Chapelle et al. 2009",
    tie_aware=True,
)
def err(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    k = params["cutoff"]
    if params["stop"] is not None:
        stop = degree_table(jr, params["stop"], "ERR", "stop")
        if jr.tie_groups is not None:
            from ..core.kernels import expected_err

            return {"ERR": expected_err(jr, stop, k)}
        subset = Subset.of(jr, (stop > 0) & (jr.rank <= (k or len(jr.rel))))
        r = stop[subset.index]
        return {"ERR": subset.total(unsatisfied_before(subset, r) * r / subset.rank)}
    return {"ERR": err_values(jr, params["prob"], params["gain"], params["maxrel"], depth=k)}


@register(
    "nERR",
    doc="Normalised ERR: ERR@l divided by the ERR@l of the ideal ranking (NTCIREVAL's nERR@l).",
    params=Keywords(**_PARAMS, cutoff=CUTOFF).checked(MAXREL_CHECK),
    missing_value=0.0,
    formula="ERR@l / ERR@l of the ideal ranking",
    source="Sakai: NTCIREVAL (nERR@l)",
    tie_aware=True,
)
def nerr(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    prob, gain, maxrel, k = params["prob"], params["gain"], params["maxrel"], params["cutoff"]
    ideal = ideal_rankings(jr, gain, maxrel, "nERR")
    best = ideal.batch if k is None else ideal.batch.truncate(k)
    ideal_err = ideal.per_ranking(err_values(best, prob, gain, maxrel, "nERR"))
    values = safe_divide(err_values(jr, prob, gain, maxrel, "nERR", k), ideal_err)
    if prob == "exp":
        values = _faint_topics(values, jr, k, best, ideal.row, gain, maxrel)
    return {"nERR": values}


def _faint_topics(values: np.ndarray, jr: JudgedRankings, k: int | None, best: JudgedRankings,
                  ideal_row: np.ndarray, gain: GainMap, maxrel: int | None) -> np.ndarray:
    """nERR of the rankings whose topic's most relevant document has R = (2^gt − 1)/2^gmax
    below 2^−1022 (gt more than 1022 below gmax: labels in the thousands beside small
    ones): those R are subnormal or 0, and nERR would lose its digits or be 0/0. Their
    1 − R rounds to 1 (the cascade's products are exactly 1), so ERR is Σ R_r / r, and both
    sums are made of R·2^(gmax − gt) = 2^(g − gt) − 2^(−gt): the same ratio, in range."""
    first = best.offsets[:-1][best.lengths > 0]
    top = np.full(best.n_rankings, -np.inf)
    top[best.lengths > 0] = element_gains(best, gain, maxrel, "nERR", first)
    gmax = max_gain(jr, gain, maxrel, "nERR")
    faint = top[ideal_row] < gmax - 1022
    if not faint.any():
        return values

    def scaled_err(batch: JudgedRankings, topic_top: np.ndarray) -> np.ndarray:
        # linear in the documents' terms: with ties, each holds its group's mean
        # (irscale.measures.ties.tie_means), taken before the cut
        from .ties import tie_means

        subset = relevant_documents(batch)
        g = element_gains(batch, gain, maxrel, "nERR", subset.index)
        t = topic_top[subset.segment]
        terms = tie_means(batch, _everywhere(batch, subset, np.exp2(g - t) - np.exp2(-t)))
        kept = np.flatnonzero(batch.rank <= (len(batch.rel) if k is None else k))
        return np.bincount(batch.segment[kept], weights=terms[kept] / batch.rank[kept],
                           minlength=batch.n_rankings)

    ideal_sum = scaled_err(best, np.where(np.isfinite(top), top, 0.0))[ideal_row]
    ranked_sum = scaled_err(jr, np.where(faint, top[ideal_row], 0.0))
    return np.where(faint, safe_divide(ranked_sum, ideal_sum), values)
