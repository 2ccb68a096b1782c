"""The per-topic plots of the page: each measure's values per topic and run (violins and
boxes), the per-topic differences against the baseline, and trec_eval's 11-point
interpolated precision–recall curves (``iprec_at_recall``, means over topics). The page
alone shows them: figures have no LaTeX or Markdown table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..section import Build, Page, Section

if TYPE_CHECKING:  # pragma: no cover
    from ..content import ReportContent


def _build(build: Build) -> dict[str, Any]:
    from ...plots.runs import interpolated_precision

    return {"precision_recall": interpolated_precision(build.evaluation)}


def _html(report: ReportContent, page: Page) -> list[str]:
    from ...plots.runs import baseline_differences, precision_recall, score_distributions

    figure = page.figure
    body = ['<div class="figs">']
    for measure in report.measures:
        body.append(figure(score_distributions(report.evaluation, measure, kind="both",
                                               runs=report.runs),
                           f"{measure} per topic, per run (violin: density; box: quartiles, "
                           "whiskers at 1.5 IQR; white dot: mean)"))
        if report.baseline is not None:
            body.append(figure(baseline_differences(report.evaluation, measure,
                                                    report.baseline),
                               f"{measure}: per-topic differences against {report.baseline}"))
    body.append(figure(precision_recall(report.precision_recall),
                       "11-point interpolated precision–recall (means over topics)"))
    body.append("</div>")
    return body


SECTION = Section(
    "plots", needs=(), build=_build, html=_html, tables=None,
    heading=("Per-topic plots and precision–recall", "plots"),
    why="figures: the page's alone")
