"""Judged rankings: a run's ranked lists judged against qrels, the default context of the
catalogue (trec_eval's families, :mod:`irscale.measures.trec`, and the literature's,
:data:`~irscale.measures.base.FAMILY_MODULES`)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

RANKINGS = declare_context("rankings", ContextInfo(
    "judged rankings: a run's ranked lists judged against qrels (trec_eval's input)",
    "", ("map", "P@10", "nDCG(gain=exp)@10"), "irscale eval; irscale.evaluate"))
