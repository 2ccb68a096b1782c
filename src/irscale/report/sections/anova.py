"""Per measure the two-way ANOVA (topic + system, MD2) with ω² (Ferro & Maistro 2024, eq. 8),
the topic-blocked Tukey HSD on its error term (eq. 9–11) and the compact letter display of
its decisions (Piepho 2004, :func:`irscale.stats.letters.compact_letters`), systems by
decreasing mean; each ANOVA's ``assumptions`` (Shapiro & Wilk 1965 on its residuals, Levene
1960 and Brown & Forsythe 1974 across runs and topics) are shown beside its table with the
residuals' Q–Q plot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..section import Build, Page, Requirement, Section, TablesFormat
from .summary import TWO_RUNS

if TYPE_CHECKING:  # pragma: no cover
    from ..content import ReportContent


def _same_topics(build: Build) -> None:
    """Every run evaluated on the same topics (:meth:`Evaluation.to_matrix` raises the
    :class:`~irscale.errors.AlignmentError` naming them otherwise)."""
    build.evaluation.to_matrix(measures=list(build.measures))


#: The runs cover the same topics (a topic-blocked design).
SAME_TOPICS = Requirement("every run evaluated on the same topics", "evaluation", _same_topics)


def _build(build: Build) -> dict[str, Any]:
    """Each measure's ANOVA, Tukey HSD and letters (``advance()`` after each)."""
    import numpy as np

    from ...stats import anova as anova_of
    from ...stats.letters import compact_letters

    evaluation, means = build.evaluation, build.fields["means"]
    runs = tuple(evaluation.runs)
    anovas, tukeys, letters = {}, {}, {}
    for measure in build.measures:
        matrix = evaluation.to_matrix(measures=[measure])
        anovas[measure] = result = anova_of(matrix, "topic+system")
        tukeys[measure] = hsd = result.tukey_hsd(build.options["alpha"])
        columns = hsd.columns
        pairs = [(str(a), str(b)) for a, b, s in zip(columns["a"], columns["b"],
                                                      columns["significant"], strict=True) if s]
        order = [runs[i] for i in np.argsort(-means[measure].to_numpy(), kind="stable")]
        letters[measure] = compact_letters(order, pairs)
        build.advance()
    return {"anova": anovas, "tukey": tukeys, "letters": letters}


def _html(report: ReportContent, page: Page) -> list[str]:
    import numpy as np

    from ...plots.residuals import residual_qq
    from ...plots.runs import tukey_intervals
    from ...stats.assumptions import display_frame
    from ..frames import groups_frame
    from ..page import esc, table

    digits, figure = page.digits, page.figure
    body = []
    for measure in report.measures:
        result = report.anova[measure]
        frame = result.to_frame().rename(columns={
            "omega2": "ω²", "omega2_total": "ω² (total)", "eta2": "η²",
            "partial_eta2": "partial η²"})
        if np.allclose(frame["df"], frame["df"].round()):
            frame["df"] = frame["df"].round().astype("Int64")
        groups = groups_frame(report, measure)
        body.append(f"<h3>{esc(measure)}</h3>")
        body.append(table(frame, digits, caption=result.summary(), sortable=False,
                          table_id=f"anova-{measure}"))
        checks = result.assumptions
        body.append('<div class="figs">' + table(
            display_frame(checks.to_frame()), digits, sortable=False,
            table_id=f"assumptions-{measure}",
            caption=f"{checks.summary()}. Shapiro & Wilk (1965), Levene (1960), Brown & "
            "Forsythe (1974): a small p is evidence against the assumption")
            + figure(residual_qq(result),
                     f"{measure}: normal Q-Q plot of the ANOVA's residuals (points on the "
                     "line: normal residuals)") + "</div>")
        hsd = report.tukey[measure]
        body.append('<div class="figs">' + table(
            groups, digits, table_id=f"groups-{measure}",
            caption=f"Tukey HSD groups ({hsd.method}; α = {report.alpha:g}): runs that "
            "share a letter are not significantly different")
            + figure(tukey_intervals(hsd),
                     f"{measure}: Tukey HSD intervals (Ferro & Maistro 2024, eq. 11); "
                     "intervals that do not overlap differ significantly") + "</div>")
    return body


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ...stats.tables import render
    from ..frames import groups_frame, title_text

    parts = []
    for measure in report.measures:
        parts.append(report.anova[measure].format(fmt, digits=digits))
        parts.append(report.anova[measure].assumptions.format(fmt, digits=digits))
        parts.append(render(groups_frame(report, measure), fmt, digits=digits,
                            title=title_text(f"{measure}: Tukey HSD groups after the two-way "
                                             f"ANOVA (α = {report.alpha:g}; runs sharing a "
                                             "letter do not differ)", fmt)))
    return parts


SECTION = Section(
    "anova", needs=(TWO_RUNS, SAME_TOPICS), build=_build, html=_html, tables=_tables,
    steps="each measure",
    heading=("Two-way ANOVA, its assumptions and Tukey HSD", "anova"))
