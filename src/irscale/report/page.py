"""The pieces of the report's HTML page that its sections write with
(:mod:`irscale.report.sections`): text escaped, tables with sortable numbers, inline SVG
figures; :func:`irscale.report.render_html` puts the sections' parts together."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pandas as pd

from ..io.figures import svg_text
from ..stats.tables import format_number

__all__ = ["Figures", "esc", "table"]


def esc(value: object) -> str:
    """``value`` as HTML text (quotes escaped: it may stand in an attribute)."""
    return html.escape(str(value), quote=True)


def _cell(value: object, digits: int) -> str:
    if isinstance(value, bool | np.bool_):
        return f"<td>{'yes' if value else 'no'}</td>"
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return "<td data-value=\"\">–</td>"
    if isinstance(value, int | float | np.integer | np.floating):
        return f"<td data-value=\"{float(value)!r}\">{esc(format_number(value, digits))}</td>"
    return f"<td>{esc(value)}</td>"


def table(frame: pd.DataFrame, digits: int, *, caption: str | None = None,
          table_id: str | None = None, sortable: bool = True) -> str:
    """``frame`` as an HTML table (numbers at ``digits``, their full value in
    ``data-value``), sortable by a click on its headers unless ``sortable`` is false."""
    attributes = (f' id="{esc(table_id)}"' if table_id else "") + \
        (' class="sortable"' if sortable else "")
    out = [f"<table{attributes}>"]
    if caption:
        out.append(f"<caption>{esc(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th scope=\"col\">{esc(c)}</th>"
                                        for c in frame.columns) + "</tr></thead><tbody>")
    for row in frame.itertuples(index=False):
        out.append("<tr>" + "".join(_cell(v, digits) for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


class Figures:
    """Figures rendered as inline SVG, each with its own id salt."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, ax: Any, caption: str) -> str:
        self.count += 1
        svg = svg_text(ax.figure, salt=f"irscale-figure-{self.count}")
        return f"<figure>{svg}<figcaption>{esc(caption)}</figcaption></figure>"
