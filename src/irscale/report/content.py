"""What a report holds (:class:`ReportContent`, the data of its tables and figures) and
where it came from (:class:`Provenance`), apart from how it is built
(:mod:`irscale.report.build`) and written (:mod:`irscale.report.html`,
:mod:`irscale.report.tables`), which read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..errors import MeasureError, shown
from ..stats.tables import format_number

if TYPE_CHECKING:  # pragma: no cover
    from ..measures.results import Evaluation
    from ..stats.results import AnovaResult, PairwiseComparisons


@dataclass(frozen=True)
class Provenance:
    """What produced a report: the command, the software versions, the input files
    (``name, bytes, sha256``) and the dataset conventions applied (``dataset conventions:
    NAME: measures: ...; relevance level: ... (from SOURCE)``; ``None``: none,
    :mod:`irscale.evaluation.conventions`)."""

    command: str
    versions: tuple[tuple[str, str], ...]
    inputs: tuple[tuple[str, int, str], ...]
    conventions: str | None = None

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(list(self.inputs), columns=["file", "bytes", "sha256"])


#: The columns of :attr:`Report.scaled`.
SCALED_COLUMNS = ("run", "measure", "N", "value", "ranked")


@dataclass(frozen=True, eq=False)
class ReportContent:
    """Everything the report shows (:mod:`irscale.report.build`), the data of its tables
    and figures; :class:`~irscale.report.build.Report` adds how it is written."""

    evaluation: Evaluation
    measures: tuple[str, ...]
    runs: tuple[str, ...]
    alpha: float
    baseline: str | None
    test: str
    correction: str
    means: pd.DataFrame
    intervals: pd.DataFrame
    comparison: pd.DataFrame | None
    anova: dict[str, AnovaResult]
    tukey: dict[str, PairwiseComparisons]
    letters: dict[str, dict[str, str]]
    precision_recall: pd.DataFrame
    robustness: pd.DataFrame
    discriminative: pd.DataFrame | None
    provenance: Provenance
    notes: tuple[str, ...] = field(default=())
    #: The robustness panel's means per run and measure: ``run, measure, N, value`` (M at
    #: N) and ``ranked`` (its interval-scaled version M_R), for the page's toggle.
    scaled: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        columns=list(SCALED_COLUMNS)))
    #: With automatic judgments (``build_report(automatic=...)``): the agreement, the
    #: corrected means and the conclusions
    #: (:class:`~irscale.collections.automatic.AutomaticJudgmentsResult`); None otherwise.
    automatic: Any = None
    #: The method of :attr:`intervals` (``"t"`` or ``"bootstrap"``).
    interval: str = "t"
    #: Whether the automatic values are the measures' expected values under the automatic
    #: judgments' label probabilities (``build_report(label_probabilities=True)``).
    label_probabilities: bool = False
    #: With ``build_report(bounds=True)``: the bounds under the unjudged documents
    #: (:class:`~irscale.collections.bounds.UnjudgedBounds`); None otherwise.
    bounds: Any = None
    #: With ``build_report(collections=...)``: each measure's comparison of the systems
    #: across those collections (measure →
    #: :class:`~irscale.stats.across_collections.AcrossCollections`); empty otherwise.
    across: dict[str, Any] = field(default_factory=dict)
    #: With ``build_report(confusion=...)``: the conclusions of the Tukey HSD under judge
    #: noise (:class:`~irscale.collections.judgment_noise.JudgeNoise`); None otherwise.
    noise: Any = None
    #: With ``build_report(confusion=..., baseline=...)``: every conclusion against the
    #: baseline under judge noise, ``measure, run, baseline, delta, significant`` (the
    #: comparison's) and ``decision_kept`` (the share of the replicates keeping it); None
    #: otherwise.
    noise_baseline: pd.DataFrame | None = None
    #: With ``build_report(judges=...)``: the audit of the automatic judges against the
    #: qrels (:class:`~irscale.labels.AuditResult`); None otherwise.
    audit: Any = None
    #: With ``build_report(plan_pilot=...)``: the human labels planned
    #: (:class:`~irscale.labels.LabelPlan`); None otherwise.
    plan: Any = None
    #: With ``build_report(assignments=...)`` or ``citations=...``: the runs' generated
    #: answers scored (:class:`~irscale.report.sections.answers.AnswerScores`); None
    #: otherwise.
    answers: Any = None

    def to_frame(self) -> pd.DataFrame:
        """Runs × measures: the means over topics (the summary table's numbers)."""
        return self.means.copy()

    def __repr__(self) -> str:
        return (f"Report({len(self.runs)} runs, measures={list(self.measures)}, "
                f"baseline={self.baseline!r}, correction={self.correction!r}, "
                f"alpha={self.alpha:g}, dp={self.discriminative is not None})")

    def best(self, measure: str, digits: int = 4) -> set[str]:
        """The runs whose mean of ``measure``, as the tables show it at ``digits`` decimals
        (:func:`~irscale.stats.tables.format_number`: scientific notation below
        10^-digits), reads as the highest's: two runs shown alike tie, two shown apart do
        not (with --digits 0, 9.8e-02 and 1.2e-01 are not both the best)."""
        if measure not in self.means.columns:
            raise MeasureError(f"measure: the report has no measure {shown(measure)} (it has "
                               f"{', '.join(map(str, self.means.columns))})")
        means = self.means[measure].astype(np.float64).dropna()
        if means.empty:
            return set()
        texts = {run: format_number(float(v), digits) for run, v in means.items()}
        top = texts[means.idxmax()]
        return {str(run) for run, text in texts.items() if text == top}

__all__ = ["SCALED_COLUMNS", "Provenance", "ReportContent"]
