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
precision anywhere. The engine (rust/src/measures/interpolated.rs) runs trec_eval's loop
as it is, so any order of levels gives trec_eval's values.
"""

from __future__ import annotations

from ..base import FloatParams, Floats, Range
from ..native import Native, declare_native, level_label, typed_label

_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


declare_native(
    "iprec_at_recall",
    Native(label=level_label),
    doc="Interpolated precision at recall levels: the best precision at or below the rank "
    "where the given fraction of the relevant documents is reached (trec_eval "
    "m_iprec_at_recall.c).",
    params=Floats(*_LEVELS, valid=Range("each recall level", low=0.0, high=1.0)),
    formula="iprec(x) = max_{r: recall@r ≥ x} P@r",
    source="trec_eval 9.0.8 (m_iprec_at_recall.c)",
)


declare_native(
    "11pt_avg",
    Native(label=typed_label),
    doc="Interpolated precision averaged over recall levels (default the 11 levels 0, 0.1, "
    "..., 1; trec_eval m_11pt_avg.c).",
    params=FloatParams(*_LEVELS, valid=Range("each recall level", low=0.0, high=1.0)),
    formula="(1/|X|) Σ_{x ∈ X} iprec(x), X = {0, 0.1, …, 1}",
    source="trec_eval 9.0.8 (m_11pt_avg.c)",
)
