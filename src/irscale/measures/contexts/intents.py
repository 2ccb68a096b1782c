"""Intents: rankings judged per intent (:mod:`irscale.measures.diversity`, ndeval's and
NTCIREVAL's families)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

INTENTS = declare_context("intents", ContextInfo(
    "rankings judged per intent (diversity qrels: topic intent docno rel)",
    "diversity", ("alpha-nDCG@20", "ERR-IA(alpha=0.5)@10", "D#-nDCG@10", "IA(nDCG@10)",
                  "ndeval"),
    "irscale eval with diversity qrels; irscale.evaluate with diversity qrels"))
