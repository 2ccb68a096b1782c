"""Paired randomisation (sign-flip, permutation) test (Fisher, 1935; Smucker et al., 2007).

Under H0 the two systems' scores on a topic are exchangeable, so each difference
d_i = x_i − y_i is as likely to have either sign. The statistic is the mean difference
mean(d) (reported); its null distribution is that of mean(s_i d_i) over sign vectors
s ∈ {−1, +1}^n. With ``exact="auto"`` all 2^n sign vectors are enumerated when
2^n ≤ ``samples`` (exact p = #{|mean(s d)| ≥ |mean(d)|} / 2^n); otherwise ``samples``
random sign vectors give a Monte Carlo p-value (convention and standard error as in
:mod:`irscale.stats.resampling`). Randomness: ``rng`` (an integer seed, a
:class:`numpy.random.Generator` or ``None``); progress:
``progress`` (a bool, or a callable ``progress(done, total)``).

Vectorised: for each chunk of 1,024 sign vectors, the (chunk × n) sign matrix multiplies
the (n × k) matrix of differences of all k compared pairs at once — the same sign matrix
for every pair, so a pair's p-value does not depend on which other pairs are tested.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from ..core.progress import ProgressArg, check_progress
from ..errors import ParameterError
from ..parallel import ExecutorArg, check_workers
from ._twosample import Outcome, TestSpec, run_test
from .params import RESAMPLING_TEST
from .resampling import Convention, RngArg, by_blocks, exceedances, monte_carlo_pvalues
from .results import TestResult
from .validation import TIE_RTOL, Alternative

#: Sign vectors per chunk (fixed: results do not depend on memory or workers).
CHUNK = 1024
#: Pairs per block inside a chunk: a CHUNK × BLOCK matrix of sums (2 MB) stays in the
#: processor's cache while it is compared (docs/benchmarks.md, "Timings moved out of the
#: source").
BLOCK = 256
#: Largest n for exact enumeration.
MAX_EXACT_TOPICS = 24


def _count_block(signs: np.ndarray, d: np.ndarray, observed: np.ndarray,
                 alternative: Alternative, tol: np.ndarray) -> np.ndarray:
    """Per pair, the sign vectors (rows of ``signs``) whose sum is as extreme as observed."""
    return by_blocks(d.shape[1], BLOCK, lambda part: exceedances(
        signs @ d[:, part], observed[part], alternative, tol[part]))


def _random_signs_chunk(d: np.ndarray, observed: np.ndarray, alternative: Alternative,
                        tol: np.ndarray, gen: np.random.Generator, size: int) -> np.ndarray:
    """Per pair, the ``size`` random sign vectors whose sum is as extreme as observed."""
    signs = 1.0 - 2.0 * gen.integers(0, 2, size=(size, d.shape[0]), dtype=np.int8)
    return _count_block(signs, d, observed, alternative, tol)


def _enumerated_signs(start: int, size: int, n: int) -> np.ndarray:
    codes = np.arange(start, start + size, dtype=np.int64)[:, None]
    bits = (codes >> np.arange(n, dtype=np.int64)[None, :]) & 1
    return 1.0 - 2.0 * bits


@RESAMPLING_TEST
def randomization_kernel(
    x: np.ndarray,
    y: np.ndarray,
    *,
    alternative: Alternative,
    samples: int = 10_000,
    exact: bool | Literal["auto"] = "auto",
    rng: RngArg = None,
    convention: Convention = "plus-one",
    workers: int | None = None,
    progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> Outcome:
    check_workers(workers, executor)  # (the rest bound: RESAMPLING_TEST)
    check_progress(progress)
    d = x - y
    n = d.shape[0]
    observed = d.sum(axis=0)
    tol = TIE_RTOL * np.abs(d).sum(axis=0)
    if exact == "auto":
        exact = n <= MAX_EXACT_TOPICS and 2**n <= samples
    elif not isinstance(exact, bool):
        raise ParameterError(f"exact must be True, False or 'auto', got {exact!r}")
    statistic = observed / n
    if exact:
        if n > MAX_EXACT_TOPICS:
            raise ParameterError(
                f"exact enumeration of 2^{n} sign vectors is too large "
                f"(at most 2^{MAX_EXACT_TOPICS}); use exact=False"
            )
        total = 2**n
        starts = list(range(0, total, CHUNK))
        counts = sum(
            _count_block(_enumerated_signs(s, min(CHUNK, total - s), n), d, observed,
                         alternative, tol)
            for s in starts
        )
        p = np.asarray(counts, dtype=np.float64) / total
        return Outcome(statistic=statistic, pvalue=np.clip(p, 0, 1), samples=total,
                       mc_se=np.zeros_like(p), convention="exact",
                       method=f"exact enumeration of 2^{n} sign vectors")
    p, se = monte_carlo_pvalues(_random_signs_chunk, (d, observed, alternative, tol),
                                d.shape[1], samples=samples, chunk=CHUNK, rng=rng,
                                convention=convention, workers=workers, executor=executor,
                                progress=progress)
    return Outcome(statistic=statistic, pvalue=p, mc_se=se, samples=samples,
                   convention=convention, method=f"Monte Carlo, {samples} sign vectors")


RANDOMIZATION = TestSpec(
    "randomization", "paired randomisation test", True, "paired", randomization_kernel,
    ("samples", "exact", "rng", "convention", "workers", "progress",
     "executor"), resampling=True,
)


def randomization_test(
    x: object,
    y: object = None,
    *,
    systems: Sequence[str] | None = None,
    measure: str | None = None,
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
    samples: int = 10_000,
    exact: bool | Literal["auto"] = "auto",
    rng: RngArg = None,
    convention: Convention = "plus-one",
    workers: int | None = None,
    progress: ProgressArg = False,
    executor: ExecutorArg = "local",
) -> TestResult:
    """Paired randomisation (sign-flip) test of mean(x − y) = 0 (see the module docstring)."""
    return run_test(RANDOMIZATION, x, y, systems=systems, measure=measure,
                    alternative=alternative, alpha=alpha, samples=samples, exact=exact,
                    rng=rng, convention=convention, workers=workers,
                    progress=progress, executor=executor)
