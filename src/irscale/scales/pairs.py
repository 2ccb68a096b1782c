"""The pair engine: the image of values ``a + b`` (meet in the middle), counted and streamed.

A run is cut into two parts (prefix/suffix ranks, or two groups of independent blocks);
each part has few distinct *partial values* (``A`` and ``B``, about ``sqrt`` of the number
of runs each) and a run's value is ``a + b``. Runs are split into *groups* ``g`` (e.g. by
the number of relevant documents of the prefix, for AP) with their own arrays ``A_g``,
``B_g``; the image is ``∪_g (A_g ⊕ B_g)``. The table never lists all runs:

* ``count(x)`` — the number of pairs (or, weighted by multiplicities, of runs) with value
  ≤ x (or < x): ``Σ_g Σ_{s} searchsorted(other_g, x − s)`` over the smaller half ``s`` of
  each group, by the native engine (``rust/src/scales/sweep.rs``: the needles of a query
  increase, each found by galloping from the last; queries shared out between threads),
  with no memory beyond the answers;
* ``iter_buckets()`` — the image in increasing order, in buckets of about
  :data:`BUCKET_PAIRS` candidate pairs: bucket edges are quantiles of a random sample of
  pairs, refined by bisection with ``count``; each bucket gathers, for every ``a``, the slice
  of ``B`` between the edges, sorts and de-duplicates it (integer keys: by the native
  engine, ``rust/src/scales/int_pairs.rs``, radix-sorted or hashed sub-buckets; a pass over
  every bucket, where the ``a`` values share a factor as AP's do, by residue classes with
  a bitmap each, ``rust/src/scales/residues.rs``);
* ``phi(x)`` — φ of Ferrante et al. (2021), eq. 2.

How pairs become distinct values (``mode``):

* ``distinct`` — every pair is a distinct value (independent blocks, or a certificate):
  ``|image| = number of pairs`` and ``φ(x) = count(x)``. Float sums order the pairs; pairs
  within ``window`` (a bound on the rounding error) of a query are compared exactly with
  ``exact`` (rationals and 60-digit class numbers);
* ``int`` — values are exact 64-bit integers (AP·RB·lcm(1..N), rational RBP): equal values
  merge; φ and ``|image|`` come from one streaming pass, whose bucket edges and distinct
  counts are kept as an index so that later queries regenerate only their bucket;
* ``ids`` — float values with exact identities ``(a_id, b_id)``: pairs with the same ids
  merge (feasible spaces of graded additive measures);
* ``tolerance`` — float values closer than ``tol`` merge.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np

from ..core.pair_kernels import (
    Halves,
    IntGroup,
    int_pair_bucket,
    int_pair_classes,
    int_pair_scan,
    pair_count,
    pair_window,
)
from ..core.progress import Progress
from ..core.segments import ranges
from .image import Image, forwarded

#: numpy.searchsorted's side: "right" counts the values ≤ x, "left" those < x.
Side = Literal["left", "right"]

#: Candidate pairs gathered per streaming bucket (about 40 bytes each in numpy's
#: temporaries, 4 bytes in the native engine's integer buckets, 12 with run counts).
BUCKET_PAIRS = 1 << 22
#: Integer buckets per call of the native engine's pass where it sorts them (shared out
#: between its threads, each holding one bucket at a time): the progress bar moves, and
#: ^C is heard, between calls.
SCAN_BATCH = 32

INT_LOW = -(1 << 62)
INT_HIGH = 1 << 62


def _compact(index: np.ndarray) -> np.ndarray:
    """Row indices as int32 when they fit (half the memory of a large half's order)."""
    return index.astype(np.int32) if len(index) < 1 << 31 else index


@dataclass
class PairGroup:
    """One group: partial values ``A`` (with multiplicities and the row of their
    representative) and ``B``; both sorted on construction (A's arrays in place: they
    belong to the group)."""

    a_val: np.ndarray
    a_mult: np.ndarray
    a_ref: np.ndarray | None
    b_val: np.ndarray
    b_mult: np.ndarray
    b_ref: np.ndarray

    def __post_init__(self) -> None:
        # A is sorted in place, one array at a time (the caller hands its arrays over):
        # a half of 43M entries (three degrees, N = 30) peaks at 32 bytes an entry. Any
        # order of equal values will do (numpy's default sort: SIMD where the CPU has it)
        order = np.argsort(self.a_val)
        self.a_val[...] = self.a_val[order]
        self.a_mult[...] = self.a_mult[order]
        # a_ref None: the entries are rows 0..n-1, so the sorted rows are the order itself
        self.a_ref = _compact(order) if self.a_ref is None else self.a_ref[order]
        del order
        order = np.argsort(self.b_val)
        self.b_val, self.b_mult, self.b_ref = (self.b_val[order], self.b_mult[order],
                                               self.b_ref[order])

    @cached_property
    def a_cum(self) -> np.ndarray:
        """Runs of the first k entries of A (built when run counts are asked for)."""
        return np.concatenate(([0], np.cumsum(self.a_mult, dtype=np.int64)))

    @cached_property
    def b_cum(self) -> np.ndarray:
        return np.concatenate(([0], np.cumsum(self.b_mult, dtype=np.int64)))

    @property
    def n_pairs(self) -> int:
        return len(self.a_val) * len(self.b_val)


@dataclass
class Bucket:
    """Distinct values in ``[lo, hi)`` (sorted) with their run counts."""

    lo: float
    hi: float
    values: np.ndarray
    counts: np.ndarray
    pairs: int


class PairTable:
    """Groups of (A, B) partial values and the operations of the module documentation.

    ``a_rep``/``b_rep`` hold the representative partial runs (rows, over ranks ``a_ranks``
    / ``b_ranks``) that ``a_ref``/``b_ref`` point to, ``a_id``/``b_id`` their exact
    identities (``ids`` mode); ``exact(runs)`` gives exact comparable values of full runs
    (``distinct`` mode); ``window`` bounds the rounding error of float sums.
    """

    def __init__(self, groups: list[PairGroup], *, mode: str, N: int,
                 a_rep: np.ndarray, a_ranks: np.ndarray, b_rep: np.ndarray,
                 b_ranks: np.ndarray, a_id: np.ndarray | None = None,
                 b_id: np.ndarray | None = None, n_b_ids: int = 0,
                 exact: Callable[[np.ndarray], list] | None = None, window: float = 0.0,
                 tol: float = 0.0, progress: bool = True, label: str = "",
                 locate: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None
                 ) -> None:
        self.groups = [g for g in groups if len(g.a_val) and len(g.b_val)]
        self.mode, self.N = mode, N
        self.a_rep, self.a_ranks, self.b_rep, self.b_ranks = a_rep, a_ranks, b_rep, b_ranks
        self.a_id, self.b_id, self.n_b_ids = a_id, b_id, n_b_ids
        self.exact, self.window, self.tol = exact, window, tol
        self.progress, self.label = progress, label
        self.locate = locate
        self.meter: Progress | None = None
        self.is_int = mode == "int"
        self._index: tuple[np.ndarray, np.ndarray] | None = None
        self._n_distinct: int | None = None
        self._stats: dict = {}
        #: Searches made by :meth:`count` and the windows of φ so far (:meth:`count_cost`;
        #: the work that :func:`irscale.scales.cost.estimate` predicts).
        self.searches = 0

    # ------------------------------------------------------------ sizes
    @property
    def n_pairs(self) -> int:
        return sum(g.n_pairs for g in self.groups)

    @property
    def n_runs(self) -> int:
        return sum(int(g.a_mult.sum()) * int(g.b_mult.sum()) for g in self.groups)

    @property
    def min_raw(self) -> int | float:
        return min(g.a_val[0] + g.b_val[0] for g in self.groups)

    @property
    def max_raw(self) -> int | float:
        return max(g.a_val[-1] + g.b_val[-1] for g in self.groups)

    @property
    def n_distinct(self) -> int:
        if self.mode == "distinct":
            return self.n_pairs
        if self._n_distinct is None:
            self._scan(None)
        assert self._n_distinct is not None
        return self._n_distinct

    # ------------------------------------------------------------ counting
    def count(self, x: np.ndarray, *, strict: bool = False, weighted: bool = False
              ) -> np.ndarray:
        """Pairs (or runs, ``weighted``) with value ≤ x (< x when ``strict``), per x (the
        native engine's sweep, :func:`~irscale.core.pair_kernels.pair_count`)."""
        x = np.asarray(x)
        if len(x) == 0 or not self.groups:
            return np.zeros(len(x), dtype=np.int64)
        out = pair_count(self._halves(weighted), x, strict=strict, weighted=weighted,
                         integer=self.is_int)
        self._tick(self.count_cost(len(x)))
        return out

    def _halves(self, weighted: bool) -> list[Halves]:
        """The groups as the engine's sweep takes them (running runs when ``weighted``)."""
        none = np.zeros(0, dtype=np.int64)
        return [(g.a_val, g.a_mult, g.a_cum if weighted else none, g.b_val, g.b_mult,
                 g.b_cum if weighted else none) for g in self.groups]

    @contextmanager
    def _metered(self, n_queries: int) -> Iterator[None]:
        """A progress bar (with ETA) over the searches of counting ``n_queries`` values."""
        meter = Progress(self.count_cost(n_queries), f"count φ {self.label}".strip(),
                         enabled=self.progress)
        self.meter = meter
        try:
            yield
        finally:
            self.meter = None
            meter.close()

    def _tick(self, cells: int) -> None:
        self.searches += cells
        if self.meter is not None:
            self.meter.update(cells)

    def count_cost(self, n_queries: int) -> int:
        """Searches :meth:`count` makes for ``n_queries`` values: the smaller side of every
        group, once per query."""
        return n_queries * sum(min(len(g.a_val), len(g.b_val)) for g in self.groups)

    def _window_pairs(self, lo: np.ndarray, hi: np.ndarray, weighted: bool = False
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Pairs with float value in ``[lo_q, hi_q]`` as (query, group, a index, b index),
        and per query the pairs (runs when ``weighted``) with value < lo_q (the native
        engine's sweep, :func:`~irscale.core.pair_kernels.pair_window`)."""
        if not self.groups:
            empty = np.zeros(0, dtype=np.int64)
            return np.zeros(len(lo), dtype=np.int64), empty, empty, empty, empty
        found = pair_window(self._halves(weighted), lo, hi, weighted=weighted,
                            integer=self.is_int)
        self._tick(self.count_cost(len(lo)))
        return found

    def pair_info(self, groups: np.ndarray, ai: np.ndarray, bj: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per pair: the representative rows of its A and B entries and its run count."""
        a_rows = np.zeros(len(ai), dtype=np.int64)
        b_rows = np.zeros(len(ai), dtype=np.int64)
        mult = np.zeros(len(ai), dtype=np.int64)
        for k in np.unique(groups).tolist():
            sel = groups == k
            group = self.groups[k]
            a_rows[sel] = group.a_ref[ai[sel]]
            b_rows[sel] = group.b_ref[bj[sel]]
            mult[sel] = group.a_mult[ai[sel]] * group.b_mult[bj[sel]]
        return a_rows, b_rows, mult

    def full_runs(self, groups: np.ndarray, ai: np.ndarray, bj: np.ndarray) -> np.ndarray:
        """Representative full runs (degree rows) of pairs."""
        runs = np.zeros((len(ai), self.N), dtype=np.int8)
        a_rows, b_rows, _ = self.pair_info(groups, ai, bj)
        if len(ai):
            runs[:, self.a_ranks] = self.a_rep[a_rows]
            runs[:, self.b_ranks] = self.b_rep[b_rows]
        return runs

    def _resolve(self, raw: np.ndarray, runs: np.ndarray, weighted: bool
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Exact counts around float queries (``distinct`` and ``ids`` modes).

        Returns (pairs — or runs when ``weighted`` — certainly below, pairs in the window
        with an exact value ≤ the run's, their runs, runs of window pairs strictly below).
        """
        w = self.window
        n_le = np.zeros(len(raw), dtype=np.int64)
        w_le = np.zeros(len(raw), dtype=np.int64)
        w_lt = np.zeros(len(raw), dtype=np.int64)
        below, q, g, ai, bj = self._window_pairs(raw - w, raw + w, weighted)
        if len(q):
            _, _, mult = self.pair_info(g, ai, bj)
            own = self._own(q, g, ai, bj, runs)
            np.add.at(n_le, q[own], 1)
            np.add.at(w_le, q[own], mult[own])
            other = np.flatnonzero(~own)
            if len(other):
                assert self.exact is not None
                cand = self.exact(self.full_runs(g[other], ai[other], bj[other]))
                queries = np.unique(q[other])
                mine = dict(zip(queries.tolist(), self.exact(runs[queries]), strict=True))
                for k, index in enumerate(other.tolist()):
                    qq = int(q[index])
                    if cand[k] <= mine[qq]:
                        n_le[qq] += 1
                        w_le[qq] += mult[index]
                        if cand[k].key != mine[qq].key:
                            w_lt[qq] += mult[index]
        return below, n_le, w_le, w_lt

    def _own(self, q: np.ndarray, g: np.ndarray, ai: np.ndarray, bj: np.ndarray,
             runs: np.ndarray) -> np.ndarray:
        """Window pairs that are the query run's own value (same exact identities)."""
        if self.locate is None:
            return np.zeros(len(q), dtype=bool)
        qa, qb = self.locate(runs)
        a_rows, b_rows, _ = self.pair_info(g, ai, bj)
        # no ids: an entry's row is its identity (whole space: one entry per partial value)
        a_ids = a_rows if self.a_id is None else self.a_id[a_rows]
        b_ids = b_rows if self.b_id is None else self.b_id[b_rows]
        return (a_ids == qa[q]) & (b_ids == qb[q])

    # ------------------------------------------------------------ φ and runs below
    def phi(self, raw: np.ndarray, runs: np.ndarray) -> np.ndarray:
        """φ (unq rank) of runs with raw values ``raw`` (exact keys in ``int`` mode)."""
        raw = np.asarray(raw)
        if self.mode == "distinct":
            with self._metered(len(raw)):
                below, n_le, _, _ = self._resolve(raw, runs, weighted=False)
            return below + n_le
        if self.mode == "ids":
            return self._phi_stream(raw - self.window, side="left") + self._window_ids(raw, runs)
        return self._phi_stream(raw)

    def _window_ids(self, raw: np.ndarray, runs: np.ndarray) -> np.ndarray:
        """Per query: distinct pair identities within the window with an exact value ≤ the
        run's (``ids`` mode; pairs of one identity share their float value)."""
        out = np.zeros(len(raw), dtype=np.int64)
        _, q, g, ai, bj = self._window_pairs(raw - self.window, raw + self.window)
        if len(q) == 0:
            return out
        assert self.exact is not None and self.a_id is not None and self.b_id is not None
        a_rows, b_rows, _ = self.pair_info(g, ai, bj)
        pid = self.a_id[a_rows] * self.n_b_ids + self.b_id[b_rows]
        own = self._own(q, g, ai, bj, runs)
        seen = set(zip(q[own].tolist(), pid[own].tolist(), strict=True))
        other = [k for k in np.flatnonzero(~own).tolist()
                 if (int(q[k]), int(pid[k])) not in seen]
        if other:
            cand = self.exact(self.full_runs(g[other], ai[other], bj[other]))
            queries = np.unique(q[other])
            mine = dict(zip(queries.tolist(), self.exact(runs[queries]), strict=True))
            for k, index in enumerate(other):
                key = (int(q[index]), int(pid[index]))
                if key not in seen and cand[k] <= mine[key[0]]:
                    seen.add(key)
        for qq, _ in seen:
            out[qq] += 1
        return out

    def runs_below(self, raw: np.ndarray, runs: np.ndarray, strict: bool) -> np.ndarray:
        """Number of runs with value < (``strict``) or ≤ the value of each run."""
        raw = np.asarray(raw)
        if self.mode in ("distinct", "ids"):
            with self._metered(len(raw)):
                below_runs, _, w_le, w_lt = self._resolve(raw, runs, weighted=True)
            return below_runs + (w_lt if strict else w_le)
        if self.mode == "tolerance":
            raw = raw - self.tol if strict else raw + self.tol
        return self.count(raw, strict=strict, weighted=True)

    # ------------------------------------------------------------ streaming
    def _sample(self, size: int) -> np.ndarray:
        rng = np.random.default_rng(12345)
        sizes = np.array([g.n_pairs for g in self.groups], dtype=np.float64)
        per_group = rng.multinomial(size, sizes / sizes.sum())
        parts = []
        for g, n in zip(self.groups, per_group.tolist(), strict=True):
            if n:
                i = rng.integers(len(g.a_val), size=n)
                j = rng.integers(len(g.b_val), size=n)
                parts.append(g.a_val[i] + g.b_val[j])
        return np.concatenate(parts)

    def edges(self, target: int | None = None) -> np.ndarray:
        """Bucket edges: bucket k holds the pairs with ``edges[k] ≤ value < edges[k+1]``;
        about ``target`` pairs each (default :data:`BUCKET_PAIRS`, read when called)."""
        target = BUCKET_PAIRS if target is None else target
        if self.is_int:
            first, last = np.int64(self.min_raw), np.int64(self.max_raw) + 1
        else:
            first, last = -np.inf, np.inf
        n_buckets = max(1, math.ceil(self.n_pairs / target))
        if n_buckets == 1:
            return np.array([first, last])
        sample = self._sample(min(self.n_pairs, 64 * n_buckets + 200_000))
        inner = np.quantile(sample, np.linspace(0.0, 1.0, n_buckets + 1)[1:-1])
        if self.is_int:
            inner = np.ceil(inner).astype(np.int64)
        edges = np.unique(np.concatenate([[first], inner, [last]]))
        for _ in range(8):
            below = self.count(edges, strict=True)
            sizes = np.diff(below)
            big = np.flatnonzero(sizes > 2 * target)
            if len(big) == 0:
                break
            extra = [self._split(edges[k], edges[k + 1], below[k], below[k + 1]) for k in big]
            edges = np.unique(np.concatenate([edges, [e for e in extra if e is not None]]))
        return edges

    def _split(self, lo: float, hi: float, n_lo: int, n_hi: int) -> float | None:
        """A value inside ``(lo, hi)`` with about half of the bucket's pairs below it
        (bisection with :meth:`count`); ``None`` when no value splits it (one value holds
        most of its pairs)."""
        if not self.is_int:
            lo = max(lo, float(self.min_raw))
            hi = min(hi, float(self.max_raw) + 1.0)
        half = (n_lo + n_hi) // 2
        best = None
        for _ in range(64):
            mid = (lo + hi) // 2 if self.is_int else (lo + hi) / 2.0
            if not lo < mid < hi:
                break
            n_mid = int(self.count(np.array([mid]), strict=True)[0])
            best = mid
            if abs(n_mid - half) <= (n_hi - n_lo) // 8:
                break
            lo, hi = (mid, hi) if n_mid < half else (lo, mid)
        return best

    def bucket(self, lo, hi, *, counts: bool = True) -> Bucket:
        """The distinct values with ``lo ≤ value < hi`` (see the module documentation);
        Integer keys (``int`` mode) are bucketed by the native engine
        (:func:`~irscale.core.pair_kernels.int_pair_bucket`), where ``counts=False`` skips
        the run counts (the other modes always count them)."""
        if self.is_int:
            values, runs, pairs = int_pair_bucket(self._int_groups, lo, hi, counts)
            return Bucket(lo, hi, values, np.zeros(0, dtype=np.int64) if runs is None
                          else runs, pairs)
        slices = []
        for g in self.groups:
            start = np.searchsorted(g.b_val, lo - g.a_val, side="left")
            lengths = np.searchsorted(g.b_val, hi - g.a_val, side="left") - start
            slices.append((g, start, lengths, int(lengths.sum())))
        pairs = sum(total for *_, total in slices)
        if pairs == 0:
            return Bucket(lo, hi, np.zeros(0), np.zeros(0, dtype=np.int64), 0)
        # filled in place, group after group (no per-group arrays to concatenate)
        values = np.empty(pairs, dtype=np.float64)
        mult = np.empty(pairs, dtype=np.int64)
        pid = np.empty(pairs if self.mode == "ids" else 0, dtype=np.int64)
        at = 0
        for g, start, lengths, total in slices:
            if total == 0:
                continue
            out = slice(at, at + total)
            at += total
            bj = ranges(start, lengths)
            np.add(np.repeat(g.a_val, lengths), g.b_val[bj], out=values[out])
            np.multiply(np.repeat(g.a_mult, lengths), g.b_mult[bj], out=mult[out])
            if self.mode == "ids":
                assert self.a_id is not None and self.b_id is not None
                assert g.a_ref is not None and g.b_ref is not None
                pid[out] = (np.repeat(self.a_id[g.a_ref], lengths) * self.n_b_ids
                            + self.b_id[g.b_ref[bj]])
        if self.mode == "ids":
            order = np.argsort(pid)  # equal identities share their value: any order
            pid = pid[order]
            starts = np.flatnonzero(np.concatenate(([True], pid[1:] != pid[:-1])))
            values = values[order][starts]
            mult = np.add.reduceat(mult[order], starts)
        order = np.argsort(values)  # equal values are merged below: any order
        values, mult = values[order], mult[order]
        if self.mode == "tolerance":
            starts = np.flatnonzero(np.concatenate(([True], np.diff(values) > self.tol)))
            values = values[starts]
            mult = np.add.reduceat(mult, starts)
        return Bucket(lo, hi, values, mult, pairs)

    def iter_buckets(self, target: int | None = None, *, counts: bool = True
                     ) -> Iterator[Bucket]:
        """The image in increasing order, bucket by bucket (:meth:`stitch`). ``target``:
        candidate pairs per bucket (default :data:`BUCKET_PAIRS`, the edges of the index)."""
        edges = self.edges_cache() if target is None else self.edges(target)
        progress = Progress(len(edges) - 1, f"image {self.label}".strip(),
                            enabled=self.progress and len(edges) > 8)

        def raw() -> Iterator[Bucket]:
            for k in range(len(edges) - 1):
                yield self.bucket(edges[k], edges[k + 1], counts=counts)
                progress.update(1)

        yield from self.stitch(raw())
        progress.close()

    def stitch(self, buckets: Iterable[Bucket]) -> Iterator[Bucket]:
        """Consecutive buckets (of one grid, in order) as the image's slices: in
        ``tolerance`` mode a cluster straddling two buckets is merged into the first (its
        first value joins the previous bucket's last); the buckets as they are otherwise.
        Local and sharded streams (:mod:`irscale.scales.shards`) both go through here."""
        if self.mode != "tolerance":
            yield from buckets
            return
        previous: Bucket | None = None
        for current in buckets:
            if previous is not None and len(current.values) and len(previous.values) \
                    and current.values[0] - previous.values[-1] <= self.tol:
                previous.counts[-1] += current.counts[0]
                current = Bucket(current.lo, current.hi, current.values[1:],
                                 current.counts[1:], current.pairs)
            if previous is not None:
                yield previous
            previous = current
        if previous is not None:
            yield previous

    def set_index(self, sizes: np.ndarray) -> None:
        """The bucket index (and the distinct count) from the distinct values of each
        stitched bucket of :meth:`edges_cache`, in order."""
        sizes = np.asarray(sizes, dtype=np.int64)
        self._n_distinct = int(sizes.sum())
        self._index = (self.edges_cache(), np.concatenate(([0], np.cumsum(sizes[:-1]))
                                                          ).astype(np.int64))

    @cached_property
    def _int_groups(self) -> list[IntGroup]:
        """The groups' arrays as the native engine takes them (``int`` mode)."""
        return [(g.a_val, g.a_mult, g.b_val, g.b_mult) for g in self.groups]

    def _scan_int(self, queries: np.ndarray | None, side: Side) -> np.ndarray | None:
        """:meth:`_scan` of integer keys by the native engine
        (:func:`~irscale.core.pair_kernels.int_pair_scan`): in one call where it counts by
        residue classes (:func:`~irscale.core.pair_kernels.int_pair_classes`: one set-up
        for the whole pass, which takes seconds), else :data:`SCAN_BATCH` buckets a call
        (the threads share a batch; the progress bar moves, and ^C is heard, between
        batches)."""
        edges = self.edges_cache()
        n_buckets = len(edges) - 1
        queries = np.zeros(0, dtype=np.int64) if queries is None else queries
        batch = n_buckets if int_pair_classes(self._int_groups, edges) else SCAN_BATCH
        answers = np.zeros(len(queries), dtype=np.int64)
        bucket_of = np.clip(np.searchsorted(edges, queries, side="right") - 1, 0,
                            n_buckets - 1)
        progress = Progress(n_buckets, f"image {self.label}".strip(),
                            enabled=self.progress and n_buckets > 8)
        sizes = []
        before = 0
        for first in range(0, n_buckets, batch):
            last = min(first + batch, n_buckets)
            mine = np.flatnonzero((bucket_of >= first) & (bucket_of < last))
            # the batch's own edges: its first and last buckets take the queries beyond
            batch_sizes, batch_answers = int_pair_scan(self._int_groups, edges[first:last + 1],
                                                       queries[mine], side == "left")
            answers[mine] = before + batch_answers
            sizes.append(batch_sizes)
            before += int(batch_sizes.sum())
            progress.update(last - first)
        progress.close()
        self.set_index(np.concatenate(sizes))
        return answers

    def _scan(self, queries: np.ndarray | None, side: Side = "right") -> np.ndarray | None:
        """One streaming pass: the distinct count, the bucket index and φ of ``queries``."""
        if self.is_int:
            return self._scan_int(queries, side)
        sizes = []
        before = 0
        answers = None
        if queries is not None:
            answers = np.zeros(len(queries), dtype=np.int64)
            edges = self.edges_cache()
            # values beyond the last edge count the whole image (the last bucket's end)
            bucket_of = np.clip(np.searchsorted(edges, queries, side="right") - 1, 0,
                                len(edges) - 2)
        for k, bucket in enumerate(self.iter_buckets(counts=False)):
            if answers is not None:
                mine = np.flatnonzero(bucket_of == k)
                if len(mine):
                    assert queries is not None  # answers are made for queries only
                    q = queries[mine] + (self.tol if self.mode == "tolerance" else 0)
                    answers[mine] = before + np.searchsorted(bucket.values, q, side=side)
            sizes.append(len(bucket.values))
            before += len(bucket.values)
        self.set_index(np.array(sizes, dtype=np.int64))
        return answers

    def edges_cache(self) -> np.ndarray:
        if "edges" not in self._stats:
            self._stats["edges"] = self.edges()
        return self._stats["edges"]

    def _phi_stream(self, raw: np.ndarray, side: Side = "right") -> np.ndarray:
        """Distinct values ≤ (``side="right"``) or < (``"left"``) each of ``raw``, through
        the bucket index (one full pass the first time)."""
        if self._index is None:
            out = self._scan(raw, side)
            assert out is not None
            return out
        edges, before = self._index
        bucket_of = np.clip(np.searchsorted(edges, raw, side="right") - 1, 0, len(before) - 1)
        out = np.zeros(len(raw), dtype=np.int64)
        for k in np.unique(bucket_of).tolist():
            mine = np.flatnonzero(bucket_of == k)
            if self.is_int:
                _, counted = int_pair_scan(self._int_groups, edges[k:k + 2], raw[mine],
                                           side == "left")
                out[mine] = before[k] + counted
                continue
            bucket = self.bucket(edges[k], edges[k + 1], counts=False)
            q = raw[mine] + (self.tol if self.mode == "tolerance" else 0)
            out[mine] = before[k] + np.searchsorted(bucket.values, q, side=side)
        return out


def _distinct_rows(runs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct runs (each query counted once) and where each run is among them."""
    runs = np.asarray(runs)
    if len(runs) < 2:
        return runs, np.arange(len(runs))
    distinct, inverse = np.unique(runs, axis=0, return_inverse=True)
    return distinct, inverse.reshape(-1)


class PairImage(Image):
    """An :class:`~irscale.scales.image.Image` backed by a :class:`PairTable`.

    ``raw_of(runs)`` gives the table's units for runs (exact integer keys in ``int`` mode,
    float sums otherwise) and ``post(raw)`` the measure's values.
    """

    def __init__(self, table: PairTable, space, *, raw_of: Callable[[np.ndarray], np.ndarray],
                 post: Callable[[np.ndarray], np.ndarray], exactness: str, algorithm: str,
                 unit: float | None = None) -> None:
        self.table, self.space = table, space
        self.raw_of, self.post, self.unit = raw_of, post, unit
        self.exactness, self.algorithm = exactness, algorithm

    n_runs = forwarded("table.n_runs")
    n_distinct = forwarded("table.n_distinct")

    def values_of(self, runs: np.ndarray) -> np.ndarray:
        return self.post(self.raw_of(runs))

    def phi(self, runs: np.ndarray) -> np.ndarray:
        runs, inverse = _distinct_rows(runs)
        return self.table.phi(self.raw_of(runs), runs)[inverse]

    def runs_below(self, runs: np.ndarray, strict: bool) -> np.ndarray:
        runs, inverse = _distinct_rows(runs)
        return self.table.runs_below(self.raw_of(runs), runs, strict)[inverse]

    def count_values(self, values: np.ndarray, factor: float = 1.0) -> np.ndarray | None:
        """φ of measure values (``factor`` × this image's values) by counting, without
        listing the image: the distinct values ≤ each value (``None`` where the table
        cannot count distinct values directly: ``ids`` mode)."""
        if self.unit is None or self.unit <= 0 or factor <= 0:
            return None
        raw = np.asarray(values, dtype=np.float64) / (factor * self.unit)
        table = self.table
        if table.mode == "distinct":
            return table.count(raw)
        if table.mode == "int":
            keys = np.floor(np.clip(raw, INT_LOW, INT_HIGH)).astype(np.int64)
            return table._phi_stream(keys)
        if table.mode == "tolerance":
            return table._phi_stream(raw)
        return None

    def buckets(self, target: int | None = None) -> Iterator[Bucket]:
        """The image's slices in increasing order (:meth:`PairTable.iter_buckets`, here;
        on an executor in :class:`irscale.scales.shards.ShardedPairImage`)."""
        return self.table.iter_buckets(target)

    def iter_sorted(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        for bucket in self.buckets():
            yield self.post(bucket.values), bucket.counts

    def extremes(self) -> tuple[float, int, float, int]:
        table = self.table
        lo, hi = table.min_raw, table.max_raw
        if table.mode == "distinct":
            at_lo = table.runs_below(np.array([lo]), self._run_at(lo), False)[0]
            at_hi = table.n_runs - table.runs_below(np.array([hi]), self._run_at(hi), True)[0]
        else:
            tol = table.tol
            at_lo = table.count(np.array([lo + tol]), weighted=True)[0]
            at_hi = table.n_runs - table.count(np.array([hi - tol]), strict=True,
                                               weighted=True)[0]
        post = self.post(np.array([lo, hi]))
        return float(post[0]), int(at_lo), float(post[1]), int(at_hi)

    def _run_at(self, raw) -> np.ndarray:
        """A representative run of the extreme value ``raw`` (min or max pair)."""
        table = self.table
        for k, g in enumerate(table.groups):
            for i, j in ((0, 0), (len(g.a_val) - 1, len(g.b_val) - 1)):
                if g.a_val[i] + g.b_val[j] == raw:
                    return table.full_runs(np.array([k]), np.array([i]), np.array([j]))
        raise AssertionError("extreme pair not found")  # pragma: no cover
