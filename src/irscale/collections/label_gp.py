"""Gaussian-process aggregation of binary crowd labels (``method="gp"`` of
:func:`irscale.collections.aggregate_labels`).

The model of Rodrigues, Pereira & Ribeiro (2014), "Gaussian Process Classification and
Active Learning with Multiple Annotators" (ICML), binary form:

* a latent function ``f`` over the documents of a topic with a GP prior ``f ~ N(0, K)``,
  ``K[i, i'] = exp(−‖x_i − x_i'‖² / (2ℓ²)) + δ_ii' · 1e-6`` (an RBF kernel of unit
  variance over the documents' features ``x``, a jitter on the diagonal); ``ℓ``: declared,
  or the median of the distances between the topic's documents (the median heuristic;
  1 when every document has the same features). The topics are independent GPs; the
  workers are shared by all topics;
* the true label ``z_i ~ Bernoulli(σ(f_i))`` with the logistic ``σ`` (the paper uses the
  probit ``Φ``);
* worker ``j`` answers 1 on a relevant document with probability ``α_j`` (sensitivity)
  and 0 on a non-relevant one with probability ``β_j`` (specificity), independently
  (the annotator model of Raykar et al. 2010, "Learning from crowds", JMLR 11).

Fitted by EM (Raykar et al. 2010, §2.4, with the GP in place of their logistic
regression), starting from the majority-vote share ``μ_i`` of the label 1:

* M-step: ``α_j = Σ_i μ_i y_ij / Σ_i μ_i``, ``β_j = Σ_i (1 − μ_i)(1 − y_ij) /
  Σ_i (1 − μ_i)`` over the documents ``j`` labelled (clipped to [1e-10, 1 − 1e-10]); the
  GP by the Laplace approximation with the soft labels ``μ`` as targets: the mode
  ``f̂ = argmax Σ_i [μ_i log σ(f_i) + (1 − μ_i) log σ(−f_i)] − ½ fᵀK⁻¹f`` by Newton's
  method as Rasmussen & Williams (2006), Algorithm 3.1, with ``∇ log p = μ − σ(f)`` and
  ``W = diag(σ(f)(1 − σ(f)))`` (the soft targets change the gradient only), started
  from the previous iteration's mode;
* E-step: ``μ_i = P(z_i = 1 | y, f̂) = σ(logit p_i + log a_i − log b_i)`` with
  ``a_i = Π_j α_j^{y_ij} (1 − α_j)^{1 − y_ij}``, ``b_i = Π_j β_j^{1 − y_ij}
  (1 − β_j)^{y_ij}`` and ``p_i`` the GP's predictive probability at the document,
  ``σ(f̂_i / √(1 + π v_i / 8))`` (MacKay's probit approximation of ``∫ σ(f) N(f | f̂_i,
  v_i) df``; Bishop 2006, eq. 4.153) with the Laplace variance ``v_i = K_ii −
  (K W^½ B⁻¹ W^½ K)_ii``, ``B = I + W^½ K W^½`` (R&W eq. 3.24).

EM stops after ``n_iter`` iterations or when no ``μ_i`` moves by ``tol`` or more.
Differences from the paper: Laplace instead of expectation propagation, the logistic
instead of the probit link, and fixed kernel hyper-parameters (the paper maximises the
approximate marginal likelihood over them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.linalg import solve_triangular
from scipy.special import expit
from threadpoolctl import threadpool_limits

from ..core.progress import no_report
from ..errors import InputError
from ..io.crowd import CrowdLabels
from ..io.features import read_features

#: The kernel helpers; the Laplace fit and EM (:func:`laplace_mode`, :func:`fit_gp`) are the
#: machinery of :func:`irscale.collections.aggregate_labels` (``method="gp"``), whose
#: :class:`~irscale.collections.labels.Aggregation` is the result.
__all__ = ["JITTER", "median_length_scale", "rbf_kernel", "topic_kernels"]

#: The jitter added to the kernel's diagonal.
JITTER = 1e-6
#: Smallest worker probability (as :data:`irscale.collections.labels.EPS`).
EPS = 1e-10
#: Newton iterations of one Laplace fit at most, and their stopping rule: no component of
#: ``f`` moves by this much.
NEWTON_STEPS = 100
NEWTON_TOL = 1e-10


def rbf_kernel(x: np.ndarray, length_scale: float, jitter: float = JITTER) -> np.ndarray:
    """``K[i, i'] = exp(−‖x_i − x_i'‖² / (2ℓ²)) + δ_ii' jitter`` of the rows of ``x``
    (centred first: ``‖x‖² + ‖x'‖² − 2 x·x'`` loses fewer digits near the origin)."""
    x = x - x.mean(axis=0)
    sq = (x * x).sum(axis=1)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (x @ x.T), 0.0)
    np.fill_diagonal(d2, 0.0)
    with np.errstate(over="ignore"):      # a tiny ℓ: d²/ℓ² = inf, exp(−inf) = 0 exactly
        scaled = d2 / length_scale / length_scale
    return np.exp(-0.5 * scaled) + jitter * np.eye(len(x))


def median_length_scale(x: np.ndarray) -> float:
    """The median Euclidean distance between two different rows of ``x`` (1 when no two
    rows differ)."""
    upper = np.triu_indices(len(x), k=1)
    d = np.sqrt(((x[upper[0]] - x[upper[1]]) ** 2).sum(axis=1))
    d = d[d > 0]
    return float(np.median(d)) if d.size else 1.0


@dataclass(frozen=True)
class LaplaceFit:
    """The Laplace approximation of one GP: the mode ``f`` and the posterior variance of
    every ``f_i``."""

    f: np.ndarray
    variance: np.ndarray

    @property
    def probability(self) -> np.ndarray:
        """``σ(f_i / √(1 + π v_i / 8))``: the predictive probability of the label 1."""
        return expit(self.logit)

    @property
    def logit(self) -> np.ndarray:
        """The logit of :attr:`probability`."""
        return self.f / np.sqrt(1.0 + np.pi * self.variance / 8.0)


def laplace_mode(k: np.ndarray, targets: np.ndarray, f0: np.ndarray | None = None
                 ) -> LaplaceFit:
    """The Laplace approximation of a GP classifier with soft ``targets`` in [0, 1]
    (module doc; Rasmussen & Williams 2006, Algorithm 3.1): at the mode
    ``f = K (targets − σ(f))``. The variance is taken with the last step's ``W`` and
    Cholesky factor (at an ``f`` that the step moved by less than :data:`NEWTON_TOL`)."""
    f = np.zeros(len(targets)) if f0 is None else f0.copy()
    eye = np.eye(len(f))
    for _ in range(NEWTON_STEPS):
        p = expit(f)
        w = p * (1 - p)
        sw = np.sqrt(w)
        chol = np.linalg.cholesky(eye + sw[:, None] * k * sw[None, :])
        b = w * f + (targets - p)
        inner = solve_triangular(chol, sw * (k @ b), lower=True)
        a = b - sw * solve_triangular(chol.T, inner, lower=False)
        new = k @ a
        moved = np.abs(new - f).max(initial=0.0)
        f = new
        if moved < NEWTON_TOL:
            break
    v = solve_triangular(chol, sw[:, None] * k, lower=True)
    return LaplaceFit(f, np.maximum(np.diag(k) - (v * v).sum(axis=0), 0.0))


@dataclass(frozen=True)
class GpFit:
    """The fitted model: ``posterior`` P(z_i = 1) of every document, the workers'
    ``sensitivity`` α and ``specificity`` β, the EM iterations and whether EM converged."""

    posterior: np.ndarray
    sensitivity: np.ndarray
    specificity: np.ndarray
    iterations: int
    converged: bool


def fit_gp(item: np.ndarray, worker: np.ndarray, answer: np.ndarray,
           kernels: list[tuple[np.ndarray, np.ndarray]], n_items: int, n_workers: int,
           n_iter: int, tol: float, report: Callable[[int], None] = no_report) -> GpFit:
    """EM of the module doc (``report(iterations)`` as they are run). ``item``, ``worker``,
    ``answer`` (0/1): one entry per label; ``kernels``: (the items of a topic, their kernel
    matrix) per topic. BLAS runs on one thread: the matrices of one topic are small, and
    threads would cost more than they save."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _em(item, worker, answer, kernels, n_items, n_workers, n_iter, tol, report)


def _em(item: np.ndarray, worker: np.ndarray, answer: np.ndarray,
        kernels: list[tuple[np.ndarray, np.ndarray]], n_items: int, n_workers: int,
        n_iter: int, tol: float, report: Callable[[int], None]) -> GpFit:
    """:func:`fit_gp` (in the BLAS threads it sets)."""
    y = answer.astype(np.float64)
    mu = (np.bincount(item, weights=y, minlength=n_items)
          / np.bincount(item, minlength=n_items))
    modes = [np.zeros(len(items)) for items, _ in kernels]
    logit = np.zeros(n_items)
    iterations, converged = 0, False
    alpha = beta = np.full(n_workers, 0.5)
    while iterations < n_iter:
        report(iterations)
        iterations += 1
        m = mu[item]
        alpha = _share(m * y, m, worker, n_workers)
        beta = _share((1 - m) * (1 - y), 1 - m, worker, n_workers)
        for t, (items, k) in enumerate(kernels):
            fit = laplace_mode(k, mu[items], modes[t])
            modes[t] = fit.f
            logit[items] = fit.logit
        evidence = np.where(y == 1, np.log(alpha[worker]) - np.log1p(-beta[worker]),
                            np.log1p(-alpha[worker]) - np.log(beta[worker]))
        new = expit(logit + np.bincount(item, weights=evidence, minlength=n_items))
        moved = np.abs(new - mu).max()
        mu = new
        if moved < tol:
            converged = True
            break
    return GpFit(mu, alpha, beta, iterations, converged)


def _share(hits: np.ndarray, weights: np.ndarray, worker: np.ndarray, n_workers: int
           ) -> np.ndarray:
    """``Σ hits / Σ weights`` per worker, clipped to [EPS, 1 − EPS]."""
    total = np.bincount(worker, weights=weights, minlength=n_workers)
    share = np.bincount(worker, weights=hits, minlength=n_workers) / np.maximum(total, EPS)
    return np.clip(share, EPS, 1 - EPS)


def topic_kernels(data: CrowdLabels, features: Any, length_scale: float | None
                  ) -> list[tuple[np.ndarray, np.ndarray]]:
    """(the items of a topic, their kernel) for every topic of the labels, the features
    read from ``features`` (:func:`irscale.io.features.read_features`; a labelled
    document without features is an error naming its first label's line, the features of
    unlabelled documents are not used)."""
    table = read_features(features)
    key = pd.MultiIndex.from_frame(table.items)
    row = key.get_indexer(pd.MultiIndex.from_frame(data.items))
    if (row < 0).any():
        missing = int(np.flatnonzero(row < 0)[0])
        first = int(np.flatnonzero(data.item == missing)[0])
        raise data.error(InputError, f"document has no features in {table.source}", first)
    topic = pd.factorize(data.items["topic"])[0]
    order = np.argsort(topic, kind="stable")
    groups = np.split(order, np.flatnonzero(np.diff(topic[order])) + 1)
    kernels = []
    for items in groups:
        x = table.values[row[items]]
        with np.errstate(over="ignore", invalid="ignore"):
            scale = median_length_scale(x) if length_scale is None else length_scale
            k = rbf_kernel(x, scale)
        if not np.isfinite(k).all():
            raise InputError(f"the distances between the documents of topic "
                             f"{data.items['topic'].iloc[items[0]]} overflow a double: scale "
                             "the features down", source=table.source)
        kernels.append((items, k))
    return kernels
