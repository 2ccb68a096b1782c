"""Helpers shared by measure kernels: C-exact running sums.

trec_eval computes every measure with a C loop over one topic's ranking, accumulating
doubles one document at a time in rank order. The kernels reproduce that bit for bit with
the in-order reductions of :mod:`irscale.core.segments` and, over the few documents that
can change a measure, :mod:`irscale.core.subsets`.
"""

from __future__ import annotations

import numpy as np

from ...core.judged import JudgedRankings
from ...core.segments import segment_scan


def running_sum(jr: JudgedRankings, values: np.ndarray) -> np.ndarray:
    """Per document, the sum of ``values`` from its ranking's first document to it (C order)."""
    return segment_scan(np.asarray(values, dtype=np.float64), jr.offsets, np.add, 0.0,
                        layout=jr.scan_layout)
