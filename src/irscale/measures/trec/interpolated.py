"""Interpolated precision at recall levels: iprec_at_recall, 11pt_avg.

Sources: trec_eval 9.0.8 m_iprec_at_recall.c, m_11pt_avg.c (10.0 for ``compat=10``).

Interpolated precision at a rank is the best precision at that rank or below:
``IP(i) = max_{j ≥ i} c(j) / j`` (``c(j)``: relevant documents at ranks ≤ j). A recall level
``x`` becomes a number of relevant documents

    9.0.8:  m = (long)(x·R + 0.9)        10.0:  m = lround(x·R)

and ``iprec_at_recall_x`` is ``IP`` at the rank of the ``m``-th relevant retrieved document:

* 0 when ``m`` exceeds the relevant documents retrieved (``num_rel_ret``);
* for ``m ≤ 0`` (e.g. x = 0): the best precision anywhere, ``max_j c(j)/j`` — which is
  ``num_rel_ret / n`` = 0 when nothing relevant was retrieved, and NaN (0/0, printed ``-nan``
  by trec_eval) for an empty ranking (possible with -J or -M 0).

``11pt_avg`` is the mean of the same values over its recall levels (default 0, 0.1, ..., 1),
added in decreasing order of the levels' positions and divided by their number.

Exact emulation of the C loop: trec_eval walks the ranking from the bottom and assigns the
levels from the last one given down, each when it meets the relevant document of its count.
Levels given out of order (possible for 11pt_avg, whose parameters trec_eval keeps in
command-line order, not for iprec_at_recall, whose levels it sorts) derail that walk: after
the first level that cannot be met any more, every remaining level receives the best
precision anywhere. :func:`interpolated_precision` reproduces this state machine for any
order of levels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.judged import JudgedRankings
from ...core.subsets import memo, pooled_documents, relevant_documents
from ..base import EvalContext, FloatList, FloatParams, Floats, Range, c_divide, register
from ._segments import c_long, c_lround

_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def relevant_counts(jr: JudgedRankings, levels: Sequence[float], compat: int) -> np.ndarray:
    """``rankings × levels`` numbers of relevant documents for recall levels ``x``."""
    product = np.multiply.outer(jr.num_rel.astype(np.float64), np.asarray(levels, dtype=float))
    if compat >= 10:
        return c_lround(product)
    return c_long(product + 0.9)


class _Interpolation:
    """Per-batch data of the reverse loop: interpolated precision at relevant documents.

    For a level ≥ 0 only the relevant documents are scanned: below a relevant document,
    precision ``c(j)/j`` falls at every non-relevant rank, so the best precision at or
    below a relevant document is attained at a relevant one. A level ≤ -1 (where counts
    can be shifted negative) scans every document.
    """

    def __init__(self, jr: JudgedRankings) -> None:
        scanned = relevant_documents(jr) if jr.relevance_level >= 0 else pooled_documents(jr)
        passing = scanned.rel >= jr.relevance_level
        n_rel = scanned.count(passing)
        rel_ret = jr.num_rel_ret
        # rel_so_far as the C loop sees it at each rank: num_rel_ret at the bottom, minus one
        # per document passing degree >= level below it (equal to c(i) for any level >= 0)
        self.shift = rel_ret - n_rel
        so_far = scanned.cumcount(passing) + self.shift[scanned.segment]
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = so_far / scanned.rank
        self.interpolated = scanned.scan(precision, np.maximum, -np.inf, reverse=True)
        self.rel_ret = rel_ret
        self.relevant_positions = np.flatnonzero(passing)
        self.relevant_start = np.concatenate(([0], np.cumsum(n_rel)[:-1]))
        empty_value = c_divide(rel_ret, jr.lengths)  # 0/n, -nan for an empty ranking
        best = scanned.first(self.interpolated, 0.0)
        self.best_anywhere = np.where(rel_ret >= 1, best, empty_value)

    def at_count(self, count: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Interpolated precision at the ``count``-th relevant document of rankings ``rows``."""
        index = count - self.shift[rows]  # position among documents passing the level test
        position = self.relevant_positions[self.relevant_start[rows] + index - 1]
        return self.interpolated[position]


def interpolated_precision(jr: JudgedRankings, counts: np.ndarray) -> np.ndarray:
    """``rankings × levels`` values trec_eval assigns for relevant-document counts ``counts``.

    ``counts[:, t]`` is level ``t``'s count (see :func:`relevant_counts`), in the order the
    levels were given. Levels are visited from the last to the first, as in the C loop.
    """
    data = memo(jr, "interpolation", lambda: _Interpolation(jr))
    n_rankings, n_levels = counts.shape
    values = np.zeros((n_rankings, n_levels))
    started = np.zeros(n_rankings, dtype=bool)  # past the leading levels above num_rel_ret
    stuck = np.zeros(n_rankings, dtype=bool)  # the walk can no longer meet a level
    bound = data.rel_ret.copy()  # largest count the walk can still meet
    for t in range(n_levels - 1, -1, -1):
        count = counts[:, t]
        started |= count <= data.rel_ret
        live = started & ~stuck
        met = live & (count >= 1) & (count <= bound)
        rows = np.flatnonzero(met)
        values[rows, t] = data.at_count(count[rows], rows)
        bound[rows] = count[rows]
        stuck |= live & ~met
        values[stuck, t] = data.best_anywhere[stuck]
    return values


@register(
    "iprec_at_recall",
    doc="Interpolated precision at recall levels: the best precision at or below the rank "
    "where the given fraction of the relevant documents is reached (trec_eval "
    "m_iprec_at_recall.c).",
    params=Floats(*_LEVELS, valid=Range("each recall level", low=0.0, high=1.0)),
    formula="iprec(x) = max_{r: recall@r ≥ x} P@r",
    source="trec_eval 9.0.8 (m_iprec_at_recall.c)",
)
def iprec_at_recall(
    jr: JudgedRankings, levels: tuple[float, ...], ctx: EvalContext
) -> dict[str, np.ndarray]:
    values = interpolated_precision(jr, relevant_counts(jr, levels, ctx.compat))
    return {f"iprec_at_recall_{x:3.2f}": values[:, t] for t, x in enumerate(levels)}


@register(
    "11pt_avg",
    doc="Interpolated precision averaged over recall levels (default the 11 levels 0, 0.1, "
    "..., 1; trec_eval m_11pt_avg.c).",
    params=FloatParams(*_LEVELS, valid=Range("each recall level", low=0.0, high=1.0)),
    formula="(1/|X|) Σ_{x ∈ X} iprec(x), X = {0, 0.1, …, 1}",
    source="trec_eval 9.0.8 (m_11pt_avg.c)",
)
def eleven_point_average(
    jr: JudgedRankings, levels: FloatList, ctx: EvalContext
) -> dict[str, np.ndarray]:
    values = interpolated_precision(jr, relevant_counts(jr, levels.values, ctx.compat))
    total = np.zeros(jr.n_rankings)
    for t in range(values.shape[1] - 1, -1, -1):  # the C loop's order of additions
        total = total + values[:, t]
    return {levels.label("11pt_avg"): total / values.shape[1]}
