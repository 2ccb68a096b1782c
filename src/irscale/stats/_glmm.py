"""Maximum likelihood of the logistic model with a random topic intercept (a binomial GLMM).

Model (Breslow & Clayton 1993: the generalised linear mixed model with a logit link)
    P(y_ij = 1 | b_i) = logistic(β_j + b_i),  b_i ~ N(0, σ²_t),
    y_ij ∈ {0, 1} the binary score of system j on topic i (success@k, P@1), β_j the
    system's log-odds for a typical topic (b = 0).

Marginal likelihood by adaptive Gauss–Hermite quadrature (Pinheiro & Bates 1995; lme4's
``glmer(nAGQ=…)``; Laplace's approximation is one node)
    ℓ(β, σ_t) = Σ_i log ∫ exp(g_i(b)) db,  g_i(b) = Σ_j log p(y_ij | β_j + b) + log φ(b; σ²_t).
    For every topic the mode b̂_i of g_i is found by Newton's method (all topics at once)
    and s_i = (−g_i''(b̂_i))^{−1/2}; then
    ∫ e^{g_i} ≈ √2 s_i Σ_k w_k exp(g_i(b̂_i + √2 s_i z_k) + z_k²),
    with the Gauss–Hermite nodes z_k and weights w_k. (β, σ_t) maximise ℓ (L-BFGS-B,
    σ_t ≥ 10⁻⁴, with the gradient of Fisher's identity: the posterior mean, over the
    quadrature terms, of the complete-data score — Louis 1982).
    Cov(β̂) is the inverse of −∂²ℓ/∂β² at the optimum with σ_t held at σ̂_t and the
    quadrature nodes held where they are (the derivatives of the quadrature sum are exact
    then: Σ_k π_ik (y − p), with π_ik the normalised terms of topic i).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

#: The smallest σ_t searched (σ_t = 0, no topic effect, is the ordinary logistic model).
MIN_SIGMA = 1e-4


@dataclass(frozen=True)
class GlmmFit:
    beta: np.ndarray
    cov: np.ndarray
    sigma: float
    loglik: float
    converged: bool


@dataclass(frozen=True)
class _Data:
    y: np.ndarray
    system: np.ndarray
    topic: np.ndarray
    n_topics: int
    n_systems: int


def _modes(d: _Data, beta: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The mode b̂_i of every topic's integrand and the scale s_i (module docstring)."""
    b = np.zeros(d.n_topics)
    prec = 1.0 / sigma**2
    for _ in range(100):
        p = special.expit(beta[d.system] + b[d.topic])
        grad = np.bincount(d.topic, d.y - p, d.n_topics) - b * prec
        hess = np.bincount(d.topic, p * (1 - p), d.n_topics) + prec
        step = grad / hess
        b += step
        if np.max(np.abs(step)) < 1e-12:
            break
    p = special.expit(beta[d.system] + b[d.topic])
    hess = np.bincount(d.topic, p * (1 - p), d.n_topics) + prec
    return b, 1.0 / np.sqrt(hess)


def _terms(d: _Data, beta: np.ndarray, sigma: float, nodes: np.ndarray, weights: np.ndarray,
           centre: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log of every quadrature term (topics × nodes) and the node values b_ik."""
    b = centre[:, None] + np.sqrt(2.0) * scale[:, None] * nodes[None, :]
    eta = beta[d.system][:, None] + b[d.topic]
    loglik = -np.logaddexp(0.0, np.where(d.y[:, None] > 0, -eta, eta))
    per_topic = np.zeros((d.n_topics, len(nodes)))
    np.add.at(per_topic, d.topic, loglik)
    log_prior = -0.5 * (b / sigma) ** 2 - np.log(sigma) - 0.5 * np.log(2 * np.pi)
    log_terms = (per_topic + log_prior + nodes[None, :] ** 2 + np.log(weights)[None, :]
                 + np.log(np.sqrt(2.0) * scale)[:, None])
    return log_terms, b


def loglik(d: _Data, beta: np.ndarray, sigma: float, points: int) -> float:
    """ℓ(β, σ_t) by adaptive Gauss–Hermite quadrature with ``points`` nodes."""
    return _value_and_gradient(d, beta, sigma, points)[0]


def _value_and_gradient(d: _Data, beta: np.ndarray, sigma: float, points: int
                        ) -> tuple[float, np.ndarray]:
    """ℓ(β, σ_t) and its gradient in (β, σ_t) by Fisher's identity: the score is the
    posterior mean of the complete-data score, Σ_k π_ik (y − p) for β_j and
    Σ_k π_ik (b_ik²/σ³ − 1/σ) for σ_t, π_ik the normalised quadrature terms."""
    nodes, weights = np.polynomial.hermite.hermgauss(points)
    centre, scale = _modes(d, beta, sigma)
    log_terms, b = _terms(d, beta, sigma, nodes, weights, centre, scale)
    total = special.logsumexp(log_terms, axis=1, keepdims=True)
    post = np.exp(log_terms - total)
    p = special.expit(beta[d.system][:, None] + b[d.topic])
    grad_beta = np.bincount(d.system, np.sum(post[d.topic] * (d.y[:, None] - p), axis=1),
                            d.n_systems)
    grad_sigma = float(np.sum(post * (b**2 / sigma**3 - 1.0 / sigma)))
    return float(np.sum(total)), np.append(grad_beta, grad_sigma)


def fit_glmm(y: np.ndarray, system: np.ndarray, topic: np.ndarray, n_systems: int,
             n_topics: int, points: int) -> GlmmFit:
    """ML fit of the random-intercept logistic model (module docstring)."""
    d = _Data(y.astype(np.float64), system, topic, n_topics, n_systems)
    rate = (np.bincount(system, d.y, n_systems) + 0.5) / (np.bincount(system, None, n_systems)
                                                           + 1.0)
    start = np.concatenate([special.logit(rate), [1.0]])

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        value, gradient = _value_and_gradient(d, x[:-1], float(x[-1]), points)
        return -value, -gradient

    found = optimize.minimize(objective, start, jac=True, method="L-BFGS-B",
                              bounds=[(None, None)] * n_systems + [(MIN_SIGMA, None)],
                              options={"ftol": 1e-14, "gtol": 1e-8, "maxiter": 2000})
    beta, sigma = found.x[:-1], float(found.x[-1])
    nodes, weights = np.polynomial.hermite.hermgauss(points)
    centre, scale = _modes(d, beta, sigma)
    log_terms, b = _terms(d, beta, sigma, nodes, weights, centre, scale)
    post = np.exp(log_terms - special.logsumexp(log_terms, axis=1, keepdims=True))
    p = special.expit(beta[d.system][:, None] + b[d.topic])  # observations × nodes
    cell = (d.topic[:, None], np.arange(points)[None, :], d.system[:, None])
    score = np.zeros((n_topics, points, n_systems))  # y − p of topic i, node k, system j
    np.add.at(score, cell, d.y[:, None] - p)
    curvature = np.zeros((n_topics, points, n_systems))
    np.add.at(curvature, cell, p * (1 - p))
    mean_score = np.einsum("ik,ikj->ij", post, score)
    info = (np.diag(np.einsum("ik,ikj->j", post, curvature))
            - np.einsum("ik,ikj,ikl->jl", post, score, score)
            + mean_score.T @ mean_score)
    return GlmmFit(beta, np.linalg.inv(info), sigma, -float(found.fun), bool(found.success))
