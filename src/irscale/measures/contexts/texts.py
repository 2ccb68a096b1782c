"""Texts: candidates against references (:mod:`irscale.measures.rouge`,
:mod:`irscale.measures.bleu`)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

TEXTS = declare_context("texts", ContextInfo(
    "candidate texts against reference texts (summaries, translations)",
    "ROUGE", ("ROUGE-2", "ROUGE-L(stat=r)", "ROUGE-SU4", "ROUGE-S(skip=inf,beta=2)",
              "BLEU(smooth=floor)"),
    "irscale text rouge, irscale text bleu; irscale.text.evaluate_rouge, "
    "irscale.text.evaluate_bleu", whole="text"))
