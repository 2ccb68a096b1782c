"""User models of offline measures calibrated on a click log (Ferro & Maistro 2024, §5.1,
Table 2): the persistence of RBP, the stopping probabilities of ERR and the Markov chain of
Markov precision, each written as a measure name that :func:`irscale.evaluate` and
``irscale eval -m`` read.

* ``rbp`` — Moffat & Zobel's (2008) user reads rank 1 and moves on from rank i to i + 1
  with probability p. The rank of a session's last click is taken as the depth at which
  its user stopped; on a page of n results, given that the user stopped on the page, the
  depth d follows the truncated geometric law::

      P(d) = (1 − p) p^(d−1) / (1 − p^n),  d = 1..n

  and p is its maximum-likelihood estimate over the sessions with a click (n: each
  session's own length). The log-likelihood is concave in log p, so the estimate is the
  one root of its derivative; there is none in (0, 1) — an error — when every last click
  is at rank 1 (p → 0) or the last clicks lie no higher than uniformly on the page (p ≥ 1).
  Sessions without a click say nothing of the depth and are left out. Name:
  ``RBP(p=...)``.
* ``err`` — the cascade of Chapelle et al. (2009): the user examines the ranks in order
  and stops at rank r with probability ``R_r``. A DBN (Chuklin, Markov & de Rijke 2015,
  §3.8) is fitted on the log (:func:`~irscale.online.fit_click_model`, ``click_model=``
  ``sdbn``, the DBN with γ = 1 that is ERR's cascade, closed form, or ``dbn``, by EM) with
  its parameters tied by degree, as ERR's R depends on the degree alone: every shown
  document stands for its degree in the qrels (a document not judged: degree 0; queries
  are topic ids), so the model has one attractiveness ``α_g`` and one satisfaction
  ``σ_g`` per degree. A document of degree g stops an examining user with probability
  ``R_g = α_g σ_g`` (it attracts a click, then satisfies). Tying the parameters also
  pools the sessions: per (query, document) pair, the SDBN's reading of every session's
  last click as a satisfied one overstates σ for the pairs shown low on the page. Name:
  ``ERR(stop=R0:R1:...)``; a degree no shown document has is an error (no estimate).
* ``markov`` — the chain of Markov precision (Ferrante, Ferro & Maistro 2014) over the
  ranks 1..N of the page: ``P(i → j)`` is estimated from the moves between the successive
  clicks of each session (in the order of their timestamps, or of their ranks when the log
  has none), ``(c_ij + s/(N − 1)) / (c_i + s)`` with ``c_ij`` the moves from i to j,
  ``c_i`` those from i and ``s`` the ``smoothing`` (pseudo-moves spread evenly over the
  other ranks, so that the chain is irreducible; 0: the maximum-likelihood estimate). A
  log has one line per rank of a session, so a rank is clicked at most once per session
  and no move stays on its rank: ``P(i → i) = 0``. Markov precision needs only the
  invariant distribution π of the chain (:mod:`irscale.measures.markov`). Name:
  ``MP(model=given,pi=π1:...:πN)@N``.

Numbers in the names are rounded to 6 significant digits; :attr:`UserModelFit.parameters`
holds them at full precision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..core.params import LOG_SERP
from ..core.progress import declared_memory, measured_estimate
from ..errors import InputError, ParameterError
from ..io.sources import as_qrels
from ..stats.protocol import TableResult
from .clicklog import ClickLog, read_click_log
from .clickmodels import fit_click_model
from .params import CALIBRATE

__all__ = ["USER_MODELS", "UserModelFit", "calibrate"]

#: The user models :func:`calibrate` fits, and the measure each one names.
USER_MODELS = {"rbp": "RBP", "err": "ERR", "markov": "MP"}
UserModel = Literal["rbp", "err", "markov"]
#: The user model of each measure (the canonical names of
#: :data:`irscale.online.params.CALIBRATED`), and of the default's own name.
_MODEL_NAMES: dict[str, UserModel] = {"rbp": "rbp", "RBP": "rbp", "ERR": "err", "MP": "markov"}


@dataclass(frozen=True, eq=False)
class UserModelFit(TableResult):
    """A user model fitted on a click log (:func:`calibrate`): ``measure`` is the measure
    name with the fitted parameters, ``parameters`` the parameters at full precision,
    ``sessions`` the sessions that informed the fit and ``matrix`` the transition matrix
    of the ``markov`` model (rows: from rank 1..N; ``None`` for the others)."""

    model: UserModel
    measure: str
    parameters: tuple[tuple[str, float], ...]
    sessions: int
    matrix: np.ndarray | None = field(default=None, repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per parameter: ``parameter``, ``value``."""
        return pd.DataFrame(self.parameters, columns=["parameter", "value"])

    def __repr__(self) -> str:
        return (f"UserModelFit({self.model}, {self.measure!r}, {self.sessions:,} "
                "sessions)")


@CALIBRATE
def calibrate(log: Any, model: UserModel = "rbp", *, qrels: Any = None,
              click_model: Literal["sdbn", "dbn"] = "sdbn", smoothing: float = 1.0,
              serp_size: int | None = None) -> UserModelFit:
    """Fit the user model of RBP, ERR or Markov precision on a click log (module
    documentation).

    >>> fit = calibrate(b"s1 q 1 a 0\\ns1 q 2 b 1\\ns1 q 3 c 0\\n"
    ...                 b"s2 q 1 a 1\\ns2 q 2 b 0\\ns2 q 3 c 0\\n", "rbp")
    >>> fit.measure
    'RBP(p=0.434259)'

    Parameters
    ----------
    log : ClickLog, path, bytes or DataFrame
        The click log (:func:`~irscale.online.read_click_log`).
    model : {"rbp", "err", "markov"}
        The user model (also spelt as its measure: ``RBP``, ``ERR``, ``MP``).
    qrels : qrels, optional
        ``err`` only, and needed there: the degrees of the logged documents.
    click_model : {"sdbn", "dbn"}
        ``err``: the click model fitted on the log.
    smoothing : float
        ``markov``: pseudo-moves out of every rank (≥ 0); ``err``: the click model's.
    serp_size : int, optional
        Largest rank of the log (:func:`~irscale.online.read_click_log`). The parameters
        are checked on entry (:data:`irscale.online.params.CALIBRATE`): the qrels and the
        click model apply to ``err`` alone (the qrels needed there), the smoothing to
        ``err`` and ``markov``.
    """
    name = _MODEL_NAMES[model]
    clicks = read_click_log(log, serp_size=serp_size)
    if name == "rbp":  # (RBP and ERR: the ranks shown; the Markov chain: the whole page)
        return _rbp(clicks.trimmed())
    if name == "err":
        return _err(clicks.trimmed(), qrels, click_model, float(smoothing))
    return _markov(clicks, float(smoothing))


def _short(value: float) -> str:
    """``value`` to 6 significant digits (as written in measure names)."""
    return f"{value:.6g}"


# --------------------------------------------------------------------------- RBP
def last_click_depths(log: ClickLog) -> tuple[np.ndarray, np.ndarray]:
    """The rank of the last click and the length of every session with a click."""
    clicked = log.clicks & log.valid
    some = clicked.any(axis=1)
    last = log.serp_size - np.argmax(clicked[:, ::-1], axis=1)
    return last[some].astype(np.float64), log.lengths[some].astype(np.float64)


def persistence_mle(depth: np.ndarray, length: np.ndarray) -> float:
    """The maximum-likelihood p of the truncated geometric law of the depths ``d`` on pages
    of ``n`` results: the root of ``Σ (d − 1) − Σ [p/(1 − p) − n pⁿ/(1 − pⁿ)]``, the
    derivative of the log-likelihood in ``θ = log p`` (decreasing: the likelihood is
    concave in θ)."""
    from scipy.optimize import brentq

    if len(depth) == 0:
        raise ParameterError("no session of the log has a click: the depths at which its "
                             "users stopped are unknown")
    excess = float(np.sum(depth - 1.0))
    if excess == 0.0:
        raise ParameterError("every session's last click is at rank 1: the persistence p "
                             "tends to 0, outside RBP's (0, 1)")

    def score(theta: float) -> float:
        p = np.exp(theta)
        tail = np.exp(length * theta)
        return excess - float(np.sum(p / -np.expm1(theta) - length * tail / -np.expm1(
            length * theta)))

    # the expected depth of the law with p → 1 is (n + 1)/2: no root below p = 1 above it
    high = -1e-8
    if excess >= float(np.sum((length - 1.0) / 2.0)) or score(high) > 0:
        raise ParameterError("the last clicks lie no higher on the page than uniformly "
                             "spread ones: the persistence p would be ≥ 1, outside RBP's "
                             "(0, 1)")
    low = -1.0
    while score(low) < 0:  # a very small p: move the bracket down
        low *= 2.0
    return float(np.exp(brentq(score, low, high, xtol=1e-15, rtol=4 * np.finfo(float).eps)))


def _rbp(log: ClickLog) -> UserModelFit:
    depth, length = last_click_depths(log)
    p = persistence_mle(depth, length)
    return UserModelFit("rbp", f"RBP(p={_short(p)})", (("p", p),), len(depth))


# --------------------------------------------------------------------------- ERR
def by_degree(log: ClickLog, qrels: Any) -> ClickLog:
    """``log`` with every shown document replaced by its degree in the qrels (a document
    not judged: degree 0) and every query by one, ``*``: a click model fitted on it has one
    attractiveness and one satisfaction per degree, shared by all queries. Qrels that judge
    no shown document at all are an error (another collection's)."""
    judged = as_qrels(qrels)
    degrees = pd.Series(np.maximum(np.asarray(judged.rel, dtype=np.int64), 0),
                        index=pd.MultiIndex.from_arrays(
                            [np.asarray(judged.topic.to_pylist(), dtype=object),
                             np.asarray(judged.docno.to_pylist(), dtype=object)]))
    valid = log.valid
    code = np.where(valid, log.query[:, None] * len(log.docs) + np.maximum(log.doc, 0), -1)
    pairs, inverse = np.unique(code[valid], return_inverse=True)
    keys = pd.MultiIndex.from_arrays([log.queries[pairs // len(log.docs)],
                                      log.docs[pairs % len(log.docs)]])
    found = degrees.reindex(keys)
    if found.isna().all():
        raise InputError("the qrels judge none of the documents the click log shows (qrels "
                         "of another collection, or query ids written otherwise?)",
                         source=judged.source)
    degree = found.fillna(0).astype(np.int64).to_numpy()
    cells = np.full(code.shape, -1, dtype=np.int64)
    cells[valid] = degree[inverse]
    names = np.array([str(g) for g in range(int(degree.max(initial=0)) + 1)], dtype=object)
    return ClickLog(log.sessions, np.array(["*"], dtype=object), names,
                    np.zeros(len(log.sessions), dtype=np.int64), cells, log.clicks,
                    log.lengths, None, log.source)


def _err(log: ClickLog, qrels: Any, click_model: str, smoothing: float) -> UserModelFit:
    graded = by_degree(log, qrels)
    shown = np.bincount(graded.doc[graded.valid], minlength=len(graded.docs))
    if (shown == 0).any():
        raise ParameterError(f"no document of the log has degree "
                             f"{int(np.flatnonzero(shown == 0)[0])} in the qrels: its "
                             "stopping probability cannot be estimated")
    fit = fit_click_model(graded, click_model, smoothing=smoothing)  # type: ignore[arg-type]
    assert fit.satisfaction is not None
    keys = [("*", name) for name in graded.docs]
    stop = (fit.attractiveness.reindex(keys) * fit.satisfaction.reindex(keys)).to_numpy()
    measure = "ERR(stop=" + ":".join(_short(v) for v in stop) + ")"
    return UserModelFit("err", measure, tuple((f"R{g}", float(v)) for g, v in enumerate(stop)),
                        len(log.sessions))


# --------------------------------------------------------------------------- Markov
def click_moves(log: ClickLog) -> tuple[np.ndarray, np.ndarray]:
    """The (from rank, to rank) of every move between successive clicks of a session (in
    the order of their timestamps, ties and logs without them in rank order), 0-based."""
    s, r = np.nonzero(log.clicks & log.valid)
    if log.timestamps is not None:
        time = log.timestamps[s, r]
        order = np.lexsort((r, np.where(np.isnan(time), np.inf, time), s))
        s, r = s[order], r[order]
    same = s[1:] == s[:-1]
    return r[:-1][same], r[1:][same]


def stationary(matrix: np.ndarray) -> np.ndarray:
    """The invariant distribution π of a stochastic matrix: π P = π, Σ π = 1 (least
    squares, exact for an irreducible chain)."""
    n = len(matrix)
    system = np.vstack((matrix.T - np.eye(n), np.ones((1, n))))
    target = np.zeros(n + 1)
    target[-1] = 1.0
    pi = np.linalg.lstsq(system, target, rcond=None)[0]
    return np.clip(pi, 0.0, None) / np.clip(pi, 0.0, None).sum()


#: SERP size on which the cost of the stationary distribution is measured before a larger
#: one is solved (its least squares cost grows as the cube of the SERP size).
TIMED_RANKS = 400


def _check_markov_cost(n: int) -> None:
    """Refuse, before any table is built, a Markov model whose ``n × n`` tables (the counts,
    the smoothing, the weights, the transition matrix, the least-squares system and its
    copy: six) exceed the memory limit (:func:`irscale.core.progress.declared_memory`: the
    SERP size declares the cost); announce one whose stationary distribution takes
    longer than :data:`~irscale.core.progress.NOTICE_SECONDS`, its time measured on
    :data:`TIMED_RANKS` ranks and scaled by ``(n / TIMED_RANKS)³``
    (:func:`irscale.core.progress.measured_estimate`)."""
    need = 48.0 * n * n
    declared_memory(LOG_SERP, need, f"the Markov user model on a SERP size of {n:,} "
                    "(--serp-size): its tables")
    if n > TIMED_RANKS:
        measured_estimate(
            LOG_SERP, f"the stationary distribution of the Markov user model on a SERP size "
            f"of {n:,}", lambda: stationary(np.full((TIMED_RANKS, TIMED_RANKS),
                                                    1.0 / TIMED_RANKS)),
            (n / TIMED_RANKS) ** 3, f"measured on {TIMED_RANKS} ranks, growing as the cube "
            "of the SERP size")


def _markov(log: ClickLog, smoothing: float) -> UserModelFit:
    n = log.serp_size
    if n < 2:
        raise ParameterError("the Markov user model needs pages of 2 ranks or more")
    _check_markov_cost(n)
    start, end = click_moves(log)
    counts = np.zeros((n, n))
    np.add.at(counts, (start, end), 1.0)
    spread = np.full((n, n), smoothing / (n - 1))
    np.fill_diagonal(spread, 0.0)
    weights = counts + spread
    out = weights.sum(axis=1)
    if (out == 0).any():
        rank = int(np.flatnonzero(out == 0)[0]) + 1
        raise ParameterError(f"no move leaves rank {rank} in the log: its transitions are "
                             "unknown (give smoothing > 0)")
    matrix = weights / out[:, None]
    pi = stationary(matrix)
    measure = f"MP(model=given,pi={':'.join(_short(v) for v in pi)})@{n}"
    sessions = int(((log.clicks & log.valid).sum(axis=1) >= 2).sum())
    return UserModelFit("markov", measure, tuple((f"pi{i + 1}", float(v))
                                                  for i, v in enumerate(pi)),
                        sessions, matrix)
