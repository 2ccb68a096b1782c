"""PRES, the patent retrieval evaluation score (Magdy & Jones, "PRES: a score metric for
evaluating recall-oriented information retrieval applications", SIGIR 2010; named by
Sakai 2014, §2.3 as a recall-oriented measure for patent search).

The paper is not at hand: this is irscale's reading of its formula. With R the relevant
documents of the topic (degree ≥ ``rel``), N_max the documents the user examines (the
``@k`` of ``PRES@k``) and r_i the rank of the i-th relevant document::

    PRES = 1 − (Σ_{i=1..R} r_i / R − (R + 1)/2) / N_max

A relevant document not among the first N_max gets a rank after N_max. Of the two readings
of where, the one kept places the i-th relevant document (the f found ones first, in rank
order), when it is missing, at rank N_max + i: the k = R − f missing ones at
N_max + f + 1, ..., N_max + R. It is the one with the paper's three properties:

* all relevant documents at ranks 1..R: Σ r_i = R(R + 1)/2, PRES = 1;
* none found (f = 0): Σ r_i = R·N_max + R(R + 1)/2, PRES = 0;
* the f found ones at ranks 1..f: Σ r_i = k·N_max + R(R + 1)/2, PRES = 1 − k/R = f/R, the
  recall.

The other reading, the missing ones at N_max + 1, ..., N_max + k whatever f, gives the first
two but not the third: there PRES = f/R + f·k/(R·N_max), above the recall. With r_j the
rank of the j-th found document (j ≤ f; r_j − j ≥ 0 the non-relevant documents above it),
the sums of the missing ranks cancel and::

    PRES = (f − Σ_{j≤f} (r_j − j) / N_max) / R          (0 when R = 0)

which is what the kernel computes, exactly in doubles for any N_max: the recall within
N_max less the displacement of the found documents, each non-relevant document above a
found one costing 1/(R·N_max). PRES lies in [f²/(R·N_max), f/R] ⊂ [0, 1]; it is binary
(degrees ≥ ``rel`` relevant) and reads the ranking to N_max only.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import relevant_documents
from .arrays import safe_divide
from .base import EvalContext, register
from .params import Keyword, Keywords, Params, integer, needs_cutoff, optional

#: ``cutoff``: N_max, the @k of ``PRES@k``.
N_MAX = Keyword(optional(integer(low=1)), None,
                "N_max, the documents the user examines (the @k of the name)")


@register(
    "PRES",
    doc="Patent retrieval evaluation score 1 − (Σ r_i/R − (R+1)/2)/N_max, a relevant "
    "document missing from the first N_max at rank N_max + i (i its place among the R): "
    "recall within N_max less the displacement of the found ones (Magdy & Jones 2010).",
    params=Keywords(cutoff=N_MAX).checked(needs_cutoff),
    cutoff="required",
    formula="1 − (Σ_{i≤R} r_i / R − (R + 1)/2) / N_max, r_i = N_max + i for a relevant "
    "document not in the top N_max",
    source="Magdy & Jones 2010",
)
def pres(jr: JudgedRankings, params: Params, ctx: EvalContext) -> dict[str, np.ndarray]:
    needs_cutoff(params, "PRES")
    n_max = params["cutoff"]
    relevant = relevant_documents(jr)
    found = relevant.rank <= n_max
    displaced = relevant.total(np.where(found, relevant.rank - relevant.position(), 0))
    return {"PRES": safe_divide(relevant.count(found) - displaced / n_max, jr.num_rel)}
