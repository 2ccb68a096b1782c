"""Exact images by shards on the executor: meet in the middle on a cluster.

The meet-in-the-middle engines (AP's integer keys, :mod:`irscale.scales.average_precision`;
the additive measures, :mod:`irscale.scales.additive`) hold a :class:`~irscale.scales.
pairs.PairTable`: groups ``g`` of sorted partial values ``A_g``, ``B_g`` whose pair sums
``a + b`` are the runs' values. The image is streamed in *buckets*: bucket k holds the
distinct values ``v`` with ``edges[k] ≤ v < edges[k+1]`` of the pairs of every group
(:meth:`~irscale.scales.pairs.PairTable.bucket`), the edges being quantiles of a sample of
pair sums refined by exact counting so that each bucket holds about
:data:`~irscale.scales.pairs.BUCKET_PAIRS` candidate pairs
(:meth:`~irscale.scales.pairs.PairTable.edges`). A bucket depends only on the table and its
two edges, so the buckets are independent:

* **Shards.** A shard is a run of consecutive buckets of *the same grid as the local
  engine* (``shards=K``: K runs of about equal numbers of buckets, so of candidate pairs;
  default, and at most, one shard per bucket). The shards' key intervals are disjoint and
  ordered, so the image is the ordered concatenation of their sorted distinct values (with
  the run counts, exact int64 sums); no value can be in two shards. Since every bucket is
  computed by the same function on the same arrays as locally, the values, run counts,
  bucket index and written file are the local engine's, bit for bit, whatever the executor
  and the number of workers.
* **Tasks.** One task per shard, ``func(table, edges)`` with the table sent once to every
  worker (:func:`irscale.parallel.run_tasks`' ``shared``: on Dask a copy without the
  representatives and the exact-arithmetic helpers, which buckets do not use) and the
  shard's edges as its argument. A worker lost mid-task has its shards run again.
* **Counting pass** (the number of distinct values, and the bucket index that φ uses,
  where they are not known beforehand: AP's integer keys, exact identities): each shard
  returns the number of distinct values of its buckets (8 bytes a bucket). In ``tolerance``
  mode (floats without exact keys) the buckets themselves come back, since clusters
  straddling two buckets are merged on the client as locally
  (:meth:`~irscale.scales.pairs.PairTable.stitch`).
* **Streaming pass** (the sorted image, for :func:`irscale.scales.stream.write_image` and
  the summaries): the shards' results are handed to the writer in key order while the
  following shards run; at most ``window`` shards are submitted at a time and at most
  ``window`` finished ones wait for the writer, so the client holds at most about
  ``2 · window + 1`` shards' values, never the whole image. ``window`` follows from the
  memory limit (:func:`window_of`: half of ``max_memory`` for the shards in flight, at
  :data:`RESULT_BYTES_PER_PAIR` bytes per candidate pair).

Without an executor (``executor="local"``, ``shards=None``) nothing of this runs: the image
is streamed in this thread as before.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..core.budget import max_memory_of
from ..core.progress import ProgressArg, progress_reporter
from ..parallel import (
    ExecutorArg,
    check_executor,
    executor_scope,
    is_local,
    map_tasks,
    run_tasks,
)
from . import pairs
from .pairs import Bucket, PairImage, PairTable
from .params import SHARDS

#: Client bytes per candidate pair of a shard's result: the distinct values (8 bytes) and
#: their run counts (8 bytes), at most one per pair.
RESULT_BYTES_PER_PAIR = 16
#: Seconds between two checks, by the thread that runs the shards, that the reader is
#: still there (a reader that stopped early lets it stop).
POLL_SECONDS = 0.2


def check_shards(shards: object, option: str = "shards") -> int | None:
    """``shards`` if it is ``None`` or a whole number ≥ 1; ``ParameterError`` naming
    ``option`` otherwise."""
    return None if shards is None else SHARDS.check(shards, option)


def shard_bounds(n_buckets: int, shards: int | None) -> list[tuple[int, int]]:
    """Bucket ranges ``[k0, k1)`` of the shards: ``min(shards, n_buckets)`` runs of
    consecutive buckets whose lengths differ by at most one (``None``: one per bucket)."""
    count = n_buckets if shards is None else max(1, min(shards, n_buckets))
    cuts = [(k * n_buckets) // count for k in range(count + 1)]
    return [(a, b) for a, b in itertools.pairwise(cuts) if b > a]


def window_of(shard_pairs: int, n_shards: int, max_memory: str | int | None = None) -> int:
    """Shards submitted at a time by the streaming pass: as many as half of the memory limit
    holds twice (in flight and waiting for the writer) at :data:`RESULT_BYTES_PER_PAIR`
    bytes per candidate pair; at least 1, at most ``n_shards``."""
    room = max_memory_of(max_memory) // 2
    per_shard = max(1, shard_pairs) * RESULT_BYTES_PER_PAIR
    return int(max(1, min(n_shards, room // (2 * per_shard))))


def portable(table: PairTable) -> PairTable:
    """A copy of ``table`` with what :meth:`PairTable.bucket` reads (groups, mode,
    identities, tolerance), to send to workers: the representatives and the exact helpers
    (closures) stay here."""
    empty = np.zeros((0, 0), dtype=np.int8)
    return PairTable(table.groups, mode=table.mode, N=table.N, a_rep=empty,
                     a_ranks=table.a_ranks, b_rep=empty, b_ranks=table.b_ranks,
                     a_id=table.a_id, b_id=table.b_id, n_b_ids=table.n_b_ids, tol=table.tol,
                     progress=False, label=table.label)


def shard_buckets(table: PairTable, edges: np.ndarray, counts: bool) -> list[Bucket]:
    """The buckets ``[edges[k], edges[k+1])`` of one shard (a task)."""
    return [table.bucket(edges[k], edges[k + 1], counts=counts) for k in range(len(edges) - 1)]


def shard_sizes(table: PairTable, edges: np.ndarray) -> np.ndarray:
    """The number of distinct values of each bucket of one shard (a task of the counting
    pass; exact keys or identities: no bucket shares a value with another)."""
    return np.array([len(bucket.values) for bucket in shard_buckets(table, edges, False)],
                    dtype=np.int64)


class ShardedPairImage(PairImage):
    """A :class:`~irscale.scales.pairs.PairImage` whose passes over the whole image (the
    distinct count and bucket index, the sorted slices) run as shards on ``executor``
    (module documentation); φ of runs and the other queries are the image's own. It
    shares the table (and so the bucket index) of ``image``."""

    def __init__(self, image: PairImage, executor: ExecutorArg, *, shards: int | None = None,
                 progress: ProgressArg = True, max_memory: str | int | None = None) -> None:
        super().__init__(image.table, image.space, raw_of=image.raw_of, post=image.post,
                         exactness=image.exactness, algorithm=image.algorithm, unit=image.unit)
        self.executor = check_executor(executor)
        self.shards = check_shards(shards)
        self.progress, self.max_memory = progress, max_memory

    @property
    def n_distinct(self) -> int:
        table = self.table
        if table.mode != "distinct" and table._n_distinct is None:
            self._count()
        return table.n_distinct

    def _shared(self, ready: ExecutorArg) -> tuple[PairTable]:
        return (self.table if is_local(ready) else portable(self.table),)

    def _tasks(self, edges: np.ndarray) -> list[tuple[np.ndarray, ...]]:
        return [(edges[a:b + 1],) for a, b in shard_bounds(len(edges) - 1, self.shards)]

    def _count(self) -> None:
        """The counting pass: the distinct values of every bucket of the index grid."""
        table = self.table
        edges = table.edges_cache()
        if table.mode == "tolerance":  # clusters across buckets: stitched here
            sizes = [len(bucket.values) for bucket in
                     table.stitch(self._stream(None, counts=False))]
            table.set_index(np.array(sizes, dtype=np.int64))
            return
        tasks = self._tasks(edges)
        report = progress_reporter(self.progress, len(tasks), f"count {table.label}".strip(),
                                   delay=1.0)
        finished = [0]

        def done(_: int) -> None:
            finished[0] += 1
            report(finished[0])

        with executor_scope(self.executor) as ready:
            parts = map_tasks(shard_sizes, tasks, shared=self._shared(ready), executor=ready,
                              done=done)
        table.set_index(np.concatenate(parts))

    def buckets(self, target: int | None = None) -> Iterator[Bucket]:
        """The image's slices in increasing order, from the shards (module documentation);
        the grid of :meth:`PairTable.iter_buckets` for the same ``target``."""
        return self.table.stitch(self._stream(target, counts=True))

    def _stream(self, target: int | None, *, counts: bool) -> Iterator[Bucket]:
        table = self.table
        edges = table.edges_cache() if target is None else table.edges(target)
        tasks = self._tasks(edges)
        per_shard = (pairs.BUCKET_PAIRS if target is None else target) * max(
            b - a for a, b in shard_bounds(len(edges) - 1, self.shards))
        window = window_of(per_shard, len(tasks), self.max_memory)
        report = progress_reporter(self.progress, len(tasks), f"image {table.label}".strip(),
                                   delay=1.0)
        with executor_scope(self.executor) as ready:
            yield from _ordered(tasks, window, self._shared(ready), counts, ready, report)


_END = object()


def _ordered(tasks: list[tuple[np.ndarray, ...]], window: int, shared: tuple[Any, ...],
             counts: bool, ready: ExecutorArg, report: Any) -> Iterator[Bucket]:
    """The buckets of ``tasks`` in order: a thread runs the shards ``window`` at a time
    (:func:`~irscale.parallel.run_tasks`, results in task order) and puts them in a queue
    of ``window`` places, which this generator empties; a reader that stops early (or
    fails) stops the thread at its next result."""
    results: queue.Queue[Any] = queue.Queue(maxsize=window)
    stop = threading.Event()
    finished = [0]

    def put(item: Any) -> None:
        while not stop.is_set():
            try:
                results.put(item, timeout=POLL_SECONDS)
                return
            except queue.Full:
                continue
        raise _Stopped

    def hand_over(_: int, buckets: list[Bucket]) -> None:
        finished[0] += 1
        report(finished[0])
        put(buckets)

    def produce() -> None:
        try:
            for start in range(0, len(tasks), window):
                batch = [(*task, counts) for task in tasks[start:start + window]]
                run_tasks(shard_buckets, batch, hand_over, shared=shared, executor=ready)
            put(_END)
        except _Stopped:
            return
        except BaseException as error:  # handed to the reader, raised there
            try:
                put(error)
            except _Stopped:
                return

    worker = threading.Thread(target=produce, name="irscale-shards", daemon=True)
    worker.start()
    try:
        while True:
            item = results.get()
            if item is _END:
                break
            if isinstance(item, BaseException):
                raise item
            while item:
                yield item.pop(0)
    finally:
        stop.set()
        worker.join()


class _Stopped(Exception):
    """The reader stopped: the thread running the shards ends."""
