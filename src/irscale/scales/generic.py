"""Images by enumeration: the reference (brute force) and the fallback for any measure.

:class:`EnumeratedImage` enumerates the space in shards of :data:`SHARD_RUNS` runs (chunks
of :data:`CHUNK_RUNS`), scores each chunk with the measure's registered kernel, and merges
each shard's distinct floats (with run counts) into a running sorted array; memory grows
with the number of distinct floats, never with the number of runs. The shards are
independent tasks of an executor (:mod:`irscale.parallel`: here one after the other, or on
a Dask cluster) whose partial distinct-value sets merge exactly (equal floats, summed
integer counts), so the image does not depend on where they ran. At the end, consecutive
values closer than ``tol · max(1, |v|)`` (:data:`~irscale.scales.image.TOLERANCE`) form one
value: ties are decided with that documented tolerance, which is how any measure without
an exact algorithm (ERR, Q, ...) gets a scale.

:func:`naive_image` is the straightforward baseline of the benchmark: materialise every
run of ``REL^N`` at once, score them all, ``numpy.unique`` the values rounded to 12 digits.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..core.progress import Progress
from ..parallel import ExecutorArg, is_local, run_tasks
from .enumeration import CHUNK_RUNS, iter_runs, runs_from_index
from .image import TOLERANCE, Image
from .measures import ScaleMeasure
from .space import Context, Space

#: Distinct floats kept in memory by the streaming enumeration (8 bytes + 8 bytes each).
DISTINCT_BUDGET = 1 << 27
#: Runs per shard (one task of an executor; any multiple of CHUNK_RUNS gives the same image).
SHARD_RUNS = 8 * CHUNK_RUNS


def _merge(values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct floats of ``values`` with summed ``counts``."""
    order = np.argsort(values, kind="stable")
    values, counts = values[order], counts[order]
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    return values[starts], np.add.reduceat(counts, starts)


def cluster(values: np.ndarray, counts: np.ndarray, tol: float
            ) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct floats merged into values: a gap ≤ ``tol·max(1, |v|)`` joins two
    consecutive floats (the first float of a cluster stands for it)."""
    if len(values) == 0:
        return values, counts
    gap = np.diff(values)
    scale = np.maximum(1.0, np.abs(values[1:]))
    starts = np.flatnonzero(np.concatenate(([True], gap > tol * scale)))
    return values[starts], np.add.reduceat(counts, starts)


def shard_values(measure: ScaleMeasure, space: Space, context: Context, start: int,
                 stop: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct floats of ``measure`` on the runs numbered ``start`` to ``stop`` − 1 of
    ``space``, sorted, with their run counts."""
    parts = [_merge(values, np.ones(len(values), dtype=np.int64)) for values in
             (measure.kernel_values(degrees, context)
              for degrees in iter_runs(space, CHUNK_RUNS, start, stop))]
    if len(parts) == 1:
        return parts[0]
    return _merge(np.concatenate([v for v, _ in parts]), np.concatenate([c for _, c in parts]))


class EnumeratedImage(Image):
    """The image of any measure by chunked enumeration (module documentation)."""

    algorithm = "chunked enumeration"

    def __init__(self, measure: ScaleMeasure, space: Space, context: Context, *,
                 tol: float = TOLERANCE, progress: bool = True,
                 executor: ExecutorArg = "local") -> None:
        self.measure, self.space, self.context, self.tol = measure, space, context, tol
        self.exactness = f"tolerance {tol:g}"
        total = space.levels**space.N
        if total >= 1 << 62:
            raise OverflowError(f"cannot enumerate {space.label()}: {total} runs")
        shards = [(start, min(start + SHARD_RUNS, total))
                  for start in range(0, total, SHARD_RUNS)]
        bar = Progress(len(shards), f"enumerate {measure.label} N={space.N}",
                       enabled=progress)
        # sorted runs of distinct values, merged like a binary counter: a run is merged
        # into the one before when it is at least as large, so every value takes part in
        # O(log shards) merges (merging each shard into one running array was quadratic)
        stack: list[tuple[np.ndarray, np.ndarray]] = []

        def add(_: int, shard: tuple[np.ndarray, np.ndarray]) -> None:
            stack.append(shard)
            while len(stack) > 1 and len(stack[-1][0]) >= len(stack[-2][0]) // 2:
                (v2, c2), (v1, c1) = stack.pop(), stack.pop()
                stack.append(_merge(np.concatenate([v1, v2]), np.concatenate([c1, c2])))
            if sum(len(v) for v, _ in stack) > DISTINCT_BUDGET:
                raise MemoryError(f"more than {DISTINCT_BUDGET} distinct values: "
                                  f"{measure.label} on {space.label()} is too large to enumerate")

        run_tasks(shard_values, shards, add, shared=(measure, space, context),
                  executor=executor, workers=1 if is_local(executor) else None,
                  done=lambda _: bar.update(1))
        bar.close()
        values = np.concatenate([v for v, _ in stack]) if stack else np.zeros(0)
        counts = np.concatenate([c for _, c in stack]) if stack else np.zeros(0, np.int64)
        values, counts = _merge(values, counts)
        self._values, self._counts = cluster(values, counts, tol)
        self._cum = np.concatenate(([0], np.cumsum(self._counts)))

    @property
    def n_distinct(self) -> int:
        return len(self._values)

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        return self.measure.kernel_values(np.asarray(runs), self.context)

    def _position(self, runs: np.ndarray) -> np.ndarray:
        """Index of each run's value in the image (the cluster it falls in)."""
        v = self.values_of(runs)
        pos = np.searchsorted(self._values, v + self.tol * np.maximum(1.0, np.abs(v)),
                              side="right") - 1
        return np.maximum(pos, 0)

    def phi(self, runs: np.ndarray) -> np.ndarray:
        return (self._position(runs) + 1).astype(np.int64)

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        pos = self._position(runs)
        return self._cum[pos] if strict else self._cum[pos + 1]

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        yield self._values, self._counts

    def extremes(self) -> tuple[float, int, float, int]:
        return (float(self._values[0]), int(self._counts[0]), float(self._values[-1]),
                int(self._counts[-1]))


def naive_image(measure: ScaleMeasure, space: Space, context: Context,
                decimals: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Baseline: all runs at once, all values, ``numpy.unique`` of values rounded to
    ``decimals`` digits. Returns the sorted distinct values and their run counts."""
    degrees = runs_from_index(np.arange(space.levels**space.N), space.N, space.levels)
    if space.bounds is not None:
        degrees = degrees[space.allows(degrees)]
    values = measure.kernel_values(degrees, context)
    return np.unique(np.round(values, decimals), return_counts=True)
