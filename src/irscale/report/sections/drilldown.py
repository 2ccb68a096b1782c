"""The per-topic drill-down of the page: the values of every run and measure (a JSON block),
the choice of two runs and a measure, and the table of the first pair (the baseline, or
the first run, against the next run) that the page's script redraws on a change. The page
alone shows it: the LaTeX and Markdown tables print no per-topic values."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..section import Page, Section
from .summary import TWO_RUNS

if TYPE_CHECKING:  # pragma: no cover
    from ..content import ReportContent


def json_in_html(text: str) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` can end it)."""
    return text.replace("</", "<\\/")


def _choice(element: str, label: str, options: Iterable[str], chosen: str) -> str:
    """A ``<select>`` of ``options``, ``chosen`` selected."""
    items = "".join(f'<option{" selected" if o == chosen else ""}>{html.escape(o)}</option>'
                    for o in options)
    return f'<label>{label} <select id="{element}">{items}</select></label>'


def _html(report: ReportContent, page: Page) -> list[str]:
    from ..page import esc

    digits = page.digits
    matrix = report.evaluation.to_matrix(measures=list(report.measures))
    topics = [str(t) for t in matrix.topics]
    values = {measure: {run: [float(v) for v in matrix.values[:, r, m]]
                        for r, run in enumerate(matrix.systems)}
              for m, measure in enumerate(matrix.measures)}
    data = json.dumps({"topics": topics, "digits": digits, "values": values})
    first = report.baseline or report.runs[0]
    second = next(run for run in report.runs if run != first)
    measure = report.measures[0]
    x, y = values[measure][first], values[measure][second]
    rows = []
    wins = ties = losses = 0
    for topic, a, b in zip(topics, x, y, strict=True):
        d = a - b
        wins, ties, losses = wins + (d > 0), ties + (d == 0), losses + (d < 0)
        rows.append(f"<tr><td>{esc(topic)}</td>" + "".join(
            f'<td data-value="{v!r}">{v:.{digits}f}</td>' for v in (a, b, d)) + "</tr>")
    return [
        f'<script type="application/json" id="per-topic-data">{json_in_html(data)}</script>',
        "<p>" + _choice("drill-a", "Run", report.runs, first) + " "
        + _choice("drill-b", "against", report.runs, second) + " "
        + _choice("drill-measure", "on", report.measures, measure) + "</p>",
        f'<p id="drill-summary">{esc(first)} against {esc(second)} on {esc(measure)}: '
        f"{wins} topics won, {ties} tied, {losses} lost</p>",
        '<table id="drill" class="sortable"><thead><tr><th scope="col">topic</th>'
        f'<th scope="col">{esc(first)}</th><th scope="col">{esc(second)}</th>'
        f'<th scope="col">{esc(first)} − {esc(second)}</th></tr></thead><tbody>'
        + "\n".join(rows) + "</tbody></table>"]


SECTION = Section(
    "drilldown", needs=(TWO_RUNS,), build=None, html=_html, tables=None,
    heading=("Per topic: any two runs side by side", "drill-down"),
    why="the page's interactive table of per-topic values; the tables print none")
