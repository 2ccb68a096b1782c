"""Bootstrap tests: Sakai's paired (studentised) and unpaired tests, and the shift test.

Paired studentised bootstrap test (seed 001, Sakai, §4.2, Fig. 11–12; Efron & Tibshirani,
1993, Alg. 16.2)
    z = x − y, w = z − mean(z) (the data shifted to obey H0). Each bootstrap sample w*
    draws n topics of w with replacement (Fig. 11). The statistic is the studentised mean
    t(z) = mean(z) / (σ̄ / sqrt(n)), σ̄² = Σ (z_i − mean(z))² / (n − 1) (eq. 48–49); the
    p-value counts |t(w*)| ≥ |t(z)| (Fig. 12; one-sided: t(w*) ≥ t(z) or ≤).
Bootstrap-shift test (Smucker, Allan & Carterette, 2007; Efron & Tibshirani, 1993, §16.4)
    The same resampling of w, with the plain mean as statistic: counts
    |mean(w*)| ≥ |mean(z)| — the bootstrap distribution of the mean shifted to mean zero.
Unpaired bootstrap test (seed 001, §4.3, Fig. 13–14)
    v = (x_1..x_n, y_1..y_m); each sample draws n + m values of v with replacement, the
    first n forming x*, the last m forming y* (Fig. 13); the p-value counts
    |M(x*) − M(y*)| ≥ |M(x) − M(y)| with M the mean (Fig. 14).

The seed's algorithms report ASL = count/B (``convention="proportion"``); the default
here is (count + 1)/(B + 1) with its Monte Carlo standard error (see
:mod:`irscale.stats._resampling`). Vectorised: a chunk of 1,024 bootstrap samples is a
(chunk × n) matrix C of draw counts, and C @ w, C @ w² give the means and variances of
all samples for all compared pairs at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ._data import TIE_RTOL
from ._resampling import (
    ProgressArg,
    check_resampling,
    chunk_sizes,
    exceedances,
    map_chunks,
    mc_pvalue,
    seed_sequence,
)
from ._twosample import Outcome, TestSpec, run_test, studentise
from .results import TestResult

#: Bootstrap samples per chunk (fixed: results do not depend on memory or workers).
CHUNK = 1024
#: Pairs per block inside a chunk.
BLOCK = 8192

_OPTIONS = ("samples", "seed", "rng", "convention", "workers", "progress")


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


def _run(
    make_statistics: Callable[[np.random.Generator, int], Callable[[slice], np.ndarray]],
    observed: np.ndarray, tol: np.ndarray, *, alternative: str, samples: int, seed: object,
    rng: np.random.Generator | None, convention: str, workers: int, progress: ProgressArg,
) -> tuple[np.ndarray, np.ndarray]:
    """Count exceedances over ``samples`` bootstrap samples; p-values and MC errors.

    ``make_statistics(generator, size)`` draws one chunk of samples and returns a function
    giving their statistics (size × pairs in the block) for a block of pairs.
    """
    check_resampling(alternative, samples, convention)

    def work(_: int, gen: np.random.Generator, size: int) -> np.ndarray:
        statistics_of = make_statistics(gen, size)
        out = np.zeros(observed.shape[0], dtype=np.int64)
        for start in range(0, observed.shape[0], BLOCK):
            part = slice(start, start + BLOCK)
            out[part] = exceedances(statistics_of(part), observed[part], alternative, tol[part])
        return out

    hits = sum(map_chunks(work, chunk_sizes(samples, CHUNK), seed_sequence(seed, rng),
                          workers=workers, progress=progress))
    return mc_pvalue(hits, samples, convention)


def _centred_draws(w: np.ndarray, statistic: Callable[[np.ndarray, np.ndarray], np.ndarray]):
    n = w.shape[0]

    def make(gen: np.random.Generator, size: int) -> Callable[[slice], np.ndarray]:
        counts = resample_counts(gen.integers(0, n, size=(size, n)), n)
        return lambda part: statistic(counts, w[:, part])

    return make


def paired_bootstrap_kernel(
    x: np.ndarray, y: np.ndarray, *, alternative: str, samples: int = 1000,
    seed: object = None, rng: np.random.Generator | None = None,
    convention: str = "plus-one", workers: int = 1, progress: ProgressArg = False,
) -> Outcome:
    z = x - y
    n = z.shape[0]
    w = z - z.mean(axis=0)
    observed = studentise(z.mean(axis=0), z.std(axis=0, ddof=1) / np.sqrt(n))
    tol = TIE_RTOL * np.where(np.isfinite(observed), np.abs(observed), 0.0)
    p, se = _run(_centred_draws(w, studentised_means), observed, tol, alternative=alternative,
                 samples=samples, seed=seed, rng=rng, convention=convention, workers=workers,
                 progress=progress)
    p = np.where(np.isnan(observed), 1.0, p)
    return Outcome(statistic=observed, pvalue=p, mc_se=se, samples=samples,
                   convention=convention, method=f"studentised, {samples} bootstrap samples")


def bootstrap_shift_kernel(
    x: np.ndarray, y: np.ndarray, *, alternative: str, samples: int = 1000,
    seed: object = None, rng: np.random.Generator | None = None,
    convention: str = "plus-one", workers: int = 1, progress: ProgressArg = False,
) -> Outcome:
    z = x - y
    n = z.shape[0]
    observed = z.mean(axis=0)
    tol = TIE_RTOL * np.abs(z).mean(axis=0)
    p, se = _run(_centred_draws(z - observed, lambda counts, w: counts @ w / n), observed,
                 tol, alternative=alternative, samples=samples, seed=seed, rng=rng,
                 convention=convention, workers=workers, progress=progress)
    return Outcome(statistic=observed, pvalue=p, mc_se=se, samples=samples,
                   convention=convention, method=f"shifted mean, {samples} bootstrap samples")


def unpaired_means(draws: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """M(x*) − M(y*) per sample: the first ``n`` draws of each row form x*, the rest y*."""
    size = v.shape[0]
    m = draws.shape[1] - n
    return (resample_counts(draws[:, :n], size) @ v / n
            - resample_counts(draws[:, n:], size) @ v / m)


def unpaired_bootstrap_kernel(
    x: np.ndarray, y: np.ndarray, *, alternative: str, samples: int = 1000,
    seed: object = None, rng: np.random.Generator | None = None,
    convention: str = "plus-one", workers: int = 1, progress: ProgressArg = False,
) -> Outcome:
    n, m = x.shape[0], y.shape[0]
    v = np.concatenate([x, y], axis=0)
    observed = x.mean(axis=0) - y.mean(axis=0)
    tol = TIE_RTOL * np.abs(v).max(axis=0)

    def make(gen: np.random.Generator, size: int) -> Callable[[slice], np.ndarray]:
        draws = gen.integers(0, n + m, size=(size, n + m))
        return lambda part: unpaired_means(draws, v[:, part], n)

    p, se = _run(make, observed, tol, alternative=alternative, samples=samples, seed=seed,
                 rng=rng, convention=convention, workers=workers, progress=progress)
    return Outcome(statistic=observed, pvalue=p, mc_se=se, samples=samples,
                   convention=convention, method=f"pooled resampling, {samples} samples")


PAIRED_BOOTSTRAP = TestSpec(
    "bootstrap", "paired bootstrap test (studentised)", True, "paired",
    paired_bootstrap_kernel, _OPTIONS, resampling=True,
)
BOOTSTRAP_SHIFT = TestSpec(
    "bootstrap-shift", "bootstrap-shift test", True, "paired", bootstrap_shift_kernel,
    _OPTIONS, resampling=True,
)
UNPAIRED_BOOTSTRAP = TestSpec(
    "unpaired-bootstrap", "unpaired bootstrap test", False, "welch",
    unpaired_bootstrap_kernel, _OPTIONS, resampling=True,
)


def paired_bootstrap_test(
    x: object, y: object = None, *, systems: Sequence[str] | None = None,
    measure: str | None = None, alternative: str = "two-sided", alpha: float = 0.05,
    samples: int = 1000, seed: object = None, rng: np.random.Generator | None = None,
    convention: str = "plus-one", workers: int = 1, progress: ProgressArg = False,
) -> TestResult:
    """Sakai's paired studentised bootstrap test (seed 001, Fig. 11–12); see the module."""
    return run_test(PAIRED_BOOTSTRAP, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, samples=samples, seed=seed, rng=rng,
                    convention=convention, workers=workers, progress=progress)


def bootstrap_shift_test(
    x: object, y: object = None, *, systems: Sequence[str] | None = None,
    measure: str | None = None, alternative: str = "two-sided", alpha: float = 0.05,
    samples: int = 1000, seed: object = None, rng: np.random.Generator | None = None,
    convention: str = "plus-one", workers: int = 1, progress: ProgressArg = False,
) -> TestResult:
    """Bootstrap-shift test of mean(x − y) = 0 (Smucker et al., 2007); see the module."""
    return run_test(BOOTSTRAP_SHIFT, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, samples=samples, seed=seed, rng=rng,
                    convention=convention, workers=workers, progress=progress)


def unpaired_bootstrap_test(
    x: object, y: object = None, *, systems: Sequence[str] | None = None,
    measure: str | None = None, alternative: str = "two-sided", alpha: float = 0.05,
    samples: int = 1000, seed: object = None, rng: np.random.Generator | None = None,
    convention: str = "plus-one", workers: int = 1, progress: ProgressArg = False,
) -> TestResult:
    """Sakai's unpaired bootstrap test (seed 001, Fig. 13–14); see the module docstring."""
    return run_test(UNPAIRED_BOOTSTRAP, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, samples=samples, seed=seed, rng=rng,
                    convention=convention, workers=workers, progress=progress)
