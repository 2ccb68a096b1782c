"""Stochastic rankings (:mod:`irscale.measures.fairness`, fairness and exposure)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

POLICIES = declare_context("policies", ContextInfo(
    "stochastic rankings: sampled rankings per topic (a run's second column numbers the "
    "sample) judged against qrels, documents in groups (a label set)",
    "fairness", ("EE-L(gamma=0.5)", "EE-R(level=group)", "AWRF@10", "nDCG-AWRF@20"),
    "irscale eval with fairness measures; irscale.evaluate"))
