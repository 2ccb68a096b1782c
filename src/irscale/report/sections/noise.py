"""Every conclusion of the Tukey HSD (each pair of runs, per measure: significant in one
direction, or not significant) under judge noise (:func:`irscale.collections.judge_noise`
with ``test="MD2"``, the report's α, ``replicates`` relabelled qrels drawn from ``seed``),
with ``confusion``: a conclusion is **robust** when the replicates keep its decision (the
same direction and significance) in at least :data:`~irscale.report.tables.ROBUST_SHARE`
(95%) of them, **fragile** otherwise. With a baseline too, every conclusion against it
(per measure and run: significantly better, worse, or no significant difference) the same
way: on each replicate's values, every run is compared with the baseline again as the
comparison is (:func:`irscale.report.sections.baseline.compare`: the same test, the
correction over the same family of runs × measures) and the replicates keeping the
decision (direction and significance after the correction) counted."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...collections.params import NOISE_REPLICATES
from ...core.params import Needs, Param, Text
from ..section import Build, Page, Requirement, Section, TablesFormat
from .baseline import compare

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..content import ReportContent

#: The judges' confusion (the command line reads it from ``--confusion``, ``--flip-rate``,
#: ``--double-judged`` or ``--auto-sample``).
CONFUSION = Param("confusion", Text(), None, "the judges' confusion",
                  ("--confusion", "--flip-rate", "--double-judged", "--auto-sample"))


def _confusion(build: Build) -> None:
    """``confusion`` is a :class:`~irscale.collections.Confusion`
    (:func:`~irscale.collections.judgment_noise.check_confusion`), before any input."""
    from ...collections.judgment_noise import check_confusion

    check_confusion(build.options["confusion"])


#: A confusion of the judges.
A_CONFUSION = Requirement("a Confusion of the judges", "call", _confusion)


class _BaselineTally:
    """The conclusions against the baseline over the judge-noise replicates: called with
    each replicate's values (:func:`~irscale.collections.judge_noise`'s ``each_replicate``),
    it compares them with the baseline as the report does (``compare``: the same test and
    correction over the same family of runs × measures) and counts, per (measure, run), the
    replicates that keep the stated decision (the same direction and significance after
    the correction)."""

    def __init__(self, stated: pd.DataFrame,
                 compare: Callable[[Any], pd.DataFrame]) -> None:
        import numpy as np
        import pandas as pd

        from ...collections.judgment_noise import decisions

        self.stated = stated
        self.compare = compare
        self.keys = pd.MultiIndex.from_frame(stated[["measure", "run"]].astype(str))
        self.decision = decisions(stated["significant"], stated["delta"])
        self.kept = np.zeros(len(stated))

    def __call__(self, values: Any) -> None:
        import pandas as pd

        from ...collections.judgment_noise import decisions

        found = self.compare(values)
        at = pd.MultiIndex.from_frame(found[["measure", "run"]].astype(str)).get_indexer(
            self.keys)
        self.kept += decisions(found["significant"].to_numpy()[at],
                               found["delta"].to_numpy()[at]) == self.decision

    def frame(self, replicates: int) -> pd.DataFrame:
        """``measure, run, baseline, delta, significant`` (the stated comparison) and
        ``decision_kept``: the share of the ``replicates`` that keep its decision."""
        out = self.stated[["measure", "run", "baseline", "delta", "significant"]].copy()
        out["decision_kept"] = self.kept / replicates
        return out.reset_index(drop=True)


def _build(build: Build) -> dict[str, Any]:
    from ...collections.judgment_noise import judge_noise

    options, comparison = build.options, build.fields["comparison"]
    progress, replicates = options["progress"], options["replicates"]
    tally = None if comparison is None else \
        _BaselineTally(comparison, lambda data: compare(build, data))
    noise = judge_noise(build.qrels, build.runs, list(build.measures), options["confusion"],
                        replicates=replicates, rng=options["seed"], test="MD2",
                        alpha=options["alpha"], each_replicate=tally,
                        progress=build.within if callable(progress) else bool(progress),
                        relevance_level=build.level)
    build.advance()
    return {"noise": noise,
            "noise_baseline": None if tally is None else tally.frame(replicates)}


def _html(report: ReportContent, page: Page) -> list[str] | None:
    """The conclusions of the Tukey HSD under judge noise (``report.noise``,
    :func:`~irscale.report.tables.noise_frames`)."""
    from ..frames import ROBUST_SHARE, noise_frames
    from ..page import esc, table

    found = report.noise
    if found is None:
        return None
    frames = noise_frames(report)
    tables = {table_id: frame for table_id, _, frame in frames}
    verdicts = tables["judge-noise"]["verdict"]
    fragile = int((verdicts == "fragile").sum())
    against = ""
    if "judge-noise-baseline" in tables:
        stated = tables["judge-noise-baseline"]["verdict"]
        against = (f"; against the baseline <b>{esc(report.baseline or '')}</b> (the "
                   "comparison run again on every replicate: the same test, the correction "
                   f"over the same runs × measures), {int((stated == 'fragile').sum())} of "
                   f"{len(stated)} are")
    return [
        f"<p>The qrels relabelled {found.replicates} times by a confusion model of the "
        f"judges ({esc(found.confusion.source)}; Rashidi, Zobel &amp; Moffat, TOIS 2023), "
        "the runs evaluated and the Tukey HSD after the two-way ANOVA run again on every "
        "replicate. A conclusion about a pair of runs (significantly better, worse, or "
        "not significantly different) is <b>robust</b> when at least "
        f"{100 * ROBUST_SHARE:g}% of the replicates reach the same decision, "
        f"<b>fragile</b> otherwise: {fragile} of {len(verdicts)} conclusions are "
        f"fragile{against}.</p>",
        *(table(frame, page.digits, table_id=table_id, caption=caption)
          for table_id, caption, frame in frames)]


def _tables(report: ReportContent, fmt: TablesFormat, digits: int) -> list[str]:
    from ..frames import frames_text, noise_frames

    return frames_text(noise_frames(report), fmt, digits)


SECTION = Section(
    "noise", needs=(A_CONFUSION,), build=_build, html=_html, tables=_tables,
    params=(NOISE_REPLICATES,),
    rules=(Needs((NOISE_REPLICATES,), "judge noise", on=CONFUSION),),
    on=CONFUSION, draws=(Needs((), on=CONFUSION),), steps="one",
    absent=lambda: {"noise": None, "noise_baseline": None},
    heading=("Conclusions under judge noise", "judge-noise-section"))
