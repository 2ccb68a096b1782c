"""Pyramids: peer summaries by their SCUs (:mod:`irscale.measures.pyramid`)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

PYRAMIDS = declare_context("pyramids", ContextInfo(
    "peer summaries by the summary content units (SCUs) they express, against each "
    "topic's pyramid of SCUs weighted by the reference summaries expressing them",
    "pyramid", ("pyramid", "pyramid_modified"),
    "irscale text pyramid; irscale.text.evaluate_pyramid", whole="summary"))
