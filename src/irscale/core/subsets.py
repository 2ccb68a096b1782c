"""Sub-batches of judged rankings: the few documents that can change a measure.

Most documents of a run are not in the qrels (a TREC run of 1,000 documents per topic
typically has a few dozen judged ones). trec_eval's measures look at such a document only
through its rank: it adds 0 to a sum of gains, 1 to a product of non-satisfaction, and
nothing to the counts of relevant or judged documents. A :class:`Subset` keeps, for every
ranking, the documents of a mask in rank order, each with its rank in the *full* ranking,
so that kernels do per-document work on those documents only:

* a float sum over the subset, added in rank order (``np.bincount`` with weights adds its
  inputs in order), equals the C loop's sum over every document bit for bit, since the
  skipped terms are exact zeros (``x + 0.0 == x``);
* a count of flagged documents at ranks ≤ k is a count over the subset when every flagged
  document is in it.

:func:`pooled_documents` is the subset every trec_eval kernel starts from (documents in the
qrels, judged or not); :func:`relevant_documents` its relevant part. :func:`memo` caches
such derived data on a batch (by identity) so that families sharing it compute it once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

import numpy as np

from .judged import NONPOOL, JudgedRankings
from .segments import ScanLayout, Segmented, segment_cumsum, segment_scan

T = TypeVar("T")

_MEMO: WeakKeyDictionary[JudgedRankings, dict[str, Any]] = WeakKeyDictionary()


def memo(jr: JudgedRankings, key: str, compute: Callable[[], T]) -> T:
    """``compute()``, cached for this batch of rankings under ``key``."""
    store = _MEMO.setdefault(jr, {})
    if key not in store:
        store[key] = compute()
    return store[key]


@dataclass(frozen=True, eq=False)
class Subset(Segmented):
    """Some documents of a batch (``jr.rel[index]``), as a CSR batch of their own.

    ``segment`` is each document's ranking, ``offsets`` cut the subset into rankings (every
    ranking of the batch has a possibly empty segment), ``rank`` is each document's 1-based
    rank in its full ranking and ``rel`` its relevance value.
    """

    index: np.ndarray
    segment: np.ndarray
    offsets: np.ndarray
    rank: np.ndarray
    rel: np.ndarray

    @classmethod
    def of(cls, jr: JudgedRankings, mask: np.ndarray) -> Subset:
        """The documents of ``jr`` flagged in ``mask`` (one flag per element of ``jr.rel``)."""
        index = np.flatnonzero(mask)
        # the ranking of each document, found in the offsets: no full-length segment array
        segment = np.searchsorted(jr.offsets, index, side="right") - 1
        counts = np.bincount(segment, minlength=jr.n_rankings)
        return cls(
            index=index,
            segment=segment,
            offsets=np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
            rank=index - jr.offsets[segment] + 1,
            rel=jr.rel[index],
        )

    def select(self, flags: np.ndarray) -> Subset:
        """The documents of this subset flagged in ``flags`` (one flag per document)."""
        segment = self.segment[flags]
        counts = np.bincount(segment, minlength=self.n_rankings)
        return Subset(
            index=self.index[flags],
            segment=segment,
            offsets=np.concatenate(([0], np.cumsum(counts))).astype(np.int64),
            rank=self.rank[flags],
            rel=self.rel[flags],
        )

    @property
    def counts(self) -> np.ndarray:
        """Number of subset documents of each ranking (:attr:`lengths`)."""
        return self.lengths

    @cached_property
    def layout(self) -> ScanLayout:
        return ScanLayout.of(self.offsets)

    def scan(self, values: np.ndarray, ufunc: np.ufunc, fill: float, *,
             reverse: bool = False) -> np.ndarray:
        """``ufunc.accumulate`` of ``values`` (one per subset document) within each ranking,
        in rank order (from the last document up with ``reverse``); ``fill`` is the ufunc's
        identity."""
        return segment_scan(np.asarray(values, dtype=np.float64), self.offsets, ufunc, fill,
                            reverse=reverse, layout=self.layout)

    def cumcount(self, flags: np.ndarray) -> np.ndarray:
        """Per subset document: flagged subset documents at or above it in its ranking."""
        return segment_cumsum(np.asarray(flags, dtype=np.int64), self.offsets)

    def position(self) -> np.ndarray:
        """Per subset document: its 1-based position among the subset documents of its
        ranking (for the relevant documents: C(r), the relevant documents up to it)."""
        return np.arange(1, len(self.index) + 1) - np.repeat(self.offsets[:-1], self.counts)

    def previous(self, scanned: np.ndarray, first: float) -> np.ndarray:
        """Per subset document: ``scanned`` at the subset document before it in its ranking
        (``first`` for the first one)."""
        out = np.full(len(scanned), first)
        later = np.ones(len(scanned), dtype=bool)
        later[self.offsets[:-1][self.counts > 0]] = False
        later_index = np.flatnonzero(later)
        out[later_index] = scanned[later_index - 1]
        return out

    def total(self, values: np.ndarray) -> np.ndarray:
        """Per ranking: the sum of ``values`` (one per subset document), added in rank order."""
        return np.bincount(self.segment, weights=np.asarray(values, dtype=np.float64),
                           minlength=self.n_rankings)

    def count(self, flags: np.ndarray | bool, depth: int | np.ndarray | None = None) -> np.ndarray:
        """Per ranking: flagged subset documents, only those at ranks ≤ ``depth`` if given
        (a number, or one per ranking)."""
        flags = np.broadcast_to(np.asarray(flags, dtype=bool), self.segment.shape)
        if depth is not None:
            limit = depth if np.ndim(depth) == 0 else np.asarray(depth)[self.segment]
            flags = flags & (self.rank <= limit)
        return np.bincount(self.segment[flags], minlength=self.n_rankings)

    def at_depth(self, values: np.ndarray, ranking: np.ndarray, depth: np.ndarray,
                 default: float) -> np.ndarray:
        """``values`` at the last subset document of ``ranking`` with rank ≤ ``depth`` (one
        query per element of ``ranking`` and ``depth``; ``default`` when there is none).

        With ``values`` a running sum over the subset, this reads the running sum of the
        full ranking after ``depth`` documents (the skipped documents add exact zeros).
        """
        width = int(self.rank.max(initial=0)) + 1
        keys = self.segment * width + self.rank  # increasing: rankings in order, ranks too
        wanted = np.asarray(ranking) * width + np.clip(depth, 0, width - 1)
        slot = np.searchsorted(keys, wanted, side="right") - 1
        found = slot >= self.offsets[np.asarray(ranking)]
        out = np.full(len(wanted), default, dtype=np.asarray(values).dtype)
        out[found] = values[slot[found]]
        return out

    def first(self, values: np.ndarray, default: float) -> np.ndarray:
        """Per ranking: ``values`` at its first subset document (``default`` if none)."""
        out = np.full(self.n_rankings, default, dtype=np.asarray(values).dtype)
        filled = self.counts > 0
        out[filled] = values[self.offsets[:-1][filled]]
        return out


def pooled_documents(jr: JudgedRankings) -> Subset:
    """The documents of ``jr`` that are in the qrels (judged, or pooled but unjudged).

    Every other document is non-relevant with gain 0 for every measure with a relevance
    level ≥ 0; with a level ≤ -1 documents outside the qrels pass the relevance test, so
    every document is kept.
    """

    def compute() -> Subset:
        if jr.relevance_level < 0:
            return Subset.of(jr, np.ones(len(jr.rel), dtype=bool))
        return Subset.of(jr, jr.rel != NONPOOL)

    return memo(jr, "pooled_documents", compute)


def relevant_documents(jr: JudgedRankings) -> Subset:
    """The retrieved documents of ``jr`` whose degree is ≥ the relevance level (cached)."""

    def compute() -> Subset:
        pooled = pooled_documents(jr)
        return pooled.select(pooled.rel >= jr.relevance_level)

    return memo(jr, "relevant_documents", compute)


def first_relevant_rank(jr: JudgedRankings) -> np.ndarray:
    """Per ranking: r1, the rank of its first relevant document (0 when none)."""
    relevant = relevant_documents(jr)
    return relevant.first(relevant.rank, 0)
