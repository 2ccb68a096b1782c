"""Human and automatic relevance labels judged against each other: the audit of automatic
(LLM) judges beside human qrels (:mod:`irscale.labels.audit`; model-made nugget
assignments and citation support labels beside human ones,
:mod:`irscale.labels.audit_assignments`, :mod:`irscale.labels.audit_citations`) and the planning of
the human labels that prediction-powered intervals need (:mod:`irscale.labels.plan`).

The aggregation of crowd labels, their agreement and the automatic judgments themselves
stay :mod:`irscale.collections`'s; this package answers whether a judge can stand in for
people and how many people it still needs.

Names are imported on first use (:func:`irscale.core.lazy.lazy_package`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_package

#: Public name → the submodule that defines it.
_EXPORTS: dict[str, str] = {
    "AuditResult": ".audit", "JudgeAudit": ".audit", "audit": ".audit",
    "audit_assignments": ".audit_assignments", "audit_citations": ".audit_citations",
    "LabelPlan": ".plan", "plan": ".plan",
    "LabelSelection": ".plan_select", "select": ".plan_select",
}

__all__: list[str] = ["AuditResult", "JudgeAudit", "LabelPlan", "LabelSelection", "audit",
                      "audit_assignments", "audit_citations", "plan", "select"]

__getattr__, __dir__ = lazy_package(__name__, _EXPORTS,
                                    shadowed={"audit", "audit_assignments",
                                                                   "audit_citations", "plan"})

if TYPE_CHECKING:  # pragma: no cover
    from .audit import AuditResult, JudgeAudit, audit
    from .audit_assignments import audit_assignments
    from .audit_citations import audit_citations
    from .plan import LabelPlan, plan
    from .plan_select import LabelSelection, select
