"""Measures of multi-judge qrels: trec_eval 9.0.8's ``map_avgjg``, ``P_avgjg`` and
``Rprec_mult_avgjg`` (m_map_avgjg.c, m_P_avgjg.c, m_Rprec_mult_avgjg.c), on judgments split
into judgment groups (``-R qrels_jg``, :mod:`irscale.io.qrels_jg`).

Each is trec_eval's ``map``, ``P`` or ``Rprec_mult`` computed for every judgment group g of
the topic with g's judgments alone (its own relevant documents and R_g, the ranking judged
against g only), then averaged over the topic's G groups, added in the groups' byte order::

    map_avgjg        = (1/G) Σ_g AP_g                  (AP_g = 0 when R_g = 0)
    P_avgjg_k        = (1/G) Σ_g h_g(k) / k
    Rprec_mult_avgjg_x = (1/G) Σ_g h_g(c_g) / c_g,  c_g = (long)(x·R_g + 0.9)

(h_g(k): documents relevant to g among the first k retrieved; a group with R_g = 0 adds 0;
trec_eval divides only when G > 1). The cut-offs are P's (default 5, 10, ..., 1000) and the
multiples Rprec_mult's (default 0.2, 0.4, ..., 2.0), written as theirs: ``P_avgjg.5,10``.
The families are computed by the evaluation of their context
(:mod:`irscale.evaluation.qrels_jg`), which evaluates each group as a topic of its own with
trec_eval's families (:data:`~irscale.measures.trec_table.AVERAGED_JG`): they have no
kernel here.
"""

from __future__ import annotations

from .base import Family, declare
from .params import Keywords
from .trec_table import AVERAGED_JG

_DOCS = {
    "map_avgjg": ("Mean average precision averaged over judgment groups: map with each "
                  "group's judgments alone, averaged over the topic's groups (trec_eval "
                  "m_map_avgjg.c; -R qrels_jg).", "(1/G) Σ_g AP_g"),
    "P_avgjg": ("Precision at cut-offs averaged over judgment groups: P with each group's "
                "judgments alone, averaged over the topic's groups; cut-offs as P's "
                "(P_avgjg.5,10; trec_eval m_P_avgjg.c; -R qrels_jg).",
                "(1/G) Σ_g |relevant to g in top k| / k"),
    "Rprec_mult_avgjg": ("Precision at multiples x of R averaged over judgment groups: "
                         "Rprec_mult with each group's judgments and R alone, averaged over "
                         "the topic's groups; multiples as Rprec_mult's "
                         "(Rprec_mult_avgjg.0.5,1; trec_eval m_Rprec_mult_avgjg.c; "
                         "-R qrels_jg).", "(1/G) Σ_g P_g@(long)(x·R_g + 0.9)"),
}

for _name in AVERAGED_JG:
    _doc, _formula = _DOCS[_name]
    declare(Family(_name, None, Keywords(), _doc, context="qrels_jg", cutoff="none",
                   formula=_formula, source=f"trec_eval 9.0.8 (m_{_name}.c)"))
