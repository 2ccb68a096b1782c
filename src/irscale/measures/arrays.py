"""Array helpers shared by the measure kernels computed in Python: hits at a cut-off, the
value at a rank, trec_eval's C division (``0/0`` is ``-nan``), division with 0 for a zero
denominator, and van Rijsbergen's F_β.
"""

from __future__ import annotations

import numpy as np

from ..core.judged import JudgedRankings
from ..core.subsets import memo, relevant_documents


def hits_at(jr: JudgedRankings, k: int | np.ndarray) -> np.ndarray:
    """Number of relevant documents among the first ``k`` of each ranking (``k`` one
    number, or one per ranking; counted over the relevant documents only)."""
    if np.ndim(k) == 0:
        k = int(k)
        return memo(jr, f"hits_at:{k}", lambda: relevant_documents(jr).count(True, k))
    return relevant_documents(jr).count(True, k)


def value_at_rank(jr: JudgedRankings, values: np.ndarray, k: np.ndarray, default=0):
    """``values`` at rank ``k_i`` of each ranking ``i`` (``default`` where k_i is out of range).

    ``k`` holds 1-based ranks, one per ranking.
    """
    k = np.asarray(k, dtype=np.int64)
    ok = (k >= 1) & (k <= jr.lengths)
    out = np.full(jr.n_rankings, default, dtype=np.asarray(values).dtype)
    out[ok] = values[jr.offsets[:-1][ok] + k[ok] - 1]
    return out


#: The NaN C's ``0.0 / 0.0`` gives on x86-64 (sign bit set; glibc prints it ``-nan``), the
#: value trec_eval prints for measures that divide 0 by 0.
C_NAN = float(np.copysign(np.nan, -1.0))


def c_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator`` as trec_eval's C divides doubles on x86-64: ``0/0`` is
    :data:`C_NAN` (``-nan``) whatever the machine, a NaN operand stays itself; no warning."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(numerator / denominator, dtype=np.float64)
    made = np.isnan(out) & ~np.isnan(numerator) & ~np.isnan(denominator)
    if made.any():
        out = out.copy()
        out[made] = C_NAN
    return out


def safe_divide(numerator: np.ndarray | float, denominator: np.ndarray | float) -> np.ndarray:
    """``numerator / denominator`` with 0 where the denominator is 0 (trec_eval's habit)."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    out = np.zeros(np.broadcast(numerator, denominator).shape)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def f_weights(beta: float) -> tuple[float, float]:
    """The weights ``(a, b)`` of F_β = (1 + β²)·P·R / (β²·P + R) = P·R / (a·P + b·R),
    a = β²/(1 + β²), b = 1/(1 + β²) (van Rijsbergen's F; Sakai 2014, eq. 5 and 39).

    Written so, F_β needs no product by 1 + β², which overflows for β > 1.3e154: a β whose
    square is beyond the range of a double weighs recall only (a = 1, b = 0: F = R, the
    limit), and β = 1 gives a = b = 1/2 exactly (F = 2PR/(P + R) to the last bit).

    >>> f_weights(1.0), f_weights(1e200)
    ((0.5, 0.5), (1.0, 0.0))
    """
    square = beta * beta
    if square == float("inf"):
        return 1.0, 0.0
    return square / (1.0 + square), 1.0 / (1.0 + square)


def f_beta(precision: np.ndarray, recall: np.ndarray, beta: float) -> np.ndarray:
    """F_β of precision and recall arrays, 0 where P = R = 0 (:func:`f_weights`: finite
    for every finite β ≥ 0, no numpy warning)."""
    a, b = f_weights(beta)
    precision = np.asarray(precision, dtype=np.float64)
    recall = np.asarray(recall, dtype=np.float64)
    return safe_divide(precision * recall, a * precision + b * recall)


def judged_total(jr: JudgedRankings, weights: np.ndarray) -> np.ndarray:
    """Per ranking: ``Σ_v R_v · weights[v]`` over the columns of ``rel_levels`` (one weight
    per column), added column by column in degree order — not a BLAS product, whose order
    of addition may change with the batch — so that a ranking's total has the same bits
    whatever the batch it is computed in."""
    total = np.zeros(jr.n_rankings)
    for column, weight in enumerate(np.asarray(weights, dtype=np.float64)):
        if weight:
            total += jr.rel_levels[:, column] * weight
    return total
