"""Gains and ideal rankings of trec_eval's gain-based measures.

Shared by ``ndcg``, ``dcg``, ``ideal_dcg``, ``ndcg_cut``, ``Rndcg``, ``ndcg_rel``, ``G``
and ``rbp``. Source: trec_eval 9.0.8 ``setup_gains`` / ``get_gain`` / ``comp_rel_gain``
(a static copy in each of m_ndcg.c, m_Rndcg.c, m_ndcg_rel.c, m_G.c; gathered in
gain_init.c in 10.0, with the same semantics for valid parameters).

**Gain table.** For a topic whose highest judged degree is ``L - 1`` (``L`` =
``num_rel_levels``: 1 + the highest degree with at least one judged document), trec_eval
builds a table of *entries* ``(level, gain, count)``: first the ``level=gain`` parameters in
the order given (count = number of judged documents at that level when ``0 ≤ level < L``,
else 0), then every level ``0 ≤ v < L`` not given as a parameter, with gain ``v``
(the default gain is the relevance degree). The entries are sorted by increasing gain with
``qsort`` and the comparator ``(int)(gain1 - gain2)``.

**Document gains** (``get_gain``): the gain of the entry with the document's level, 0 when
there is none. Documents not in the qrels (level -1) and pooled-but-unjudged ones (-2)
therefore have gain 0, unless a parameter gives that negative level a gain
(``ndcg.-1=1`` gives every non-pooled document gain 1, as trec_eval does).

**Ideal ranking.** Walking the sorted entries from the last (highest gain) down, trec_eval
lists ``count`` documents of each entry's gain, and stops at the first non-empty entry whose
gain is ≤ 0 — or at once when the *last* entry's gain is ≤ 0, even if it is empty. Only
positive gains enter the ideal ranking; its length is ``K``.

**Quirk reproduced (fractional gains).** ``(int)(gain1 - gain2)`` truncates towards zero,
so two gains closer than 1 compare *equal*, and the comparator is not even transitive
(0.3 ~ 0.9 ~ 1.5 but 0.3 < 1.5). ``qsort`` then keeps such entries in an order that depends
on the algorithm: glibc's ``qsort`` is a stable top-down merge sort, emulated exactly here
(:func:`trec_sort`). Consequences, as in trec_eval: with ``ndcg.1=3.1,2=0.7`` the level-0
entry (gain 0) stays *above* the 0.7 entry, so the ideal ranking stops before the level-2
documents and nDCG can exceed 1; gains ordered wrongly within less than 1 of each other
give a non-ideal "ideal" ranking. Integer gains (the default) are never affected. Other C
libraries (BSD/macOS qsort) may order such entries differently; glibc is the reference.
A comparator difference of 2³¹ or more overflows ``int`` (x86-64 gives INT_MIN); that too
is emulated.

**Not reproduced.** A topic whose judgments are all negative has no level at all; trec_eval
then reuses ``num_rel_levels`` (and level counts) left over from the previously evaluated
topic (``form_res_rels.c`` never resets them). Here such a topic has ``L = 0``: an empty
ideal ranking.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np

from ...core.identifiers import unique_integers
from ...core.judged import NONPOOL, JudgedRankings
from ...core.segments import segment_cumsum
from ...core.subsets import Subset, memo, pooled_documents
from ..base import GainParams

T = TypeVar("T")

INT_MIN = -(2**31)


def _c_int(x: float) -> int:
    """C's conversion of a double to ``int`` on x86-64 (truncation; INT_MIN when out of range)."""
    if not -(2.0**31) < x < 2.0**31:
        return INT_MIN
    return int(x)


def trec_compare(gain1: float, gain2: float) -> int:
    """trec_eval's ``comp_rel_gain``: ``(int)(gain1 - gain2)``."""
    return _c_int(gain1 - gain2)


def glibc_msort(items: Sequence[T], compare: Callable[[T, T], int]) -> list[T]:
    """Sort as glibc's ``qsort`` (``msort_with_tmp``): stable top-down merge sort.

    The first half holds ``n // 2`` items; merging takes from the left run while
    ``compare(left, right) <= 0``. Emulating the exact algorithm matters only for
    comparators that are not a strict weak order, such as trec_eval's :func:`trec_compare`.
    """
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
    """trec_eval's gain entries before sorting: parameters in order, then default levels."""
    given = [(level, float(gain)) for level, gain in params.pairs]
    levels = {level for level, _ in given}
    return given + [(v, float(v)) for v in range(num_levels) if v not in levels]


def num_rel_levels(rel_levels: np.ndarray, degrees: np.ndarray | None = None) -> np.ndarray:
    """Per row: 1 + the highest level with a judged document (0 when there is none), as
    uint64: a degree of 2^63 − 1 (the largest label) has 2^63 levels, which int64 would
    wrap to −2^63 (an empty gain table, nDCG 0).

    ``degrees``: the degree of each column (:attr:`JudgedRankings.column_degrees`; default
    column ``g`` is degree ``g``).
    """
    nonzero = rel_levels > 0
    width = rel_levels.shape[1]
    if width == 0:
        return np.zeros(len(rel_levels), dtype=np.uint64)
    last = width - 1 - np.argmax(nonzero[:, ::-1], axis=1)
    top = last if degrees is None else np.asarray(degrees, dtype=np.int64)[last]
    return np.where(nonzero.any(axis=1), top.astype(np.uint64) + np.uint64(1), np.uint64(0))


#: Largest gain table (``L`` entries plus the parameters) sorted entry by entry as glibc's
#: ``qsort`` sorts it when trec_eval's comparator is not an order (see
#: :func:`sorted_gain_entries`).
EXACT_SORT_ENTRIES = 4096


def sorted_gain_entries(
    params: GainParams, num_levels: int, present: np.ndarray
) -> tuple[list[tuple[int, float]], float | None]:
    """trec_eval's gain entries of a topic with ``num_levels`` levels in the order its
    ``qsort`` leaves them (lowest gain first), and the gain of the *last* entry of that order
    (``None`` for an empty table).

    ``present``: the degrees that hold judged documents in some topic sharing
    ``num_levels``; the entries of the other default levels (``v < L`` with gain ``v`` and no
    document) are left out when that changes nothing, so that the cost does not grow with
    the largest label. That is the case when trec_eval's comparator ``(int)(g1 - g2)`` is a
    true order on the whole table (every gain an integer and all gains less than 2³¹ apart:
    always with the default gains and labels below 2³¹): its stable merge sort then keeps
    the other entries in the same relative order, and the last entry has the largest gain.
    Otherwise (fractional gain parameters, or gains 2³¹ or more apart) the whole table is
    sorted by :func:`trec_sort`, which replays glibc's merge sort — up to
    :data:`EXACT_SORT_ENTRIES` entries; a larger such table (labels in the thousands with
    fractional gains) is sorted by true gain, with a warning.
    """
    given = [(level, float(gain)) for level, gain in params.pairs]
    given_levels = {level for level, _ in given}
    gains = [gain for _, gain in given]
    low, high = 0, num_levels - 1  # the smallest and largest default levels not given
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
    if not consistent:
        warnings.warn(
            f"relevance degrees up to {num_levels - 1}: trec_eval's gain sort "
            f"((int)(gain1 - gain2)) is no order on gains from {min(gains):g} to "
            f"{max(gains):g} and cannot be replayed on {num_levels} levels; the ideal ranking "
            "is sorted by true gain",
            stacklevel=2,
        )
    kept = given + [(v, float(v)) for v in present.tolist()
                    if 0 <= v < num_levels and v not in given_levels]
    entries = sorted(kept, key=lambda entry: entry[1])  # stable, as glibc's merge sort
    return entries, max(gains)


def document_gains(rel: np.ndarray, params: GainParams) -> np.ndarray:
    """``get_gain`` of every element: the level itself for judged documents unless a
    parameter maps it, the parameter's gain for mapped negative levels, else 0."""
    gains = np.where(rel >= 0, rel, 0).astype(np.float64)
    for level, gain in params.pairs:
        gains[rel == level] = gain
    return gains


def log2_discount(rank: np.ndarray) -> np.ndarray:
    """trec_eval's DCG discount ``log2(rank + 1)`` for 1-based ranks (``log2(i + 2)`` in C)."""
    return np.log2(np.asarray(rank, dtype=np.float64) + 1.0)


def distinct_rows(jr: JudgedRankings) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of ``rel_levels`` and the row of every ranking.

    Rankings of one topic share their row, so the topics give the grouping at once; rows
    are compared only when a batch holds different level counts under one topic id.
    """
    if jr.n_rankings == 0:
        return jr.rel_levels, np.zeros(0, dtype=np.int64)
    topic = jr.ranking_topic
    if bool(np.all(topic[1:] > topic[:-1])):  # one ranking per topic (one run): own rows
        return jr.rel_levels, np.arange(jr.n_rankings)
    _, first, row = np.unique(topic, return_index=True, return_inverse=True)
    rows = jr.rel_levels[first]
    if np.array_equal(rows[row], jr.rel_levels):
        return rows, np.asarray(row).reshape(-1)
    rows, row = np.unique(jr.rel_levels, axis=0, return_inverse=True)
    return rows, np.asarray(row).reshape(-1)


@dataclass(frozen=True, eq=False)
class IdealRankings:
    """trec_eval's ideal ranking of every ranking's topic (see the module documentation).

    Computed once per distinct row of ``rel_levels`` (rankings of the same topic share
    it). ``row[i]`` is the distinct row of ranking ``i``; row ``u``'s ideal ranking has
    ``length[u]`` documents, of which the first ``stored[u]`` are kept: it owns
    ``gain[start[u] : start[u] + stored[u]]`` (positive gains, best first) and ``cum_dcg``
    holds the within-row prefix sums of ``gain / log2(position + 1)``.
    """

    row: np.ndarray
    start: np.ndarray
    length: np.ndarray
    #: The documents kept of each ideal ranking: all (``length``) unless :meth:`build` was
    #: given a ``depth``.
    stored: np.ndarray
    gain: np.ndarray
    position: np.ndarray
    cum_dcg: np.ndarray

    @classmethod
    def build(cls, jr: JudgedRankings, params: GainParams,
              depth: int | None = None) -> IdealRankings:
        """The ideal rankings of ``jr``'s topics; with ``depth``, only their first ``depth``
        documents are kept (what :meth:`dcg_at` needs up to that cut-off: a topic's prefix
        sums are the same, and qrels of thousands of relevant documents per topic no longer
        cost a running sum over all of them).

        Cached per batch, gain pairs and depth (:func:`irscale.core.subsets.memo`): ndcg,
        ndcg_rel, Rndcg and G of one evaluation share one (``-m all_trec`` on 5M graded
        judgments built it four times, 0.28 s each)."""
        return memo(jr, f"trec-ideal:{params.pairs!r}:{depth}",
                    lambda: cls._build(jr, params, depth))

    @classmethod
    def _build(cls, jr: JudgedRankings, params: GainParams,
               depth: int | None) -> IdealRankings:
        """:meth:`build`, uncached."""
        rows, row = distinct_rows(jr)
        degrees = jr.column_degrees
        levels_per_row = num_rel_levels(rows, degrees)
        length = np.zeros(len(rows), dtype=np.int64)
        stored = np.zeros(len(rows), dtype=np.int64)
        start = np.zeros(len(rows), dtype=np.int64)
        gain_parts: list[np.ndarray] = []
        filled = 0
        for num_levels in unique_integers(levels_per_row).tolist():
            members = np.flatnonzero(levels_per_row == num_levels)
            present = degrees[(rows[members] > 0).any(axis=0)]
            entries, last_gain = sorted_gain_entries(params, num_levels, present)
            entries = entries[::-1]  # best first
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
            length[members] = counts.sum(axis=1)
            if depth is not None:  # the first `depth` documents of each ideal ranking
                counts = np.diff(np.minimum(np.cumsum(counts, axis=1), depth), axis=1,
                                 prepend=0)
            member_stored = counts.sum(axis=1)
            stored[members] = member_stored
            start[members] = filled + np.concatenate(([0], np.cumsum(member_stored)[:-1]))
            filled += int(member_stored.sum())
            gain_parts.append(np.repeat(np.tile(entry_gain, len(members)), counts.ravel()))
        gain = np.concatenate(gain_parts) if gain_parts else np.zeros(0)
        # rows in the order of their gains (one group of levels: already in it)
        order = (np.arange(len(start)) if bool(np.all(start[1:] >= start[:-1]))
                 else np.argsort(start, kind="stable"))
        offsets = np.concatenate(([0], np.cumsum(stored[order])))
        position = np.arange(len(gain)) - np.repeat(offsets[:-1], stored[order])
        cum_dcg = segment_cumsum(gain / log2_discount(position + 1), offsets)
        return cls(row=row, start=start, length=length, stored=stored, gain=gain,
                   position=position, cum_dcg=cum_dcg)

    def _check_complete(self) -> None:
        """``ValueError`` when the ideal rankings were built to a ``depth`` that cut some."""
        if bool((self.stored < self.length).any()):
            raise ValueError("the ideal rankings were built to a depth: not every gain is kept")

    # ------------------------------------------------------------ per ranking
    @cached_property
    def ideal_length(self) -> np.ndarray:
        """K of every ranking: the number of documents of its ideal ranking."""
        return self.length[self.row]

    def dcg_at(self, k: np.ndarray, ranking: np.ndarray | None = None) -> np.ndarray:
        """Ideal DCG of the first ``min(k, K)`` ideal documents (0 when that is 0).

        ``ranking`` gives the ranking of each ``k`` (default: one ``k`` per ranking).
        """
        rows = self.row if ranking is None else self.row[ranking]
        depth = np.minimum(np.asarray(k, dtype=np.int64), self.length[rows])
        if bool((depth > self.stored[rows]).any()):
            raise ValueError("ideal DCG beyond the depth the ideal rankings were built to")
        out = np.zeros(len(depth))
        ok = depth >= 1
        out[ok] = self.cum_dcg[self.start[rows[ok]] + depth[ok] - 1]
        return out

    @cached_property
    def total_dcg(self) -> np.ndarray:
        """Ideal DCG of every ranking's topic (whole ideal ranking)."""
        return self.dcg_at(self.ideal_length)

    def gain_at(self, position: np.ndarray, ranking: np.ndarray) -> np.ndarray:
        """Ideal gain at 0-based ``position`` of ``ranking``'s ideal ranking (0 beyond K)."""
        self._check_complete()
        rows = self.row[ranking]
        ok = position < self.length[rows]
        out = np.zeros(len(position))
        out[ok] = self.gain[self.start[rows[ok]] + position[ok]]
        return out

    @cached_property
    def cum_cost(self) -> np.ndarray:
        """Within-row running sums of G's ideal cost ``max(g*_j, 1)`` (``g*_j`` ≥ 0 here),
        added in position order as trec_eval's m_G.c does."""
        self._check_complete()
        by_start = np.argsort(self.start, kind="stable")
        offsets = np.concatenate(([0], np.cumsum(self.length[by_start])))
        return segment_cumsum(np.maximum(self.gain, 1.0), offsets)

    def cost_so_far(self, rank: np.ndarray, ranking: np.ndarray) -> np.ndarray | None:
        """G's ideal cost summed over ranks ``1..rank`` of ``ranking`` (1 per rank beyond
        the ideal ranking), exactly as trec_eval's running sum, or ``None`` when that needs
        the running sum itself: beyond the ideal ranking, adding 1.0 one rank at a time is
        exact only while the sum holds an integer (always, for integer gains)."""
        cost = self.cum_cost
        if not (np.all(cost == np.floor(cost)) and cost.max(initial=0.0) < 2.0**52):
            return None
        rows = self.row[ranking]
        depth = np.minimum(rank, self.length[rows])
        within = np.zeros(len(rank))
        ok = depth >= 1
        within[ok] = cost[self.start[rows[ok]] + depth[ok] - 1]
        return within + (rank - depth)

    @cached_property
    def flat_row(self) -> np.ndarray:
        """Distinct row of every element of ``gain``."""
        self._check_complete()
        by_start = np.argsort(self.start, kind="stable")
        return np.repeat(by_start, self.length[by_start])

    @cached_property
    def total_gain(self) -> np.ndarray:
        """Sum of the ideal gains of every ranking's topic (summed best first)."""
        totals = np.bincount(self.flat_row, weights=self.gain, minlength=len(self.length))
        return totals[self.row]

    def change_points(self) -> tuple[np.ndarray, np.ndarray]:
        """Rndcg's R-levels: ``(ranking, c)`` pairs, one per cut-off ``c`` (1 ≤ c ≤ K)
        after which the ideal gain changes (including ``c = K``, where it drops to 0)."""
        segment = self.flat_row
        changed = np.zeros(len(self.gain), dtype=bool)
        changed[1:] = (self.position[1:] >= 1) & (self.gain[1:] != self.gain[:-1])
        row_of_point = np.concatenate((segment[changed], np.flatnonzero(self.length > 0)))
        cut_of_point = np.concatenate((self.position[changed],
                                       self.length[self.length > 0]))
        # expand each distinct row's points to the rankings sharing that row
        order = np.argsort(row_of_point, kind="stable")
        row_of_point, cut_of_point = row_of_point[order], cut_of_point[order]
        per_row = np.bincount(row_of_point, minlength=len(self.length))
        first = np.concatenate(([0], np.cumsum(per_row)[:-1]))
        n_points = per_row[self.row]
        ranking = np.repeat(np.arange(len(self.row)), n_points)
        within = np.arange(len(ranking)) - np.repeat(np.cumsum(n_points) - n_points, n_points)
        return ranking, cut_of_point[first[self.row[ranking]] + within]


def all_documents(jr: JudgedRankings) -> Subset:
    """Every document of ``jr`` as a :class:`Subset` (cached)."""
    return memo(jr, "all_documents", lambda: Subset.of(jr, np.ones(len(jr.rel), dtype=bool)))


def gain_documents(jr: JudgedRankings, params: GainParams) -> Subset:
    """The documents that can have a non-zero gain: the pooled ones, or every document when
    a parameter gives documents outside the qrels (level -1) a gain. The others gain
    exactly 0, so sums and running sums over this subset are those over every document."""
    if any(level == NONPOOL and gain != 0 for level, gain in params.pairs):
        return all_documents(jr)
    return pooled_documents(jr)


def dcg_terms(jr: JudgedRankings, params: GainParams) -> tuple[Subset, np.ndarray]:
    """:func:`gain_documents` and, for each, ``gain / log2(rank + 1)``, its DCG term."""
    documents = gain_documents(jr, params)
    return documents, document_gains(documents.rel, params) / log2_discount(documents.rank)
