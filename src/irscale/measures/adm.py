"""ADM, the average distance measure (Della Mea & Mizzaro, JASIST 55(6), 2004, "Measuring
retrieval effectiveness: a new proposal and a first experimental validation").

The system estimates the relevance of every document, SRE(d) in [0, 1]; the user's
relevance is URE(d) in [0, 1]; ADM is one minus their average distance::

    ADM = 1 − (1/|D|) Σ_(d ∈ D) |SRE(d) − URE(d)|

As irscale reads it (the paper's D is the whole collection, which a run and qrels do not
list): D is the topic's retrieved documents together with its judged ones; a judged
document the run does not retrieve (or retrieves below the cut-off ``@k``) has SRE = 0,
and a retrieved unjudged one URE = 0. URE is the relevance degree over the scale's top
degree c (``maxrel``, or the highest degree judged in the batch), degrees below the
relevance level counting 0: URE = g(d)/c with the catalogue's linear gains. SRE comes from
the run's scores (the family declares ``needs_scores``: the evaluation attaches them), per
topic: ``norm=minmax`` (default) maps them to (s − min)/(max − min) over the topic's
retrieved documents (1 for all when every score is the same); ``norm=max`` divides them
by the topic's highest score (scores must be ≥ 0; all 0 when the highest is 0);
``norm=none`` takes the scores as they are, and a score outside [0, 1] is then an error.
Della Mea & Mizzaro assume the system gives estimates in [0, 1]; the normalisations are
irscale's, for runs whose scores are not.

A topic the run does not retrieve counts 0 under ``-c`` (as every measure's), not the ADM of
an empty ranking.

ADM is not a ranked-retrieval measure (Sakai 2014, §2.3: it lacks top-heaviness): only the
scores count, not the order.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..errors import MeasureError
from .arrays import safe_divide
from .base import EvalContext, register
from .gain_discount import MAXREL, degree_gains, element_gains, gain_top, parse_gain
from .params import Keyword, Keywords, Params, choice

_LINEAR = parse_gain("linear")


def system_estimates(jr: JudgedRankings, norm: str, family: str = "ADM") -> np.ndarray:
    """SRE of every retrieved document: its score normalised per ranking (module
    documentation)."""
    try:
        score = jr.attribute("score")
    except KeyError:
        raise MeasureError(f"measure {family!r} reads the runs' scores, which these "
                           "judged rankings do not carry (evaluate it with irscale eval, "
                           "eval-many or irscale.evaluate)") from None
    known = ~np.isnan(score)
    if norm != "minmax":
        bad = known & ((score < 0.0) | ((score > 1.0) if norm == "none" else False))
        if bad.any():
            needed = "in [0, 1]" if norm == "none" else "≥ 0"
            raise MeasureError(f"measure {family!r}: with norm={norm} the scores must be "
                               f"{needed}, got {float(score[bad][0])!r}: use norm=minmax")
        if norm == "none":
            return np.where(known, score, 0.0)
    starts = jr.offsets[:-1][jr.lengths > 0]
    filled_low = np.where(known, score, np.inf)
    filled_high = np.where(known, score, -np.inf)
    low = np.zeros(jr.n_rankings)
    high = np.zeros(jr.n_rankings)
    if len(starts):
        nonempty = jr.lengths > 0
        low[nonempty] = np.minimum.reduceat(filled_low, starts)
        high[nonempty] = np.maximum.reduceat(filled_high, starts)
    if norm == "max":
        top = high[jr.segment]
        return np.where(known & (top > 0), score / np.where(top > 0, top, 1.0), 0.0)
    lo, span = low[jr.segment], (high - low)[jr.segment]
    spread = np.where(span > 0, (score - lo) / np.where(span > 0, span, 1.0), 1.0)
    return np.where(known, spread, 0.0)


@register(
    "ADM",
    doc="Average distance measure: 1 − mean |SRE − URE| over the retrieved and judged "
    "documents, SRE the run's score normalised to [0, 1] (norm=minmax, max or none), URE the "
    "relevance degree over the top degree (Della Mea & Mizzaro 2004). Reads run scores.",
    params=Keywords(
        norm=Keyword(choice("minmax", "max", "none"), "minmax",
                     "scores to SRE: minmax ((s − min)/(max − min) per topic), max "
                     "(s / max per topic, scores ≥ 0) or none (scores in [0, 1] as given)"),
        maxrel=MAXREL),
    formula="1 − (1/|D|) Σ_(d∈D) |SRE(d) − URE(d)|, D = retrieved ∪ judged",
    source="Della Mea & Mizzaro 2004",
    missing_value=0.0,
    needs_scores=True,
)
def adm(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    top = gain_top(jr, _LINEAR, params["maxrel"], "ADM")
    ure = element_gains(jr, _LINEAR, params["maxrel"], "ADM") / top
    sre = system_estimates(jr, params["norm"])
    retrieved = jr.segment_sum(np.abs(sre - ure))
    # judged documents not retrieved: SRE 0, URE of their degree
    degrees = jr.column_degrees
    columns = np.flatnonzero(degrees >= 0)
    judged = np.flatnonzero(jr.rel >= 0)
    column = np.searchsorted(degrees, jr.rel[judged])
    shown = np.bincount(jr.segment[judged] * len(degrees) + column,
                        minlength=jr.n_rankings * len(degrees)).reshape(jr.n_rankings, -1)
    missing = (jr.rel_levels - shown)[:, columns]
    ure_degree = degree_gains(jr, _LINEAR, degrees[columns], "ADM") / top
    distance = retrieved + missing @ ure_degree
    return {"ADM": 1.0 - safe_divide(distance, jr.lengths + missing.sum(axis=1))}
