"""Oracle of trec_eval's gain-based families: irscale's numpy kernels as they were before the
engine computed these families (``irscale.measures.trec`` gains, ndcg, ndcg_averaged,
gain_g, rbp), kept here only to test the engine against an independent implementation.

One change: logarithms are the C library's ``log2`` (:func:`c_log2`, as trec_eval's C code
calls), not numpy's, whose vectorised ``log2`` differs from the C library's in the last bit
for some arguments (1621 is the first integer: ranks beyond 1619).

Semantics (trec_eval 9.0.8 ``setup_gains`` / ``get_gain`` / ``comp_rel_gain``): the gain
table of a topic with ``L`` levels lists the ``level=gain`` parameters in order, then each
level ``0 ≤ v < L`` not given with gain ``v``, sorted by glibc's ``qsort`` with the
comparator ``(int)(gain1 - gain2)`` (:func:`glibc_msort`, :func:`trec_compare`); the ideal
ranking walks it from the highest entry down and stops at the first non-empty entry whose
gain is ≤ 0 (at once when the last entry's gain is ≤ 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np

from irscale.core.identifiers import unique_integers
from irscale.core.judged import NONPOOL, JudgedRankings
from irscale.core.segments import segment_cumsum
from irscale.core.subsets import Subset, pooled_documents, relevant_documents
from irscale.measures.arrays import c_divide, safe_divide
from irscale.measures.base import GainParams

T = TypeVar("T")

INT_MIN = -(2**31)
EXACT_SORT_ENTRIES = 4096


def _libm_log2(x: float) -> float:
    if x > 0:
        return math.log2(x)  # the C library's log2
    return -math.inf if x == 0 else math.nan


_C_LOG2 = np.frompyfunc(_libm_log2, 1, 1)


def c_log2(x: np.ndarray | float) -> np.ndarray:
    """The C library's ``log2`` of every element (``-inf`` at 0, NaN below)."""
    return np.asarray(_C_LOG2(np.asarray(x, dtype=np.float64)), dtype=np.float64)


# ----------------------------------------------------------------------------- gain tables
def _c_int(x: float) -> int:
    if not -(2.0**31) < x < 2.0**31:
        return INT_MIN
    return int(x)


def trec_compare(gain1: float, gain2: float) -> int:
    """trec_eval's ``comp_rel_gain``: ``(int)(gain1 - gain2)``."""
    return _c_int(gain1 - gain2)


def glibc_msort(items: Sequence[T], compare: Callable[[T, T], int]) -> list[T]:
    """Sort as glibc's ``qsort`` (``msort_with_tmp``): stable top-down merge sort."""
    n = len(items)
    if n <= 1:
        return list(items)
    left = glibc_msort(items[: n // 2], compare)
    right = glibc_msort(items[n // 2 :], compare)
    merged: list[T] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if compare(left[i], right[j]) <= 0:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    return merged + left[i:] + right[j:]


def trec_sort(entries: Sequence[tuple[int, float]]) -> list[tuple[int, float]]:
    """``(level, gain)`` entries in the order trec_eval's ``qsort`` leaves them."""
    return glibc_msort(entries, lambda a, b: trec_compare(a[1], b[1]))


def gain_entries(params: GainParams, num_levels: int) -> list[tuple[int, float]]:
    given = [(level, float(gain)) for level, gain in params.pairs]
    levels = {level for level, _ in given}
    return given + [(v, float(v)) for v in range(num_levels) if v not in levels]


def num_rel_levels(rel_levels: np.ndarray, degrees: np.ndarray | None = None) -> np.ndarray:
    """Per row: 1 + the highest level with a judged document (0 when there is none)."""
    nonzero = rel_levels > 0
    width = rel_levels.shape[1]
    if width == 0:
        return np.zeros(len(rel_levels), dtype=np.uint64)
    last = width - 1 - np.argmax(nonzero[:, ::-1], axis=1)
    top = last if degrees is None else np.asarray(degrees, dtype=np.int64)[last]
    return np.where(nonzero.any(axis=1), top.astype(np.uint64) + np.uint64(1), np.uint64(0))


def sorted_gain_entries(params: GainParams, num_levels: int, present: np.ndarray
                        ) -> tuple[list[tuple[int, float]], float | None]:
    given = [(level, float(gain)) for level, gain in params.pairs]
    given_levels = {level for level, _ in given}
    gains = [gain for _, gain in given]
    low, high = 0, num_levels - 1
    while low in given_levels:
        low += 1
    while high in given_levels:
        high -= 1
    if low <= high:
        gains += [float(low), float(high)]
    if not gains:
        return [], None
    consistent = all(g.is_integer() for g in gains) and max(gains) - min(gains) < 2.0**31
    if not consistent and num_levels + len(given) <= EXACT_SORT_ENTRIES:
        entries = trec_sort(gain_entries(params, num_levels))
        return entries, entries[-1][1]
    kept = given + [(v, float(v)) for v in present.tolist()
                    if 0 <= v < num_levels and v not in given_levels]
    entries = sorted(kept, key=lambda entry: entry[1])
    return entries, max(gains)


def document_gains(rel: np.ndarray, params: GainParams) -> np.ndarray:
    gains = np.where(rel >= 0, rel, 0).astype(np.float64)
    for level, gain in params.pairs:
        gains[rel == level] = gain
    return gains


def log2_discount(rank: np.ndarray) -> np.ndarray:
    return c_log2(np.asarray(rank, dtype=np.float64) + 1.0)


def distinct_rows(jr: JudgedRankings) -> tuple[np.ndarray, np.ndarray]:
    if jr.n_rankings == 0:
        return jr.rel_levels, np.zeros(0, dtype=np.int64)
    rows, row = np.unique(jr.rel_levels, axis=0, return_inverse=True)
    return rows, np.asarray(row).reshape(-1)


@dataclass(frozen=True, eq=False)
class IdealRankings:
    """trec_eval's ideal ranking of every ranking's topic (once per distinct row)."""

    row: np.ndarray
    start: np.ndarray
    length: np.ndarray
    gain: np.ndarray
    position: np.ndarray
    cum_dcg: np.ndarray

    @classmethod
    def build(cls, jr: JudgedRankings, params: GainParams) -> IdealRankings:
        rows, row = distinct_rows(jr)
        degrees = jr.column_degrees
        levels_per_row = num_rel_levels(rows, degrees)
        length = np.zeros(len(rows), dtype=np.int64)
        start = np.zeros(len(rows), dtype=np.int64)
        gain_parts: list[np.ndarray] = []
        filled = 0
        for num_levels in unique_integers(levels_per_row).tolist():
            members = np.flatnonzero(levels_per_row == num_levels)
            present = degrees[(rows[members] > 0).any(axis=0)]
            entries, last_gain = sorted_gain_entries(params, num_levels, present)
            entries = entries[::-1]
            entry_level = np.array([level for level, _ in entries], dtype=np.int64)
            entry_gain = np.array([gain for _, gain in entries], dtype=np.float64)
            column = np.minimum(np.searchsorted(degrees, entry_level), len(degrees) - 1)
            in_range = ((entry_level >= 0) & (entry_level < num_levels)
                        & (degrees[column] == entry_level))
            counts = np.zeros((len(members), len(entries)), dtype=np.int64)
            if in_range.any():
                counts[:, in_range] = rows[np.ix_(members, column[in_range])]
            if last_gain is None or last_gain <= 0:
                counts[:] = 0
            else:
                stop = (counts > 0) & (entry_gain <= 0)
                counts[np.logical_or.accumulate(stop, axis=1)] = 0
            member_length = counts.sum(axis=1)
            length[members] = member_length
            start[members] = filled + np.concatenate(([0], np.cumsum(member_length)[:-1]))
            filled += int(member_length.sum())
            gain_parts.append(np.repeat(np.tile(entry_gain, len(members)), counts.ravel()))
        gain = np.concatenate(gain_parts) if gain_parts else np.zeros(0)
        order = np.argsort(start, kind="stable")
        offsets = np.concatenate(([0], np.cumsum(length[order])))
        position = np.arange(len(gain)) - np.repeat(offsets[:-1], length[order])
        cum_dcg = segment_cumsum(gain / log2_discount(position + 1), offsets)
        return cls(row=row, start=start, length=length, gain=gain, position=position,
                   cum_dcg=cum_dcg)

    @cached_property
    def ideal_length(self) -> np.ndarray:
        return self.length[self.row]

    def dcg_at(self, k: np.ndarray, ranking: np.ndarray | None = None) -> np.ndarray:
        """Ideal DCG of the first ``min(k, K)`` ideal documents (0 when that is 0)."""
        rows = self.row if ranking is None else self.row[ranking]
        depth = np.minimum(np.asarray(k, dtype=np.int64), self.length[rows])
        out = np.zeros(len(depth))
        ok = depth >= 1
        out[ok] = self.cum_dcg[self.start[rows[ok]] + depth[ok] - 1]
        return out

    @cached_property
    def total_dcg(self) -> np.ndarray:
        return self.dcg_at(self.ideal_length)

    def gain_at(self, position: np.ndarray, ranking: np.ndarray) -> np.ndarray:
        rows = self.row[ranking]
        ok = position < self.length[rows]
        out = np.zeros(len(position))
        out[ok] = self.gain[self.start[rows[ok]] + position[ok]]
        return out

    @cached_property
    def flat_row(self) -> np.ndarray:
        by_start = np.argsort(self.start, kind="stable")
        return np.repeat(by_start, self.length[by_start])

    @cached_property
    def total_gain(self) -> np.ndarray:
        totals = np.bincount(self.flat_row, weights=self.gain, minlength=len(self.length))
        return totals[self.row]

    def change_points(self) -> tuple[np.ndarray, np.ndarray]:
        """Rndcg's R-levels: ``(ranking, c)`` pairs, one per cut-off where the ideal gain
        changes (and ``c = K``)."""
        segment = self.flat_row
        changed = np.zeros(len(self.gain), dtype=bool)
        changed[1:] = (self.position[1:] >= 1) & (self.gain[1:] != self.gain[:-1])
        row_of_point = np.concatenate((segment[changed], np.flatnonzero(self.length > 0)))
        cut_of_point = np.concatenate((self.position[changed],
                                       self.length[self.length > 0]))
        order = np.argsort(row_of_point, kind="stable")
        row_of_point, cut_of_point = row_of_point[order], cut_of_point[order]
        per_row = np.bincount(row_of_point, minlength=len(self.length))
        first = np.concatenate(([0], np.cumsum(per_row)[:-1]))
        n_points = per_row[self.row]
        ranking = np.repeat(np.arange(len(self.row)), n_points)
        within = np.arange(len(ranking)) - np.repeat(np.cumsum(n_points) - n_points, n_points)
        return ranking, cut_of_point[first[self.row[ranking]] + within]


def all_documents(jr: JudgedRankings) -> Subset:
    return Subset.of(jr, np.ones(len(jr.rel), dtype=bool))


def gain_documents(jr: JudgedRankings, params: GainParams) -> Subset:
    if any(level == NONPOOL and gain != 0 for level, gain in params.pairs):
        return all_documents(jr)
    return pooled_documents(jr)


def dcg_terms(jr: JudgedRankings, params: GainParams) -> tuple[Subset, np.ndarray]:
    documents = gain_documents(jr, params)
    return documents, document_gains(documents.rel, params) / log2_discount(documents.rank)


# ----------------------------------------------------------------------------- families
def ndcg(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    documents, terms = dcg_terms(jr, params)
    ideal = IdealRankings.build(jr, params).total_dcg
    return safe_divide(documents.total(terms), np.where(ideal > 0, ideal, 0))


def dcg(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    documents, terms = dcg_terms(jr, params)
    return documents.total(terms)


def ideal_dcg(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    return IdealRankings.build(jr, params).total_dcg


def ndcg_cut(jr: JudgedRankings, cutoffs: Sequence[int]) -> dict[str, np.ndarray]:
    documents, terms = dcg_terms(jr, GainParams())
    ideal = IdealRankings.build(jr, GainParams())
    out = {}
    for k in cutoffs:
        dcg_k = np.bincount(documents.segment, weights=np.where(documents.rank <= k, terms, 0.0),
                            minlength=jr.n_rankings)
        out[f"ndcg_cut_{k}"] = safe_divide(dcg_k, ideal.dcg_at(np.full(jr.n_rankings, k)))
    return out


def rndcg(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    ideal = IdealRankings.build(jr, params)
    documents, terms = dcg_terms(jr, params)
    running = documents.scan(terms, np.add, 0.0)
    ranking, cut = ideal.change_points()
    with np.errstate(divide="ignore", invalid="ignore"):
        dcg_at_cut = documents.at_depth(running, ranking, np.minimum(cut, jr.lengths[ranking]),
                                        0.0)
        points = c_divide(dcg_at_cut, ideal.dcg_at(cut, ranking))
        total = np.bincount(ranking, weights=points, minlength=jr.n_rankings)
        count = np.bincount(ranking, minlength=jr.n_rankings)
        k = ideal.ideal_length
        extra = (k >= 1) & (k + 1 < jr.lengths)
        total = total + np.where(extra, documents.total(terms) / ideal.total_dcg, 0.0)
        value = c_divide(total, count + extra)
    return np.where(jr.num_rel == 0, 0.0, value)


def ndcg_rel(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    ideal = IdealRankings.build(jr, params)
    documents, terms = dcg_terms(jr, params)
    positive = document_gains(documents.rel, params) > 0
    k = ideal.ideal_length
    with np.errstate(divide="ignore", invalid="ignore"):
        dcg_so_far = documents.scan(terms, np.add, 0.0)[positive]
        ranking = documents.segment[positive]
        ratio = dcg_so_far / ideal.dcg_at(documents.rank[positive], ranking)
        total = np.bincount(ranking, weights=ratio, minlength=jr.n_rankings)
        missing = (k - documents.count(positive)).astype(np.float64)
        total = total + missing * documents.total(terms) / ideal.total_dcg
        return np.where(total > 0, total / k, 0.0)


def bin_g(jr: JudgedRankings) -> np.ndarray:
    relevant = relevant_documents(jr)
    nonrel_before = relevant.rank - relevant.position()
    terms = 1.0 / c_log2(2.0 + nonrel_before)
    return safe_divide(relevant.total(terms), jr.num_rel)


def g_measure(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    """G with the running sums over every rank (trec_eval's loop)."""
    ideal = IdealRankings.build(jr, params)
    documents = all_documents(jr)
    ideal_gain = ideal.gain_at(documents.rank - 1, documents.segment)
    ahead = documents.scan(np.where(ideal_gain >= 1.0, ideal_gain, 1.0), np.add, 0.0)
    gains = document_gains(documents.rel, params)
    behind = 2.0 + ahead - documents.scan(gains, np.add, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(gains != 0, gains / c_log2(behind), 0.0)
    total = ideal.total_gain
    return safe_divide(documents.total(terms), np.where(total > 0, total, 0))


def powers(p: float, n: int) -> np.ndarray:
    return np.cumprod(np.concatenate(([1.0], np.full(n, p))))


def rbp_gains(jr: JudgedRankings, params: GainParams) -> np.ndarray:
    levels_of_ranking = num_rel_levels(jr.rel_levels, jr.column_degrees)
    levels_of_element = levels_of_ranking[jr.segment]
    given_levels = [level for level, _ in params.pairs]
    given_gains = [gain for _, gain in params.pairs]
    gains = np.zeros(len(jr.rel))
    for num_levels in unique_integers(levels_of_ranking).tolist():
        low, high = 0, num_levels - 1
        while low in given_levels:
            low += 1
        while high in given_levels:
            high -= 1
        table = given_gains + ([float(low), float(high)] if low <= high else [])
        if not table:
            continue
        smallest, largest = min(table), max(table)
        members = levels_of_element == num_levels
        rel = jr.rel[members]
        entry = (rel >= 0) & (rel < num_levels)
        gain = np.where(entry, rel, 0).astype(np.float64)
        for level, value in zip(given_levels, given_gains, strict=True):
            at = rel == level
            gain[at] = value
            entry |= at
        if smallest < 0 or largest > 1:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                gain = (gain - smallest) / (largest - smallest)
        gains[members] = np.where(entry, gain, 0.0)
    return gains


def rbp(jr: JudgedRankings, params: GainParams, p: float) -> np.ndarray:
    weights = powers(p, int(jr.lengths.max(initial=0)))
    with np.errstate(invalid="ignore"):
        total = jr.segment_sum(rbp_gains(jr, params) * weights[jr.rank - 1])
    return (1.0 - p) * total


def rbp_resid(jr: JudgedRankings, p: float) -> np.ndarray:
    weights = powers(p, int(jr.lengths.max(initial=0)))
    unjudged = jr.rel < 0
    total = jr.segment_sum(np.where(unjudged, weights[jr.rank - 1], 0.0))
    value = weights[jr.lengths] + (1.0 - p) * total
    return np.where(jr.segment_sum(unjudged) > 0, value, 0.0)
