"""The experiment report: one command from runs to a page you can publish.

:func:`build_report` computes every table (runs × measures with significance against a
baseline, the two-way ANOVA with ω², Tukey HSD groups, the robustness panel of Ferrante et al.
(2021), discriminative power, the reproducibility block); :func:`render_html` writes them as one
self-contained HTML page with inline SVG figures; :func:`format_tables` as LaTeX or
Markdown for a paper. ``irscale report`` is the command (docs/report.md).
"""

from __future__ import annotations

from ..core.edge import guard
from .build import DEFAULT_MEASURES, Provenance, Report, build_report
from .html import render_html
from .tables import format_tables

__all__ = ["DEFAULT_MEASURES", "Provenance", "Report", "build_report", "format_tables",
           "render_html"]

# The API's edge: a raw exception caused by an argument names it (irscale.core.edge).
guard(globals())
