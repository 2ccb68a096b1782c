"""The human labels planned (``plan``): QRELS are an automatic judge's labels of every
(topic, document) pair the report evaluates, ``plan_pilot`` a pilot sample of them labelled
by people; the section says how many human labels (per topic and in all) make the
prediction-powered interval of every run's mean under each of the report's measures, and
of every difference ``plan_pairs`` names, ``plan_width`` wide at the report's level
``1 − alpha``, drawn as ``plan_design`` says, beside the pilot's own widths; where the runs
retrieve documents the judge leaves unlabelled, the part of the width they can add
(the bounds of :func:`irscale.collections.unjudged_bounds`, which no human label of the
judge's pairs narrows) apart from the sampling part (:func:`irscale.labels.plan`: its
numbers, unchanged; ``docs/collections.md`` §7). The measures must be sums over the ranked
documents (P@k, DCG@k, RBP): another one is refused, naming it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.binding import Excludes, Required
from ...core.params import InputFiles, Needs, Param
from ...core.records import replace
from ...labels.plan_params import PLAN_DESIGN, PLAN_PAIRS, PLAN_WIDTH, UNIFORM_SHARE
from ..section import Build, Page, Requirement, Section, TablesFormat
from .automatic import AUTOMATIC

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..content import ReportContent

#: The pilot's human labels (``--plan-pilot``): the option that puts the section in the
#: report.
PLAN_PILOT = Param("plan_pilot", InputFiles(), None, "human labels of a pilot sample of "
                   "QRELS' pairs, QRELS being an automatic judge's labels of every pair: "
                   "the report gets a section planning the human labels that "
                   "prediction-powered intervals --plan-width wide need (measures that are "
                   "sums over the ranked documents: P@k, DCG@k, RBP)", ("--plan-pilot",),
                   "PILOT_QRELS")
#: The parameters of :func:`irscale.labels.plan` under the report's names (``plan_*``:
#: the report has a ``design`` of its own, the automatic judgments').
PLAN_WIDTH_OF_REPORT = replace(PLAN_WIDTH, name="plan_width", flags=("--plan-width",))
PLAN_DESIGN_OF_REPORT = replace(PLAN_DESIGN, name="plan_design", flags=("--plan-design",))
PLAN_PAIRS_OF_REPORT = replace(PLAN_PAIRS, name="plan_pairs", flags=("--plan-pairs",))
PLAN_SHARE_OF_REPORT = replace(UNIFORM_SHARE, name="plan_uniform_share",
                               flags=("--plan-uniform-share",))


def _pairs_name_runs(build: Build) -> None:
    """The differences ``plan_pairs`` names are of two runs of the report (checked once
    the runs are read, before the evaluation)."""
    pairs = build.options["plan_pairs"]
    if pairs:
        from ...labels.plan_data import check_run_pairs

        check_run_pairs(pairs, build.runs, param="plan_pairs")


def _build(build: Build) -> dict[str, Any]:
    """The plan of :func:`irscale.labels.plan` for the report's qrels (the judge's), the
    pilot, the runs and the measures as requested, at level ``1 − alpha``."""
    from ...labels.plan import plan

    options = build.options
    found = plan(build.qrels, options["plan_pilot"], build.runs,
                 list(build.requested or build.measures), width=options["plan_width"],
                 confidence=1 - options["alpha"], design=options["plan_design"],
                 pairs=options["plan_pairs"], uniform_share=options["plan_uniform_share"],
                 relevance_level=build.level)
    build.advance()
    return {"plan": found}


def plan_frames(report: ReportContent) -> list[tuple[str, str, pd.DataFrame]]:
    """The tables of the section (``report.plan``; none without): the totals, the
    intervals planned (without the unjudged documents' columns where the runs retrieve
    none) and the new labels by topic, ``(id, caption, frame)`` each."""
    import pandas as pd

    found = report.plan
    if found is None:
        return []
    level = f"{100 * found.confidence:g}%"
    totals = pd.DataFrame([{"design": found.design, "confidence": found.confidence,
                            "width": found.width, "pairs": found.pairs, "pilot": found.pilot,
                            "more": found.more, "labels": found.labels}])
    estimates = found.estimates
    if not unjudged(report):
        estimates = estimates.drop(columns=["shift_low", "shift_high", "unjudged_width",
                                            "total_width"])
    return [
        ("plan-totals", f"Human labels planned in all ({found.design} design; {level} "
         f"intervals {found.width:g} wide)", totals),
        ("plan-estimates", "Intervals planned: the pilot's width, the labels each "
         "estimate needs and its sampling width" +
         (", the unjudged documents' part apart" if unjudged(report) else ""), estimates),
        ("plan-topics", "New human labels by topic (expected)", found.topics)]


def unjudged(report: ReportContent) -> bool:
    """Whether the runs retrieve documents the judge leaves unlabelled that can move an
    estimate (a part of the width no human label narrows)."""
    return bool((report.plan.estimates["unjudged_width"] > 0).any())


def _html(report: ReportContent, page: Page) -> list[str] | None:
    """What the plan asks for and its tables."""
    from ..page import esc, table

    found = report.plan
    if found is None:
        return None
    level = f"{100 * found.confidence:g}%"
    reached = bool(found.estimates["reached"].all())
    return [
        f"<p>QRELS are the judge's labels of {found.pairs} pairs, {found.pilot} of them "
        f"labelled by people in the pilot. For every {level} prediction-powered interval to "
        f"be {found.width:g} wide, the {esc(found.design)} design needs "
        f"<strong>{found.labels}</strong> human labels in all, <strong>{found.more}</strong> "
        "beyond the pilot's (Angelopoulos et al., Science 2023; docs/collections.md §7). "
        + ("" if reached else "Some estimates cannot reach the width even with every pair "
           "labelled (reached: no): the judge's own term is too large. ")
        + ("The runs retrieve documents the judge does not label: they can widen an "
           "interval by unjudged_width, which no human label of the judge's pairs narrows; "
           "total_width is the sampling width plus that part.</p>" if unjudged(report)
           else "The runs retrieve no document the judge leaves unlabelled: the width is "
           "the sampling width alone.</p>"),
        *(table(frame, page.digits, table_id=table_id, caption=caption)
          for table_id, caption, frame in plan_frames(report))]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ..frames import frames_text

    return frames_text(plan_frames(report), fmt, digits)


SECTION = Section(
    "plan", needs=(Requirement("plan_pairs name two runs each", "inputs", _pairs_name_runs),),
    build=_build, html=_html, tables=_tables,
    params=(PLAN_WIDTH_OF_REPORT, PLAN_DESIGN_OF_REPORT, PLAN_PAIRS_OF_REPORT,
            PLAN_SHARE_OF_REPORT),
    rules=(Needs((PLAN_WIDTH_OF_REPORT, PLAN_DESIGN_OF_REPORT, PLAN_PAIRS_OF_REPORT,
                  PLAN_SHARE_OF_REPORT), "the plan of human labels", on=PLAN_PILOT),
           Required(PLAN_WIDTH_OF_REPORT, on=PLAN_PILOT, values=None),
           Needs((PLAN_SHARE_OF_REPORT,), on=PLAN_DESIGN_OF_REPORT, values=("active",)),
           Excludes((PLAN_PILOT,), on=AUTOMATIC, why="the plan reads QRELS as the judge's "
                    "labels of every pair, --automatic as a human sample")),
    on=PLAN_PILOT, steps="one", absent=lambda: {"plan": None},
    heading=("Human labels planned", "labels-plan"))
