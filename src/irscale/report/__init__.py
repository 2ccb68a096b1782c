"""The experiment report: one command from runs to a page you can publish.

:func:`build_report` computes every table (runs × measures with significance against a
baseline, the two-way ANOVA with ω², Tukey HSD groups, the robustness panel of Ferrante et al.
(2021), discriminative power, the reproducibility block); :func:`render_html` writes them as one
self-contained HTML page with inline SVG figures; :func:`format_tables` as LaTeX or
Markdown for a paper. ``irscale report`` is the command (docs/report.md).

Names are imported on first use (:func:`irscale.core.lazy.lazy_package`), so that the
command line reads :mod:`irscale.report.params` before numpy is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_package

#: Public name → the module that defines it.
_EXPORTS = {
    "DEFAULT_MEASURES": ".build",
    "Provenance": ".content",
    "Report": ".build",
    "build_report": ".build",
    "format_tables": ".tables",
    "render_html": ".html",
}

__all__ = ["DEFAULT_MEASURES", "Provenance", "Report", "build_report", "format_tables",
           "render_html"]

# The API's edge (irscale.core.edge) is applied by lazy_package to each name it imports.
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from .build import DEFAULT_MEASURES, Report, build_report
    from .content import Provenance
    from .html import render_html
    from .tables import format_tables
