"""Type III sums of squares of unbalanced crossed designs (least squares, effect coding).

Each factor with L levels is coded by L − 1 sum-to-zero ("effect") columns; interaction
columns are products of their factors' columns; the design is sparse. For every term A,
SS_A = RSS(model without A's columns) − RSS(full model) with df_A = rank(full) −
rank(reduced) — Yates' weighted squares of means, the "type III" sums of squares of SAS
and of ``statsmodels.stats.anova.anova_lm(typ=3)`` with ``Sum`` contrasts (Searle, 1987,
§4.6; Maxwell & Delaney, 2004, ch. 7). With complete balanced data they equal the closed
forms of :mod:`irscale.stats._factorial`.

The normal equations are solved by Cholesky factorisation of principal sub-matrices of
X'X (dense, p × p with p the number of columns, e.g. 6,806 for topic × system × shard
with all two-way interactions on 50 × 129 × 3); when X'X is singular (a whole interaction
cell is empty) a pseudo-inverse is used and the degrees of freedom are rank differences.
The estimated marginal (least-squares) means of a factor, μ̂ + α̂_j, and their covariance
MS_E · L (X'X)⁻ L' feed Tukey's HSD (Tukey–Kramer standard errors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.linalg as la
from scipy import sparse

from ._factorial import SumsOfSquares, Term


def effect_coding(codes: np.ndarray, levels: int) -> sparse.csr_matrix:
    """N × (levels − 1) sum-to-zero coding: level l < L − 1 → e_l, level L − 1 → −1s."""
    n = len(codes)
    last = codes == levels - 1
    width = levels - 1
    counts = np.where(last, width, 1)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    columns = np.empty(indptr[-1], dtype=np.int64)
    data = np.empty(indptr[-1])
    single = ~last
    columns[indptr[:-1][single]] = codes[single]
    data[indptr[:-1][single]] = 1.0
    rows_last = np.flatnonzero(last)
    if len(rows_last):
        starts = indptr[rows_last]
        block = starts[:, None] + np.arange(width)[None, :]
        columns[block.ravel()] = np.tile(np.arange(width), len(rows_last))
        data[block.ravel()] = -1.0
    return sparse.csr_matrix((data, columns, indptr), shape=(n, width))


def rowwise_kron(a: sparse.csr_matrix, b: sparse.csr_matrix) -> sparse.csr_matrix:
    """Row-wise Kronecker product: row r is kron(a[r], b[r]) (interaction columns)."""
    na, nb = np.diff(a.indptr), np.diff(b.indptr)
    per_row = na * nb
    indptr = np.concatenate([[0], np.cumsum(per_row)])
    row = np.repeat(np.arange(a.shape[0]), per_row)
    local = np.arange(indptr[-1]) - indptr[:-1][row]
    nb_row = nb[row]
    ia = a.indptr[:-1][row] + local // np.maximum(nb_row, 1)
    ib = b.indptr[:-1][row] + local % np.maximum(nb_row, 1)
    columns = a.indices[ia] * b.shape[1] + b.indices[ib]
    data = a.data[ia] * b.data[ib]
    return sparse.csr_matrix((data, columns, indptr), shape=(a.shape[0], a.shape[1] * b.shape[1]))


def solve_normal(gram: np.ndarray, rhs: np.ndarray) -> tuple[np.ndarray, int]:
    """Solution of gram · b = rhs (minimum-norm if singular) and the rank of gram."""
    try:
        factor = la.cho_factor(gram, lower=True, check_finite=False)
        pivots = np.abs(np.diag(factor[0]))
        if pivots.min() ** 2 > pivots.max() ** 2 * gram.shape[0] * np.finfo(float).eps * 10:
            return la.cho_solve(factor, rhs, check_finite=False), gram.shape[0]
    except la.LinAlgError:
        pass
    eig, vec = la.eigh(gram, check_finite=False)
    keep = eig > eig.max(initial=0.0) * gram.shape[0] * np.finfo(float).eps * 10
    inverse = (vec[:, keep] / eig[keep]) @ vec[:, keep].T
    return inverse @ rhs, int(keep.sum())


@dataclass(frozen=True)
class LinearFit:
    """Type III sums of squares plus one factor's least-squares means and covariance."""

    sums: SumsOfSquares
    means: np.ndarray
    cov: np.ndarray


def type3(
    y: np.ndarray,
    codes: dict[str, np.ndarray],
    levels: dict[str, int],
    terms: Sequence[Term],
    target: str,
) -> LinearFit:
    """Type III ANOVA of ``y`` on the coded factors, and the LS means of ``target``."""
    n = len(y)
    coding = {f: effect_coding(codes[f], levels[f]) for f in codes}
    blocks: list[sparse.csr_matrix] = [sparse.csr_matrix(np.ones((n, 1)))]
    spans: list[range] = []
    start = 1
    for term in terms:
        block = coding[term[0]]
        for factor in term[1:]:
            block = rowwise_kron(block, coding[factor])
        blocks.append(block)
        spans.append(range(start, start + block.shape[1]))
        start += block.shape[1]
    design = sparse.hstack(blocks, format="csc")
    gram = (design.T @ design).toarray()
    moment = design.T @ y

    def fit(keep: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
        coef, rank = solve_normal(gram[np.ix_(keep, keep)], moment[keep])
        return y - design[:, keep] @ coef, rank, coef

    every = np.arange(start)
    residuals, rank, coef = fit(every)
    rss = float(residuals @ residuals)
    ss, df = [], []
    for span in spans:
        keep = np.setdiff1d(every, np.fromiter(span, dtype=np.int64))
        reduced, rank_reduced, _ = fit(keep)
        rss_reduced = float(reduced @ reduced)
        ss.append(max(rss_reduced - rss, 0.0))
        df.append(float(rank - rank_reduced))
    df_error = float(n - rank)
    ms_error = rss / df_error if df_error > 0 else np.nan
    sums = SumsOfSquares(tuple(terms), tuple(ss), tuple(df), rss, df_error,
                         float(np.sum((y - y.mean()) ** 2)), n, residuals)

    # least-squares means of the target factor: intercept + its effect-coded columns
    span = spans[list(terms).index((target,))]
    contrast = np.zeros((levels[target], start))
    contrast[:, 0] = 1.0
    contrast[:, span.start : span.stop] = effect_coding(
        np.arange(levels[target]), levels[target]
    ).toarray()
    means = contrast @ coef
    solved, _ = solve_normal(gram, contrast.T)
    cov = ms_error * (contrast @ solved)
    return LinearFit(sums, means, cov)
