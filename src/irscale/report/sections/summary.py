"""The summary: runs × measures, each mean over topics (trec_eval's ``all`` values, what
``irscale eval`` prints) with its 1 − α interval (mean ± t_{1−α/2, n−1} s/√n, or the
percentile bootstrap of the topics), in bold where it is the best at the printed
precision, marked ↑/↓ against the baseline (:mod:`irscale.report.sections.baseline`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.params import (
    MEAN_INTERVAL,
    NO_WORK,
    RELEVANCE,
    SAMPLES,
    SEED,
    SIGNIFICANCE,
    Needs,
    Param,
)
from ...errors import MeasureError, ParameterError
from ..section import Build, Page, Requirement, Section, TablesFormat

if TYPE_CHECKING:  # pragma: no cover
    from ...measures.results import Evaluation
    from ..content import ReportContent

#: The bootstrap of the intervals of the means: the command line gives them its own way
#: (``--ci-samples``, ``--ci-seed``: :func:`irscale.cli.intervals.add_interval_options`).
INTERVAL_SAMPLES = Param("interval_samples", SAMPLES, 10_000, "bootstrap samples of the "
                         "intervals of the means", ("--ci-samples",))
INTERVAL_RNG = Param("interval_rng", SEED, None, "seed of the bootstrap of the intervals of "
                     "the means", ("--ci-seed",), cost=NO_WORK)


def _columns(evaluation: Evaluation, requested: tuple[str, ...]) -> list[Any]:
    """The columns of the evaluation the report shows: the precision–recall columns added
    for the curves left out (unless they were asked for)."""
    from ...plots.runs import RECALL_LEVELS

    asked_iprec = any("iprec" in name for name in requested)
    return [c for c in evaluation.columns if asked_iprec or c.label not in RECALL_LEVELS]


def report_measures(evaluation: Evaluation, requested: tuple[str, ...]) -> tuple[str, ...]:
    """The per-topic measures averaged over topics, in order (:data:`PER_TOPIC` refuses
    the others)."""
    return tuple(c.label for c in _columns(evaluation, requested)
                 if c.label in evaluation.measures and c.aggregate == "mean")


def _per_topic(build: Build) -> None:
    """A requested measure that is not one with a per-topic value averaged over topics (a
    count such as ``num_ret``, a summary such as ``gm_map``) is refused, never left out
    silently."""
    requested = build.requested
    labels = report_measures(build.evaluation, requested)
    other = [c.label for c in _columns(build.evaluation, requested) if c.label not in labels]
    if other:
        them = "it" if len(other) == 1 else "them"
        raise MeasureError(
            f"{', '.join(other)}: the report compares measures with a per-topic value "
            "averaged over topics; counts, summaries over topics and text cannot be tested "
            f"(leave {them} out; irscale eval prints {them})")


def _two_runs(build: Build) -> None:
    """A report compares runs: two at least."""
    count = len(build.evaluation.runs)
    if count < 2:
        raise ParameterError(f"a report compares runs: give at least two (got {count})")


#: The measures have a value per topic, averaged over topics.
PER_TOPIC = Requirement("measures with a per-topic value averaged over topics", "evaluation",
                        _per_topic)
#: Two runs at least.
TWO_RUNS = Requirement("at least two runs", "evaluation", _two_runs)


def _build(build: Build) -> dict[str, Any]:
    """The means over topics and the interval of each (``irscale eval --ci``:
    :meth:`irscale.measures.results.Evaluation.intervals`, t, or bootstrap of
    ``interval_samples`` from ``interval_rng``)."""
    import pandas as pd

    options, measures, evaluation = build.options, build.measures, build.evaluation
    table = evaluation.intervals(options["interval"], alpha=options["alpha"],
                                 samples=options["interval_samples"],
                                 rng=options["interval_rng"])
    table = table[table["measure"].isin(list(measures))]
    frames = {}
    for measure in measures:
        rows = table[table["measure"] == measure].set_index("run")
        frames[(measure, "low")] = rows["ci_low"]
        frames[(measure, "high")] = rows["ci_high"]
    return {"means": evaluation.mean()[list(measures)],
            "intervals": pd.DataFrame(frames, index=list(evaluation.runs))}


def _html(report: ReportContent, page: Page) -> list[str]:
    """The summary table, each cell's value in ``data-value`` for sorting."""
    from ..frames import summary_caption, summary_cells
    from ..page import esc

    out = ['<table id="summary" class="sortable">',
           f"<caption>{esc(summary_caption(report))}</caption>",
           '<thead><tr><th scope="col">run</th>'
           + "".join(f'<th scope="col">{esc(m)}</th>' for m in report.measures)
           + "</tr></thead><tbody>"]
    for run, cells in summary_cells(report, page.digits):
        name = esc(run) + (" <em>(baseline)</em>" if run == report.baseline else "")
        texts = [f'<th scope="row" data-run="{esc(run)}">{name}</th>']
        for measure, cell in zip(report.measures, cells, strict=True):
            number = f"<b>{cell.text}</b>" if cell.bold else cell.text
            mark = {1: ' <span class="up" title="significantly better">↑</span>',
                    -1: ' <span class="down" title="significantly worse">↓</span>',
                    0: ""}[cell.mark]
            texts.append(f'<td data-value="{cell.value!r}" data-measure="{esc(measure)}">'
                         f'<span class="v">{number}</span>{mark} '
                         f'<span class="ci">{esc(cell.interval)}</span></td>')
        out.append("<tr>" + "".join(texts) + "</tr>")
    out.append("</tbody></table>")
    return ["\n".join(out)]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    """The summary (:func:`~irscale.report.tables.summary_cells`, the baseline's row named
    so) as ``fmt``."""
    from ...stats.summary_table import render_summary
    from ..frames import summary_caption, summary_cells

    rows = [(run + (" (baseline)" if run == report.baseline else ""), cells)
            for run, cells in summary_cells(report, digits)]
    return [render_summary(report.measures, rows, summary_caption(report), fmt)]


SECTION = Section(
    "summary", needs=(PER_TOPIC, TWO_RUNS), build=_build, html=_html, tables=_tables,
    params=(RELEVANCE, SIGNIFICANCE, MEAN_INTERVAL), own=(INTERVAL_SAMPLES,),
    rules=(Needs((INTERVAL_SAMPLES, INTERVAL_RNG), on=MEAN_INTERVAL, values=("bootstrap",)),),
    heading=("Runs × measures", "summary-section"))
