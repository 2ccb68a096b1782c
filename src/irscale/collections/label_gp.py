"""Gaussian-process aggregation of binary crowd labels (``method="gp"`` of
:func:`irscale.collections.aggregate_labels`).

The model of Rodrigues, Pereira & Ribeiro (2014), "Gaussian Process Classification and
Active Learning with Multiple Annotators" (ICML), binary form:

* a latent function ``f`` over the documents of a topic with a GP prior ``f ~ N(0, K)``,
  ``K[i, i'] = exp(−‖x_i − x_i'‖² / (2ℓ²)) + δ_ii' · 1e-6`` (an RBF kernel of unit
  variance over the documents' features ``x``, a jitter on the diagonal; with a signal
  variance ``s²`` as factor when learned); ``ℓ``: declared, or the median of the distances
  between the topic's documents (the median heuristic; 1 when every document has the same
  features), or learned with ``s²`` (below). The topics are independent GPs; the
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
Hyper-parameters: by default (``kernel_fit="median"``) the median heuristic's ``ℓ`` and
``s² = 1``, fixed. With ``kernel_fit="evidence"`` (no declared ``ℓ``), at
every M-step, before the Laplace fit, ``(ℓ, s²)`` of each topic move to the maximum of the
Laplace approximation of the marginal likelihood of the soft targets (R&W eq. 3.32;
:func:`laplace_mode`) with its analytic gradient (:func:`evidence_gradient`), from the
previous values (first: the median heuristic and 1; :class:`TopicKernel`), as the paper
maximises the approximate marginal likelihood, until a search moves neither ``log ℓ`` nor
``log s²`` by :data:`SETTLED` (the topic's kernel then stays: a search from a maximum
costs a few Laplace fits and moves nothing). A declared ``ℓ`` keeps the kernel fixed
(``s² = 1``).

Differences from the paper: Laplace instead of expectation propagation (so the marginal
likelihood maximised is Laplace's), the logistic instead of the probit link, and the
hyper-parameters bounded (ℓ within a factor :data:`LENGTH_RANGE` of the median heuristic,
``s²`` in :data:`VARIANCE_BOUNDS`).
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

#: A topic's hyper-parameters stay where they are once a search moves neither log ℓ nor
#: log s² by this much.
SETTLED = 1e-3

#: The jitter added to the kernel's diagonal.
JITTER = 1e-6
#: Smallest worker probability (as :data:`irscale.collections.labels.EPS`).
EPS = 1e-10
#: Newton iterations of one Laplace fit at most, and their stopping rule: no component of
#: ``f`` moves by this much.
NEWTON_STEPS = 100
NEWTON_TOL = 1e-10
#: The learned length-scale lies within a factor of this of the median heuristic's, the
#: learned signal variance in :data:`VARIANCE_BOUNDS`.
LENGTH_RANGE = 20.0
VARIANCE_BOUNDS = (0.05, 50.0)


def rbf_kernel(x: np.ndarray, length_scale: float, jitter: float = JITTER,
               variance: float = 1.0) -> np.ndarray:
    """``K[i, i'] = s² exp(−‖x_i − x_i'‖² / (2ℓ²)) + δ_ii' jitter`` of the rows of ``x``
    (``s²``: ``variance``; centred first: ``‖x‖² + ‖x'‖² − 2 x·x'`` loses fewer digits near
    the origin)."""
    return _rbf(squared_distances(x), length_scale, variance)[0] + jitter * np.eye(len(x))


def squared_distances(x: np.ndarray) -> np.ndarray:
    """``‖x_i − x_i'‖²`` of the rows of ``x`` (:func:`rbf_kernel`)."""
    x = x - x.mean(axis=0)
    sq = (x * x).sum(axis=1)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (x @ x.T), 0.0)
    np.fill_diagonal(d2, 0.0)
    return d2


def _rbf(d2: np.ndarray, length_scale: float, variance: float) -> tuple[np.ndarray, np.ndarray]:
    """``s² exp(−d² / (2ℓ²))`` (no jitter) and ``d²/ℓ²``."""
    with np.errstate(over="ignore"):      # a tiny ℓ: d²/ℓ² = inf, exp(−inf) = 0 exactly
        scaled = d2 / length_scale / length_scale
    return variance * np.exp(-0.5 * scaled), scaled


def median_length_scale(x: np.ndarray) -> float:
    """The median Euclidean distance between two different rows of ``x`` (1 when no two
    rows differ)."""
    upper = np.triu_indices(len(x), k=1)
    d = np.sqrt(((x[upper[0]] - x[upper[1]]) ** 2).sum(axis=1))
    d = d[d > 0]
    return float(np.median(d)) if d.size else 1.0


@dataclass(frozen=True)
class LaplaceFit:
    """The Laplace approximation of one GP: the mode ``f``, the posterior variance of
    every ``f_i`` and the approximate log marginal likelihood (:func:`laplace_mode`)."""

    f: np.ndarray
    variance: np.ndarray
    log_evidence: float

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
    ``f = K (targets − σ(f))``. The variance and the log marginal likelihood are taken with
    the last step's ``W`` and Cholesky factor ``L`` of ``B`` (at an ``f`` that the step
    moved by less than :data:`NEWTON_TOL`); the latter is R&W eq. 3.32,
    ``log q(y | X, θ) = −½ f̂ᵀK⁻¹f̂ + log p(y | f̂) − ½ log|B|``, with ``K⁻¹f̂ = targets − σ(f̂)``
    at the mode, ``log p(y | f) = Σ_i [t_i log σ(f_i) + (1 − t_i) log σ(−f_i)]`` and
    ``½ log|B| = Σ_i log L_ii`` (R&W Algorithm 3.1, line 10)."""
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
    likelihood = -(targets * np.logaddexp(0.0, -f) + (1 - targets) * np.logaddexp(0.0, f)).sum()
    evidence = (-0.5 * f @ (targets - expit(f)) + likelihood
                - np.log(np.diag(chol)).sum())
    return LaplaceFit(f, np.maximum(np.diag(k) - (v * v).sum(axis=0), 0.0), float(evidence))


def evidence_gradient(k: np.ndarray, dk: list[np.ndarray], targets: np.ndarray,
                      f: np.ndarray) -> np.ndarray:
    """The gradient of the Laplace log marginal likelihood (:func:`laplace_mode`, at its
    mode ``f``) along the kernel derivatives ``dk`` (Rasmussen & Williams 2006, eq.
    5.20–5.23, Algorithm 5.1: the explicit term ``½ aᵀ ∂K a − ½ tr(R ∂K)``, ``a = K⁻¹f̂``,
    ``R = W^½ B⁻¹ W^½``, plus the implicit one through ``f̂``, ``s₂ᵀ (I − K R) ∂K ∇log p``
    with ``s₂ = ½ diag((K⁻¹ + W)⁻¹) ∇³ log p`` (``∂ log|B| / ∂W_ii = [(K⁻¹ + W)⁻¹]_ii`` and
    ``∂W_ii / ∂f_i = −∇³ log p``; GPML's ``infLaplace`` has this sign); for the logistic
    link with soft targets ``∇³ log p = −σ(1 − σ)(1 − 2σ)``)."""
    p = expit(f)
    w = p * (1 - p)
    sw = np.sqrt(w)
    chol = np.linalg.cholesky(np.eye(len(f)) + sw[:, None] * k * sw[None, :])
    inner = solve_triangular(chol, np.diag(sw), lower=True)
    r = inner.T @ inner
    c = solve_triangular(chol, sw[:, None] * k, lower=True)
    s2 = -0.5 * (np.diag(k) - (c * c).sum(axis=0)) * w * (1 - 2 * p)
    a = targets - p
    grad = []
    for d in dk:
        explicit = 0.5 * a @ d @ a - 0.5 * (r * d).sum()
        b = d @ a
        grad.append(explicit + s2 @ (b - k @ (r @ b)))
    return np.array(grad)


@dataclass
class TopicKernel:
    """The GP of one topic: its ``items``, their features ``x``, the kernel's length-scale
    and signal variance, and whether EM learns them (``learn``; else they are fixed)."""

    items: np.ndarray
    x: np.ndarray
    length_scale: float
    variance: float
    learn: bool

    def matrix(self) -> np.ndarray:
        """The kernel matrix of the current hyper-parameters."""
        return rbf_kernel(self.x, self.length_scale, variance=self.variance)

    def fit(self, targets: np.ndarray, f0: np.ndarray) -> LaplaceFit:
        """The Laplace fit to ``targets`` (from the mode ``f0``), after the hyper-parameters
        are moved to the maximum of its log marginal likelihood when they are learned: a
        bounded quasi-Newton search (scipy's L-BFGS-B, :func:`evidence_gradient`) over
        ``(log ℓ, log s²)`` from the current values, ``ℓ`` within a factor
        :data:`LENGTH_RANGE` of the median heuristic, ``s²`` in :data:`VARIANCE_BOUNDS`
        (Rasmussen & Williams 2006, §5.5.1)."""
        if self.learn:
            from scipy.optimize import minimize

            d2 = squared_distances(self.x)
            jitter = JITTER * np.eye(len(d2))

            def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
                k0, scaled = _rbf(d2, float(np.exp(theta[0])), float(np.exp(theta[1])))
                k = k0 + jitter
                fit = laplace_mode(k, targets, f0)
                # ∂K/∂log ℓ = K₀ d²/ℓ², ∂K/∂log s² = K₀
                grad = evidence_gradient(k, [k0 * scaled, k0], targets, fit.f)
                return -fit.log_evidence, -grad

            median = median_length_scale(self.x)
            bounds = [(np.log(median / LENGTH_RANGE), np.log(median * LENGTH_RANGE)),
                      tuple(np.log(VARIANCE_BOUNDS))]
            start = np.log([self.length_scale, self.variance])
            best = minimize(loss, start, jac=True, method="L-BFGS-B", bounds=bounds)
            self.length_scale, self.variance = (float(v) for v in np.exp(best.x))
            self.learn = bool(np.abs(best.x - start).max() >= SETTLED)
        return laplace_mode(self.matrix(), targets, f0)


@dataclass(frozen=True)
class GpFit:
    """The fitted model: ``posterior`` P(z_i = 1) of every document, the workers'
    ``sensitivity`` α and ``specificity`` β, the EM iterations, whether EM converged, and
    per topic the kernel's length-scale, signal variance and the log marginal likelihood of
    the last Laplace fit."""

    posterior: np.ndarray
    sensitivity: np.ndarray
    specificity: np.ndarray
    iterations: int
    converged: bool
    length_scale: np.ndarray
    variance: np.ndarray
    log_evidence: np.ndarray


def fit_gp(item: np.ndarray, worker: np.ndarray, answer: np.ndarray,
           kernels: list[TopicKernel], n_items: int, n_workers: int,
           n_iter: int, tol: float, report: Callable[[int], None] = no_report) -> GpFit:
    """EM of the module doc (``report(iterations)`` as they are run). ``item``, ``worker``,
    ``answer`` (0/1): one entry per label; ``kernels``: the GP of every topic (their
    hyper-parameters updated in place when learned). BLAS runs on one thread: the matrices
    of one topic are small, and threads would cost more than they save."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _em(item, worker, answer, kernels, n_items, n_workers, n_iter, tol, report)


def _em(item: np.ndarray, worker: np.ndarray, answer: np.ndarray,
        kernels: list[TopicKernel], n_items: int, n_workers: int,
        n_iter: int, tol: float, report: Callable[[int], None]) -> GpFit:
    """:func:`fit_gp` (in the BLAS threads it sets)."""
    y = answer.astype(np.float64)
    mu = (np.bincount(item, weights=y, minlength=n_items)
          / np.bincount(item, minlength=n_items))
    modes = [np.zeros(len(topic.items)) for topic in kernels]
    evidence_of = np.full(len(kernels), np.nan)
    logit = np.zeros(n_items)
    iterations, converged = 0, False
    alpha = beta = np.full(n_workers, 0.5)
    while iterations < n_iter:
        report(iterations)
        iterations += 1
        m = mu[item]
        alpha = _share(m * y, m, worker, n_workers)
        beta = _share((1 - m) * (1 - y), 1 - m, worker, n_workers)
        for t, topic in enumerate(kernels):
            fit = topic.fit(mu[topic.items], modes[t])
            modes[t], evidence_of[t] = fit.f, fit.log_evidence
            logit[topic.items] = fit.logit
        evidence = np.where(y == 1, np.log(alpha[worker]) - np.log1p(-beta[worker]),
                            np.log1p(-alpha[worker]) - np.log(beta[worker]))
        new = expit(logit + np.bincount(item, weights=evidence, minlength=n_items))
        moved = np.abs(new - mu).max()
        mu = new
        if moved < tol:
            converged = True
            break
    return GpFit(mu, alpha, beta, iterations, converged,
                 np.array([topic.length_scale for topic in kernels]),
                 np.array([topic.variance for topic in kernels]), evidence_of)


def _share(hits: np.ndarray, weights: np.ndarray, worker: np.ndarray, n_workers: int
           ) -> np.ndarray:
    """``Σ hits / Σ weights`` per worker, clipped to [EPS, 1 − EPS]."""
    total = np.bincount(worker, weights=weights, minlength=n_workers)
    share = np.bincount(worker, weights=hits, minlength=n_workers) / np.maximum(total, EPS)
    return np.clip(share, EPS, 1 - EPS)


def topic_kernels(data: CrowdLabels, features: Any, length_scale: float | None,
                  learn: bool = False) -> list[TopicKernel]:
    """The GP of every topic of the labels, the features read from ``features``
    (:func:`irscale.io.features.read_features`; a labelled document without features is an
    error naming its first label's line, the features of unlabelled documents are not
    used): the declared ``length_scale``, else the median heuristic's, as the start of the
    search when ``learn``."""
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
        kernels.append(TopicKernel(items, x, scale, 1.0, learn))
    return kernels
