"""Judgment coverage of a ranking: ``Judged@k`` (ir_measures' name).

With ``n`` the documents retrieved (after -M and -J) and ``m = min(k, n)`` (``m = n``
without a cut-off)::

    Judged@k = |{documents at ranks ≤ m that are in the qrels}| / m      (0 when m = 0)

A document "in the qrels" has any judgment line, negative degrees included, as in
ir_measures' ``judged`` provider. A "red flag" for reusing judgments with a new run: low
values mean the measures rest on documents nobody judged. Ties are broken as everywhere in
irscale (trec_eval's docno-descending order by default); ir_measures' own provider breaks
them by docno ascending, so the two can differ on topics with tied scores at the cut-off.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import NONPOOL, JudgedRankings
from ..core.subsets import pooled_documents
from .arrays import safe_divide
from .base import EvalContext, register
from .params import CUTOFF, Keywords, Params


@register(
    "Judged",
    doc="Fraction of the first k retrieved documents (all of them without @k) that have a "
    "judgment in the qrels, of any degree (ir_measures' Judged@k).",
    params=Keywords(cutoff=CUTOFF),
    ignores={"rel": "it counts the documents in the qrels, of any degree",
             "condensed": "the condensed list holds judged documents only",
             "conditional": "the members of a conditional group are judged either way"},
    formula="|judged in top k| / k",
    source="ir_measures (MacAvaney et al. 2022)",
)
def judged(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    k = params["cutoff"]
    depth = jr.lengths if k is None else np.minimum(jr.lengths, k)
    pooled = pooled_documents(jr)  # every document in the qrels is among them
    in_qrels = pooled.count(pooled.rel != NONPOOL, depth)
    return {"Judged": safe_divide(in_qrels, depth)}
