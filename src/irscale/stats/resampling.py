"""Shared machinery of the Monte Carlo tests: random streams, chunks, workers, p-values.

Reproducibility
    Every resampling routine takes one ``rng`` argument: ``None`` (fresh entropy), a
    non-negative integer seed (or a sequence of them, or a
    :class:`numpy.random.SeedSequence`: anything ``SeedSequence`` accepts), or a
    :class:`numpy.random.Generator`, from which one seed is drawn. The ``B`` samples are
    cut into chunks of a size fixed by the method and the data shape
    (never by the number of workers); chunk ``c`` draws from its own stream, child ``c`` of
    the seed sequence (:class:`ChunkTasks`; a ``SeedSequence`` given is not advanced).
    Results are therefore identical for a seed whatever ``workers``.

p-values
    With ``c`` the number of resampled statistics at least as extreme as the observed one
    (ties decided with :data:`~irscale.stats.validation.TIE_RTOL`), the default convention is
    ``"plus-one"``, p = (c + 1)/(B + 1), which counts the observed arrangement as one of
    the samples and never returns 0 (Phipson & Smyth, 2010). ``"proportion"`` gives c/B,
    the Achieved Significance Level of Sakai (2014), Fig. 12, 14 and 15. The Monte
    Carlo standard error sqrt(p (1 − p)/B) is reported with every estimated p-value.

Progress
    Every resampling routine takes ``progress``: ``False`` (default), ``True`` (a bar on
    standard error) or a callable ``progress(done, total)`` called as the work advances
    (``done`` reaches ``total`` at the end): :mod:`irscale.core.progress`, the one
    mechanism of every long computation.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from functools import partial
from typing import Annotated, Any, Literal, TypeVar

import numpy as np

from ..core.checked import Checked
from ..core.params import MAX_SAMPLES as MAX_SAMPLES
from ..core.params import RESAMPLES, SEED
from ..core.progress import ProgressArg, check_progress, check_stop, progress_reporter
from ..errors import ParameterError, shown
from ..parallel import ExecutorArg, check_workers, is_local, run_tasks
from .validation import Alternative, check_count

Convention = Literal["plus-one", "proportion"]
CONVENTIONS: tuple[str, ...] = ("plus-one", "proportion")
#: A seed as :func:`check_seed` returns it.
SeedArg = int | list[int] | np.random.SeedSequence | None

T = TypeVar("T")


def check_seed(seed: object, name: str = "seed") -> SeedArg:
    """``seed`` if numpy's :class:`~numpy.random.SeedSequence` accepts it: ``None``, a
    non-negative integer (any size), a sequence of them or a ``SeedSequence``."""
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return seed
    if not isinstance(seed, (list, tuple, np.ndarray)):
        return SEED.check(seed, name)
    items = list(np.asarray(seed, dtype=object).ravel()) if isinstance(seed, np.ndarray) \
        else list(seed)
    if items and all(not isinstance(v, (bool, np.bool_)) and isinstance(v, numbers.Integral)
                     and int(v) >= 0 for v in items):
        return [int(v) for v in items]
    raise ParameterError(f"{name} must be {SEED.text()} or a non-empty sequence of them, "
                         f"got {shown(seed)}")


def check_rng(rng: object, name: str = "rng") -> RngArg:
    """``rng`` if it is ``None``, a :class:`numpy.random.Generator`, or a seed
    :func:`check_seed` accepts (a non-negative integer, a sequence of them, a
    :class:`numpy.random.SeedSequence`); :class:`~irscale.errors.ParameterError` otherwise."""
    if rng is None or isinstance(rng, (np.random.Generator, np.random.SeedSequence)):
        return rng
    if isinstance(rng, (bool, np.bool_)) or not isinstance(
            rng, (numbers.Integral, list, tuple, np.ndarray)):
        raise ParameterError(f"{name} must be None, a non-negative integer seed or a "
                             f"numpy.random.Generator, got {rng!r}")
    return check_seed(rng, name)


#: What ``rng=`` accepts (see the module documentation), judged on entry by
#: :func:`check_rng`.
RngArg = Annotated[int | Sequence[int] | np.random.SeedSequence | np.random.Generator | None,
                   Checked(check_rng, named=True)]


def rng_options(options: dict[str, object]) -> dict[str, object]:
    """``options`` of a resampling routine with ``rng`` checked (:func:`check_rng`); other
    options unchanged."""
    if "rng" not in options:
        return options
    return {**options, "rng": check_rng(options["rng"])}


def seed_sequence(
    seed: int | Sequence[int] | np.random.SeedSequence | None = None,
    rng: RngArg = None,
) -> np.random.SeedSequence:
    """The seed sequence of a resampling run: from ``rng`` (a seed, a
    :class:`~numpy.random.SeedSequence`, or a Generator from which one seed is drawn),
    from ``seed`` (the same values), or fresh."""
    if seed is not None and rng is not None:
        raise ParameterError("give either seed or rng, not both")
    if rng is None:
        checked = check_seed(seed)
        if isinstance(checked, np.random.SeedSequence):
            return checked
        return np.random.SeedSequence(checked)
    rng = check_rng(rng)
    if isinstance(rng, np.random.Generator):
        return np.random.SeedSequence(rng.integers(0, 2**63, size=4).tolist())
    if isinstance(rng, np.random.SeedSequence):
        return rng
    return np.random.SeedSequence(rng)


def fresh_seed_sequence(seeds: np.random.SeedSequence) -> np.random.SeedSequence:
    """A copy of ``seeds`` that has spawned no child yet: every copy spawns the same
    children (common random numbers for several runs from one seed)."""
    return np.random.SeedSequence(seeds.entropy, spawn_key=seeds.spawn_key,
                                  pool_size=seeds.pool_size)


def chunk_sizes(total: int, chunk: int) -> list[int]:
    """``total`` cut into chunks of ``chunk`` (the last one shorter)."""
    full, rest = divmod(total, chunk)
    return [chunk] * full + ([rest] if rest else [])


class ChunkTasks(Sequence[tuple[np.random.SeedSequence, int]]):
    """Task ``c`` of a resampling run: ``(child c of seeds, size of chunk c)``, the child
    built when the task is submitted — ``SeedSequence(entropy, spawn_key=(*key, k + c))``
    with k the children ``seeds`` had already spawned, the sequence ``seeds.spawn`` would
    return. Spawning them all up front would hold every child at once (10^9 samples are
    976,563 chunks). ``seeds`` is left as it was, so a
    :class:`~numpy.random.SeedSequence` given twice gives the same results, as a seed does.
    """

    def __init__(self, seeds: np.random.SeedSequence, sizes: Sequence[int]) -> None:
        self._entropy, self._key = seeds.entropy, tuple(seeds.spawn_key)
        self._pool_size, self._first = seeds.pool_size, seeds.n_children_spawned
        self._sizes = sizes

    def __len__(self) -> int:
        return len(self._sizes)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        child = np.random.SeedSequence(self._entropy, spawn_key=(*self._key, self._first + index),
                                       pool_size=self._pool_size)
        return child, self._sizes[index]


def _chunk(work: Callable[..., T], *args: Any) -> T:
    """One chunk: ``work(*shared, generator, size)`` from ``(*shared, seed, size)``."""
    *shared, seed, size = args
    return work(*shared, np.random.Generator(np.random.PCG64(seed)), size)


def run_chunks(
    work: Callable[..., T],
    sizes: Sequence[int],
    seeds: np.random.SeedSequence,
    on_result: Callable[[int, T], None],
    *,
    shared: tuple[Any, ...] = (),
    workers: int | None = None,
    executor: ExecutorArg = "local",
    progress: ProgressArg = False,
) -> None:
    """``work(*shared, generator, size)`` for every chunk; ``on_result(index, result)`` in
    chunk order.

    Chunk ``i`` always receives child ``i`` of ``seeds``, so the output depends neither
    on ``workers`` nor on ``executor`` (:mod:`irscale.parallel`: ``"local"`` threads —
    numpy releases the GIL in its heavy kernels; ``None`` workers = one per CPU core — or
    a Dask cluster, ``work`` being a module-level function and ``shared`` its large
    arguments, sent once to every worker). Parallelism is ours alone: the BLAS library
    runs single-threaded meanwhile, since its own threads only slow down the thin matrix
    products of resampling (inner dimension = the number of topics).
    """
    if workers is not None:
        workers = check_count(workers, "workers")
    check_workers(workers, executor)
    tasks = ChunkTasks(seeds, sizes)
    # the rest timed on the first chunk and stated when long (a caller's callable, a share
    # of a longer run, states its own)
    report = progress_reporter(progress, sum(sizes), units=RESAMPLES,
                               elsewhere=not is_local(executor))
    finished = 0

    def done(index: int) -> None:
        nonlocal finished
        finished += sizes[index]
        report(finished)

    if is_local(executor):  # threadpoolctl imported by the loops that resample only
        from threadpoolctl import threadpool_limits

        limits: Any = threadpool_limits(limits=1, user_api="blas")
    else:
        limits = nullcontext()
    with limits:
        run_tasks(partial(_chunk, work), tasks, on_result, shared=shared, executor=executor,
                  workers=workers, done=done)


def map_chunks(
    work: Callable[..., T],
    sizes: Sequence[int],
    seeds: np.random.SeedSequence,
    *,
    shared: tuple[Any, ...] = (),
    workers: int | None = None,
    executor: ExecutorArg = "local",
    progress: ProgressArg = False,
) -> list[T]:
    """The results of :func:`run_chunks`, in chunk order."""
    results: list[T] = []
    run_chunks(work, sizes, seeds, lambda _, result: results.append(result), shared=shared,
               workers=workers, executor=executor, progress=progress)
    return results


def monte_carlo_pvalues(
    work: Callable[..., np.ndarray], shared: tuple[Any, ...], pairs: int, *, samples: int,
    chunk: int, rng: RngArg, convention: str, workers: int | None, executor: ExecutorArg,
    progress: ProgressArg,
) -> tuple[np.ndarray, np.ndarray]:
    """The Monte Carlo p-values of ``pairs`` compared pairs and their standard errors
    (:func:`mc_pvalue`), over ``samples`` samples drawn in chunks of ``chunk``
    (:func:`run_chunks`): ``work(*shared, generator, size)`` (a module-level function, so
    that a Dask worker can run it) draws one chunk and counts, per pair, the samples as
    extreme as observed (:func:`exceedances`)."""
    check_progress(progress)  # (workers: run_chunks)
    hits = np.zeros(pairs, dtype=np.int64)

    def add(_: int, counts: np.ndarray) -> None:
        hits[:] += counts

    run_chunks(work, chunk_sizes(samples, chunk), seed_sequence(rng=rng), add, shared=shared,
               workers=workers, executor=executor, progress=progress)
    return mc_pvalue(hits, samples, convention)


def by_blocks(pairs: int, block: int, count_of: Callable[[slice], np.ndarray]) -> np.ndarray:
    """``count_of(part)`` for ``pairs`` pairs in blocks of ``block`` (a chunk's samples ×
    block temporaries stay small), as one array; a chunk given up stops between blocks
    (:func:`irscale.core.progress.check_stop`)."""
    out = np.zeros(pairs, dtype=np.int64)
    for start in range(0, pairs, block):
        check_stop()
        part = slice(start, start + block)
        out[part] = count_of(part)
    return out


def exceedances(
    samples: np.ndarray, observed: np.ndarray, alternative: Alternative, tol: np.ndarray | float
) -> np.ndarray:
    """Per column, how many rows of ``samples`` are at least as extreme as ``observed``.

    ``two-sided``: |s| ≥ |o|; ``greater``: s ≥ o; ``less``: s ≤ o; each up to ``tol``.
    ``samples`` is a temporary of the caller's, overwritten here: no second matrix of its
    size is made beside it.
    """
    if alternative == "two-sided":
        hits = np.abs(samples, out=samples) >= np.abs(observed) - tol
    elif alternative == "greater":
        hits = samples >= observed - tol
    else:
        hits = samples <= observed + tol
    return np.count_nonzero(hits, axis=0)


def mc_pvalue(
    count: np.ndarray | int, samples: int, convention: str
) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo p-value and its standard error sqrt(p (1 − p)/B) for ``count`` hits
    (an array, or a plain ``sum`` of chunk arrays as Python types it)."""
    count = np.asarray(count, dtype=np.float64)
    if convention == "plus-one":
        p = (count + 1.0) / (samples + 1.0)
    else:
        p = count / samples
    return p, np.sqrt(p * (1.0 - p) / samples)
