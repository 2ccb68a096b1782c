"""In-order scans over the few documents that matter (relevant ones, or ones of positive
gain), skipping the others.

Most kernels of the catalogue accumulate values that are 0 (sums) or 1 (products) at every
non-relevant document: ``cg(r)``, ERR's ``dsat(r)``. Scanning only the documents of a mask,
in rank order within each ranking, does the same floating-point operations minus the
exact ones (``x + 0.0`` and ``x · 1.0`` are ``x``), so the results are bit for bit those of
the full scan, at a fraction of the cost (relevant documents are a few percent of a run).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..core.judged import JudgedRankings
from ..core.segments import ScanLayout, segment_scan
from .trec._segments import memo


@dataclass(frozen=True, eq=False)
class Subset:
    """The documents of ``jr`` flagged by a mask, as a CSR batch of their own."""

    index: np.ndarray
    segment: np.ndarray
    offsets: np.ndarray

    @classmethod
    def of(cls, jr: JudgedRankings, mask: np.ndarray) -> Subset:
        index = np.flatnonzero(mask)
        segment = jr.segment[index]
        counts = np.bincount(segment, minlength=jr.n_rankings)
        return cls(index, segment, np.concatenate(([0], np.cumsum(counts))).astype(np.int64))

    @cached_property
    def layout(self) -> ScanLayout:
        return ScanLayout.of(self.offsets)

    def scan(self, values: np.ndarray, ufunc: np.ufunc, fill: float) -> np.ndarray:
        """``ufunc.accumulate`` of ``values`` (one per subset document) within each ranking,
        in rank order; ``fill`` is the ufunc's identity."""
        return segment_scan(np.asarray(values, dtype=np.float64), self.offsets, ufunc, fill,
                            layout=self.layout)

    def position(self) -> np.ndarray:
        """Per subset document: its 1-based position among the subset documents of its
        ranking (for the relevant documents: C(r), the relevant documents up to it)."""
        counts = np.diff(self.offsets)
        return np.arange(1, len(self.index) + 1) - np.repeat(self.offsets[:-1], counts)

    def previous(self, scanned: np.ndarray, first: float) -> np.ndarray:
        """Per subset document: ``scanned`` at the subset document before it in its ranking
        (``first`` for the first one)."""
        out = np.full(len(scanned), first)
        later = np.ones(len(scanned), dtype=bool)
        later[self.offsets[:-1][np.diff(self.offsets) > 0]] = False
        later_index = np.flatnonzero(later)
        out[later_index] = scanned[later_index - 1]
        return out

    def total(self, values: np.ndarray, n_rankings: int) -> np.ndarray:
        """Per ranking: the sum of ``values`` (one per subset document), added in order."""
        return np.bincount(self.segment, weights=values, minlength=n_rankings)


def relevant_documents(jr: JudgedRankings) -> Subset:
    """The relevant retrieved documents of ``jr`` (cached): every document of positive gain
    in the catalogue's gain maps is one of them."""
    return memo(jr, "relevant_subset", lambda: Subset.of(jr, jr.is_relevant))
