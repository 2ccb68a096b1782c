"""Generalised precision and recall, gP and gR (Kekäläinen & Järvelin, JASIST 2002;
Ferrante et al. 2019, §4.2).

With ``g`` the gain map (``gain=``, default linear; documents below ``rel`` and unjudged
ones gain 0), ``gmax`` the gain of the scale's highest degree, N the documents considered
(the cut-off k, or the n retrieved) and the recall base in gains
``RB = Σ_{judged d} g(d)`` (Ferrante et al. 2019, §3)::

    gP = (1/N) Σ_{i≤N} g(r_i) / gmax
    gR = Σ_{i≤N} g(r_i) / RB                  (0 when RB = 0)

Both are set measures (the order of the N documents does not matter). With binary
relevance they are precision and recall.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from .arrays import safe_divide
from .base import EvalContext, register
from .gain_discount import (
    MAXREL,
    MAXREL_CHECK,
    GainMap,
    degree_gains,
    element_gains,
    gain_keyword,
    gain_top,
    max_gain,
)
from .params import CUTOFF, Keywords, Params

_PARAMS = Keywords(gain=gain_keyword("linear"), maxrel=MAXREL,
                   cutoff=CUTOFF).checked(MAXREL_CHECK)
#: gR has no ``maxrel``: a ratio of gains does not depend on gmax.
_PARAMS_R = Keywords(gain=gain_keyword("linear"), cutoff=CUTOFF)


def total_gain(jr: JudgedRankings, gain: GainMap, maxrel: int | None, family: str) -> np.ndarray:
    """Per ranking: the recall base in gains, Σ over the topic's judged documents."""
    gain_top(jr, gain, maxrel, family)  # checks maxrel against the judgments
    gains = degree_gains(jr, gain, jr.column_degrees, family)
    return jr.rel_levels.astype(np.float64) @ gains


def _retrieved_gain(jr: JudgedRankings, params: Params,
                    family: str) -> tuple[np.ndarray, np.ndarray]:
    k = params["cutoff"]
    view = jr if k is None else jr.truncate(k)
    size = view.lengths if k is None else np.full(jr.n_rankings, k)
    gains = element_gains(view, params["gain"], params.get("maxrel"), family)
    return view.segment_sum(gains), size


@register(
    "gP",
    doc="Generalised precision: mean normalised gain g/gmax of the retrieved (or top k) "
    "documents (Kekäläinen & Järvelin 2002; Ferrante et al. 2019, §4.2).",
    params=_PARAMS,
    formula="(1/n) Σ_{r ≤ n} g(r)/gmax",
    source="Kekäläinen & Järvelin 2002",
)
def generalised_precision(jr: JudgedRankings, params: Params,
                          ctx: EvalContext) -> dict[str, np.ndarray]:
    total, size = _retrieved_gain(jr, params, "gP")
    gmax = max_gain(jr, params["gain"], params["maxrel"], "gP")
    return {"gP": safe_divide(total, size * gmax)}


@register(
    "gR",
    doc="Generalised recall: gain retrieved (in the top k) over the gain of every judged "
    "document (Kekäläinen & Järvelin 2002; Ferrante et al. 2019, §4.2).",
    params=_PARAMS_R,
    formula="Σ_{retrieved} g / Σ_{judged} g",
    source="Kekäläinen & Järvelin 2002",
)
def generalised_recall(jr: JudgedRankings, params: Params,
                       ctx: EvalContext) -> dict[str, np.ndarray]:
    total, _ = _retrieved_gain(jr, params, "gR")
    return {"gR": safe_divide(total, total_gain(jr, params["gain"], None, "gR"))}
