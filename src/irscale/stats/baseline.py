"""Every run against a baseline: the table PyTerrier's ``Experiment(baseline=...)`` gives.

For each measure and each run r ≠ baseline b, over the topics both were evaluated on:
the two means, ``delta = mean(r) − mean(b)`` with its confidence interval, the test's
p-value, the p-value adjusted over the whole family (every run × every measure, Holm by
default: Ferro & Maistro (2024), §4.2.4) and the topics r wins, ties and loses against b
(differences within the tie tolerance count as ties). Everything comes from
:func:`irscale.stats.pairwise_tests` with ``baseline=``, which ``irscale compare
--baseline`` prints too: this module only selects and names its columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..core import ScoreMatrix
from ..core.notebook import TableRepr, counted
from ..errors import ParameterError
from ..io.naming import find_in
from .corrections import Correction
from .pairwise import baseline_names, pairwise_tests
from .protocol import TableResult, format_table
from .registry import test_spec
from .summary_table import (
    SummaryCell,
    baseline_note,
    best_rows,
    interval_note,
    interval_text,
    number_text,
    render_summary,
)
from .tables import Format
from .validation import Alternative, chosen_measures

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..core.mean_intervals import MeanInterval
    from ..io.table import RunTable

#: pairwise_tests' columns → the table's, in the table's order.
#: The intervals of the means and of delta (``interval=``) follow their values.
COLUMNS = {"measure": "measure", "a": "run", "b": "baseline", "mean_b": "baseline_mean",
           "mean_b_low": "baseline_mean_low", "mean_b_high": "baseline_mean_high",
           "mean_a": "run_mean", "mean_a_low": "run_mean_low", "mean_a_high": "run_mean_high",
           "diff": "delta", "diff_low": "delta_low", "diff_high": "delta_high",
           "ci_low": "ci_low", "ci_high": "ci_high", "p_raw": "p", "p": "p_adjusted",
           "significant": "significant", "wins": "wins", "ties": "ties", "losses": "losses"}


def _matrix(data: RunTable | ScoreMatrix, measures: list[str] | None
            ) -> tuple[ScoreMatrix, list[str]]:
    """The score matrix of ``data`` and the measures to compare (default: an evaluation's
    per-topic measures averaged over topics, not its counts; every measure of a matrix)."""
    if isinstance(data, ScoreMatrix):
        return data, list(data.measures) if measures is None else measures
    if measures is None:
        measures = [c.label for c in data.columns
                    if c.label in data.measures and c.aggregate == "mean"]
        if not measures:
            raise ParameterError("the evaluation has no per-topic measure averaged over "
                                 f"topics to compare (measures: {list(data.measures)})")
    return data.to_matrix(measures=measures), list(measures)


@dataclass(frozen=True, repr=False)
class BaselineComparison(TableResult, TableRepr):
    """Every run against a baseline (:func:`baseline_comparison`): a table and the paper's
    table of it.

    :meth:`to_frame` is the comparison, one row per (measure, baseline, run) with the
    columns :func:`baseline_comparison` documents; :meth:`format` prints it as ``text``,
    ``csv`` or ``json``, and as ``latex`` or ``markdown`` prints the paper's runs × measures
    table (:func:`irscale.stats.summary_table.render_summary`, the table
    ``irscale eval --format latex --baseline`` prints): the means, the best of each measure
    in bold, ↑/↓ where a run is significantly better/worse than the (first) baseline after
    the correction. A notebook shows the paper's table (as HTML) above the comparison;
    ``print`` shows a line saying what was compared and the comparison (:meth:`to_frame`).
    """

    frame: pd.DataFrame = field(repr=False, compare=False)
    #: The mean of every run (rows, in the runs' order) on every measure compared (columns)
    #: over the topics of the comparison.
    means: pd.DataFrame = field(repr=False, compare=False)
    baselines: tuple[str, ...]
    test: str
    correction: str | None
    alpha: float
    #: The method of the intervals of the means (``interval=``), or None.
    interval: MeanInterval | None = None

    def to_frame(self) -> pd.DataFrame:
        return self.frame.copy()

    def __len__(self) -> int:
        return len(self.frame)

    def _caption(self) -> str:
        significant = int(self.frame["significant"].sum())
        return (f"BaselineComparison: {counted(len(self.means) - len(self.baselines), 'run')} "
                f"against {', '.join(self.baselines)} on "
                f"{counted(len(self.means.columns), 'measure')}, {test_spec(self.test).name} "
                f"test, {self.correction or 'no'} correction: {significant} of "
                f"{len(self.frame)} significant at alpha = {self.alpha:g}")

    def format(self, fmt: Format | str = "text", *, digits: int = 4) -> str:
        """``latex``, ``markdown``: the paper's runs × measures table (class
        documentation); ``text``, ``csv``, ``json``: :meth:`to_frame`'s rows
        (``csv``/``json`` at full precision)."""
        if fmt in ("latex", "markdown"):
            return self._table(cast(Any, fmt), digits)
        return format_table(self.frame, cast(Format, fmt), digits=digits)

    def _table(self, fmt: str, digits: int) -> str:
        from .tables import check_digits

        digits = check_digits(digits)
        values = self.means.to_numpy(np.float64)
        runs, measures = [str(r) for r in self.means.index], [str(m) for m in self.means.columns]
        marks = np.zeros(values.shape, dtype=np.int64)
        first = self.frame[self.frame["baseline"] == self.baselines[0]]
        for run, measure, delta, significant in zip(first["run"], first["measure"],
                                                    first["delta"], first["significant"],
                                                    strict=True):
            if significant and delta != 0:
                marks[runs.index(run), measures.index(measure)] = 1 if delta > 0 else -1
        best = best_rows(values, digits)
        bounds = self._mean_bounds(digits)
        rows = [(run, [SummaryCell(value=float(values[r, k]),
                                   text=number_text(values[r, k], digits), bold=bool(best[r, k]),
                                   mark=int(marks[r, k]), interval=bounds.get((run, measure)))
                       for k, measure in enumerate(measures)])
                for r, run in enumerate(runs)]
        caption = [f"Summary over topics of {len(runs)} run(s)",
                   "the best value of each measure in bold",
                   baseline_note(self.baselines[0], test_spec(self.test).name,
                                 self.correction, len(self.frame), self.alpha)]
        if self.interval is not None:
            caption.append(interval_note(self.interval, self.alpha))
        return render_summary(measures, rows, "; ".join(caption) + ".", cast(Any, fmt))

    def _mean_bounds(self, digits: int) -> dict[tuple[str, str], str]:
        """Per (run, measure), its mean's interval as a cell shows it (none without
        ``interval``)."""
        if self.interval is None:
            return {}
        frame = self.frame
        return {(str(run), str(measure)): interval_text(low, high, digits)
                for side in ("baseline", "run")
                for run, measure, low, high in zip(frame[side], frame["measure"],
                                                   frame[f"{side}_mean_low"],
                                                   frame[f"{side}_mean_high"], strict=True)}

    def _repr_html_(self) -> str:
        from ..core.notebook import result_html

        return self._table("html", 4) + result_html(self._caption(), self.frame)


def baseline_comparison(
    data: RunTable | ScoreMatrix,
    baseline: str | Sequence[str],
    *,
    test: str = "t",
    correction: Correction | None = "holm",
    alpha: float = 0.05,
    alternative: Alternative = "two-sided",
    measures: str | Sequence[str] | None = None,
    measure: str | None = None,
    interval: MeanInterval | None = None,
    interval_samples: int = 10_000,
    interval_rng: int | np.random.Generator | None = None,
    **options: object,
) -> BaselineComparison:
    """Compare every run with ``baseline`` on every measure (PyTerrier's ``baseline=``),
    or with each of several baselines, corrected as one family.

    Parameters
    ----------
    data : Evaluation, ManyEvaluation or ScoreMatrix
        The result of :func:`irscale.evaluate` or of :func:`irscale.evaluate_many` (its
        per-topic values kept; every run must cover the same topics), or a topics × runs ×
        measures score matrix.
    baseline : str or sequence of str
        The run every other run is compared with, or several: every run against each of
        them, each pair of runs once (against the first of its two runs among the
        baselines: with baselines A, B every other run against A, then against B, and B
        against A), all in one family of ``correction``.
    test : str, default "t"
        A two-system test of :data:`irscale.stats.registry.TESTS` (``t``: the paired
        t-test, ``wilcoxon``, ``sign``, ``randomization``, ``bootstrap``, ...); resampling
        tests take ``samples``, ``rng``, ``workers`` in ``options``.
    correction : str or None, default "holm"
        The multiple-comparison correction over the family of (run, measure) comparisons
        (:mod:`irscale.stats.corrections`); ``None`` or ``"none"``: none.
    alpha : float, default 0.05
        Significance level of ``significant`` and of the confidence intervals (1 − α).
    alternative : {"two-sided", "greater", "less"}
        ``greater``: the run is better than the baseline.
    measures : str or sequence of str, optional
        The measures compared, one name or several (default: an evaluation's per-topic
        measures averaged over topics, counts such as ``num_ret`` left out; every measure
        of a matrix).
    measure : str, optional
        One measure compared (the keyword of the tests of one measure): ``measure="AP"``
        is ``measures=["AP"]``; give one of the two.
    interval : {"t", "bootstrap"}, optional
        Also the 1 − ``alpha`` interval over topics of each mean and of delta (paired by
        topic; :mod:`irscale.stats.pair_intervals`, ``interval_samples`` and
        ``interval_rng`` for the bootstrap): the columns ``baseline_mean_low,
        baseline_mean_high``, ``run_mean_low, run_mean_high``, ``delta_low, delta_high``,
        and in each cell of the paper's table.

    Returns
    -------
    BaselineComparison
        Its :meth:`~BaselineComparison.format` prints the paper's table (``latex``,
        ``markdown``, ``html``); its :meth:`~BaselineComparison.to_frame` has one row per
        (measure, baseline, run ≠ baseline), in the order of the measures, the baselines,
        then the runs:
        ``measure, run, baseline, baseline_mean, run_mean, delta`` (run_mean −
        baseline_mean), ``ci_low, ci_high`` (the per-comparison 1 − α interval of delta),
        ``p`` (the test's), ``p_adjusted`` (after ``correction``; = ``p`` without one),
        ``significant`` (p_adjusted ≤ α), ``wins, ties, losses`` (topics where the run is
        above, equal to, below the baseline); with ``interval``, each mean and delta
        followed by its interval's ``_low`` and ``_high``.

    Raises
    ------
    ParameterError
        ``baseline`` is not a name or a list of distinct names, fewer than two runs, or an
        option
        :func:`~irscale.stats.pairwise_tests` refuses (unknown test or correction, α).
    AlignmentError
        ``baseline`` is not a run, or the runs were not evaluated on the same topics.
    MeasureError
        A measure that was not evaluated.

    Examples
    --------
    >>> import numpy as np
    >>> m = ScoreMatrix.from_array(np.array([[0.2, 0.4], [0.5, 0.5], [0.1, 0.3]]),
    ...                            systems=["bm25", "new"])
    >>> table = baseline_comparison(m, "bm25").to_frame()
    >>> table[["run", "baseline_mean", "run_mean", "wins", "ties", "losses"]].round(4)
      run  baseline_mean  run_mean  wins  ties  losses
    0  new         0.2667       0.4     2     1       0
    """
    baselines = baseline_names(baseline)
    if baselines is None:
        raise ParameterError("baseline must name a system or a list of systems, got None")
    matrix, compared_measures = _matrix(data, chosen_measures(measure, measures))
    runs = list(matrix.systems)
    # a run's name, file or run id (io.naming), among an evaluation's runs or the systems
    found = [find_in(name, data if hasattr(data, "sources") else matrix) for name in baselines]
    baselines = baseline_names(found) or ()  # checked again: two spellings of one run
    baseline = found if len(found) > 1 else found[0]
    if len(runs) < 2:
        raise ParameterError(f"comparing with a baseline needs at least two runs; there is "
                             f"only {baselines[0]!r}")
    result = pairwise_tests(matrix, test, correction=correction, alpha=alpha,
                            alternative=alternative, measures=compared_measures,
                            baseline=baseline,
                            **cast(dict[str, Any], options))
    if interval is not None:
        from .pair_intervals import with_mean_intervals

        result = with_mean_intervals(result, matrix, interval, samples=interval_samples,
                                     rng=interval_rng)
    frame = result.to_frame()
    if "p_raw" not in frame.columns:  # no correction: the raw p-values are the decisive ones
        frame["p_raw"] = frame["p"]
    import pandas as pd

    compared = matrix.subset(measures=compared_measures)
    means = pd.DataFrame(compared.values.mean(axis=0), index=list(compared.systems),
                         columns=list(compared.measures))
    return BaselineComparison(
        frame=frame[[c for c in COLUMNS if c in frame.columns]].rename(columns=COLUMNS),
        means=means, baselines=tuple(baselines), test=test, correction=result.correction,
        alpha=alpha, interval=interval)


__all__ = ["BaselineComparison", "baseline_comparison"]
