"""Each mean's bounds under the unjudged documents the runs retrieve and the pairs of runs
the judgments do not order (:func:`irscale.collections.unjudged_bounds`), with ``bounds``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.params import Param, Switch
from ..section import Build, Page, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    from ..content import ReportContent

#: The section, with ``bounds`` (``--bounds``).
BOUNDS = Param("bounds", Switch(), False, "add each mean's bounds under the unjudged "
               "documents the runs retrieve and the pairs of runs the judgments do not order",
               ("--bounds",))


def _build(build: Build) -> dict[str, Any]:
    from ...collections.bounds import unjudged_bounds

    return {"bounds": unjudged_bounds(build.qrels, build.runs, list(build.measures),
                                      progress=build.options["progress"],
                                      relevance_level=build.level)}


def _html(report: ReportContent, page: Page) -> list[str] | None:
    from ..frames import bounds_frames
    from ..page import table

    if report.bounds is None:
        return None
    return [table(frame, page.digits, table_id=table_id, caption=caption)
            for table_id, caption, frame in bounds_frames(report)]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ...stats.tables import render
    from ..frames import ascii_headers, bounds_frames, title_text

    return [render(ascii_headers(frame, fmt), fmt, digits=digits, title=title_text(caption, fmt))
            for _, caption, frame in bounds_frames(report)]


SECTION = Section(
    "bounds", needs=(), build=_build, html=_html, tables=_tables, params=(BOUNDS,),
    on=BOUNDS, absent=lambda: {"bounds": None},
    heading=("Bounds under unjudged documents", "bounds-section"))
