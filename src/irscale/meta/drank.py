"""d_rank, the distance between rankings of systems that accounts for the correlations
between systems (Carterette, SIGIR 2009, "On rank correlation and the distance between
rankings"; Sakai 2014, §5.2).

Kendall's τ counts swapped pairs alike, whether the two systems are far apart or within
noise of each other, and ignores that systems measured on the same topics are
correlated. d_rank measures instead how far the evidence — the per-topic scores X
(n topics × m systems) — lies from a ranking r of the systems, in units of its sampling
variability:

    D_t,k = X_t,r(k) − X_t,r(k+1)           (k = 1 … m − 1: each system minus the next in r)
    μ̂ = mean_t D_t,   Σ̂ = cov_t(D_t)        (sample covariance, n − 1 denominator)
    d_rank(X, r) = min_{θ ≥ 0} n (θ − μ̂)ᵀ Σ̂⁻¹ (θ − μ̂)

θ ≥ 0 is the set of true mean differences under which r is the ranking of the systems,
so d_rank is the squared Mahalanobis distance (with the covariance of the mean, Σ̂/n)
from the observed mean differences to the nearest means that rank the systems as r
does. It is 0 when the mean scores of X rank the systems as r; a swap costs more the
farther apart the two systems' means are relative to the standard error of their
difference, and correlated systems (a small variance of their difference) cost more to
swap than independent ones. The minimum is a non-negative least squares problem
(Σ̂⁻¹ = L Lᵀ: min_θ≥0 ‖√n Lᵀ(θ − μ̂)‖²), solved exactly (Lawson & Hanson's active set,
``scipy.optimize.nnls``).

Two measures (:func:`d_rank`)
    d_rank(A | B) is the distance of A's per-topic scores from the ranking by B's mean
    scores: how strongly A's evidence contradicts B's ranking. It is not symmetric;
    ``symmetric=True`` gives (d_rank(A | B) + d_rank(B | A))/2, as the symmetric τ_ap
    averages both directions (Sakai 2014, §5.2).

irscale's conventions (not in the paper)
    Systems tied in the ranking r (mean scores within the tolerance of Kendall's τ) keep
    their input order, as :func:`~irscale.meta.rbo_scores` does with
    ``ties="input"``. Σ̂ is singular when there
    are no more topics than systems (n ≤ m − 1) or a difference is constant: irscale then
    refuses, unless ``ridge=λ`` adds λ·I to Σ̂ (a regularisation of Σ̂; λ > 0 changes
    d_rank, so report it). The paper's significance test of d_rank is not provided.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
from scipy.optimize import nnls

from ..errors import InputError, ParameterError
from ..io.naming import find_names
from ..stats.kendall import ATOL, RTOL
from ..stats.protocol import Untested, format_table
from ..stats.tables import Format
from .common import paired_tables, score_table
from .params import D_RANK
from .rank_correlation import _ranking

__all__ = ["DRank", "d_rank", "rank_distance"]


@dataclass(frozen=True, eq=False)
class DRank(Untested):
    """d_rank of per-topic scores from a ranking (module docstring).

    ``statistic`` (= ``d``) is the distance, ``theta`` the nearest mean differences
    consistent with ``ranking`` (in its order), ``mean_differences`` the observed ones;
    ``pvalue`` is ``None`` (a distance, not a test)."""

    d: float
    ranking: tuple[str, ...]
    mean_differences: np.ndarray
    theta: np.ndarray
    n_topics: int
    ridge: float = 0.0
    label: str = "d_rank"
    statistic_field: ClassVar[str] = "d"

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{"method": self.label, "d_rank": self.d,
                              "systems": len(self.ranking), "topics": self.n_topics,
                              "ridge": self.ridge}])

    def format(self, fmt: Format = "text", *, digits: int = 4) -> str:
        return format_table(self.to_frame(), fmt, digits=digits, title=self.label)

    def __repr__(self) -> str:
        return (f"DRank({self.label} = {self.d:.6g}, {len(self.ranking)} systems, "
                f"{self.n_topics} topics)")


def _ranking_order(ranking: Sequence[Hashable], systems: tuple[str, ...]) -> list[int]:
    # each a system's name, refused with the systems as a name of no run is (io.naming)
    names = find_names([str(s) for s in ranking], systems, "the ranking's system")
    index = {s: i for i, s in enumerate(systems)}
    if len(set(names)) != len(names) or len(names) != len(systems):
        raise ParameterError(f"the ranking must name each of the {len(systems)} systems once, "
                             f"got {len(names)} names ({len(set(names))} distinct)")
    return [index[s] for s in names]


def _distance(values: np.ndarray, order: Sequence[int], ridge: float
              ) -> tuple[float, np.ndarray, np.ndarray]:
    n = values.shape[0]
    ordered = values[:, list(order)]
    diffs = ordered[:, :-1] - ordered[:, 1:]
    mean = diffs.mean(axis=0)
    if n < 2:
        raise InputError("d_rank needs two topics at least (a covariance of the differences)")
    cov = np.atleast_2d(np.cov(diffs, rowvar=False, ddof=1)) + ridge * np.eye(len(mean))
    try:
        chol = np.linalg.cholesky(np.linalg.inv(cov))
        if not np.all(np.isfinite(chol)):
            raise np.linalg.LinAlgError
    except np.linalg.LinAlgError:
        raise InputError(
            f"the covariance of the {len(mean)} score differences is singular ({n} topics, "
            f"{len(order)} systems: d_rank needs more topics than systems - 1, and no "
            "constant difference); give ridge=λ > 0 (--ridge) to regularise it") from None
    root = np.sqrt(n) * chol.T
    theta, residual = nnls(root, root @ mean)
    return float(residual ** 2), mean, theta


@D_RANK
def rank_distance(scores: object, ranking: Sequence[Hashable], *, measure: str | None = None,
                  ridge: float = 0.0) -> DRank:
    """d_rank of the per-topic ``scores`` (topics × systems: a ScoreMatrix, a wide
    DataFrame or an array) from ``ranking`` (the systems' labels, best first)."""
    values, _, systems = score_table(scores, measure, min_systems=2, min_topics=2)
    order = _ranking_order(ranking, systems)
    d, mean, theta = _distance(values, order, ridge)
    return DRank(d, tuple(systems[i] for i in order), mean, theta, values.shape[0], ridge)


def _order_by_means(values: np.ndarray) -> list[int]:
    """Systems by decreasing mean score; means tied within Kendall's tolerance keep their
    input order (the ranking of :func:`~irscale.meta.rbo_scores` with
    ``ties="input"``)."""
    return _ranking(values.mean(axis=0), RTOL, ATOL)


@D_RANK
def d_rank(a: object, b: object = None, *, measure_a: str | None = None,
           measure_b: str | None = None, symmetric: bool = False,
           ridge: float = 0.0) -> DRank:
    """d_rank(A | B): the distance of measure A's per-topic scores from the ranking of the
    systems by measure B's mean scores (module docstring); ``symmetric``: the mean of
    d_rank(A | B) and d_rank(B | A). Inputs as :func:`~irscale.meta.overall_correlation`."""
    x, y, topics, systems = paired_tables(a, b, measure_a, measure_b)
    if len(topics) < 2:
        raise InputError("d_rank needs two topics at least (a covariance of the differences)")
    order_b = _order_by_means(y)
    d, mean, theta = _distance(x, order_b, ridge)
    label = "d_rank(A | B)"
    if symmetric:
        d = 0.5 * (d + _distance(y, _order_by_means(x), ridge)[0])
        label = "d_rank symmetric"
    return DRank(d, tuple(systems[i] for i in order_b), mean, theta, len(topics), ridge, label)
