"""Unjudged documents at cut-offs (trec_eval 10.0 m_unjudged.c, measure ``unj``; not in
9.0.8).

``unj_k`` = |documents among the first k retrieved that are not judged| / k, where "not
judged" means not in the qrels or in the qrels with a negative degree; ranks beyond the
end of a shorter ranking count as judged. Default cut-offs 5, 10, 20. A "red flag"
measure: high values mean the run is poorly covered by the judgments. With ``-J`` (judged
documents only) it is 0 everywhere.
"""

from __future__ import annotations

from ..base import Cutoffs
from ..native import Native, declare_native

declare_native(
    "unj",
    Native(),
    doc="Fraction of unjudged documents (not in the qrels, or judged negative) in the top k "
    "(trec_eval 10.0 m_unjudged.c).",
    params=Cutoffs(5, 10, 20),
    missing_value=0.0,
    formula="|unjudged in top k| / k",
    source="trec_eval 10.0 (m_unjudged.c)",
)
