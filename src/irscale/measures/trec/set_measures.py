"""Measures of the retrieved set, regardless of order: set_P, set_recall, set_relative_P,
set_map, set_F, utility.

Sources: trec_eval 9.0.8 m_set_P.c, m_set_recall.c, m_set_rel_P.c, m_set_map.c, m_set_F.c,
m_utility.c. With ``n`` documents retrieved (after -M and -J), ``r`` of them relevant and
judged (``num_rel_ret``), ``R`` relevant documents for the topic and ``N`` the collection size
(``-N``, default 0)::

    set_P          = r / n                        (0 when n = 0)
    set_recall     = r / R                        (0 when R = 0)
    set_relative_P = r / min(n, R)                (0 when n = 0 or R = 0)
    set_map        = (r · r) / (n · R)            (0 when n = 0 or R = 0)
    set_F          = (β+1)·P·Rc / (β·P + Rc)      with P = r/n, Rc = r/R (0 when r = 0)
    utility        = a·r + b·(n - r) + c·(R - r) + d·(N + r - n - R)

set_F's β is its first parameter (default 1; further parameters are ignored); utility takes
exactly four coefficients (default 1, -1, 0, 0). Both print as ``set_F`` / ``utility`` with
their default parameters and as ``set_F_<text>`` / ``utility_<text>`` (the parameter text as
typed) otherwise. trec_eval averages utility over topics like any other measure. Computed by
the engine (rust/src/measures/set_measures.rs).
"""

from __future__ import annotations

from ..base import FloatParams, Range
from ..native import Native, declare_native, first_number, typed_label

declare_native(
    "set_P",
    Native(),
    doc="Set precision: relevant retrieved / retrieved (trec_eval m_set_P.c).",
    formula="|relevant retrieved| / |retrieved|",
    source="trec_eval 9.0.8 (m_set_P.c)",
)


declare_native(
    "set_recall",
    Native(),
    doc="Set recall: relevant retrieved / relevant (trec_eval m_set_recall.c).",
    formula="|relevant retrieved| / R",
    source="trec_eval 9.0.8 (m_set_recall.c)",
)


declare_native(
    "set_relative_P",
    Native(),
    doc="Relative set precision: relevant retrieved / min(retrieved, relevant), the precision "
    "relative to the best possible for a set of that size (trec_eval m_set_rel_P.c).",
    formula="|relevant retrieved| / min(|retrieved|, R)",
    source="trec_eval 9.0.8 (m_set_rel_P.c)",
)


declare_native(
    "set_map",
    Native(),
    doc="Unranked set AP: relevant retrieved² / (retrieved · relevant), i.e. set precision "
    "times set recall (trec_eval m_set_map.c).",
    formula="|relevant retrieved|² / (|retrieved| · R)",
    source="trec_eval 9.0.8 (m_set_map.c)",
)


declare_native(
    "set_F",
    Native(floats=first_number, label=typed_label),
    doc="Set F measure: weighted harmonic mean (β+1)·P·R/(β·P + R) of set precision and set "
    "recall, β ≥ 0 the relative importance of recall (default 1; β = 0: set precision; "
    "trec_eval m_set_F.c, which reads only the first number: one is required here).",
    params=FloatParams(1.0, count=1, valid=Range("β (the weight of recall)", low=0.0)),
    formula="(β + 1)·P·R / (β·P + R) of the retrieved set",
    source="van Rijsbergen 1979; trec_eval 9.0.8 (m_set_F.c)",
)


declare_native(
    "utility",
    Native(label=typed_label),
    doc="Set utility a·(relevant retrieved) + b·(non-relevant retrieved) + c·(relevant not "
    "retrieved) + d·(non-relevant not retrieved), coefficients a,b,c,d (default 1,-1,0,0; "
    "d needs -N; trec_eval m_utility.c).",
    params=FloatParams(1.0, -1.0, 0.0, 0.0, count=4),
    missing_value=0.0,
    formula="a·rel_ret + b·nonrel_ret + c·rel_not_ret + d·nonrel_not_ret",
    source="trec_eval 9.0.8 (m_utility.c)",
)
