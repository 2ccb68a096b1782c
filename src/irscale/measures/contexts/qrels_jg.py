"""Multi-judge qrels (:mod:`irscale.measures.qrels_jg`, trec_eval's ``-R qrels_jg``)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

QRELS_JG = declare_context("qrels_jg", ContextInfo(
    "a ranking against multi-judge qrels (trec_eval's -R qrels_jg: lines 'qid jg docno "
    "rel', each judgment group judged alone and averaged over a topic's groups)",
    "multi-judge", ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
    "irscale eval -R qrels_jg; irscale.evaluate(relevance_format='qrels_jg')"))
