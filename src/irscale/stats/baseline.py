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
from typing import TYPE_CHECKING, Any, cast

from ..core import ScoreMatrix
from ..errors import AlignmentError, ParameterError
from .corrections import Correction
from .pairwise import baseline_names, pairwise_tests
from .validation import Alternative

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..evaluation import Evaluation

#: pairwise_tests' columns → the table's, in the table's order.
COLUMNS = {"measure": "measure", "a": "run", "b": "baseline", "mean_b": "baseline_mean",
           "mean_a": "run_mean", "diff": "delta", "ci_low": "ci_low", "ci_high": "ci_high",
           "p_raw": "p", "p": "p_adjusted", "significant": "significant", "wins": "wins",
           "ties": "ties", "losses": "losses"}


def _matrix(data: Evaluation | ScoreMatrix, measures: Sequence[str] | None
            ) -> tuple[ScoreMatrix, list[str]]:
    """The score matrix of ``data`` and the measures to compare (default: an evaluation's
    per-topic measures averaged over topics, not its counts; every measure of a matrix)."""
    if isinstance(data, ScoreMatrix):
        return data, list(data.measures) if measures is None else list(measures)
    if measures is None:
        measures = [c.label for c in data.columns
                    if c.label in data.measures and c.aggregate == "mean"]
        if not measures:
            raise ParameterError("the evaluation has no per-topic measure averaged over "
                                 f"topics to compare (measures: {list(data.measures)})")
    return data.to_matrix(measures=measures), list(measures)


def baseline_comparison(
    data: Evaluation | ScoreMatrix,
    baseline: str | Sequence[str],
    *,
    test: str = "t",
    correction: Correction | None = "holm",
    alpha: float = 0.05,
    alternative: Alternative = "two-sided",
    measures: Sequence[str] | None = None,
    **options: object,
) -> pd.DataFrame:
    """Compare every run with ``baseline`` on every measure (PyTerrier's ``baseline=``),
    or with each of several baselines, corrected as one family.

    Parameters
    ----------
    data : Evaluation or ScoreMatrix
        The result of :func:`irscale.evaluate` (every run must cover the same topics), or
        a topics × runs × measures score matrix.
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
    measures : sequence of str, optional
        The measures compared (default: an evaluation's per-topic measures averaged over
        topics, counts such as ``num_ret`` left out; every measure of a matrix).

    Returns
    -------
    pandas.DataFrame
        One row per (measure, baseline, run ≠ baseline), in the order of the measures, the
        baselines, then the runs:
        ``measure, run, baseline, baseline_mean, run_mean, delta`` (run_mean −
        baseline_mean), ``ci_low, ci_high`` (the per-comparison 1 − α interval of delta),
        ``p`` (the test's), ``p_adjusted`` (after ``correction``; = ``p`` without one),
        ``significant`` (p_adjusted ≤ α), ``wins, ties, losses`` (topics where the run is
        above, equal to, below the baseline).

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
    >>> table = baseline_comparison(m, "bm25")
    >>> table[["run", "baseline_mean", "run_mean", "wins", "ties", "losses"]].round(4)
      run  baseline_mean  run_mean  wins  ties  losses
    0  new         0.2667       0.4     2     1       0
    """
    baselines = baseline_names(baseline)
    if baselines is None:
        raise ParameterError("baseline must name a system or a list of systems, got None")
    matrix, measures = _matrix(data, measures)
    runs = list(matrix.systems)
    unknown = [b for b in baselines if b not in runs]
    if unknown:
        raise AlignmentError(f"baseline {unknown[0]!r} is not a run (runs: "
                             f"{', '.join(runs[:8])}{', ...' if len(runs) > 8 else ''})")
    if len(runs) < 2:
        raise ParameterError(f"comparing with a baseline needs at least two runs; there is "
                             f"only {baselines[0]!r}")
    result = pairwise_tests(matrix, test, correction=correction, alpha=alpha,
                            alternative=alternative, measures=measures, baseline=baseline,
                            **cast(dict[str, Any], options))
    frame = result.to_frame()
    if "p_raw" not in frame.columns:  # no correction: the raw p-values are the decisive ones
        frame["p_raw"] = frame["p"]
    return frame[list(COLUMNS)].rename(columns=COLUMNS)


__all__ = ["baseline_comparison"]
