"""Student's t-tests: paired, unpaired with pooled variance (Student), unpaired Welch.

With d_i = x_i − y_i over n topics (paired) or independent samples of sizes n and m:

* paired:  t = mean(d) / (s_d / sqrt(n)), ν = n − 1 (Sakai 2014, eq. 48–49 is this statistic);
* Student: t = (mean(x) − mean(y)) / (s_p sqrt(1/n + 1/m)), ν = n + m − 2, s_p pooled;
* Welch:   t = (mean(x) − mean(y)) / sqrt(s_x²/n + s_y²/m), ν by Welch–Satterthwaite.

p-values come from the t distribution with ν degrees of freedom (two-sided: 2 P(T ≥ |t|);
``greater``: P(T ≥ t), i.e. H1: mean(x) > mean(y); ``less``: P(T ≤ t)). The confidence
interval of the mean difference is the matching t interval. Ferro & Sanderson (2022) note that the
one-way model MD1 reduces to the unpaired and MD2 to the paired test for two systems.

Without variance there is nothing to test: differences that are the same on every topic up
to rounding (paired), or two samples that are each constant up to rounding (unpaired),
have a standard error of 0 and t = ±inf, or of rounding noise and t = ±1e16. One pair is
refused (:class:`~irscale.errors.InputError`, as R's ``t.test`` refuses "data are essentially
constant"); in a family such a pair has p = 1 and no statistic, with a warning
(:func:`irscale.stats._twosample.degenerate` states the tolerance).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._twosample import Outcome, TestSpec, finish_pvalues, run_test, studentise, t_pvalue
from .effects import standard_error
from .results import TestResult
from .validation import Alternative


def _t_kernel(kind: str, label: str):
    def kernel(x: np.ndarray, y: np.ndarray, *, alternative: Alternative) -> Outcome:
        diff = x.mean(axis=0) - y.mean(axis=0)
        se, df = standard_error(x, y, kind)
        t = studentise(diff, se)
        p = finish_pvalues(t_pvalue(t, df, alternative), t)
        return Outcome(statistic=t, pvalue=p, df=df, method=label)

    return kernel


PAIRED_T = TestSpec("t", "paired t-test", True, "paired", _t_kernel("paired", "paired t"),
                    needs_spread=True)
STUDENT_T = TestSpec(
    "student", "Student t-test", False, "student", _t_kernel("student", "pooled variance"),
    needs_spread=True,
)
WELCH_T = TestSpec("welch", "Welch t-test", False, "welch", _t_kernel("welch", "Welch"),
                   needs_spread=True)


def paired_t(
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
) -> TestResult:
    """Paired Student's t-test of mean(x − y) = 0 over topics.

    t = mean(d) / (s_d / sqrt(n)) with d_i = x_i − y_i, ν = n − 1 (see the module
    docstring); the same statistic and p-value as ``scipy.stats.ttest_rel``.

    Parameters
    ----------
    x, y : array_like or pandas.Series
        Per-topic scores of the two systems (Series are aligned by topic id); or ``x`` is a
        :class:`~irscale.core.scorematrix.ScoreMatrix` (or a wide DataFrame) and
        ``systems`` names the two systems.
    systems : pair of str, optional
        The two systems of the score matrix ``x``.
    measure : str, optional
        The measure of a score matrix that holds several.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The alternative hypothesis: ``greater`` is mean(x) > mean(y).
    alpha : float, default 0.05
        Significance level, also setting the confidence level 1 − α of the interval of
        the mean difference.

    Returns
    -------
    TestResult
        ``statistic`` (t), ``df``, ``pvalue``, the mean difference ``diff`` with its
        confidence interval, and effect sizes.

    Raises
    ------
    InputError
        A missing or non-finite score, or fewer than two topics.
    AlignmentError
        ``x`` and ``y`` of different lengths (or Series without common topics).
    ParameterError
        An unknown ``alternative`` or an ``alpha`` outside (0, 1).

    Examples
    --------
    >>> x = [0.42, 0.31, 0.55, 0.27, 0.61, 0.38, 0.47, 0.52]
    >>> y = [0.35, 0.30, 0.41, 0.25, 0.50, 0.39, 0.40, 0.44]
    >>> result = paired_t(x, y)
    >>> print(f"t = {result.statistic:.4f}, df = {result.df:g}, p = {result.pvalue:.4f}")
    t = 3.3710, df = 7, p = 0.0119
    """
    return run_test(PAIRED_T, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha)


def student_t(
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
) -> TestResult:
    """Unpaired two-sample t-test with pooled variance (equal variances assumed)."""
    return run_test(STUDENT_T, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha)


def welch_t(
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
) -> TestResult:
    """Unpaired two-sample Welch t-test (unequal variances, Welch–Satterthwaite df)."""
    return run_test(WELCH_T, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha)
