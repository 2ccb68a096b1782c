"""Citations: answers' sentences by the support of the passages they cite
(:mod:`irscale.measures.citations`)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

CITATIONS = declare_context("citations", ContextInfo(
    "answers whose sentences cite passages, judged by whether the cited passages support "
    "them (ALCE, AIS, the TREC RAG track's support evaluation)",
    "citation", ("citation_recall", "citation_precision", "support_precision"),
    "irscale text citations; irscale.text.evaluate_citations", whole="answer"))
