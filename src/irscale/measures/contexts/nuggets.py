"""Nuggets: outputs matched against gold-standard nuggets
(:mod:`irscale.measures.nuggets`)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

NUGGETS = declare_context("nuggets", ContextInfo(
    "answers matched against gold-standard nuggets (TREC QA, one-click iUnits)",
    "nugget", ("F_QA(beta=3)", "S(L=1000)", "Ssharp(L=1000,beta=1)"),
    "irscale text nuggets; irscale.text.evaluate_nuggets", whole="output"))
