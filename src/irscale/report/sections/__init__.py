"""The sections of the experiment report, in the order the report computes and writes them
(:data:`SECTIONS`): each one module declaring a :class:`~irscale.report.section.Section`
named ``SECTION`` (its options, when it is in the report, what it needs, how it is built
and written). :func:`~irscale.report.build_report`, the page
(:func:`~irscale.report.render_html`), the tables
(:func:`~irscale.report.format_tables`) and the report's binding
(:data:`irscale.report.params.REPORT`) walk this list: a new section is a module here and
its line below (``tests/test_report_sections.py`` names a module left out of it)."""

from __future__ import annotations

from ..section import Section
from . import (
    across,
    anova,
    answers,
    audit,
    automatic,
    baseline,
    bounds,
    discriminative,
    drilldown,
    noise,
    plan,
    plots,
    reproducibility,
    robustness,
    summary,
)

#: The sections, in order.
SECTIONS: tuple[Section, ...] = (
    summary.SECTION,
    baseline.SECTION,
    drilldown.SECTION,
    anova.SECTION,
    plots.SECTION,
    robustness.SECTION,
    discriminative.SECTION,
    bounds.SECTION,
    automatic.SECTION,
    audit.SECTION,
    plan.SECTION,
    noise.SECTION,
    across.SECTION,
    answers.SECTION,
    reproducibility.SECTION,
)

__all__ = ["SECTIONS"]
