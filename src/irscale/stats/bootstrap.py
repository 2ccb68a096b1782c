"""Bootstrap tests: Sakai's paired (studentised) and unpaired tests, and the shift test.

Paired studentised bootstrap test (Sakai 2014, §4.2, Fig. 11–12; Efron & Tibshirani,
1993, Alg. 16.2)
    z = x − y, w = z − mean(z) (the data shifted to obey H0). Each bootstrap sample w*
    draws n topics of w with replacement (Fig. 11). The statistic is the studentised mean
    t(z) = mean(z) / (σ̄ / sqrt(n)), σ̄² = Σ (z_i − mean(z))² / (n − 1) (eq. 48–49); the
    p-value counts |t(w*)| ≥ |t(z)| (Fig. 12; one-sided: t(w*) ≥ t(z) or ≤).
Bootstrap-shift test (Smucker, Allan & Carterette, 2007; Efron & Tibshirani, 1993, §16.4)
    The same resampling of w, with the plain mean as statistic: counts
    |mean(w*)| ≥ |mean(z)| — the bootstrap distribution of the mean shifted to mean zero.
    Both paired tests need differences that vary: where z is the same on every topic up to
    rounding, w is rounding noise (every w* mean 0, σ̄ = 0) and there is nothing to test
    (refused for one pair, p = 1 in a family: :func:`irscale.stats._twosample.degenerate`).
Unpaired bootstrap test (Sakai 2014, §4.3, Fig. 13–14)
    v = (x_1..x_n, y_1..y_m); each sample draws n + m values of v with replacement, the
    first n forming x*, the last m forming y* (Fig. 13); the p-value counts
    |M(x*) − M(y*)| ≥ |M(x) − M(y)| with M the mean (Fig. 14).

Sakai's (2014) algorithms report ASL = count/B (``convention="proportion"``); the default
here is (count + 1)/(B + 1) with its Monte Carlo standard error (see
:mod:`irscale.stats.resampling`). Randomness: ``rng`` (an integer seed, a
:class:`numpy.random.Generator` or ``None``); progress:
``progress`` (a bool, or a callable ``progress(done, total)``). Vectorised: a chunk of
1,024 bootstrap samples is a (chunk × n) matrix C of draw counts, and C @ w, C @ w² give
the means and variances of all samples for all compared pairs at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..core.progress import ProgressArg
from ..parallel import ExecutorArg
from ._twosample import Outcome, TestSpec, run_test, studentise
from .effects import standard_error
from .params import RESAMPLING_TEST
from .resampling import Convention, RngArg, by_blocks, exceedances, monte_carlo_pvalues
from .results import TestResult
from .validation import TIE_RTOL, Alternative

#: Bootstrap samples per chunk (fixed: results do not depend on memory or workers).
CHUNK = 1024
#: Pairs per block inside a chunk: its CHUNK × BLOCK matrices of statistics stay small
#: (8,256 pairs, B = 1,000: 4,096 pairs a block 87 MB traced, 256 pairs 22 MB, as fast).
BLOCK = 256

_OPTIONS = ("samples", "rng", "convention", "workers", "progress", "executor")


def resample_counts(indices: np.ndarray, size: int) -> np.ndarray:
    """(samples × size) matrix: how often each of ``size`` items is drawn in each sample."""
    rows = indices.shape[0]
    flat = (indices + size * np.arange(rows)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * size).reshape(rows, size).astype(np.float64)


def studentised_means(counts: np.ndarray, w: np.ndarray) -> np.ndarray:
    """t(w*) = mean(w*) / (σ̄* / sqrt(n)) of every sample (rows of ``counts``) and column."""
    n = w.shape[0]
    mean = counts @ w / n
    var = np.maximum((counts @ (w * w) - n * mean * mean) / (n - 1), 0.0)
    return studentise(mean, np.sqrt(var / n))


def plain_means(counts: np.ndarray, w: np.ndarray) -> np.ndarray:
    """mean(w*) of every sample (rows of ``counts``) and column."""
    return counts @ w / w.shape[0]


def _centred_chunk(
    w: np.ndarray, statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
    observed: np.ndarray, alternative: Alternative, tol: np.ndarray,
    gen: np.random.Generator, size: int,
) -> np.ndarray:
    """Per pair, the resamples of the rows of ``w`` whose ``statistic`` is as extreme."""
    n = w.shape[0]
    counts = resample_counts(gen.integers(0, n, size=(size, n)), n)
    return by_blocks(w.shape[1], BLOCK, lambda part: exceedances(
        statistic(counts, w[:, part]), observed[part], alternative, tol[part]))


def _studentised_two_sided_chunk(
    w: np.ndarray, w2: np.ndarray, threshold: np.ndarray, gen: np.random.Generator, size: int,
) -> np.ndarray:
    """Per pair, the resamples with |t(w*)| ≥ threshold (the two-sided fast path)."""
    n = w.shape[0]
    counts = resample_counts(gen.integers(0, n, size=(size, n)), n)
    return by_blocks(w.shape[1], BLOCK, lambda part: two_sided_studentised_hits(
        counts, w[:, part], w2[:, part], threshold[part]))


def _unpaired_chunk(
    v: np.ndarray, n: int, observed: np.ndarray, alternative: Alternative, tol: np.ndarray,
    gen: np.random.Generator, size: int,
) -> np.ndarray:
    """Per pair, the pooled resamples whose difference of means is as extreme."""
    draws = gen.integers(0, v.shape[0], size=(size, v.shape[0]))
    return by_blocks(v.shape[1], BLOCK, lambda part: exceedances(
        unpaired_means(draws, v[:, part], n), observed[part], alternative, tol[part]))


def two_sided_studentised_hits(
    counts: np.ndarray, w: np.ndarray, w2: np.ndarray, threshold: np.ndarray
) -> np.ndarray:
    """Per column, the samples with |t(w*)| ≥ threshold, without division or square root.

    With S1 = Σ c_i w_i and SS = Σ c_i w_i², t(w*)² = (n − 1) S1² / (n SS − S1²), so for
    τ > 0: |t(w*)| ≥ τ ⟺ S1² (n − 1 + τ²)/(n τ²) ≥ SS (also for zero variance, where
    t = ±∞); the factor is folded into w as its square root. The comparison is strict —
    the threshold already includes the tie tolerance — so samples drawing only zeros (0/0)
    do not count. Columns with τ ≤ 0 count every sample.
    """
    n = w.shape[0]
    positive = threshold > 0
    safe = np.where(positive, threshold, 1.0)
    # τ = ∞ (a constant nonzero difference: t = ±∞) or τ² beyond a double: the factor's
    # limit 1/n, without numpy's inf/inf RuntimeWarning (docs/errors.md rule 6)
    with np.errstate(over="ignore", invalid="ignore"):
        factor = (n - 1 + safe * safe) / (n * safe * safe)
    factor = np.where(np.isfinite(factor), factor, 1.0 / n)
    s1 = counts @ (w * np.sqrt(factor))
    s1 *= s1
    hits = np.count_nonzero(s1 > counts @ w2, axis=0)
    return np.where(positive, hits, counts.shape[0])


@RESAMPLING_TEST
def paired_bootstrap_kernel(
    x: np.ndarray, y: np.ndarray, *, alternative: Alternative, samples: int = 1000,
    rng: RngArg = None,
    convention: Convention = "plus-one", workers: int | None = None, progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> Outcome:
    z = x - y
    w = z - z.mean(axis=0)
    observed = studentise(z.mean(axis=0), standard_error(x, y, "paired")[0])
    tol = TIE_RTOL * np.where(np.isfinite(observed), np.abs(observed), 0.0)
    if alternative == "two-sided":  # the common case, on the fast path
        threshold = np.where(np.isnan(observed), 0.0, np.abs(observed) - tol)
        work: Callable[..., np.ndarray] = _studentised_two_sided_chunk
        shared: tuple[object, ...] = (w, w * w, threshold)
    else:
        work, shared = _centred_chunk, (w, studentised_means, observed, alternative, tol)
    p, se = monte_carlo_pvalues(work, shared, len(observed), samples=samples, chunk=CHUNK,
                                rng=rng, convention=convention, workers=workers,
                                executor=executor, progress=progress)
    p = np.where(np.isnan(observed), 1.0, p)
    return Outcome(statistic=observed, pvalue=p, mc_se=se, samples=samples,
                   convention=convention, method=f"studentised, {samples} bootstrap samples")


@RESAMPLING_TEST
def bootstrap_shift_kernel(
    x: np.ndarray, y: np.ndarray, *, alternative: Alternative, samples: int = 1000,
    rng: RngArg = None,
    convention: Convention = "plus-one", workers: int | None = None, progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> Outcome:
    z = x - y
    observed = z.mean(axis=0)
    tol = TIE_RTOL * np.abs(z).mean(axis=0)
    p, se = monte_carlo_pvalues(
        _centred_chunk, (z - observed, plain_means, observed, alternative, tol), len(observed),
        samples=samples, chunk=CHUNK, rng=rng, convention=convention, workers=workers,
        executor=executor, progress=progress)
    return Outcome(statistic=observed, pvalue=p, mc_se=se, samples=samples,
                   convention=convention, method=f"shifted mean, {samples} bootstrap samples")


def unpaired_means(draws: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """M(x*) − M(y*) per sample: the first ``n`` draws of each row form x*, the rest y*."""
    size = v.shape[0]
    m = draws.shape[1] - n
    return (resample_counts(draws[:, :n], size) @ v / n
            - resample_counts(draws[:, n:], size) @ v / m)


@RESAMPLING_TEST
def unpaired_bootstrap_kernel(
    x: np.ndarray, y: np.ndarray, *, alternative: Alternative, samples: int = 1000,
    rng: RngArg = None,
    convention: Convention = "plus-one", workers: int | None = None, progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> Outcome:
    n = x.shape[0]
    v = np.concatenate([x, y], axis=0)
    observed = x.mean(axis=0) - y.mean(axis=0)
    tol = TIE_RTOL * np.abs(v).max(axis=0)
    p, se = monte_carlo_pvalues(_unpaired_chunk, (v, n, observed, alternative, tol),
                                len(observed), samples=samples, chunk=CHUNK, rng=rng,
                                convention=convention, workers=workers, executor=executor,
                                progress=progress)
    return Outcome(statistic=observed, pvalue=p, mc_se=se, samples=samples,
                   convention=convention, method=f"pooled resampling, {samples} samples")


PAIRED_BOOTSTRAP = TestSpec(
    "bootstrap", "paired bootstrap test (studentised)", True, "paired",
    paired_bootstrap_kernel, _OPTIONS, resampling=True, needs_spread=True,
)
BOOTSTRAP_SHIFT = TestSpec(
    "bootstrap-shift", "bootstrap-shift test", True, "paired", bootstrap_shift_kernel,
    _OPTIONS, resampling=True, needs_spread=True,
)
UNPAIRED_BOOTSTRAP = TestSpec(
    "unpaired-bootstrap", "unpaired bootstrap test", False, "welch",
    unpaired_bootstrap_kernel, _OPTIONS, resampling=True,
)


def paired_bootstrap_test(
    x: object, y: object = None, *, systems: Sequence[str] | None = None,
    measure: str | None = None, alternative: Alternative = "two-sided", alpha: float = 0.05,
    samples: int = 1000, rng: RngArg = None,
    convention: Convention = "plus-one", workers: int | None = None, progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> TestResult:
    """Sakai's paired studentised bootstrap test (Sakai 2014, Fig. 11–12); see the module."""
    return run_test(PAIRED_BOOTSTRAP, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, samples=samples, rng=rng,
                    convention=convention, workers=workers, progress=progress,
                    executor=executor)


def bootstrap_shift_test(
    x: object, y: object = None, *, systems: Sequence[str] | None = None,
    measure: str | None = None, alternative: Alternative = "two-sided", alpha: float = 0.05,
    samples: int = 1000, rng: RngArg = None,
    convention: Convention = "plus-one", workers: int | None = None, progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> TestResult:
    """Bootstrap-shift test of mean(x − y) = 0 (Smucker et al., 2007); see the module."""
    return run_test(BOOTSTRAP_SHIFT, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, samples=samples, rng=rng,
                    convention=convention, workers=workers, progress=progress,
                    executor=executor)


def unpaired_bootstrap_test(
    x: object, y: object = None, *, systems: Sequence[str] | None = None,
    measure: str | None = None, alternative: Alternative = "two-sided", alpha: float = 0.05,
    samples: int = 1000, rng: RngArg = None,
    convention: Convention = "plus-one", workers: int | None = None, progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> TestResult:
    """Sakai's unpaired bootstrap test (Sakai 2014, Fig. 13–14); see the module docstring."""
    return run_test(UNPAIRED_BOOTSTRAP, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, samples=samples, rng=rng,
                    convention=convention, workers=workers, progress=progress,
                    executor=executor)
