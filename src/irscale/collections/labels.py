"""Crowd labels: reading ``topic docno worker label`` tables and aggregating them into qrels.

Every method works on integer codes, vectorised over all labels at once: an *item* is a
(topic, docno) pair, the classes are the label values in increasing order (the declared
scale, or the values seen), and ``counts[i, k]`` (``np.bincount`` over ``item·K + class``)
is the number of workers who gave item ``i`` class ``k``.

``mv``: majority vote
    The class with most votes; a tie goes to the **lower label** (the first maximum over
    the classes in increasing order, as crowd-kit's ``MajorityVote``). Confidence: the share
    of the item's votes for that class. Worker quality: the share of the worker's labels
    equal to the majority label of their item.
``wmv``: weighted majority vote
    Every vote weighs the worker's majority-vote quality (``Wawa`` of crowd-kit, "worker
    agreement with aggregate"): ``score[i, k] = Σ_{w labels i as k} q_w``; ties as ``mv``.
    Confidence: ``score[i, k] / Σ_k' score[i, k']``.
``ds``: Dawid & Skene (1979), EM over all items at once
    Worker ``w`` has a confusion matrix ``e_w[l | c]`` (the probability to answer ``l``
    when the true class is ``c``) and the classes have a prior ``π``. Initialisation: the
    majority-vote shares ``T[i, c]``. M-step: ``π_c = mean_i T[i, c]``, ``e_w[l | c] ∝
    Σ_{i: w answered l} T[i, c]`` (cells clipped below at 1e-10 before normalising). E-step:
    ``T[i, c] ∝ π_c Π_{(w, l) on i} e_w[l | c]`` (in log space, shifted by the row maximum).
    Stops after ``n_iter`` iterations or when the evidence lower bound per label grows by
    less than ``tol`` (crowd-kit's criterion and defaults: 100, 1e-5). Confidence: the
    posterior of the chosen class; worker quality: ``Σ_c π_c e_w[c | c]``.

``glad``: GLAD (Whitehill, Ruvolo, Wu, Bergsma & Movellan 2009), as crowd-kit fits it
    Worker ability ``α_w`` and document easiness ``e^{β_i}``; a label is right with
    probability ``σ(α_w e^{β_i})`` and otherwise one of the ``K − 1`` other classes
    uniformly; uniform class prior, Gaussian priors N(1, 1) on ``α`` and ``β`` (all start
    at 1). E-step: ``T[i, c] ∝ Π_ℓ σ`` or ``(1 − σ)/(K − 1)``; M-step: ``m_step_iter`` (25)
    conjugate-gradient steps (scipy, tolerance 1e-2) on the expected log-likelihood ``Q``
    with its analytic gradient; stops after ``n_iter`` (100) iterations or when ``Q`` per
    (label, class) grows by less than ``tol``. ``T`` is the E-step's (of the last
    iteration's parameters before its M-step, as crowd-kit). Worker quality: ``α_w``.
``mace``: MACE (Hovy, Berg-Kirkpatrick, Vaswani & Hovy 2013), variational Bayes
    A worker knows the answer with probability ``s_w`` and otherwise answers by their own
    distribution ``θ_w``: ``P(l | c) = (1 − s_w) θ_w(l) + s_w [l = c]``; uniform class
    prior; Beta(0.5, 0.5) prior on ``s_w`` and Dirichlet(10, ..., 10) on ``θ_w``; every
    restart (``restarts``, 10) draws the starting ``s`` and ``θ`` uniformly in [1, 2.5]
    and normalises them, runs ``n_iter`` (50) E/VB-M steps; the restart with the largest
    marginal likelihood is kept. Worker quality: ``s_w`` (the probability of knowing).

Binomial Majority Vote (Ferrante, Ferro & Losiouk 2019, cited by Ferro & Maistro 2024, §2.5) is not
implemented: the sources available to us (Ferro & Maistro 2024; the abstract of Ferrante, Ferro &
Pontarollo, ECIR 2018) describe its model (a judgment is a binomial random variable whose
mean is the document's quantity of relevance) but not its decision rule (how grades map
to trials, how p is estimated, how the merged label is chosen), and a guess under the
paper's name would mislead (``docs/collections.md`` §6 lists the searches made).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core.params import (
    AGGREGATION_METHODS,
    LABEL_ITERATIONS,
    LABEL_METHOD,
    LABEL_N_ITER,
    LABEL_RESTARTS,
    TOLERANCE,
)
from ..io.crowd import CrowdLabels, read_crowd_labels
from ..stats.protocol import TableResult
from ..stats.resampling import check_rng

Method = Literal["mv", "wmv", "ds", "glad", "mace"]
#: Aggregation methods (see the module documentation).
METHODS: tuple[str, ...] = AGGREGATION_METHODS
#: Default EM iterations of every iterative method (crowd-kit's defaults).
N_ITER = LABEL_N_ITER
#: Smallest probability of the Dawid–Skene model (crowd-kit's ``_EPS``).
EPS = 1e-10

__all__ = ["METHODS", "Aggregation", "CrowdLabels", "aggregate_labels", "read_crowd_labels"]


@dataclass(frozen=True, eq=False)
class Aggregation(TableResult):
    """Aggregated crowd labels: ``qrels`` (topic, docno, label, confidence), ``workers``
    (worker, labels, quality), ``probabilities`` (documents × classes) and the method; for
    EM also the iterations run and whether the bound converged."""

    method: str
    qrels: pd.DataFrame
    workers: pd.DataFrame
    probabilities: pd.DataFrame
    iterations: int = 0
    converged: bool = True

    def to_frame(self) -> pd.DataFrame:
        """The aggregated labels: ``topic, docno, label, confidence`` (:attr:`qrels`)."""
        return self.qrels.copy()

    def lines(self) -> list[str]:
        """The qrels file: ``topic 0 docno label`` lines."""
        q = self.qrels
        return [f"{t} 0 {d} {r}" for t, d, r in zip(q["topic"], q["docno"], q["label"],
                                                          strict=True)]

    def confidence_lines(self) -> list[str]:
        """``topic docno label confidence`` lines: the probability the method gives the
        label it chose (shortest repr of the float, read back exactly)."""
        q = self.qrels
        return [f"{t} {d} {r} {c!r}" for t, d, r, c in zip(
            q["topic"], q["docno"], q["label"], q["confidence"].astype(float), strict=True)]

    def worker_lines(self) -> list[str]:
        """``worker labels quality`` lines: every worker's labels and estimated quality."""
        w = self.workers
        return [f"{name} {n} {quality!r}" for name, n, quality in zip(
            w["worker"], w["labels"], w["quality"].astype(float), strict=True)]

    def __repr__(self) -> str:
        return (f"Aggregation({self.method}; {len(self.qrels):,} documents, "
                f"{len(self.workers):,} workers)")


def _shares(scores: np.ndarray) -> np.ndarray:
    return scores / scores.sum(axis=1, keepdims=True)


def _accuracy(labels: CrowdLabels, chosen: np.ndarray) -> np.ndarray:
    """Share of every worker's labels equal to the chosen class of their item."""
    hits = np.bincount(labels.worker, weights=labels.label == chosen[labels.item],
                       minlength=len(labels.workers))
    return hits / np.bincount(labels.worker, minlength=len(labels.workers))


def _dawid_skene(labels: CrowdLabels, n_iter: int, tol: float
                 ) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """Posteriors T (items × K), worker quality, iterations, converged (module doc)."""
    k = len(labels.classes)
    n_w = len(labels.workers)
    cell = labels.worker * k + labels.label           # (worker, answered class) of a label
    seen = np.bincount(cell, minlength=n_w * k) > 0    # cells crowd-kit's groupby holds

    def m_step(t: np.ndarray) -> np.ndarray:
        errors = np.zeros((n_w * k, k))
        np.add.at(errors, cell, t[labels.item])
        errors[seen] = np.maximum(errors[seen], EPS)
        cube = errors.reshape(n_w, k, k)
        return cube / cube.sum(axis=1, keepdims=True)

    def log_terms(errors: np.ndarray, base: Any) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return base(errors.reshape(n_w * k, k))[cell]

    t = _shares(labels.counts)
    priors = t.mean(axis=0)
    errors = m_step(t)
    loss, iterations, converged = -np.inf, 0, False
    n_items = len(labels.items)
    while iterations < n_iter:
        iterations += 1
        priors = np.maximum(priors, EPS)
        log_t = np.log2(priors) + np.zeros((n_items, k))
        np.add.at(log_t, labels.item, log_terms(errors, np.log2))
        t = _shares(np.exp2(log_t - log_t.max(axis=1, keepdims=True)))
        priors = t.mean(axis=0)
        errors = m_step(t)
        joint = (t[labels.item] * (log_terms(errors, np.log)
                                   + np.log(np.maximum(priors, EPS)))).sum()
        clipped = np.maximum(t, EPS)
        new_loss = (joint - (np.log(clipped) * clipped).sum()) / len(labels.item)
        if new_loss - loss < tol:
            converged = True
            break
        loss = new_loss
    quality = (np.diagonal(errors, axis1=1, axis2=2) * priors).sum(axis=1)
    return t, quality, iterations, converged


def _softplus(x: np.ndarray, limit: float = 30.0) -> np.ndarray:
    """log(1 + e^x), taken as x above ``limit`` and 0 below ``-limit`` (as crowd-kit)."""
    inside = np.abs(x) <= limit
    return np.where(inside, np.log1p(np.exp(np.where(inside, x, 0.0))),
                    np.where(x > limit, x, 0.0))


def _glad(labels: CrowdLabels, n_iter: int, tol: float, m_step_iter: int = 25
          ) -> tuple[np.ndarray, np.ndarray, int, bool]:
    """Posteriors, worker abilities α, iterations, converged (module doc, ``glad``)."""
    from scipy.optimize import minimize

    k = len(labels.classes)
    n_w, n_i, n = len(labels.workers), len(labels.items), len(labels.item)
    item, worker, cls = labels.item, labels.worker, labels.label
    wrong = np.log(k - 1) if k > 1 else 0.0      # log(K − 1): a wrong class, uniformly
    log_prior = np.log(np.full(k, 1.0 / k))

    def parts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        alpha, beta = x[:n_w], x[n_w:]
        easy = np.exp(beta)[item]
        s = alpha[worker] * easy
        return alpha, beta, easy, s

    def e_step(x: np.ndarray) -> np.ndarray:
        _, _, _, s = parts(x)
        right, other = -_softplus(-s), -_softplus(s) - wrong
        log_t = np.bincount(item, weights=other, minlength=n_i)[:, None] + log_prior
        np.add.at(log_t, (item, cls), right - other)
        log_t -= log_t.max(axis=1, keepdims=True)
        return _shares(np.exp(log_t))

    def q_value(x: np.ndarray, t_right: np.ndarray) -> float:
        alpha, beta, _, s = parts(x)
        right, other = -_softplus(-s), -_softplus(s) - wrong
        value = (t_right * right + (1 - t_right) * other).sum() if k > 1 else right.sum()
        value += (-0.5 * (alpha - 1) ** 2).sum() + (-0.5 * (beta - 1) ** 2).sum()
        value -= 0.5 * np.log(2 * np.pi) * (n_w + n_i)
        return float(value) if np.isfinite(value) else -np.inf

    def gradient(x: np.ndarray, t_right: np.ndarray) -> np.ndarray:
        alpha, beta, easy, s = parts(x)
        residual = t_right - 1 / (1 + np.exp(-s))        # Σ_c T[i, c] ([l = c] − σ)
        d_alpha = np.bincount(worker, weights=residual * easy, minlength=n_w) - (alpha - 1)
        d_beta = (np.bincount(item, weights=residual * s, minlength=n_i) - (beta - 1))
        return -np.concatenate([d_alpha, d_beta])

    x = np.ones(n_w + n_i)
    t = e_step(x)
    q = q_value(x, t[item, cls])
    iterations, converged = 0, False
    while iterations < n_iter:
        iterations += 1
        last = q
        t = e_step(x)
        t_right = t[item, cls]
        x = minimize(lambda v, tr=t_right: -q_value(v, tr), x, method="CG",
                     jac=lambda v, tr=t_right: gradient(v, tr), tol=1e-2,
                     options={"maxiter": m_step_iter}).x
        q = q_value(x, t_right) / (n * k)
        if q - last < tol:
            converged = True
            break
    return t, x[:n_w], iterations, converged


MaceStart = tuple[np.ndarray, np.ndarray]


def _digamma_normalise(x: np.ndarray, prior: float | np.ndarray) -> np.ndarray:
    """exp ψ(x + prior) / exp ψ(Σ (x + prior)) row by row (the variational M-step)."""
    from scipy.special import digamma

    return np.exp(digamma(x + prior)) / np.exp(digamma((x + prior).sum(axis=1)))[:, None]


def _mace(labels: CrowdLabels, n_iter: int, starts: Sequence[MaceStart]
          ) -> tuple[np.ndarray, np.ndarray]:
    """Posteriors and the knowing probability of every worker (module doc, ``mace``);
    ``starts``: the (spam/know, θ) of every restart, unnormalised."""
    k = len(labels.classes)
    n_w, n_i = len(labels.workers), len(labels.items)
    item, worker, cls = labels.item, labels.worker, labels.label

    def e_step(spam: np.ndarray, theta: np.ndarray
               ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        guess = spam[worker, 0] * theta[worker, cls]        # (1 − s_w) θ_w(l)
        know = spam[worker, 1]
        log_g = np.bincount(item, weights=np.log(guess), minlength=n_i)[:, None] \
            + np.zeros((n_i, k))
        np.add.at(log_g, (item, cls), np.log(guess + know) - np.log(guess))
        log_g -= np.log(k)
        top = log_g.max(axis=1, keepdims=True)
        likelihood = float((top[:, 0] + np.log(np.exp(log_g - top).sum(axis=1))).sum())
        t = _shares(np.exp(log_g - top))
        t_l = t[item, cls]
        by_guess = guess * ((1 - t_l) / guess + t_l / (guess + know))
        strategy = np.bincount(worker * k + cls, weights=by_guess,
                               minlength=n_w * k).reshape(n_w, k)
        knowing = np.stack([np.bincount(worker, weights=by_guess, minlength=n_w),
                            np.bincount(worker, weights=t_l * know / (guess + know),
                                        minlength=n_w)], axis=1)
        return likelihood, t, knowing, strategy

    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for spam0, theta0 in starts:
        spam = spam0 / spam0.sum(axis=1, keepdims=True)
        theta = theta0 / theta0.sum(axis=1, keepdims=True)
        likelihood, _, knowing, strategy = e_step(spam, theta)
        for _ in range(n_iter):
            spam = _digamma_normalise(knowing, 0.5)
            theta = _digamma_normalise(strategy, 10.0)
            likelihood, _, knowing, strategy = e_step(spam, theta)
        if best is None or likelihood > best[0]:
            best = (likelihood, spam, theta)
    assert best is not None
    _, spam, theta = best
    return e_step(spam, theta)[1], spam[:, 1]


def aggregate_labels(labels: Any, method: Method = "ds", *, scale: Sequence[int] | None = None,
                     n_iter: int | None = None, tol: float = 1e-5, restarts: int = 10,
                     rng: object = None) -> Aggregation:
    """Aggregate crowd labels into qrels with one method of :data:`METHODS` (module doc).

    ``labels``: a file, bytes, a ``topic docno worker label`` DataFrame or
    :class:`CrowdLabels`; ``scale``: the declared label values (a label outside is an
    error); ``n_iter`` (default :data:`N_ITER`) and ``tol``: the stopping rule of ``ds``
    and ``glad`` (``mace`` runs ``n_iter`` iterations); ``restarts`` and ``rng`` (a seed or
    a numpy Generator): MACE's random restarts. Every method but ``mace`` is
    deterministic; ``mace`` is reproducible with a seed.

    >>> agg = aggregate_labels(b"1 a w1 1\\n1 a w2 1\\n1 a w3 0\\n1 b w1 0\\n1 b w2 1\\n",
    ...                        "mv")
    >>> agg.lines()
    ['1 0 a 1', '1 0 b 0']
    """
    method = LABEL_METHOD.check(method)
    n_iter = N_ITER.get(method, 1) if n_iter is None else n_iter
    LABEL_ITERATIONS.check(n_iter)
    LABEL_RESTARTS.check(restarts)
    TOLERANCE.check(tol, "tol")
    data = read_crowd_labels(labels, scale)
    iterations, converged = 0, True
    mv = _shares(data.counts)
    if method == "mv":
        probabilities, quality = mv, _accuracy(data, mv.argmax(axis=1))
    elif method == "wmv":
        quality = _accuracy(data, mv.argmax(axis=1))
        k = len(data.classes)
        weighted = np.bincount(data.item * k + data.label, weights=quality[data.worker],
                               minlength=len(data.items) * k).reshape(-1, k)
        with np.errstate(invalid="ignore"):
            probabilities = _shares(weighted)   # all-zero weights: NaN, the label stays mv
        probabilities = np.where(np.isnan(probabilities), mv, probabilities)
    elif method == "ds":
        probabilities, quality, iterations, converged = _dawid_skene(data, n_iter, tol)
    elif method == "glad":
        probabilities, quality, iterations, converged = _glad(data, n_iter, tol)
    else:
        generator = np.random.default_rng(check_rng(rng))
        shape = (len(data.workers), len(data.classes))
        starts = [(generator.uniform(1.0, 2.5, (shape[0], 2)), generator.uniform(1.0, 2.5, shape))
                  for _ in range(restarts)]
        probabilities, quality = _mace(data, n_iter, starts)
        iterations = n_iter
    chosen = probabilities.argmax(axis=1)
    qrels = data.items.assign(label=data.classes[chosen],
                              confidence=probabilities[np.arange(len(chosen)), chosen])
    workers = pd.DataFrame({"worker": data.workers,
                            "labels": np.bincount(data.worker, minlength=len(data.workers)),
                            "quality": quality})
    table = pd.DataFrame(probabilities, columns=data.classes.tolist(),
                         index=pd.MultiIndex.from_frame(data.items))
    return Aggregation(method, qrels, workers, table, iterations, converged)
