"""Pairwise judgments aggregated into scores: Bradley–Terry and noisy Bradley–Terry.

The input is a ``topic worker left right label`` table (:func:`irscale.io.pairwise.
read_pairwise`): ``label`` is the document the worker preferred. An *item* is a (topic,
docno) pair; documents are compared within their topic only. Both methods are vectorised
over all comparisons (and all topics) at once; only the iterations loop.

``bt``: Bradley & Terry (1952), "Rank analysis of incomplete block designs: I. The method of
    paired comparisons", Biometrika 39(3/4); fitted by the MM algorithm of Hunter (2004),
    "MM algorithms for generalized Bradley–Terry models", Ann. Statist. 32(1), eq. (3)
    Document ``i`` has a worth ``p_i > 0`` and is preferred to ``j`` with probability
    ``p_i / (p_i + p_j)``. The maximum-likelihood worths satisfy Zermelo's equations
    ``W_i = Σ_j n_ij p_i / (p_i + p_j)`` (``W_i``: comparisons ``i`` won, ``n_ij``:
    comparisons of ``i`` and ``j``), which the MM update iterates:
    ``p_i ← W_i / Σ_j n_ij / (p_i + p_j)``, then ``p`` divided by its sum over the topic.
    Every topic starts uniform and is fitted on its own; it stops when the worths' L1
    change over the topic, ``Σ_i |p_i' − p_i|``, falls below ``tol`` (crowd-kit's criterion,
    which crowd-kit itself never applies: its ``BradleyTerry`` compares the new worths with
    an alias of themselves and so always stops after its second iteration), or after
    ``n_iter`` iterations. The worths exist, unique up to the normalisation, if and only
    if every document of the topic beats every other through a chain of wins (the graph of
    wins is strongly connected; Ford 1957, Hunter 2004 Assumption 1): otherwise the input is
    refused, naming two documents that no chain links. Score: ``p_i`` (sums to 1 over the
    topic).
``noisybt``: noisy Bradley–Terry, Bugakova, Fedorova, Gusev & Drutsa (2019), "Aggregation of
    pairwise comparisons with reduction of biases", NeurIPS 2019 Workshop on Crowdsourcing
    and Machine Learning (crowd-kit's ``NoisyBradleyTerry``)
    Worker ``w`` answers by the Bradley–Terry model with probability ``σ(γ_w)`` (skill) and
    otherwise picks the left document with probability ``σ(q_w)`` (position bias): worker
    ``w`` prefers ``left`` to ``right`` with probability
    ``σ(γ_w) σ(s_left − s_right) + (1 − σ(γ_w)) σ(q_w)`` (``σ``: the logistic function).
    A virtual anchor document ``s_0`` that every document beats once and loses to once keeps
    the scores finite: the fit maximises
    ``Σ_c log P(c) + λ Σ_i [log σ(s_0 − s_i) + log σ(s_i − s_0)]`` (``λ``:
    ``regularization``, 1e-5 as crowd-kit) over the scores of all topics' documents, one
    anchor, and the workers' ``q`` and ``γ`` (shared by the topics, as crowd-kit's grouped
    fit), with L-BFGS-B (scipy) and the analytic gradient, from all parameters 0; it stops
    when the relative change of the objective or the largest gradient component falls
    below ``tol``, or after ``n_iter`` iterations. Scores: ``σ(s_i)``; workers' ``skill``
    ``σ(γ_w)`` and ``bias`` ``σ(q_w)``. crowd-kit optimises the same likelihood but with a
    gradient that does not match it (the workers' components land one parameter too low,
    on the last document's score and on the first worker's bias, and keep only each
    worker's last comparison; the anchor term's gradient has the sign opposite to the
    term its objective adds), so its scores agree with these in order where the data
    decide the order, not in value.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core.progress import ProgressArg, check_progress, progress_reporter
from ..errors import InputError
from ..io.pairwise import PairwiseJudgments, read_pairwise
from ..stats.protocol import TableResult
from .params import (
    NOISYBT_REGULARIZATION,
    PAIRWISE,
    PAIRWISE_ITERATIONS,
    PAIRWISE_N_ITER,
    PAIRWISE_TOL,
)

PairwiseMethod = Literal["bt", "noisybt"]

__all__ = ["PairwiseAggregation", "aggregate_pairwise"]


@dataclass(frozen=True, eq=False)
class PairwiseAggregation(TableResult):
    """Aggregated pairwise judgments: ``scores`` (topic, docno, score; every topic's
    documents by decreasing score, ties by docno), ``workers`` (worker, comparisons; for
    ``noisybt`` also skill and bias), the method, the iterations run (the most over the
    topics for ``bt``) and whether the stopping rule was met (for every topic)."""

    method: str
    scores: pd.DataFrame
    workers: pd.DataFrame
    iterations: int
    converged: bool

    def to_frame(self) -> pd.DataFrame:
        """The scores: ``topic, docno, score`` (:attr:`scores`)."""
        return self.scores.copy()

    def lines(self) -> list[str]:
        """``topic docno score`` lines (shortest repr of the float, read back exactly)."""
        s = self.scores
        return [f"{t} {d} {v!r}" for t, d, v in zip(s["topic"], s["docno"],
                                                    s["score"].astype(float), strict=True)]

    def worker_lines(self) -> list[str]:
        """``worker comparisons skill bias`` lines (``bt``: ``worker comparisons``)."""
        return [" ".join(repr(float(v)) if isinstance(v, float) else str(v) for v in row)
                for row in self.workers.itertuples(index=False)]

    def __repr__(self) -> str:
        return (f"PairwiseAggregation({self.method}; {len(self.scores):,} documents, "
                f"{len(self.workers):,} workers)")


def _check_connected(data: PairwiseJudgments) -> None:
    """Refuse a topic whose graph of wins is not strongly connected (module doc, ``bt``)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(data.items)
    wins = csr_matrix((np.ones(len(data.left)), (data.winner, data.loser)), shape=(n, n))
    count, component = connected_components(wins, directed=True, connection="strong")
    if count == len(data.topics):
        return
    first = pd.Series(np.arange(n)).groupby(component).first().to_numpy()
    for topic in range(len(data.topics)):
        heads = np.unique(component[data.topic == topic])
        if len(heads) > 1:
            a, b = data.items["docno"].to_numpy()[first[heads[:2]]]
            raise InputError(
                f"bt: topic {data.topics[topic]}: documents {a} and {b} are not linked both "
                "ways by chains of wins (the Bradley-Terry scores exist only where every "
                "document beats every other through a chain of wins; noisybt is "
                "regularised)",
                source=data.source)


def _bradley_terry(data: PairwiseJudgments, n_iter: int, tol: float,
                   report: Callable[[int], None]) -> tuple[np.ndarray, int, bool]:
    """Worths, iterations (most over topics) and converged of ``bt`` (module doc);
    ``report(iterations)`` after each."""
    _check_connected(data)
    n, n_topics = len(data.items), len(data.topics)
    topic = data.topic
    wins = np.bincount(data.winner, minlength=n).astype(np.float64)
    low, high = np.minimum(data.left, data.right), np.maximum(data.left, data.right)
    pair, n_ij = np.unique(low * n + high, return_counts=True)
    i, j = pair // n, pair % n
    p = 1.0 / np.bincount(topic, minlength=n_topics)[topic]
    running = np.ones(n_topics, dtype=bool)
    done = np.zeros(n_topics, dtype=np.int64)
    for iteration in range(1, n_iter + 1):
        share = n_ij / (p[i] + p[j])
        new = wins / (np.bincount(i, weights=share, minlength=n)
                      + np.bincount(j, weights=share, minlength=n))
        new /= np.bincount(topic, weights=new, minlength=n_topics)[topic]
        change = np.bincount(topic, weights=np.abs(new - p), minlength=n_topics)
        p = np.where(running[topic], new, p)
        done += running
        running &= change >= tol
        if not running.any():
            break
        report(iteration)
    return p, int(done.max()), not running.any()


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    """log σ(x) = −log(1 + e^−x), without overflow."""
    return -np.logaddexp(0.0, -x)


def _noisy_bt_objective(x: np.ndarray, data: PairwiseJudgments, weight: float
                        ) -> tuple[float, np.ndarray]:
    """The negative penalised log-likelihood of ``noisybt`` (module doc) and its gradient;
    ``x``: ``s_0``, the documents' ``s``, the workers' ``q``, then their ``γ``."""
    n, n_w = len(data.items), len(data.workers)
    s0, s, q, g = x[0], x[1:n + 1], x[n + 1:n + 1 + n_w], x[n + 1 + n_w:]
    y = np.where(data.left_wins, 1.0, -1.0)
    d = y * (s[data.left] - s[data.right])
    gw, qw = g[data.worker], y * q[data.worker]
    model = _log_sigmoid(gw) + _log_sigmoid(d)          # log σ(γ) σ(y (s_l − s_r))
    bias = _log_sigmoid(-gw) + _log_sigmoid(qw)         # log (1 − σ(γ)) σ(y q)
    log_p = np.logaddexp(model, bias)
    by_model, by_bias = np.exp(model - log_p), np.exp(bias - log_p)   # shares of P
    skill = np.exp(_log_sigmoid(gw))
    d_d = by_model * np.exp(_log_sigmoid(-d)) * y       # ∂ log P / ∂ s_left
    tilt = np.tanh((s - s0) / 2)                        # −∂ anchor term / ∂ s_i
    value = log_p.sum() + weight * (_log_sigmoid(s0 - s) + _log_sigmoid(s - s0)).sum()
    grad = np.concatenate([
        [weight * tilt.sum()],
        np.bincount(data.left, weights=d_d, minlength=n)
        - np.bincount(data.right, weights=d_d, minlength=n) - weight * tilt,
        np.bincount(data.worker, weights=by_bias * np.exp(_log_sigmoid(-qw)) * y,
                    minlength=n_w),
        np.bincount(data.worker, weights=by_model * (1 - skill) - by_bias * skill,
                    minlength=n_w)])
    return -float(value), -grad


def _noisy_bradley_terry(data: PairwiseJudgments, n_iter: int, tol: float, weight: float,
                         report: Callable[[int], None]
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, bool]:
    """Scores σ(s), skills σ(γ), biases σ(q), iterations and converged of ``noisybt``;
    ``report(iterations)`` after each."""
    from scipy.optimize import minimize
    from scipy.special import expit

    n, n_w = len(data.items), len(data.workers)
    iterations = itertools.count(1)
    fit = minimize(_noisy_bt_objective, np.zeros(1 + n + 2 * n_w), args=(data, weight),
                   jac=True, method="L-BFGS-B",
                   options={"maxiter": n_iter, "ftol": tol, "gtol": tol},
                   callback=lambda _: report(next(iterations)))
    x = fit.x
    return (expit(x[1:n + 1]), expit(x[n + 1 + n_w:]), expit(x[n + 1:n + 1 + n_w]),
            int(fit.nit), bool(fit.success))


@PAIRWISE
def aggregate_pairwise(judgments: Any, method: PairwiseMethod = "bt", *,
                       n_iter: int | None = None, tol: float | None = None,
                       regularization: float | None = None,
                       progress: ProgressArg = False) -> PairwiseAggregation:
    """Aggregate pairwise judgments into document scores per topic (module doc).

    Parameters
    ----------
    judgments
        A ``topic worker left right label`` file, bytes, stream or DataFrame, or
        :class:`~irscale.io.pairwise.PairwiseJudgments`; ``label`` is the preferred document.
    method
        ``bt`` (Bradley–Terry, Hunter's MM algorithm) or ``noisybt`` (noisy Bradley–Terry,
        Bugakova et al. 2019); crowd-kit's ``BradleyTerry`` and ``NoisyBT`` are aliases.
    n_iter, tol
        The stopping rule: at most ``n_iter`` iterations (10,000 for ``bt``, 1,000 for
        ``noisybt``), fewer once the change falls below ``tol`` (1e-10).
    regularization
        ``noisybt``: the weight λ of the anchor term (1e-5).
    progress : bool or callable
        Progress in iterations (:mod:`irscale.core.progress`; ``True``: the time of the
        ``n_iter`` iterations left stated when long, measured on the first ones, and a bar;
        the fit stops sooner once converged).

    Returns
    -------
    PairwiseAggregation
        The scores of every topic's documents and, for ``noisybt``, the workers' skill and
        position bias.

    Examples
    --------
    >>> agg = aggregate_pairwise(b"1 w1 a b a\\n1 w2 b a a\\n1 w1 b a b\\n")
    >>> agg.to_frame().round(6)
      topic docno     score
    0     1     a  0.666667
    1     1     b  0.333333
    """
    n_iter = PAIRWISE_N_ITER[method] if n_iter is None else n_iter
    tol = PAIRWISE_TOL[method] if tol is None else tol  # (checked: PAIRWISE_TOLERANCE)
    weight = float(NOISYBT_REGULARIZATION.default  # type: ignore[arg-type]
                   if regularization is None else regularization)
    data = judgments if isinstance(judgments, PairwiseJudgments) else read_pairwise(judgments)
    report = progress_reporter(check_progress(progress), n_iter,
                               f"{method} (stops once converged)",
                               units=PAIRWISE_ITERATIONS)
    workers = pd.DataFrame({"worker": data.workers,
                            "comparisons": np.bincount(data.worker,
                                                       minlength=len(data.workers))})
    if method == "bt":
        score, iterations, converged = _bradley_terry(data, n_iter, tol, report)
    else:
        score, skill, bias, iterations, converged = _noisy_bradley_terry(data, n_iter, tol,
                                                                         weight, report)
        workers = workers.assign(skill=skill, bias=bias)
    report(n_iter)  # (the fit is over: converged, or every iteration run)
    scores = data.items.assign(score=score, order=data.topic)
    scores = scores.sort_values(["order", "score", "docno"], ascending=[True, False, True],
                                kind="stable").drop(columns="order").reset_index(drop=True)
    return PairwiseAggregation(method, scores, workers, iterations, converged)
