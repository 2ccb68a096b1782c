"""The common frame of two-system tests: kernels on columns, one result builder.

Every two-system test is a *kernel* working on ``k`` comparisons at once: ``x`` and ``y``
are (n × k) and (m × k) arrays (paired tests: n = m, row = topic). The single-pair
functions call it with k = 1 and :func:`irscale.stats.pairwise_tests` with all pairs of a
score matrix, so a pair gets the same p-value either way (for Monte Carlo tests: with the
same seed). Mean differences, confidence intervals and effect sizes are computed here,
once, for every test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..errors import InputError, ParameterError
from .effects import EffectSizes, effect_size_columns, mean_difference_ci, standard_error
from .resampling import rng_options
from .results import TestResult
from .validation import Alternative, check_alpha, check_alternative, tie_tolerance, two_samples


@dataclass
class Outcome:
    """What a kernel returns: one value per column (comparison)."""

    statistic: np.ndarray
    pvalue: np.ndarray
    df: np.ndarray | None = None
    mc_se: np.ndarray | None = None
    samples: int | None = None
    convention: str | None = None
    method: str = ""


Kernel = Callable[..., Outcome]


@dataclass(frozen=True)
class TestSpec:
    """A registered two-system test: its kernel and how to report it."""

    __test__ = False  # not a pytest test class

    name: str
    label: str
    paired: bool
    ci_kind: str
    kernel: Kernel
    options: tuple[str, ...] = ()
    resampling: bool = False

    @property
    def ci_method(self) -> str:
        return {
            "paired": "paired t interval",
            "student": "Student t interval (pooled variance)",
            "welch": "Welch t interval",
        }[self.ci_kind]

    def check_options(self, options: dict[str, object]) -> None:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise ParameterError(
                f"the {self.label} takes no option(s) {unknown}; it takes {list(self.options)}"
            )


def t_pvalue(t: np.ndarray, df: np.ndarray | float, alternative: Alternative) -> np.ndarray:
    """p-value of a t statistic (``df = inf`` gives the normal distribution)."""
    if alternative == "greater":
        return stats.t.sf(t, df)
    if alternative == "less":
        return stats.t.cdf(t, df)
    return np.minimum(1.0, 2.0 * stats.t.sf(np.abs(t), df))


def degenerate(x: np.ndarray, y: np.ndarray, paired: bool) -> np.ndarray:
    """Columns with nothing to test: identical paired scores, or all values equal."""
    tol = tie_tolerance(x, y)
    if paired:
        return np.all(np.abs(x - y) <= tol, axis=0)
    both = np.concatenate([x, y], axis=0)
    return np.ptp(both, axis=0) <= tol


def studentise(num: np.ndarray, se: np.ndarray) -> np.ndarray:
    """num/se with the limits of zero standard error: ±inf, or NaN for 0/0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(se > 0, num / np.where(se > 0, se, 1.0),
                        np.where(num == 0, np.nan, np.sign(num) * np.inf))


def finish_pvalues(p: np.ndarray, statistic: np.ndarray) -> np.ndarray:
    """p = 1 where the statistic is undefined (nothing to test), clipped to [0, 1]."""
    return np.clip(np.where(np.isnan(statistic), 1.0, p), 0.0, 1.0)


def pair_columns(
    spec: TestSpec, x: np.ndarray, y: np.ndarray, *, alpha: float, alternative: Alternative,
    options: dict[str, object],
) -> tuple[Outcome, dict[str, np.ndarray]]:
    """Run ``spec`` on every column pair; the outcome plus diff, CI (with the standard
    error ``ci_se`` and degrees of freedom ``ci_df`` it rests on) and effect sizes."""
    outcome = spec.kernel(x, y, alternative=alternative, **options)
    diff, low, high = mean_difference_ci(
        x, y, kind=spec.ci_kind, alpha=alpha, alternative=alternative
    )
    se, df = standard_error(x, y, spec.ci_kind)
    columns = {
        "mean_a": x.mean(axis=0), "mean_b": y.mean(axis=0), "diff": diff,
        "ci_low": low, "ci_high": high, "ci_se": se, "ci_df": df,
        **effect_size_columns(x, y, spec.paired),
    }
    return outcome, columns


def run_test(
    spec: TestSpec,
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
    **options: object,
) -> TestResult:
    """Run the test ``spec`` on one pair of systems (see :func:`two_samples` for inputs)."""
    check_alternative(alternative)
    alpha = check_alpha(alpha)
    spec.check_options(options)
    options = rng_options(options)
    xs, ys, labels = two_samples(x, y, paired=spec.paired, systems=systems, measure=measure)
    X, Y = xs[:, None], ys[:, None]
    if degenerate(X, Y, spec.paired)[0]:
        what = "have identical scores on every topic" if spec.paired else "are all equal"
        raise InputError(
            f"the scores of {labels[0]!r} and {labels[1]!r} {what}: there is nothing to test"
        )
    outcome, columns = pair_columns(spec, X, Y, alpha=alpha, alternative=alternative,
                                    options=dict(options))
    effect = EffectSizes(**{k: float(columns[k][0]) for k in
                            ("d_z", "g_z", "cohen_d", "hedges_g", "glass_delta")},
                         n=len(xs), m=len(ys), paired=spec.paired)
    return TestResult(
        test=spec.label,
        systems=labels,
        paired=spec.paired,
        alternative=alternative,
        n=(len(xs), len(ys)),
        mean_x=float(columns["mean_a"][0]),
        mean_y=float(columns["mean_b"][0]),
        diff=float(columns["diff"][0]),
        ci_low=float(columns["ci_low"][0]),
        ci_high=float(columns["ci_high"][0]),
        ci_method=spec.ci_method,
        statistic=float(outcome.statistic[0]),
        df=None if outcome.df is None else float(outcome.df[0]),
        pvalue=float(outcome.pvalue[0]),
        alpha=alpha,
        effect=effect,
        method=outcome.method,
        samples=outcome.samples,
        mc_se=None if outcome.mc_se is None else float(outcome.mc_se[0]),
        convention=outcome.convention,
        ci_se=float(columns["ci_se"][0]),
        ci_df=float(columns["ci_df"][0]),
    )
