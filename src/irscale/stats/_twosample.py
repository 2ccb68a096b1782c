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

from ..core.edge import keyword_error
from ..errors import InputError
from .distributions import symmetric_pvalue, t_sf
from .effects import EffectSizes, effect_size_columns, mean_difference_ci, standard_error
from .results import TestResult
from .validation import (
    TIE_RTOL,
    Alternative,
    check_alpha,
    check_alternative,
    constant_columns,
    tie_tolerance,
    two_samples,
)


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
    #: the statistic or its null distribution rests on the spread of the scores (a standard
    #: error, or resamples of the centred differences): a pair without variance up to
    #: rounding has nothing it can test (:func:`degenerate`)
    needs_spread: bool = False

    @property
    def ci_method(self) -> str:
        return {
            "paired": "paired t interval",
            "student": "Student t interval (pooled variance)",
            "welch": "Welch t interval",
        }[self.ci_kind]

    def check_options(self, options: dict[str, object]) -> None:
        error = keyword_error(f"the {self.label}", options, self.options)
        if error is not None:
            raise error


def t_pvalue(t: np.ndarray, df: np.ndarray | float, alternative: Alternative) -> np.ndarray:
    """p-value of a t statistic (``df = inf`` gives the normal distribution)."""
    return symmetric_pvalue(t, lambda s: t_sf(s, df), alternative)


#: Why a column pair has nothing to test (:func:`degenerate`): identical paired scores
#: (every value equal, unpaired), or no variance for a test that needs one.
TESTABLE, IDENTICAL, NO_SPREAD = 0, 1, 2


def degenerate(x: np.ndarray, y: np.ndarray, spec: TestSpec) -> np.ndarray:
    """Per column pair, :data:`IDENTICAL`, :data:`NO_SPREAD` or :data:`TESTABLE`.

    One notion, constant up to rounding (:func:`~irscale.stats.validation.constant_columns`
    with the pair's tie tolerance, :data:`~irscale.stats.validation.TIE_RTOL` × its largest
    |score|), decides both cases. Paired: differences x − y all 0 up to rounding are
    ``IDENTICAL``; differences that are the same nonzero value on every topic up to
    rounding are ``NO_SPREAD`` for a test that ``needs_spread`` (the t-test and the paired
    bootstraps: their standard error, or their resamples of the centred differences, are
    rounding noise). Unpaired: every value of both samples equal is ``IDENTICAL``; each
    sample constant (two different values) is ``NO_SPREAD`` for the Student and Welch
    tests. Tests on signs, ranks and sign flips need no spread and test such pairs.
    """
    tol = tie_tolerance(x, y, axis=0)
    if spec.paired:
        d = x - y
        constant = constant_columns(d, tol)
        nothing = np.all(np.abs(d) <= tol, axis=0)
    else:
        constant = constant_columns(x, tol) & constant_columns(y, tol)
        nothing = constant_columns(np.concatenate([x, y], axis=0), tol)
    spreadless = constant & spec.needs_spread
    return np.where(nothing, IDENTICAL, np.where(spreadless, NO_SPREAD, TESTABLE))


def _spreadless_tests(spec: TestSpec) -> str:
    """The tests that need no spread, for the messages about pairs without one."""
    return ("the sign, wilcoxon and randomization tests" if spec.paired
            else "the mann-whitney and unpaired-bootstrap tests")


def _tolerance_text(tol: float) -> str:
    return f"{tol:.3g} = {TIE_RTOL:g} × the largest |score| of the pair"


def refusal(x: np.ndarray, y: np.ndarray, spec: TestSpec, labels: tuple[str, str]) -> str | None:
    """Why the single pair ``x``, ``y`` (vectors) cannot be tested, or ``None``."""
    X, Y = x[:, None], y[:, None]
    code = int(degenerate(X, Y, spec)[0])
    tol = float(tie_tolerance(X, Y, axis=0)[0])
    a, b = labels
    if code == IDENTICAL:
        if spec.paired:
            return (f"the scores of {a!r} and {b!r} have identical scores on every topic "
                    f"(|x − y| ≤ {_tolerance_text(tol)}): there is nothing to test")
        return (f"the scores of {a!r} and {b!r} are all equal (up to "
                f"{_tolerance_text(tol)}): there is nothing to test")
    if code == TESTABLE:
        return None
    if spec.paired:
        d = x - y
        what = (f"the differences {a!r} − {b!r} are the same on every topic "
                f"({float(d.mean()):.6g}; spread {float(np.ptp(d)):.3g}")
    else:
        what = (f"the scores of {a!r} ({float(x.mean()):.6g}) and of {b!r} "
                f"({float(y.mean()):.6g}) are each the same on every topic (spreads "
                f"{float(np.ptp(x)):.3g} and {float(np.ptp(y)):.3g}")
    return (f"{what} ≤ {_tolerance_text(tol)}): with no variance the {spec.label} has "
            f"nothing to test; {_spreadless_tests(spec)} need none")


def spreadless_warning(spec: TestSpec, a: np.ndarray, b: np.ndarray, diff: np.ndarray,
                       where: str = "") -> str:
    """The warning of a family in which the pairs ``a[i]``, ``b[i]`` (mean difference
    ``diff[i]``) of the group ``where`` (a measure, a collection) are :data:`NO_SPREAD`:
    their p-value is 1, as for identical pairs."""
    shown = ", ".join(f"{x} − {y} ({d:.4g})" for x, y, d in zip(a[:3], b[:3], diff[:3],
                                                                 strict=True))
    more = f" and {len(a) - 3} more" if len(a) > 3 else ""
    what = ("differences are the same on every topic" if spec.paired
            else "two samples are each the same on every topic")
    return (f"{spec.label}{f' ({where})' if where else ''}: {len(a)} pair(s) whose {what} "
            f"up to rounding (spread ≤ {TIE_RTOL:g} × their largest |score|) have no "
            f"variance and nothing to test, p = 1: {shown}{more}; {_spreadless_tests(spec)} "
            "need none")


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
    error ``ci_se`` and degrees of freedom ``ci_df`` it rests on), effect sizes and the
    :func:`degenerate` code of every pair (``degenerate``).

    Pairs with nothing to test get p = 1 and no statistic (NaN), in a family as alone
    (where :func:`run_test` refuses them first)."""
    outcome = spec.kernel(x, y, alternative=alternative, **options)
    codes = degenerate(x, y, spec)
    untestable = codes != TESTABLE
    outcome.pvalue = np.where(untestable, 1.0, outcome.pvalue)
    outcome.statistic = np.where(untestable, np.nan, outcome.statistic)
    if outcome.mc_se is not None:
        outcome.mc_se = np.where(untestable, 0.0, outcome.mc_se)
    diff, low, high = mean_difference_ci(
        x, y, kind=spec.ci_kind, alpha=alpha, alternative=alternative
    )
    se, df = standard_error(x, y, spec.ci_kind)
    columns = {
        "mean_a": x.mean(axis=0), "mean_b": y.mean(axis=0), "diff": diff,
        "ci_low": low, "ci_high": high, "ci_se": se, "ci_df": df,
        **effect_size_columns(x, y, spec.paired), "degenerate": codes,
    }
    return outcome, columns


def run_test(
    spec: TestSpec,
    x: object,
    y: object,
    *,
    systems: Sequence[str] | None,
    measure: str | None,
    alternative: Alternative,
    alpha: float,
    **options: object,
) -> TestResult:
    """Run the test ``spec`` on one pair of systems (see :func:`two_samples` for inputs)
    with the arguments of the public function that runs it (:func:`irscale.stats.paired_t`,
    :func:`~irscale.stats.two_sample_test` ...): their defaults are declared there, once."""
    check_alternative(alternative)
    alpha = check_alpha(alpha)
    spec.check_options(options)
    if "rng" in options:  # the resampling tests' (imported with them)
        from .resampling import rng_options

        options = rng_options(options)
    xs, ys, labels = two_samples(x, y, paired=spec.paired, systems=systems, measure=measure)
    reason = refusal(xs, ys, spec, labels)
    if reason is not None:
        raise InputError(reason)
    X, Y = xs[:, None], ys[:, None]
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
