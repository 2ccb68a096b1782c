"""Shared machinery of the Monte Carlo tests: random streams, chunks, workers, p-values.

Reproducibility
    Every resampling routine takes ``seed`` (anything :class:`numpy.random.SeedSequence`
    accepts) or ``rng`` (a :class:`numpy.random.Generator`, from which one seed is drawn).
    The ``B`` samples are cut into chunks of a size fixed by the method and the data shape
    (never by the number of workers); chunk ``c`` draws from its own stream, child ``c`` of
    the seed sequence. Results are therefore identical for a seed whatever ``workers``.

p-values
    With ``c`` the number of resampled statistics at least as extreme as the observed one
    (ties decided with :data:`~irscale.stats._data.TIE_RTOL`), the default convention is
    ``"plus-one"``, p = (c + 1)/(B + 1), which counts the observed arrangement as one of
    the samples and never returns 0 (Phipson & Smyth, 2010). ``"proportion"`` gives c/B,
    the Achieved Significance Level of seed 001 (Sakai), Fig. 12, 14 and 15. The Monte
    Carlo standard error sqrt(p (1 − p)/B) is reported with every estimated p-value.
"""

from __future__ import annotations

import numbers
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Literal, TypeVar

import numpy as np
from threadpoolctl import threadpool_limits

from ..errors import ParameterError
from ._data import check_alternative, check_choice, check_count

#: Largest number of Monte Carlo samples accepted (B): beyond, the run could not finish.
MAX_SAMPLES = 1_000_000_000

Convention = Literal["plus-one", "proportion"]
CONVENTIONS: tuple[str, ...] = ("plus-one", "proportion")
ProgressArg = bool | Callable[[int, int], None]

T = TypeVar("T")


def check_seed(seed: object, name: str = "seed") -> object:
    """``seed`` if numpy's :class:`~numpy.random.SeedSequence` accepts it: ``None``, a
    non-negative integer (any size), a sequence of them or a ``SeedSequence``."""
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return seed
    message = f"{name} must be a non-negative integer, got {seed!r}"
    if isinstance(seed, (bool, np.bool_)):
        raise ParameterError(message)
    if isinstance(seed, numbers.Integral):
        if seed < 0:
            raise ParameterError(message)
        return int(seed)
    if isinstance(seed, (list, tuple, np.ndarray)):
        items = list(np.asarray(seed, dtype=object).ravel()) if isinstance(seed, np.ndarray) \
            else list(seed)
        if items and all(isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))
                         and v >= 0 for v in items):
            return [int(v) for v in items]
        raise ParameterError(f"{name} must be a non-negative integer or a non-empty sequence "
                             f"of them, got {seed!r}")
    raise ParameterError(message)


def seed_sequence(
    seed: int | Sequence[int] | np.random.SeedSequence | None = None,
    rng: np.random.Generator | None = None,
) -> np.random.SeedSequence:
    """The seed sequence of a resampling run (from ``seed``, from ``rng``, or fresh)."""
    if seed is not None and rng is not None:
        raise ParameterError("give either seed or rng, not both")
    if rng is not None:
        if not isinstance(rng, np.random.Generator):
            raise ParameterError(f"rng must be a numpy Generator, got {type(rng).__name__}")
        return np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist())
    if isinstance(seed, np.random.SeedSequence):
        return seed
    return np.random.SeedSequence(check_seed(seed))


def chunk_sizes(total: int, chunk: int) -> list[int]:
    """``total`` cut into chunks of ``chunk`` (the last one shorter)."""
    full, rest = divmod(total, chunk)
    return [chunk] * full + ([rest] if rest else [])


def map_chunks(
    work: Callable[[int, np.random.Generator, int], T],
    sizes: Sequence[int],
    seeds: np.random.SeedSequence,
    *,
    workers: int | None = None,
    progress: ProgressArg = False,
) -> list[T]:
    """``work(index, generator, size)`` for every chunk, in chunk order.

    Chunk ``i`` always receives child ``i`` of ``seeds``, so the output does not depend on
    ``workers`` (threads: numpy releases the GIL in its heavy kernels; ``None`` = one per
    CPU core). Parallelism is ours alone: the BLAS library runs single-threaded meanwhile,
    since its own threads only slow down the thin matrix products of resampling (inner
    dimension = the number of topics).
    """
    workers = (os.cpu_count() or 1) if workers is None else check_count(workers, "workers")
    with threadpool_limits(limits=1, user_api="blas"):
        return _run_chunks(work, sizes, seeds, workers, progress)


def _run_chunks(
    work: Callable[[int, np.random.Generator, int], T],
    sizes: Sequence[int],
    seeds: np.random.SeedSequence,
    workers: int,
    progress: ProgressArg,
) -> list[T]:
    generators = [np.random.Generator(np.random.PCG64(s)) for s in seeds.spawn(len(sizes))]
    report = _progress(progress, sum(sizes))
    done = 0
    results: list[T] = []
    if workers == 1 or len(sizes) == 1:
        for i, (gen, size) in enumerate(zip(generators, sizes, strict=True)):
            results.append(work(i, gen, size))
            done += size
            report(done)
        return results
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [
            pool.submit(work, i, gen, size)
            for i, (gen, size) in enumerate(zip(generators, sizes, strict=True))
        ]
        for future, size in zip(futures, sizes, strict=True):
            results.append(future.result())
            done += size
            report(done)
    except BaseException:
        # ^C or a failed chunk: drop the queued chunks instead of computing them all
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def _progress(progress: ProgressArg, total: int) -> Callable[[int], None]:
    if callable(progress):
        return lambda done: progress(done, total)
    if not progress:
        return lambda done: None

    def show(done: int) -> None:
        end = "\n" if done >= total else ""
        print(f"\rresampling: {done}/{total}", end=end, file=sys.stderr, flush=True)

    return show


def exceedances(
    samples: np.ndarray, observed: np.ndarray, alternative: str, tol: np.ndarray | float
) -> np.ndarray:
    """Per column, how many rows of ``samples`` are at least as extreme as ``observed``.

    ``two-sided``: |s| ≥ |o|; ``greater``: s ≥ o; ``less``: s ≤ o; each up to ``tol``.
    """
    if alternative == "two-sided":
        hits = np.abs(samples) >= np.abs(observed) - tol
    elif alternative == "greater":
        hits = samples >= observed - tol
    else:
        hits = samples <= observed + tol
    return np.count_nonzero(hits, axis=0)


def mc_pvalue(
    count: np.ndarray, samples: int, convention: str
) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo p-value and its standard error sqrt(p (1 − p)/B) for ``count`` hits."""
    count = np.asarray(count, dtype=np.float64)
    if convention == "plus-one":
        p = (count + 1.0) / (samples + 1.0)
    else:
        p = count / samples
    return p, np.sqrt(p * (1.0 - p) / samples)


def check_resampling(alternative: str, samples: int, convention: str,
                     workers: int | None = None) -> None:
    """Validate the options every Monte Carlo routine shares (before any work)."""
    check_alternative(alternative)
    check_count(samples, "samples", 1, MAX_SAMPLES)
    check_choice(convention, CONVENTIONS, "convention")
    if workers is not None:
        check_count(workers, "workers")
