"""Preference judgments (:mod:`irscale.measures.prefs`, trec_eval's prefs families)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

PREFS = declare_context("prefs", ContextInfo(
    "a ranking against preference judgments (trec_eval's -R prefs and -R qrels_prefs: "
    "judgment groups of documents ordered by level)",
    "preference", ("prefs_simp", "prefs_pair", "prefs_avgjg"),
    "irscale eval -R prefs; irscale.evaluate(relevance_format='prefs')"))
