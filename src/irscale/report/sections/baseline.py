"""Every run against the baseline on every measure
(:func:`irscale.stats.baseline.baseline_comparison`: delta, its interval, p, p adjusted over
the whole table by ``correction`` — Holm by default, Ferro & Maistro (2024), §4.2.4 — and the
topics won, tied and lost); the summary's ↑/↓ marks read it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.params import Needs, OrNone, Param, Text
from ...stats.names import CORRECTION, MULTIPLE_CORRECTION
from ...stats.params import PAIRWISE_TEST
from ..section import Build, Page, Requirement, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..content import ReportContent

#: The run the others are compared with (:func:`irscale.report.build_report`'s ``baseline``).
BASELINE = Param("baseline", Text(), None, "mark runs significantly better/worse than this "
                 "one and count the topics they win, tie and lose against it (its name, or "
                 "its file's path, name or stem)", ("--baseline",), "RUN")
#: The correction of the comparison, or None (no correction): the function's own; the
#: command line offers :data:`~irscale.stats.names.MULTIPLE_CORRECTION`.
CORRECTION_OR_NONE = Param("correction", OrNone(CORRECTION, "no correction"), "holm",
                           MULTIPLE_CORRECTION.doc, MULTIPLE_CORRECTION.flags)


def _one_run(build: Build) -> None:
    """The baseline names one run (:func:`irscale.io.naming.find_run`: its name, or its
    file as the user knows it), settled to that run's name before the evaluation."""
    from ...io.naming import find_run

    build.options["baseline"] = find_run(build.options["baseline"], build.runs)


#: The baseline names one of the runs.
ONE_RUN = Requirement("a baseline that names one of the runs", "inputs", _one_run)


def compare(build: Build, data: Any) -> pd.DataFrame:
    """Every run against the baseline on every measure of ``data`` (the evaluation, or a
    judge-noise replicate's values), one family: the report's test, correction and α."""
    from ...stats.baseline import baseline_comparison

    options = build.options
    return baseline_comparison(data, options["baseline"], test=options["test"],
                               correction=options["correction"], alpha=options["alpha"],
                               measures=list(build.measures)).to_frame()


def _build(build: Build) -> dict[str, Any]:
    return {"comparison": compare(build, build.evaluation)}


def _html(report: ReportContent, page: Page) -> list[str] | None:
    from ..frames import comparison_frame
    from ..page import table

    if report.comparison is None:
        return None
    return [table(comparison_frame(report), page.digits, table_id="baseline",
                  caption=f"Every run against {report.baseline}: Δ = run − "
                  f"baseline with its {100 * (1 - report.alpha):g}% interval, "
                  f"p, p adjusted ({report.correction}), topics won/tied/lost")]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ...stats.tables import render
    from ..frames import ascii_headers, comparison_frame

    if report.comparison is None:
        return []
    return [render(ascii_headers(comparison_frame(report), fmt), fmt, digits=digits,
                   title=f"Runs against the baseline {report.baseline}")]


SECTION = Section(
    "baseline", needs=(ONE_RUN,), build=_build, html=_html, tables=_tables,
    params=(BASELINE,), own=(PAIRWISE_TEST, CORRECTION_OR_NONE),
    rules=(Needs((PAIRWISE_TEST, MULTIPLE_CORRECTION), "the comparison with a baseline",
                 on=BASELINE),),
    on=BASELINE, absent=lambda: {"comparison": None}, group="comparison with a baseline")
