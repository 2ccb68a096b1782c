"""Precision at document cut-offs: P, relative_P, Rprec, Rprec_mult.

Sources: trec_eval 9.0.8 m_P.c, m_rel_P.c, m_Rprec.c, m_Rprec_mult.c. With ``h(k)`` the
number of relevant documents (degree ≥ level) among the first ``k`` retrieved — a ranking
shorter than ``k`` is padded with non-relevant documents — ``R`` the number of relevant
documents of the topic and ``n`` the number retrieved::

    P_k          = h(k) / k
    relative_P_k = h(k) / min(k, R)                      (0 when R = 0)
    Rprec        = h(min(n, R)) / R                      (0 when n = 0 or R = 0)
    Rprec_mult_x = h(c) / c  with c = (long)(x·R + 0.9)  (0 when c ≤ 0)

Rprec_mult's ``c`` is computed in doubles and truncated, as trec_eval does (unchanged in
10.0). For a cut-off beyond the ranking trec_eval divides ``num_rel_ret`` (relevant
*judged* documents retrieved) by ``c``; that is ``h(c)`` for any level ≥ 0. Computed by the
engine (rust/src/measures/precision.rs).
"""

from __future__ import annotations

from ..base import Cutoffs, Floats, Range
from ..native import Native, declare_native, level_label

_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_R_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


declare_native(
    "P",
    Native(),
    doc="Precision after k documents retrieved: relevant in the top k, divided by k "
    "(missing ranks count as non-relevant; trec_eval m_P.c).",
    params=Cutoffs(*_CUTOFFS),
    formula="P@k = |relevant in top k| / k",
    source="trec_eval 9.0.8 (m_P.c)",
)


declare_native(
    "relative_P",
    Native(),
    doc="Relative precision at k: relevant in the top k divided by min(k, R), the best "
    "possible (trec_eval m_rel_P.c).",
    params=Cutoffs(*_CUTOFFS),
    formula="|relevant in top k| / min(k, R)",
    source="trec_eval 9.0.8 (m_rel_P.c)",
)


declare_native(
    "Rprec",
    Native(),
    doc="R-precision: precision after R documents, R the number of relevant documents "
    "(trec_eval m_Rprec.c).",
    formula="|relevant in top R| / R",
    source="trec_eval 9.0.8 (m_Rprec.c)",
)


declare_native(
    "Rprec_mult",
    Native(label=level_label),
    doc="Precision at multiples x of R: precision after (long)(x·R + 0.9) documents "
    "(trec_eval m_Rprec_mult.c). Multiples 0 < x ≤ 10^6 (x ≤ 0 gives 0 for every topic; "
    "the cut-off x·R must fit a C long).",
    params=Floats(*_R_MULTIPLES, valid=Range("each multiple of R", low=0.0, high=1e6,
                                             open_low=True)),
    formula="P@(long)(x·R + 0.9)",
    source="trec_eval 9.0.8 (m_Rprec_mult.c)",
)
