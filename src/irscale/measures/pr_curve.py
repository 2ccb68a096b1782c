"""Area under the precision–recall curve of a ranking, AUCPR (Davis & Goadrich, ICML 2006,
on the interpolation; the curve of Sakai 2014, §2.2, Fig. 2, not interpolated).

The curve joins the points ``(Rec(r), Prec(r)) = (C(r)/R, C(r)/r)`` of every rank
r = 1..n, starting from ``(0, 1)`` (scikit-learn's first point); recall grows by 1/R at
each relevant rank and is flat elsewhere, and the curve ends at recall C(n)/R (the
relevant documents not retrieved add no area). ``interp=``:

* ``trapezoid`` (default) — straight lines between successive points, the trapezoidal
  rule of ``sklearn.metrics.auc(recall, precision)`` on ``precision_recall_curve``::

      AUCPR = (1/R) Σ_r I(r) (Prec(r − 1) + Prec(r)) / 2,   Prec(0) = 1

* ``step`` — each recall step at the precision reached, the step rule of
  ``sklearn.metrics.average_precision_score``: ``(1/R) Σ_r I(r) Prec(r)``, which is AP
  (trec_eval's map, bit for bit as the terms are the same).

Straight lines overestimate the area between points of different recall and precision
(Davis & Goadrich 2006); the step rule does not. 0 when R = 0.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import relevant_documents
from .arrays import safe_divide
from .base import EvalContext, register
from .params import Keyword, Keywords, Params, choice

INTERP = Keyword(choice("trapezoid", "step"), "trapezoid",
                 "joining the points: trapezoid (straight lines) or step (precision reached)")


@register(
    "AUCPR",
    doc="Area under the precision–recall curve of the ranking's points (C(r)/R, C(r)/r) "
    "from (0, 1): trapezoid or step rule (step: AP) (Davis & Goadrich 2006).",
    params=Keywords(interp=INTERP),
    missing_value=0.0,
    formula="(1/R) Σ_r I(r) (Prec(r−1) + Prec(r))/2, Prec(0) = 1 (step: (1/R) Σ I(r) Prec(r))",
    source="Davis & Goadrich 2006",
)
def aucpr(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    relevant = relevant_documents(jr)
    count = relevant.position().astype(np.float64)  # C(r) at each relevant document
    rank = relevant.rank.astype(np.float64)
    precision = count / rank
    if params["interp"] == "trapezoid":
        before = np.where(rank > 1, (count - 1.0) / np.maximum(rank - 1.0, 1.0), 1.0)
        precision = (before + precision) / 2.0
    return {"AUCPR": safe_divide(relevant.total(precision), jr.num_rel)}
