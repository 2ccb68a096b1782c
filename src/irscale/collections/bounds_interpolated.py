"""The chains of interpolated precision (``iprec_at_recall``, ``11pt_avg``, ``AP11``) of
:mod:`irscale.collections.bounds_chains` (its ``Interpolation``): their counts and
their maxima, numpy over every ranking at once.

trec_eval (m_iprec_at_recall.c) gives recall level ``x`` the best precision at or below the
rank of the ``m``-th relevant retrieved document, ``m = (long)(x·R + 0.9)`` (``AP11``:
``⌈t·R/10⌉``), 0 when fewer are retrieved, the best precision anywhere when ``m ≤ 0``.
Precision peaks at relevant documents, so with the relevant documents of a completion
numbered ``i = 1, 2, …`` down the ranking at ranks ``q_i``::

    iprec(x) = max_{i ≥ max(m, 1)} i / q_i            (0 when max(m, 1) > num_rel_ret)

Along a family of completions (``k`` unjudged documents relevant) the relevant documents
split in two at an unjudged document: the first one not raised, ``p_{k+1}``, in the prefix
family; the first one raised, ``β = p_{u-k+1}``, in the suffix family. ``J(d)``: the
judged relevant documents at or above ``d``; ``E(d)``: those and the unjudged ones.

* Above the split the precision of a relevant document does not depend on ``k``:
  ``E(d)/d`` in the prefix family (every unjudged document above it is relevant),
  ``J(d)/d`` in the suffix family (none is). Those numbered ``≥ m`` are a range of the
  list of candidates, whose best comes from a sparse table
  (:meth:`Candidates.range_max`).
* Below it the precision is a line in ``k``: ``(J(d) + k)/d`` of the judged relevant
  documents in the prefix family, ``(E(d) − u + k)/d`` of every candidate in the suffix
  family; the best of a suffix of the list (:class:`Lines`, :func:`lines_max`). In the
  suffix family, and in the prefix family while ``m − k`` exceeds the judged relevant
  documents above the split (none above counts), that suffix never starts lower as ``k``
  grows (``m − k`` never grows, nor the suffix family's split): monotone row maxima.
  Otherwise, in the prefix family, every relevant document below the split counts,
  whatever the level
  (``Interpolation.below_split``): a document with ``U`` unjudged documents above it
  lies below the split for ``k < U``, and the dyadic blocks of every ``[0, U)`` (one per
  bit of ``U``) are rectangles of rows ``k`` and lines.

Precision never falls along a run of consecutive relevant documents (``(i + 1)/(q + 1) ≥
i/q`` as ``i ≤ q``), so the lines and the table are those of each run's last document:
with few judgments, a few a ranking however deep. Time ``O(n log n)`` a ranking of ``n``
documents and level, and ``O(n log² n)`` for the rectangles; the values are the kernels'
own (counts divided once).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial

import numpy as np

from ..core.judged import JudgedRankings
from ..core.segments import ranges
from ..core.subsets import Subset
from ..measures.base import FloatList, MeasureRequest, get_family

#: Families of interpolated precision with a chain: their outputs are the levels' values
#: (``iprec_at_recall``) or their mean.
FAMILIES = frozenset({"iprec_at_recall", "11pt_avg", "AP11"})

#: The relevant documents a level asks for, of ``R`` (as floats: exact).
Count = Callable[[np.ndarray], np.ndarray]


def _tenths(t: int, recall_base: np.ndarray) -> np.ndarray:
    """``⌈t·R/10⌉`` (``AP11``'s level ``t/10``, in integers)."""
    return ((recall_base * t + 9) // 10).astype(np.int64)


def _trec(x: float, recall_base: np.ndarray) -> np.ndarray:
    """``(long)(x·R + 0.9)`` (m_iprec_at_recall.c)."""
    return (x * recall_base + 0.9).astype(np.int64)


def level_counts(request: MeasureRequest) -> list[Count] | None:
    """The relevant documents each recall level of ``request`` asks for, as a function of
    ``R`` (trec_eval 9.0.8's, as the bounds evaluate); None for ``11pt_avg`` levels out of
    order (trec_eval's walk then gives the levels after the first one missed the best
    precision anywhere: no chain)."""
    if request.family == "AP11":  # (precision_recall.py: iprec_at_tenths 0..10)
        return [partial(_tenths, t) for t in range(11)]
    params = request.params if request.params is not None else \
        get_family(request.family).params.default
    levels = params.values if isinstance(params, FloatList) else tuple(params)
    if list(levels) != sorted(levels):
        return None
    return [partial(_trec, float(x)) for x in levels]


#: Columns of a task of :func:`lines_max` evaluated for every row at once (fewer rounds).
NARROW = 8


def lines_max(slope: np.ndarray, at: np.ndarray, shift: np.ndarray, lo: np.ndarray,
              tasks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """Per row ``r`` of task ``(first, stop, c0, c1)`` (rows ``first..stop-1``): the largest
    ``(at[c] + shift[r]) / slope[c]`` over the columns ``c`` from ``max(lo[r], c0)`` to
    ``c1`` (-inf where none). Within a task ``slope`` grows with ``c``, ``shift`` does not
    fall and ``lo`` does not rise from row to row, so the last column of a row's maximum
    never rises (for ``c < c'`` the difference of their values falls as the shift grows):
    every task is split at its middle row, whose maximum bounds the columns of the rows
    before and after it (monotone row maxima by divide and conquer), the tasks of a round
    evaluated at once, and a task of at most :data:`NARROW` columns for all its rows. Time
    ``O((rows + columns) log rows)``."""
    out = np.full(len(shift), -np.inf)

    def best(rows: np.ndarray, left: np.ndarray, right: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """Per row: its maximum over columns ``left..right`` (kept in ``out``) and the last
        column holding it (``right`` where none)."""
        width = np.maximum(right - left + 1, 0)
        some = np.flatnonzero(width > 0)
        arg = right.copy()
        if len(some):
            columns = ranges(left[some], width[some])
            value = (at[columns] + np.repeat(shift[rows[some]], width[some])) / slope[columns]
            starts = np.cumsum(width[some]) - width[some]
            top = np.maximum.reduceat(value, starts)
            arg[some] = np.maximum.reduceat(
                np.where(value >= np.repeat(top, width[some]), columns, -1), starts)
            out[rows[some]] = top
        return width > 0, arg

    r0, r1, c0, c1 = tasks
    keep = (r0 < r1) & (c0 <= c1)
    r0, r1, c0, c1 = r0[keep], r1[keep], c0[keep], c1[keep]
    while len(r0):
        narrow = c1 - c0 < NARROW
        if narrow.any():
            count = r1[narrow] - r0[narrow]
            rows = ranges(r0[narrow], count)
            best(rows, np.maximum(np.repeat(c0[narrow], count), lo[rows]),
                 np.repeat(c1[narrow], count))
            r0, r1, c0, c1 = r0[~narrow], r1[~narrow], c0[~narrow], c1[~narrow]
        mid = (r0 + r1) // 2
        found, arg = best(mid, np.maximum(c0, lo[mid]), c1)
        before, after = (r0 < mid) & found, mid + 1 < r1
        r0, r1, c0, c1 = (np.concatenate((r0[before], mid[after] + 1)),
                          np.concatenate((mid[before], r1[after])),
                          np.concatenate((arg[before], c0[after])),
                          np.concatenate((c1[before], arg[after])))
    return out


@dataclass
class Candidates:
    """One list of candidate documents, in ranking order, laid end to end over the
    rankings: ``docs`` (their indices in the view), each ranking's ``offset`` and
    ``length`` in the list, per document the ``counted`` documents of the list at or above
    it and its ``rank``."""

    docs: np.ndarray
    offset: np.ndarray
    length: np.ndarray
    counted: np.ndarray
    rank: np.ndarray

    @classmethod
    def of(cls, view: JudgedRankings, member: np.ndarray) -> Candidates:
        """The documents of ``view`` where ``member``."""
        subset = Subset.of(view, member)
        counted = np.arange(1, len(subset.index) + 1) - subset.offsets[subset.segment]
        return cls(subset.index, subset.offsets[:-1], subset.counts, counted,
                   view.rank[subset.index].astype(np.float64))

    @cached_property
    def ends(self) -> np.ndarray:
        """The last document of every run of consecutive documents of the list (the last
        of every ranking's included)."""
        docs = self.docs
        last = np.ones(len(docs), dtype=bool)
        last[:-1] = (docs[1:] != docs[:-1] + 1) | (self.counted[1:] <= self.counted[:-1])
        return np.flatnonzero(last)

    @cached_property
    def next_end(self) -> np.ndarray:
        """Per document (and one past the list): the first run end at or after it."""
        return np.searchsorted(self.ends, np.arange(len(self.docs) + 1))

    @cached_property
    def precision(self) -> np.ndarray:
        """Per document: ``counted / rank``."""
        return self.counted / self.rank

    @cached_property
    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The sparse table of :attr:`precision` at the runs' ends, flat: row ``j`` (from
        ``j · len(ends)``) the largest of ``2^j`` ends from each; and for every span ``s``
        of ends (1 for 0), the start of row ``⌊log2 s⌋`` and ``2^⌊log2 s⌋``."""
        rows = [self.precision[self.ends]]
        width = 1
        while 2 * width <= len(self.ends):
            rows.append(np.maximum(rows[-1][:-width], rows[-1][width:]))
            width *= 2
        table = np.full((len(rows), len(self.ends)), -np.inf)
        for j, row in enumerate(rows):
            table[j, :len(row)] = row
        log = np.log2(np.maximum(np.arange(len(self.ends) + 1), 1)).astype(np.int64)
        return table.ravel(), log * len(self.ends), np.left_shift(1, log)

    def range_max(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """Per query: the best :attr:`precision` of documents ``lo..hi`` (-inf where
        ``lo > hi``), ranges within one ranking. Precision never falls along a run, so:
        the value at ``hi`` and the largest of the runs' ends in the range, from
        :attr:`table` (``O(1)`` a query)."""
        some = lo <= hi
        if not some.any():
            return np.full(len(lo), -np.inf)
        hi = np.where(some, hi, 0)
        first = self.next_end[np.where(some, lo, 0)]
        span = np.maximum(self.next_end[hi + 1] - first, 0)
        table, row, power = self.table
        at = row[span] + first
        ends = np.maximum(table[np.minimum(at, len(table) - 1)],
                          table[np.maximum(at + span - power[span], 0)])
        return np.where(some, np.where(span > 0, np.maximum(ends, self.precision[hi]),
                                       self.precision[hi]), -np.inf)


@dataclass
class Lines:
    """Per slot (of ranking ``slot_ranking``): the lines ``(counted + shift) / rank`` of its
    ranking's ``candidates``, the best from a document down (:meth:`best`): of the runs'
    ends, from a table of their suffix maxima in a ranking of at most :data:`NARROW` runs
    (made once for every level), by :func:`lines_max` otherwise."""

    slot_ranking: np.ndarray
    candidates: Candidates
    shift: np.ndarray

    @cached_property
    def columns(self) -> tuple[np.ndarray, np.ndarray]:
        """Per slot: the first and the last run end of its ranking."""
        ranking, c = self.slot_ranking, self.candidates
        return (c.next_end[c.offset[ranking]],
                c.next_end[c.offset[ranking] + c.length[ranking]] - 1)

    @cached_property
    def narrow(self) -> tuple[np.ndarray, np.ndarray]:
        """Per slot: its row of :attr:`narrow`'s table (-1 in a ranking of more runs), and
        the table: per such slot, its best line from each run end of its ranking down."""
        first, final = self.columns
        width = final - first + 1
        slots = np.flatnonzero((width > 0) & (width <= NARROW))
        row = np.full(len(width), -1)
        row[slots] = np.arange(len(slots))
        ends = self.candidates.ends
        slope, at = self.candidates.rank[ends], self.candidates.counted[ends]
        table = np.full((len(slots), int(width[slots].max(initial=0))), -np.inf)
        step = np.arange(table.shape[1])
        for chunk in range(0, len(slots), 1 << 16):
            these = slots[chunk:chunk + (1 << 16)]
            valid = step < width[these, None]
            column = np.where(valid, first[these, None] + step, 0)
            values = np.where(valid, (at[column] + self.shift[these, None]) / slope[column],
                              -np.inf)
            table[chunk:chunk + len(these)] = np.fmax.accumulate(values[:, ::-1],
                                                                 axis=1)[:, ::-1]
        return row, table

    @cached_property
    def offset(self) -> np.ndarray:
        """Per slot: its ranking's offset in the list, less one."""
        return self.candidates.offset[self.slot_ranking] - 1

    def best(self, rows: np.ndarray, lo: np.ndarray) -> np.ndarray:
        """Per slot where ``rows``: the best line of its ranking's candidates from the
        ``lo``-th (1-based) down; -inf elsewhere."""
        c = self.candidates
        first, final = self.columns
        start = c.next_end[np.where(rows, self.offset + lo, 0)]
        row, table = self.narrow
        near = rows & (row >= 0) & (start <= final)
        width = table.shape[1]
        out = np.where(near, table.ravel()[np.where(near, row * width + start - first, 0)]
                       if table.size else 0.0, -np.inf)
        wide = np.flatnonzero(rows & (row < 0))
        if len(wide):
            owner = self.slot_ranking[wide]
            task = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
            out[wide] = lines_max(
                c.rank[c.ends], c.counted[c.ends].astype(np.float64),
                self.shift[wide].astype(np.float64), start[wide],
                (task, np.r_[task[1:], len(wide)], first[wide[task]], final[wide[task]]))
        return out
