"""Ordinal crowd labels: the rater model of the hierarchical rater model on latent grades.

``hrm``: the rating layer of the hierarchical rater model (HRM) of Patz, Junker, Johnson &
Mariano (2002), "The hierarchical rater model for rated test items and its application to
large-scale educational assessment data", J. Educ. Behav. Stat. 27(4), on a latent-class
prior for the ideal grade (as Dawid & Skene 1979)
    Every document ``i`` has an ideal grade ``ξ_i`` (a position ``0..K−1`` of the label
    scale, the labels in increasing order) drawn from a prior ``π``; worker ``w`` gives the
    grade ``k`` with probability
    ``e_w(k | ξ) ∝ exp(−(k − ξ − φ_w)² / (2 ψ_w²))`` (normalised over ``k = 0..K−1``),
    a discretised normal around the ideal grade shifted by the worker's bias ``φ_w``
    (positive: lenient, in grades) with spread ``ψ_w`` (inconsistency). crowd-kit has no
    ordinal method; where Dawid–Skene gives every worker ``K(K−1)`` free error rates, this
    model gives two, and errors by one grade are likelier than errors by two.
    Fitted by EM over all documents at once: ``T`` starts as the majority-vote shares;
    M-step: ``π_c = mean_i T[i, c]`` and, for every worker, the ``(φ_w, log ψ_w)`` that
    maximise ``Σ_{c,k} N_w[c, k] log e_w(k | c)`` (``N_w[c, k]``: the sum of ``T[i, c]``
    over the documents ``w`` graded ``k``), by L-BFGS (scipy) with the analytic gradient
    from the previous values (``φ = 0``, ``ψ = 1`` at first), ``φ_w`` within ``[−K, K]``
    and ``ψ_w`` within ``[0.01, 100]`` (:data:`SPREAD`: a worker whose answers are
    unrelated to the grades has no finite maximum, the likelihood growing as ``ψ → ∞``;
    such a worker ends at spread 100, near-uniform answers that weigh nothing); E-step:
    ``T[i, c] ∝ π_c Π_{(w, k) on i} e_w(k | c)``. Stops when the marginal log-likelihood
    per label grows by less than ``tol`` or after ``n_iter`` iterations. Label: the most
    probable grade; worker quality: ``Σ_c π_c e_w(c | c)`` (the probability of giving the
    ideal grade), with ``bias`` ``φ_w`` and ``spread`` ``ψ_w`` beside it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core.progress import no_report
from ..io.crowd import CrowdLabels

#: Smallest prior probability of a grade (as Dawid–Skene's).
EPS = 1e-10
#: The range of a worker's spread ψ searched (grades): a worker whose answers are unrelated
#: to the grades has its likelihood growing without end as ψ → ∞ (the kernel tends to
#: uniform),
#: and the bias φ is searched within ``[−K, K]`` (beyond, the kernel at the smallest
#: spread is already all on an end grade).
SPREAD = (0.01, 100.0)


def _log_kernel(phi: np.ndarray, log_psi: np.ndarray, k: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``log e_w(k | c)`` as a (workers, c, k) array, with ``z = (k − c − φ_w)/ψ_w`` and
    ``e`` itself."""
    grades = np.arange(k)
    z = (grades[None, None, :] - grades[None, :, None] - phi[:, None, None]) \
        / np.exp(log_psi)[:, None, None]
    log_e = -z * z / 2
    log_e -= np.logaddexp.reduce(log_e, axis=2, keepdims=True)
    return log_e, z, np.exp(log_e)


def _worker_step(counts: np.ndarray, phi: np.ndarray, log_psi: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The ``(φ, log ψ)`` of every worker that maximise ``Σ N_w[c, k] log e_w(k | c)``
    (``counts``: N, workers × c × k), from the values given."""
    from scipy.optimize import minimize

    n_w, k = counts.shape[0], counts.shape[1]

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        log_e, z, e = _log_kernel(x[:n_w], x[n_w:], k)
        mean_z = (e * z).sum(axis=2, keepdims=True)
        mean_z2 = (e * z * z).sum(axis=2, keepdims=True)
        psi = np.exp(x[n_w:])
        d_phi = (counts * (z - mean_z)).sum(axis=(1, 2)) / psi
        d_log_psi = (counts * (z * z - mean_z2)).sum(axis=(1, 2))
        return -float((counts * log_e).sum()), -np.concatenate([d_phi, d_log_psi])

    bounds = [(-k, k)] * n_w + [(np.log(SPREAD[0]), np.log(SPREAD[1]))] * n_w
    fit = minimize(objective, np.concatenate([phi, log_psi]), jac=True, method="L-BFGS-B",
                   bounds=bounds)
    return fit.x[:n_w], fit.x[n_w:]


def hierarchical_raters(labels: CrowdLabels, n_iter: int, tol: float,
                        report: Callable[[int], None] = no_report
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool]:
    """Posteriors T (documents × K), worker quality, bias φ, spread ψ, iterations and
    converged of ``hrm`` (module doc); ``report(iterations)`` as they are run."""
    k = len(labels.classes)
    n_w, n_items = len(labels.workers), len(labels.items)
    cell = labels.worker * k + labels.label
    t = labels.counts / labels.counts.sum(axis=1, keepdims=True)
    phi, log_psi = np.zeros(n_w), np.zeros(n_w)
    last, iterations, converged = -np.inf, 0, False
    priors = t.mean(axis=0)
    while iterations < n_iter:
        report(iterations)
        iterations += 1
        priors = t.mean(axis=0)
        counts = np.zeros((n_w * k, k))
        np.add.at(counts, cell, t[labels.item])                  # [w·K + k, c]
        counts = counts.reshape(n_w, k, k).transpose(0, 2, 1)    # [w, c, k]
        phi, log_psi = _worker_step(counts, phi, log_psi)
        log_e = _log_kernel(phi, log_psi, k)[0]
        log_t = np.log(np.maximum(priors, EPS)) + np.zeros((n_items, k))
        np.add.at(log_t, labels.item, log_e[labels.worker, :, labels.label])
        top = log_t.max(axis=1, keepdims=True)
        likelihood = float((top[:, 0] + np.log(np.exp(log_t - top).sum(axis=1))).sum())
        t = np.exp(log_t - top)
        t /= t.sum(axis=1, keepdims=True)
        if (likelihood - last) / len(labels.item) < tol:
            converged = True
            break
        last = likelihood
    e = np.exp(_log_kernel(phi, log_psi, k)[0])
    quality = (np.diagonal(e, axis1=1, axis2=2) * priors).sum(axis=1)
    return t, quality, phi, np.exp(log_psi), iterations, converged
